// SPDX-License-Identifier: GPL-2.0-or-later
/* famprog: a deterministic workload for the scheduler.*, kprocess.* and
 * signal.* tests (testsuite/runok/sched_*, testsuite/dwarfok/kprocess_*,
 * signal_*), run as `famprog proc` or `famprog sig` under staprun -c.
 *
 * proc: a thread (created, joined), then a child that tries to exec a
 *       missing file (ENOENT), then execs `/bin/sh -c "exit 3"` with one
 *       environment string; the parent waits for it.
 * sig:  a child installs a SIGUSR1 handler (mask SIGUSR2, SA_RESTART) and
 *       a SIGTERM one (mask SIGUSR2, SA_SIGINFO),
 *       ignores SIGUSR2, blocks SIGHUP and says it is ready; the parent
 *       sends it SIGHUP (stays pending), SIGUSR2 (ignored), SIGUSR1
 *       (handled: the child then reads its pending set and answers), then
 *       SIGCONT with tgkill and SIGTERM with tkill (its handler exits),
 *       and waits for it.
 * codes: see codes_mode().
 * Each step waits for the previous one, so the events of one process come
 * in a fixed order. Output goes to /dev/null (staprun's stdout is the
 * test's). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t got_usr1;

static void on_usr1(int sig)
{
	(void)sig;
	got_usr1 = 1;
}

static void on_term(int sig)
{
	_exit(sig == SIGTERM ? 0 : 1);
}

/* Read each string of @v, so that its pages are present when a probe reads
 * them without faulting. */
static void touch(const char *const *v)
{
	const char *p;

	for (; *v; v++)
		for (p = *v; *(volatile const char *)p; p++)
			;
}

static void *thread_main(void *arg)
{
	return arg;
}

static int proc_mode(void)
{
	static char *const sh_argv[] = { "sh", "-c", "exit 3", NULL };
	static char *const sh_envp[] = { "FAM=1", NULL };
	static const char missing[] = "/nonexistent/prog";
	pthread_t t;
	pid_t child;
	int status;

	if (pthread_create(&t, NULL, thread_main, NULL) || pthread_join(t, NULL))
		return 1;
	usleep(200000);		/* the thread's release comes first */
	child = fork();
	if (child < 0)
		return 1;
	if (child == 0) {
		const char *const m[] = { missing, NULL };

		touch(m);
		touch((const char *const *)sh_argv);
		touch((const char *const *)sh_envp);
		execve(missing, sh_argv, sh_envp);
		execve("/bin/sh", sh_argv, sh_envp);
		_exit(127);
	}
	waitpid(child, &status, 0);
	usleep(200000);		/* RCU frees the child's task_struct */
	_exit(0);
}

static int sig_mode(void)
{
	int ready[2], ack[2];
	struct sigaction sa;
	sigset_t set;
	pid_t child;
	char c = 0;

	if (pipe(ready) || pipe(ack))
		return 1;
	child = fork();
	if (child < 0)
		return 1;
	if (child == 0) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_usr1;
		sa.sa_flags = SA_RESTART;
		sigemptyset(&sa.sa_mask);
		sigaddset(&sa.sa_mask, SIGUSR2);
		sigaction(SIGUSR1, &sa, NULL);
		sa.sa_handler = on_term;
		sa.sa_flags = SA_SIGINFO;
		sigaction(SIGTERM, &sa, NULL);
		signal(SIGUSR2, SIG_IGN);
		sigemptyset(&set);
		sigaddset(&set, SIGHUP);
		sigprocmask(SIG_BLOCK, &set, NULL);
		if (write(ready[1], "r", 1) != 1)
			_exit(1);
		while (!got_usr1)
			pause();
		sigpending(&set);
		if (write(ack[1], "a", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	if (read(ready[0], &c, 1) != 1)
		return 1;
	kill(child, SIGHUP);
	kill(child, SIGUSR2);
	kill(child, SIGUSR1);
	if (read(ack[0], &c, 1) != 1)
		return 1;
	syscall(SYS_tgkill, child, child, SIGCONT);
	syscall(SYS_tkill, child, SIGTERM);
	waitpid(child, NULL, 0);
	usleep(200000);
	return 0;
}

static void on_rt(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)si;
	(void)uc;
}

/* codes: signal 40 (blocked, with a SA_SIGINFO handler) queued to itself
 * with rt_sigqueueinfo once for each si_code below, then unblocked, so
 * that each is delivered; then SIGUSR1 (blocked) with si_code 1. */
static int codes_mode(void)
{
	static const int codes[] = { 0, 1, 2, 3, 4, 5, 6, 0x80, -1, -2, -3, -4,
				     -5, -6, -7, -60, 0x10000, -0x10000, 100 };
	struct sigaction sa;
	siginfo_t si;
	sigset_t set;
	unsigned i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_rt;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(40, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, 40);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	for (i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
		memset(&si, 0, sizeof(si));
		si.si_signo = 40;
		si.si_code = codes[i];
		si.si_pid = getpid();
		syscall(SYS_rt_sigqueueinfo, getpid(), 40, &si);
	}
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGUSR1;
	si.si_code = 1;
	syscall(SYS_rt_sigqueueinfo, getpid(), SIGUSR1, &si);
	sigemptyset(&set);
	sigaddset(&set, 40);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	return 0;
}

int main(int argc, char **argv)
{
	int fd = open("/dev/null", O_RDWR);

	if (fd >= 0) {
		dup2(fd, 1);
		dup2(fd, 2);
	}
	if (argc > 1 && !strcmp(argv[1], "proc"))
		return proc_mode();
	if (argc > 1 && !strcmp(argv[1], "sig"))
		return sig_mode();
	if (argc > 1 && !strcmp(argv[1], "codes"))
		return codes_mode();
	return 2;
}
