// SPDX-License-Identifier: GPL-2.0-or-later
/* decls.c: the declaration tables of pass 2: the globals and functions of
 * each included file (user script first, then library files as they are
 * pulled in), with the rules for duplicates, overloads and a user's
 * names hiding the library's; aliases go to the probe-point tree. */
#include "elaborate/elab.h"

#include <string.h>

#include "elaborate/probe_match.h"
#include "session.h"
#include "util/arena.h"
#include "util/diag.h"

static struct elab_var *new_global(struct elab *e, struct decl *d,
				   const struct source *file)
{
	struct elab_var *v = arena_new_obj(e->a, struct elab_var);

	v->name = d->global.name;
	v->scope = VAR_GLOBAL;
	v->arity = -1;
	v->hist = -1;
	v->decl = d;
	v->file = file;
	v->loc = d->loc;
	v->tapset = file->library;
	if (d->global.init) {
		v->type = d->global.init->kind == EXPR_STRING ? TYPE_STRING
							       : TYPE_LONG;
		v->type_loc = d->global.init->loc;
		v->arity = 0;
		v->arity_loc = d->loc;
		v->written = true;
	}
	v->sized = d->global.size || d->global.wrap;	/* an array */
	return v;
}

static bool g_is_library(const void *x)
{
	return ((const struct elab_var *)x)->tapset;
}

static bool f_is_library(const void *x)
{
	return ((const struct elab_func *)x)->tapset;
}

/* Put @x into @v after the user's entries and before the library's (or
 * last, for a library entry). */
static void insert_ahead_of_library(struct elab *e, struct ptrvec *v, void *x,
				    bool library, bool (*is_library)(const void *))
{
	size_t at = v->n;

	if (!library)
		for (at = 0; at < v->n && !is_library(v->v[at]); at++)
			;
	vec_push(e->a, v, x);
	memmove(v->v + at + 1, v->v + at, (v->n - 1 - at) * sizeof(*v->v));
	v->v[at] = x;
}

static void add_global(struct elab *e, struct decl *d, const struct source *file)
{
	struct ptrvec *v = ptrmap_list(e->a, &e->globals, d->global.name);
	struct elab_var *g;
	size_t i;

	for (i = 0; i < v->n; i++) {
		struct elab_var *o = v->v[i];

		if (o->file == file || (!o->decl->private_ && !d->private_ &&
					o->tapset == file->library)) {
			diag_report(e->d, DIAG_SEMANTIC_ERROR, &d->loc,
				    arena_printf(e->a, "identifier '%s'",
						 d->global.name),
				    "duplicate global variable '%s' (first "
				    "declared at %s:%u:%u)", d->global.name,
				    o->loc.src->name, o->loc.line, o->loc.col);
			return;
		}
	}
	/* A user script's global hides the library's. */
	g = new_global(e, d, file);
	insert_ahead_of_library(e, v, g, file->library, g_is_library);
	vec_push(e->a, &e->out.global_list, g);
}

/* Is @file in the built-in tapset library (not an -I directory)? */
static bool builtin_file(const struct elab *e, const struct source *file)
{
	const char *dir = e->sess->tapset_dir;

	return file->library && dir && !strncmp(file->name, dir, strlen(dir));
}

static void add_function(struct elab *e, struct decl *d,
			 const struct source *file)
{
	struct ptrvec *v = ptrmap_list(e->a, &e->out.funcs, d->func.name);
	struct elab_func *f;
	size_t i;

	/* A function both the built-in library and an -I library define
	 * (same arity) is taken from the first one included only: two
	 * libraries are alternatives, not overloads of each other. */
	for (i = 0; i < v->n; i++) {
		const struct elab_func *o = v->v[i];

		if (o->arity == (int)d->func.params.n && o->file->library &&
		    file->library && builtin_file(e, o->file) != builtin_file(e, file))
			return;
	}
	f = arena_new_obj(e->a, struct elab_func);

	f->name = d->func.name;
	f->arity = (int)d->func.params.n;
	f->decl = d;
	f->file = file;
	f->tapset = file->library;
	f->ret = d->func.ret;
	if (f->ret != TYPE_UNKNOWN)
		f->ret_loc = d->loc;
	f->params = arena_new_array(e->a, struct elab_var *, d->func.params.n + 1);
	for (i = 0; i < d->func.params.n; i++) {
		const struct param *p = d->func.params.v[i];
		struct elab_var *pv = arena_new_obj(e->a, struct elab_var);
		size_t j;

		for (j = 0; j < i; j++)
			if (f->params[j]->name == p->name)
				diag_report(e->d, DIAG_SEMANTIC_ERROR, &p->loc,
					    arena_printf(e->a, "identifier '%s'",
							 p->name),
					    "duplicate parameter '%s'", p->name);
		pv->name = p->name;
		pv->scope = VAR_PARAM;
		pv->type = p->type;
		if (p->type != TYPE_UNKNOWN)
			pv->type_loc = p->loc;
		pv->hist = -1;
		pv->loc = p->loc;
		pv->file = file;
		pv->written = true;
		f->params[i] = pv;
		vec_push(e->a, &f->locals, pv);
	}
	/* Several functions of one name and arity are overloads tried in
	 * order (by priority, then definition) at run time, through `next`;
	 * calls resolve to the first, and all share its signature. */
	for (i = 0; i < v->n && !f->first; i++) {
		struct elab_func *o = v->v[i];

		if (o->arity == f->arity && o->file->library == file->library &&
		    !o->decl->private_ && !d->private_)
			f->first = o->first ? o->first : o;
	}
	/* The user's functions hide the library's of the same arity; both
	 * keep their definition order. */
	insert_ahead_of_library(e, v, f, file->library, f_is_library);
	vec_push(e->a, &e->out.func_list, f);
}

void elab_include_file(struct elab *e, struct ast_file *f)
{
	size_t i;

	ptrmap_put(e->a, &e->included, f, f);
	vec_push(e->a, &e->files, f);
	for (i = 0; i < f->decls.n; i++) {
		struct decl *d = f->decls.v[i];

		if (d->kind == DECL_GLOBAL)
			add_global(e, d, f->src);
		else if (d->kind == DECL_FUNCTION)
			add_function(e, d, f->src);
		else if (d->kind == DECL_ALIAS)
			pm_register_alias(e, d);
		else if (d->kind == DECL_EMBED)
			vec_push(e->a, &e->out.embeds, d);
	}
}
