// SPDX-License-Identifier: GPL-2.0-or-later
/* elaborate.c: the pass 2 driver: include the user script, derive its
 * probes (pulling tapset files in on demand), resolve names, infer types
 * and optimise. */
#include "elaborate/elab.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "elaborate/probe_match.h"
#include "elaborate/targets.h"
#include "parse/parse.h"
#include "session.h"
#include "util/arena.h"
#include "util/diag.h"
#include "util/intern.h"

void elab_init(struct elab *e, struct parse_env *penv)
{
	memset(e, 0, sizeof(*e));
	e->a = penv->arena;
	e->in = penv->in;
	e->d = penv->diag;
	e->sess = penv->sess;
	e->ki = penv->kinfo;
	e->penv = penv;
	pm_init(e);
}

const char *elab_token(struct elab *e, const struct expr *x)
{
	switch (x->kind) {
	case EXPR_NUMBER:
		return arena_printf(e->a, "number '%" PRId64 "'", x->num);
	case EXPR_STRING:
		return arena_printf(e->a, "string '%.*s'", (int)x->str.len,
				    x->str.s);
	case EXPR_SYMBOL:
	case EXPR_PROBEWRITE:
		return arena_printf(e->a, "identifier '%s'", x->name);
	case EXPR_CALL:
		return arena_printf(e->a, "identifier '%s'", x->call.name);
	case EXPR_PRINT:
		return arena_printf(e->a, "identifier '%s'", x->print.pk->name);
	case EXPR_INDEX:
		return elab_token(e, x->index.base);
	case EXPR_TARGET:
		return arena_printf(e->a, "identifier '%s'", x->target.name);
	case EXPR_BINARY:
	case EXPR_ASSIGN:
		return arena_printf(e->a, "operator '%s'", op_spelling(x->bin.op));
	case EXPR_UNARY:
	case EXPR_CREMENT:
		return arena_printf(e->a, "operator '%s'", op_spelling(x->un.op));
	case EXPR_TERNARY:
		return "operator '?'";
	case EXPR_IN:
		return "keyword 'in'";
	case EXPR_WILDCARD:
		return "operator '*'";
	case EXPR_CAST:
		return "operator '@cast'";
	case EXPR_ATVAR:
		return "operator '@var'";
	case EXPR_DEREF:
		return "operator '->'";
	case EXPR_ENTRY:
		return "operator '@entry'";
	case EXPR_DEFINED:
		return "operator '@defined'";
	case EXPR_STAT:
		return arena_printf(e->a, "operator '@%s'", x->stat.op);
	case EXPR_HIST:
		return x->hist.hk == HIST_LOG ? "operator '@hist_log'"
					      : "operator '@hist_linear'";
	case EXPR_ATOP:
		return arena_printf(e->a, "operator '@%s'", x->atop.name);
	case EXPR_EMBEDDED:
		return "embedded-code";
	}
	return "token";
}

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
	vec_push(e->a, &e->global_list, g);
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
	struct ptrvec *v = ptrmap_list(e->a, &e->funcs, d->func.name);
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
	vec_push(e->a, &e->func_list, f);
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
			vec_push(e->a, &e->embeds, d);
	}
}

/* Derive the probes of the files included since *@done (deriving may
 * include more, for aliases). */
static void derive_new(struct elab *e, size_t *done)
{
	size_t i;

	for (; *done < e->files.n; (*done)++) {
		struct ast_file *f = e->files.v[*done];

		for (i = 0; i < f->decls.n; i++) {
			struct decl *d = f->decls.v[i];

			if (d->kind == DECL_PROBE)
				pm_derive(e, d, f->src);
		}
	}
}

/* -G NAME=VALUE: the global must exist in the script; a value that reads
 * as a number makes (or must fit) a long, anything else a string. */
static void apply_G(struct elab *e, const struct source *user, bool check)
{
	int i;

	for (i = 0; i < e->sess->globals.n; i++) {
		const char *arg = e->sess->globals.v[i], *eq = strchr(arg, '=');
		const char *name = intern_n(e->in, arg, eq ? (size_t)(eq - arg) : strlen(arg));
		struct elab_var *v = sym_global(e, name, user);
		enum stap_type ty = TYPE_STRING;
		char *end;

		if (eq && eq[1]) {
			errno = 0;
			(void)strtoll(eq + 1, &end, 0);
			if (!*end && !errno)
				ty = TYPE_LONG;
		}
		if (!v || v->file != user) {
			if (check)
				diag_report(e->d, DIAG_SEMANTIC_ERROR, NULL, NULL,
					    "-G %s: the script has no global "
					    "variable '%s'", arg, name);
			continue;
		}
		if (!check) {
			/* Set at load time; its type only if nothing else
			 * decides it (types.c). */
			v->written = true;
			v->g_type = ty;
			continue;
		}
		if (v->arity > 0 || v->type == TYPE_STATS)
			diag_report(e->d, DIAG_SEMANTIC_ERROR, NULL, NULL,
				    "-G %s: '%s' is not a scalar", arg, name);
		else if (v->type == TYPE_LONG && ty != TYPE_LONG)
			diag_report(e->d, DIAG_SEMANTIC_ERROR, NULL, NULL,
				    "-G %s: '%s' is a long, and '%s' is not a "
				    "number", arg, name, eq ? eq + 1 : "");
	}
}

int elab_run(struct elab *e, struct ast_file *user)
{
	size_t i, done = 0, fdone = 0;

	tapset_index_load(e);
	if (diag_errors(e->d))
		return -1;
	elab_include_file(e, user);
	/* Resolving bodies may include library files with probes of their
	 * own: alternate until both are done. */
	for (;;) {
		derive_new(e, &fdone);
		if (done == e->probes.n)
			break;
		for (; done < e->probes.n; done++) {
			struct elab_probe *p = e->probes.v[done];

			for (i = 0; i < p->points.n; i++) {
				struct elab_point *pt = p->points.v[i];

				if (pt->cond)
					sym_resolve_cond(e, pt->cond);
			}
			sym_resolve_probe(e, p);
			sym_resolve_pending(e);
		}
	}
	if (diag_errors(e->d))
		return -1;
	if (!e->probes.n) {
		diag_report(e->d, DIAG_SEMANTIC_ERROR, NULL, NULL, "no probes found");
		return -1;
	}
	/* Optimise before inferring types, as the reference does: code that is
	 * elided (dead stores, if (0) blocks) is not type-checked. */
	if (!e->sess->unoptimized)
		opt_run(e);
	if (diag_errors(e->d))
		return -1;
	apply_G(e, user->src, false);
	type_infer(e);
	apply_G(e, user->src, true);
	if (diag_errors(e->d))
		return -1;
	tgt_finish_entries(e);
	elab_global_display(e);
	return 0;
}
