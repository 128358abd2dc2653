// SPDX-License-Identifier: GPL-2.0-or-later
/* testsuite/runok/vfsprog.c: the file I/O workload of the vfs.* tests. For each directory
 * named on the command line it creates DIR/vfs_file and makes, in order: an open (vfs.open),
 * a write of 12 bytes, a read of up to 100 bytes at position 0 (12), a read at the end (0),
 * a writev of 2 + 3 bytes at position 12, a readv of 4 + 4 bytes at position 4 (8), a write
 * to a read-only descriptor (vfs_write's -EBADF), and the open of a FIFO for writing without
 * a reader (vfs_open's -ENXIO, only for the first directory). With `-m`, it first makes an
 * ext2 file system on /dev/ram0 (busybox mke2fs; brd.ko loaded by the test) and mounts it
 * on /mnt/e, so that the files there live on a block device. With `-r` (after `-m`), it
 * reads 4096 bytes at 1 MiB of /dev/ram0 itself (the block device's page cache readahead:
 * mpage_readahead). The file system is unmounted at the end.
 *
 * Built by testsuite/runok/run with `gcc -static -O1 -Wall` (`# PROG: vfsprog.c`) and run
 * in the guest as /m/prog/vfsprog. Prints nothing; exit status 0, 1 on a set-up failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

static char rbuf[100];
static char v1[4], v2[4];

static void work(const char *dir, int fifo)
{
	char path[256], fpath[256];
	struct iovec wv[2] = { { "ab", 2 }, { "cde", 3 } };
	struct iovec rv[2] = { { v1, 4 }, { v2, 4 } };
	int fd;

	snprintf(path, sizeof(path), "%s/vfs_file", dir);
	fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0644);
	if (fd < 0)
		return;
	if (write(fd, "hello world\n", 12) < 0)
		return;
	lseek(fd, 0, SEEK_SET);
	if (read(fd, rbuf, sizeof(rbuf)) < 0 || read(fd, rbuf, sizeof(rbuf)) < 0)
		return;
	if (writev(fd, wv, 2) < 0)
		return;
	lseek(fd, 4, SEEK_SET);
	if (readv(fd, rv, 2) < 0)
		return;
	close(fd);
	fd = open(path, O_RDONLY);
	if (fd >= 0) {
		if (write(fd, "x", 1) >= 0)
			return;
		close(fd);
	}
	fd = open(path, O_WRONLY);
	if (fd >= 0) {
		if (read(fd, rbuf, 3) >= 0 || write(fd, "", 0) != 0)
			return;
		close(fd);
	}
	if (fifo) {
		snprintf(fpath, sizeof(fpath), "%s/vfs_fifo", dir);
		mkfifo(fpath, 0644);
		fd = open(fpath, O_WRONLY | O_NONBLOCK);
		if (fd >= 0)
			close(fd);
		unlink(fpath);
	}
}

int main(int argc, char **argv)
{
	int i = 1, mounted = 0;

	if (argc > 1 && !strcmp(argv[1], "-m")) {
		i++;
		if (system("mke2fs -q /dev/ram0 >/dev/null 2>&1") != 0)
			return 1;
		mkdir("/mnt", 0755);
		mkdir("/mnt/e", 0755);
		if (mount("/dev/ram0", "/mnt/e", "ext2", 0, NULL))
			return 1;
		mounted = 1;
	}
	if (i < argc && !strcmp(argv[i], "-r")) {
		int fd = open("/dev/ram0", O_RDONLY);

		i++;
		if (fd < 0 || pread(fd, rbuf, sizeof(rbuf), 1 << 20) < 0)
			return 1;
		close(fd);
	}
	for (; i < argc; i++)
		work(argv[i], i == argc - 1);
	if (mounted)	/* so that the test's modules can be removed */
		umount("/mnt/e");
	return 0;
}
