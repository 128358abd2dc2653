/* bare.c: a dynamically linked program for the bare process.* points under
 * -c (runok uprobe_bare_c): a function with parameters, an SDT marker, and
 * calls of libc functions through the PLT. */
#include <fcntl.h>
#include <stdio.h>
#include <sys/sdt.h>
#include <unistd.h>

__attribute__((noinline)) long work(long a, int b)
{
	__asm__ volatile("" ::: "memory");
	return a * b;
}

int main(void)
{
	long s = 1;
	int i, fd = open("/dev/null", O_WRONLY);

	if (fd >= 0) {		/* the test compares staprun's output only */
		dup2(fd, 1);
		dup2(fd, 2);
	}
	for (i = 1; i <= 3; i++) {
		s = work(s + i, i);
		DTRACE_PROBE2(bare, step, i, s);
	}
	printf("%ld\n", s);
	return getppid() == 0;
}
