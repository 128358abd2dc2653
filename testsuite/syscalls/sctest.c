// SPDX-License-Identifier: GPL-2.0-or-later
/* testsuite/syscalls/sctest.c: a system-call exerciser for the syscall.* and nd_syscall.*
 * aliases. It issues about 170 different x86-64 system calls, most through syscall(2) so that
 * no libc wrapper hides or changes them, with fixed arguments: every buffer is a global of
 * this static, non-PIE binary (fixed addresses), the scratch directory is /tmp/sct, and the
 * only values that could change from run to run (pids, the heap, the stack) are made stable
 * by the runner (runok's `# PROG:` tests run with ASLR off and the pid counter reset) and by
 * the program itself (it sets ns_last_pid before it forks). It prints nothing: its stdout and
 * stderr are /dev/null (staprun's stdout is the test's).
 *
 * Built by testsuite/runok/run with `gcc -static -O1 -Wall` (`# PROG: ../syscalls/sctest.c`)
 * and run in the guest as /m/prog/sctest. With the argument `exit` it exits at once (the final
 * execve runs it so). Exit status 0.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <asm/prctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define S syscall

/* The kernel's struct sigaction (rt_sigaction), with our own restorer. */
struct ksigaction {
	void *handler;
	unsigned long flags;
	void *restorer;
	unsigned long mask;
};
#define SA_RESTORER_ 0x04000000

void sct_restorer(void);
__asm__(".text\n.globl sct_restorer\nsct_restorer:\n\tmov $15, %eax\n\tsyscall\n\thlt\n");

static volatile int got_signal;
static void handler(int sig) { got_signal = sig; }

/* Every buffer is a global: fixed addresses. */
static char buf[8192];
static char buf2[4096];
static char path_buf[256];
static struct stat st;
static struct statx stx;
static struct iovec iov[3];
static struct timespec ts, ts2;
static struct timespec times2[2] = { { 1000000000, 5 }, { 1200000000, UTIME_OMIT } };
static struct timeval tv;
static struct itimerspec its, its_old;
static struct itimerval itv, itv_old;
static struct rlimit rl;
static struct rusage ru;
static struct utsname uts;
static char sysinfo_buf[256];
static struct ksigaction sa, sa_old;
static unsigned long sigmask, sigmask_old;
static siginfo_t si;
static stack_t ss, ss_old;
static char altstack[16384];
static int fds[2], fds2[2], sv[2];
static int futex_word = 7;
static unsigned long cpumask[16];
static struct pollfd pfd[2];
static fd_set rfds, wfds;
static struct epoll_event ev, evs[4];
static struct sockaddr_in sin_a, sin_b;
static struct sockaddr_in6 sin6_a;
static struct sockaddr_un sun_a;
static socklen_t slen;
static int optval = 1, optval2;
static socklen_t optlen = sizeof(int);
static struct msghdr msg;
static struct ifreq ifr;
static struct termios tio;
static struct flock fl;
static int status;
static unsigned long fsbase;
static loff_t off_in = 0, off_out = 0;
static struct { long sec, nsec; } it_zero;
static struct sched_param sp;
static unsigned char mincore_vec[4];
static char *const empty_env[] = { NULL };
static char *const argv_nx[] = { "/nonexistent/prog", NULL };
static char *const argv_self[] = { "sctest", "exit", NULL };
static const char msg_hello[] = "hello, world\n";
static const char data16[] = "0123456789abcdef";
static const char pidbase[] = "19999";
static long page;
static void *robust_head;
static size_t robust_len;

#define DIR_ "/tmp/sct"

int main(int argc, char **argv)
{
	long fd, fd2, fd3, r, efd, tfd, ifd, s1, s2, s3, s4, s5, s6, memfd, dfd;
	char *m;

	if (argc > 1 && strcmp(argv[1], "exit") == 0)
		S(SYS_exit_group, 0); /* the re-executed image: exit at once */

	/* Set up: stdout and stderr to /dev/null, nothing open beyond 0-2. */
	S(SYS_close_range, 3, ~0U, 0);                        /* close_range: from 3 to the end */
	fd = S(SYS_open, "/dev/null", O_WRONLY);              /* open: /dev/null for writing -> 3 */
	S(SYS_dup2, fd, 1);                                   /* dup2: onto stdout */
	S(SYS_dup2, fd, 2);                                   /* dup2: onto stderr */
	S(SYS_close, fd);                                     /* close */
	S(SYS_umask, 022);                                    /* umask: returns the inherited one */
	S(SYS_umask, 022);                                    /* umask: returns 022 */

	/* The loopback interface up (early, so that ::1 is ready when it is used). */
	s1 = S(SYS_socket, AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0); /* socket: udp, for ioctls */
	strcpy(ifr.ifr_name, "lo");
	S(SYS_ioctl, s1, SIOCGIFFLAGS, &ifr);                 /* ioctl: lo's flags */
	ifr.ifr_flags |= IFF_UP;
	S(SYS_ioctl, s1, SIOCSIFFLAGS, &ifr);                 /* ioctl: lo up */
	S(SYS_close, s1);

	/* Identity and process facts. */
	S(SYS_getpid);                                        /* getpid */
	S(SYS_gettid);                                        /* gettid */
	S(SYS_getppid);                                       /* getppid */
	S(SYS_getuid);                                        /* getuid */
	S(SYS_geteuid);                                       /* geteuid */
	S(SYS_getgid);                                        /* getgid */
	S(SYS_getegid);                                       /* getegid */
	S(SYS_getgroups, 0, NULL);                            /* getgroups: only the count */
	S(SYS_getresuid, &optval2, &optval2, &optval2);       /* getresuid */
	S(SYS_getpriority, PRIO_PROCESS, 0);                  /* getpriority: 20 - nice */
	S(SYS_setpriority, PRIO_PROCESS, 0, 0);               /* setpriority: nice 0 */
	S(SYS_personality, 0xffffffffUL);                     /* personality: query */
	S(SYS_uname, &uts);                                   /* uname */
	S(SYS_sysinfo, sysinfo_buf);                          /* sysinfo */
	S(SYS_getrlimit, RLIMIT_NOFILE, &rl);                 /* getrlimit */
	rl.rlim_cur = 512; rl.rlim_max = 1024;
	S(SYS_setrlimit, RLIMIT_NOFILE, &rl);                 /* setrlimit: 512/1024 fds */
	S(SYS_prlimit64, 0, RLIMIT_NOFILE, NULL, &rl);        /* prlimit64: read */
	S(SYS_prlimit64, 0, RLIMIT_CORE, &rl, NULL);          /* prlimit64: write */
	S(SYS_getrusage, RUSAGE_SELF, &ru);                   /* getrusage: self */
	S(SYS_getrusage, RUSAGE_CHILDREN, &ru);               /* getrusage: children */
	S(SYS_times, (void *)8);                              /* times: EFAULT (its result is the clock) */
	S(SYS_prctl, PR_SET_NAME, "sct-name", 0, 0, 0);       /* prctl: set the name */
	S(SYS_prctl, PR_GET_DUMPABLE, 0, 0, 0, 0);            /* prctl: get dumpable */
	S(SYS_arch_prctl, ARCH_GET_FS, &fsbase);              /* arch_prctl: get fs base (0x1003) */
	S(SYS_sched_yield);                                   /* sched_yield */
	S(SYS_sched_getaffinity, 0, sizeof cpumask, cpumask); /* sched_getaffinity */
	S(SYS_sched_setaffinity, 0, sizeof cpumask, cpumask); /* sched_setaffinity: the same mask */
	S(SYS_sched_getscheduler, 0);                         /* sched_getscheduler */
	S(SYS_sched_getparam, 0, &sp);                        /* sched_getparam */
	S(SYS_sched_get_priority_max, SCHED_FIFO);            /* sched_get_priority_max */
	S(SYS_sched_get_priority_min, SCHED_RR);              /* sched_get_priority_min */

	/* Clocks and sleeps. */
	S(SYS_clock_gettime, CLOCK_REALTIME, &ts);            /* clock_gettime: each clock */
	S(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
	S(SYS_clock_gettime, CLOCK_BOOTTIME, &ts);
	S(SYS_clock_gettime, CLOCK_PROCESS_CPUTIME_ID, &ts);
	S(SYS_clock_gettime, CLOCK_THREAD_CPUTIME_ID, &ts);
	S(SYS_clock_gettime, 12345, &ts);                     /* clock_gettime: EINVAL */
	S(SYS_clock_getres, CLOCK_MONOTONIC_RAW, &ts);        /* clock_getres */
	S(SYS_gettimeofday, &tv, NULL);                       /* gettimeofday */
	ts.tv_sec = 0; ts.tv_nsec = 1000000;
	S(SYS_nanosleep, &ts, NULL);                          /* nanosleep: 1 ms */
	S(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, &ts, NULL); /* clock_nanosleep: relative 1 ms */
	ts2.tv_sec = 0; ts2.tv_nsec = 2000000000L;
	S(SYS_nanosleep, &ts2, NULL);                         /* nanosleep: EINVAL (nsec too big) */
	S(SYS_alarm, 100);                                    /* alarm: arm */
	S(SYS_alarm, 0);                                      /* alarm: disarm, returns 100 */
	S(SYS_getitimer, ITIMER_VIRTUAL, &itv);               /* getitimer */
	S(SYS_setitimer, ITIMER_REAL, &itv, &itv_old);        /* setitimer: all zero */

	/* The scratch directory and files. */
	S(SYS_mkdir, DIR_, 0755);                             /* mkdir */
	S(SYS_mkdir, DIR_, 0755);                             /* mkdir: EEXIST */
	S(SYS_chdir, DIR_);                                   /* chdir */
	S(SYS_getcwd, path_buf, sizeof path_buf);             /* getcwd: 9 */
	S(SYS_getcwd, path_buf, 4);                           /* getcwd: ERANGE */
	fd = S(SYS_open, "f1", O_WRONLY | O_CREAT | O_TRUNC, 0644); /* open: create f1 (3) */
	S(SYS_write, fd, msg_hello, sizeof msg_hello - 1);    /* write: 13 bytes */
	S(SYS_pwrite64, fd, data16, 16, 100);                 /* pwrite64: at offset 100 */
	iov[0].iov_base = (void *)data16; iov[0].iov_len = 4;
	iov[1].iov_base = (void *)msg_hello; iov[1].iov_len = 6;
	S(SYS_writev, fd, iov, 2);                            /* writev: 2 vectors */
	S(SYS_pwritev, fd, iov, 2, 200, 0);                   /* pwritev: at offset 200 */
	S(SYS_fsync, fd);                                     /* fsync */
	S(SYS_fdatasync, fd);                                 /* fdatasync */
	S(SYS_close, fd);                                     /* close */
	fd = S(SYS_openat, AT_FDCWD, "f1", O_RDWR | O_APPEND);      /* openat: read-write append */
	fd2 = S(SYS_openat, AT_FDCWD, "f2", O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600); /* openat: create f2 */
	S(SYS_creat, "f3", 0640);                             /* creat: f3 (fd left open) */
	S(SYS_read, fd, buf, 5);                              /* read: 5 bytes */
	S(SYS_pread64, fd, buf, 16, 100);                     /* pread64 */
	iov[0].iov_base = buf; iov[0].iov_len = 3;
	iov[1].iov_base = buf2; iov[1].iov_len = 7;
	S(SYS_readv, fd, iov, 2);                             /* readv */
	S(SYS_preadv, fd, iov, 2, 0, 0);                      /* preadv */
	S(SYS_lseek, fd, 10, SEEK_SET);                       /* lseek: each whence */
	S(SYS_lseek, fd, 5, SEEK_CUR);
	S(SYS_lseek, fd, -4, SEEK_END);
	S(SYS_lseek, fd, 0, SEEK_DATA);
	S(SYS_lseek, fd, 0, SEEK_HOLE);
	S(SYS_lseek, fd, 0, 99);                              /* lseek: EINVAL */
	S(SYS_read, 99, buf, 1);                              /* read: EBADF */
	S(SYS_write, fd, (void *)8, 10);                      /* write: EFAULT */
	S(SYS_read, fd, buf, 0);                              /* read: 0 bytes */
	S(SYS_open, "/nonexistent/x", O_RDONLY);              /* open: ENOENT */
	S(SYS_open, (void *)8, O_RDONLY);                     /* open: EFAULT */
	S(SYS_open, "f1/x", O_RDONLY);                        /* open: ENOTDIR */
	S(SYS_open, "f1", O_RDONLY | O_DIRECTORY);            /* open: ENOTDIR with O_DIRECTORY */
	S(SYS_open, ".", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK); /* open: the directory */
	S(SYS_openat, AT_FDCWD, "f4", O_WRONLY | O_CREAT | O_TRUNC | O_SYNC, 04755); /* openat: odd mode */

	/* The stat family. */
	S(SYS_stat, "f1", &st);                               /* stat */
	S(SYS_lstat, "f1", &st);                              /* lstat */
	S(SYS_fstat, fd, &st);                                /* fstat */
	S(SYS_newfstatat, AT_FDCWD, "f1", &st, AT_SYMLINK_NOFOLLOW); /* newfstatat */
	S(SYS_newfstatat, fd, "", &st, AT_EMPTY_PATH);        /* newfstatat: AT_EMPTY_PATH */
	S(SYS_statx, AT_FDCWD, "f1", AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, &stx); /* statx */
	S(SYS_statx, AT_FDCWD, "nope", 0, STATX_MODE | STATX_SIZE, &stx); /* statx: ENOENT */
	S(SYS_stat, "nope", &st);                             /* stat: ENOENT */
	S(SYS_statfs, "/tmp", buf);                           /* statfs */
	S(SYS_fstatfs, fd, buf);                              /* fstatfs */
	S(SYS_access, "f1", R_OK | W_OK);                     /* access */
	S(SYS_access, "nope", F_OK);                          /* access: ENOENT */
	S(SYS_faccessat, AT_FDCWD, "f1", X_OK);               /* faccessat: EACCES (root, no x bit) */
	S(SYS_faccessat2, AT_FDCWD, "f1", R_OK, AT_EACCESS);  /* faccessat2 */

	/* Names: directories, links, renames. */
	S(SYS_mkdir, "d1", 0700);                             /* mkdir */
	S(SYS_mkdirat, AT_FDCWD, "d2", 0751);                 /* mkdirat */
	S(SYS_rmdir, "d2");                                   /* rmdir */
	S(SYS_rmdir, "f1");                                   /* rmdir: ENOTDIR */
	S(SYS_link, "f1", "l1");                              /* link */
	S(SYS_linkat, AT_FDCWD, "f1", AT_FDCWD, "l2", 0);     /* linkat */
	S(SYS_symlink, "f1", "s1");                           /* symlink */
	S(SYS_symlinkat, "/tmp/sct/f2", AT_FDCWD, "s2");      /* symlinkat */
	S(SYS_readlink, "s1", path_buf, sizeof path_buf);     /* readlink: 2 */
	S(SYS_readlinkat, AT_FDCWD, "s2", path_buf, 5);       /* readlinkat: truncated */
	S(SYS_readlink, "f1", path_buf, sizeof path_buf);     /* readlink: EINVAL */
	S(SYS_rename, "l1", "l3");                            /* rename */
	S(SYS_renameat, AT_FDCWD, "l3", AT_FDCWD, "d1/l4");   /* renameat */
	S(SYS_renameat2, AT_FDCWD, "l2", AT_FDCWD, "f2", RENAME_NOREPLACE); /* renameat2: EEXIST */
	S(SYS_renameat2, AT_FDCWD, "l2", AT_FDCWD, "f2", RENAME_EXCHANGE); /* renameat2: exchange */
	S(SYS_mknod, "fifo", S_IFIFO | 0600, 0);              /* mknod: a fifo */
	S(SYS_mknodat, AT_FDCWD, "reg", S_IFREG | 0400, 0);   /* mknodat: a regular file */
	S(SYS_unlink, "reg");                                 /* unlink */
	S(SYS_unlinkat, AT_FDCWD, "fifo", 0);                 /* unlinkat */
	S(SYS_unlinkat, AT_FDCWD, "d1/l4", 0);
	S(SYS_unlinkat, AT_FDCWD, "d1", AT_REMOVEDIR);        /* unlinkat: a directory */
	S(SYS_unlink, "nope");                                /* unlink: ENOENT */

	/* Modes and owners. */
	S(SYS_chmod, "f1", 0600);                             /* chmod */
	S(SYS_fchmod, fd, 0640);                              /* fchmod */
	S(SYS_fchmodat, AT_FDCWD, "f2", 01777);               /* fchmodat */
	S(SYS_chown, "f1", 1000, 1000);                       /* chown */
	S(SYS_fchown, fd, 0, -1);                             /* fchown: group unchanged */
	S(SYS_lchown, "s1", 2, 3);                            /* lchown */
	S(SYS_fchownat, AT_FDCWD, "s2", 4, 5, AT_SYMLINK_NOFOLLOW); /* fchownat */
	S(SYS_utimensat, AT_FDCWD, "f1", times2, 0);          /* utimensat: fixed times */
	S(SYS_utimensat, fd, NULL, NULL, 0);                  /* utimensat: now */
	S(SYS_truncate, "f1", 64);                            /* truncate */
	S(SYS_ftruncate, fd, 32);                             /* ftruncate */
	S(SYS_ftruncate, fd, -1);                             /* ftruncate: EINVAL */
	S(SYS_fallocate, fd, 0, 0, 4096);                     /* fallocate */
	S(SYS_flock, fd, LOCK_EX | LOCK_NB);                  /* flock */
	S(SYS_flock, fd, LOCK_UN);
	S(SYS_setxattr, "f1", "trusted.sct", "v1", 2, XATTR_CREATE); /* setxattr */
	S(SYS_getxattr, "f1", "trusted.sct", buf, sizeof buf); /* getxattr */
	S(SYS_listxattr, "f1", buf, sizeof buf);              /* listxattr */
	S(SYS_removexattr, "f1", "trusted.sct");              /* removexattr */
	S(SYS_fsetxattr, fd, "trusted.b", "xyz", 3, 0);       /* fsetxattr */
	S(SYS_fgetxattr, fd, "trusted.b", buf, 1);            /* fgetxattr: ERANGE */
	S(SYS_sync);                                          /* sync */
	S(SYS_syncfs, fd);                                    /* syncfs */

	/* File descriptors. */
	fd3 = S(SYS_dup, fd);                                 /* dup */
	S(SYS_dup2, fd, 20);                                  /* dup2 */
	S(SYS_dup3, fd, 21, O_CLOEXEC);                       /* dup3 */
	S(SYS_dup3, fd, fd, 0);                               /* dup3: EINVAL (same fd) */
	S(SYS_fcntl, fd, F_GETFD);                            /* fcntl: each cmd */
	S(SYS_fcntl, fd, F_SETFD, FD_CLOEXEC);
	S(SYS_fcntl, fd, F_GETFL);
	S(SYS_fcntl, fd, F_SETFL, O_NONBLOCK | O_APPEND);
	S(SYS_fcntl, fd, F_DUPFD, 30);
	S(SYS_fcntl, fd, F_DUPFD_CLOEXEC, 40);
	fl.l_type = F_WRLCK; fl.l_whence = SEEK_SET; fl.l_start = 0; fl.l_len = 10;
	S(SYS_fcntl, fd, F_SETLK, &fl);
	S(SYS_fcntl, fd, F_GETLK, &fl);
	S(SYS_fcntl, fd, F_SETPIPE_SZ, 8192);                 /* fcntl: EBADF (not a pipe) */
	S(SYS_fcntl, 99, F_GETFD);                            /* fcntl: EBADF */
	S(SYS_close, 20);                                     /* close */
	S(SYS_close, 21);
	S(SYS_close, 30);
	S(SYS_close, 40);
	S(SYS_close, fd3);
	S(SYS_close, 99);                                     /* close: EBADF */
	S(SYS_ioctl, fd, TCGETS, &tio);                       /* ioctl: ENOTTY */
	S(SYS_ioctl, fd, FIONREAD, &optval2);                 /* ioctl: FIONREAD on a file */
	dfd = S(SYS_open, DIR_, O_RDONLY | O_DIRECTORY);      /* open: the directory */
	S(SYS_getdents64, dfd, buf, sizeof buf);              /* getdents64 */
	S(SYS_getdents64, dfd, buf, sizeof buf);              /* getdents64: the end, 0 */
	S(SYS_fchdir, dfd);                                   /* fchdir */
	S(SYS_close, dfd);

	/* Pipes and copies. */
	S(SYS_pipe, fds);                                     /* pipe */
	S(SYS_pipe2, fds2, O_CLOEXEC | O_NONBLOCK);           /* pipe2 */
	S(SYS_write, fds[1], data16, 16);                     /* write: into the pipe */
	S(SYS_ioctl, fds[0], FIONREAD, &optval2);             /* ioctl: FIONREAD on a pipe */
	S(SYS_read, fds2[0], buf, 1);                         /* read: EAGAIN */
	S(SYS_fcntl, fds[0], F_GETPIPE_SZ);                   /* fcntl: F_GETPIPE_SZ */
	S(SYS_splice, fds[0], NULL, fds2[1], NULL, 8, 0);     /* splice: pipe to pipe */
	S(SYS_tee, fds2[0], fds[1], 4, SPLICE_F_NONBLOCK);    /* tee */
	S(SYS_sendfile, fd2, fd, &off_in, 8);                 /* sendfile: file to file */
	S(SYS_copy_file_range, fd, &off_in, fd2, &off_out, 4, 0); /* copy_file_range */

	/* Memory. */
	page = 4096;
	m = (char *)S(SYS_mmap, 0x10000000UL, 2 * page, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0); /* mmap: fixed, anonymous */
	m[0] = 1;
	S(SYS_mprotect, m, page, PROT_READ);                  /* mprotect: read-only */
	S(SYS_mprotect, m, page, PROT_READ | PROT_WRITE | PROT_EXEC); /* mprotect: rwx */
	S(SYS_madvise, m, 2 * page, MADV_DONTNEED);           /* madvise */
	S(SYS_mincore, m, 2 * page, mincore_vec);             /* mincore */
	S(SYS_mlock, m, page);                                /* mlock */
	S(SYS_munlock, m, page);                              /* munlock */
	S(SYS_mprotect, m, 2 * page, PROT_READ | PROT_WRITE); /* mprotect: both pages alike again */
	S(SYS_mremap, m, 2 * page, 4 * page, MREMAP_MAYMOVE | MREMAP_FIXED, 0x20000000UL); /* mremap: move */
	S(SYS_msync, 0x20000000UL, page, MS_SYNC);            /* msync */
	S(SYS_munmap, 0x20000000UL, 4 * page);                /* munmap */
	S(SYS_mmap, 0x30000000UL, page, PROT_READ, MAP_SHARED | MAP_FIXED, fd, 0); /* mmap: file, shared */
	S(SYS_munmap, 0x30000000UL, page);
	S(SYS_mmap, 0, page, PROT_NONE, MAP_PRIVATE, -1, 0);  /* mmap: EBADF */
	S(SYS_mmap, 0x40000000UL, page, PROT_READ | PROT_WRITE,
	  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_POPULATE | MAP_NORESERVE, -1, 0); /* mmap: flags */
	S(SYS_munmap, 0x40000000UL, page);
	S(SYS_munmap, 0x40000001UL, page);                    /* munmap: EINVAL (unaligned) */
	r = S(SYS_brk, 0);                                    /* brk: query */
	S(SYS_brk, r + 2 * page);                             /* brk: grow */
	S(SYS_brk, r);                                        /* brk: shrink */
	memfd = S(SYS_memfd_create, "sct", MFD_CLOEXEC | MFD_ALLOW_SEALING); /* memfd_create */
	S(SYS_close, memfd);

	/* Signals. */
	sa.handler = (void *)handler; sa.flags = SA_RESTORER_ | SA_RESTART; sa.restorer = (void *)sct_restorer;
	sa.mask = 1UL << (SIGUSR2 - 1);
	S(SYS_rt_sigaction, SIGUSR1, &sa, &sa_old, 8);        /* rt_sigaction: a handler */
	sa.handler = SIG_IGN; sa.flags = SA_RESTORER_; sa.mask = 0;
	S(SYS_rt_sigaction, SIGPIPE, &sa, NULL, 8);           /* rt_sigaction: ignore */
	S(SYS_rt_sigaction, SIGTERM, NULL, &sa_old, 8);       /* rt_sigaction: query */
	S(SYS_rt_sigaction, SIGKILL, &sa, NULL, 8);           /* rt_sigaction: EINVAL */
	sigmask = 1UL << (SIGUSR2 - 1);
	S(SYS_rt_sigprocmask, SIG_BLOCK, &sigmask, &sigmask_old, 8); /* rt_sigprocmask: block SIGUSR2 */
	S(SYS_kill, S(SYS_getpid), SIGUSR1);                  /* kill: SIGUSR1 to self (handled) */
	S(SYS_kill, S(SYS_getpid), SIGUSR2);                  /* kill: SIGUSR2 to self (blocked) */
	S(SYS_kill, 99999, 0);                                /* kill: ESRCH */
	S(SYS_rt_sigpending, &sigmask_old, 8);                 /* rt_sigpending */
	it_zero.sec = 0; it_zero.nsec = 0;
	S(SYS_rt_sigtimedwait, &sigmask, &si, &it_zero, 8);    /* rt_sigtimedwait: takes SIGUSR2 */
	S(SYS_rt_sigtimedwait, &sigmask, &si, &it_zero, 8);    /* rt_sigtimedwait: EAGAIN */
	S(SYS_tgkill, S(SYS_getpid), S(SYS_gettid), SIGUSR1); /* tgkill */
	S(SYS_tkill, S(SYS_gettid), SIGUSR1);                 /* tkill */
	S(SYS_rt_sigprocmask, SIG_SETMASK, &sigmask_old, NULL, 8); /* rt_sigprocmask: set */
	sigmask = 0;
	S(SYS_rt_sigprocmask, SIG_UNBLOCK, &sigmask, NULL, 8); /* rt_sigprocmask: unblock nothing */
	ss.ss_sp = altstack; ss.ss_size = sizeof altstack; ss.ss_flags = 0;
	S(SYS_sigaltstack, &ss, &ss_old);                     /* sigaltstack */

	/* Futexes. */
	S(SYS_futex, &futex_word, FUTEX_WAKE, 1, NULL, NULL, 0); /* futex: wake nobody */
	ts.tv_sec = 0; ts.tv_nsec = 1000000;
	S(SYS_futex, &futex_word, FUTEX_WAIT, 8, &ts, NULL, 0); /* futex: EAGAIN (value differs) */
	S(SYS_futex, &futex_word, FUTEX_WAIT_PRIVATE, 7, &ts, NULL, 0); /* futex: ETIMEDOUT after 1 ms */
	S(SYS_futex, &futex_word, FUTEX_WAKE_PRIVATE, 0x7fffffff, NULL, NULL, 0); /* futex: wake all */
	S(SYS_get_robust_list, 0, &robust_head, &robust_len); /* get_robust_list */
	S(SYS_set_robust_list, robust_head, robust_len);      /* set_robust_list: the same */
	S(SYS_set_robust_list, NULL, 12);                     /* set_robust_list: EINVAL */

	/* Polling and event fds. */
	pfd[0].fd = fds[0]; pfd[0].events = POLLIN;
	pfd[1].fd = fds2[1]; pfd[1].events = POLLOUT | POLLPRI;
	S(SYS_poll, pfd, 2, 0);                               /* poll: 2 ready */
	ts.tv_sec = 0; ts.tv_nsec = 0;
	S(SYS_ppoll, pfd, 1, &ts, NULL, 8);                   /* ppoll: 1 ready */
	FD_SET(fds[0], &rfds); FD_SET(fds2[1], &wfds);
	tv.tv_sec = 0; tv.tv_usec = 0;
	S(SYS_select, fds2[1] + 1, &rfds, &wfds, NULL, &tv);  /* select */
	S(SYS_pselect6, fds2[1] + 1, &rfds, NULL, NULL, &ts, NULL); /* pselect6 */
	efd = S(SYS_epoll_create1, EPOLL_CLOEXEC);            /* epoll_create1 */
	ev.events = EPOLLIN | EPOLLET; ev.data.u64 = 0x1234;
	S(SYS_epoll_ctl, efd, EPOLL_CTL_ADD, fds[0], &ev);    /* epoll_ctl: add */
	ev.events = EPOLLOUT;
	S(SYS_epoll_ctl, efd, EPOLL_CTL_MOD, fds[0], &ev);    /* epoll_ctl: mod */
	S(SYS_epoll_ctl, efd, EPOLL_CTL_ADD, fds[0], &ev);    /* epoll_ctl: EEXIST */
	S(SYS_epoll_wait, efd, evs, 4, 0);                    /* epoll_wait: 0 ready */
	S(SYS_epoll_pwait, efd, evs, 4, 0, NULL, 8);          /* epoll_pwait */
	S(SYS_epoll_ctl, efd, EPOLL_CTL_DEL, fds[0], NULL);   /* epoll_ctl: del */
	S(SYS_close, efd);
	efd = S(SYS_eventfd2, 5, EFD_CLOEXEC | EFD_NONBLOCK); /* eventfd2 */
	S(SYS_read, efd, buf, 8);                             /* read: the counter */
	S(SYS_close, efd);
	tfd = S(SYS_timerfd_create, CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK); /* timerfd_create */
	its.it_value.tv_sec = 100; its.it_interval.tv_nsec = 500000000;
	S(SYS_timerfd_settime, tfd, 0, &its, &its_old);       /* timerfd_settime: arm */
	S(SYS_timerfd_gettime, tfd, &its_old);                /* timerfd_gettime */
	memset(&its, 0, sizeof its);
	S(SYS_timerfd_settime, tfd, TFD_TIMER_ABSTIME, &its, NULL); /* timerfd_settime: disarm */
	S(SYS_close, tfd);
	ifd = S(SYS_inotify_init1, IN_CLOEXEC | IN_NONBLOCK); /* inotify_init1 */
	r = S(SYS_inotify_add_watch, ifd, DIR_, IN_CREATE | IN_DELETE | IN_MODIFY); /* inotify_add_watch */
	S(SYS_inotify_rm_watch, ifd, r);                      /* inotify_rm_watch */
	S(SYS_close, ifd);

	/* Sockets. */
	s1 = S(SYS_socket, AF_INET, SOCK_DGRAM, 0);           /* socket: udp */
	S(SYS_setsockopt, s1, SOL_SOCKET, SO_REUSEADDR, &optval, sizeof optval); /* setsockopt */
	S(SYS_getsockopt, s1, SOL_SOCKET, SO_TYPE, &optval2, &optlen); /* getsockopt */
	sin_a.sin_family = AF_INET; sin_a.sin_port = htons(40000); sin_a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	S(SYS_bind, s1, &sin_a, sizeof sin_a);                /* bind: 127.0.0.1:40000 */
	S(SYS_sendto, s1, msg_hello, 5, 0, &sin_a, sizeof sin_a); /* sendto: itself */
	slen = sizeof sin_b;
	S(SYS_recvfrom, s1, buf, sizeof buf, MSG_DONTWAIT, &sin_b, &slen); /* recvfrom */
	S(SYS_recvfrom, s1, buf, sizeof buf, MSG_DONTWAIT, NULL, NULL); /* recvfrom: EAGAIN */
	slen = sizeof sin_b;
	S(SYS_getsockname, s1, &sin_b, &slen);                /* getsockname */
	s2 = S(SYS_socket, AF_INET, SOCK_STREAM | SOCK_CLOEXEC, IPPROTO_TCP); /* socket: tcp */
	S(SYS_setsockopt, s2, SOL_SOCKET, SO_REUSEADDR, &optval, sizeof optval);
	sin_a.sin_port = htons(40001);
	S(SYS_bind, s2, &sin_a, sizeof sin_a);                /* bind: 127.0.0.1:40001 */
	S(SYS_listen, s2, 5);                                 /* listen */
	s3 = S(SYS_socket, AF_INET, SOCK_STREAM, 0);          /* socket: tcp client */
	S(SYS_connect, s3, &sin_a, sizeof sin_a);             /* connect: 127.0.0.1:40001 */
	slen = sizeof sin_b;
	s4 = S(SYS_accept4, s2, &sin_b, &slen, SOCK_CLOEXEC); /* accept4 */
	S(SYS_sendto, s3, data16, 16, MSG_NOSIGNAL, NULL, 0); /* sendto: connected */
	S(SYS_recvfrom, s4, buf, 8, MSG_WAITALL, NULL, NULL); /* recvfrom: 8 */
	slen = sizeof sin_b;
	S(SYS_getpeername, s4, &sin_b, &slen);                /* getpeername */
	S(SYS_shutdown, s3, SHUT_WR);                         /* shutdown */
	S(SYS_close, s3);
	S(SYS_close, s4);
	sin_a.sin_port = htons(40002); sin_a.sin_addr.s_addr = htonl(0x0a000001);
	s3 = S(SYS_socket, AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
	S(SYS_bind, s3, &sin_a, sizeof sin_a);                /* bind: EADDRNOTAVAIL (10.0.0.1) */
	S(SYS_close, s3);
	s5 = S(SYS_socket, AF_INET6, SOCK_DGRAM, 0);          /* socket: udp6 */
	sin6_a.sin6_family = AF_INET6; sin6_a.sin6_port = htons(40003); sin6_a.sin6_addr = in6addr_loopback;
	S(SYS_bind, s5, &sin6_a, sizeof sin6_a);              /* bind: [::1]:40003 */
	S(SYS_connect, s5, &sin6_a, sizeof sin6_a);           /* connect: [::1]:40003 */
	S(SYS_sendto, s5, data16, 3, 0, NULL, 0);             /* sendto */
	S(SYS_recvfrom, s5, buf, sizeof buf, MSG_DONTWAIT | MSG_PEEK, NULL, NULL); /* recvfrom: peek */
	S(SYS_close, s5);
	s6 = S(SYS_socket, AF_UNIX, SOCK_STREAM, 0);          /* socket: unix */
	sun_a.sun_family = AF_UNIX; strcpy(sun_a.sun_path, DIR_ "/sock");
	S(SYS_bind, s6, &sun_a, sizeof sun_a);                /* bind: /tmp/sct/sock */
	S(SYS_listen, s6, 1);
	s3 = S(SYS_socket, AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	S(SYS_connect, s3, &sun_a, sizeof sun_a);             /* connect: /tmp/sct/sock */
	s4 = S(SYS_accept, s6, NULL, NULL);                   /* accept */
	iov[0].iov_base = (void *)msg_hello; iov[0].iov_len = 5;
	msg.msg_iov = iov; msg.msg_iovlen = 1;
	S(SYS_sendmsg, s3, &msg, 0);                          /* sendmsg */
	iov[0].iov_base = buf; iov[0].iov_len = 100;
	S(SYS_recvmsg, s4, &msg, MSG_DONTWAIT);               /* recvmsg */
	S(SYS_close, s3);
	S(SYS_close, s4);
	S(SYS_close, s6);
	S(SYS_socketpair, AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv); /* socketpair */
	S(SYS_sendto, sv[0], data16, 10, 0, NULL, 0);
	S(SYS_recvfrom, sv[1], buf, sizeof buf, 0, NULL, NULL);
	S(SYS_shutdown, sv[0], SHUT_RDWR);                    /* shutdown: both */
	S(SYS_close, sv[0]);
	S(SYS_close, sv[1]);
	S(SYS_socket, AF_INET, SOCK_RAW + 100, 0);            /* socket: EINVAL */
	S(SYS_connect, 99, &sin_a, sizeof sin_a);             /* connect: EBADF */
	S(SYS_close, s1);
	S(SYS_close, s2);

	/* Processes: two forks through clone with fixed pids, execve failures. */
	r = S(SYS_open, "/proc/sys/kernel/ns_last_pid", O_WRONLY);
	S(SYS_write, r, pidbase, 5);                          /* write: the next pid is 20000 */
	S(SYS_close, r);
	r = S(SYS_clone, SIGCHLD, 0, NULL, NULL, 0);          /* clone: fork, the child exits 3 */
	if (r == 0)
		S(SYS_exit_group, 3);
	S(SYS_wait4, r, &status, 0, NULL);                    /* wait4: the child */
	S(SYS_wait4, -1, &status, WNOHANG, &ru);              /* wait4: ECHILD */
	r = S(SYS_clone, CLONE_VFORK | SIGCHLD, 0, NULL, NULL, 0); /* clone: vfork-like (no CLONE_VM), the child exits 4 */
	if (r == 0)
		S(SYS_exit, 4);
	S(SYS_waitid, P_PID, r, &si, WEXITED, NULL);          /* waitid */
	S(SYS_execve, "/nonexistent/prog", argv_nx, empty_env); /* execve: ENOENT */
	S(SYS_execve, "/proc/version", argv_nx, empty_env);   /* execve: EACCES (no x bit) */

	/* Clean up. */
	S(SYS_close, fd);
	S(SYS_close, fd2);
	S(SYS_close, fds[0]);
	S(SYS_close, fds[1]);
	S(SYS_close, fds2[0]);
	S(SYS_close, fds2[1]);
	S(SYS_chdir, "/");
	S(SYS_unlink, DIR_ "/f1");
	S(SYS_unlink, DIR_ "/f2");
	S(SYS_unlink, DIR_ "/f3");
	S(SYS_unlink, DIR_ "/f4");
	S(SYS_unlink, DIR_ "/l2");
	S(SYS_unlink, DIR_ "/s1");
	S(SYS_unlink, DIR_ "/s2");
	S(SYS_unlink, DIR_ "/sock");
	S(SYS_rmdir, DIR_);                                   /* rmdir: the scratch directory */

	/* The end: execve of itself, which exits at once. */
	S(SYS_execve, "/proc/self/exe", argv_self, empty_env); /* execve: success */
	S(SYS_exit_group, 1);                                 /* not reached */
	return 1;
}
