// SPDX-License-Identifier: GPL-2.0-or-later
/* ptyprog: a deterministic workload on a pseudo-terminal for the tty.*
 * tests (testsuite/dwarfok/fam_tty*), run under staprun -c.
 *
 * Mounts devpts on /dev/pts (the VM's /init does not), opens /dev/ptmx and
 * its slave, turns the slave's echo off (TCSETS), sets its window size
 * twice (24x80, then 30x100 with pixel sizes), writes "hello\n" into the
 * master (the slave's line discipline receives it), polls the slave and
 * reads the line from it, writes "world!\n" to the slave, reads that from
 * the master, then closes both. Each step waits for the previous one.
 * Output goes to /dev/null (staprun's stdout is the test's). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

static void die(const char *what)
{
	perror(what);
	exit(1);
}

int main(void)
{
	struct winsize ws = { .ws_row = 24, .ws_col = 80 };
	struct pollfd pfd;
	struct termios t;
	char name[32], buf[64];
	int master, slave, n, unlock = 0, null;

	null = open("/dev/null", O_WRONLY);
	if (null >= 0) {
		dup2(null, 1);
		dup2(null, 2);
	}
	mkdir("/dev/pts", 0755);
	if (mount("devpts", "/dev/pts", "devpts", 0, "ptmxmode=0666") && access("/dev/pts/ptmx", F_OK))
		die("mount devpts");
	master = open("/dev/ptmx", O_RDWR | O_NOCTTY);
	if (master < 0)
		die("/dev/ptmx");
	if (ioctl(master, TIOCSPTLCK, &unlock) || ioctl(master, TIOCGPTN, &n))
		die("unlockpt");
	snprintf(name, sizeof(name), "/dev/pts/%d", n);
	slave = open(name, O_RDWR | O_NOCTTY);
	if (slave < 0)
		die(name);
	if (tcgetattr(slave, &t))
		die("tcgetattr");
	t.c_lflag &= ~(ECHO | ECHOE | ECHOK | ECHONL);
	t.c_oflag &= ~OPOST;
	if (tcsetattr(slave, TCSANOW, &t))
		die("tcsetattr");
	if (ioctl(slave, TIOCSWINSZ, &ws))
		die("TIOCSWINSZ");
	ws = (struct winsize){ .ws_row = 30, .ws_col = 100, .ws_xpixel = 800, .ws_ypixel = 600 };
	if (ioctl(slave, TIOCSWINSZ, &ws))
		die("TIOCSWINSZ");
	if (write(master, "hello\n", 6) != 6)
		die("write master");
	pfd = (struct pollfd){ .fd = slave, .events = POLLIN };
	if (poll(&pfd, 1, 5000) != 1)
		die("poll");
	if (read(slave, buf, sizeof(buf)) != 6)
		die("read slave");
	if (write(slave, "world!\n", 7) != 7)
		die("write slave");
	pfd = (struct pollfd){ .fd = master, .events = POLLIN };
	if (poll(&pfd, 1, 5000) != 1)
		die("poll master");
	if (read(master, buf, sizeof(buf)) != 7)
		die("read master");
	close(slave);
	close(master);
	return 0;
}
