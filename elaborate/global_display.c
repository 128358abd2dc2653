// SPDX-License-Identifier: GPL-2.0-or-later
/* global_display.c: the reference's convenience for globals a script
 * writes but never reads: an `end` probe that prints them (scalars as
 * NAME=VALUE, statistics with their @-values, arrays element by element,
 * sorted by value, descending). --no-global-var-display turns it off. The
 * nodes are built already resolved and typed. */
#include "elaborate/elab.h"

#include <string.h>

#include "elaborate/probe_match.h"
#include "parse/ast_walk.h"
#include "session.h"
#include "util/arena.h"
#include "util/format.h"
#include "util/intern.h"
#include "util/strbuf.h"

static const char *const stat_ops[] = { "count", "min", "max", "sum", "avg" };

struct builder {
	struct elab *e;
	struct srcloc loc;
	struct elab_probe *p;
};

static struct expr *typed(struct expr *x, enum stap_type t)
{
	x->type = t;
	return x;
}

static struct expr *sym(struct builder *b, struct elab_var *v)
{
	struct expr *x = ast_symbol(b->e->a, v->name, b->loc);

	ptrmap_put(b->e->a, &b->e->out.var_of, x, v);
	return typed(x, v->type);
}

static struct elab_var *local(struct builder *b, const char *name,
			      enum stap_type t)
{
	struct elab_var *v = arena_new_obj(b->e->a, struct elab_var);

	v->name = intern(b->e->in, name);
	v->scope = VAR_LOCAL;
	v->type = t;
	v->hist = -1;
	v->loc = b->loc;
	v->file = b->loc.src;
	v->read = v->written = true;
	vec_push(b->e->a, &b->p->locals, v);
	return v;
}

/* printf(FMT, args...) as a statement. */
static struct stmt *printf_stmt(struct builder *b, const char *fmt,
				struct ptrvec *args)
{
	struct arena *a = b->e->a;
	struct expr *x = ast_expr(a, EXPR_PRINT, b->loc);
	const char *err;
	size_t off;

	x->print.pk = ast_print_kind("printf");
	x->print.fmt = typed(ast_string(a, fmt, strlen(fmt), b->loc), TYPE_STRING);
	x->print.spec = fmt_parse(a, fmt, strlen(fmt), &err, &off);
	if (args)
		x->print.args = *args;
	return ast_stmt_expr(a, STMT_EXPR, typed(x, TYPE_LONG), b->loc);
}

/* @op(operand) where operand is the aggregate expression @agg. */
static struct expr *stat_op(struct builder *b, const char *op, struct expr *agg)
{
	struct expr *x = ast_expr(b->e->a, EXPR_STAT, b->loc);

	x->stat.op = intern(b->e->in, op);
	vec_push(b->e->a, &x->stat.args, agg);
	return typed(x, TYPE_LONG);
}

/* " @count=%#d @min=%#d ..." and the matching arguments of @agg(). */
static const char *stat_values(struct builder *b, struct expr *(*agg)(struct builder *,
								    void *),
			       void *ctx, struct ptrvec *args)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < sizeof(stat_ops) / sizeof(stat_ops[0]); i++) {
		sb_addf(&sb, " @%s=%%#d", stat_ops[i]);
		vec_push(b->e->a, args, stat_op(b, stat_ops[i], agg(b, ctx)));
	}
	return sb_to_arena(&sb, b->e->a);
}

static struct expr *scalar_agg(struct builder *b, void *ctx)
{
	return sym(b, ctx);
}

struct elem {
	struct elab_var *g;
	struct elab_var **keys;
};

static struct expr *elem_agg(struct builder *b, void *ctx)
{
	struct elem *el = ctx;
	struct ptrvec idx = { 0 };
	int i;

	for (i = 0; i < el->g->arity; i++)
		vec_push(b->e->a, &idx, sym(b, el->keys[i]));
	return typed(ast_index(b->e->a, sym(b, el->g), &idx, b->loc), TYPE_STATS);
}

static struct stmt *show_scalar(struct builder *b, struct elab_var *g)
{
	struct arena *a = b->e->a;
	struct ptrvec args = { 0 };
	const char *vals;

	if (g->type == TYPE_STATS) {
		struct expr *cond = ast_binary(a, OP_EQ, stat_op(b, "count", sym(b, g)),
					       typed(ast_number(a, 0, b->loc), TYPE_LONG),
					       b->loc);

		vals = stat_values(b, scalar_agg, g, &args);
		return ast_if(a, typed(cond, TYPE_LONG),
			      printf_stmt(b, arena_printf(a, "%s @count=0x0\n", g->name),
					  NULL),
			      printf_stmt(b, arena_printf(a, "%s%s\n", g->name, vals),
					  &args), b->loc);
	}
	vec_push(a, &args, sym(b, g));
	return printf_stmt(b, arena_printf(a, g->type == TYPE_STRING ?
					   "%s=\"%%#s\"\n" : "%s=%%d\n", g->name),
			   &args);
}

static struct stmt *show_array(struct builder *b, struct elab_var *g)
{
	struct arena *a = b->e->a;
	struct foreach_stmt *fe = arena_new_obj(a, struct foreach_stmt);
	struct elem el = { g, arena_new_array(a, struct elab_var *, g->arity) };
	struct ptrvec args = { 0 };
	struct strbuf fmt = STRBUF_INIT;
	struct elab_var *val = NULL;
	struct stmt *s;
	int i;

	sb_addf(&fmt, "%s[", g->name);
	for (i = 0; i < g->arity; i++) {
		el.keys[i] = local(b, arena_printf(a, "__idx%d", i), g->idx[i]);
		vec_push(a, &fe->keys, sym(b, el.keys[i]));
		vec_push(a, &args, sym(b, el.keys[i]));
		sb_adds(&fmt, i ? "," : "");
		sb_adds(&fmt, g->idx[i] == TYPE_STRING ? "\"%#s\"" : "%#d");
	}
	sb_adds(&fmt, "]");
	fe->bracketed = true;
	fe->array = sym(b, g);
	fe->sort_key = -1;
	fe->sort_dir = -1;
	if (g->type == TYPE_STATS) {
		fe->sort_stat = intern(b->e->in, "count");
		sb_adds(&fmt, stat_values(b, elem_agg, &el, &args));
	} else {
		val = local(b, "__val", g->type);
		fe->value = sym(b, val);
		vec_push(a, &args, sym(b, val));
		sb_adds(&fmt, g->type == TYPE_STRING ? "=\"%#s\"" : "=%d");
	}
	sb_adds(&fmt, "\n");
	fe->body = printf_stmt(b, sb_to_arena(&fmt, a), &args);
	s = ast_stmt(a, STMT_FOREACH, b->loc);
	s->fe = fe;
	return s;
}

/* Globals in the order the reference displays them: by first reference,
 * probe bodies in order, then functions. */
struct first_refs {
	struct ast_visitor v;
	struct elab *e;
	struct ptrmap seen;
	struct ptrvec order;
};

static bool note_ref(struct ast_visitor *v, struct expr *x)
{
	struct first_refs *fr = (struct first_refs *)v;
	struct elab_var *g = ptrmap_get(&fr->e->out.var_of, x);

	if (g && g->scope == VAR_GLOBAL && !ptrmap_get(&fr->seen, g)) {
		ptrmap_put(fr->e->a, &fr->seen, g, g);
		vec_push(fr->e->a, &fr->order, g);
	}
	return true;
}

static void display_order(struct elab *e, struct ptrvec *out)
{
	struct first_refs fr = { { note_ref, NULL }, e, { 0 }, { 0 } };
	size_t i;

	for (i = 0; i < e->out.probes.n; i++) {
		struct elab_probe *p = e->out.probes.v[i];

		if (!p->elided)
			ast_walk_stmt(&fr.v, p->body);
	}
	for (i = 0; i < e->out.func_list.n; i++) {
		struct elab_func *f = e->out.func_list.v[i];

		if (f->used && f->decl->func.body)
			ast_walk_stmt(&fr.v, f->decl->func.body);
	}
	*out = fr.order;
}

void elab_global_display(struct elab *e)
{
	struct ptrvec order;
	size_t i;

	if (e->sess->no_global_display)
		return;
	display_order(e, &order);
	for (i = 0; i < order.n; i++) {
		struct elab_var *g = order.v[i];
		struct builder b = { e, g->loc, NULL };
		struct elab_point *pt;
		struct ptrvec stmts = { 0 };
		struct decl *d;

		if (g->tapset || g->elided || g->read || g->deleted || !g->written ||
		    g->type == TYPE_UNKNOWN || g->arity < 0)
			continue;
		d = ast_decl(e->a, DECL_PROBE, g->loc);
		b.p = arena_new_obj(e->a, struct elab_probe);
		b.p->decl = d;
		b.p->file = g->file;
		vec_push(e->a, &stmts, g->arity ? show_array(&b, g)
						: show_scalar(&b, g));
		b.p->body = ast_block(e->a, &stmts, g->loc);
		pt = arena_new_obj(e->a, struct elab_point);
		pt->name = "end";
		pt->listed = "end";
		pt->chain = " <- end";
		pm_set_end(e, pt);
		pt->loc = g->loc;
		vec_push(e->a, &b.p->points, pt);
		vec_push(e->a, &e->out.probes, b.p);
		g->read = true;
	}
}
