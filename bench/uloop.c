// SPDX-License-Identifier: GPL-2.0-or-later
/* bench/uloop.c: the guest workload of bench/probe-overhead --uprobe.
 *
 * `uloop N` calls the small function uloop_small() N times in a tight loop (it is noinline
 * and its result is used, so each iteration is one real call: one uprobe hit at its entry,
 * one uretprobe hit at its return) and prints the elapsed CLOCK_MONOTONIC time of the loop
 * in ns. One call is made before the clock starts (as syscallloop makes one getppid).
 *
 * Built static with -O2 (the guest has no libc); the probe scripts name it /m/uloop, and
 * both translators read it through --sysroot. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long long ns(const struct timespec *t)
{
	return (long long)t->tv_sec * 1000000000LL + t->tv_nsec;
}

__attribute__((noinline)) long uloop_small(long x)
{
	__asm__ volatile("" : "+r"(x));	/* not folded into the caller */
	return x * 3 + 1;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 0, i, sum;
	struct timespec a, b;

	if (n <= 0) {
		fprintf(stderr, "usage: uloop N\n");
		return 2;
	}
	sum = uloop_small(0);
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < n; i++)
		sum += uloop_small(i);
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%lld\n", ns(&b) - ns(&a));
	return sum == 42;	/* never: keeps the calls */
}
