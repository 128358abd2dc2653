// SPDX-License-Identifier: GPL-2.0-or-later
/* perfcount: the workload of testsuite/runok/perf_counter: five rounds,
 * each burning about 20 ms of CPU and then calling mark(round), a
 * function the test probes to read its task-clock counter. */
#include <time.h>

static void spin(double secs)
{
	struct timespec t0, t;
	volatile unsigned long x = 0;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	do {
		for (int i = 0; i < 10000; i++)
			x += (unsigned long)i;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	} while ((double)(t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9 < secs);
}

__attribute__((noinline)) void mark(int round)
{
	__asm__ volatile("" : : "r"(round) : "memory");
}

int main(void)
{
	for (int round = 1; round <= 5; round++) {
		spin(0.02);
		mark(round);
	}
	return 0;
}
