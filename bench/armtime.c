// SPDX-License-Identifier: GPL-2.0-or-later
/* bench/armtime.c: the guest half of bench/kprobe-arm (static, run in the VM guest).
 *
 *   armtime count
 *       prints the probes armed now: lines of /sys/kernel/debug/kprobes/list plus lines of
 *       /sys/kernel/tracing/enabled_functions (function entries armed through ftrace, ours
 *       through one ftrace_ops, the kernel's own kprobes on ftrace sites)
 *   armtime calibrate STAPRUN MODULE [STAPRUN-ARGS...]
 *       runs the module until that count has not changed for 2 s, prints "ARMED N", stops it
 *       (SIGINT) and waits for staprun
 *   armtime time N STAPRUN MODULE [STAPRUN-ARGS...]
 *       starts staprun, polls the count until it reaches N ("ARM ns": from the fork to then),
 *       waits 1 s, sends SIGINT and polls until the count is 0 ("DISARM ns": from the signal
 *       to then), then waits for staprun to exit ("EXIT ns", "RC status")
 * Reading the two files costs the guest's one CPU time in proportion to what they list (a
 * symbol lookup per line), so a poll waits 20 ms or four times as long as the read took,
 * whichever is longer: the reads take at most a fifth of the CPU whatever the probe count.
 * Times are CLOCK_MONOTONIC; a count that is not reached in 300 s ends the run ("TIMEOUT").
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static long lines(const char *path)
{
	static char buf[1 << 16];
	long n = 0;
	ssize_t r;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return 0;
	while ((r = read(fd, buf, sizeof(buf))) > 0) {
		ssize_t i;

		for (i = 0; i < r; i++)
			n += buf[i] == '\n';
	}
	close(fd);
	return n;
}

static long count(void)
{
	return lines("/sys/kernel/debug/kprobes/list") +
	       lines("/sys/kernel/tracing/enabled_functions");
}

static void pause_ms(long ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&t, NULL);
}

/* Wait before the next poll: 20 ms, or 4 times the read that took @read_ns. */
static void backoff(long long read_ns)
{
	long ms = (long)(read_ns * 4 / 1000000);

	pause_ms(ms > 20 ? ms : 20);
}

static pid_t start(char **argv)
{
	pid_t p = fork();

	if (p == 0) {
		int fd = open("/dev/null", O_WRONLY);

		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execv(argv[0], argv);
		_exit(127);
	}
	return p;
}

int main(int argc, char **argv)
{
	long long t0, t1;
	int st = 0;
	pid_t p;

	if (argc >= 2 && !strcmp(argv[1], "count")) {
		printf("%ld\n", count());
		return 0;
	}
	if (argc >= 4 && !strcmp(argv[1], "calibrate")) {
		long last = -1, n;
		long long since = now_ns();
		int same = 0, i;

		p = start(argv + 2);
		/* stable for 2 s (and at least 100 polls) */
		for (i = 0; i < 30000; i++) {
			long long t = now_ns();

			n = count();
			if (n && n == last) {
				if (++same >= 100 && now_ns() - since > 2000000000LL)
					break;
			} else {
				same = 0;
				since = now_ns();
			}
			last = n;
			backoff(now_ns() - t);
		}
		printf("ARMED %ld\n", last);
		kill(p, SIGINT);
		waitpid(p, &st, 0);
		return 0;
	}
	if (argc >= 5 && !strcmp(argv[1], "time")) {
		long want = atol(argv[2]);
		int timeout = 0;

		t0 = now_ns();
		p = start(argv + 3);
		for (;;) {
			long long t = now_ns();

			if (count() >= want)
				break;
			if (now_ns() - t0 > 300000000000LL) {
				timeout = 1;
				break;
			}
			backoff(now_ns() - t);
		}
		t1 = now_ns();
		if (timeout)
			printf("TIMEOUT\n");
		else
			printf("ARM %lld\n", t1 - t0);
		pause_ms(1000);
		t0 = now_ns();
		kill(p, SIGINT);
		for (;;) {
			long long t = now_ns();

			if (!count() || now_ns() - t0 > 300000000000LL)
				break;
			backoff(now_ns() - t);
		}
		t1 = now_ns();
		printf("DISARM %lld\n", t1 - t0);
		waitpid(p, &st, 0);
		printf("EXIT %lld\n", now_ns() - t0);
		printf("RC %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
		return 0;
	}
	fprintf(stderr, "usage: armtime count | calibrate STAPRUN MODULE... | time N STAPRUN MODULE...\n");
	return 2;
}
