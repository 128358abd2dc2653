// SPDX-License-Identifier: GPL-2.0-or-later
/* finjprog: the user program of testsuite/faults/inject.stp's uprobes:
 * calls work() ARGV[1] times (default 100). */
#include <stdlib.h>

__attribute__((noinline)) int work(int i)
{
	__asm__ volatile("" ::: "memory");
	return i * 2 + 1;
}

int main(int argc, char **argv)
{
	int i, n = argc > 1 ? atoi(argv[1]) : 100, s = 0;

	for (i = 0; i < n; i++)
		s += work(i);
	return s == -1;
}
