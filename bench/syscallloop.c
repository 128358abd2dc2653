// SPDX-License-Identifier: GPL-2.0-or-later
/* bench/syscallloop.c: the guest workload of bench/probe-overhead and bench/output-rate.
 *
 * `syscallloop N` makes N getppid system calls through syscall(2) (so that each one enters
 * the kernel: one call of __x64_sys_getppid on x86-64) and prints the elapsed CLOCK_MONOTONIC
 * time of the loop in ns.
 *
 * `syscallloop N FILE` (bench/output-rate: FILE is the file staprun writes the probe's output
 * to) then waits for that output to arrive: it polls FILE's size every millisecond until it
 * has not changed for QUIET ms (default 1000; third argument), and prints on one line
 *   LOOP_NS SIZE0 SIZE1 LAST_NS SIZE2
 * the loop's time, FILE's size before the loop, at its end, the time from the loop's start
 * to the last change of size seen, and the final size. SIZE2 - SIZE0 is what was delivered
 * for this run, LAST_NS the time it took to deliver it (1 ms resolution).
 *
 * Built static with -O2 (the guest has no libc). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long long ns(const struct timespec *t)
{
	return (long long)t->tv_sec * 1000000000LL + t->tv_nsec;
}

static long long size_of(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 0, i, ppid;
	const char *file = argc > 2 ? argv[2] : NULL;
	long quiet = argc > 3 ? atol(argv[3]) : 1000;
	long long size0 = 0, size1, size2, last;
	struct timespec a, b, t;
	const struct timespec ms = { 0, 1000000 };

	if (n <= 0 || quiet <= 0) {
		fprintf(stderr, "usage: syscallloop N [FILE [QUIET-MS]]\n");
		return 2;
	}
	if (file)
		size0 = size_of(file);
	ppid = syscall(SYS_getppid);
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < n; i++)
		if (syscall(SYS_getppid) != ppid) {
			fprintf(stderr, "syscallloop: getppid changed\n");
			return 1;
		}
	clock_gettime(CLOCK_MONOTONIC, &b);
	if (!file) {
		printf("%lld\n", ns(&b) - ns(&a));
		return 0;
	}
	size1 = size2 = size_of(file);
	last = ns(&b);
	for (;;) {
		long long s;

		nanosleep(&ms, NULL);
		clock_gettime(CLOCK_MONOTONIC, &t);
		s = size_of(file);
		if (s != size2) {
			size2 = s;
			last = ns(&t);
		} else if (ns(&t) - last >= quiet * 1000000LL) {
			break;
		}
	}
	printf("%lld %lld %lld %lld %lld\n", ns(&b) - ns(&a), size0, size1, last - ns(&a), size2);
	return 0;
}
