// SPDX-License-Identifier: GPL-2.0-or-later
/* optimize.c: pass 2's optimisations (off with -u): constant folding,
 * dead-branch removal, elision of dead stores to locals and of
 * side-effect-free statements (with the reference's warnings), empty
 * probes, and variables nothing refers to any more. */
#include "elaborate/elab.h"
#include "elaborate/probes/points.h"

#include <string.h>

#include "parse/ast_walk.h"
#include "util/arena.h"
#include "util/diag.h"

struct octx {
	struct elab *e;
	bool changed;
	struct elab_func *fn;		/* the function being optimised, or NULL */
	struct ptrmap fpure;		/* elab_func -> &fn_pure / &fn_impure / &fn_busy */
	struct ptrmap live;		/* elab_var -> non-NULL: read this round */
};

static const char fn_pure, fn_impure, fn_busy;

static bool pure(struct octx *o, const struct expr *x);
static bool pure_call(struct octx *o, struct elab_func *f);

/* The library's own elisions are not the user's concern. */
static void warn(struct octx *o, const struct srcloc *loc, const char *tok,
		 const char *msg)
{
	if (loc->src && loc->src->library)
		return;
	diag_report(o->e->d, DIAG_WARNING, loc, tok, "%s", msg);
}

/* Can evaluating @x change anything or fail in a way that matters? */
static bool pure(struct octx *o, const struct expr *x)
{
	size_t i;

	if (!x)
		return true;
	switch (x->kind) {
	case EXPR_NUMBER:
	case EXPR_STRING:
	case EXPR_SYMBOL:
	case EXPR_WILDCARD:
	case EXPR_TARGET:
	case EXPR_PROBEWRITE:
	case EXPR_DEFINED:
		return true;
	case EXPR_INDEX:
		for (i = 0; i < x->index.idx.n; i++)
			if (!pure(o, x->index.idx.v[i]))
				return false;
		return x->index.base->kind == EXPR_SYMBOL;
	case EXPR_IN:
		for (i = 0; i < x->in.idx.n; i++)
			if (!pure(o, x->in.idx.v[i]))
				return false;
		return x->in.array->kind == EXPR_SYMBOL;
	case EXPR_BINARY:
		return pure(o, x->bin.l) && pure(o, x->bin.r);
	case EXPR_UNARY:
		return pure(o, x->un.e);
	case EXPR_TERNARY:
		return pure(o, x->tern.c) && pure(o, x->tern.t) && pure(o, x->tern.f);
	case EXPR_STAT:
		return x->stat.args.n == 1 && pure(o, x->stat.args.v[0]);
	case EXPR_CALL:
		for (i = 0; i < x->call.args.n; i++)
			if (!pure(o, x->call.args.v[i]))
				return false;
		return pure_call(o, ptrmap_get(&o->e->out.func_of, x));
	case EXPR_PRINT:
		if (!x->print.pk->to_string)
			return false;
		for (i = 0; i < x->print.args.n; i++)
			if (!pure(o, x->print.args.v[i]))
				return false;
		return true;
	case EXPR_CAST:
	case EXPR_ATVAR:
		/* left unlowered: it did not resolve (targets.c defer()) */
		return x->kind == EXPR_ATVAR || pure(o, x->cast.operand);
	case EXPR_ASSIGN:
	case EXPR_CREMENT:
	case EXPR_DEREF:
	case EXPR_ENTRY:
	case EXPR_HIST:
	case EXPR_ATOP:
	case EXPR_EMBEDDED:
		return false;
	}
	return false;
}

/* ---- functions without effects ---- */

struct effects {
	struct ast_visitor v;
	struct octx *o;
	bool found;
};

/* Does writing @x (a symbol, or an index of one) touch a global? */
static bool global_target(struct octx *o, const struct expr *x)
{
	struct elab_var *v;

	if (x && x->kind == EXPR_INDEX)
		x = x->index.base;
	v = x ? ptrmap_get(&o->e->out.var_of, x) : NULL;
	return !v || v->scope == VAR_GLOBAL;
}

static bool effect_expr(struct ast_visitor *v, struct expr *x)
{
	struct effects *ef = (struct effects *)v;

	if (x->kind == EXPR_ASSIGN)
		ef->found |= global_target(ef->o, x->bin.l);
	else if (x->kind == EXPR_CREMENT)
		ef->found |= global_target(ef->o, x->un.e);
	else if (x->kind == EXPR_PRINT)
		ef->found |= !x->print.pk->to_string;
	else if (x->kind == EXPR_CALL)
		ef->found |= !pure_call(ef->o, ptrmap_get(&ef->o->e->out.func_of, x));
	else if (x->kind == EXPR_EMBEDDED || x->kind == EXPR_PROBEWRITE)
		ef->found = true;
	return !ef->found;
}

static bool effect_stmt(struct ast_visitor *v, struct stmt *s)
{
	struct effects *ef = (struct effects *)v;

	if (s->kind == STMT_NEXT ||
	    (s->kind == STMT_DELETE && global_target(ef->o, s->expr)))
		ef->found = true;
	return !ef->found;
}

/* Can a call of @f be dropped when its value is not used? Embedded C says
 * so with the reference's mark, a comment saying "pure"; a script
 * function when its body writes no global, prints nothing and calls only
 * such functions (a recursive one is taken as impure). */
static bool pure_call(struct octx *o, struct elab_func *f)
{
	const void *state;
	struct effects ef = { { effect_expr, effect_stmt }, o, false };

	if (!f || !f->decl)
		return false;
	state = ptrmap_get(&o->fpure, f);
	if (state)
		return state == &fn_pure;
	if (f->decl->func.code) {
		state = strstr(f->decl->func.code, "/* pure */") ? &fn_pure : &fn_impure;
	} else if (!f->decl->func.body) {
		/* a body written after pass 2 (the @entry setters) */
		state = &fn_impure;
	} else {
		ptrmap_put(o->e->a, &o->fpure, f, (void *)&fn_busy);
		ast_walk_stmt(&ef.v, f->decl->func.body);
		state = ef.found ? &fn_impure : &fn_pure;
	}
	ptrmap_put(o->e->a, &o->fpure, f, (void *)state);
	return state == &fn_pure;
}

static struct expr *number(struct octx *o, int64_t v, const struct expr *at)
{
	struct expr *n = ast_number(o->e->a, v, at->loc);

	n->type = TYPE_LONG;
	o->changed = true;
	return n;
}

static bool fold_binary(enum op op, uint64_t l, uint64_t r, int64_t *out)
{
	int64_t sl = (int64_t)l, sr = (int64_t)r;

	switch ((int)op) {	/* only the binary operators fold */
	case OP_ADD: *out = (int64_t)(l + r); return true;
	case OP_SUB: *out = (int64_t)(l - r); return true;
	case OP_MUL: *out = (int64_t)(l * r); return true;
	case OP_DIV:
	case OP_MOD:
		if (!sr || (sl == INT64_MIN && sr == -1))
			return false;	/* a run-time error stays */
		*out = op == OP_DIV ? sl / sr : sl % sr;
		return true;
	case OP_SHL: *out = (int64_t)(l << (r & 63)); return true;
	case OP_SHR: *out = sl >> (r & 63); return true;
	case OP_USHR: *out = (int64_t)(l >> (r & 63)); return true;
	case OP_BAND: *out = (int64_t)(l & r); return true;
	case OP_BOR: *out = (int64_t)(l | r); return true;
	case OP_BXOR: *out = (int64_t)(l ^ r); return true;
	case OP_LAND: *out = sl && sr; return true;
	case OP_LOR: *out = sl || sr; return true;
	case OP_LT: *out = sl < sr; return true;
	case OP_GT: *out = sl > sr; return true;
	case OP_LE: *out = sl <= sr; return true;
	case OP_GE: *out = sl >= sr; return true;
	case OP_EQ: *out = sl == sr; return true;
	case OP_NE: *out = sl != sr; return true;
	default:
		return false;
	}
}

static struct expr *fold(struct octx *o, struct expr *x);

static void fold_list(struct octx *o, struct ptrvec *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		l->v[i] = fold(o, l->v[i]);
}

static struct expr *fold(struct octx *o, struct expr *x)
{
	int64_t v;

	if (!x)
		return NULL;
	switch (x->kind) {
	case EXPR_BINARY:
		x->bin.l = fold(o, x->bin.l);
		x->bin.r = fold(o, x->bin.r);
		if (x->bin.l->kind == EXPR_NUMBER && x->bin.r->kind == EXPR_NUMBER &&
		    fold_binary(x->bin.op, (uint64_t)x->bin.l->num,
				(uint64_t)x->bin.r->num, &v))
			return number(o, v, x);
		if (x->bin.l->kind == EXPR_NUMBER &&
		    ((x->bin.op == OP_LAND && !x->bin.l->num) ||
		     (x->bin.op == OP_LOR && x->bin.l->num)))
			return number(o, x->bin.op == OP_LOR, x);
		if (x->bin.op == OP_CONCAT && x->bin.l->kind == EXPR_STRING &&
		    x->bin.r->kind == EXPR_STRING) {
			size_t n = x->bin.l->str.len + x->bin.r->str.len;
			char *s = arena_alloc(o->e->a, n + 1);
			struct expr *r;

			memcpy(s, x->bin.l->str.s, x->bin.l->str.len);
			memcpy(s + x->bin.l->str.len, x->bin.r->str.s,
			       x->bin.r->str.len);
			r = ast_string(o->e->a, s, n, x->loc);
			r->type = TYPE_STRING;
			o->changed = true;
			return r;
		}
		return x;
	case EXPR_UNARY:
		x->un.e = fold(o, x->un.e);
		if (x->un.e->kind != EXPR_NUMBER)
			return x;
		v = x->un.e->num;
		if (x->un.op == OP_NEG)
			return number(o, (int64_t)(0 - (uint64_t)v), x);
		if (x->un.op == OP_PLUS)
			return number(o, v, x);
		if (x->un.op == OP_NOT)
			return number(o, !v, x);
		if (x->un.op == OP_BNOT)
			return number(o, ~v, x);
		return x;
	case EXPR_TERNARY:
		x->tern.c = fold(o, x->tern.c);
		x->tern.t = fold(o, x->tern.t);
		x->tern.f = fold(o, x->tern.f);
		if (x->tern.c->kind == EXPR_NUMBER) {
			o->changed = true;
			return x->tern.c->num ? x->tern.t : x->tern.f;
		}
		return x;
	case EXPR_ASSIGN:
		x->bin.r = fold(o, x->bin.r);
		return x;
	case EXPR_INDEX:
		fold_list(o, &x->index.idx);
		return x;
	case EXPR_CALL:
		fold_list(o, &x->call.args);
		return x;
	case EXPR_PRINT:
		fold_list(o, &x->print.args);
		return x;
	case EXPR_IN:
		fold_list(o, &x->in.idx);
		return x;
	case EXPR_STAT:
		fold_list(o, &x->stat.args);
		return x;
	case EXPR_HIST:
		fold_list(o, &x->hist.params);
		return x;
	case EXPR_ATOP:
		fold_list(o, &x->atop.args);
		return x;
	case EXPR_NUMBER:
	case EXPR_STRING:
	case EXPR_SYMBOL:
	case EXPR_WILDCARD:
	case EXPR_CREMENT:
	case EXPR_TARGET:
	case EXPR_CAST:
	case EXPR_ATVAR:
	case EXPR_DEREF:
	case EXPR_ENTRY:
	case EXPR_DEFINED:
	case EXPR_PROBEWRITE:
	case EXPR_EMBEDDED:
		return x;
	}
	return x;
}

static struct stmt *null_stmt(struct octx *o, const struct stmt *at)
{
	o->changed = true;
	return ast_stmt(o->e->a, STMT_NULL, at->loc);
}

/* Is @x an assignment to a local nothing reads? */
static struct elab_var *dead_store(struct octx *o, const struct expr *x)
{
	struct elab_var *v;

	if (x->kind != EXPR_ASSIGN || x->bin.op == OP_STATS_ADD ||
	    x->bin.l->kind != EXPR_SYMBOL)
		return NULL;
	v = ptrmap_get(&o->e->out.var_of, x->bin.l);
	if (!v || v->scope == VAR_GLOBAL || (v->read && ptrmap_get(&o->live, v)))
		return NULL;
	return v;
}

/* ---- which locals are still read ---- */

struct liveness {
	struct ast_visitor v;
	struct octx *o;
};

static bool live_expr(struct ast_visitor *v, struct expr *x)
{
	struct liveness *lv = (struct liveness *)v;
	struct elab_var *var;

	/* The left side of a plain store is written, not read (a compound
	 * one, x /= y, reads it: its operation stays, faults and all). */
	if (x->kind == EXPR_ASSIGN && x->bin.op == OP_ASSIGN &&
	    x->bin.l->kind == EXPR_SYMBOL) {
		ast_walk_expr(v, x->bin.r);
		return false;
	}
	var = ptrmap_get(&lv->o->e->out.var_of, x);
	if (var && var->scope != VAR_GLOBAL)
		ptrmap_put(lv->o->e->a, &lv->o->live, var, var);
	return true;
}

/* A perf .counter probe: its body never runs, its event is what counts
 * (@perf reads it), so an empty one stays. */
static bool perf_counter_probe(const struct elab_probe *p)
{
	size_t i;

	for (i = 0; i < p->points.n; i++) {
		const struct elab_point *pt = p->points.v[i];

		if (pt->family && pt->family->mech == MECH_perf && perf_point(pt)->counter)
			return true;
	}
	return false;
}

/* A local whose every read went with an elided expression is dead too:
 * the reads are counted again before each round. */
static void count_live(struct octx *o)
{
	struct liveness lv = { { live_expr, NULL }, o };
	size_t i;

	o->live = (struct ptrmap){ 0 };
	for (i = 0; i < o->e->out.probes.n; i++)
		ast_walk_stmt(&lv.v, ((struct elab_probe *)o->e->out.probes.v[i])->body);
	for (i = 0; i < o->e->out.func_list.n; i++) {
		struct elab_func *f = o->e->out.func_list.v[i];

		if (f->used && f->decl->func.body)
			ast_walk_stmt(&lv.v, f->decl->func.body);
	}
}

static struct stmt *opt_stmt(struct octx *o, struct stmt *s)
{
	size_t i;

	if (!s)
		return NULL;
	switch (s->kind) {
	case STMT_BLOCK:
		for (i = 0; i < s->stmts.n; i++)
			s->stmts.v[i] = opt_stmt(o, s->stmts.v[i]);
		return s;
	case STMT_EXPR: {
		struct elab_var *v;

		s->expr = fold(o, s->expr);
		v = dead_store(o, s->expr);
		if (v) {
			warn(o, &s->expr->loc, "operator '='",
			     arena_printf(o->e->a, "Eliding assignment to '%s'",
					  v->name));
			s->expr = s->expr->bin.r;
			o->changed = true;
		}
		if (pure(o, s->expr)) {
			warn(o, &s->expr->loc, elab_token(o->e, s->expr),
			     "Eliding side-effect-free expression");
			return null_stmt(o, s);
		}
		return s;
	}
	case STMT_IF:
		s->if_.cond = fold(o, s->if_.cond);
		if (s->if_.cond->kind == EXPR_NUMBER) {
			/* The dead branch goes without a word about its insides. */
			struct stmt *r = s->if_.cond->num ? s->if_.then : s->if_.els;
			struct stmt *dead = s->if_.cond->num ? s->if_.els : s->if_.then;

			/* Kept aside: types still come from it (see types.c). */
			if (dead) {
				vec_push(o->e->a, &o->e->dead_code, dead);
				vec_push(o->e->a, &o->e->dead_code, o->fn);
			}
			o->changed = true;
			return r ? opt_stmt(o, r) : null_stmt(o, s);
		}
		s->if_.then = opt_stmt(o, s->if_.then);
		s->if_.els = opt_stmt(o, s->if_.els);
		return s;
	case STMT_WHILE:
	case STMT_FOR:
		s->loop.init = fold(o, s->loop.init);
		s->loop.cond = fold(o, s->loop.cond);
		s->loop.incr = fold(o, s->loop.incr);
		if (s->loop.cond && s->loop.cond->kind == EXPR_NUMBER &&
		    !s->loop.cond->num) {
			if (s->loop.init && !pure(o, s->loop.init))
				return ast_stmt_expr(o->e->a, STMT_EXPR,
						     s->loop.init, s->loc);
			return null_stmt(o, s);
		}
		s->loop.body = opt_stmt(o, s->loop.body);
		return s;
	case STMT_FOREACH:
		s->fe->limit = fold(o, s->fe->limit);
		s->fe->body = opt_stmt(o, s->fe->body);
		return s;
	case STMT_TRY:
		s->try_.body = opt_stmt(o, s->try_.body);
		s->try_.handler = opt_stmt(o, s->try_.handler);
		return s;
	case STMT_RETURN:
		s->expr = fold(o, s->expr);
		return s;
	case STMT_NULL:
	case STMT_BREAK:
	case STMT_CONTINUE:
	case STMT_NEXT:
	case STMT_DELETE:
		return s;
	}
	return s;
}

/* Does @s do nothing (empty blocks and null statements only)? */
bool empty_stmt(const struct stmt *s)
{
	size_t i;

	if (!s || s->kind == STMT_NULL)
		return true;
	if (s->kind != STMT_BLOCK)
		return false;
	for (i = 0; i < s->stmts.n; i++)
		if (!empty_stmt(s->stmts.v[i]))
			return false;
	return true;
}

/* ---- references after elision ---- */

struct refcount {
	struct ast_visitor v;
	struct elab *e;
	struct ptrmap *seen;	/* elab_var, elab_func -> non-NULL */
	struct ptrvec todo;	/* functions reached, bodies not yet walked */
};

/* @f is reached, with every overload of its name and arity. */
static void reach(struct refcount *rc, struct elab_func *f)
{
	struct ptrvec *v = ptrmap_get(&rc->e->out.funcs, f->name);
	struct elab_func *first = f->first ? f->first : f;
	size_t i;

	for (i = 0; v && i < v->n; i++) {
		struct elab_func *o = v->v[i];

		if ((o == first || o->first == first) && !ptrmap_get(rc->seen, o)) {
			ptrmap_put(rc->e->a, rc->seen, o, o);
			vec_push(rc->e->a, &rc->todo, o);
		}
	}
}

static bool count_expr(struct ast_visitor *v, struct expr *x)
{
	struct refcount *rc = (struct refcount *)v;
	struct elab_var *var;
	struct elab_func *f;

	var = ptrmap_get(&rc->e->out.var_of, x);
	if (var)
		ptrmap_put(rc->e->a, rc->seen, var, var);
	if (x->kind == EXPR_CALL) {
		f = ptrmap_get(&rc->e->out.func_of, x);
		if (f && !ptrmap_get(rc->seen, f))
			reach(rc, f);
	}
	return true;
}

static void prune_locals(struct ptrvec *locals, struct ptrmap *seen)
{
	size_t i, n = 0;

	for (i = 0; i < locals->n; i++) {
		struct elab_var *v = locals->v[i];

		if (v->scope == VAR_PARAM || ptrmap_get(seen, v))
			locals->v[n++] = v;
	}
	locals->n = n;
}

static void prune(struct elab *e)
{
	struct ptrmap seen = { 0 };
	struct refcount rc = { { count_expr, NULL }, e, &seen, { 0 } };
	size_t i, j;

	for (i = 0; i < e->out.probes.n; i++) {
		struct elab_probe *p = e->out.probes.v[i];

		if (p->elided)
			continue;
		ast_walk_stmt(&rc.v, p->body);
		for (j = 0; j < p->points.n; j++)
			ast_walk_expr(&rc.v, ((struct elab_point *)p->points.v[j])->cond);
	}
	/* Function bodies from a work list: call chains may be long. */
	for (i = 0; i < rc.todo.n; i++) {
		struct elab_func *f = rc.todo.v[i];

		if (f->decl->func.body)
			ast_walk_stmt(&rc.v, f->decl->func.body);
	}
	for (i = 0; i < e->out.probes.n; i++)
		prune_locals(&((struct elab_probe *)e->out.probes.v[i])->locals, &seen);
	for (i = 0; i < e->out.func_list.n; i++) {
		struct elab_func *f = e->out.func_list.v[i];

		f->used = ptrmap_get(&seen, f) != NULL;
		prune_locals(&f->locals, &seen);
	}
	for (i = 0; i < e->out.global_list.n; i++) {
		struct elab_var *g = e->out.global_list.v[i];

		if (ptrmap_get(&seen, g) || g->g_type != TYPE_UNKNOWN)
			continue;
		g->elided = true;
		/* The library's unused globals go silently. */
		if (!g->tapset)
			diag_report(e->d, DIAG_WARNING, &g->loc,
				    arena_printf(e->a, "identifier '%s'", g->name),
				    "Eliding unused variable '%s'", g->name);
	}
}

void opt_run(struct elab *e)
{
	struct octx o = { .e = e };
	size_t i, live = 0;
	int rounds = 0;

	do {
		o.changed = false;
		count_live(&o);
		for (i = 0; i < e->out.probes.n; i++) {
			struct elab_probe *p = e->out.probes.v[i];

			o.fn = NULL;
			p->body = opt_stmt(&o, p->body);
		}
		for (i = 0; i < e->out.func_list.n; i++) {
			struct elab_func *f = e->out.func_list.v[i];

			o.fn = f;
			if (f->used && f->decl->func.body)
				f->decl->func.body = opt_stmt(&o, f->decl->func.body);
		}
	} while (o.changed && ++rounds < 10);
	for (i = 0; i < e->out.probes.n; i++) {
		struct elab_probe *p = e->out.probes.v[i];

		/* An empty procfs probe still makes its file readable or
		 * writable: it stays (the reference elides it and gets the
		 * file's mode wrong). */
		if (empty_stmt(p->body) && !p->procfs && !perf_counter_probe(p)) {
			struct elab_point *pt = p->points.v[0];

			p->elided = true;
			if (!p->file || !p->file->library)
				diag_report(e->d, DIAG_WARNING, &p->decl->loc,
					    "keyword 'probe'",
					    "Probe '%s' has been elided",
					    p->points.n ? pt->name : "?");
		} else {
			live++;
		}
	}
	prune(e);
	if (!live && !e->listing)
		diag_report(e->d, DIAG_SEMANTIC_ERROR, NULL, NULL,
			    "no probes found");
}
