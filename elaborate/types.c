// SPDX-License-Identifier: GPL-2.0-or-later
/* types.c: type inference to a fixed point over locals, globals, function
 * parameters and returns, array index and value types and statistics;
 * then one reporting walk for conflicts and types left unknown. */
#include "elaborate/elab.h"

#include <stdarg.h>
#include <string.h>

#include "elaborate/dwarf.h"
#include "elaborate/targets.h"
#include "session.h"
#include "util/arena.h"
#include "util/diag.h"
#include "util/format.h"
#include "util/similar.h"

struct tctx {
	struct elab *e;
	bool report;		/* the last walk: report conflicts */
	bool report_deferred;	/* report the target expressions that did
				 * not resolve and survived optimisation */
	bool changed;
	struct elab_func *fn;	/* NULL in probes */
	bool stmt_level;	/* the value of the expression is unused */
	bool lower;		/* lower `->` on values whose DWARF type is
				 * known (typed pointers) */
};

const char *type_name(enum stap_type t)
{
	if (t == TYPE_LONG)
		return "long";
	if (t == TYPE_STRING)
		return "string";
	if (t == TYPE_STATS)
		return "stats";
	return "unknown";
}

static void terr(struct tctx *t, const struct expr *x, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void terr(struct tctx *t, const struct expr *x, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (!t->report)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	diag_report(t->e->d, DIAG_SEMANTIC_ERROR, &x->loc, elab_token(t->e, x),
		    "%s", msg);
}

/* The second message of a conflict: where the first type came from. */
static void first_here(struct tctx *t, const struct srcloc *loc,
		       const char *name, int idx, enum stap_type ty)
{
	const char *tok;

	if (!t->report || !loc->src)
		return;
	tok = arena_printf(t->e->a, "identifier '%s'", name);
	if (idx < 0)
		diag_report(t->e->d, DIAG_SEMANTIC_ERROR, loc, tok,
			    "type was first inferred here (%s)", type_name(ty));
	else
		diag_report(t->e->d, DIAG_SEMANTIC_ERROR, loc, tok,
			    "type of index %d was first inferred here (%s)",
			    idx, type_name(ty));
}

/* Unify a slot of type *@slot (the value of @name, or its index @idx when
 * @idx >= 0; for functions the return or parameter @idx) with @ty found
 * at @x. */
static void unify(struct tctx *t, enum stap_type *slot, struct srcloc *slot_loc,
		  enum stap_type ty, const struct expr *x, const char *name,
		  int idx)
{
	if (ty == TYPE_UNKNOWN)
		return;
	if (*slot == TYPE_UNKNOWN) {
		*slot = ty;
		if (slot_loc)
			*slot_loc = x->loc;
		t->changed = true;
		return;
	}
	if (*slot == ty)
		return;
	if (idx < 0) {
		terr(t, x, "type mismatch (%s)", type_name(ty));
		if (slot_loc)
			first_here(t, slot_loc, name, -1, *slot);
	} else {
		terr(t, x, "index %d type mismatch (%s)", idx, type_name(ty));
		if (slot_loc)
			first_here(t, slot_loc, name, idx, *slot);
	}
}

/* Check that expression @x of type @got fits @want. */
static void expect(struct tctx *t, const struct expr *x, enum stap_type got,
		   enum stap_type want)
{
	if (got == TYPE_UNKNOWN || want == TYPE_UNKNOWN || got == want)
		return;
	terr(t, x, "type mismatch: expected %s but found %s", type_name(want),
	     type_name(got));
}

static enum stap_type infer(struct tctx *t, struct expr *x, enum stap_type want);
static void infer_stmt(struct tctx *t, struct stmt *s);

static struct elab_var *var_of(struct tctx *t, const struct expr *x)
{
	return ptrmap_get(&t->e->out.var_of, x);
}

/* ---- typed pointers: the DWARF types of values ----
 * A value read from a pointer ($file, @cast(p, "file")->f_path->dentry,
 * &...) keeps the type it points to, and so do the scalar variables
 * (locals and globals) it is assigned to and the functions that return
 * it, as in the reference: `t = $file; d = t->f_path->dentry;
 * d->d_name->name`. A variable or function given values of two types
 * keeps none; values without a type (numbers) do not count. Function
 * parameters and array elements keep none. Embedded-C functions say what
 * they return with pragma:cast:TYPE (task_current()). Tracked only when
 * the script has `->` on values (elab.derefs). */

static const struct dw_ptype *ptype_of(struct tctx *t, const struct expr *x)
{
	struct elab_var *v;
	struct elab_func *f;

	if (x->kind == EXPR_SYMBOL) {
		v = var_of(t, x);
		return v && !v->ptype_mixed && v->arity <= 0 ? v->ptype : NULL;
	}
	if (x->kind == EXPR_CALL) {
		f = ptrmap_get(&t->e->out.func_of, x);
		if (!f || f->ret_ptype_mixed)
			return NULL;
		if (!f->ret_ptype && f->decl->func.code)
			return tgt_pragma_ptype(t->e, f);
		return f->ret_ptype;
	}
	if (x->kind == EXPR_ASSIGN && x->bin.op == OP_ASSIGN)
		return ptype_of(t, x->bin.r);
	return NULL;
}

/* A value of type @p (or of none) stored in a slot of type *@slot. */
static void note_ptype(struct tctx *t, const struct dw_ptype **slot, bool *mixed,
		       const struct dw_ptype *p)
{
	if (!p || *mixed)
		return;
	if (!*slot) {
		*slot = p;
		t->changed = true;
	} else if (!dw_ptype_same(t->e, *slot, p)) {
		*mixed = true;
		t->changed = true;
	}
}

/* `->` on a value, or the assignment @x to one (@d): lowered once its
 * operand's type is known (in the lowering walk), else unknown. */
static enum stap_type infer_deref(struct tctx *t, struct expr *x, struct expr *d)
{
	const struct tgt_error *err = tgt_deferred(t->e, d);
	const struct dw_ptype *p;
	size_t i;

	expect(t, d->deref.operand, infer(t, d->deref.operand, TYPE_LONG), TYPE_LONG);
	for (i = 0; i < d->deref.path.comps.n; i++) {
		struct target_comp *tc = d->deref.path.comps.v[i];

		if (tc->is_index)
			expect(t, tc->index, infer(t, tc->index, TYPE_LONG), TYPE_LONG);
	}
	if (x != d)
		infer(t, x->bin.r, TYPE_UNKNOWN);
	if (err) {
		if (t->report_deferred)
			diag_report(t->e->d, DIAG_SEMANTIC_ERROR, &err->loc, err->tok,
				    "%s", err->msg);
		return TYPE_UNKNOWN;
	}
	p = ptype_of(t, d->deref.operand);
	if (t->lower && p && tgt_autocast(t->e, x, p)) {
		t->changed = true;
		return infer(t, x, TYPE_UNKNOWN);
	}
	if (t->report_deferred)	/* before the unknown types it causes */
		diag_report(t->e->d, DIAG_SEMANTIC_ERROR, &d->loc, elab_token(t->e, d),
			    "unknown type in dereference");
	return TYPE_UNKNOWN;
}

/* --skip-badvars: context variable @x did not resolve and survived
 * optimisation; it becomes a literal 0 ("" for a $$ variable or a pretty
 * $x$), with a warning (the reason at -v). */
static enum stap_type skip_badvar(struct tctx *t, struct expr *x)
{
	const struct tgt_error *d = tgt_deferred(t->e, x);
	bool str = x->target.name[1] == '$' || x->target.path.pretty;

	/* as the reference: the first one, the others counted (all of
	 * them, with the reason, at -v) */
	if (!t->e->badvar_warned || t->e->sess->verbose[1])
		diag_report(t->e->d, DIAG_WARNING, &x->loc, elab_token(t->e, x),
			    "Bad $context variable being substituted with literal %s%s%s",
			    str ? "\"\"" : "0", t->e->sess->verbose[1] ? ": " : "",
			    t->e->sess->verbose[1] ? d->msg : "");
	else if (!t->e->d->no_warnings)
		t->e->d->similar_warnings++;
	t->e->badvar_warned = true;
	if (str) {
		x->kind = EXPR_STRING;
		x->str.s = "";
		x->str.len = 0;
	} else {
		x->kind = EXPR_NUMBER;
		x->num = 0;
	}
	t->changed = true;
	return infer(t, x, TYPE_UNKNOWN);
}

static void set_arity(struct tctx *t, struct elab_var *v, int n,
		      const struct expr *x)
{
	if (v->sized && n == 0) {
		terr(t, x, "inconsistent arity: '%s' is declared as an array",
		     v->name);
		return;
	}
	if (n > ELAB_MAX_INDEX) {
		terr(t, x, "too many indexes (at most %d)", ELAB_MAX_INDEX);
		return;
	}
	if (v->arity < 0) {
		v->arity = n;
		v->arity_loc = x->loc;
		t->changed = true;
	} else if (v->arity != n) {
		terr(t, x, "inconsistent arity (%d vs %d)", v->arity, n);
		if (t->report && v->arity_loc.src)
			diag_report(t->e->d, DIAG_SEMANTIC_ERROR, &v->arity_loc,
				    arena_printf(t->e->a, "identifier '%s'", v->name),
				    "arity %d first inferred here", v->arity);
	}
}

/* The keys @idx of array @v (wildcards allowed where @wild). */
static void infer_keys(struct tctx *t, struct elab_var *v, struct ptrvec *idx,
		       const struct expr *at)
{
	size_t i;

	set_arity(t, v, (int)idx->n, at);
	for (i = 0; i < idx->n && i < ELAB_MAX_INDEX; i++) {
		struct expr *k = idx->v[i];
		enum stap_type kt;

		if (k->kind == EXPR_WILDCARD)
			continue;
		kt = infer(t, k, v->idx[i]);
		if (kt == TYPE_STATS) {
			terr(t, k, "an aggregate cannot be an array index");
			continue;
		}
		unify(t, &v->idx[i], &v->idx_loc[i], kt, k, v->name, (int)i);
	}
	if (idx->n > ELAB_MAX_INDEX)
		terr(t, at, "too many indexes (at most %d)", ELAB_MAX_INDEX);
}

/* A variable read or written as a whole value (not as an aggregate). */
static enum stap_type var_value(struct tctx *t, struct elab_var *v,
				struct expr *x, enum stap_type want)
{
	if (v->type == TYPE_STATS) {
		terr(t, x, "aggregate '%s' used as a value; use @count, @sum, "
			   "@min, @max, @avg, @variance or a histogram", v->name);
		return TYPE_UNKNOWN;
	}
	if (want == TYPE_STATS)
		want = TYPE_UNKNOWN;
	unify(t, &v->type, &v->type_loc, want, x, v->name, -1);
	return v->type;
}

static enum stap_type infer_print(struct tctx *t, struct expr *x)
{
	const struct print_kind *pk = x->print.pk;
	struct fmt_spec *spec = x->print.spec;
	size_t i, arg = 0;

	if (x->print.fmt)
		infer(t, x->print.fmt, TYPE_STRING);
	if (pk->format && spec) {
		if (spec->nargs != x->print.args.n)
			terr(t, x, "Wrong number of args to formatted print "
				   "operator (the format wants %u, %zu given)",
			     spec->nargs, x->print.args.n);
		for (i = 0; i < spec->n; i++) {
			const struct fmt_piece *p = &spec->pieces[i];
			struct expr *a;
			enum stap_type want;

			if (p->conv == FMT_LITERAL)
				continue;
			if (p->width == FMT_STAR && arg < x->print.args.n) {
				a = x->print.args.v[arg++];
				expect(t, a, infer(t, a, TYPE_LONG), TYPE_LONG);
			}
			if (p->precision == FMT_STAR && arg < x->print.args.n) {
				a = x->print.args.v[arg++];
				expect(t, a, infer(t, a, TYPE_LONG), TYPE_LONG);
			}
			if (arg >= x->print.args.n)
				break;
			a = x->print.args.v[arg++];
			want = fmt_conv_takes_string(p->conv) ? TYPE_STRING
							      : TYPE_LONG;
			expect(t, a, infer(t, a, want), want);
		}
		for (; arg < x->print.args.n; arg++)
			infer(t, x->print.args.v[arg], TYPE_UNKNOWN);
	} else {
		for (i = 0; i < x->print.args.n; i++) {
			struct expr *a = x->print.args.v[i];
			enum stap_type at = infer(t, a, TYPE_UNKNOWN);

			if (at == TYPE_STATS && a->kind != EXPR_HIST)
				terr(t, a, "an aggregate cannot be printed; "
					   "print a histogram or an @-operator");
			if (pk->delim && !i && x->print.fmt == NULL)
				expect(t, a, at, TYPE_STRING);
		}
	}
	return pk->to_string ? TYPE_STRING : TYPE_LONG;
}

static enum stap_type infer_call(struct tctx *t, struct expr *x,
				 enum stap_type want)
{
	struct elab_func *f = ptrmap_get(&t->e->out.func_of, x);
	bool used = !t->stmt_level;
	size_t i;

	t->stmt_level = false;
	/* A function returning nothing may still be an operand of a long
	 * context (`c && exit()`), as in the reference. */
	if (f && used && f->ret == TYPE_UNKNOWN && want == TYPE_UNKNOWN &&
	    t->report)
		terr(t, x, "unresolved type");

	if (!f) {
		for (i = 0; i < x->call.args.n; i++)
			infer(t, x->call.args.v[i], TYPE_UNKNOWN);
		return TYPE_UNKNOWN;
	}
	for (i = 0; i < x->call.args.n; i++) {
		struct expr *a = x->call.args.v[i];
		struct elab_var *p = f->params[i];
		enum stap_type at = infer(t, a, p->type);

		if (at == TYPE_STATS) {
			terr(t, a, "an aggregate cannot be passed to a function");
			continue;
		}
		unify(t, &p->type, &p->type_loc, at, a, p->name, (int)i);
	}
	return f->ret;
}

/* The operand of @count() and friends, or of a histogram: a statistic. */
static void infer_stat_operand(struct tctx *t, struct expr *o)
{
	if (o->kind == EXPR_SYMBOL) {
		struct elab_var *v = var_of(t, o);

		if (!v)
			return;
		if (v->scope != VAR_GLOBAL) {
			terr(t, o, "stat locals not supported, missing global "
				   "declaration?");
			return;
		}
		set_arity(t, v, 0, o);
		unify(t, &v->type, &v->type_loc, TYPE_STATS, o, v->name, -1);
		o->type = TYPE_STATS;
	} else if (o->kind == EXPR_INDEX && o->index.base->kind == EXPR_SYMBOL) {
		struct elab_var *v = var_of(t, o->index.base);

		if (!v)
			return;
		infer_keys(t, v, &o->index.idx, o);
		unify(t, &v->type, &v->type_loc, TYPE_STATS, o, v->name, -1);
		o->type = TYPE_STATS;
	} else {
		terr(t, o, "expected an aggregate (a variable or array element "
			   "filled with '<<<')");
	}
}

static bool same_params(const struct expr *a, const struct expr *b)
{
	size_t i;

	if (!a || a->hist.params.n != b->hist.params.n)
		return a == NULL;
	for (i = 0; i < a->hist.params.n; i++) {
		const struct expr *x = a->hist.params.v[i], *y = b->hist.params.v[i];

		if (x->kind != EXPR_NUMBER || y->kind != EXPR_NUMBER ||
		    x->num != y->num)
			return false;
	}
	return true;
}

static void note_hist(struct tctx *t, struct expr *x)
{
	struct expr *o = x->hist.operand;
	struct expr *b = o->kind == EXPR_INDEX ? o->index.base : o;
	struct elab_var *v = b->kind == EXPR_SYMBOL ? var_of(t, b) : NULL;

	if (!v)
		return;
	if (v->hist < 0) {
		v->hist = (int)x->hist.hk;
		v->hist_loc = x->loc;
		v->hist_expr = x;
	} else if (v->hist != (int)x->hist.hk || !same_params(v->hist_expr, x)) {
		terr(t, x, "multiple histogram types declared on '%s'", v->name);
	}
}

static enum stap_type infer_binary(struct tctx *t, struct expr *x,
				   enum stap_type want)
{
	enum op op = x->bin.op;
	enum stap_type l, r;

	(void)want;
	if (op == OP_CONCAT) {
		expect(t, x->bin.l, infer(t, x->bin.l, TYPE_STRING), TYPE_STRING);
		expect(t, x->bin.r, infer(t, x->bin.r, TYPE_STRING), TYPE_STRING);
		return TYPE_STRING;
	}
	if (op == OP_MATCH || op == OP_NOMATCH) {
		expect(t, x->bin.l, infer(t, x->bin.l, TYPE_STRING), TYPE_STRING);
		expect(t, x->bin.r, infer(t, x->bin.r, TYPE_STRING), TYPE_STRING);
		if (x->bin.r->kind != EXPR_STRING)
			terr(t, x->bin.r, "a regular expression must be a "
					  "string literal");
		return TYPE_LONG;
	}
	if (op == OP_LT || op == OP_GT || op == OP_LE || op == OP_GE ||
	    op == OP_EQ || op == OP_NE) {
		l = infer(t, x->bin.l, TYPE_UNKNOWN);
		r = infer(t, x->bin.r, l);
		if (l == TYPE_UNKNOWN && r != TYPE_UNKNOWN)
			l = infer(t, x->bin.l, r);
		if (l == TYPE_STATS || r == TYPE_STATS)
			terr(t, x, "aggregates cannot be compared");
		else if (l != TYPE_UNKNOWN && r != TYPE_UNKNOWN && l != r)
			terr(t, x, "type mismatch: comparing %s with %s",
			     type_name(l), type_name(r));
		return TYPE_LONG;
	}
	expect(t, x->bin.l, infer(t, x->bin.l, TYPE_LONG), TYPE_LONG);
	expect(t, x->bin.r, infer(t, x->bin.r, TYPE_LONG), TYPE_LONG);
	return TYPE_LONG;
}

/* The type an lvalue holds; @val the assigned value's type. */
static enum stap_type infer_lvalue(struct tctx *t, struct expr *l,
				   enum stap_type val)
{
	struct elab_var *v;

	if (l->kind == EXPR_SYMBOL) {
		v = var_of(t, l);
		if (!v)
			return TYPE_UNKNOWN;
		set_arity(t, v, 0, l);
		return var_value(t, v, l, val);
	}
	if (l->kind == EXPR_INDEX && l->index.base->kind == EXPR_SYMBOL) {
		v = var_of(t, l->index.base);
		if (!v)
			return TYPE_UNKNOWN;
		infer_keys(t, v, &l->index.idx, l);
		return var_value(t, v, l, val);
	}
	return infer(t, l, val);
}

static enum stap_type infer_assign(struct tctx *t, struct expr *x)
{
	enum op op = x->bin.op;
	struct expr *l = x->bin.l;
	enum stap_type lt, rt;

	if (op == OP_STATS_ADD) {
		expect(t, x->bin.r, infer(t, x->bin.r, TYPE_LONG), TYPE_LONG);
		infer_stat_operand(t, l);
		return TYPE_LONG;
	}
	if (op == OP_CAT_ASSIGN) {
		expect(t, x->bin.r, infer(t, x->bin.r, TYPE_STRING), TYPE_STRING);
		expect(t, l, infer_lvalue(t, l, TYPE_STRING), TYPE_STRING);
		return TYPE_STRING;
	}
	if (op != OP_ASSIGN) {
		expect(t, x->bin.r, infer(t, x->bin.r, TYPE_LONG), TYPE_LONG);
		expect(t, l, infer_lvalue(t, l, TYPE_LONG), TYPE_LONG);
		return TYPE_LONG;
	}
	if (l->kind == EXPR_DEREF)
		return infer_deref(t, x, l);
	if (t->e->derefs && l->kind == EXPR_SYMBOL && var_of(t, l)) {
		struct elab_var *v = var_of(t, l);

		note_ptype(t, &v->ptype, &v->ptype_mixed, ptype_of(t, x->bin.r));
	}
	lt = infer_lvalue(t, l, TYPE_UNKNOWN);
	rt = infer(t, x->bin.r, lt);
	if (rt == TYPE_STATS) {
		terr(t, x->bin.r, "an aggregate cannot be assigned; use '<<<'");
		return TYPE_UNKNOWN;
	}
	if (lt == TYPE_UNKNOWN)
		lt = infer_lvalue(t, l, rt);
	else if (rt != TYPE_UNKNOWN && rt != lt)
		terr(t, x, "type mismatch: assigning %s to %s", type_name(rt),
		     type_name(lt));
	return lt;
}

static enum stap_type infer_in(struct tctx *t, struct expr *x)
{
	struct expr *a = x->in.array;
	struct elab_var *v;
	size_t i;

	if (a->kind == EXPR_HIST) {
		infer(t, a, TYPE_UNKNOWN);
		for (i = 0; i < x->in.idx.n; i++)
			if (((struct expr *)x->in.idx.v[i])->kind != EXPR_WILDCARD)
				infer(t, x->in.idx.v[i], TYPE_LONG);
		return TYPE_LONG;
	}
	v = var_of(t, a);
	if (v)
		infer_keys(t, v, &x->in.idx, x);
	return TYPE_LONG;
}

static enum stap_type infer_expr(struct tctx *t, struct expr *x,
				 enum stap_type want)
{
	struct elab_var *v;
	size_t i;

	switch (x->kind) {
	case EXPR_NUMBER:
	case EXPR_PROBEWRITE:
	case EXPR_DEFINED:
		return TYPE_LONG;
	case EXPR_STRING:
		return TYPE_STRING;
	case EXPR_EMBEDDED:
		return strstr(x->code, "/* string */") ? TYPE_STRING : TYPE_LONG;
	case EXPR_WILDCARD:
		return TYPE_UNKNOWN;
	case EXPR_SYMBOL:
		v = var_of(t, x);
		if (!v)
			return TYPE_UNKNOWN;
		set_arity(t, v, 0, x);
		if (v->type == TYPE_STATS)
			return TYPE_STATS;
		return var_value(t, v, x, want);
	case EXPR_INDEX:
		if (x->index.base->kind == EXPR_HIST) {
			infer(t, x->index.base, TYPE_UNKNOWN);
			for (i = 0; i < x->index.idx.n; i++)
				expect(t, x->index.idx.v[i],
				       infer(t, x->index.idx.v[i], TYPE_LONG),
				       TYPE_LONG);
			return TYPE_LONG;
		}
		v = var_of(t, x->index.base);
		if (!v)
			return TYPE_UNKNOWN;
		infer_keys(t, v, &x->index.idx, x);
		if (v->type == TYPE_STATS)
			return TYPE_STATS;
		return var_value(t, v, x, want);
	case EXPR_CALL:
		return infer_call(t, x, want);
	case EXPR_PRINT:
		return infer_print(t, x);
	case EXPR_BINARY:
		return infer_binary(t, x, want);
	case EXPR_ASSIGN:
		return infer_assign(t, x);
	case EXPR_UNARY:
	case EXPR_CREMENT:
		expect(t, x->un.e, x->kind == EXPR_CREMENT ?
		       infer_lvalue(t, x->un.e, TYPE_LONG) :
		       infer(t, x->un.e, TYPE_LONG), TYPE_LONG);
		return TYPE_LONG;
	case EXPR_TERNARY: {
		enum stap_type a, b;

		expect(t, x->tern.c, infer(t, x->tern.c, TYPE_LONG), TYPE_LONG);
		a = infer(t, x->tern.t, want);
		b = infer(t, x->tern.f, a != TYPE_UNKNOWN ? a : want);
		if (a == TYPE_UNKNOWN && b != TYPE_UNKNOWN)
			a = infer(t, x->tern.t, b);
		if (a != TYPE_UNKNOWN && b != TYPE_UNKNOWN && a != b)
			terr(t, x, "type mismatch: the branches of '?:' are %s "
				   "and %s", type_name(a), type_name(b));
		return a != TYPE_UNKNOWN ? a : b;
	}
	case EXPR_IN:
		return infer_in(t, x);
	case EXPR_TARGET:
	case EXPR_CAST:
	case EXPR_ATVAR:
		if (x->kind == EXPR_TARGET && t->e->sess->skip_badvars &&
		    tgt_deferred(t->e, x))
			return skip_badvar(t, x);
		if (tgt_deferred(t->e, x)) {
			/* it did not resolve, and it survived optimisation */
			const struct tgt_error *d = tgt_deferred(t->e, x);

			if (t->report_deferred)
				diag_report(t->e->d, DIAG_SEMANTIC_ERROR, &d->loc,
					    d->tok, "%s", d->msg);
			return TYPE_UNKNOWN;
		}
		if (x->kind == EXPR_TARGET)
			return TYPE_STRING;	/* only procfs' $value gets here */
		return TYPE_UNKNOWN;
	case EXPR_DEREF:
		return infer_deref(t, x, x);
	case EXPR_ENTRY:
		return TYPE_UNKNOWN;	/* rejected by symbols.c */
	case EXPR_STAT:
		if (x->stat.args.n)
			infer_stat_operand(t, x->stat.args.v[0]);
		for (i = 1; i < x->stat.args.n; i++)
			expect(t, x->stat.args.v[i],
			       infer(t, x->stat.args.v[i], TYPE_LONG), TYPE_LONG);
		return TYPE_LONG;
	case EXPR_HIST:
		infer_stat_operand(t, x->hist.operand);
		note_hist(t, x);
		for (i = 0; i < x->hist.params.n; i++)
			expect(t, x->hist.params.v[i],
			       infer(t, x->hist.params.v[i], TYPE_LONG), TYPE_LONG);
		return TYPE_STATS;
	case EXPR_ATOP:
		for (i = 0; i < x->atop.args.n; i++)
			infer(t, x->atop.args.v[i], TYPE_UNKNOWN);
		return TYPE_LONG;
	}
	return TYPE_UNKNOWN;
}

static enum stap_type infer(struct tctx *t, struct expr *x, enum stap_type want)
{
	enum stap_type ty;

	if (!x)
		return TYPE_UNKNOWN;
	if (x->kind != EXPR_CALL)
		t->stmt_level = false;
	ty = infer_expr(t, x, want);
	if (ty != x->type && ty != TYPE_UNKNOWN) {
		x->type = ty;
		t->changed = true;
	}
	return x->type;
}

static void infer_foreach(struct tctx *t, struct foreach_stmt *fe)
{
	struct expr *a = fe->array;
	struct elab_var *v = NULL;
	size_t i;

	if (a->kind == EXPR_HIST) {
		infer(t, a, TYPE_UNKNOWN);
		for (i = 0; i < fe->keys.n; i++)
			infer_lvalue(t, fe->keys.v[i], TYPE_LONG);
		if (fe->value)
			infer_lvalue(t, fe->value, TYPE_LONG);
	} else {
		if (a->kind == EXPR_INDEX) {
			v = var_of(t, a->index.base);
			if (v)
				infer_keys(t, v, &a->index.idx, a);
		} else {
			v = var_of(t, a);
			if (v)
				set_arity(t, v, (int)fe->keys.n, a);
		}
		if (v && a->kind == EXPR_INDEX && fe->keys.n != a->index.idx.n)
			terr(t, a, "foreach has %zu keys but the slice has %zu "
				   "indexes", fe->keys.n, a->index.idx.n);
		for (i = 0; v && i < fe->keys.n && i < ELAB_MAX_INDEX; i++) {
			struct expr *k = fe->keys.v[i];
			enum stap_type kt = infer_lvalue(t, k, v->idx[i]);

			unify(t, &v->idx[i], &v->idx_loc[i], kt, k, v->name, (int)i);
		}
		if (v && fe->value) {
			enum stap_type vt = v->type == TYPE_STATS ? TYPE_LONG
								  : v->type;

			vt = infer_lvalue(t, fe->value, vt);
			if (v->type != TYPE_STATS)
				unify(t, &v->type, &v->type_loc, vt, fe->value,
				      v->name, -1);
		}
	}
	if (fe->limit)
		expect(t, fe->limit, infer(t, fe->limit, TYPE_LONG), TYPE_LONG);
	infer_stmt(t, fe->body);
}

static void infer_stmt(struct tctx *t, struct stmt *s)
{
	size_t i;

	if (!s)
		return;
	switch (s->kind) {
	case STMT_BLOCK:
		for (i = 0; i < s->stmts.n; i++)
			infer_stmt(t, s->stmts.v[i]);
		break;
	case STMT_NULL:
	case STMT_BREAK:
	case STMT_CONTINUE:
	case STMT_NEXT:
		break;
	case STMT_EXPR:
		t->stmt_level = true;
		if (infer(t, s->expr, TYPE_UNKNOWN) == TYPE_STATS &&
		    s->expr->kind != EXPR_ASSIGN)
			terr(t, s->expr, "an aggregate is not a value");
		break;
	case STMT_RETURN:
		if (!t->fn || !s->expr)
			break;
		{
			struct elab_func *f = t->fn;
			enum stap_type rt = infer(t, s->expr, f->ret);

			if (t->e->derefs)
				note_ptype(t, &f->ret_ptype, &f->ret_ptype_mixed,
					   ptype_of(t, s->expr));
			if (rt == TYPE_STATS) {
				terr(t, s->expr, "an aggregate cannot be returned");
				break;
			}
			if (f->ret != TYPE_UNKNOWN && rt != TYPE_UNKNOWN &&
			    f->ret != rt) {
				terr(t, s->expr, "type mismatch: function '%s' "
						 "returns %s, not %s", f->name,
				     type_name(f->ret), type_name(rt));
				first_here(t, &f->ret_loc, f->name, -1, f->ret);
			} else if (f->ret == TYPE_UNKNOWN && rt != TYPE_UNKNOWN) {
				f->ret = rt;
				f->ret_loc = s->expr->loc;
				t->changed = true;
			}
		}
		break;
	case STMT_DELETE:
		if (s->expr->kind == EXPR_INDEX) {
			struct elab_var *v = var_of(t, s->expr->index.base);

			if (v)
				infer_keys(t, v, &s->expr->index.idx, s->expr);
		}
		break;
	case STMT_IF:
		expect(t, s->if_.cond, infer(t, s->if_.cond, TYPE_LONG), TYPE_LONG);
		infer_stmt(t, s->if_.then);
		infer_stmt(t, s->if_.els);
		break;
	case STMT_WHILE:
	case STMT_FOR:
		infer(t, s->loop.init, TYPE_UNKNOWN);
		if (s->loop.cond)
			expect(t, s->loop.cond, infer(t, s->loop.cond, TYPE_LONG),
			       TYPE_LONG);
		infer(t, s->loop.incr, TYPE_UNKNOWN);
		infer_stmt(t, s->loop.body);
		break;
	case STMT_FOREACH:
		infer_foreach(t, s->fe);
		break;
	case STMT_TRY:
		infer_stmt(t, s->try_.body);
		if (s->try_.var)
			infer_lvalue(t, s->try_.var, TYPE_STRING);
		infer_stmt(t, s->try_.handler);
		break;
	}
}

/* Overloads of one name and arity share the first one's signature. */
static void unify_overloads(struct tctx *t)
{
	struct elab *e = t->e;
	size_t i;
	int j;

	for (i = 0; i < e->out.func_list.n; i++) {
		struct elab_func *f = e->out.func_list.v[i], *o = f->first;
		struct expr at = { .kind = EXPR_CALL };

		if (f->ret_as) {	/* an @entry getter and its setter */
			at.loc = f->decl->loc;
			at.call.name = f->name;
			unify(t, &f->ret, &f->ret_loc, f->ret_as->type, &at, f->name, -1);
			unify(t, &f->ret_as->type, &f->ret_as->type_loc, f->ret, &at,
			      f->name, -1);
		}
		if (!o || !f->used)
			continue;
		at.loc = f->decl->loc;
		at.call.name = f->name;
		unify(t, &o->ret, &o->ret_loc, f->ret, &at, f->name, -1);
		unify(t, &f->ret, &f->ret_loc, o->ret, &at, f->name, -1);
		for (j = 0; j < f->arity; j++) {
			unify(t, &o->params[j]->type, &o->params[j]->type_loc,
			      f->params[j]->type, &at, f->name, j);
			unify(t, &f->params[j]->type, &f->params[j]->type_loc,
			      o->params[j]->type, &at, f->name, j);
		}
	}
}

static void walk_all(struct tctx *t)
{
	struct elab *e = t->e;
	size_t i, j;

	for (i = 0; i < e->out.probes.n; i++) {
		struct elab_probe *p = e->out.probes.v[i];

		if (p->elided)
			continue;
		t->fn = NULL;
		for (j = 0; j < p->points.n; j++) {
			struct elab_point *pt = p->points.v[j];

			if (pt->cond)
				expect(t, pt->cond, infer(t, pt->cond, TYPE_LONG),
				       TYPE_LONG);
		}
		infer_stmt(t, p->body);
	}
	for (i = 0; i < e->out.func_list.n; i++) {
		struct elab_func *f = e->out.func_list.v[i];

		if (!f->used || !f->decl->func.body)
			continue;
		t->fn = f;
		infer_stmt(t, f->decl->func.body);
	}
	unify_overloads(t);
}

/* @v is read but nothing assigns it: likely a typo of one of @locals or a
 * global, which the message suggests. */
static void never_assigned(struct tctx *t, struct elab_var *v,
			   const char *what, const struct ptrvec *locals)
{
	struct elab *e = t->e;
	struct ptrvec names = { 0 };
	size_t i;

	for (i = 0; locals && i < locals->n; i++)
		vec_push(e->a, &names, (void *)((struct elab_var *)locals->v[i])->name);
	for (i = 0; i < e->out.global_list.n; i++)
		vec_push(e->a, &names, (void *)((struct elab_var *)e->out.global_list.v[i])->name);
	diag_report(e->d, DIAG_WARNING, &v->loc,
		    arena_printf(e->a, "identifier '%s'", v->name),
		    "never-assigned %s variable '%s'%s", what, v->name,
		    similar_names(e->a, v->name, (const char *const *)names.v,
				  names.n));
}

static void check_unknown_var(struct tctx *t, struct elab_var *v,
			      const char *owner)
{
	struct elab *e = t->e;
	int i;

	/* An unknown argument leaves its parameters unknown: one message. */
	if (v->scope == VAR_PARAM && diag_errors(e->d))
		return;
	if (v->type == TYPE_UNKNOWN && v->g_type != TYPE_UNKNOWN && v->arity <= 0) {
		v->type = v->g_type;
		v->arity = 0;
	}
	if (v->type == TYPE_UNKNOWN && !v->elided)
		diag_report(e->d, DIAG_SEMANTIC_ERROR, &v->loc,
			    arena_printf(e->a, "identifier '%s'", v->name),
			    "unresolved type of %s '%s'", owner, v->name);
	for (i = 0; i < v->arity && i < ELAB_MAX_INDEX; i++)
		if (v->idx[i] == TYPE_UNKNOWN)
			diag_report(e->d, DIAG_SEMANTIC_ERROR, &v->loc,
				    arena_printf(e->a, "identifier '%s'", v->name),
				    "unresolved type of index %d of '%s'", i,
				    v->name);
}

void type_infer(struct elab *e)
{
	struct tctx t = { .e = e };
	size_t i, j;
	int rounds = 0;

	do {
		do {
			t.changed = false;
			walk_all(&t);
		} while (t.changed && ++rounds < 100000);	/* monotonic: ends */
		if (!e->derefs)
			break;
		/* `->` on values whose type is now known becomes getter
		 * calls, which may type more values (d = t->f_path->dentry) */
		t.lower = true;
		walk_all(&t);
		t.lower = false;
	} while (t.changed && ++rounds < 100000);
	/* As in the reference, code the optimiser removed (if (0) { ... })
	 * is not checked, but still gives types to variables that the live
	 * code leaves undetermined (global e; if (0) e[1] = 1; foreach ...). */
	if (e->dead_code.n) {
		do {
			t.changed = false;
			for (i = 0; i + 1 < e->dead_code.n; i += 2) {
				t.fn = e->dead_code.v[i + 1];
				infer_stmt(&t, e->dead_code.v[i]);
			}
			walk_all(&t);
		} while (t.changed && ++rounds < 100000);
	}
	/* Target expressions that did not resolve and are still there:
	 * their errors, without the unknown types that follow from them. */
	t.report_deferred = true;
	walk_all(&t);
	t.report_deferred = false;
	if (diag_errors(e->d))
		return;
	t.report = true;
	walk_all(&t);
	if (diag_errors(e->d))
		return;
	/* Read but never assigned: a warning (they read as 0 or ""). */
	for (i = 0; i < e->out.global_list.n; i++) {
		struct elab_var *v = e->out.global_list.v[i];

		if ((!v->read && !v->written && !v->deleted) || v->elided)
			continue;	/* unused: the optimiser elides it */
		if (v->arity < 0)
			v->arity = 0;
		if (!v->written && !v->deleted && !v->tapset)
			never_assigned(&t, v, "global", NULL);
		check_unknown_var(&t, v, "global");
	}
	for (i = 0; i < e->out.probes.n; i++) {
		struct elab_probe *p = e->out.probes.v[i];

		if (p->elided)
			continue;
		for (j = 0; j < p->locals.n; j++) {
			struct elab_var *v = p->locals.v[j];

			if (!v->written)
				never_assigned(&t, v, "local", &p->locals);
			check_unknown_var(&t, v, "local");
		}
	}
	for (i = 0; i < e->out.func_list.n; i++) {
		struct elab_func *f = e->out.func_list.v[i];

		if (!f->used)
			continue;
		for (j = 0; j < f->locals.n; j++) {
			struct elab_var *v = f->locals.v[j];

			if (!v->written && !f->tapset)
				never_assigned(&t, v, "local", &f->locals);
			check_unknown_var(&t, v, v->scope == VAR_PARAM ?
					  "parameter" : "local");
		}
		if (f->ret == TYPE_UNKNOWN && f->decl->func.body) {
			/* No value returned anywhere: a void function. */
		}
	}
}
