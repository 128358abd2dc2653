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
 * translator's version; the recipe, the runtime's parts and the
 * precompiled header are cached too. The feature tests are in
 * build_autoconf.c, which parts a module calls in build_parts.c, the
 * helpers that run programs and write files in build_exec.c. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build.h"
#include "build_autoconf.h"
#include "build_exec.h"
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
	const char *cached;
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
		cached = arena_printf(a, "%s/%s.o", rtdir, o->parts[i]);
		snprintf(path, sizeof(path), "%s/" RT_OBJ "_%s.o", dir, o->parts[i]);
		if (access(path, R_OK) == 0)
			continue;	/* compiled or linked before a retry */
		if (!s->no_cache && access(cached, R_OK) == 0 && !symlink(cached, path))
			continue;
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

/* The names of the parts in mask @m, blank separated. */
static const char *rt_objs_names(struct arena *a, const struct rt_objs *o, uint64_t m)
{
	struct strbuf sb = STRBUF_INIT;
	int i;

	for (i = 0; i < o->n; i++)
		if (m & ((uint64_t)1 << i))
			sb_addf(&sb, "%s%s", sb.len ? " " : "", o->parts[i]);
	return sb_to_arena(&sb, a);
}

/* For -v: "core printf (compiling core printf)". */
static const char *rt_objs_say(struct arena *a, const struct rt_objs *o)
{
	return arena_printf(a, "%s (%s%s)", rt_objs_names(a, o, o->link),
			    o->compile ? "compiling " : "from the cache",
			    rt_objs_names(a, o, o->compile));
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
	/* A first build for this tree: kbuild records the recipe; the
	 * runtime's header is precompiled as soon as kbuild has linked
	 * (pch_early), and the feature tests are compiled with it. */
	if (!ac.hdr && !use_kbuild(s)) {
		struct pch_early early = { { pch_early_fn }, s, a, build, sb_str(&rtbase),
					   sb_str(&rtdefs), &pchjob };

		recorded = true;
		direct = recipe_get(s, a, build, rt, tree_key, &recipe, &early.e, &why) == 0;
		if (direct) {
			const char *cc = recipe.cmd[R_SRC];

			rt_pch_start(s, a, build, &recipe, sb_str(&rtbase), sb_str(&rtdefs), &pchjob);
			pch = rt_pch_finish(a, &pchjob);
			if (pch)
				cc = pch_use(a, cc, pch) ?: cc;
			ac_direct(s, a, build, cc, recipe.env, &ac);
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
