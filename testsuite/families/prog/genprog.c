// SPDX-License-Identifier: GPL-2.0-or-later
/* genprog: a deterministic workload of file operations for the
 * generic.fop.* and generic.aop.* tests (testsuite/dwarfok/fam_generic*),
 * run under staprun -c as `genprog FS...`, FS one of
 *
 *   ramfs  ramfs mounted on /tmp/r (its files use the generic_file_* ops)
 *   tmpfs  the VM's /tmp
 *   ext2   an ext2 file system made on /dev/ram0 (busybox mke2fs; brd and
 *          ext4 loaded by the test), mounted on /mnt/e
 *   vfat   a FAT file system made on /dev/ram1 (busybox mkdosfs; brd, fat,
 *          vfat and the nls modules loaded by the test), mounted on /mnt/v
 *
 * In each, on a new file FS_file: open (O_CREAT|O_RDWR), write 100 bytes,
 * lseek to 10 (SEEK_SET) and to -5 (SEEK_END), pread 20 bytes at 0, mmap
 * one page read-only and unmap it, sendfile 50 bytes to /dev/null (a
 * splice read), fsync, close. Mounted file systems are unmounted at the
 * end. Output goes to /dev/null (staprun's stdout is the test's). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void file_ops(const char *dir, const char *fs, int devnull)
{
	char path[64], buf[128];
	off_t off = 0;
	void *p;
	int fd;

	snprintf(path, sizeof(path), "%s/%s_file", dir, fs);
	fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0644);
	if (fd < 0)
		die(path);
	memset(buf, 'a', sizeof(buf));
	if (write(fd, buf, 100) != 100)
		die("write");
	if (lseek(fd, 10, SEEK_SET) != 10 || lseek(fd, -5, SEEK_END) != 95)
		die("lseek");
	if (pread(fd, buf, 20, 0) != 20)
		die("pread");
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		die("mmap");
	munmap(p, 4096);
	if (sendfile(devnull, fd, &off, 50) != 50)
		die("sendfile");
	if (fsync(fd))
		die("fsync");
	close(fd);
}

int main(int argc, char **argv)
{
	int devnull = open("/dev/null", O_WRONLY), i;
	int ramfs = 0, ext2 = 0, vfat = 0;

	if (devnull < 0)
		die("/dev/null");
	dup2(devnull, 1);
	dup2(devnull, 2);
	for (i = 1; i < argc; i++) {
		const char *fs = argv[i];

		if (!strcmp(fs, "ramfs")) {
			mkdir("/tmp/r", 0755);
			if (mount("ramfs", "/tmp/r", "ramfs", 0, NULL))
				die("mount ramfs");
			ramfs = 1;
			file_ops("/tmp/r", fs, devnull);
		} else if (!strcmp(fs, "tmpfs")) {
			file_ops("/tmp", fs, devnull);
		} else if (!strcmp(fs, "ext2")) {
			mkdir("/mnt", 0755);
			mkdir("/mnt/e", 0755);
			if (system("mke2fs -q /dev/ram0 >/dev/null 2>&1") != 0)
				die("mke2fs");
			if (mount("/dev/ram0", "/mnt/e", "ext2", 0, NULL))
				die("mount ext2");
			ext2 = 1;
			file_ops("/mnt/e", fs, devnull);
		} else if (!strcmp(fs, "vfat")) {
			mkdir("/mnt", 0755);
			mkdir("/mnt/v", 0755);
			if (system("mkdosfs /dev/ram1 >/dev/null 2>&1") != 0)
				die("mkdosfs");
			if (mount("/dev/ram1", "/mnt/v", "vfat", 0, NULL))
				die("mount vfat");
			vfat = 1;
			file_ops("/mnt/v", fs, devnull);
		} else {
			die(fs);
		}
	}
	/* so that the test's modules can be removed */
	if (vfat)
		umount("/mnt/v");
	if (ext2)
		umount("/mnt/e");
	if (ramfs)
		umount("/tmp/r");
	return 0;
}
