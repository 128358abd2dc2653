// SPDX-License-Identifier: GPL-2.0-or-later
/* perfprog: the workload of testsuite/runok/perf_process: CPU time in
 * the main thread, in a second thread, then in a forked child (the same
 * program, no exec), then in a child that execs /bin/sh to spin there
 * (another program: not sampled). Each part burns about 0.2 s of CPU,
 * one after the other. */
#include <pthread.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void spin(double secs)
{
	struct timespec t0, t;
	volatile unsigned long x = 0;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	do {
		for (int i = 0; i < 100000; i++)
			x += (unsigned long)i;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	} while ((double)(t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9 < secs);
}

static void *thread(void *arg)
{
	(void)arg;
	spin(0.2);
	return NULL;
}

int main(void)
{
	pthread_t th;
	pid_t p;

	spin(0.2);
	pthread_create(&th, NULL, thread, NULL);
	pthread_join(th, NULL);
	p = fork();
	if (p == 0) {
		spin(0.2);
		_exit(0);
	}
	waitpid(p, NULL, 0);
	p = fork();
	if (p == 0) {
		execl("/bin/sh", "sh", "-c", "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done",
		      (char *)NULL);
		_exit(127);
	}
	waitpid(p, NULL, 0);
	return 0;
}
