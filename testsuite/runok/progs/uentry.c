/* uentry.c: calls for the tests of values at entry in process(...)
 * .return probes: a function compiled without optimisation (its
 * parameters live in its stack frame only after the prologue), a
 * recursive one, and one left by longjmp (its return never happens). */
#include <fcntl.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static jmp_buf env;

__attribute__((noinline, optimize("O0"))) int add_o0(int a, int b)
{
	int sum = a + b;

	return sum;
}

__attribute__((noinline)) long fact(int n)
{
	__asm__ volatile("" ::: "memory");
	return n <= 1 ? 1 : n * fact(n - 1);
}

__attribute__((noinline)) int label_len(const char *s, int times)
{
	__asm__ volatile("" ::: "memory");
	return (int)strlen(s) * times;
}

__attribute__((noinline)) int jumper(int x)
{
	__asm__ volatile("" ::: "memory");
	if (x > 1)
		longjmp(env, x);
	return x;
}

int main(void)
{
	long s = 0;
	int i, fd = open("/dev/null", O_WRONLY);

	if (fd >= 0) {		/* the test compares staprun's output only */
		dup2(fd, 1);
		dup2(fd, 2);
	}
	s += add_o0(3, 4);
	s += add_o0(10, 20);
	s += label_len("entry", 3);
	s += fact(4);
	for (i = 1; i <= 3; i++) {
		if (setjmp(env) == 0)
			s += jumper(i);
	}
	s += add_o0(100, 200);
	printf("%ld\n", s);
	return 0;
}
