// SPDX-License-Identifier: GPL-2.0-or-later
/* target.c: the -c command: forked before "start" (its pid is target()),
 * held on a pipe until the probes run, then exec'd through /bin/sh. */
#define _GNU_SOURCE	/* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "staprun/staprun.h"

int target_spawn(struct target_cmd *t, const char *cmd, const void *mask)
{
	int p[2];
	pid_t pid;

	t->pid = 0;
	t->go_fd = -1;
	t->status = 0;
	if (pipe2(p, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close(p[0]);
		close(p[1]);
		return -e;
	}
	if (pid == 0) {
		char go = 0;
		ssize_t r;

		close(p[1]);
		do {
			r = read(p[0], &go, 1);
		} while (r < 0 && errno == EINTR);
		if (r != 1 || go != 'g')
			_exit(127);
		close(p[0]);
		sigprocmask(SIG_SETMASK, mask, NULL);
		signal(SIGPIPE, SIG_DFL);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		fprintf(stderr, "ERROR: Couldn't run /bin/sh for -c: %s\n",
			strerror(errno));
		_exit(127);
	}
	close(p[0]);
	t->pid = pid;
	t->go_fd = p[1];
	return 0;
}

void target_release(struct target_cmd *t, bool go)
{
	if (t->go_fd < 0)
		return;
	if (go) {
		ssize_t r;

		do {
			r = write(t->go_fd, "g", 1);
		} while (r < 0 && errno == EINTR);
	}
	close(t->go_fd);
	t->go_fd = -1;
}

int target_reap(struct target_cmd *t)
{
	pid_t r;

	if (t->pid <= 0)
		return 0;
	do {
		r = waitpid(t->pid, &t->status, WNOHANG);
	} while (r < 0 && errno == EINTR);
	if (r == t->pid || (r < 0 && errno == ECHILD)) {
		t->pid = 0;
		return 1;
	}
	return 0;
}

void target_end(struct target_cmd *t)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = 10 * 1000 * 1000 };
	int i;

	target_release(t, false);
	if (t->pid <= 0 || target_reap(t))
		return;
	kill(t->pid, SIGTERM);
	/* give it a second to go, then leave it be */
	for (i = 0; i < 100; i++) {
		if (target_reap(t))
			return;
		nanosleep(&ts, NULL);
	}
}
