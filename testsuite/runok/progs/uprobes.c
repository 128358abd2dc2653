/* uprobes.c: a small program for the uprobe tests (process(...).function
 * and .return): a few calls with integer, pointer and string arguments. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

__attribute__((noinline)) long add(long a, int b)
{
	__asm__ volatile("" ::: "memory");
	return a + b;
}

__attribute__((noinline)) int greet(const char *who, int times)
{
	__asm__ volatile("" ::: "memory");
	return (int)strlen(who) * times;
}

int main(void)
{
	long s = 0;
	int i, fd = open("/dev/null", O_WRONLY);

	if (fd >= 0) {		/* the test compares staprun's output only */
		dup2(fd, 1);
		dup2(fd, 2);
	}
	for (i = 1; i <= 3; i++)
		s = add(s, i * 10);
	s += greet("world", 2);
	printf("%ld\n", s);
	return 0;
}
