// SPDX-License-Identifier: GPL-2.0-or-later
/* daemon.c: -D. staprun forks before it loads the module; the parent stays
 * in the foreground (so that load and start errors reach the terminal and
 * the exit status) until the child has started the session, then exits 0. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "staprun/staprun.h"

int detach_prepare(int *notify_fd)
{
	int p[2], status;
	pid_t pid;
	ssize_t r;
	char c;

	if (pipe(p))
		return -errno;
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close(p[0]);
		close(p[1]);
		return -e;
	}
	if (pid == 0) {
		close(p[0]);
		fcntl(p[1], F_SETFD, FD_CLOEXEC);
		*notify_fd = p[1];
		return 0;
	}
	close(p[1]);
	do {
		r = read(p[0], &c, 1);
	} while (r < 0 && errno == EINTR);
	if (r == 1)
		_exit(0);
	/* the child ended before it could start: its status is ours */
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			_exit(1);
	}
	if (WIFEXITED(status))
		_exit(WEXITSTATUS(status));
	_exit(1);
}

void detach_done(int notify_fd)
{
	int fd;

	if (notify_fd < 0)
		return;
	setsid();
	fd = open("/dev/null", O_RDWR);
	if (fd >= 0) {
		dup2(fd, STDIN_FILENO);
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		if (fd > STDERR_FILENO)
			close(fd);
	}
	while (write(notify_fd, "s", 1) < 0 && errno == EINTR)
		;
	close(notify_fd);
}
