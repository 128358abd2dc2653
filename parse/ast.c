// SPDX-License-Identifier: GPL-2.0-or-later
/* ast.c: node constructors and kind names. */
#include "parse/ast.h"

#include <inttypes.h>
#include <string.h>

#include "util/arena.h"

#define X_NAME(name, str) str,
static const char *const expr_names[] = { EXPR_KINDS(X_NAME) };
static const char *const stmt_names[] = { STMT_KINDS(X_NAME) };
static const char *const decl_names[] = { DECL_KINDS(X_NAME) };
static const char *const op_names[] = { OP_KINDS(X_NAME) };
#undef X_NAME

const char *expr_kind_name(enum expr_kind k)
{
	return expr_names[k];
}

const char *stmt_kind_name(enum stmt_kind k)
{
	return stmt_names[k];
}

const char *decl_kind_name(enum decl_kind k)
{
	return decl_names[k];
}

const char *op_spelling(enum op op)
{
	return op_names[op];
}

struct expr *ast_expr(struct arena *a, enum expr_kind kind, struct srcloc loc)
{
	struct expr *e = arena_new_obj(a, struct expr);

	e->kind = kind;
	e->loc = loc;
	return e;
}

struct expr *ast_number(struct arena *a, int64_t v, struct srcloc loc)
{
	struct expr *e = ast_expr(a, EXPR_NUMBER, loc);

	e->num = v;
	return e;
}

struct expr *ast_string(struct arena *a, const char *s, size_t len,
			struct srcloc loc)
{
	struct expr *e = ast_expr(a, EXPR_STRING, loc);

	e->str.s = s;
	e->str.len = len;
	return e;
}

struct expr *ast_symbol(struct arena *a, const char *name, struct srcloc loc)
{
	struct expr *e = ast_expr(a, EXPR_SYMBOL, loc);

	e->name = name;
	return e;
}

static unsigned deeper(const struct expr *a, const struct expr *b)
{
	unsigned da = a ? a->depth : 0, db = b ? b->depth : 0;

	return 1 + (da > db ? da : db);
}

struct expr *ast_binary(struct arena *a, enum op op, struct expr *l,
			struct expr *r, struct srcloc loc)
{
	struct expr *e = ast_expr(a, EXPR_BINARY, loc);

	e->depth = deeper(l, r);
	e->bin.op = op;
	e->bin.l = l;
	e->bin.r = r;
	return e;
}

struct expr *ast_assign(struct arena *a, enum op op, struct expr *l,
			struct expr *r, struct srcloc loc)
{
	struct expr *e = ast_binary(a, op, l, r, loc);

	e->kind = EXPR_ASSIGN;
	return e;
}

struct expr *ast_unary(struct arena *a, enum op op, struct expr *e,
		       struct srcloc loc)
{
	struct expr *u;

	if (op == OP_NEG && e->kind == EXPR_NUMBER) {
		/* Negate in unsigned arithmetic: -INT64_MIN wraps. */
		e->num = (int64_t)(0 - (uint64_t)e->num);
		e->loc = loc;
		return e;
	}
	u = ast_expr(a, EXPR_UNARY, loc);
	u->depth = deeper(e, NULL);
	u->un.op = op;
	u->un.e = e;
	return u;
}

struct expr *ast_crement(struct arena *a, enum op op, struct expr *e,
			 struct srcloc loc)
{
	struct expr *u = ast_expr(a, EXPR_CREMENT, loc);

	u->depth = deeper(e, NULL);
	u->un.op = op;
	u->un.e = e;
	return u;
}

struct expr *ast_ternary(struct arena *a, struct expr *c, struct expr *t,
			 struct expr *f, struct srcloc loc)
{
	struct expr *e = ast_expr(a, EXPR_TERNARY, loc);

	e->depth = deeper(t, f);
	if (c->depth >= e->depth)
		e->depth = c->depth + 1;
	e->tern.c = c;
	e->tern.t = t;
	e->tern.f = f;
	return e;
}

struct expr *ast_index(struct arena *a, struct expr *base,
		       struct ptrvec *idx, struct srcloc loc)
{
	struct expr *e = ast_expr(a, EXPR_INDEX, loc);

	e->index.base = base;
	e->index.idx = *idx;
	return e;
}

struct expr *ast_in(struct arena *a, struct ptrvec *idx, bool bracketed,
		    struct expr *array, struct srcloc loc)
{
	struct expr *e = ast_expr(a, EXPR_IN, loc);

	e->in.idx = *idx;
	e->in.bracketed = bracketed;
	e->in.array = array;
	return e;
}

struct expr *ast_target(struct arena *a, const char *name, struct srcloc loc)
{
	struct expr *e = ast_expr(a, EXPR_TARGET, loc);

	e->target.name = name;
	return e;
}

struct target_path *ast_target_path(struct expr *e)
{
	if (e->kind == EXPR_TARGET)
		return &e->target.path;
	if (e->kind == EXPR_CAST)
		return &e->cast.path;
	if (e->kind == EXPR_ATVAR)
		return &e->atvar.path;
	if (e->kind == EXPR_DEREF)
		return &e->deref.path;
	return NULL;
}

struct expr *ast_with_operand(struct arena *a, enum expr_kind kind,
			      struct expr *operand, struct srcloc loc)
{
	struct expr *e = ast_expr(a, kind, loc);

	e->operand = operand;
	return e;
}

struct expr *ast_hist(struct arena *a, enum hist_kind hk, struct expr *operand,
		      struct ptrvec *params, struct srcloc loc)
{
	struct expr *e = ast_expr(a, EXPR_HIST, loc);

	e->hist.hk = hk;
	e->hist.operand = operand;
	if (params)
		e->hist.params = *params;
	return e;
}

struct expr *ast_embedded(struct arena *a, const char *code, struct srcloc loc)
{
	struct expr *e = ast_expr(a, EXPR_EMBEDDED, loc);

	e->code = code;
	return e;
}

static const struct print_kind print_kinds[] = {
	{ "print", false, false, false, false },
	{ "println", false, false, true, false },
	{ "printf", true, false, false, false },
	{ "printd", false, true, false, false },
	{ "printdln", false, true, true, false },
	{ "sprint", false, false, false, true },
	{ "sprintln", false, false, true, true },
	{ "sprintf", true, false, false, true },
	{ "sprintd", false, true, false, true },
	{ "sprintdln", false, true, true, true },
};

const struct print_kind *ast_print_kind(const char *name)
{
	size_t i;

	if (name[0] != 'p' && name[0] != 's')
		return NULL;
	for (i = 0; i < sizeof(print_kinds) / sizeof(print_kinds[0]); i++)
		if (!strcmp(print_kinds[i].name, name))
			return &print_kinds[i];
	return NULL;
}

struct stmt *ast_stmt(struct arena *a, enum stmt_kind kind, struct srcloc loc)
{
	struct stmt *s = arena_new_obj(a, struct stmt);

	s->kind = kind;
	s->loc = loc;
	return s;
}

struct stmt *ast_stmt_expr(struct arena *a, enum stmt_kind kind,
			   struct expr *e, struct srcloc loc)
{
	struct stmt *s = ast_stmt(a, kind, loc);

	s->expr = e;
	return s;
}

struct stmt *ast_block(struct arena *a, struct ptrvec *stmts, struct srcloc loc)
{
	struct stmt *s = ast_stmt(a, STMT_BLOCK, loc);

	if (stmts)
		s->stmts = *stmts;
	return s;
}

struct stmt *ast_if(struct arena *a, struct expr *c, struct stmt *then,
		    struct stmt *els, struct srcloc loc)
{
	struct stmt *s = ast_stmt(a, STMT_IF, loc);

	s->if_.cond = c;
	s->if_.then = then;
	s->if_.els = els;
	return s;
}

struct stmt *ast_loop(struct arena *a, enum stmt_kind kind, struct expr *init,
		      struct expr *cond, struct expr *incr, struct stmt *body,
		      struct srcloc loc)
{
	struct stmt *s = ast_stmt(a, kind, loc);

	s->loop.init = init;
	s->loop.cond = cond;
	s->loop.incr = incr;
	s->loop.body = body;
	return s;
}

struct stmt *ast_try(struct arena *a, struct stmt *body, struct expr *var,
		     struct stmt *handler, struct srcloc loc)
{
	struct stmt *s = ast_stmt(a, STMT_TRY, loc);

	s->try_.body = body;
	s->try_.var = var;
	s->try_.handler = handler;
	return s;
}

struct decl *ast_decl(struct arena *a, enum decl_kind kind, struct srcloc loc)
{
	struct decl *d = arena_new_obj(a, struct decl);

	d->kind = kind;
	d->loc = loc;
	return d;
}

struct probe_point *ast_probe_point(struct arena *a, struct srcloc loc)
{
	struct probe_point *pp = arena_new_obj(a, struct probe_point);

	pp->loc = loc;
	return pp;
}

/* Message token for @x, as diagnostics name it. */
const char *ast_token(struct arena *a, const struct expr *x)
{
	switch (x->kind) {
	case EXPR_NUMBER:
		return arena_printf(a, "number '%" PRId64 "'", x->num);
	case EXPR_STRING:
		return arena_printf(a, "string '%.*s'", (int)x->str.len,
				    x->str.s);
	case EXPR_SYMBOL:
	case EXPR_PROBEWRITE:
		return arena_printf(a, "identifier '%s'", x->name);
	case EXPR_CALL:
		return arena_printf(a, "identifier '%s'", x->call.name);
	case EXPR_PRINT:
		return arena_printf(a, "identifier '%s'", x->print.pk->name);
	case EXPR_INDEX:
		return ast_token(a, x->index.base);
	case EXPR_TARGET:
		return arena_printf(a, "identifier '%s'", x->target.name);
	case EXPR_BINARY:
	case EXPR_ASSIGN:
		return arena_printf(a, "operator '%s'", op_spelling(x->bin.op));
	case EXPR_UNARY:
	case EXPR_CREMENT:
		return arena_printf(a, "operator '%s'", op_spelling(x->un.op));
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
		return arena_printf(a, "operator '@%s'", x->stat.op);
	case EXPR_HIST:
		return x->hist.hk == HIST_LOG ? "operator '@hist_log'"
					      : "operator '@hist_linear'";
	case EXPR_ATOP:
		return arena_printf(a, "operator '@%s'", x->atop.name);
	case EXPR_EMBEDDED:
		return "embedded-code";
	}
	return "token";
}
