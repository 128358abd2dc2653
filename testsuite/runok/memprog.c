// SPDX-License-Identifier: GPL-2.0-or-later
/* testsuite/runok/memprog.c: a process of known size and limits for the proc_mem_*,
 * task_rlimit* and pstrace tests. It sets RLIMIT_NOFILE to 123/456, RLIMIT_CORE to 0/1 MiB
 * and RLIMIT_STACK's soft limit to 4 MiB, touches 64 KiB of heap (data) and 8 pages of a
 * shared anonymous mapping (shr), then forks. The child grows its address space (PROT_NONE
 * mappings, /proc/self/statm's size) to 300, 563, 2600, 2620, 25700, 262143 and 400000 pages,
 * calling getppid() (the tests' probe point) at each size, then calls getppid() every 100 ms
 * until it is killed; the parent waits for it.
 *
 * Built by testsuite/runok/run with `gcc -static -O1 -Wall` (`# PROG: memprog.c`) and run
 * in the guest as /m/prog/memprog. Prints nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static const long sizes[] = { 300, 563, 2600, 2620, 25700, 262143, 400000 };

/* Map PROT_NONE pages until the address space has @pages pages. */
static void grow(long pages)
{
	long cur = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (!f)
		return;
	if (fscanf(f, "%ld", &cur) != 1)
		cur = pages;
	fclose(f);
	if (pages > cur)
		mmap(NULL, (pages - cur) * 4096, PROT_NONE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
}

int main(void)
{
	struct rlimit nofile = { 123, 456 }, core = { 0, 1 << 20 }, stack;
	char *heap, *shr;
	pid_t child;

	setrlimit(RLIMIT_NOFILE, &nofile);
	setrlimit(RLIMIT_CORE, &core);
	getrlimit(RLIMIT_STACK, &stack);
	stack.rlim_cur = 4 << 20;
	setrlimit(RLIMIT_STACK, &stack);
	heap = malloc(64 << 10);
	shr = mmap(NULL, 8 * 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (!heap || shr == MAP_FAILED)
		return 1;
	memset(heap, 1, 64 << 10);
	memset(shr, 1, 8 * 4096);
	child = fork();
	if (child == 0) {
		for (unsigned int i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			grow(sizes[i]);
			getppid();
		}
		for (;;) {
			getppid();
			usleep(100000);
		}
	}
	if (child > 0)
		waitpid(child, NULL, 0);
	return 0;
}
