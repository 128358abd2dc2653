// SPDX-License-Identifier: GPL-2.0-or-later
/* netprog: a deterministic loopback workload for the tcp.*, udp.*,
 * socket.*, ipmib.*, tcpmib.* and linuxmib.* tests (testsuite/dwarfok/
 * fam_net_*), run as `netprog` under staprun -c. Brings lo up with
 * 127.0.0.1, then, one step after the other:
 *  1. TCP: a listener on 127.0.0.1:7001; a client bound to port 40001
 *     sets TCP_NODELAY, connects, write()s "hello" (5 bytes); the server
 *     recv()s it and send()s "world!" (6 bytes), the client read()s it;
 *     both close (the client first).
 *  2. TCP: a client bound to 40002 connects, is accepted, then
 *     disconnects with connect(AF_UNSPEC) (a reset).
 *  3. TCP: a client bound to 40003 connects to 7002, where nobody
 *     listens (refused).
 *  4. UDP: a server on 7003, a client on 40004 sendto()s "udp-msg"
 *     (7 bytes), the server recvfrom()s it; the client connects to the
 *     server and disconnects (connect(AF_UNSPEC)).
 * Output goes to /dev/null (staprun's stdout is the test's). */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

static struct sockaddr_in lo_addr(int port)
{
	struct sockaddr_in a;

	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons(port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return a;
}

static void lo_up(void)
{
	struct ifreq ifr;
	struct sockaddr_in a = lo_addr(0);
	int s = socket(AF_INET, SOCK_DGRAM, 0);

	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, "lo");
	memcpy(&ifr.ifr_addr, &a, sizeof(a));
	ioctl(s, SIOCSIFADDR, &ifr);
	ioctl(s, SIOCGIFFLAGS, &ifr);
	ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
	ioctl(s, SIOCSIFFLAGS, &ifr);
	close(s);
}

static int bound(int type, int port)
{
	struct sockaddr_in a = lo_addr(port);
	int one = 1;
	int s = socket(AF_INET, type, 0);

	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	bind(s, (struct sockaddr *)&a, sizeof(a));
	return s;
}

static int connect_to(int s, int port)
{
	struct sockaddr_in a = lo_addr(port);

	return connect(s, (struct sockaddr *)&a, sizeof(a));
}

static void disconnect(int s)
{
	struct sockaddr u;

	memset(&u, 0, sizeof(u));
	u.sa_family = AF_UNSPEC;
	connect(s, &u, sizeof(u));
}

int main(void)
{
	char buf[64];
	int l, c, a, one = 1;
	int fd = open("/dev/null", O_WRONLY);

	dup2(fd, 1);
	dup2(fd, 2);
	lo_up();

	/* 1 */
	l = bound(SOCK_STREAM, 7001);
	listen(l, 4);
	c = bound(SOCK_STREAM, 40001);
	setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	connect_to(c, 7001);
	a = accept(l, NULL, NULL);
	write(c, "hello", 5);
	recv(a, buf, sizeof(buf), 0);
	send(a, "world!", 6, 0);
	read(c, buf, sizeof(buf));
	close(c);
	usleep(100000);
	close(a);
	usleep(100000);

	/* 2 */
	c = bound(SOCK_STREAM, 40002);
	connect_to(c, 7001);
	a = accept(l, NULL, NULL);
	disconnect(c);
	usleep(100000);
	close(c);
	close(a);
	close(l);
	usleep(100000);

	/* 3 */
	c = bound(SOCK_STREAM, 40003);
	connect_to(c, 7002);
	close(c);
	usleep(100000);

	/* 4 */
	l = bound(SOCK_DGRAM, 7003);
	c = bound(SOCK_DGRAM, 40004);
	{
		struct sockaddr_in to = lo_addr(7003);

		sendto(c, "udp-msg", 7, 0, (struct sockaddr *)&to, sizeof(to));
	}
	recvfrom(l, buf, sizeof(buf), 0, NULL, NULL);
	connect_to(c, 7003);
	disconnect(c);
	close(c);
	close(l);
	usleep(100000);
	return 0;
}
