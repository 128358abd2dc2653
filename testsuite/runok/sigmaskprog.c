// SPDX-License-Identifier: GPL-2.0-or-later
/* sigmaskprog.c: for funcs_sigaction_mask: a handler for SIGUSR1 that
 * blocks SIGUSR2 and SIGTERM while it runs, SIGHUP ignored, then a nap. */
#include <signal.h>
#include <string.h>
#include <unistd.h>

static void on_usr1(int sig)
{
	(void)sig;
}

int main(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGUSR2);
	sigaddset(&sa.sa_mask, SIGTERM);
	sa.sa_flags = SA_RESTART;
	sigaction(SIGUSR1, &sa, NULL);
	signal(SIGHUP, SIG_IGN);
	sleep(2);
	return 0;
}
