// SPDX-License-Identifier: GPL-2.0-or-later
/* vmtouch.c: memory activity for the vm.* family tests: page faults at a
 * fixed address (read, write, read then write), a shared mapping written
 * after a read, brk growth, an anonymous mmap/munmap, and a pipe (kmalloc
 * in the kernel). Output goes to /dev/null. */
#include <fcntl.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#define BASE ((void *)0x10000000UL)

int main(void)
{
	volatile char *p;
	char c = 0;
	int fd[2];
	void *q;

	p = mmap(BASE, 4 * 4096, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	c += p[0];		/* read fault, page 0 */
	p[4096] = 1;		/* write fault, page 1 */
	c += p[2 * 4096];	/* read fault, page 2 (zero page) ... */
	p[2 * 4096] = c;	/* ... then a write fault on it */
	q = mmap((void *)0x20000000UL, 8192, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	if (q != MAP_FAILED) {
		c += ((volatile char *)q)[0];	/* read fault, shared page */
		((volatile char *)q)[0] = 2;	/* write to the shared page */
		munmap(q, 8192);
	}
	sbrk(3 * 4096);
	if (pipe(fd) == 0) {
		close(fd[0]);
		close(fd[1]);
	}
	munmap((void *)p, 4 * 4096);
	return c == 42;
}
