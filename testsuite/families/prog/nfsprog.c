// SPDX-License-Identifier: GPL-2.0-or-later
/* nfsprog: an NFS server and client in the busybox guest, and a
 * deterministic workload over them, for the nfs.*, nfsd.* and sunrpc.*
 * tests (testsuite/dwarfok/fam_nfs*), run under staprun -c.
 *
 * Usage: nfsprog 3|4 (the NFS version the client mounts with).
 *
 * The guest has no rpcbind, rpc.mountd, exportfs or mount.nfs: the modules
 * (sunrpc ... nfsd, nfs, nfsv3, nfsv4) are loaded by the test's # KMOD:, and
 * this program does what those daemons would have done:
 *  - the server: brings lo up, mounts a tmpfs on /exp and the nfsd file
 *    system on /proc/fs/nfsd, writes the versions ("+3 +4 +4.1 +4.2"), a
 *    10-second NFSv4 grace period and lease, and one thread (nfsd listens
 *    on TCP and UDP port 2049 and registers with rpcbind: see below); then
 *    fills the caches rpc.mountd would fill on request, with entries that
 *    never expire: auth.unix.ip (the client 127.0.0.1 is in the domain
 *    "localdom"), nfsd.fh (that domain's file system id 0, type FSID_NUM,
 *    is /exp) and nfsd.export (/exp exported to it read-write,
 *    no_root_squash, no_subtree_check, insecure, fsid=0: the NFSv4
 *    pseudo-root). The lines' formats are those of the
 *    kernel's ip_map_parse, expkey_parse and svc_export_parse.
 *  - rpcbind: nfsd (NFSv3) and lockd fail to start unless they can register
 *    their services; a child process answers rpcbind's calls on TCP
 *    127.0.0.1:111 (where the kernel asks when /var/run/rpcbind.sock does
 *    not exist): SET and UNSET say yes.
 *  - NFSv3's MOUNT protocol: the kernel client asks a mount daemon for the
 *    root file handle. Another child serves MOUNT v3 over TCP on
 *    127.0.0.1:20048 (NULL; MNT answers the handle that nfsd itself gives
 *    for /exp through /proc/fs/nfsd/filehandle, with AUTH_UNIX; UMNT).
 *  - the client: mount(2) with the kernel's text options (the address, the
 *    ports and the MOUNT port given, so that no rpcbind is asked; nolock:
 *    no lockd/statd; rsize=wsize=4096), on /mnt.
 * NFSv4 opens are refused in the grace period: the program ends it by
 * writing Y to /proc/fs/nfsd/v4_end_grace (which needs the legacy client
 * tracking's directory, /var/lib/nfs/v4recovery), and waits until that file
 * says Y (at most 30 s).
 *
 * The workload, after the mount (file names and sizes are what the tests
 * check): creates "f1" and writes 5000 bytes ('a') to it in one write(),
 * fsync()s it (rsize and wsize are 4096: two unstable WRITEs, 4096 and 904
 * bytes, and a COMMIT) and closes it; makes the directory "d1" and lists
 * the mount's root (., .., f1, d1); drops the client's page cache; opens
 * "f1" again, reads 8192 bytes (two READs; 5000 come back) and closes it;
 * renames "f1" to "f2"; stat()s "nofile" (ENOENT); removes "d1" and
 * unlinks "f2". Then it unmounts /mnt, kills its two servers, stops nfsd
 * (0 threads), flushes the caches and unmounts /proc/fs/nfsd and /exp, so
 * that the modules can be removed after the test.
 *
 * Steps print to stderr only on failure (exit status 1); stdout goes to
 * /dev/null (staprun's stdout is the test's). */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MOUNTPORT 20048

static unsigned char rootfh[128];
static size_t rootfh_len;
static pid_t children[2];

static void die(const char *what)
{
	fprintf(stderr, "nfsprog: %s: %s\n", what, strerror(errno));
	if (children[0] > 0)
		kill(children[0], SIGKILL);
	if (children[1] > 0)
		kill(children[1], SIGKILL);
	exit(1);
}

static void put(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0)
		die(path);
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		die(path);
	close(fd);
}

static void lo_up(void)
{
	struct ifreq ifr;
	struct sockaddr_in *sin = (struct sockaddr_in *)&ifr.ifr_addr;
	int s = socket(AF_INET, SOCK_DGRAM, 0);

	if (s < 0)
		die("socket");
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, "lo");
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (ioctl(s, SIOCSIFADDR, &ifr) < 0)
		die("SIOCSIFADDR lo");
	if (ioctl(s, SIOCGIFFLAGS, &ifr) < 0)
		die("SIOCGIFFLAGS lo");
	ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
	if (ioctl(s, SIOCSIFFLAGS, &ifr) < 0)
		die("SIOCSIFFLAGS lo");
	close(s);
}

static int unhex(int c)
{
	return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

/* nfsd's root file handle of /exp for the domain, as rpc.mountd gets it */
static void get_rootfh(void)
{
	char buf[512];
	const char *req = "localdom /exp 64\n";
	ssize_t n;
	size_t i;
	int fd = open("/proc/fs/nfsd/filehandle", O_RDWR);

	if (fd < 0)
		die("/proc/fs/nfsd/filehandle");
	if (write(fd, req, strlen(req)) != (ssize_t)strlen(req))
		die("write filehandle");
	n = read(fd, buf, sizeof(buf) - 1);
	if (n < 4 || buf[0] != '\\' || buf[1] != 'x')
		die("read filehandle");
	for (i = 2; i + 1 < (size_t)n && buf[i] != '\n' && rootfh_len < sizeof(rootfh); i += 2)
		rootfh[rootfh_len++] = unhex(buf[i]) << 4 | unhex(buf[i + 1]);
	close(fd);
}

static void pause_ms(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };

	nanosleep(&ts, NULL);
}

static void server_start(void)
{
	mkdir("/exp", 0755);
	mkdir("/mnt", 0755);
	if (mount("tmpfs", "/exp", "tmpfs", 0, "mode=0777") < 0)
		die("mount /exp");
	mkdir("/proc/fs/nfsd", 0755);
	if (mount("nfsd", "/proc/fs/nfsd", "nfsd", 0, NULL) < 0)
		die("mount nfsd");
	put("/proc/fs/nfsd/versions", "+3 +4 +4.1 +4.2\n");
	put("/proc/fs/nfsd/nfsv4gracetime", "10\n");
	put("/proc/fs/nfsd/nfsv4leasetime", "10\n");
	/* NFSv4's legacy client tracking (which v4_end_grace needs) */
	mkdir("/var", 0755);
	mkdir("/var/lib", 0755);
	mkdir("/var/lib/nfs", 0755);
	mkdir("/var/lib/nfs/v4recovery", 0755);
	put("/proc/fs/nfsd/threads", "1\n");
	put("/proc/net/rpc/auth.unix.ip/channel", "nfsd 127.0.0.1 2147483647 localdom\n");
	put("/proc/net/rpc/nfsd.fh/channel", "localdom 1 \\x00000000 2147483647 /exp\n");
	/* NFSEXP_INSECURE_PORT | NFSEXP_NOSUBTREECHECK | NFSEXP_FSID, anon 65534 */
	put("/proc/net/rpc/nfsd.export/channel", "localdom /exp 2147483647 9218 65534 65534 0\n");
	get_rootfh();
}

static void server_stop(void)
{
	char now[32];
	int i;

	put("/proc/fs/nfsd/threads", "0\n");
	/* the cache entries hold /exp: flushed, as exportfs -f does */
	snprintf(now, sizeof(now), "%ld\n", (long)time(NULL));
	put("/proc/net/rpc/nfsd.export/flush", now);
	put("/proc/net/rpc/nfsd.fh/flush", now);
	put("/proc/net/rpc/auth.unix.ip/flush", now);
	if (umount("/proc/fs/nfsd") < 0)
		die("umount /proc/fs/nfsd");
	/* the entries let go of /exp after an RCU grace period */
	for (i = 0; umount("/exp") < 0; i++) {
		if (errno != EBUSY || i == 100)
			die("umount /exp");
		pause_ms(100);
	}
}

/* MOUNT v3 (RFC 1813 appendix I) over TCP, record marking, one connection at a time */
static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

static unsigned char *put32(unsigned char *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
	return p + 4;
}

static int read_full(int fd, unsigned char *buf, size_t len)
{
	while (len) {
		ssize_t n = read(fd, buf, len);

		if (n <= 0)
			return -1;
		buf += n;
		len -= n;
	}
	return 0;
}

/* one connection: the calls of programs 100000 (rpcbind: SET and UNSET say
 * yes, the rest 0) and 100005 (MOUNT v3) */
static void rpc_conn(int c)
{
	unsigned char in[4096], out[512], *p;
	uint32_t mark, len, off, prog, vers, proc;

	for (;;) {
		if (read_full(c, in, 4) < 0)
			return;
		mark = get32(in);
		len = mark & 0x7fffffff;
		if (len > sizeof(in) || len < 40 || read_full(c, in, len) < 0)
			return;
		/* xid, CALL, rpcvers 2, prog, vers, proc, cred, verf, args */
		prog = get32(in + 12);
		vers = get32(in + 16);
		proc = get32(in + 20);
		off = 24;
		off += 8 + ((get32(in + off + 4) + 3) & ~3u); /* cred */
		if (off + 8 > len)
			return;
		p = out + 4;
		p = put32(p, get32(in)); /* xid */
		p = put32(p, 1); /* REPLY */
		p = put32(p, 0); /* MSG_ACCEPTED */
		p = put32(p, 0); /* verifier AUTH_NONE */
		p = put32(p, 0);
		if (prog == 100000) {
			p = put32(p, 0); /* SUCCESS */
			if (proc != 0)
				p = put32(p, proc == 1 || proc == 2);
		} else if (prog != 100005) {
			p = put32(p, 1); /* PROG_UNAVAIL */
		} else if (vers != 3) {
			p = put32(p, 2); /* PROG_MISMATCH */
			p = put32(p, 3);
			p = put32(p, 3);
		} else if (proc == 0 || proc == 3 || proc == 4) {
			p = put32(p, 0); /* SUCCESS, void */
		} else if (proc == 1) {
			p = put32(p, 0); /* SUCCESS */
			p = put32(p, 0); /* MNT3_OK */
			p = put32(p, rootfh_len);
			memset(p, 0, (rootfh_len + 3) & ~3u);
			memcpy(p, rootfh, rootfh_len);
			p += (rootfh_len + 3) & ~3u;
			p = put32(p, 1); /* one flavor: AUTH_UNIX */
			p = put32(p, 1);
		} else {
			p = put32(p, 3); /* PROC_UNAVAIL */
		}
		put32(out, 0x80000000u | (uint32_t)(p - out - 4));
		if (write(c, out, p - out) != p - out)
			return;
	}
}

/* a child process serving rpc_conn on 127.0.0.1:port, one connection at a time */
static pid_t rpc_server(int port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(port) };
	int one = 1, s, c;
	pid_t pid;

	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	s = socket(AF_INET, SOCK_STREAM, 0);
	if (s < 0)
		die("socket");
	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(s, (struct sockaddr *)&sin, sizeof(sin)) < 0 || listen(s, 4) < 0)
		die("bind");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		for (;;) {
			c = accept(s, NULL, NULL);
			if (c < 0)
				_exit(0);
			rpc_conn(c);
			close(c);
		}
	}
	close(s);
	return pid;
}

static void stop(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

int main(int argc, char **argv)
{
	static char buf[8192];
	struct stat st;
	DIR *dir;
	int vers = argc > 1 ? atoi(argv[1]) : 4;
	pid_t rpcbind, mountd;
	int fd, null, i;

	null = open("/dev/null", O_WRONLY);
	if (null >= 0)
		dup2(null, 1);
	lo_up();
	rpcbind = children[0] = rpc_server(111);
	server_start();
	mountd = children[1] = rpc_server(MOUNTPORT);
	if (vers == 3) {
		if (mount("127.0.0.1:/exp", "/mnt", "nfs", 0,
			  "vers=3,proto=tcp,port=2049,mountproto=tcp,mountport=20048,"
			  "mountaddr=127.0.0.1,addr=127.0.0.1,nolock,rsize=4096,wsize=4096") < 0)
			die("mount nfs v3");
	} else {
		/* the grace period: a non-reclaim OPEN gets NFS4ERR_GRACE in it */
		fd = open("/proc/fs/nfsd/v4_end_grace", O_WRONLY);
		if (fd >= 0) {
			if (write(fd, "Y\n", 2) != 2)
				fprintf(stderr, "nfsprog: v4_end_grace: %s\n", strerror(errno));
			close(fd);
		}
		for (i = 0; i < 300; i++) {
			fd = open("/proc/fs/nfsd/v4_end_grace", O_RDONLY);
			if (fd >= 0 && read(fd, buf, 1) == 1 && buf[0] == 'Y') {
				close(fd);
				break;
			}
			if (fd >= 0)
				close(fd);
			pause_ms(100);
		}
		if (mount("127.0.0.1:/", "/mnt", "nfs4", 0,
			  "vers=4.2,addr=127.0.0.1,clientaddr=127.0.0.1,rsize=4096,wsize=4096") < 0)
			die("mount nfs v4");
	}

	fd = open("/mnt/f1", O_CREAT | O_WRONLY | O_TRUNC, 0644);
	if (fd < 0)
		die("create f1");
	memset(buf, 'a', 5000);
	if (write(fd, buf, 5000) != 5000)
		die("write f1");
	if (fsync(fd) < 0)
		die("fsync f1");
	close(fd);
	if (mkdir("/mnt/d1", 0755) < 0)
		die("mkdir d1");
	dir = opendir("/mnt");
	if (!dir)
		die("opendir /mnt");
	for (i = 0; readdir(dir); i++)
		;
	if (i != 4)
		die("readdir /mnt");
	closedir(dir);
	put("/proc/sys/vm/drop_caches", "3\n");
	fd = open("/mnt/f1", O_RDONLY);
	if (fd < 0)
		die("open f1");
	if (read(fd, buf, 8192) != 5000)
		die("read f1");
	close(fd);
	if (rename("/mnt/f1", "/mnt/f2") < 0)
		die("rename");
	if (stat("/mnt/nofile", &st) == 0 || errno != ENOENT)
		die("stat nofile");
	if (rmdir("/mnt/d1") < 0)
		die("rmdir d1");
	if (unlink("/mnt/f2") < 0)
		die("unlink");

	if (umount("/mnt") < 0)
		die("umount /mnt");
	stop(mountd);
	server_stop();
	stop(rpcbind);
	return 0;
}
