/* uentry0.c: a program compiled without optimisation (# PROG-CFLAGS:
 * -O0) for the values at entry of process(...).function(...).return
 * probes: the parameters are stored in the stack frame by the prologue,
 * past the function's first instruction. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int add_o0(int a, int b)
{
	int sum = a + b;

	return sum;
}

long twice(long v)
{
	return v <= 0 ? 0 : 2 + twice(v - 1);
}

int main(void)
{
	long s = 0;
	int fd = open("/dev/null", O_WRONLY);

	if (fd >= 0) {		/* the test compares staprun's output only */
		dup2(fd, 1);
		dup2(fd, 2);
	}
	s += add_o0(3, 4);
	s += add_o0(10, 20);
	s += twice(2);
	s += add_o0(100, 200);
	printf("%ld\n", s);
	return 0;
}
