// SPDX-License-Identifier: GPL-2.0-or-later
/* build_exec.c: what pass 4's files share to run programs and write files:
 * make and shells in the kernel tree (their output logged), their exit
 * statuses, scratch files and cache entries, command text. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "build_exec.h"
#include "session.h"
#include "util/arena.h"
#include "util/cache.h"
#include "util/sdt_marker.h"
#include "util/strbuf.h"

/* Write @text to @path: 0 or -errno. */
int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	int err;

	if (!f)
		return -errno;
	fputs(text, f);
	err = ferror(f) ? -EIO : 0;
	if (fclose(f) && !err)
		err = -errno;
	return err;
}

/* Put @text into the cache as @path (cache_write: whole or not at all):
 * 0 or -errno. */
int cache_put(const char *path, const char *text)
{
	struct iovec iov = { (void *)text, strlen(text) };

	return cache_write(path, &iov, 1);
}

/* Copy @from to @to (cache_write: whole or not at all): 0 or -errno. */
int copy_file(const char *from, const char *to)
{
	struct strbuf sb = STRBUF_INIT;
	struct iovec iov;
	int err;

	err = sb_read_file(&sb, from);
	if (!err) {
		iov = (struct iovec){ sb.buf, sb.len };
		err = cache_write(to, &iov, 1);
	}
	sb_release(&sb);
	return err;
}

/* -B STAP_MODULE_DWARF=VALUE, VALUE not empty: keep the module's DWARF */
bool keep_dwarf(const struct session *s)
{
	static const char var[] = "STAP_MODULE_DWARF=";
	int i;

	for (i = 0; i < s->kbuild_vars.n; i++)
		if (!strncmp(s->kbuild_vars.v[i], var, sizeof(var) - 1) &&
		    s->kbuild_vars.v[i][sizeof(var) - 1])
			return true;
	return false;
}

/* Fork a child whose output goes into @log (or through, with -v -v). */
static pid_t fork_logged(const struct session *s, const char *log)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid == 0 && s->verbose[3] < 2) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
			close(fd);
		}
	}
	return pid;
}

/* The exit status of child @pid (128 + N when signal N ended it), or a
 * negative errno when it could not be started or waited for. */
int child_status(pid_t pid)
{
	int st;

	if (pid < 0 || waitpid(pid, &st, 0) < 0)
		return -errno;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Wait for child @pid until @path exists: true, or false with its status
 * in *@st (as child_status) when it ended first. Gives up waiting for the
 * file after 10 minutes (true). */
bool child_wait_file(pid_t pid, const char *path, int *st)
{
	int i, ws;

	for (i = 0; i < 120000; i++) {
		pid_t w = waitpid(pid, &ws, WNOHANG);

		if (w == pid || w < 0) {
			*st = w < 0 ? -errno : WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
			return false;
		}
		if (access(path, F_OK) == 0)
			return true;
		usleep(5000);
	}
	return true;
}

/* Compiles to run at once: the CPUs, up to 4. */
int build_jobs(void)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	return (int)(ncpu < 1 ? 1 : ncpu > 4 ? 4 : ncpu);
}

/* Start make for the module in @dir (see run_make): its pid, or -1. */
pid_t make_start(const struct session *s, const char *build, const char *dir,
			const char *log, bool keep_going)
{
	const char **argv = calloc((size_t)s->kbuild_vars.n + 11, sizeof(*argv));
	struct strbuf cmd = STRBUF_INIT;
	char mdir[4200];
	pid_t pid;
	int i, n = 0;

	if (!argv)
		abort();
	snprintf(mdir, sizeof(mdir), "M=%s", dir);
	argv[n++] = "make";
	/* the objects side by side (the probe module's two, the tests) */
	argv[n++] = (const char *const[]){ "-j1", "-j2", "-j3", "-j4" }[build_jobs() - 1];
	if (keep_going)
		argv[n++] = "-k";
	argv[n++] = "-C";
	argv[n++] = build;
	argv[n++] = mdir;
	/* No BTF for the module: when the tree has a vmlinux (a -r tree
	 * holding the debuginfo), kbuild would otherwise run pahole and
	 * resolve_btfids, which Debian's headers do not ship. */
	argv[n++] = "CONFIG_DEBUG_INFO_BTF_MODULES=";
	/* No DWARF either (see kbuild_makefile): the final link drops what
	 * kbuild's own NAME.mod.c brought */
	if (!keep_dwarf(s))
		argv[n++] = "LDFLAGS_MODULE=--strip-debug";
	for (i = 0; i < s->kbuild_vars.n; i++)
		argv[n++] = s->kbuild_vars.v[i];
	argv[n++] = "modules";
	argv[n] = NULL;
	/* the command line for the stap.system marker: the words, blank
	 * separated */
	for (i = 0; i < n; i++) {
		if (i)
			sb_addc(&cmd, ' ');
		sb_adds(&cmd, argv[i]);
	}
	SDT_MARK1(stap, stap_system__start, sb_str(&cmd));
	pid = fork_logged(s, log);
	if (pid == 0) {
		execvp("make", (char *const *)argv);
		/* the child has no diag of its own: one line, then 127 */
		fprintf(stderr, "stap: cannot run make: %s\n", strerror(errno));
		_exit(127);
	}
	SDT_MARK2(stap, stap_system__spawn, pid < 0 ? errno : 0, pid);
	free(argv);
	sb_release(&cmd);
	return pid;
}

/* Run make; its output goes to @log (or through, with -v -v). Like every
 * function that runs a program: its exit status (128+N for signal N), or
 * -errno when it could not be started. */
int run_make(const struct session *s, const char *build, const char *dir,
		    const char *log, bool keep_going)
{
	pid_t pid = make_start(s, build, dir, log, keep_going);
	int st = child_status(pid);

	SDT_MARK2(stap, stap_system__complete, st, pid);
	return st;
}

/* Remove @dir and everything under it (best effort). */
void remove_tree(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char path[4200];
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (!lstat(path, &st) && S_ISDIR(st.st_mode))
			remove_tree(path);
		else
			unlink(path);
	}
	closedir(d);
	rmdir(dir);
}

/* @text with every @from replaced by @to (in @a). */
char *replace_all(struct arena *a, const char *text, const char *from, const char *to)
{
	struct strbuf sb = STRBUF_INIT;
	size_t fl = strlen(from);
	const char *p;

	while ((p = strstr(text, from))) {
		sb_addn(&sb, text, (size_t)(p - text));
		sb_adds(&sb, to);
		text = p + fl;
	}
	sb_adds(&sb, text);
	return sb_to_arena(&sb, a);
}

/* Start the shell commands @script in the kernel tree @build, their
 * output into @log (or through, with -v -v): the shell's pid, or -1. */
pid_t sh_start(const struct session *s, const char *build, const char *script,
		      const char *log)
{
	pid_t pid;

	SDT_MARK1(stap, stap_system__start, script);
	pid = fork_logged(s, log);
	if (pid == 0) {
		if (chdir(build)) {
			fprintf(stderr, "stap: cannot enter %s: %s\n", build, strerror(errno));
			_exit(127);
		}
		execl("/bin/sh", "sh", "-c", script, (char *)NULL);
		fprintf(stderr, "stap: cannot run /bin/sh: %s\n", strerror(errno));
		_exit(127);
	}
	SDT_MARK2(stap, stap_system__spawn, pid < 0 ? errno : 0, pid);
	return pid;
}

/* The status of a shell from sh_start (see run_make). */
int sh_wait(pid_t pid)
{
	int st = child_status(pid);

	SDT_MARK2(stap, stap_system__complete, st, pid);
	return st;
}

/* Run @script (see sh_start); its status (see run_make). */
int run_sh(const struct session *s, const char *build, const char *script,
		  const char *log)
{
	return sh_wait(sh_start(s, build, script, log));
}

/* Append to the script @sc the @n commands @cmds, run as many at a time
 * as there are CPUs (up to 4), each in its own shell, the next one
 * starting when one ends (xargs -P), from files written into @dir. With
 * @must a failed command fails the script (set -e); without, a failure
 * is ignored (the feature tests). */
int sh_pool(struct strbuf *sc, struct arena *a, const char *dir, const char *tag,
		   const char *const *cmds, int n, bool must)
{
	int i, err = 0, jobs = build_jobs();

	for (i = 0; i < n && !err; i++)
		err = write_file(arena_printf(a, "%s/.%s%03d.sh", dir, tag, i),
				 arena_printf(a, must ? "set -e\n%s\n" : "%s\n", cmds[i]));
	if (err)
		return err;
	sb_addf(sc, "ls %s/.%s[0-9][0-9][0-9].sh | xargs -n 1 -P %d sh%s\n", dir, tag,
		n < jobs ? n : jobs, must ? "" : " || :");
	return 0;
}

/* The compile of @cmd without what follows it (6.1: objtool). */
const char *cc_only(struct arena *a, const char *cmd)
{
	const char *end = strstr(cmd, " ; ");

	return end ? arena_printf(a, "%.*s", (int)(end - cmd), cmd) : cmd;
}
