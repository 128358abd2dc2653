// SPDX-License-Identifier: GPL-2.0-or-later
/* testsuite/runok/lifeprog.c: a small fork/exec/exit tree for the process
 * lifecycle tests (process.begin/.end/.thread.begin/.thread.end). Run
 * without arguments, it forks a child that execs this program again with
 * the argument "thread" (which starts one thread, joins it and exits 0),
 * waits for it, then forks a child that exits 3 without exec'ing, and
 * waits for that one. Everything happens in order, so pids and the order
 * of events are the same at every run. Prints nothing.
 *
 * Built by testsuite/runok/run with `gcc -static` (`# PROG: lifeprog.c`)
 * and run in the guest as /m/prog/lifeprog.
 */
#include <pthread.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void *thread_main(void *arg)
{
	(void)arg;
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;
	pid_t p;

	if (argc > 1 && !strcmp(argv[1], "thread")) {
		if (pthread_create(&t, NULL, thread_main, NULL))
			return 1;
		pthread_join(t, NULL);
		/* the join returns when the thread's tid is cleared, before
		 * its exit is complete: let it end first */
		usleep(100000);
		return 0;
	}
	p = fork();
	if (p == 0) {
		execl("/proc/self/exe", "lifeprog", "thread", (char *)NULL);
		_exit(127);
	}
	if (p > 0)
		waitpid(p, NULL, 0);
	p = fork();
	if (p == 0)
		_exit(3);
	if (p > 0)
		waitpid(p, NULL, 0);
	return 0;
}
