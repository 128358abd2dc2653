// SPDX-License-Identifier: GPL-2.0-or-later
/* main.c: staprun's driver: options, the module file, signals, the -c
 * command, loading, the session, unloading. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "staprun/staprun.h"

/* -R: NAME_PID, NAME shortened so that the whole fits. */
static void renamed(const char *name, char out[STP_MODNAME_MAX])
{
	char suffix[24];
	int n = snprintf(suffix, sizeof(suffix), "_%ld", (long)getpid());
	int keep = STP_MODNAME_MAX - 1 - n;

	snprintf(out, STP_MODNAME_MAX, "%.*s%s", keep, name, suffix);
}

/* SIGINT, SIGTERM, SIGHUP, SIGUSR2 (switch the output file) and SIGCHLD
 * go to a signalfd; @old gets the mask
 * to restore in the -c command. Returns the fd or -1. */
static int setup_signals(sigset_t *old)
{
	sigset_t set;
	int fd;

	/* a closed output pipe is an error to report, not a reason to die
	 * with the module loaded */
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGUSR2);
	sigaddset(&set, SIGCHLD);
	if (sigprocmask(SIG_BLOCK, &set, old)) {
		fprintf(stderr, "ERROR: sigprocmask: %s\n", strerror(errno));
		return -1;
	}
	fd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (fd < 0)
		fprintf(stderr, "ERROR: signalfd: %s\n", strerror(errno));
	return fd;
}

/* -A NAME: stream the output of the session that staprun -L left
 * running; unload NAME when it ends, as a session of our own. */
static int attach(const struct staprun_opts *o, const char *name)
{
	struct target_cmd t = { .pid = 0, .go_fd = -1 };
	int dest_fd = STDOUT_FILENO, sigfd, status = 1;
	sigset_t oldmask;

	if (o->outfile && !o->bulk) {
		char first[4096];

		if (out_file_name(o, 0, first, sizeof(first))) {
			fprintf(stderr, "ERROR: Output file name too long.\n");
			return 1;
		}
		dest_fd = open(first, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
		if (dest_fd < 0) {
			fprintf(stderr, "ERROR: Couldn't open output file '%s': %s\n",
				first, strerror(errno));
			return 1;
		}
	}
	sigfd = setup_signals(&oldmask);
	if (sigfd >= 0) {
		status = run_session(o, name, sigfd, &t, -1, dest_fd);
		if (status < 0)
			status = 1;	/* never attached: it is not ours */
		else if (unload_module(name, o->verbose))
			status = 1;
		close(sigfd);
	}
	if (dest_fd != STDOUT_FILENO && close(dest_fd)) {
		fprintf(stderr, "ERROR: Couldn't write output file '%s': %s\n",
			o->outfile, strerror(errno));
		status = 1;
	}
	return status;
}

int main(int argc, char *argv[])
{
	struct staprun_opts o;
	struct target_cmd t = { .pid = 0, .go_fd = -1 };
	struct mod_image img = { NULL, 0 };
	char err[STP_ERRLEN], path[PATH_MAX], name[STP_MODNAME_MAX];
	char *params = NULL;
	int fd = -1, dest_fd = STDOUT_FILENO, sigfd = -1, detach_fd = -1;
	int status = 1, r;
	pid_t target;
	sigset_t oldmask;

	if (opts_parse(&o, argc, argv, err, sizeof(err))) {
		fprintf(stderr, "ERROR: %s\n%s", err, opts_usage());
		return 1;
	}
	if (o.action == ACT_HELP) {
		fputs(opts_usage(), stdout);
		return 0;
	}
	if (o.action == ACT_VERSION) {
		printf("staprun (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
		return 0;
	}
	if (o.action == ACT_DELETE)
		return delete_modules(o.module, o.verbose);
	if (o.action == ACT_ATTACH) {
		if (attach_name(o.module, name))
			return 1;
		return attach(&o, name);
	}

	if (params_module_path(o.module, path, sizeof(path))) {
		fprintf(stderr, "ERROR: Module path too long: '%s'\n", o.module);
		return 1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "ERROR: Couldn't open module '%s': %s\n", path,
			strerror(errno));
		return 1;
	}
	r = modelf_read(fd, &img);
	if (r) {
		fprintf(stderr, "ERROR: Couldn't read module '%s': %s\n", path,
			r == -EINVAL ? "Not a regular file" : strerror(-r));
		goto out;
	}
	/* the name the kernel will use, from struct module in the file */
	if (modelf_name(&img, name)) {
		fprintf(stderr, "ERROR: '%s' is not a kernel module for this machine (no module name found in it)\n",
			path);
		goto out;
	}
	if (params_check_module(&img, o.modargs, o.nmodargs, err, sizeof(err))) {
		fprintf(stderr, "ERROR: %s\n", err);
		goto out;
	}
	if (o.rename) {
		char nn[STP_MODNAME_MAX];

		renamed(name, nn);
		if (modelf_rename(&img, nn, err, sizeof(err))) {
			fprintf(stderr, "ERROR: Couldn't rename module '%s': %s\n",
				path, err);
			goto out;
		}
		strcpy(name, nn);
	}
	if (o.verbose)
		fprintf(stderr, "staprun: module '%s' from '%s'\n", name, path);

	if (o.outfile && !o.bulk) {
		char first[4096];

		if (out_file_name(&o, 0, first, sizeof(first))) {
			fprintf(stderr, "ERROR: Output file name too long.\n");
			goto out;
		}
		dest_fd = open(first, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
		if (dest_fd < 0) {
			fprintf(stderr, "ERROR: Couldn't open output file '%s': %s\n",
				first, strerror(errno));
			goto out;
		}
	}
	if (o.detach) {
		r = detach_prepare(&detach_fd);
		if (r) {
			fprintf(stderr, "ERROR: Couldn't detach: %s\n",
				strerror(-r));
			goto out;
		}
	}
	sigfd = setup_signals(&oldmask);
	if (sigfd < 0)
		goto out;
	target = o.target;
	if (o.command) {
		r = target_spawn(&t, o.command, &oldmask);
		if (r) {
			fprintf(stderr, "ERROR: Couldn't fork for -c: %s\n",
				strerror(-r));
			goto out;
		}
		target = t.pid;
	}
	params = params_build(&o, target, err, sizeof(err));
	if (!params) {
		fprintf(stderr, "ERROR: %s\n", err);
		goto out;
	}
	if (o.verbose)
		fprintf(stderr, "staprun: inserting '%s' with \"%s\"\n", name,
			params);
	if (load_module(fd, o.rename ? &img : NULL, path, name, params,
			modelf_modinfo(&img, "vermagic")))
		goto out;
	/* the image is not needed any more */
	modelf_free(&img);
	close(fd);
	fd = -1;

	status = run_session(&o, name, sigfd, &t, detach_fd, dest_fd);
	target_end(&t);
	if (o.load_only && !status)
		;	/* -L: it runs on; staprun -A or -d NAME later */
	else if (unload_module(name, o.verbose))
		status = 1;
out:
	target_end(&t);
	if (dest_fd != STDOUT_FILENO && dest_fd >= 0 && close(dest_fd)) {
		fprintf(stderr, "ERROR: Couldn't write output file '%s': %s\n",
			o.outfile, strerror(errno));
		status = 1;
	}
	if (sigfd >= 0)
		close(sigfd);
	if (fd >= 0)
		close(fd);
	free(params);
	modelf_free(&img);
	return status;
}
