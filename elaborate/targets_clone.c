// SPDX-License-Identifier: GPL-2.0-or-later
/* targets_clone.c: $var in script functions: a function whose body, or
 * the body of a function it calls, reads target variables ($var,
 * @entry($var), @defined($var)) is resolved in the DWARF context of the
 * probe that calls it: each such probe gets a clone of it (and of the
 * callees that need one), as the reference does. */
#include "elaborate/targets.h"

#include "elaborate/elab.h"
#include "parse/ast_walk.h"
#include "util/arena.h"
#include "util/intern.h"

struct site_walk {
	struct ast_visitor v;
	struct elab *e;
	const struct source *src;	/* the walked function's file */
	bool direct;			/* a target expression seen */
	struct ptrvec *callees;		/* struct elab_func * */
};

static bool site_expr(struct ast_visitor *v, struct expr *x)
{
	struct site_walk *w = (struct site_walk *)v;
	struct elab_func *g;

	if (x->kind == EXPR_TARGET || x->kind == EXPR_ENTRY ||
	    (x->kind == EXPR_DEFINED && x->operand->kind == EXPR_TARGET))
		w->direct = true;
	if (x->kind == EXPR_CALL) {
		g = sym_func(w->e, x->call.name, (int)x->call.args.n, w->src);
		if (g)
			vec_push(w->e->a, w->callees, g);
	}
	return !w->direct;
}

bool tgt_needs_site(struct elab *e, struct elab_func *f)
{
	struct ptrvec todo = { 0 };
	struct ptrmap seen = { 0 };
	bool need = false;

	if (ptrmap_get(&e->fn_site_known, f))
		return ptrmap_get(&e->fn_need_site, f) != NULL;
	vec_push(e->a, &todo, f);
	ptrmap_put(e->a, &seen, f, f);
	while (todo.n && !need) {
		struct elab_func *g = todo.v[--todo.n];
		struct ptrvec callees = { 0 };
		struct site_walk w = { .v.expr = site_expr, .e = e, .src = g->file,
				       .callees = &callees };
		size_t i;

		ast_walk_stmt(&w.v, g->decl->func.body);
		need = w.direct;
		for (i = 0; i < callees.n; i++)
			if (!ptrmap_get(&seen, callees.v[i])) {
				ptrmap_put(e->a, &seen, callees.v[i], callees.v[i]);
				vec_push(e->a, &todo, callees.v[i]);
			}
	}
	ptrmap_put(e->a, &e->fn_site_known, f, f);
	if (need)
		ptrmap_put(e->a, &e->fn_need_site, f, f);
	return need;
}

/* Overloads of @f (the first of its name and arity) are cloned with it,
 * under one new name, in order. */
struct elab_func *tgt_clone(struct elab *e, struct elab_probe *p, struct elab_func *f)
{
	const struct ptrvec *v = ptrmap_get(&e->out.funcs, f->name);
	const char *key = intern(e->in, arena_printf(e->a, "%p/%p", (void *)p,
						     (void *)f));
	struct elab_func *c = ptrmap_get(&e->fn_clones, key);
	const char *name;
	struct decl *first = NULL;
	size_t i;

	if (c)
		return c;
	name = intern(e->in, arena_printf(e->a, "__clone_%u_of_%s", e->tvar_seq++, f->name));
	for (i = 0; v && i < v->n; i++) {
		struct elab_func *o = v->v[i];
		struct ast_file *file;
		struct decl *d;

		if (o != f && o->first != f)
			continue;
		d = arena_new_obj(e->a, struct decl);
		*d = *o->decl;
		d->func.name = name;
		d->func.body = ast_clone_stmt(e->a, o->decl->func.body);
		file = arena_new_obj(e->a, struct ast_file);
		file->src = o->file;
		vec_push(e->a, &file->decls, d);
		elab_include_file(e, file);
		if (o == f)
			first = d;
		c = tgt_func_of_decl(e, d);
		if (c)
			c->site = p;
	}
	c = first ? tgt_func_of_decl(e, first) : NULL;
	if (c)
		ptrmap_put(e->a, &e->fn_clones, key, c);
	return c;
}
