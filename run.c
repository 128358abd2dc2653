// SPDX-License-Identifier: GPL-2.0-or-later
/* run.c: pass 5. On a kernel that can load modules, staprun runs the
 * module here. Otherwise, or with --remote qemu[:WHAT], the module runs in
 * the test VM (testsuite/vm: Debian's kernel under QEMU; remote.c) with a
 * static staprun and any -c program that is a host file copied in. */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "build.h"
#include "run_internal.h"
#include "session.h"
#include "util/arena.h"
#include "util/diag.h"
#include "util/strbuf.h"

#ifndef VM_SOURCE_DIR
#define VM_SOURCE_DIR "/usr/share/systemtap/vm"
#endif
#ifndef BUILD_DIR
#define BUILD_DIR "/usr/lib/systemtap"
#endif

const char *vm_dir(void)
{
	const char *env = getenv("CSTAP_VM_DIR");

	return env && *env ? env : VM_SOURCE_DIR;
}

/* Run @argv, its stdout into @out (when non-NULL); @quiet drops its
 * stderr unless $STAP_VM_VERBOSE is set. Like every function that runs a
 * program: its exit status (128+N for signal N), or -errno when it could
 * not be started. */
static int run_capture(const char *const *argv, struct strbuf *out, bool quiet)
{
	int fd[2], st, err;
	pid_t pid;

	if (out && pipe(fd))
		return -errno;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		if (out) {
			dup2(fd[1], 1);
			close(fd[0]);
			close(fd[1]);
			if (quiet && !getenv("STAP_VM_VERBOSE") &&
			    freopen("/dev/null", "w", stderr) == NULL)
				_exit(127);
		}
		execvp(argv[0], (char *const *)argv);
		/* the child has no diag of its own: one line, then 127 */
		fprintf(stderr, "stap: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (pid < 0) {
		err = -errno;
		if (out) {
			close(fd[0]);
			close(fd[1]);
		}
		return err;
	}
	if (out) {
		char buf[65536];
		ssize_t n;

		close(fd[1]);
		while ((n = read(fd[0], buf, sizeof(buf))) > 0)
			sb_addn(out, buf, (size_t)n);
		close(fd[0]);
	}
	if (waitpid(pid, &st, 0) < 0)
		return -errno;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The first line @argv prints (its stderr dropped when @quiet), when it
 * succeeds; else NULL. */
static const char *run_first_line(struct arena *a, const char *const *argv, bool quiet)
{
	struct strbuf out = STRBUF_INIT;
	const char *line = NULL;

	if (run_capture(argv, &out, quiet) == 0 && out.len)
		line = arena_strndup(a, sb_str(&out), strcspn(sb_str(&out), "\n"));
	sb_release(&out);
	return line;
}

/* Probe points are checked against the VM kernel's own symbol table:
 * testsuite/vm/kallsyms captures it once (one boot) and caches it. */
static void vm_kallsyms(struct arena *a, const char *rel)
{
	const char *argv[5] = { arena_printf(a, "%s/kallsyms", vm_dir()), "--release", rel,
				"--path", NULL };
	const char *path;

	if (getenv("SYSTEMTAP_KALLSYMS"))
		return;
	path = run_first_line(a, argv, true);
	if (path)
		setenv("SYSTEMTAP_KALLSYMS", path, 1);
}

const char *vm_fetch_debuginfo(struct arena *a, const char *release,
			       const char *module)
{
	const char *tool = getenv("CSTAP_FETCH_DEBUGINFO");	/* tests */
	const char *argv[6] = { tool && *tool ? tool :
				arena_printf(a, "%s/../../tools/fetch-debuginfo", vm_dir()),
				"--release", release, module ? "--module" : NULL, module,
				NULL };

	return run_first_line(a, argv, false);
}

int vm_release(const struct session *s, struct diag *d, struct arena *a,
	       const char **release)
{
	struct strbuf out = STRBUF_INIT;
	const char *what = s->remote, *line = "6.1", *rel = NULL, *p;
	const char *argv[6];
	char *fk = arena_printf(a, "%s/fetch-kernel", vm_dir());
	int n = 0, rc;

	*release = NULL;
	if (what && *what && strcmp(what, "6.1") && strcmp(what, "6.12")) {
		*release = what;	/* a release */
		return 0;
	}
	if (what && *what)
		line = what;
	argv[n++] = fk;
	argv[n++] = "--line";
	argv[n++] = line;
	argv[n] = NULL;
	rc = run_capture(argv, &out, true);
	for (p = sb_str(&out); rc == 0 && p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, "release=", 8))
			rel = arena_strndup(a, p + 8, strcspn(p + 8, "\n"));
	sb_release(&out);
	if (!rel)
		return diag_fail(d, rc < 0 ? rc : -ENOENT, NULL,
				 "could not resolve the VM's kernel (%s --line %s failed)",
				 fk, line);
	vm_kallsyms(a, rel);
	*release = rel;
	return 0;
}

const char *staprun_path(struct arena *a, bool vm)
{
	const char *env = getenv(vm ? "STAPRUN_STATIC" : "STAPRUN");

	if (env && *env)
		return env;
	return vm ? arena_printf(a, "%s/staprun-static", BUILD_DIR)
		  : arena_printf(a, "%s/staprun/staprun", BUILD_DIR);
}

/* staprun's options from the session (without -o when @vm). */
static void staprun_opts(const struct session *s, struct arena *a, bool vm,
			 struct strbuf *sh, const char **argv, int *n)
{
	if (s->bulk) {
		argv[(*n)++] = "-b";
		sb_adds(sh, " -b");
	}
	if (s->buffer_mb) {
		argv[(*n)++] = "-s";
		argv[(*n)++] = arena_printf(a, "%d", s->buffer_mb);
		sb_addf(sh, " -s %d", s->buffer_mb);
	}
	if (s->target_pid) {
		argv[(*n)++] = "-x";
		argv[(*n)++] = arena_printf(a, "%ld", s->target_pid);
		sb_addf(sh, " -x %ld", s->target_pid);
	}
	if (s->monitor) {
		argv[(*n)++] = "-M";
		argv[(*n)++] = arena_printf(a, "%d", s->monitor);
		sb_addf(sh, " -M %d", s->monitor);
	}
	if (s->timeout_s) {
		argv[(*n)++] = "-T";
		argv[(*n)++] = arena_printf(a, "%ld", s->timeout_s);
		sb_addf(sh, " -T %ld", s->timeout_s);
	}
	if (s->output_file && !vm) {
		argv[(*n)++] = "-o";
		argv[(*n)++] = s->output_file;
	}
	if (s->rotate && !vm) {
		argv[(*n)++] = "-S";
		argv[(*n)++] = s->rotate;
	}
	/* the messages of the module as stap's own (staprun's stderr is
	 * ours, or the VM's pipe) */
	argv[(*n)++] = "-C";
	argv[(*n)++] = s->color_on ? "always" : "never";
	sb_addf(sh, " -C %s", s->color_on ? "always" : "never");
	if (s->flight_recorder && !vm)	/* -F: run on, in the background */
		argv[(*n)++] = s->output_file ? "-D" : "-L";
	if (s->target_cmd) {
		argv[(*n)++] = "-c";
		argv[(*n)++] = s->target_cmd;
		sb_adds(sh, " -c ");
		sb_add_shquoted(sh, s->target_cmd);
	}
}

void staprun_shell_opts(const struct session *s, struct arena *a, struct strbuf *sh)
{
	const char *dummy[16];
	int n = 0;

	staprun_opts(s, a, true, sh, dummy, &n);
}

static bool can_load_modules(void)
{
	return access("/proc/modules", F_OK) == 0;
}

int run_module(const struct session *s, struct diag *d, struct arena *a,
	       const char *ko, const char *release)
{
	const char *argv[24];
	struct strbuf sh = STRBUF_INIT;
	int n = 0, rc;

	if (s->remote && s->flight_recorder) {
		diag_fail(d, -EINVAL, NULL,
			  "-F leaves the module running after stap exits, and the VM of --remote=qemu "
			  "powers off then: load it with 'staprun -L' inside the VM instead");
		return 1;
	}
	if (s->remote)
		return run_in_vm(s, d, a, ko, release);
	if (!can_load_modules()) {
		diag_fail(d, -ENOSYS, NULL,
			  "this kernel cannot load modules (no /proc/modules), so pass 5 cannot run here.\n"
			  "Run the script in the test VM instead (Debian's kernel under QEMU): add --remote=qemu,\n"
			  "or build with -p4 and load %s with staprun on a machine that can.", ko);
		return 1;
	}
	argv[n++] = staprun_path(a, false);
	staprun_opts(s, a, false, &sh, argv, &n);
	argv[n++] = ko;
	argv[n] = NULL;
	rc = run_capture(argv, NULL, false);
	sb_release(&sh);
	if (rc < 0) {
		diag_fail(d, rc, argv[0], "cannot start: %s", strerror(-rc));
		return 1;
	}
	return rc;
}
