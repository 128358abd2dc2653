// SPDX-License-Identifier: GPL-2.0-or-later
/* testsuite/syscalls/fsx.c: the file-system calls (tapset/syscalls.tbl,
 * section FILES) that sctest.c does not make, with unusual flags, unknown
 * values and NULL pointers, for recording how the reference prints them.
 * Run under a runok test with `# PROG: ../syscalls/fsx.c` and
 * `# STAPRUN: -c /m/prog/fsx`; fsx-ref-6.1.txt is what the reference printed
 * (see README.md). Works in /tmp/fsx. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/sysmacros.h>
#include <linux/fs.h>
#include <linux/falloc.h>
#include <sys/fanotify.h>
#include <sys/mount.h>
#include <sys/inotify.h>
#include <utime.h>
#include <sys/xattr.h>
#include <sys/quota.h>
#include <sys/swap.h>
#include <sys/file.h>
#include <unistd.h>
#define S syscall
static char buf[8192];
static struct iovec iov[2] = { { buf, 4 }, { buf + 4, 4 } };
static struct timeval tv[2] = { { 1000, 5 }, { 2000, 6 } };
static struct utimbuf ub = { 1000, 2000 };
static struct { unsigned int bytes; int type; unsigned char h[128]; } fh = { 128, 0 };
static int mnt_id, pfd[2];
static long long off1 = 3;
int main(void)
{
	int fd, fd2;
	alarm(60);
	S(SYS_mkdir, "/tmp/fsx", 0755);
	S(SYS_chdir, "/tmp/fsx");
	fd = S(SYS_open, "f1", O_RDWR | O_CREAT | O_TRUNC, 0644);
	S(SYS_write, fd, "0123456789abcdef", 16);
	S(SYS_acct, "/nonexistent/acct");
	S(SYS_acct, 0);
	S(SYS_chroot, "/nonexistent");
	S(SYS_fadvise64, fd, 0, 100, POSIX_FADV_SEQUENTIAL);
	S(SYS_fadvise64, fd, 8, 100, 99);
	S(SYS_fallocate, fd, FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE, 4, 8);
	fd2 = S(SYS_fanotify_init, FAN_CLASS_NOTIF | FAN_CLOEXEC | FAN_NONBLOCK, O_RDONLY | O_LARGEFILE);
	S(SYS_fanotify_mark, fd2, FAN_MARK_ADD, FAN_MODIFY | FAN_CLOSE_WRITE, AT_FDCWD, "/tmp");
	S(SYS_fanotify_mark, fd2, FAN_MARK_REMOVE | FAN_MARK_ONLYDIR, FAN_OPEN, fd, NULL);
	S(SYS_close, fd2);
	S(SYS_fsetxattr, fd, "trusted.a", "abc", 3, XATTR_REPLACE);
	S(SYS_flistxattr, fd, buf, sizeof buf);
	S(SYS_fremovexattr, fd, "trusted.a");
	S(SYS_lsetxattr, "f1", "trusted.b", "xy", 2, 0);
	S(SYS_lgetxattr, "f1", "trusted.b", buf, 64);
	S(SYS_llistxattr, "f1", buf, 64);
	S(SYS_lremovexattr, "f1", "trusted.b");
	S(SYS_futimesat, AT_FDCWD, "f1", tv);
	S(SYS_futimesat, fd, NULL, NULL);
	S(SYS_utimes, "f1", tv);
	S(SYS_utimes, "f1", NULL);
	S(SYS_utime, "f1", &ub);
	S(SYS_utime, "f1", NULL);
	S(SYS_lookup_dcookie, 5, buf, 10);
	S(SYS_mount, "none", "/nonexistent", "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV, "size=1m");
	S(SYS_mount, NULL, "/nonexistent", NULL, MS_REMOUNT | MS_BIND, NULL);
	S(SYS_umount2, "/nonexistent", MNT_DETACH | MNT_FORCE);
	S(SYS_umount2, "/nonexistent", 0);
	S(SYS_name_to_handle_at, AT_FDCWD, "f1", &fh, &mnt_id, AT_SYMLINK_FOLLOW);
	S(SYS_open_by_handle_at, AT_FDCWD, &fh, O_RDONLY | O_CLOEXEC);
	S(SYS_pivot_root, "/nonexistent", "/nonexistent2");
	S(SYS_preadv2, fd, iov, 2, 0, 0, RWF_NOWAIT);
	S(SYS_preadv2, fd, iov, 2, -1, -1, 0);
	S(SYS_pwritev2, fd, iov, 2, 5, 0, RWF_DSYNC | RWF_HIPRI);
	S(SYS_pwritev, fd, iov, 2, 0x100000000LL, 0);
	S(SYS_quotactl, QCMD(Q_GETQUOTA, USRQUOTA), "/dev/nonexistent", 0, buf);
	S(SYS_quotactl, QCMD(Q_SYNC, GRPQUOTA), NULL, 7, NULL);
	S(SYS_readahead, fd, 4, 4096);
	S(SYS_swapon, "/nonexistent", SWAP_FLAG_PREFER | 5);
	S(SYS_swapon, "/nonexistent", SWAP_FLAG_DISCARD);
	S(SYS_swapoff, "/nonexistent");
	S(SYS_sync_file_range, fd, 0, 100, SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE);
	S(SYS_sync_file_range, fd, 2, 0, 0);
	S(SYS_sysfs, 2, 0, buf);
	S(SYS_sysfs, 3);
	S(SYS_ustat, makedev(8, 1), buf);
	S(SYS_pipe, pfd);
	S(SYS_vmsplice, pfd[1], iov, 1, SPLICE_F_NONBLOCK | SPLICE_F_GIFT);
	S(SYS_splice, pfd[0], NULL, fd, &off1, 2, SPLICE_F_MOVE | SPLICE_F_MORE);
	S(SYS_tee, pfd[0], pfd[1], 1, SPLICE_F_NONBLOCK);
	S(SYS_copy_file_range, fd, NULL, fd, &off1, 1, 1);
	S(SYS_fcntl, fd, 9999, 5);
	S(SYS_fcntl, fd, F_GETOWN);
	S(SYS_fcntl, fd, F_SETLKW, buf);
	S(SYS_fcntl, fd, F_ADD_SEALS, F_SEAL_SEAL);
	S(SYS_fcntl, fd, F_OFD_GETLK, buf);
	S(SYS_fcntl, fd, F_SETLEASE, F_UNLCK);
	S(SYS_fcntl, fd, F_NOTIFY, 3);
	S(SYS_statx, AT_FDCWD, "f1", AT_STATX_SYNC_AS_STAT | AT_NO_AUTOMOUNT | AT_STATX_FORCE_SYNC, 0xfff, buf);
	S(SYS_statx, AT_FDCWD, "f1", 0x8000000, 0x1, buf);
	S(SYS_access, "f1", 0x17);
	S(SYS_faccessat2, AT_FDCWD, "f1", W_OK | X_OK, AT_SYMLINK_NOFOLLOW | AT_EACCESS | 0x10000000);
	S(SYS_faccessat, 5, "f1", 0);
	S(SYS_unlinkat, AT_FDCWD, "nope", 0x40);
	S(SYS_renameat2, AT_FDCWD, "nope", AT_FDCWD, "nope2", RENAME_WHITEOUT | 8);
	S(SYS_renameat, 3, "nope", -5, "nope2");
	S(SYS_linkat, AT_FDCWD, "f1", AT_FDCWD, "l1", AT_SYMLINK_FOLLOW | AT_EMPTY_PATH);
	S(SYS_fchownat, AT_FDCWD, "f1", -1, 0, AT_EMPTY_PATH | 0x4);
	S(SYS_newfstatat, AT_FDCWD, "f1", buf, 0x800 | 0x10000);
	S(SYS_newfstatat, AT_FDCWD, "f1", buf, 0);
	S(SYS_memfd_create, "m2", 4U | (21 << 26));
	S(SYS_memfd_create, "m3", 0);
	S(SYS_mknod, "chr", S_IFCHR | 0644, makedev(1, 3));
	S(SYS_mknod, "sock", S_IFSOCK | 04755, 0);
	S(SYS_mknod, "blk", S_IFBLK | 0600, makedev(8, 1));
	S(SYS_mknodat, 5, "x", 0644, 0);
	S(SYS_mkdirat, 5, "dx", 0);
	S(SYS_fchmodat, 5, "dx", 0);
	S(SYS_eventfd, 3);
	S(SYS_inotify_init);
	S(SYS_inotify_add_watch, 99, "/tmp", IN_ALL_EVENTS | IN_ONLYDIR | IN_MASK_ADD);
	S(SYS_pipe2, pfd, 0);
	S(SYS_pipe2, pfd, O_DIRECT | 0x4);
	S(SYS_dup2, fd, fd);
	S(SYS_dup3, fd, 30, O_CLOEXEC | 1);
	S(SYS_getdents, fd, buf, 100);
	S(SYS_getdents64, 99, buf, 100);
	S(SYS_lseek, fd, -1L, SEEK_CUR);
	S(SYS_pread64, fd, buf, 4, -1L);
	S(SYS_pwrite64, fd, "\001\002zz\n\"", 6, 1L << 33);
	S(SYS_truncate, "f1", -1L);
	S(SYS_ftruncate, fd, 1L << 33);
	S(SYS_flock, fd, LOCK_SH | 0x40);
	S(SYS_flock, fd, 0);
	S(SYS_umask, 0);
	S(SYS_ioctl, fd, 0x80045401, 0);
	S(SYS_openat, AT_FDCWD, "f5", O_CREAT | O_WRONLY | __O_TMPFILE | O_PATH, 0);
	S(SYS_open, "/tmp", __O_TMPFILE | O_RDWR, 0600);
	S(SYS_open, "f1", O_RDONLY | O_LARGEFILE | O_NOATIME | O_ASYNC | O_DSYNC);
	S(SYS_creat, "f6", 04777);
	S(SYS_symlink, "f1", 8);
	S(SYS_chown, "f1", -1, -1);
	S(SYS_setxattr, "f1", "user.x", "\x01\x02", 2, XATTR_CREATE | XATTR_REPLACE | 4);
	S(SYS_getxattr, "f1", "user.x", NULL, 0);
	S(SYS_sendfile, fd, fd, NULL, 4);
	S(SYS_readlinkat, 7, "s2", buf, 5);
	S(SYS_statfs, "/nonexistent", buf);
	S(SYS_sync);
	S(SYS_close_range, 100, 200, 0);
	S(SYS_close, fd);
	return 0;
}
