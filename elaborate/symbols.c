// SPDX-License-Identifier: GPL-2.0-or-later
/* symbols.c: name resolution: locals of each probe and function body,
 * globals, functions by name and arity, with the tapset library searched on
 * demand; the structural rules of pass 2 (lvalues, arrays are global,
 * break/continue inside loops, ...). Target expressions met on the way
 * are handed to targets.c, which turns them into calls resolved here. */
#include "elaborate/elab.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "session.h"
#include "elaborate/targets.h"
#include "util/arena.h"
#include "util/diag.h"
#include "util/intern.h"
#include "util/similar.h"
#include "util/source.h"

struct scope {
	struct ptrvec *locals;		/* struct elab_var * */
	struct tgt_ctx tc;		/* the function (NULL in probes) and
					 * the probe (a function's: the probe
					 * of its clone, else NULL) */
	int loops;			/* enclosing loops */
	bool cond;			/* a probe condition: globals only */
	const struct expr *discarded;	/* the expression of the expression
					 * statement being resolved: its value
					 * is not used */
};

void sym_error(struct elab *e, const struct expr *x, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	diag_report(e->d, DIAG_SEMANTIC_ERROR, &x->loc, elab_token(e, x), "%s", msg);
}

/* ---- lookups ---- */

static bool visible(const struct source *owner, bool private_,
		    const struct source *from)
{
	return !private_ || owner == from;
}

static struct elab_var *find_global(struct elab *e, const char *name,
				    const struct source *file)
{
	struct ptrvec *v = ptrmap_get(&e->globals, name);
	size_t i;

	for (i = 0; v && i < v->n; i++) {
		struct elab_var *g = v->v[i];

		if (visible(g->file, g->decl && g->decl->private_, file))
			return g;
	}
	return NULL;
}

struct elab_var *sym_global(struct elab *e, const char *name,
			    const struct source *file)
{
	struct elab_var *g = find_global(e, name, file);

	if (!g && tapset_include_global(e, name))
		g = find_global(e, name, file);
	return g;
}

static struct elab_func *find_func(struct elab *e, const char *name, int arity,
				   const struct source *file, bool *other_arity)
{
	struct ptrvec *v = ptrmap_get(&e->out.funcs, name);
	size_t i;

	for (i = 0; v && i < v->n; i++) {
		struct elab_func *f = v->v[i];

		if (!visible(f->file, f->decl->private_, file))
			continue;
		if (f->arity == arity)
			return f;
		if (other_arity)
			*other_arity = true;
	}
	return NULL;
}

struct elab_func *sym_func(struct elab *e, const char *name, int arity,
			   const struct source *file)
{
	struct elab_func *f = find_func(e, name, arity, file, NULL);

	if (!f && tapset_include_function(e, name))
		f = find_func(e, name, arity, file, NULL);
	return f;
}

static struct elab_var *new_local(struct elab *e, struct scope *sc,
				  const char *name, const struct expr *x)
{
	struct elab_var *v = arena_new_obj(e->a, struct elab_var);

	v->name = name;
	v->scope = VAR_LOCAL;
	v->arity = 0;
	v->hist = -1;
	v->loc = x->loc;
	v->file = x->loc.src;
	vec_push(e->a, sc->locals, v);
	return v;
}

static struct elab_var *find_local(struct scope *sc, const char *name)
{
	size_t i;

	for (i = 0; i < sc->locals->n; i++) {
		struct elab_var *v = sc->locals->v[i];

		if (v->name == name)
			return v;
	}
	return NULL;
}

/* ---- the walk ---- */

static void res_expr(struct elab *e, struct scope *sc, struct expr *x);
static void res_stmt(struct elab *e, struct scope *sc, struct stmt *s);
static void res_call(struct elab *e, struct scope *sc, struct expr *x);

static void res_list(struct elab *e, struct scope *sc, struct ptrvec *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		res_expr(e, sc, l->v[i]);
}

/* An index list: '*' allowed when @wild. */
static void res_keys(struct elab *e, struct scope *sc, struct ptrvec *l,
		     bool wild)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		struct expr *k = l->v[i];

		if (k->kind == EXPR_WILDCARD && wild)
			continue;
		res_expr(e, sc, k);
	}
}

/* A scalar name: local, else a visible global, else a new local. */
static struct elab_var *res_scalar(struct elab *e, struct scope *sc,
				   struct expr *x)
{
	struct elab_var *v = find_local(sc, x->name);

	if (!v)
		v = sym_global(e, x->name, x->loc.src);
	if (!v && sc->cond) {
		sym_error(e, x, "probe condition must not reference undeclared global");
		return NULL;
	}
	if (!v)
		v = new_local(e, sc, x->name, x);
	ptrmap_put(e->a, &e->out.var_of, x, v);
	return v;
}

/* The array named by @x (an EXPR_SYMBOL) with @arity indexes. */
static struct elab_var *res_array(struct elab *e, struct scope *sc,
				  struct expr *x, int arity)
{
	struct elab_var *v;

	(void)sc;	/* a local of the same name does not hide a global array */

	v = sym_global(e, x->name, x->loc.src);
	if (!v) {
		sym_error(e, x, "unresolved arity-%d global array %s, missing global declaration?",
			  arity, x->name);
		return NULL;
	}
	ptrmap_put(e->a, &e->out.var_of, x, v);
	return v;
}

/* The base of an index, `in`, foreach or delete: a global array, or a
 * histogram of a statistic. */
static void res_array_base(struct elab *e, struct scope *sc, struct expr *b,
			   int arity)
{
	if (b->kind == EXPR_SYMBOL)
		res_array(e, sc, b, arity);
	else if (b->kind == EXPR_HIST)
		res_expr(e, sc, b);
	else
		sym_error(e, b, "expected an array");
}

static bool is_lvalue(const struct expr *x)
{
	if (x->kind == EXPR_SYMBOL || x->kind == EXPR_TARGET)
		return true;
	return x->kind == EXPR_INDEX && x->index.base->kind == EXPR_SYMBOL;
}

static void mark_written(struct elab *e, struct expr *x)
{
	struct expr *base = x->kind == EXPR_INDEX ? x->index.base : x;
	struct elab_var *v = ptrmap_get(&e->out.var_of, base);

	if (v)
		v->written = true;
}

/* @x, resolved as an lvalue, is also read by the compound assignment or
 * ++/-- @op: a local counts as read, and so does a global when @op's
 * value is used (`if (!done++)`); a global only updated by statements
 * (`n++`, `bytes += len`) is not, so that it is still displayed at the
 * end, as the reference does. */
static void mark_updated(struct elab *e, struct scope *sc, struct expr *x,
			 const struct expr *op)
{
	struct expr *base = x->kind == EXPR_INDEX ? x->index.base : x;
	struct elab_var *v = ptrmap_get(&e->out.var_of, base);

	if (v && (v->scope != VAR_GLOBAL || op != sc->discarded))
		v->read = true;
}

static void res_lvalue(struct elab *e, struct scope *sc, struct expr *x,
		       const char *what)
{
	if (!is_lvalue(x)) {
		sym_error(e, x, "Expecting lvalue for %s", what);
		res_expr(e, sc, x);
		return;
	}
	if (x->kind == EXPR_SYMBOL) {
		if (sc->cond) {
			sym_error(e, x, "probe condition cannot change a variable");
			return;
		}
		res_scalar(e, sc, x);
	} else if (x->kind == EXPR_INDEX) {
		res_array(e, sc, x->index.base, (int)x->index.idx.n);
		res_keys(e, sc, &x->index.idx, false);
	} else if (tgt_target(e, &sc->tc, x, true)) {
		res_call(e, sc, x);
	}
	mark_written(e, x);
}

/* Is @c an @defined(...) test (possibly negated), which pass 2 folds to a
 * constant? */
static bool defined_test(const struct expr *c)
{
	while (c && c->kind == EXPR_UNARY && c->un.op == OP_NOT)
		c = c->un.e;
	return c && c->kind == EXPR_DEFINED;
}

/* The value of such a test once resolved (the @defined became 0 or 1). */
static bool defined_value(const struct expr *c)
{
	bool neg = false;

	while (c->kind == EXPR_UNARY && c->un.op == OP_NOT) {
		neg = !neg;
		c = c->un.e;
	}
	return (c->kind == EXPR_NUMBER && c->num) != neg;
}

/* @f and the other overloads of its name and arity are needed. */
static void mark_used(struct elab *e, struct elab_func *f)
{
	struct ptrvec *v = ptrmap_get(&e->out.funcs, f->name);
	size_t i;

	for (i = 0; v && i < v->n; i++) {
		struct elab_func *o = v->v[i];

		if ((o == f || o->first == f || (f->first && o == f->first)) &&
		    !o->used) {
			o->used = true;
			vec_push(e->a, &e->pending, o);
		}
	}
}

/* " (similar: ...)" among the session's and the library's functions. */
static const char *similar_function(struct elab *e, const char *name)
{
	struct ptrvec names = { 0 };

	ptrmap_keys(e->a, &e->out.funcs, &names);
	tapset_function_names(e, &names);
	return similar_names(e->a, name, (const char *const *)names.v, names.n);
}

static void res_call(struct elab *e, struct scope *sc, struct expr *x)
{
	int arity = (int)x->call.args.n;
	bool other = false;
	struct elab_func *f;

	res_list(e, sc, &x->call.args);
	if (sc->cond) {
		sym_error(e, x, "probe condition must not reference function");
		return;
	}
	f = sym_func(e, x->call.name, arity, x->loc.src);
	if (!f) {
		find_func(e, x->call.name, arity, x->loc.src, &other);
		if (other)
			sym_error(e, x, "unresolved function call: no function '%s' "
					"takes %d argument%s", x->call.name, arity,
				  arity == 1 ? "" : "s");
		else
			sym_error(e, x, "unresolved function %s%s", x->call.name,
				  similar_function(e, x->call.name));
		return;
	}
	/* A library function marked guru-only (printk, the set_* writers)
	 * needs -g when a user script calls it. */
	if (!e->sess->guru && !(x->loc.src && x->loc.src->library) &&
	    f->decl->func.code && strstr(f->decl->func.code, "/* guru */")) {
		sym_error(e, x, "function may not be used unless -g is specified");
		return;
	}
	/* One that reads the system-call names (syscall_num) has them in
	 * the module also without system-call probes. */
	if (f->decl->func.code && strstr(f->decl->func.code, "/* syscall_names */"))
		elab_syscall_names(e);
	if (tgt_site(&sc->tc) && tgt_needs_site(e, f)) {
		f = tgt_clone(e, sc->tc.probe, f);
		if (!f)
			return;
		x->call.name = f->name;
	}
	ptrmap_put(e->a, &e->out.func_of, x, f);
	mark_used(e, f);
}

/* The index expressions of a target path (t->a[i]). */
static void res_path_indexes(struct elab *e, struct scope *sc,
			     struct target_path *p)
{
	size_t i;

	for (i = 0; i < p->comps.n; i++) {
		struct target_comp *tc = p->comps.v[i];

		if (tc->is_index)
			res_expr(e, sc, tc->index);
	}
}

static void res_expr(struct elab *e, struct scope *sc, struct expr *x)
{
	if (!x)
		return;
	switch (x->kind) {
	case EXPR_NUMBER:
	case EXPR_STRING:
	case EXPR_EMBEDDED:
		break;
	case EXPR_SYMBOL: {
		struct elab_var *v = res_scalar(e, sc, x);

		if (v)
			v->read = true;
		break;
	}
	case EXPR_WILDCARD:
		sym_error(e, x, "wildcard not allowed in array index (only in "
				"'in', 'delete' and 'foreach')");
		break;
	case EXPR_INDEX:
		if (x->index.base->kind == EXPR_SYMBOL) {
			struct elab_var *v = res_array(e, sc, x->index.base,
						       (int)x->index.idx.n);

			if (v)
				v->read = true;
		} else {
			res_expr(e, sc, x->index.base);
		}
		res_keys(e, sc, &x->index.idx, false);
		break;
	case EXPR_CALL:
		res_call(e, sc, x);
		break;
	case EXPR_PRINT:
		res_expr(e, sc, x->print.fmt);
		res_list(e, sc, &x->print.args);
		break;
	case EXPR_BINARY:
		res_expr(e, sc, x->bin.l);
		res_expr(e, sc, x->bin.r);
		break;
	case EXPR_ASSIGN:
		if (x->bin.l->kind == EXPR_DEREF) {	/* t->f_flags = v */
			if (x->bin.op != OP_ASSIGN)
				sym_error(e, x->bin.l, "only plain assignment ('=') can "
						       "write a target variable");
			else if (!(x->loc.src && x->loc.src->library) && !e->sess->guru)
				sym_error(e, x->bin.l, "write not permitted; need stap -g");
			res_expr(e, sc, x->bin.r);
			res_expr(e, sc, x->bin.l);
			break;
		}
		if (x->bin.l->kind == EXPR_TARGET &&
		    (tgt_site(&sc->tc) || tgt_ctx_probe(&sc->tc))) {
			if (tgt_assign(e, &sc->tc, x))
				res_call(e, sc, x);
			break;
		}
		res_expr(e, sc, x->bin.r);
		res_lvalue(e, sc, x->bin.l,
			   x->bin.op == OP_STATS_ADD ? "'<<<'" : "assignment");
		if (x->bin.op != OP_ASSIGN && is_lvalue(x->bin.l) &&
		    x->bin.op != OP_STATS_ADD && x->bin.l->kind != EXPR_TARGET)
			mark_updated(e, sc, x->bin.l, x);	/* read, then written */
		break;
	case EXPR_UNARY:
		if (x->un.op == OP_ADDR) {
			sym_error(e, x, "'&' applies only to $target variables and "
					"@cast/@var expressions");
			break;
		}
		res_expr(e, sc, x->un.e);
		break;
	case EXPR_CREMENT:
		res_lvalue(e, sc, x->un.e, "'++'/'--'");
		if (is_lvalue(x->un.e) && x->un.e->kind != EXPR_TARGET)
			mark_updated(e, sc, x->un.e, x);
		break;
	case EXPR_TERNARY:
		if (defined_test(x->tern.c)) {
			/* @defined(...) ? A : B: only the chosen one is resolved,
			 * so B may name what does not exist here */
			struct expr *keep;

			res_expr(e, sc, x->tern.c);
			keep = defined_value(x->tern.c) ? x->tern.t : x->tern.f;
			*x = *keep;	/* side tables are keyed by node: resolve x */
			res_expr(e, sc, x);
			break;
		}
		res_expr(e, sc, x->tern.c);
		res_expr(e, sc, x->tern.t);
		res_expr(e, sc, x->tern.f);
		break;
	case EXPR_IN: {
		struct elab_var *v;

		res_keys(e, sc, &x->in.idx, true);
		res_array_base(e, sc, x->in.array, (int)x->in.idx.n);
		/* a membership test reads the array (no automatic display) */
		v = ptrmap_get(&e->out.var_of, x->in.array);
		if (v)
			v->read = true;
		break;
	}
	case EXPR_TARGET:
		if (tgt_target(e, &sc->tc, x, false))
			res_expr(e, sc, x);	/* a call, or a @cast of one */
		break;
	case EXPR_ENTRY:
		if (tgt_entry(e, &sc->tc, x))
			res_call(e, sc, x);
		break;
	case EXPR_CAST:
		res_expr(e, sc, x->cast.operand);
		if (tgt_cast(e, &sc->tc, x))
			res_call(e, sc, x);
		break;
	case EXPR_ATVAR:
		if (tgt_atvar(e, &sc->tc, x))
			res_call(e, sc, x);
		break;
	case EXPR_DEREF:
		/* typed by the DWARF type of its operand, which type
		 * inference finds (types.c) */
		res_expr(e, sc, x->deref.operand);
		res_path_indexes(e, sc, &x->deref.path);
		e->derefs++;
		break;
	case EXPR_DEFINED:
		tgt_fold_defined(e, &sc->tc, x);
		break;
	case EXPR_PROBEWRITE: {
		struct elab_var *v = find_local(sc, x->name);

		if (!v)
			sym_error(e, x, "@probewrite of '%s', which is not a local of "
					"this probe", x->name);
		else
			ptrmap_put(e->a, &e->out.var_of, x, v);
		break;
	}
	case EXPR_STAT:
		if (x->stat.args.n) {
			struct expr *o = x->stat.args.v[0];

			if (o->kind == EXPR_SYMBOL) {
				struct elab_var *v = res_scalar(e, sc, o);

				if (v)
					v->read = true;
			} else {
				res_expr(e, sc, o);
			}
		}
		{
			size_t i;

			for (i = 1; i < x->stat.args.n; i++)
				res_expr(e, sc, x->stat.args.v[i]);
		}
		break;
	case EXPR_HIST:
		if (x->hist.operand->kind == EXPR_SYMBOL) {
			struct elab_var *v = res_scalar(e, sc, x->hist.operand);

			if (v)
				v->read = true;
		} else {
			res_expr(e, sc, x->hist.operand);
		}
		res_list(e, sc, &x->hist.params);
		{
			size_t i;

			for (i = 0; i < x->hist.params.n; i++)
				if (((struct expr *)x->hist.params.v[i])->kind !=
				    EXPR_NUMBER)
					sym_error(e, x->hist.params.v[i],
						  "@hist_linear bounds and bucket width "
						  "must be number literals");
		}
		break;
	case EXPR_ATOP:
		res_list(e, sc, &x->atop.args);
		break;
	}
}

static void res_stmt(struct elab *e, struct scope *sc, struct stmt *s)
{
	size_t i;

	if (!s)
		return;
	switch (s->kind) {
	case STMT_BLOCK:
		for (i = 0; i < s->stmts.n; i++)
			res_stmt(e, sc, s->stmts.v[i]);
		break;
	case STMT_NULL:
		break;
	case STMT_NEXT:
		if (sc->tc.fn)
			sc->tc.fn->has_next = true;
		break;
	case STMT_BREAK:
	case STMT_CONTINUE:
		if (!sc->loops)
			diag_report(e->d, DIAG_SEMANTIC_ERROR, &s->loc,
				    s->kind == STMT_BREAK ? "keyword 'break'"
							  : "keyword 'continue'",
				    "%s outside a loop",
				    s->kind == STMT_BREAK ? "break" : "continue");
		break;
	case STMT_EXPR:
		sc->discarded = s->expr;
		res_expr(e, sc, s->expr);
		sc->discarded = NULL;
		break;
	case STMT_RETURN:
		if (!sc->tc.fn)
			diag_report(e->d, DIAG_SEMANTIC_ERROR, &s->loc,
				    "keyword 'return'",
				    "return is only allowed in functions");
		res_expr(e, sc, s->expr);
		break;
	case STMT_DELETE: {
		struct expr *x = s->expr;

		if (x->kind == EXPR_SYMBOL) {
			struct elab_var *v = res_scalar(e, sc, x);

			if (v)
				v->deleted = true;
		} else if (x->kind == EXPR_INDEX &&
			   x->index.base->kind == EXPR_SYMBOL) {
			struct elab_var *v = res_array(e, sc, x->index.base,
						       (int)x->index.idx.n);

			res_keys(e, sc, &x->index.idx, true);
			if (v)
				v->deleted = true;
		} else {
			sym_error(e, x, "invalid operand of delete expression (a "
					"variable, an array or an array element)");
		}
		break;
	}
	case STMT_IF:
		if (defined_test(s->if_.cond)) {
			/* if (@defined(...)): the branch not taken is dropped */
			struct ptrvec none = { 0 };

			res_expr(e, sc, s->if_.cond);
			if (defined_value(s->if_.cond)) {
				s->if_.els = NULL;
				res_stmt(e, sc, s->if_.then);
			} else {
				s->if_.then = ast_block(e->a, &none, s->loc);
				res_stmt(e, sc, s->if_.els);
			}
			break;
		}
		res_expr(e, sc, s->if_.cond);
		res_stmt(e, sc, s->if_.then);
		res_stmt(e, sc, s->if_.els);
		break;
	case STMT_WHILE:
	case STMT_FOR:
		res_expr(e, sc, s->loop.init);
		res_expr(e, sc, s->loop.cond);
		res_expr(e, sc, s->loop.incr);
		sc->loops++;
		res_stmt(e, sc, s->loop.body);
		sc->loops--;
		break;
	case STMT_FOREACH: {
		struct foreach_stmt *fe = s->fe;
		struct expr *arr = fe->array;

		if (arr->kind == EXPR_INDEX) {
			res_array_base(e, sc, arr->index.base,
				       (int)arr->index.idx.n);
			res_keys(e, sc, &arr->index.idx, true);
		} else {
			res_array_base(e, sc, arr, (int)fe->keys.n);
		}
		if (arr->kind == EXPR_SYMBOL || arr->kind == EXPR_INDEX) {
			struct expr *b = arr->kind == EXPR_INDEX ? arr->index.base : arr;
			struct elab_var *v = ptrmap_get(&e->out.var_of, b);

			if (v)
				v->read = true;
		}
		for (i = 0; i < fe->keys.n; i++) {
			struct elab_var *v = res_scalar(e, sc, fe->keys.v[i]);

			if (v)
				v->written = true;
		}
		if (fe->value) {
			struct elab_var *v = res_scalar(e, sc, fe->value);

			if (v)
				v->written = true;
		}
		res_expr(e, sc, fe->limit);
		sc->loops++;
		res_stmt(e, sc, fe->body);
		sc->loops--;
		break;
	}
	case STMT_TRY:
		res_stmt(e, sc, s->try_.body);
		if (s->try_.var) {
			struct elab_var *v = res_scalar(e, sc, s->try_.var);

			if (v)
				v->written = true;
		}
		res_stmt(e, sc, s->try_.handler);
		break;
	}
}

void sym_resolve_probe(struct elab *e, struct elab_probe *p)
{
	struct scope sc = { .locals = &p->locals, .tc.probe = p };

	res_stmt(e, &sc, p->body);
}

static void resolve_func(struct elab *e, struct elab_func *f)
{
	struct scope sc = { .locals = &f->locals, .tc.fn = f, .tc.probe = f->site };

	f->resolved = true;
	if (f->decl->func.body)
		res_stmt(e, &sc, f->decl->func.body);
}

void sym_resolve_pending(struct elab *e)
{
	size_t i;

	for (i = 0; i < e->pending.n; i++) {
		struct elab_func *f = e->pending.v[i];

		if (!f->resolved)
			resolve_func(e, f);
	}
}

void sym_resolve_cond(struct elab *e, struct expr *cond)
{
	struct ptrvec none = { 0 };
	struct scope sc = { .locals = &none, .cond = true };

	res_expr(e, &sc, cond);
}
