// SPDX-License-Identifier: GPL-2.0-or-later
/* remote.c: pass 5 in the test VM (--remote=qemu): staprun runs in the
 * guest, its output streams back over the serial console line by line, and
 * SIGINT on the host ends the session in the guest (doc/remote.md). */
#define _GNU_SOURCE
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include "run_internal.h"
#include "util/arena.h"
#include "util/diag.h"
#include "util/strbuf.h"
#include "util/vec.h"

/*
 * The guest's shell: stty -echo so that what the host sends is not echoed
 * into the stream; staprun's stdout and stderr go through FIFOs to two
 * framers that print each line as "@@S1 TEXT" / "@@S2 TEXT" (a last line
 * without a newline as "@@S1- TEXT"); a watcher reads the console and
 * sends SIGINT to staprun for each "@@INT" line; "@@READY" tells the host
 * that the watcher listens, "@@RC N" gives staprun's exit status. staprun
 * runs in the foreground (a background job would ignore SIGINT) from a
 * subshell that learns its own pid through a child's $PPID.
 */
static const char guest_head[] =
	"stty -echo </dev/console 2>/dev/null; mkfifo /tmp/o /tmp/e; "
	"f() { while IFS= read -r l; do printf '@@S%s %s\\n' $1 \"$l\"; done; "
	"[ -z \"$l\" ] || printf '@@S%s- %s\\n' $1 \"$l\"; }; "
	"f 1 </tmp/o & a=$!; f 2 </tmp/e & b=$!; "
	"(while read -r l; do case $l in *@@INT*) "
	"while [ ! -s /tmp/pid ]; do sleep 0.1; done; kill -INT $(cat /tmp/pid);; "
	"esac; done) </dev/console & w=$!; "
	"echo @@READY; "
	"(sh -c 'echo $PPID' >/tmp/pid; exec ";
static const char guest_tail[] =
	") >/tmp/o 2>/tmp/e; rc=$?; wait $a $b; kill $w; echo \"@@RC $rc\"";

static volatile sig_atomic_t interrupts;

static void on_interrupt(int sig)
{
	(void)sig;
	interrupts++;
}

struct stream {
	FILE *out;		/* the guest's stdout goes here (stdout or -o) */
	struct strbuf line;	/* a line not yet complete */
	struct strbuf other;	/* console lines that are not ours */
	int status;		/* staprun's, from "@@RC N"; -1 before */
	bool ready;		/* the guest listens for "@@INT" */
};

/* One console line (without its newline) from run-vm. */
static void stream_line(struct stream *st, const char *l, size_t n)
{
	FILE *to = NULL;
	size_t skip = 0;
	bool nl = true;

	if (n >= 5 && (!memcmp(l, "@@S1 ", 5) || !memcmp(l, "@@S2 ", 5))) {
		skip = 5;
	} else if (n >= 6 && (!memcmp(l, "@@S1- ", 6) || !memcmp(l, "@@S2- ", 6))) {
		skip = 6;
		nl = false;
	} else if (n == 7 && !memcmp(l, "@@READY", 7)) {
		st->ready = true;
		return;
	} else if (n > 5 && !memcmp(l, "@@RC ", 5)) {
		st->status = atoi(l + 5);
		return;
	} else {
		/* kernel messages on the console: kept for a failure report */
		sb_addn(&st->other, l, n);
		sb_addc(&st->other, '\n');
		return;
	}
	to = l[3] == '1' ? st->out : stderr;
	fwrite(l + skip, 1, n - skip, to);
	if (nl)
		fputc('\n', to);
	fflush(to);
}

static void stream_feed(struct stream *st, const char *buf, size_t n)
{
	const char *p = buf, *e = buf + n, *nl;

	while (p < e && (nl = memchr(p, '\n', (size_t)(e - p)))) {
		if (st->line.len) {
			sb_addn(&st->line, p, (size_t)(nl - p));
			stream_line(st, st->line.buf, st->line.len);
			sb_reset(&st->line);
		} else {
			stream_line(st, p, (size_t)(nl - p));
		}
		p = nl + 1;
	}
	if (p < e)
		sb_addn(&st->line, p, (size_t)(e - p));
}

/* Start @argv in a process group of its own (a terminal's ^C reaches stap
 * only, which forwards it), stdin from *@in_fd's pipe, stdout into
 * *@out_fd's. Returns the pid or -errno. */
static pid_t spawn_piped(const char *const *argv, int *in_fd, int *out_fd)
{
	int in[2], out[2], err;
	pid_t pid;

	if (pipe2(in, O_CLOEXEC))
		return -errno;
	if (pipe2(out, O_CLOEXEC)) {
		err = -errno;
		close(in[0]);
		close(in[1]);
		return err;
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		dup2(in[0], 0);
		dup2(out[1], 1);
		execvp(argv[0], (char *const *)argv);
		fprintf(stderr, "stap: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	err = -errno;
	close(in[0]);
	close(out[1]);
	if (pid < 0) {
		close(in[1]);
		close(out[0]);
		return err;
	}
	setpgid(pid, pid);	/* as the child does: whichever runs first */
	*in_fd = in[1];
	*out_fd = out[0];
	return pid;
}

/* Read run-vm's stdout to its end. Each SIGINT/SIGTERM/SIGHUP (once the
 * guest listens) becomes one "@@INT" line to the guest: the first ends the
 * session, the second makes staprun give up, as at home; a third stops
 * the VM. Returns run-vm's exit status or -errno. */
static int stream_run(struct stream *st, pid_t pid, int in_fd, int out_fd)
{
	struct sigaction sa = { .sa_handler = on_interrupt }, old[3];
	const int sigs[3] = { SIGINT, SIGTERM, SIGHUP };
	sigset_t block, orig;
	int sent = 0, i, rc = 0, wst;
	char buf[16384];

	sigemptyset(&block);
	for (i = 0; i < 3; i++) {
		sigaction(sigs[i], &sa, &old[i]);
		sigaddset(&block, sigs[i]);
	}
	sigprocmask(SIG_BLOCK, &block, &orig);
	signal(SIGPIPE, SIG_IGN);
	for (;;) {
		struct pollfd pfd = { .fd = out_fd, .events = POLLIN };
		ssize_t n;

		while (st->ready && sent < interrupts && sent < 2) {
			if (write(in_fd, "@@INT\n", 6) != 6)
				break;
			sent++;
		}
		if (interrupts >= 3 && sent >= 0) {
			fputs("stap: interrupted three times: stopping the VM\n", stderr);
			kill(-pid, SIGTERM);
			sent = -100;
		}
		if (ppoll(&pfd, 1, NULL, &orig) < 0) {
			if (errno == EINTR)
				continue;
			rc = -errno;
			break;
		}
		n = read(out_fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		stream_feed(st, buf, (size_t)n);
	}
	if (st->line.len)
		stream_line(st, st->line.buf, st->line.len);
	close(out_fd);
	close(in_fd);
	while (waitpid(pid, &wst, 0) < 0)
		if (errno != EINTR) {
			rc = rc ? rc : -errno;
			goto out;
		}
	if (!rc)
		rc = WIFEXITED(wst) ? WEXITSTATUS(wst) : 128 + WTERMSIG(wst);
out:
	sigprocmask(SIG_SETMASK, &orig, NULL);
	for (i = 0; i < 3; i++)
		sigaction(sigs[i], &old[i], NULL);
	return rc;
}

int run_in_vm(const struct session *s, struct diag *d, struct arena *a,
	      const char *ko, const char *release)
{
	struct strbuf sh = STRBUF_INIT;
	struct stream st = { .line = STRBUF_INIT, .other = STRBUF_INIT, .status = -1 };
	const char **argv, *base = strrchr(ko, '/') ? strrchr(ko, '/') + 1 : ko;
	const char *srun = staprun_path(a, true), *name;
	int n = 0, rc, in_fd = -1, out_fd = -1, status = 1;
	struct ptrvec files = { 0 };
	char cwd[PATH_MAX];
	struct stat sb;
	size_t i;
	pid_t pid;

	if (stat(srun, &sb)) {
		diag_fail(d, -errno, NULL, "%s is missing: run `make staprun-static` (the VM has no libc)",
			  srun);
		return 1;
	}
	st.out = stdout;
	if (s->output_file && !(st.out = fopen(s->output_file, "wb"))) {
		diag_fail(d, -errno, NULL, "cannot write %s: %s", s->output_file, strerror(errno));
		return 1;
	}
	/* The module keeps its file name in the guest: /m/NAME.ko. */
	name = arena_strndup(a, base, strcspn(base, "."));
	remote_user_files(a, ko, s->target_cmd, &files);
	argv = arena_alloc(a, (16 + 2 * files.n) * sizeof(*argv));
	argv[n++] = arena_printf(a, "%s/run-vm", vm_dir());
	argv[n++] = "--stream";
	argv[n++] = "--release";
	argv[n++] = release;
	argv[n++] = "--timeout";
	argv[n++] = arena_printf(a, "%ld", s->timeout_s ? s->timeout_s + 120 : 600);
	argv[n++] = "--put";
	argv[n++] = arena_printf(a, "%s:/bin/staprun", srun);
	argv[n++] = "--put";
	argv[n++] = arena_printf(a, "%s:/m/%s.ko", ko, name);
	/* into /m/u/PATH, copied to PATH once the guest has mounted its
	 * tmpfs on /tmp (which would hide a file put there) */
	for (i = 0; i < files.n; i++) {
		const char *f = files.v[i];
		char real[PATH_MAX];

		/* the file itself, not a symbolic link (the loader's path is
		 * one: /lib64/ld-linux-x86-64.so.2) */
		argv[n++] = "--put";
		argv[n++] = arena_printf(a, "%s:/m/u%s", realpath(f, real) ? real : f, f);
		sb_adds(&sh, "mkdir -p ");
		sb_add_shquoted(&sh, arena_strndup(a, f, (size_t)(strrchr(f, '/') - f) + 1));
		sb_adds(&sh, " && cp -p ");
		sb_add_shquoted(&sh, arena_printf(a, "/m/u%s", f));
		sb_addc(&sh, ' ');
		sb_add_shquoted(&sh, f);
		sb_adds(&sh, "; ");
	}
	argv[n++] = "--";
	/* the host's working directory, so that -c ./prog and relative
	 * paths mean there what they mean here */
	if (getcwd(cwd, sizeof(cwd)) && strcmp(cwd, "/")) {
		sb_adds(&sh, "mkdir -p ");
		sb_add_shquoted(&sh, cwd);
		sb_adds(&sh, " && cd ");
		sb_add_shquoted(&sh, cwd);
		sb_adds(&sh, "; ");
	}
	/* staprun runs from its host path in the guest too (a hard link
	 * of /bin/staprun), as the process(@__staprun_exe) points of the
	 * staprun.* aliases name it (uprobes follow the program's path) */
	if (*srun == '/' && strncmp(srun, "/tmp/", 5)) {
		sb_adds(&sh, "mkdir -p ");
		sb_add_shquoted(&sh, arena_strndup(a, srun, (size_t)(strrchr(srun, '/') - srun) + 1));
		sb_adds(&sh, " && ln -f /bin/staprun ");
		sb_add_shquoted(&sh, srun);
		sb_adds(&sh, " 2>/dev/null || s=staprun; ");
		sb_adds(&sh, "s=${s:-");
		sb_add_shquoted(&sh, srun);
		sb_adds(&sh, "}; ");
	} else {
		sb_adds(&sh, "s=staprun; ");
	}
	sb_adds(&sh, guest_head);
	sb_adds(&sh, "\"$s\"");
	staprun_shell_opts(s, a, &sh);
	sb_addf(&sh, " /m/%s.ko", name);
	sb_adds(&sh, guest_tail);
	argv[n++] = sb_str(&sh);
	argv[n] = NULL;
	pid = spawn_piped(argv, &in_fd, &out_fd);
	rc = pid < 0 ? (int)pid : stream_run(&st, pid, in_fd, out_fd);
	if (rc || st.status < 0) {
		diag_fail(d, rc < 0 ? rc : -EIO, NULL, "the VM run failed (run-vm exit %d)%s", rc,
			  rc == 124 ? ": timeout" : rc == 125 ? ": the guest kernel crashed or did not finish" : "");
		fputs(sb_str(&st.other), stderr);
	} else {
		status = st.status;
	}
	if (st.out != stdout && fclose(st.out)) {
		diag_fail(d, -errno, NULL, "cannot write %s: %s", s->output_file, strerror(errno));
		status = 1;
	}
	sb_release(&sh);
	sb_release(&st.line);
	sb_release(&st.other);
	return status;
}
