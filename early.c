// SPDX-License-Identifier: GPL-2.0-or-later
/* early.c: the module cache checked before pass 1 (doc/build.md). Pass 4's
 * cache is keyed on the module's C text, which takes passes 1-3 to know:
 * for a script with $variables, pass 2 opens the kernel's debuginfo first.
 * An early entry maps what decides the module and is known at start (the
 * command line, the script's text, the translator binary, the tapset,
 * runtime and -I files, the kernel tree, the environment that steers
 * lookups) to the module pass 4 cached, with the files pass 2 read along
 * the way (debuginfo, programs) and their sizes and times, checked on a
 * hit. Entries are written only after a run without errors whose DWARF
 * lookups all succeeded; the warnings it printed are kept and printed
 * again on a hit. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "early.h"
#include "session.h"
#include "util/arena.h"
#include "util/cache.h"
#include "util/sdt_marker.h"
#include "util/kernel_info.h"
#include "util/strbuf.h"
#include "util/vec.h"

#ifndef RUNTIME_SOURCE_DIR
#define RUNTIME_SOURCE_DIR "/usr/share/systemtap/runtime"
#endif

/* "PATH SIZE MTIME.NS" of @path, or "PATH -" when it does not exist. */
static void stat_line(struct strbuf *sb, const char *tag, const char *path)
{
	struct stat st;

	if (stat(path, &st))
		sb_addf(sb, "%s\t%s\t-\n", tag, path);
	else
		sb_addf(sb, "%s\t%s\t%lld\t%lld.%09ld\n", tag, path, (long long)st.st_size,
			(long long)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec);
}

/* stat_line of every file under @dir, in name order (depth at most 4). */
static void stat_tree(struct strbuf *sb, const char *dir, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0, i;

	if (!d) {
		sb_addf(sb, "dir\t%s\t-\n", dir);
		return;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			names = realloc(names, cap * sizeof(*names));
			if (!names)
				abort();
		}
		names[n++] = strdup(de->d_name);
	}
	closedir(d);
	if (n)
		strs_sort(names, n);
	for (i = 0; i < n; i++) {
		char path[4200];
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
			if (depth < 4)
				stat_tree(sb, path, depth + 1);
		} else {
			stat_line(sb, "f", path);
		}
		free(names[i]);
	}
	free(names);
}

static void env_line(struct strbuf *sb, const char *name)
{
	const char *v = getenv(name);

	sb_addf(sb, "env\t%s\t%s\n", name, v ? v : "(unset)");
}

const char *early_key(const struct session *s, const struct kernel_info *ki,
		      struct arena *a, int argc, char **argv)
{
	static const char *const tree_files[] = {
		".config", "include/generated/utsrelease.h", "System.map", "Module.symvers",
		"vmlinux",
	};
	struct strbuf sb = STRBUF_INIT;
	const char *rt, *env;
	char hash[33], path[4200];
	size_t k;
	int i;

	if (s->no_cache || s->keep_tmp || s->last_pass < 4 || s->list_mode != LIST_NONE ||
	    s->dump != DUMP_NONE || (!s->script_text && (!s->script_name ||
							  !strcmp(s->script_name, "-"))))
		return NULL;
	sb_addf(&sb, "version\t%s\n", STAP_VERSION);
	stat_line(&sb, "exe", "/proc/self/exe");
	for (i = 1; i < argc; i++)
		sb_addf(&sb, "arg\t%s\n", argv[i]);
	if (!s->script_text) {
		sb_addf(&sb, "script\t%s\n", s->script_name);
		{
			FILE *f = fopen(s->script_name, "rb");
			char buf[65536];
			size_t n;

			if (!f) {
				sb_release(&sb);
				return NULL;
			}
			while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
				sb_addn(&sb, buf, n);
			fclose(f);
		}
		sb_adds(&sb, "\n");
	}
	env_line(&sb, "SYSTEMTAP_TAPSET");
	env_line(&sb, "SYSTEMTAP_RUNTIME");
	env_line(&sb, "SYSTEMTAP_DEBUGINFO_PATH");
	env_line(&sb, "SYSTEMTAP_KALLSYMS");
	env_line(&sb, "STAP_KBUILD");
	env_line(&sb, "PATH");		/* process("NAME") */
	env = getenv("SYSTEMTAP_KALLSYMS");
	if (env && *env)
		stat_line(&sb, "kallsyms", env);
	if (s->tapset_dir)
		stat_tree(&sb, s->tapset_dir, 0);
	for (i = 0; i < s->include_dirs.n; i++)
		stat_tree(&sb, s->include_dirs.v[i], 0);
	env = getenv("SYSTEMTAP_RUNTIME");
	rt = s->runtime_dir ? s->runtime_dir : env && *env ? env : RUNTIME_SOURCE_DIR;
	stat_tree(&sb, rt, 0);
	sb_addf(&sb, "kernel\t%s\t%s\n", ki->release ? ki->release : "",
		ki->build_dir ? ki->build_dir : "");
	for (k = 0; ki->build_dir && k < sizeof(tree_files) / sizeof(tree_files[0]); k++) {
		snprintf(path, sizeof(path), "%s/%s", ki->build_dir, tree_files[k]);
		stat_line(&sb, "tree", path);
	}
	hash_hex(sb.buf, sb.len, STAP_VERSION "early", hash);
	sb_release(&sb);
	return arena_printf(a, "%s", hash);
}

static const char *entry_path(struct arena *a, const char *key)
{
	return arena_printf(a, "%s/early/%.2s/%s.txt", cache_dir(a), key, key + 2);
}

int early_lookup(struct arena *a, const char *key, const char **ko, const char **name,
		 const char **diag)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[65536];
	const char *line;
	size_t n;
	const char *entry = entry_path(a, key);
	FILE *f = fopen(entry, "rb");
	bool ok = true;

	*ko = *name = *diag = NULL;
	if (!f)
		return -ENOENT;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		sb_addn(&sb, buf, n);
	fclose(f);
	for (line = sb_str(&sb); ok && *line; ) {
		size_t l = strcspn(line, "\n");
		const char *tab = memchr(line, '\t', l);

		if (l == 4 && !strncmp(line, "diag", 4)) {
			/* the rest: what the recorded run printed */
			*diag = arena_strndup(a, line + 5, strlen(line + 5));
			break;
		}
		if (!tab) {
			ok = false;
			break;
		}
		if (!strncmp(line, "ko\t", 3)) {
			*ko = arena_strndup(a, tab + 1, (size_t)(line + l - tab - 1));
		} else if (!strncmp(line, "name\t", 5)) {
			*name = arena_strndup(a, tab + 1, (size_t)(line + l - tab - 1));
		} else if (!strncmp(line, "f\t", 2)) {
			/* "f PATH ..." as stat_line writes it: the same now? */
			const char *p2 = memchr(tab + 1, '\t', (size_t)(line + l - tab - 1));
			struct strbuf now = STRBUF_INIT;
			char *path;

			if (!p2) {
				ok = false;
				break;
			}
			path = arena_strndup(a, tab + 1, (size_t)(p2 - tab - 1));
			stat_line(&now, "f", path);
			ok = now.len == l + 1 && !memcmp(now.buf, line, l);
			sb_release(&now);
		}
		line += l + (line[l] == '\n');
	}
	sb_release(&sb);
	if (!ok || !*ko || !*name || access(*ko, R_OK)) {
		/* out of date: gone (a successful run records it anew) */
		SDT_MARK1(stap, cache__clean, entry);
		unlink(entry);
		return -ESTALE;
	}
	/* the module's C text is beside it: NAME_HASH.c for NAME_HASH.ko */
	SDT_MARK2(stap, cache__get,
		  arena_printf(a, "%.*s.c", (int)strlen(*ko) - 3, *ko), *ko);
	return 0;
}

static void add_input(void *arg, const char *path)
{
	stat_line(arg, "f", path);
}

void early_record(struct arena *a, const char *key, const char *ko, const char *name,
		  const char *diag, bool (*inputs)(void *ctx, void (*fn)(void *arg, const char *path), void *arg),
		  void *ctx)
{
	struct strbuf sb = STRBUF_INIT;
	const char *path = entry_path(a, key);
	struct iovec iov;
	char dir[4200];

	sb_addf(&sb, "ko\t%s\nname\t%s\n", ko, name);
	if (inputs(ctx, add_input, &sb)) {
		sb_addf(&sb, "diag\n%s", diag ? diag : "");
		snprintf(dir, sizeof(dir), "%s", path);
		*strrchr(dir, '/') = '\0';
		iov = (struct iovec){ sb.buf, sb.len };
		if (!mkdir_p(dir))
			cache_write(path, &iov, 1);	/* best effort */
	}
	sb_release(&sb);
}
