// SPDX-License-Identifier: GPL-2.0-or-later
/* build_autoconf.c: the kernel feature tests of pass 4
 * (runtime/linux/autoconf/NAME.c): once per kernel tree, each test that
 * compiles defines STAPCONF_NAME in the header stap_autoconf.h, which the
 * runtime's parts and the generated file read. By the recorded compile
 * command, all tests in one file, gcc's messages telling which failed
 * (ac_direct, ac_together), or by make, each to its own object (ac_make,
 * the kbuild path). doc/build.md, "A first build for a tree". */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build_autoconf.h"
#include "build_exec.h"
#include "session.h"
#include "util/arena.h"
#include "util/cache.h"
#include "util/diag.h"
#include "util/sdt_marker.h"
#include "util/strbuf.h"
#include "util/vec.h"

#define AC_SUBJECT "kernel feature tests"

int ac_start(const struct session *s, struct diag *d, struct arena *a, const char *rt,
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
		/* the name the recorded compile command gives a source
		 * (@N@_src.c): make and ac_direct compile the same file */
		snprintf(path, sizeof(path), "%s/ac_%s_src.c", ac->tmpl, ac->tests[i]);
		if (!err)
			err = write_file(path, sb_str(&src));
		sb_release(&src);
		sb_addf(&names, " ac_%s_src.o", ac->tests[i]);
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
int ac_make(const struct session *s, struct diag *d, const char *build,
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
		snprintf(path, sizeof(path), "%s/ac_%s_src.c", ac->tmpl, ac->tests[i]);
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
int ac_finish(const struct session *s, struct diag *d, struct arena *a,
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
			snprintf(path, sizeof(path), "%s/ac_%s_src.o", ac->tmpl, ac->tests[i]);
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

/* The compile of @dir/@name_src.c by the command @cc, objtool left out. */
static const char *ac_cc(struct arena *a, const char *cc, const char *dir, const char *name)
{
	return cc_only(a, replace_all(a, replace_all(a, cc, "@D@", dir), "@N@", name));
}

int ac_direct(const struct session *s, struct arena *a, const char *build,
		     const char *cc, const char *env, struct autoconf *ac)
{
	struct strbuf sc = STRBUF_INIT;
	const char **cmds;
	char path[4200];
	bool *in;
	size_t i;
	int err;

	if (ac->hdr || ac->pid || !ac->tmpl[0] || !ac->n)
		return -1;
	cmds = arena_alloc(a, ac->n * sizeof(*cmds));
	for (i = 0; i < ac->n; i++)
		cmds[i] = ac_cc(a, cc, ac->tmpl, arena_printf(a, "ac_%s", ac->tests[i]));
	in = arena_alloc(a, ac->n);
	memset(in, 1, ac->n);
	snprintf(path, sizeof(path), "%s/stap_autoconf.h", ac->tmpl);
	err = write_file(path, "") ?: ac_write_all(a, ac, in);
	if (!err) {
		sb_adds(&sc, env);
		err = sh_pool(&sc, a, ac->tmpl, "ac", cmds, (int)ac->n, false);
	}
	if (!err) {
		ac->each_sh = arena_printf(a, "%s", sb_str(&sc));
		ac->all_sh = arena_printf(a, "%s%s >%s/all.log 2>&1\n", env,
					  ac_cc(a, cc, ac->tmpl, "ac_all"), ac->tmpl);
		if (s->verbose[3])
			fprintf(stderr, "Pass 4: checking kernel features (%zu tests, with the recorded commands)\n",
				ac->n);
		snprintf(path, sizeof(path), "%s/build.log", ac->tmpl);
		ac->pid = sh_start(s, build, ac->all_sh, path);
		if (ac->pid < 0)
			ac->pid = 0;
	}
	if (!ac->pid)
		ac->all_sh = ac->each_sh = NULL;
	sb_release(&sc);
	return ac->pid ? 0 : -1;
}
