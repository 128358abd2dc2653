// SPDX-License-Identifier: GPL-2.0-or-later
/* ast_walk.c: generic pre-order walk and deep copy of syntax trees. */
#include "parse/ast_walk.h"

#include <string.h>

#include "util/arena.h"

static void walk_list(struct ast_visitor *v, const struct ptrvec *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		ast_walk_expr(v, l->v[i]);
}

static void walk_path(struct ast_visitor *v, const struct target_path *p)
{
	size_t i;

	for (i = 0; i < p->comps.n; i++) {
		const struct target_comp *c = p->comps.v[i];

		if (c->is_index)
			ast_walk_expr(v, c->index);
	}
}

void ast_walk_expr(struct ast_visitor *v, struct expr *e)
{
	if (!e || (v->expr && !v->expr(v, e)))
		return;
	switch (e->kind) {
	case EXPR_NUMBER:
	case EXPR_STRING:
	case EXPR_SYMBOL:
	case EXPR_WILDCARD:
	case EXPR_PROBEWRITE:
	case EXPR_EMBEDDED:
		break;
	case EXPR_INDEX:
		ast_walk_expr(v, e->index.base);
		walk_list(v, &e->index.idx);
		break;
	case EXPR_CALL:
		walk_list(v, &e->call.args);
		break;
	case EXPR_PRINT:
		ast_walk_expr(v, e->print.fmt);
		walk_list(v, &e->print.args);
		break;
	case EXPR_BINARY:
	case EXPR_ASSIGN:
		ast_walk_expr(v, e->bin.l);
		ast_walk_expr(v, e->bin.r);
		break;
	case EXPR_UNARY:
	case EXPR_CREMENT:
		ast_walk_expr(v, e->un.e);
		break;
	case EXPR_TERNARY:
		ast_walk_expr(v, e->tern.c);
		ast_walk_expr(v, e->tern.t);
		ast_walk_expr(v, e->tern.f);
		break;
	case EXPR_IN:
		walk_list(v, &e->in.idx);
		ast_walk_expr(v, e->in.array);
		break;
	case EXPR_TARGET:
		walk_path(v, &e->target.path);
		break;
	case EXPR_CAST:
		ast_walk_expr(v, e->cast.operand);
		walk_path(v, &e->cast.path);
		break;
	case EXPR_ATVAR:
		walk_path(v, &e->atvar.path);
		break;
	case EXPR_DEREF:
		ast_walk_expr(v, e->deref.operand);
		walk_path(v, &e->deref.path);
		break;
	case EXPR_ENTRY:
	case EXPR_DEFINED:
		ast_walk_expr(v, e->operand);
		break;
	case EXPR_STAT:
		walk_list(v, &e->stat.args);
		break;
	case EXPR_HIST:
		ast_walk_expr(v, e->hist.operand);
		walk_list(v, &e->hist.params);
		break;
	case EXPR_ATOP:
		walk_list(v, &e->atop.args);
		break;
	}
}

void ast_walk_stmt(struct ast_visitor *v, struct stmt *s)
{
	size_t i;

	if (!s || (v->stmt && !v->stmt(v, s)))
		return;
	switch (s->kind) {
	case STMT_BLOCK:
		for (i = 0; i < s->stmts.n; i++)
			ast_walk_stmt(v, s->stmts.v[i]);
		break;
	case STMT_NULL:
	case STMT_BREAK:
	case STMT_CONTINUE:
	case STMT_NEXT:
		break;
	case STMT_EXPR:
	case STMT_RETURN:
	case STMT_DELETE:
		ast_walk_expr(v, s->expr);
		break;
	case STMT_IF:
		ast_walk_expr(v, s->if_.cond);
		ast_walk_stmt(v, s->if_.then);
		ast_walk_stmt(v, s->if_.els);
		break;
	case STMT_WHILE:
	case STMT_FOR:
		ast_walk_expr(v, s->loop.init);
		ast_walk_expr(v, s->loop.cond);
		ast_walk_expr(v, s->loop.incr);
		ast_walk_stmt(v, s->loop.body);
		break;
	case STMT_FOREACH:
		walk_list(v, &s->fe->keys);
		ast_walk_expr(v, s->fe->value);
		ast_walk_expr(v, s->fe->array);
		ast_walk_expr(v, s->fe->limit);
		ast_walk_stmt(v, s->fe->body);
		break;
	case STMT_TRY:
		ast_walk_stmt(v, s->try_.body);
		ast_walk_expr(v, s->try_.var);
		ast_walk_stmt(v, s->try_.handler);
		break;
	}
}

/* ---- deep copies ---- */

static void clone_list(struct arena *a, struct ptrvec *dst,
		       const struct ptrvec *src)
{
	size_t i;

	memset(dst, 0, sizeof(*dst));
	for (i = 0; i < src->n; i++)
		vec_push(a, dst, ast_clone_expr(a, src->v[i]));
}

static void clone_path(struct arena *a, struct target_path *dst,
		       const struct target_path *src)
{
	size_t i;

	*dst = *src;
	memset(&dst->comps, 0, sizeof(dst->comps));
	for (i = 0; i < src->comps.n; i++) {
		const struct target_comp *c = src->comps.v[i];
		struct target_comp *n = arena_new_obj(a, struct target_comp);

		*n = *c;
		n->index = ast_clone_expr(a, c->index);
		vec_push(a, &dst->comps, n);
	}
}

struct expr *ast_clone_expr(struct arena *a, const struct expr *e)
{
	struct expr *n;

	if (!e)
		return NULL;
	n = arena_new_obj(a, struct expr);
	*n = *e;
	switch (e->kind) {
	case EXPR_NUMBER:
	case EXPR_STRING:
	case EXPR_SYMBOL:
	case EXPR_WILDCARD:
	case EXPR_PROBEWRITE:
	case EXPR_EMBEDDED:
		break;
	case EXPR_INDEX:
		n->index.base = ast_clone_expr(a, e->index.base);
		clone_list(a, &n->index.idx, &e->index.idx);
		break;
	case EXPR_CALL:
		clone_list(a, &n->call.args, &e->call.args);
		break;
	case EXPR_PRINT:
		n->print.fmt = ast_clone_expr(a, e->print.fmt);
		clone_list(a, &n->print.args, &e->print.args);
		break;
	case EXPR_BINARY:
	case EXPR_ASSIGN:
		n->bin.l = ast_clone_expr(a, e->bin.l);
		n->bin.r = ast_clone_expr(a, e->bin.r);
		break;
	case EXPR_UNARY:
	case EXPR_CREMENT:
		n->un.e = ast_clone_expr(a, e->un.e);
		break;
	case EXPR_TERNARY:
		n->tern.c = ast_clone_expr(a, e->tern.c);
		n->tern.t = ast_clone_expr(a, e->tern.t);
		n->tern.f = ast_clone_expr(a, e->tern.f);
		break;
	case EXPR_IN:
		clone_list(a, &n->in.idx, &e->in.idx);
		n->in.array = ast_clone_expr(a, e->in.array);
		break;
	case EXPR_TARGET:
		clone_path(a, &n->target.path, &e->target.path);
		break;
	case EXPR_CAST:
		n->cast.operand = ast_clone_expr(a, e->cast.operand);
		clone_path(a, &n->cast.path, &e->cast.path);
		break;
	case EXPR_ATVAR:
		clone_path(a, &n->atvar.path, &e->atvar.path);
		break;
	case EXPR_DEREF:
		n->deref.operand = ast_clone_expr(a, e->deref.operand);
		clone_path(a, &n->deref.path, &e->deref.path);
		break;
	case EXPR_ENTRY:
	case EXPR_DEFINED:
		n->operand = ast_clone_expr(a, e->operand);
		break;
	case EXPR_STAT:
		clone_list(a, &n->stat.args, &e->stat.args);
		break;
	case EXPR_HIST:
		n->hist.operand = ast_clone_expr(a, e->hist.operand);
		clone_list(a, &n->hist.params, &e->hist.params);
		break;
	case EXPR_ATOP:
		clone_list(a, &n->atop.args, &e->atop.args);
		break;
	}
	return n;
}

struct stmt *ast_clone_stmt(struct arena *a, const struct stmt *s)
{
	struct stmt *n;
	size_t i;

	if (!s)
		return NULL;
	n = arena_new_obj(a, struct stmt);
	*n = *s;
	switch (s->kind) {
	case STMT_BLOCK:
		memset(&n->stmts, 0, sizeof(n->stmts));
		for (i = 0; i < s->stmts.n; i++)
			vec_push(a, &n->stmts, ast_clone_stmt(a, s->stmts.v[i]));
		break;
	case STMT_NULL:
	case STMT_BREAK:
	case STMT_CONTINUE:
	case STMT_NEXT:
		break;
	case STMT_EXPR:
	case STMT_RETURN:
	case STMT_DELETE:
		n->expr = ast_clone_expr(a, s->expr);
		break;
	case STMT_IF:
		n->if_.cond = ast_clone_expr(a, s->if_.cond);
		n->if_.then = ast_clone_stmt(a, s->if_.then);
		n->if_.els = ast_clone_stmt(a, s->if_.els);
		break;
	case STMT_WHILE:
	case STMT_FOR:
		n->loop.init = ast_clone_expr(a, s->loop.init);
		n->loop.cond = ast_clone_expr(a, s->loop.cond);
		n->loop.incr = ast_clone_expr(a, s->loop.incr);
		n->loop.body = ast_clone_stmt(a, s->loop.body);
		break;
	case STMT_FOREACH:
		n->fe = arena_new_obj(a, struct foreach_stmt);
		*n->fe = *s->fe;
		clone_list(a, &n->fe->keys, &s->fe->keys);
		n->fe->value = ast_clone_expr(a, s->fe->value);
		n->fe->array = ast_clone_expr(a, s->fe->array);
		n->fe->limit = ast_clone_expr(a, s->fe->limit);
		n->fe->body = ast_clone_stmt(a, s->fe->body);
		break;
	case STMT_TRY:
		n->try_.body = ast_clone_stmt(a, s->try_.body);
		n->try_.var = ast_clone_expr(a, s->try_.var);
		n->try_.handler = ast_clone_stmt(a, s->try_.handler);
		break;
	}
	return n;
}
