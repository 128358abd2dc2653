// SPDX-License-Identifier: GPL-2.0-or-later
/* sendprog.c: send() and recv() on a socket pair, three times each. On
 * x86-64 the C library makes them sendto and recvfrom system calls (the
 * kernel has no send or recv there); syscall_never checks which aliases
 * fire. */
#include <sys/socket.h>
#include <unistd.h>

int main(void)
{
	char buf[16];
	int sv[2], i;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return 1;
	for (i = 0; i < 3; i++) {
		if (send(sv[0], "ping", 4, 0) != 4)
			return 2;
		if (recv(sv[1], buf, sizeof(buf), 0) != 4)
			return 3;
	}
	close(sv[0]);
	close(sv[1]);
	return 0;
}
