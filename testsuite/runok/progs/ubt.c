/* ubt.c: a small program for the user-space symbol and backtrace tests
 * (usym_*): main -> outer -> middle -> leaf, and a system call made from
 * a known function (getppid from syscaller). */
#include <stdio.h>
#include <unistd.h>

int counter;
static char buffer[64];

__attribute__((noinline)) int leaf(int n)
{
	__asm__ volatile("" ::: "memory");
	counter += n;
	return counter * 2;
}

__attribute__((noinline)) int middle(int n)
{
	int r = leaf(n + 1);

	__asm__ volatile("" ::: "memory");
	return r + 1;
}

__attribute__((noinline)) int outer(int n)
{
	int r = middle(n * 2);

	__asm__ volatile("" ::: "memory");
	return r + 3;
}

__attribute__((noinline)) long syscaller(void)
{
	long r = getppid();

	__asm__ volatile("" ::: "memory");
	return r + 1;
}

int main(void)
{
	long s = outer(5);

	s += syscaller();
	buffer[0] = (char)s;
	__asm__ volatile("" ::: "memory");
	return buffer[0] == 1 ? 1 : 0;
}
