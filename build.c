// SPDX-License-Identifier: GPL-2.0-or-later
/* build.c: pass 4 (doc/build.md). The generated C (NAME_src.c) and the
 * runtime (runtime.c, in parts) are compiled and linked into NAME.ko
 * against the target kernel's tree: by the commands kbuild runs for a
 * module, recorded once per tree (the recipe) and run by one shell with
 * the kernel's headers precompiled, or (--kbuild, or when the recipe
 * cannot be recorded) by `make -C BUILD M=DIR modules`. The result is
 * kept in the cache under a hash of everything that shapes it: the C text
 * (script, tapsets, -D, -G), the runtime's sources, the kernel tree's
 * release and configuration, -B variables, the way it was built and the
 * translator's version; the recipe, the runtime's archive and the
 * precompiled headers are cached too. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "build.h"
#include "build_parts.h"
#include "session.h"
#include "util/arena.h"
#include "util/cache.h"
#include "util/sdt_marker.h"
#include "util/diag.h"
#include "util/kernel_info.h"
#include "util/strbuf.h"
#include "util/vec.h"
#include "translate/translate.h"

#ifndef RUNTIME_SOURCE_DIR
#define RUNTIME_SOURCE_DIR "/usr/share/systemtap/runtime"
#endif

static const char *runtime_dir(const struct session *s)
{
	const char *env = getenv("SYSTEMTAP_RUNTIME");

	if (s->runtime_dir)
		return s->runtime_dir;
	return env && *env ? env : RUNTIME_SOURCE_DIR;
}

/* The runtime's .c/.h files under @dir (and linux/), in name order. */
static void slurp_runtime(struct strbuf *sb, const char *dir, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0, i;

	if (!d)
		return;
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);

		if (de->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			names = realloc(names, cap * sizeof(*names));
			if (!names)
				abort();
		}
		if (l > 2 && (!strcmp(de->d_name + l - 2, ".c") || !strcmp(de->d_name + l - 2, ".h")))
			names[n++] = strdup(de->d_name);
		else if (depth == 0 && !strcmp(de->d_name, "linux"))
			names[n++] = strdup(de->d_name);
	}
	closedir(d);
	strs_sort(names, n);
	for (i = 0; i < n; i++) {
		char path[4096];

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		sb_addf(sb, "\n@@%s\n", names[i]);
		if (!strcmp(names[i], "linux"))
			slurp_runtime(sb, path, depth + 1);
		else
			sb_read_file(sb, path);
		free(names[i]);
	}
	free(names);
}

/* Write @text to @path: 0 or -errno. */
static int write_file(const char *path, const char *text)
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
static int cache_put(const char *path, const char *text)
{
	struct iovec iov = { (void *)text, strlen(text) };

	return cache_write(path, &iov, 1);
}

/* Copy @from to @to (cache_write: whole or not at all): 0 or -errno. */
static int copy_file(const char *from, const char *to)
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

/* Run make; its output goes to @log (or through, with -v -v). Like every
 * function that runs a program: its exit status (128+N for signal N), or
 * -errno when it could not be started. */
/* -B STAP_MODULE_DWARF=VALUE, VALUE not empty: keep the module's DWARF */
static bool keep_dwarf(const struct session *s)
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
static int child_status(pid_t pid)
{
	int st;

	if (pid < 0 || waitpid(pid, &st, 0) < 0)
		return -errno;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Wait for child @pid until @path exists: true, or false with its status
 * in *@st (as child_status) when it ended first. Gives up waiting for the
 * file after 10 minutes (true). */
static bool child_wait_file(pid_t pid, const char *path, int *st)
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
static int build_jobs(void)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	return (int)(ncpu < 1 ? 1 : ncpu > 4 ? 4 : ncpu);
}

static pid_t make_start(const struct session *s, const char *build, const char *dir,
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

static int run_make(const struct session *s, const char *build, const char *dir,
		    const char *log, bool keep_going)
{
	pid_t pid = make_start(s, build, dir, log, keep_going);
	int st = child_status(pid);

	SDT_MARK2(stap, stap_system__complete, st, pid);
	return st;
}

static void remove_tree(const char *dir)
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

#define AC_SUBJECT "kernel feature tests"

void build_remove_tmp(const char *dir)
{
	if (dir)
		remove_tree(dir);
}

/* The module's objects: the generated file NAME_src.c and the runtime,
 * stap_runtime.c (the -D lines, then #include "runtime.c"), linked into
 * NAME.ko. */
#define RT_OBJ "stap_runtime"

/* The module's kbuild Makefile. The kernel's configuration asks for -g
 * (Debian's has DEBUG_INFO), which would make DWARF most of the file's
 * bytes; nothing reads it, so the module is built with -g0 (and linked
 * with --strip-debug, see run_make) unless -B STAP_MODULE_DWARF=1 asks
 * for it (for debugging the runtime). */
static const char *kbuild_makefile_rt(struct arena *a, const char *name, const char *rt,
				      const char *rtobj)
{
	return arena_printf(a,
		"obj-m := %s.o\n"
		"%s-y := %s_src.o %s.o\n"
		"ccflags-y := -I%s -include $(src)/stap_autoconf.h -Werror -Wno-declaration-after-statement\n"
		"ifeq ($(STAP_MODULE_DWARF),)\n"
		"ccflags-y += -g0\n"
		"endif\n",
		name, name, name, rtobj, rt);
}

static const char *kbuild_makefile(struct arena *a, const char *name, const char *rt)
{
	return kbuild_makefile_rt(a, name, rt, RT_OBJ);
}

/* --kbuild, or STAP_KBUILD set to something other than 0 */
static bool use_kbuild(const struct session *s)
{
	const char *env = getenv("STAP_KBUILD");

	return s->kbuild || (env && *env && strcmp(env, "0"));
}

/*
 * The direct build. Once per kernel tree (and Makefile, -B variables),
 * kbuild builds a small module of the same shape as ours (two objects,
 * the same ccflags) in a scratch directory, and the commands it ran are
 * read back from its .cmd files: the recipe. Every later module is built
 * by running those commands with the scratch directory and module name
 * replaced by the module's, without make (doc/build.md). The runtime
 * object and 6.12's .module-common.o are cached on their own.
 */
#define CAP_NAME "stpcapmod"
#define CAP_RT "stpcaprt"

enum rstep { R_MOD, R_SRC, R_RT, R_LINK, R_ORDER, R_MODPOST, R_MODO, R_COMMON, R_KO, R_NSTEPS };

static const char *const rstep_name[R_NSTEPS] = {
	"mod", "src", "rt", "link", "order", "modpost", "modo", "common", "ko",
};

/* The .cmd file of each step in the scratch directory (@N@: CAP_NAME). */
static const char *const rstep_file[R_NSTEPS] = {
	".@N@.mod.cmd", ".@N@_src.o.cmd", ".@R@.o.cmd", ".@N@.o.cmd",
	".modules.order.cmd", ".Module.symvers.cmd", ".@N@.mod.o.cmd",
	"..module-common.o.cmd", ".@N@.ko.cmd",
};

struct recipe {
	const char *cmd[R_NSTEPS];	/* NULL: not run (R_COMMON before 6.12) */
	const char *hash;
	const char *common_o;		/* the cached .module-common.o, or NULL */
	const char *env;		/* what kbuild exports, as shell exports */
};

/* @text with every @from replaced by @to (in @a). */
static char *replace_all(struct arena *a, const char *text, const char *from, const char *to)
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

/* The command of a kbuild .cmd file's "cmd_T := ..." (or, since 6.5,
 * "savedcmd_T := ...") line, make's escapes undone ($$ is $, $(pound)
 * is #), or NULL. */
static char *cmd_of(struct arena *a, const char *path)
{
	struct strbuf f = STRBUF_INIT, c = STRBUF_INIT;
	const char *line, *p, *end;
	char *r = NULL;

	if (sb_read_file(&f, path))
		goto out;
	for (line = sb_str(&f); line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		if (strncmp(line, "cmd_", 4) && strncmp(line, "savedcmd_", 9))
			continue;
		p = strstr(line, " := ");
		end = strchr(line, '\n');
		if (!p || (end && p > end))
			continue;
		for (p += 4; *p && *p != '\n'; p++) {
			if (p[0] == '$' && p[1] == '$') {
				sb_addc(&c, '$');
				p++;
			} else if (!strncmp(p, "$(pound)", 8)) {
				sb_addc(&c, '#');
				p += 7;
			} else {
				sb_addc(&c, *p);
			}
		}
		r = sb_to_arena(&c, a);
		break;
	}
out:
	sb_release(&f);
	sb_release(&c);
	return r;
}

/* Start the shell commands @script in the kernel tree @build, their
 * output into @log (or through, with -v -v): the shell's pid, or -1. */
static pid_t sh_start(const struct session *s, const char *build, const char *script,
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
static int sh_wait(pid_t pid)
{
	int st = child_status(pid);

	SDT_MARK2(stap, stap_system__complete, st, pid);
	return st;
}

/* Run @script (see sh_start); its status (see run_make). */
static int run_sh(const struct session *s, const char *build, const char *script,
		  const char *log)
{
	return sh_wait(sh_start(s, build, script, log));
}

/*
 * Precompiled headers. The kernel's headers are most of what compiling a
 * small file costs, so pass 4 precompiles them (GCC PCH) with the
 * recipe's own options: once per runtime key, the -D lines and runtime.h
 * (for the generated file and the runtime's parts), and once per recipe,
 * the lines that start kbuild's NAME.mod.c. GCC uses a PCH only when the
 * macros it was made with are defined the same way, so the compiles that
 * use one get the same fixed KBUILD_BASENAME/KBUILD_MODNAME (the
 * module's own name is in NAME.mod.c, where the kernel reads it, and in
 * stp_module.name). A PCH GCC refuses is a warning (-Winvalid-pch) in the
 * build log, and the header is then read as text: slower, same module.
 */
#define PCH_NAME "stap"

/* @cmd with the value of its option @opt (up to the next space) set to
 * @val. */
static char *set_define(struct arena *a, const char *cmd, const char *opt, const char *val)
{
	const char *p = strstr(cmd, opt), *end;

	if (!p)
		return (char *)cmd;
	p += strlen(opt);
	end = p + strcspn(p, " ");
	return arena_printf(a, "%.*s%s%s", (int)(p - cmd), cmd, val, end);
}

static char *fixed_names(struct arena *a, const char *cmd)
{
	cmd = set_define(a, cmd, "-DKBUILD_BASENAME=", "'\"" PCH_NAME "\"'");
	cmd = set_define(a, cmd, "-DKBUILD_MODNAME=", "'\"" PCH_NAME "\"'");
	return set_define(a, cmd, "-D__KBUILD_MODNAME=", "kmod_" PCH_NAME);
}

/* Compile @cmd using the precompiled @hdr: -include it first (before the
 * kernel's own -include files, which it holds; compiler-version.h, the
 * one of them without an include guard, is dropped). NULL when @cmd is
 * not of the expected shape. */
static char *pch_use(struct arena *a, const char *cmd, const char *hdr)
{
	const char *p, *w = cmd + strspn(cmd, " "), *we = w + strcspn(w, " ");
	char *r;

	if (!*w || !strstr(cmd, " -c -o "))
		return NULL;
	r = fixed_names(a, arena_printf(a, "%.*s -include %s -Winvalid-pch -Wno-error=invalid-pch%s",
					(int)(we - cmd), cmd, hdr, we));
	p = strstr(r, "/linux/compiler-version.h ");
	if (p) {
		const char *inc = p;

		while (inc > r && inc[-1] != ' ')
			inc--;
		if (inc - r >= 9 && !strncmp(inc - 9, "-include ", 9))
			r = arena_printf(a, "%.*s%s", (int)(inc - 9 - r), r,
					 p + strlen("/linux/compiler-version.h"));
	}
	return r;
}

/* The command that precompiles @hdr into @gch with the options of the
 * compile @cmd (its output, source and what follows them, objtool, left
 * out). NULL when @cmd is not of the expected shape. */
static char *pch_make(struct arena *a, const char *cmd, const char *hdr, const char *gch)
{
	const char *c = strstr(cmd, " -c -o "), *o, *src, *end;

	if (!c)
		return NULL;
	o = c + strlen(" -c -o ");
	src = o + strcspn(o, " ");
	if (*src)
		src++;
	end = src + strcspn(src, " ");
	if (src == end)
		return NULL;
	return fixed_names(a, arena_printf(a, "%.*s -x c-header -c -o %s %s", (int)(c - cmd), cmd,
					   gch, hdr));
}

/* The recipe as cached: one "STEP<TAB>COMMAND" line per step. */
static bool recipe_parse(struct arena *a, const char *text, struct recipe *r)
{
	const char *line = text;
	int i;

	while (line && *line) {
		const char *tab = strchr(line, '\t'), *nl = strchr(line, '\n');

		if (!tab || !nl || tab > nl)
			return false;
		if (tab - line == 3 && !strncmp(line, "env", 3))
			r->env = arena_printf(a, "%s%.*s\n", r->env ? r->env : "", (int)(nl - tab - 1),
					      tab + 1);
		for (i = 0; i < R_NSTEPS; i++)
			if ((size_t)(tab - line) == strlen(rstep_name[i]) &&
			    !strncmp(line, rstep_name[i], (size_t)(tab - line)))
				r->cmd[i] = arena_printf(a, "%.*s", (int)(nl - tab - 1), tab + 1);
		line = nl + 1;
	}
	for (i = 0; i < R_NSTEPS; i++)
		if (!r->cmd[i] && i != R_COMMON)
			return false;
	return r->env != NULL;
}

/* The variables make exported to kbuild's commands (Debian's objtool
 * wrapper needs SRCARCH, for one), from `env -0` in @path: those not in
 * our own environment with the same value, make's own left out, as
 * "export NAME='VALUE'" lines into @text ("env<TAB>" before each) and
 * r->env. false when there are none. */
static bool recipe_env(struct arena *a, const char *path, struct recipe *r, struct strbuf *text)
{
	struct strbuf env = STRBUF_INIT, sh = STRBUF_INIT;
	const char *p;

	if (sb_read_file(&env, path)) {
		sb_release(&env);
		return false;
	}
	for (p = env.buf; p < env.buf + env.len; p += strlen(p) + 1) {
		const char *eq = strchr(p, '='), *v, *own;
		char *name;

		if (!eq || eq == p || strchr(p, '\n') || strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") != (size_t)(eq - p) ||
		    !strncmp(p, "MAKE", 4) || !strncmp(p, "MFLAGS=", 7))
			continue;
		name = arena_strndup(a, p, (size_t)(eq - p));
		own = getenv(name);
		if (own && !strcmp(own, eq + 1))
			continue;
		sb_addf(text, "env\texport %s='", name);
		sb_addf(&sh, "export %s='", name);
		for (v = eq + 1; *v; v++) {
			sb_adds(text, *v == '\'' ? "'\\''" : arena_strndup(a, v, 1));
			sb_adds(&sh, *v == '\'' ? "'\\''" : arena_strndup(a, v, 1));
		}
		sb_adds(text, "'\n");
		sb_adds(&sh, "'\n");
	}
	r->env = sh.len ? sb_to_arena(&sh, a) : NULL;
	sb_release(&env);
	sb_release(&sh);
	return r->env != NULL;
}

/* The probe module's two files include nothing (their compile commands do
 * not depend on what they hold): kbuild spends its time on its own steps,
 * not on reading kernel headers for them. */
static const char cap_src[] =
	"/* stap: the module kbuild builds once per kernel tree, whose commands pass 4 reuses */\n"
	"static const char stp_cap_license[] __attribute__((used, section(\".modinfo\"), aligned(1)))\n"
	"\t= \"license=GPL\";\n"
	"int stp_cap(void);\nint init_module(void);\nvoid cleanup_module(void);\n"
	"int init_module(void)\n{\n\treturn stp_cap();\n}\n"
	"void cleanup_module(void)\n{\n}\n";
static const char cap_rt[] =
	"int stp_cap(void);\nint stp_cap(void)\n{\n\treturn 0;\n}\n";

/* Step @i's command from kbuild's .cmd file in @tmpl, the names made
 * @D@, @N@ and @R@; NULL with *@why set when there is none (NULL when
 * there is no such file) or it is not one line. */
static const char *capture_cmd(struct arena *a, const char *tmpl, int i, const char **why)
{
	const char *file = replace_all(a, replace_all(a, rstep_file[i], "@N@", CAP_NAME), "@R@",
				       CAP_RT);
	char path[4200], *c;

	snprintf(path, sizeof(path), "%s/%s", tmpl, file);
	c = cmd_of(a, path);
	if (!c) {
		*why = access(path, F_OK) ? NULL : arena_printf(a, "no command in kbuild's %s", file);
		return NULL;
	}
	if (strchr(c, '\n')) {
		*why = arena_printf(a, "a command of more than one line in %s", file);
		return NULL;
	}
	return replace_all(a, replace_all(a, replace_all(a, c, tmpl, "@D@"), CAP_NAME, "@N@"),
			   CAP_RT, "@R@");
}

/* Once kbuild has compiled the probe module's objects, and so the compile
 * command and the environment are known, @e's call with a recipe of those
 * two, while kbuild goes on with modpost and the links (recipe_capture). */
struct recipe_early {
	void (*fn)(struct recipe_early *e, const struct recipe *r);
};

static void capture_early(struct arena *a, const char *tmpl, struct recipe_early *e)
{
	struct strbuf text = STRBUF_INIT;
	struct recipe r;
	const char *why;

	memset(&r, 0, sizeof(r));
	r.cmd[R_SRC] = capture_cmd(a, tmpl, R_SRC, &why);
	if (r.cmd[R_SRC] && recipe_env(a, arena_printf(a, "%s/stap_kbuild.env", tmpl), &r, &text))
		e->fn(e, &r);
	sb_release(&text);
}

/* Run kbuild on the probe module in a scratch directory and read its
 * commands into @r (text in *@text for the cache; 6.12's module-common.o
 * is copied to @common), calling @early (unless NULL) as soon as it
 * can. 0, or -1 with *@why set (the caller falls back to kbuild). */
static int recipe_capture(const struct session *s, struct arena *a, const char *build,
			  const char *rt, struct recipe *r, struct strbuf *text,
			  const char *common, struct recipe_early *early,
			  const char **why)
{
	char tmpl[] = "/tmp/stapcapXXXXXX", path[4200];
	int i, st, err = -1;
	pid_t pid;

	if (!mkdtemp(tmpl)) {
		*why = arena_printf(a, "cannot create a temporary directory: %s", strerror(errno));
		return -1;
	}
	snprintf(path, sizeof(path), "%s/" CAP_NAME "_src.c", tmpl);
	st = write_file(path, cap_src);
	snprintf(path, sizeof(path), "%s/" CAP_RT ".c", tmpl);
	if (!st)
		st = write_file(path, cap_rt);
	snprintf(path, sizeof(path), "%s/stap_autoconf.h", tmpl);
	if (!st)
		st = write_file(path, "");
	snprintf(path, sizeof(path), "%s/Makefile", tmpl);
	if (!st)
		st = write_file(path, arena_printf(a, "%s"
			"$(obj)/" CAP_NAME "_src.o: $(obj)/stap_kbuild.env\n"
			"$(obj)/stap_kbuild.env: FORCE\n\tenv -0 >$@\n",
			kbuild_makefile_rt(a, CAP_NAME, rt, CAP_RT)));
	if (st) {
		*why = arena_printf(a, "cannot write into %s: %s", tmpl, strerror(-st));
		goto out;
	}
	snprintf(path, sizeof(path), "%s/build.log", tmpl);
	if (s->verbose[3])
		fprintf(stderr, "Pass 4: recording the kbuild commands of %s\n", build);
	pid = make_start(s, build, tmpl, path, false);
	/* the generated file's .cmd is complete when kbuild links (fixdep
	 * writes it in more than one go) */
	if (pid > 0 && early &&
	    child_wait_file(pid, arena_printf(a, "%s/." CAP_NAME ".o.cmd", tmpl), &st))
		capture_early(a, tmpl, early);
	else if (pid > 0 && early)
		pid = 0;	/* ended: st is its status */
	if (pid)
		st = child_status(pid);
	SDT_MARK2(stap, stap_system__complete, st, pid);
	if (st) {
		*why = st < 0 ? arena_printf(a, "cannot run make: %s", strerror(-st))
			      : arena_printf(a, "kbuild failed on the probe module (exit status %d)", st);
		goto out;
	}
	for (i = 0; i < R_NSTEPS; i++) {
		*why = NULL;
		r->cmd[i] = capture_cmd(a, tmpl, i, why);
		if (!r->cmd[i] && i == R_COMMON && !*why)
			continue;	/* before 6.12 */
		if (!r->cmd[i]) {
			if (!*why)
				*why = arena_printf(a, "kbuild wrote no %s", rstep_file[i]);
			goto out;
		}
		sb_addf(text, "%s\t%s\n", rstep_name[i], r->cmd[i]);
	}
	snprintf(path, sizeof(path), "%s/stap_kbuild.env", tmpl);
	if (!recipe_env(a, path, r, text)) {
		*why = "no environment recorded from kbuild";
		goto out;
	}
	if (r->cmd[R_COMMON]) {
		snprintf(path, sizeof(path), "%s/.module-common.o", tmpl);
		if (!s->no_cache && !copy_file(path, common))
			r->common_o = common;
	}
	err = 0;
out:
	if (s->keep_tmp)
		fprintf(stderr, "Keeping temporary directory \"%s\"\n", tmpl);
	else
		remove_tree(tmpl);
	return err;
}

/* The size and time of a file of the kernel tree, for a cache key. */
static void stat_key(struct strbuf *key, const char *build, const char *file)
{
	char path[4200];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", build, file);
	if (stat(path, &st))
		sb_addf(key, "\n@@%s none", file);
	else
		sb_addf(key, "\n@@%s %lld %lld", file, (long long)st.st_size,
			(long long)st.st_mtime);
}

/* The recipe for @build, from the cache or recorded now (@early: see
 * recipe_capture). 0, or -1 with *@why set. */
static int recipe_get(const struct session *s, struct arena *a, const char *build,
		      const char *rt, const char *tree_key, struct recipe *r,
		      struct recipe_early *early, const char **why)
{
	static const char *const files[] = {
		"Makefile", "scripts/Makefile.build", "scripts/Makefile.modpost",
		"scripts/Makefile.modfinal", "scripts/Makefile.lib", "scripts/mod/modpost",
		"tools/objtool/objtool",
	};
	struct strbuf key = STRBUF_INIT, text = STRBUF_INIT;
	const char *dir = arena_printf(a, "%s/recipe", cache_dir(a)), *cached, *common;
	char hash[33];
	size_t k;
	int i, err = 0;

	memset(r, 0, sizeof(*r));
	sb_adds(&key, tree_key);
	for (k = 0; k < sizeof(files) / sizeof(files[0]); k++)
		stat_key(&key, build, files[k]);
	for (i = 0; i < s->kbuild_vars.n; i++)
		sb_addf(&key, "\n@@B %s", s->kbuild_vars.v[i]);
	sb_addf(&key, "\n@@M %s%s", kbuild_makefile_rt(a, CAP_NAME, rt, CAP_RT),
		keep_dwarf(s) ? "" : "LDFLAGS_MODULE=--strip-debug\n");
	hash_hex(key.buf, key.len, STAP_VERSION "recipe", hash);
	r->hash = arena_printf(a, "%s", hash);
	cached = arena_printf(a, "%s/%s.txt", dir, hash);
	common = arena_printf(a, "%s/%s.common.o", dir, hash);
	if (!s->no_cache && sb_read_file(&text, cached) == 0 && recipe_parse(a, sb_str(&text), r)) {
		if (r->cmd[R_COMMON] && access(common, R_OK) == 0)
			r->common_o = common;
		goto out;
	}
	memset(r, 0, sizeof(*r));
	r->hash = arena_printf(a, "%s", hash);
	sb_reset(&text);
	if (!s->no_cache)
		mkdir_p(dir);
	if (recipe_capture(s, a, build, rt, r, &text, common, early, why)) {
		err = -1;
		goto out;
	}
	if (!s->no_cache)
		cache_put(cached, sb_str(&text));	/* best effort */
out:
	sb_release(&key);
	sb_release(&text);
	return err;
}

/* Append to the script @sc the @n commands @cmds, run as many at a time
 * as there are CPUs (up to 4), each in its own shell, the next one
 * starting when one ends (xargs -P), from files written into @dir. With
 * @must a failed command fails the script (set -e); without, a failure
 * is ignored (the feature tests). */
static int sh_pool(struct strbuf *sc, struct arena *a, const char *dir, const char *tag,
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
static const char *cc_only(struct arena *a, const char *cmd)
{
	const char *end = strstr(cmd, " ; ");

	return end ? arena_printf(a, "%.*s", (int)(end - cmd), cmd) : cmd;
}

/*
 * NAME.mod.c (modpost's: the module's name, vermagic, __versions) compiled
 * like the generated file, by its command @src (the runtime's precompiled
 * header first), not kbuild's own for it: the same kernel options, with
 * the module's flags besides (-g0, -Werror, the runtime's -I), and the
 * kernel's headers read from the runtime's precompiled header, so that a
 * build makes one precompiled header, not two. testsuite/unit/build-direct
 * checks that the kernel reads the same module from it (.gnu.linkonce.this_module,
 * modinfo, __versions) as from kbuild's. NULL when @src is not of the
 * expected shape.
 */
static const char *mod_compile(struct arena *a, const char *src, const char *name)
{
	const char *from = arena_printf(a, "%s_src.", name), *to = arena_printf(a, "%s.mod.", name);

	if (!strstr(src, arena_printf(a, "%so ", from)) || !strstr(src, arena_printf(a, "%sc", from)))
		return NULL;
	return replace_all(a, cc_only(a, src), from, to);
}

/* Build module @name in @dir (the sources written, NAME.mod listing the
 * generated object and the runtime archive) by the recipe's commands, run
 * by one shell in the kernel tree @build. Of the @nparts runtime parts,
 * those in @compile are compiled beside the generated file, build_jobs()
 * at a time (the others' objects are in @dir already, from the cache), and
 * those in @link put into the archive. With @pch (the runtime's
 * precompiled header), the generated file, the parts and NAME.mod.c use
 * it (mod_compile). The status of the shell (see run_make). */
static int direct_build(const struct session *s, struct arena *a, const char *build,
			const struct recipe *r, const char *dir, const char *name,
			const char **parts, int nparts, uint64_t compile, uint64_t link,
			const char *pch, const char *log)
{
	struct strbuf sc = STRBUF_INIT;
	const char *c[R_NSTEPS], *ld, *sp, *src, *rtc, *modo, **cmds;
	int st, i, ncmds = 1;

	for (i = 0; i < R_NSTEPS; i++)
		c[i] = r->cmd[i] ? replace_all(a, replace_all(a, r->cmd[i], "@D@", dir), "@N@", name)
				 : NULL;
	src = c[R_SRC];
	rtc = c[R_RT];
	sb_addf(&sc, "set -e\n%s", r->env);
	if (pch) {
		src = pch_use(a, src, pch) ?: src;
		rtc = pch_use(a, rtc, pch) ?: rtc;
	}
	/* the generated file, and the parts to compile */
	cmds = arena_alloc(a, (size_t)(nparts + 1) * sizeof(*cmds));
	cmds[0] = src;
	for (i = 0; i < nparts; i++)
		if (compile & ((uint64_t)1 << i))
			cmds[ncmds++] = replace_all(a, rtc, "@R@",
						    arena_printf(a, RT_OBJ "_%s", parts[i]));
	if (sh_pool(&sc, a, dir, "cc", cmds, ncmds, true)) {
		sb_release(&sc);
		return -EIO;
	}
	if (link) {
		/* binutils' ar beside the recipe's ld (x86_64-linux-gnu-ld) */
		ld = c[R_KO] + strspn(c[R_KO], " ");
		sp = strchr(ld, ' ');
		if (sp && sp - ld >= 2 && !strncmp(sp - 2, "ld", 2))
			sb_addf(&sc, "%.*sar", (int)(sp - ld - 2), ld);
		else
			sb_adds(&sc, "ar");
		sb_addf(&sc, " rcsD %s/" RT_OBJ ".a", dir);
		for (i = 0; i < nparts; i++)
			if (link & ((uint64_t)1 << i))
				sb_addf(&sc, " %s/" RT_OBJ "_%s.o", dir, parts[i]);
		sb_adds(&sc, "\n");
	}
	/* modpost (6.1) reads the CRCs of what an object exports (none
	 * here) from the #SYMVER lines of its .cmd file */
	sb_addf(&sc, ": >%s/.%s_src.o.cmd\n: >%s/." RT_OBJ ".a.cmd\n", dir, name, dir);
	sb_addf(&sc, "%s\n%s\n%s\n", c[R_LINK], c[R_ORDER], c[R_MODPOST]);
	modo = pch ? mod_compile(a, src, name) : NULL;
	if (modo)	/* the name where the kernel reads it, the -D fixed */
		sb_addf(&sc, "sed -i 's/\\<KBUILD_MODNAME\\>/\"%s\"/g' %s/%s.mod.c\n%s\n", name, dir,
			name, modo);
	else
		sb_addf(&sc, "%s\n", c[R_MODO]);
	if (c[R_COMMON] && !r->common_o)
		sb_addf(&sc, "%s\n", c[R_COMMON]);
	sb_addf(&sc, "%s\n", c[R_KO]);
	if (s->verbose[3] >= 3)
		fprintf(stderr, "Pass 4: in %s:\n%s", build, sb_str(&sc));
	st = run_sh(s, build, sb_str(&sc), log);
	sb_release(&sc);
	return st;
}

/*
 * The runtime's precompiled header: the -D lines and runtime.h, with the
 * options of the recipe's compile. Nothing in runtime.h tests a feature
 * (stap_autoconf.h is read after it), so it is made with an empty
 * feature header and keyed without the features: a first build makes it
 * while the feature tests run.
 */
struct rt_pch {
	const char *hdr;	/* the header; its .gch beside it */
	char scratch[32];	/* the compile's directory ("" when none) */
	pid_t pid;		/* the compile, while it runs; 0 when none */
};

static void rt_pch_start(const struct session *s, struct arena *a, const char *build,
			 const struct recipe *r, const char *rtbase, const char *rtdefs,
			 struct rt_pch *p)
{
	struct strbuf key = STRBUF_INIT;
	const char *dir, *mk;
	char hash[33], path[4200];

	if (p->hdr || p->scratch[0])
		return;		/* made, or tried */
	strcpy(p->scratch, "/tmp/stappchXXXXXX");
	if (!mkdtemp(p->scratch)) {
		p->scratch[0] = 0;
		return;
	}
	sb_addf(&key, "%s\n@@src %s", rtbase, r->cmd[R_SRC]);
	hash_hex(key.buf, key.len, STAP_VERSION "runtime pch", hash);
	sb_release(&key);
	dir = s->no_cache ? p->scratch : arena_printf(a, "%s/runtime/%s.pch", cache_dir(a), hash);
	p->hdr = arena_printf(a, "%s/stap_pch.h", dir);
	if (access(arena_printf(a, "%s.gch", p->hdr), R_OK) == 0)
		return;
	snprintf(path, sizeof(path), "%s/stap_autoconf.h", p->scratch);
	mk = pch_make(a, replace_all(a, replace_all(a, r->cmd[R_SRC], "@D@", p->scratch), "@N@",
				     PCH_NAME),
		      p->hdr, arena_printf(a, "%s.gch.$$", p->hdr));
	if (!mk || write_file(path, "") || (!s->no_cache && mkdir_p(dir)) ||
	    cache_put(p->hdr, arena_printf(a, "%s#include \"runtime.h\"\n", rtdefs))) {
		p->hdr = NULL;
		return;
	}
	snprintf(path, sizeof(path), "%s/pch.log", p->scratch);
	p->pid = sh_start(s, build, arena_printf(a, "set -e\n%s%s\nmv -f %s.gch.$$ %s.gch\n", r->env,
						 mk, p->hdr, p->hdr), path);
	if (p->pid < 0) {
		p->pid = 0;
		p->hdr = NULL;
	}
}

/* rt_pch_start as soon as the compile command is recorded (recipe_early). */
struct pch_early {
	struct recipe_early e;	/* first: the callback's argument */
	const struct session *s;
	struct arena *a;
	const char *build, *rtbase, *rtdefs;
	struct rt_pch *job;
};

static void pch_early_fn(struct recipe_early *e, const struct recipe *r)
{
	struct pch_early *p = (struct pch_early *)e;

	rt_pch_start(p->s, p->a, p->build, r, p->rtbase, p->rtdefs, p->job);
}

/* The header, once its .gch is made, or NULL (the runtime is then
 * compiled without it: slower, the same module). */
static const char *rt_pch_finish(struct arena *a, struct rt_pch *p)
{
	if (p->pid > 0)
		sh_wait(p->pid);
	p->pid = 0;
	if (p->hdr && access(arena_printf(a, "%s.gch", p->hdr), R_OK))
		p->hdr = NULL;
	return p->hdr;
}

/* Remove its directory (after the build that used it). */
static void rt_pch_release(struct arena *a, struct rt_pch *p)
{
	rt_pch_finish(a, p);
	if (p->scratch[0])
		remove_tree(p->scratch);
	p->scratch[0] = 0;
}

/* The kernel feature tests (runtime/linux/autoconf/NAME.c): compiled once
 * per kernel tree (and set of tests); the header defines STAPCONF_NAME
 * for each that compiled. Cached. ac_start reads the cache or writes the
 * tests; they run by the recorded compile command, all in one file
 * (ac_direct), or by make, each to its own object (ac_make); ac_finish
 * makes the header. */
struct autoconf {
	const char *hdr;	/* the header: from the cache, or made */
	const char *cached;	/* where it is cached */
	char tmpl[32];		/* the scratch directory ("" when none) */
	char **tests;
	size_t n;
	pid_t pid;		/* make or the shell, while it runs; 0 when none */
	const char *build;
	const char *obj;	/* a test's object: "" or "_src" after its name */
	const char *all_sh;	/* ac_direct: the script compiling them together */
	const char *each_sh;	/* ac_direct: the script compiling each alone */
};

static int ac_start(const struct session *s, struct diag *d, struct arena *a, const char *rt,
		    const char *build, const char *tree_key, struct autoconf *ac)
{
	struct strbuf key = STRBUF_INIT, hdr = STRBUF_INIT, names = STRBUF_INIT;
	const char *dir = arena_printf(a, "%s/linux/autoconf", rt);
	char hash[33], path[4200];
	struct dirent *de;
	DIR *dh;
	size_t i;
	int err = 0;

	memset(ac, 0, sizeof(*ac));
	ac->build = build;
	ac->obj = "";
	dh = opendir(dir);
	if (!dh) {
		ac->hdr = arena_printf(a, "/* no feature tests in %s */\n", dir);
		return 0;
	}
	while ((de = readdir(dh))) {
		size_t l = strlen(de->d_name);

		if (l > 2 && !strcmp(de->d_name + l - 2, ".c")) {
			ac->tests = realloc(ac->tests, (ac->n + 1) * sizeof(*ac->tests));
			if (!ac->tests)
				abort();
			ac->tests[ac->n++] = strndup(de->d_name, l - 2);
		}
	}
	closedir(dh);
	strs_sort(ac->tests, ac->n);
	sb_adds(&key, tree_key);
	for (i = 0; i < ac->n; i++) {
		snprintf(path, sizeof(path), "%s/%s.c", dir, ac->tests[i]);
		sb_addf(&key, "\n@@%s\n", ac->tests[i]);
		sb_read_file(&key, path);
	}
	hash_hex(key.buf, key.len, "autoconf", hash);
	ac->cached = arena_printf(a, "%s/autoconf/%s.h", cache_dir(a), hash);
	if (!s->no_cache && sb_read_file(&hdr, ac->cached) == 0) {
		ac->hdr = sb_to_arena(&hdr, a);
		goto out;
	}
	strcpy(ac->tmpl, "/tmp/stapconfXXXXXX");
	if (!mkdtemp(ac->tmpl)) {
		ac->tmpl[0] = 0;
		err = diag_fail(d, -errno, AC_SUBJECT, "cannot create a temporary directory: %s",
				strerror(errno));
		goto out;
	}
	for (i = 0; i < ac->n && !err; i++) {
		struct strbuf src = STRBUF_INIT;

		snprintf(path, sizeof(path), "%s/%s.c", dir, ac->tests[i]);
		err = sb_read_file(&src, path);
		snprintf(path, sizeof(path), "%s/ac_%s.c", ac->tmpl, ac->tests[i]);
		if (!err)
			err = write_file(path, sb_str(&src));
		sb_release(&src);
		sb_addf(&names, " ac_%s.o", ac->tests[i]);
	}
	snprintf(path, sizeof(path), "%s/Makefile", ac->tmpl);
	if (!err)
		err = write_file(path, arena_printf(a, "obj-m :=%s\nccflags-y := -Werror\n",
						    sb_str(&names)));
	if (err) {
		diag_fail(d, err, AC_SUBJECT, "cannot write into %s: %s", ac->tmpl, strerror(-err));
		goto out;
	}
out:
	sb_release(&key);
	sb_release(&hdr);
	sb_release(&names);
	return err;
}

/* Run the feature tests written by ac_start with kbuild, in the
 * background (ac_finish waits). */
static int ac_make(const struct session *s, struct diag *d, const char *build,
		   struct autoconf *ac)
{
	char path[4200];

	if (ac->hdr || ac->pid || !ac->tmpl[0])
		return 0;
	snprintf(path, sizeof(path), "%s/build.log", ac->tmpl);
	if (s->verbose[3])
		fprintf(stderr, "Pass 4: checking kernel features (%zu tests)\n", ac->n);
	/* make -k: a test that does not compile is a feature the kernel
	 * lacks (make exits 2) */
	ac->pid = make_start(s, build, ac->tmpl, path, true);
	if (ac->pid < 0) {
		ac->pid = 0;
		return diag_fail(d, -errno, AC_SUBJECT, "cannot run make: %s", strerror(errno));
	}
	return 0;
}

/* Write the tests @in[] marks into one file, ac_all_src.c, each after a
 * #line naming it and with its names renamed from stp_ac_ to stp_acN_ (N:
 * its index), so that gcc's messages tell whose they are. 0 or -errno. */
static int ac_write_all(struct arena *a, const struct autoconf *ac, const bool *in)
{
	struct strbuf all = STRBUF_INIT, src = STRBUF_INIT;
	char path[4200];
	size_t i;
	int err = 0;

	sb_adds(&all, "/* stap: the kernel feature tests, compiled together */\n");
	for (i = 0; i < ac->n && !err; i++) {
		if (!in[i])
			continue;
		snprintf(path, sizeof(path), "%s/ac_%s.c", ac->tmpl, ac->tests[i]);
		sb_reset(&src);
		err = sb_read_file(&src, path);
		sb_addf(&all, "#line 1 \"%s.c\"\n%s\n", ac->tests[i],
			replace_all(a, sb_str(&src), "stp_ac_", arena_printf(a, "stp_ac%zu_", i)));
	}
	snprintf(path, sizeof(path), "%s/ac_all_src.c", ac->tmpl);
	if (!err)
		err = write_file(path, sb_str(&all));
	sb_release(&all);
	sb_release(&src);
	return err;
}

/* Which test a line of gcc's output, @line, is about: its file's name at
 * the start, else the function @cur the messages are in; -1 when
 * neither. */
static int ac_whose(const struct autoconf *ac, const char *line, int cur)
{
	size_t i, l;

	for (i = 0; i < ac->n; i++) {
		l = strlen(ac->tests[i]);
		if (!strncmp(line, ac->tests[i], l) && !strncmp(line + l, ".c:", 3))
			return (int)i;
	}
	return cur >= 0 && (size_t)cur < ac->n ? cur : -1;
}

/*
 * The results of the tests compiled together (ac_direct), the compile's
 * status @st: into @pass. A test failed when gcc reports an error in its
 * file or in one of its functions; the others passed. After a fatal error
 * (gcc stops), the failed tests are left out and the rest compiled
 * together again. 0, or -1 when an error is not placed (or the compile
 * could not run): each test is then compiled alone.
 */
static int ac_together(const struct session *s, struct arena *a, struct autoconf *ac, int st,
		       bool *pass)
{
	struct strbuf log = STRBUF_INIT;
	bool *in = arena_alloc(a, ac->n + 1), fatal, unplaced;
	char path[4200];
	size_t round, nfailed;
	int ret = -1;

	memset(in, 1, ac->n + 1);
	snprintf(path, sizeof(path), "%s/all.log", ac->tmpl);
	for (round = 0; round <= ac->n; round++) {
		const char *line;
		int cur = -1;

		if (st == 0) {
			memcpy(pass, in, ac->n);
			ret = 0;
			break;
		}
		sb_reset(&log);
		if (st < 0 || st >= 127 || sb_read_file(&log, path))
			break;
		if (s->verbose[3] >= 2)
			fputs(sb_str(&log), stderr);
		fatal = unplaced = false;
		nfailed = 0;
		for (line = sb_str(&log); *line; line += strcspn(line, "\n"), line += *line == '\n') {
			size_t len = strcspn(line, "\n");
			const char *l = arena_strndup(a, line, len), *fn = strstr(l, "In function ");
			const char *err;
			int t;

			if (fn) {
				fn += 12;
				fn += strcspn(fn, "s\n");	/* past the quote */
				cur = !strncmp(fn, "stp_ac", 6) ? atoi(fn + 6) : -1;
				continue;
			}
			if (strstr(l, ": At top level:")) {
				cur = -1;
				continue;
			}
			err = strstr(l, ": error: ");
			if (!err && (err = strstr(l, ": fatal error: ")))
				fatal = true;
			if (!err)
				continue;
			t = ac_whose(ac, l, cur);
			if (t < 0) {
				unplaced = true;
				break;
			}
			if (in[t]) {
				in[t] = false;
				nfailed++;
			}
		}
		if (unplaced || !nfailed)
			break;
		if (!fatal) {
			memcpy(pass, in, ac->n);
			ret = 0;
			break;
		}
		/* the tests after the fatal error did not run */
		if (ac_write_all(a, ac, in))
			break;
		st = run_sh(s, ac->build, ac->all_sh, path);
	}
	sb_release(&log);
	return ret;
}

/* Wait for the feature tests and make the header (*@out, NULL on an
 * error). Only a make that could not be run (or exec'd: 127) or was
 * killed is an error; then nothing is cached. */
static int ac_finish(const struct session *s, struct diag *d, struct arena *a,
		     struct autoconf *ac, const char **out)
{
	struct strbuf hdr = STRBUF_INIT;
	char path[4200];
	bool *pass, objs;
	size_t i;
	int err = 0, st;

	if (ac->hdr || !ac->pid)
		goto out;
	st = child_status(ac->pid);
	SDT_MARK2(stap, stap_system__complete, st, ac->pid);
	ac->pid = 0;
	pass = arena_alloc(a, ac->n + 1);
	memset(pass, 0, ac->n + 1);
	objs = !ac->all_sh;	/* make's: each test's object tells */
	if (ac->all_sh && (st < 0 || st >= 127 || ac_together(s, a, ac, st, pass))) {
		if (s->verbose[3])
			fprintf(stderr, "Pass 4: checking kernel features one by one\n");
		snprintf(path, sizeof(path), "%s/each.log", ac->tmpl);
		st = run_sh(s, ac->build, ac->each_sh, path);
		objs = true;
	}
	if (st < 0) {
		err = diag_fail(d, st, AC_SUBJECT, "cannot run %s: %s", ac->all_sh ? "/bin/sh" : "make",
				strerror(-st));
		goto out;
	}
	if (st >= 127) {
		err = diag_fail(d, -EIO, AC_SUBJECT, "%s failed (exit status %d)",
				ac->all_sh ? "the compile" : "make", st);
		goto out;
	}
	if (objs) {
		for (i = 0; i < ac->n; i++) {
			snprintf(path, sizeof(path), "%s/ac_%s%s.o", ac->tmpl, ac->tests[i], ac->obj);
			pass[i] = access(path, F_OK) == 0;
		}
	}
	sb_addf(&hdr, "/* Kernel features of %s (runtime/linux/autoconf) */\n", ac->build);
	for (i = 0; i < ac->n; i++) {
		char *p;

		if (!pass[i])
			continue;
		sb_adds(&hdr, "#define STAPCONF_");
		for (p = ac->tests[i]; *p; p++)
			sb_addc(&hdr, (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p));
		sb_adds(&hdr, " 1\n");
	}
	/* the cache is best effort: a run without it only takes longer */
	if (!s->no_cache && !mkdir_p(arena_printf(a, "%s/autoconf", cache_dir(a))))
		cache_put(ac->cached, sb_str(&hdr));
	ac->hdr = sb_to_arena(&hdr, a);
out:
	if (ac->pid > 0)
		child_status(ac->pid);	/* an error elsewhere: reap it */
	ac->pid = 0;
	if (ac->tmpl[0])
		remove_tree(ac->tmpl);
	ac->tmpl[0] = 0;
	for (i = 0; i < ac->n; i++)
		free(ac->tests[i]);
	free(ac->tests);
	ac->tests = NULL;
	ac->n = 0;
	*out = err ? NULL : ac->hdr;
	sb_release(&hdr);
	return err;
}

/*
 * The feature tests of a first build for a tree, once the recipe is
 * recorded: compiled together in one file (ac_write_all) by the recipe's
 * command (the compile, not objtool) with the runtime's precompiled
 * header @pch, so that the kernel's headers are read once, without make,
 * in the background (ac_finish waits and reads gcc's messages: ac_together).
 * A test compiles in the context of the runtime's headers, as the runtime
 * itself does. When the messages cannot be placed, each test is compiled
 * alone, as many at once as there are CPUs. Nonzero when they could not
 * be started (the caller runs them with make).
 */
static int ac_direct(const struct session *s, struct arena *a, const char *build,
		     const struct recipe *r, const char *pch, struct autoconf *ac)
{
	struct strbuf sc = STRBUF_INIT, src = STRBUF_INIT;
	const char **cmds, *all;
	char path[4200];
	bool *in;
	size_t i;
	int err = 0;

	if (ac->hdr || ac->pid || !ac->tmpl[0] || !ac->n)
		return -1;
	cmds = arena_alloc(a, (ac->n + 1) * sizeof(*cmds));
	for (i = 0; i <= ac->n && !err; i++) {
		const char *name = i < ac->n ? arena_printf(a, "ac_%s", ac->tests[i]) : "ac_all";
		const char *c;

		if (i < ac->n) {
			snprintf(path, sizeof(path), "%s/%s.c", ac->tmpl, name);
			sb_reset(&src);
			err = sb_read_file(&src, path);
			snprintf(path, sizeof(path), "%s/%s_src.c", ac->tmpl, name);
			if (!err)
				err = write_file(path, sb_str(&src));
		}
		c = cc_only(a, replace_all(a, replace_all(a, r->cmd[R_SRC], "@D@", ac->tmpl), "@N@",
					   name));
		cmds[i] = pch ? pch_use(a, c, pch) ?: c : c;
	}
	all = cmds[ac->n];
	in = arena_alloc(a, ac->n);
	memset(in, 1, ac->n);
	snprintf(path, sizeof(path), "%s/stap_autoconf.h", ac->tmpl);
	if (!err)
		err = write_file(path, "") ?: ac_write_all(a, ac, in);
	if (!err) {
		sb_adds(&sc, r->env);
		err = sh_pool(&sc, a, ac->tmpl, "ac", cmds, (int)ac->n, false);
	}
	if (!err) {
		ac->each_sh = arena_printf(a, "%s", sb_str(&sc));
		ac->all_sh = arena_printf(a, "%s%s >%s/all.log 2>&1\n", r->env, all, ac->tmpl);
		if (s->verbose[3])
			fprintf(stderr, "Pass 4: checking kernel features (%zu tests, with the recorded commands)\n",
				ac->n);
		snprintf(path, sizeof(path), "%s/build.log", ac->tmpl);
		ac->pid = sh_start(s, build, ac->all_sh, path);
		if (ac->pid < 0)
			ac->pid = 0;
		else
			ac->obj = "_src";
	}
	if (!ac->pid)
		ac->all_sh = ac->each_sh = NULL;
	sb_release(&sc);
	sb_release(&src);
	return ac->pid ? 0 : -1;
}

/*
 * The runtime's parts for a module built the direct way: those it links
 * (build_parts.c: the parts it calls, or all of them), each compiled the
 * first time a module of the tree (with these features, -D limits and
 * recipe) calls it and cached as @rtdir/PART.o.
 */
struct rt_objs {
	const char **parts;
	int n;
	uint64_t all, link;	/* masks over parts[] */
	uint64_t compile;	/* of link: to compile (the others are
				 * linked into the build's directory from
				 * the cache, or compiled before a retry) */
	uint64_t made;		/* compiled by this build, to cache */
};

/* Fill @o for the generated file @c_text (NULL: every part), the objects
 * of the cached parts linked into @dir, the sources of the others written
 * there. 0 or -errno. */
static int rt_objs_get(const struct session *s, struct arena *a, const char *rt,
		       const char *c_text, const char *rtdir, const char *dir,
		       const char *rtdefs, struct rt_objs *o)
{
	char path[4200];
	uint64_t bit;
	int i, err = 0;

	o->n = rt_parts(a, rt, c_text, &o->parts, &o->link);
	o->all = o->n >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << o->n) - 1;
	o->compile = 0;
	for (i = 0; i < o->n && !err; i++) {
		bit = (uint64_t)1 << i;
		if (!(o->link & bit))
			continue;
		snprintf(path, sizeof(path), "%s/" RT_OBJ "_%s.o", dir, o->parts[i]);
		if (access(path, R_OK) == 0)
			continue;	/* compiled or linked before a retry */
		if (!s->no_cache && !symlink(arena_printf(a, "%s/%s.o", rtdir, o->parts[i]), path)) {
			if (access(path, R_OK) == 0)
				continue;
			unlink(path);	/* not in the cache */
		}
		o->compile |= bit;
		o->made |= bit;
		snprintf(path, sizeof(path), "%s/" RT_OBJ "_%s.c", dir, o->parts[i]);
		err = write_file(path, arena_printf(a, "%s#define STP_PART_ONE 1\n#define STP_PART_%s 1\n#include \"runtime.c\"\n",
						    rtdefs, o->parts[i]));
	}
	return err;
}

/* Put the parts this build compiled into the cache (best effort). */
static void rt_objs_put(struct arena *a, const struct rt_objs *o, const char *dir,
			const char *rtdir)
{
	int i;

	if (mkdir_p(rtdir))
		return;
	for (i = 0; i < o->n; i++)
		if (o->made & ((uint64_t)1 << i))
			copy_file(arena_printf(a, "%s/" RT_OBJ "_%s.o", dir, o->parts[i]),
				  arena_printf(a, "%s/%s.o", rtdir, o->parts[i]));
}

/* For -v: "core printf (compiling core printf)". */
static const char *rt_objs_say(struct arena *a, const struct rt_objs *o)
{
	struct strbuf sb = STRBUF_INIT;
	int i, k;

	for (k = 0; k < 2; k++) {
		uint64_t m = k ? o->compile : o->link;

		if (k && !m)
			break;
		sb_adds(&sb, k ? " (compiling" : "");
		for (i = 0; i < o->n; i++)
			if (m & ((uint64_t)1 << i))
				sb_addf(&sb, "%s%s", sb.len && sb.buf[sb.len - 1] != '(' ? " " : "",
					o->parts[i]);
		sb_adds(&sb, k ? ")" : "");
	}
	if (!o->compile)
		sb_adds(&sb, " (from the cache)");
	return sb_to_arena(&sb, a);
}

int build_module(const struct session *s, struct diag *d,
		 const struct kernel_info *ki, struct arena *a,
		 const char *c_text, const char *name, const char **ko,
		 const char **tmp)
{
	struct strbuf key = STRBUF_INIT, log = STRBUF_INIT, rtsrc = STRBUF_INIT;
	struct strbuf rtkey = STRBUF_INIT, rtdefs = STRBUF_INIT, rtbase = STRBUF_INIT;
	const char *pch = NULL;
	bool to_cache, recorded = false;
	struct autoconf ac;
	struct rt_pch pchjob = { NULL, "", 0 };
	const char *rt = runtime_dir(s), *build = ki->build_dir, *cdir, *cached;
	const char *rel = ki->release ? ki->release : "RELEASE";
	const char *rt_cached = NULL, *why = NULL;
	char hash[33], rthash[33], tmpl[] = "/tmp/stapXXXXXX", path[4200];
	const char *features, *tree_key;
	bool made = false, keep = s->keep_tmp, direct = false;
	struct rt_objs objs = { NULL, 0, 0, 0, 0, 0 };
	struct recipe recipe;
	struct stat st;
	int i, err;

	*ko = *tmp = NULL;
	if (!build || stat(build, &st) || !S_ISDIR(st.st_mode)) {
		err = diag_fail(d, -ENOENT, NULL, "kernel build tree %s not found; install linux-headers-%s (Debian: apt-get install linux-headers-%s) or give -r /path/to/build",
				build ? build : "(none)", rel, rel);
		goto out;
	}
	sb_addf(&key, "@@kernel %s %s\n", ki->release ? ki->release : "", build);
	snprintf(path, sizeof(path), "%s/.config", build);
	sb_read_file(&key, path);
	snprintf(path, sizeof(path), "%s/include/generated/utsrelease.h", build);
	sb_read_file(&key, path);
	tree_key = arena_printf(a, "%s", sb_str(&key));
	err = ac_start(s, d, a, rt, build, tree_key, &ac);
	if (err) {
		ac_finish(s, d, a, &ac, &features);	/* its directory */
		goto out;
	}
	/* the runtime's own translation unit: the -D lines, then runtime.c */
	sb_adds(&rtdefs, "/* Generated by stap: the runtime of the module */\n");
	translate_defines(s, &rtdefs);
	sb_addf(&rtsrc, "%s#include \"runtime.c\"\n", sb_str(&rtdefs));
	sb_adds(&rtbase, sb_str(&rtsrc));
	slurp_runtime(&rtbase, rt, 0);
	/* A first build for this tree: kbuild records the recipe, then the
	 * two headers are precompiled side by side, and the feature tests
	 * are compiled with the runtime's. */
	if (!ac.hdr && !use_kbuild(s)) {
		struct pch_early early = { { pch_early_fn }, s, a, build, sb_str(&rtbase),
					   sb_str(&rtdefs), &pchjob };

		recorded = true;
		direct = recipe_get(s, a, build, rt, tree_key, &recipe, &early.e, &why) == 0;
		if (direct) {
			rt_pch_start(s, a, build, &recipe, sb_str(&rtbase), sb_str(&rtdefs), &pchjob);
			ac_direct(s, a, build, &recipe, rt_pch_finish(a, &pchjob), &ac);
		}
	}
	err = ac_make(s, d, build, &ac);
	err = ac_finish(s, d, a, &ac, &features) ?: err;
	if (err)
		goto out;
	/* what the runtime object depends on besides the recipe's command */
	sb_adds(&rtkey, features);
	sb_adds(&rtkey, sb_str(&rtbase));
	sb_adds(&key, sb_str(&rtkey));
	sb_adds(&key, c_text);
	for (i = 0; i < s->kbuild_vars.n; i++)
		sb_addf(&key, "\n@@B %s", s->kbuild_vars.v[i]);
	sb_addf(&key, "\n@@M %s%s", kbuild_makefile(a, name, rt),
		keep_dwarf(s) ? "" : "LDFLAGS_MODULE=--strip-debug\n");
	/* kbuild's module links the whole runtime: not the same file */
	if (use_kbuild(s))
		sb_adds(&key, "\n@@kbuild");
	hash_hex(key.buf, key.len, STAP_VERSION, hash);

	cdir = arena_printf(a, "%s/%.2s", cache_dir(a), hash);
	cached = arena_printf(a, "%s/%s_%s.ko", cdir, name, hash + 2);
	if (!s->no_cache && !s->keep_tmp && access(cached, R_OK) == 0) {
		SDT_MARK2(stap, cache__get,
			  arena_printf(a, "%s/%s_%s.c", cdir, name, hash + 2), cached);
		if (s->verbose[3])
			fprintf(stderr, "Pass 4: using cached %s\n", cached);
		*ko = cached;
		goto out;
	}
	if (!mkdtemp(tmpl)) {
		err = diag_fail(d, -errno, NULL, "cannot create a temporary directory: %s",
				strerror(errno));
		goto out;
	}
	made = true;
	snprintf(path, sizeof(path), "%s/%s_src.c", tmpl, name);
	err = write_file(path, c_text);
	snprintf(path, sizeof(path), "%s/" RT_OBJ ".c", tmpl);
	if (!err)
		err = write_file(path, sb_str(&rtsrc));
	snprintf(path, sizeof(path), "%s/stap_autoconf.h", tmpl);
	if (!err)
		err = write_file(path, features);
	snprintf(path, sizeof(path), "%s/Makefile", tmpl);
	if (!err)
		err = write_file(path, arena_printf(a, "# Generated by stap: kbuild for module %s\n%s",
						    name, kbuild_makefile(a, name, rt)));
	if (err) {
		diag_fail(d, err, NULL, "cannot write into %s: %s", tmpl, strerror(-err));
		goto out;
	}
	snprintf(path, sizeof(path), "%s/build.log", tmpl);
	if (!use_kbuild(s)) {
		if (!recorded)
			direct = recipe_get(s, a, build, rt, tree_key, &recipe, NULL, &why) == 0;
		if (!direct && s->verbose[3])
			fprintf(stderr, "Pass 4: building with kbuild: the kbuild commands of %s could not be recorded (%s)\n",
				build, why);
	}
	if (direct) {
		char obj[4200];

		sb_addf(&rtkey, "\n@@rt %s", recipe.cmd[R_RT]);
		hash_hex(rtkey.buf, rtkey.len, STAP_VERSION "runtime", rthash);
		rt_cached = arena_printf(a, "%s/runtime/%s", cache_dir(a), rthash);
		rt_pch_start(s, a, build, &recipe, sb_str(&rtbase), sb_str(&rtdefs), &pchjob);
		err = rt_objs_get(s, a, rt, c_text, rt_cached, tmpl, sb_str(&rtdefs), &objs);
		pch = rt_pch_finish(a, &pchjob);
		snprintf(obj, sizeof(obj), "%s/%s.mod", tmpl, name);
		if (!err)
			err = write_file(obj, arena_printf(a, "%s/%s_src.o\n%s/" RT_OBJ ".a\n",
							   tmpl, name, tmpl));
		if (!err && recipe.common_o) {
			snprintf(obj, sizeof(obj), "%s/.module-common.o", tmpl);
			if (copy_file(recipe.common_o, obj))
				recipe.common_o = NULL;
		}
		if (err) {
			diag_fail(d, err, NULL, "cannot write into %s: %s", tmpl, strerror(-err));
			goto out;
		}
		if (s->verbose[3])
			fprintf(stderr, "Pass 4: building with the kbuild commands recorded for %s (recipe %.12s), runtime parts %s\n",
				build, recipe.hash, rt_objs_say(a, &objs));
		err = direct_build(s, a, build, &recipe, tmpl, name, objs.parts, objs.n, objs.compile,
				   objs.link, pch, path);
		if (err > 0 && objs.link != objs.all &&
		    access(arena_printf(a, "%s/%s.o", tmpl, name), R_OK) == 0) {
			/* compiled and linked, but not a module: modpost
			 * found a name undefined, perhaps of a part the
			 * sources did not show it calls */
			if (s->verbose[3])
				fprintf(stderr, "Pass 4: the module was not made with runtime parts %s; again with them all\n",
					rt_objs_say(a, &objs));
			err = rt_objs_get(s, a, rt, NULL, rt_cached, tmpl, sb_str(&rtdefs), &objs) ?:
			      direct_build(s, a, build, &recipe, tmpl, name, objs.parts, objs.n,
					   objs.compile, objs.link, pch, path);
		}
	} else {
		if (s->verbose[3] && use_kbuild(s))
			fprintf(stderr, "Pass 4: building with kbuild (%s)\n",
				s->kbuild ? "--kbuild" : "STAP_KBUILD");
		err = run_make(s, build, tmpl, path, false);
	}
	if (err) {
		/* kbuild's (or the compiler's) own messages say what failed;
		 * the caller adds "Pass 4: compilation failed" */
		if (err < 0)
			diag_fail(d, err, arena_printf(a, "module '%s'", name),
				  "cannot run %s: %s", direct ? "/bin/sh" : "make", strerror(-err));
		else if (sb_read_file(&log, path) == 0)
			fputs(sb_str(&log), stderr);
		err = err < 0 ? err : -EIO;
		goto out;
	}
	if (direct && objs.made && !s->no_cache)
		rt_objs_put(a, &objs, tmpl, rt_cached);
	snprintf(path, sizeof(path), "%s/%s.ko", tmpl, name);
	to_cache = !s->keep_tmp && !s->no_cache && !mkdir_p(cdir);
	if (to_cache)
		SDT_MARK2(stap, cache__add__module, path, cached);
	if (to_cache && !copy_file(path, cached)) {
		char csrc[4200];

		snprintf(csrc, sizeof(csrc), "%s/%s_%s.c", cdir, name, hash + 2);
		SDT_MARK2(stap, cache__add__source,
			  arena_printf(a, "%s/%s_src.c", tmpl, name), csrc);
		cache_put(csrc, c_text);	/* best effort: for reading */
		*ko = cached;
		goto out;
	}
	/* -k, or no cache: the module stays in the temporary directory,
	 * which the caller removes after pass 5 unless -k keeps it */
	*ko = arena_printf(a, "%s", path);
	if (!s->keep_tmp)
		*tmp = arena_printf(a, "%s", tmpl);
	keep = true;
out:
	rt_pch_release(a, &pchjob);
	if (made && s->keep_tmp)
		fprintf(stderr, "Keeping temporary directory \"%s\"\n", tmpl);
	else if (made && (err || !keep))
		remove_tree(tmpl);
	sb_release(&key);
	sb_release(&log);
	sb_release(&rtsrc);
	sb_release(&rtkey);
	sb_release(&rtdefs);
	sb_release(&rtbase);
	return err;
}
