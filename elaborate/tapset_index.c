// SPDX-License-Identifier: GPL-2.0-or-later
/* tapset_index.c: the tapset library: every .stp file of the search path
 * is parsed and its function, global and alias names indexed; a file joins
 * the session only when a name it defines is needed (on-demand inclusion). */
#define _GNU_SOURCE	/* strverscmp */
#include "elaborate/elab.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "elaborate/probe_match.h"
#include "elaborate/tapset_scan.h"
#include "parse/parse.h"
#include "session.h"
#include "util/arena.h"
#include "util/diag.h"
#include "util/intern.h"
#include "util/kernel_info.h"
#include "util/source.h"

/* A library file: scanned for names at start-up, parsed when needed. */
struct tapset_file {
	const char *path;
	struct source *src;
	struct ast_file *ast;		/* NULL until parsed */
};

struct alias_entry {
	const char *first;		/* first component of the alias name */
	struct tapset_file *file;
};

struct tapset_index {
	struct ptrvec files;		/* struct tapset_file *, search order */
	struct ptrmap funcs;		/* name -> struct ptrvec * of files */
	struct ptrmap globals;		/* name -> struct ptrvec * of files */
	struct ptrvec aliases;		/* struct alias_entry * */
};

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A version-named directory ("2.6.9", "6.1") applies to kernels at or
 * above that version. */
static bool version_dir_applies(const char *name, const char *kernel_v)
{
	const char *p;

	if (!isdigit((unsigned char)name[0]))
		return false;
	for (p = name; *p; p++)
		if (!isdigit((unsigned char)*p) && *p != '.')
			return false;
	return kernel_v && strverscmp(name, kernel_v) <= 0;
}

/* Sorted names in @dir ending in .stp (files) or version directories. */
static size_t list_dir(struct elab *e, const char *dir, bool versions,
		       const char ***out)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct ptrvec v = { 0 };

	*out = NULL;
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (versions ? version_dir_applies(de->d_name, e->ki->version)
			     : (len > 4 && !strcmp(de->d_name + len - 4, ".stp")))
			vec_push(e->a, &v, arena_printf(e->a, "%s/%s", dir,
							de->d_name));
	}
	closedir(d);
	if (v.n)
		qsort(v.v, v.n, sizeof(*v.v), cmp_names);
	*out = (const char **)v.v;
	return v.n;
}

static void index_name(struct elab *e, struct ptrmap *m, const char *name,
		       struct tapset_file *f)
{
	struct ptrvec *v = ptrmap_list(e->a, m, name);

	if (!v->n || v->v[v->n - 1] != f)
		vec_push(e->a, v, f);
}

struct scan_ctx {
	struct elab *e;
	struct tapset_file *f;
};

static void scanned(void *ctx, enum tapset_scan_kind kind, const char *name,
		    size_t len)
{
	struct scan_ctx *sc = ctx;
	struct elab *e = sc->e;
	struct tapset_index *ti = e->tapsets;
	const char *id = intern_n(e->in, name, len);

	if (kind == TAPSET_SCAN_FUNCTION) {
		index_name(e, &ti->funcs, id, sc->f);
	} else if (kind == TAPSET_SCAN_GLOBAL) {
		index_name(e, &ti->globals, id, sc->f);
	} else {
		struct alias_entry *ae = arena_new_obj(e->a, struct alias_entry);

		ae->first = id;
		ae->file = sc->f;
		vec_push(e->a, &ti->aliases, ae);
	}
}

static void load_dir(struct elab *e, struct tapset_index *ti, const char *dir)
{
	const char **names;
	size_t n = list_dir(e, dir, false, &names), i;

	for (i = 0; i < n; i++) {
		struct source *src = source_from_file(e->a, names[i], names[i]);
		struct tapset_file *f;
		struct scan_ctx sc;

		if (!src) {
			diag_report(e->d, DIAG_ERROR, NULL, NULL,
				    "cannot read tapset file %s: %s", names[i],
				    strerror(errno));
			continue;
		}
		src->library = true;
		f = arena_new_obj(e->a, struct tapset_file);
		f->path = names[i];
		f->src = src;
		vec_push(e->a, &ti->files, f);
		sc.e = e;
		sc.f = f;
		tapset_scan(src->text, src->len, scanned, &sc);
	}
}

unsigned tapset_index_load(struct elab *e)
{
	struct tapset_index *ti = arena_new_obj(e->a, struct tapset_index);
	const char *sub[4];
	int i, j;
	size_t k;

	sub[0] = "";
	sub[1] = "/linux";
	sub[2] = arena_printf(e->a, "/%s", e->sess->arch);
	sub[3] = arena_printf(e->a, "/linux/%s", e->sess->arch);
	e->tapsets = ti;
	for (i = -1; i < e->sess->include_dirs.n; i++) {
		const char *base = i < 0 ? e->sess->tapset_dir
					 : e->sess->include_dirs.v[i];

		if (!base)
			continue;
		for (j = 0; j < 4; j++) {
			const char *dir = arena_printf(e->a, "%s%s", base, sub[j]);
			const char **vers;
			size_t nv;

			load_dir(e, ti, dir);
			if (j > 1)
				continue;
			nv = list_dir(e, dir, true, &vers);
			for (k = 0; k < nv; k++)
				load_dir(e, ti, vers[k]);
		}
	}
	return (unsigned)ti->files.n;
}

/* Parse @f if not yet done and include it; true if newly included. */
static bool include_file(struct elab *e, struct tapset_file *f)
{
	if (!f->ast)
		f->ast = parse_file(e->penv, f->src, true);
	if (ptrmap_get(&e->included, f->ast))
		return false;
	elab_include_file(e, f->ast);
	return true;
}

static unsigned include_list(struct elab *e, const struct ptrvec *files)
{
	unsigned n = 0;
	size_t i;

	if (!files)
		return 0;
	for (i = 0; i < files->n; i++)
		n += include_file(e, files->v[i]);
	return n;
}

unsigned tapset_include_function(struct elab *e, const char *name)
{
	return e->tapsets ? include_list(e, ptrmap_get(&e->tapsets->funcs, name)) : 0;
}

unsigned tapset_include_global(struct elab *e, const char *name)
{
	return e->tapsets ? include_list(e, ptrmap_get(&e->tapsets->globals, name)) : 0;
}

unsigned tapset_include_aliases(struct elab *e, const char *pattern)
{
	struct tapset_index *ti = e->tapsets;
	const char *pat = pattern, *dstar;
	unsigned n = 0;
	size_t i;

	if (!ti)
		return 0;
	dstar = strstr(pattern, "**");
	if (dstar)
		pat = arena_printf(e->a, "%.*s*", (int)(dstar - pattern), pattern);
	for (i = 0; i < ti->aliases.n; i++) {
		struct alias_entry *ae = ti->aliases.v[i];

		if (ae->file->ast && ptrmap_get(&e->included, ae->file->ast))
			continue;
		if (ae->first == pattern || !fnmatch(pat, ae->first, 0))
			n += include_file(e, ae->file);
	}
	return n;
}

void tapset_function_names(struct elab *e, struct ptrvec *out)
{
	if (e->tapsets)
		ptrmap_keys(e->a, &e->tapsets->funcs, out);
}

void tapset_include_all(struct elab *e)
{
	if (e->tapsets)
		include_list(e, &e->tapsets->files);
}
