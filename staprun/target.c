// SPDX-License-Identifier: GPL-2.0-or-later
/* target.c: the -c command: forked before "start" (its pid is target()),
 * held on a pipe until the probes run, then exec'd: directly when it is a
 * simple command line, through /bin/sh -c when it needs a shell. */
#define _GNU_SOURCE	/* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "staprun/staprun.h"

/* Characters that only a shell gives a meaning to: quoting, expansion,
 * globbing, redirection, pipes, lists, grouping, comments, history. */
static const char shell_chars[] = "|&;<>()$`\\\"'*?[]{}!\n";

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * target_argv - @cmd split into words at blanks, for execvp(), when it is a
 * simple command line: no shell metacharacter, no word starting with ~ or #,
 * no NAME=VALUE assignment before the command. Returns a malloc'd,
 * NULL-terminated vector whose strings live in the same block (one free()),
 * or NULL when @cmd needs /bin/sh (or is empty, or on ENOMEM: the shell then
 * reports what is wrong).
 */
static char **target_argv(const char *cmd)
{
	size_t len = strlen(cmd), words = 0, i;
	char **argv, *buf;
	bool in_word = false;

	if (strpbrk(cmd, shell_chars))
		return NULL;
	for (i = 0; i < len; i++) {
		if (is_blank(cmd[i])) {
			in_word = false;
			continue;
		}
		if (!in_word) {
			if (cmd[i] == '~' || cmd[i] == '#')
				return NULL;
			words++;
		}
		in_word = true;
	}
	if (!words)
		return NULL;
	/* an assignment in the first word (FOO=1 cmd) is for the shell */
	for (i = 0; i < len && is_blank(cmd[i]); i++)
		;
	for (; i < len && !is_blank(cmd[i]); i++)
		if (cmd[i] == '=')
			return NULL;

	argv = malloc((words + 1) * sizeof(*argv) + len + 1);
	if (!argv)
		return NULL;
	buf = (char *)(argv + words + 1);
	memcpy(buf, cmd, len + 1);
	words = 0;
	in_word = false;
	for (i = 0; i < len; i++) {
		if (is_blank(buf[i])) {
			buf[i] = '\0';
			in_word = false;
		} else if (!in_word) {
			argv[words++] = buf + i;
			in_word = true;
		}
	}
	argv[words] = NULL;
	return argv;
}

int target_spawn(struct target_cmd *t, const char *cmd, const void *mask)
{
	char **argv;
	int p[2];
	pid_t pid;

	t->pid = 0;
	t->go_fd = -1;
	t->status = 0;
	if (pipe2(p, O_CLOEXEC))
		return -errno;
	argv = target_argv(cmd);
	pid = fork();
	if (pid < 0) {
		int e = errno;

		free(argv);
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
		if (argv) {
			/* a simple command: no shell between staprun and
			 * target(), as its start-up would be traced too */
			execvp(argv[0], argv);
			fprintf(stderr, "ERROR: Couldn't run '%s' for -c: %s\n",
				argv[0], strerror(errno));
			_exit(errno == ENOENT ? 127 : 126);
		}
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		fprintf(stderr, "ERROR: Couldn't run /bin/sh for -c: %s\n",
			strerror(errno));
		_exit(127);
	}
	free(argv);
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
