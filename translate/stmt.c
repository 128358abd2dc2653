// SPDX-License-Identifier: GPL-2.0-or-later
/* stmt.c: statements. Each script statement (and each loop iteration)
 * spends one action of the MAXACTION budget; errors jump to the current
 * error label (the end of the body, or a try's catch). A comment quotes
 * each new script line. */
#include <string.h>

#include "translate/xl.h"
#include "util/arena.h"
#include "util/vec.h"

/* "FILE:LINE: text" of the line @s starts on, safe inside a comment. */
static void comment(struct xl *x, const struct stmt *s)
{
	const struct source *src = s->loc.src;
	const char *p, *end;
	char text[100];
	size_t n = 0;

	if (!src || !s->loc.line || s->loc.line > src->nlines)
		return;
	p = src->text + src->line_start[s->loc.line - 1];
	end = src->text + src->len;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	while (p < end && *p != '\n' && n < sizeof(text) - 4) {
		char ch = *p++;

		if ((ch == '*' && p < end && *p == '/') || (ch == '/' && p < end && *p == '*'))
			ch = '|';
		text[n++] = (ch >= 32 && ch < 127) ? ch : ' ';
	}
	if (p < end && *p != '\n')
		n += (size_t)snprintf(text + n, sizeof(text) - n, "...");
	text[n] = '\0';
	em(x, "/* %s:%u: %s */", src->name, s->loc.line, text);
}

static void action(struct xl *x, const struct stmt *s)
{
	em(x, "if (stp_action(c, %s))", xl_stmt_loc(x, s));
	em(x, "\tgoto %s;", x->err_label);
}

static void label(struct xl *x, const char *l)
{
	x->indent++;
	em_label(x, l);
	x->indent--;
}

/* A loop iteration costs an action but is not where MAXACTION is
 * reported (the reference names the statement inside); a body without
 * statements checks here, so no loop escapes the budget. */
static void iteration(struct xl *x, const struct stmt *s, const struct stmt *body)
{
	if (empty_stmt(body))
		action(x, s);
	else
		em(x, "c->actions--;");
}

static void loop_body(struct xl *x, struct stmt *body, const char *cont)
{
	const char *saved = x->cont_label;
	bool saved_in = x->in_loop;

	x->cont_label = cont;
	x->in_loop = true;
	xl_stmt(x, body);
	x->cont_label = saved;
	x->in_loop = saved_in;
}

static void s_while(struct xl *x, struct stmt *s)
{
	const char *cont = xl_new_label(x, "cont");

	em(x, "for (;;) {");
	iteration(x, s, s->loop.body);
	x->nstr = 0;
	if (s->loop.cond)
		em(x, "if (!%s)", xl_cond(x, s->loop.cond));
	if (s->loop.cond)
		em(x, "\tbreak;");
	loop_body(x, s->loop.body, cont);
	label(x, cont);
	if (s->kind == STMT_FOR && s->loop.incr) {
		x->nstr = 0;
		xl_expr_stmt(x, s->loop.incr);
	}
	em(x, "}");
}

static void s_for(struct xl *x, struct stmt *s)
{
	if (s->loop.init)
		xl_expr_stmt(x, s->loop.init);
	s_while(x, s);
}

static void s_foreach(struct xl *x, struct stmt *s)
{
	struct foreach_stmt *fe = s->fe;
	struct expr *base = fe->array->kind == EXPR_INDEX ? fe->array->index.base : fe->array;
	struct elab_var *arr = base->kind == EXPR_SYMBOL ? xl_var(x, base) : NULL;
	const char *m, *v, *n, *i, *cont = xl_new_label(x, "cont"), *lim = "0";
	const char *slice = NULL, *cnt = NULL;
	unsigned mask = 0, slot = 0;
	int sort_by = fe->sort_key;
	bool stats;
	size_t k;

	if (fe->array->kind == EXPR_INDEX && arr)
		slice = xl_slice_keys(x, base, &fe->array->index.idx, &mask);
	if (!arr || arr->scope != VAR_GLOBAL || arr->arity < 1) {
		xl_error(x, &fe->array->loc, ast_token(x->a, fe->array),
			 "translation of foreach over this operand is not yet supported");
		return;
	}
	stats = arr->type == TYPE_STATS;
	if (stats && fe->sort_stat) {
		static const char *const by_stat[] = { "count", "sum", "min", "max", "avg" };

		for (k = 0; k < sizeof(by_stat) / sizeof(by_stat[0]) && strcmp(fe->sort_stat, by_stat[k]); k++)
			;
		if (k == sizeof(by_stat) / sizeof(by_stat[0])) {
			xl_error(x, &s->loc, "keyword 'foreach'",
				 "translation of sorting by @%s is not yet supported", fe->sort_stat);
			return;
		}
		sort_by = -1 - (int)k;	/* stp_map_sorted_slot's codes */
	}
	for (k = 0; k < x->fe_stack.n; k++)
		slot += x->fe_stack.v[k] == arr;
	if (stats && slot) {
		xl_error(x, &s->loc, "keyword 'foreach'",
			 "translation of nested foreach loops over one statistics array is not yet supported");
		return;
	}
	m = xl_new_label(x, "m");
	v = xl_new_label(x, "v");
	n = xl_new_label(x, "n");
	i = xl_new_label(x, "i");
	em(x, "{");
	if (fe->limit) {
		lim = xl_new_long(x);
		em(x, "%s = %s;", lim, xl_expr(x, fe->limit).t);
	}
	em(x, "struct stp_map *%s = %s;", m,
	   stats ? arena_printf(x->a, "stp_pmap_agg(&%s)", xl_global(x, arr))
		 : arena_printf(x->a, "%s.m", xl_global(x, arr)));
	em(x, "u32 %s, %s;", n, i);
	em(x, "struct stp_map_entry **%s = stp_map_sorted_slot(%s, %u, %d, %d, %s, &%s);",
	   v, m, slot, sort_by, fe->sort_dir ? fe->sort_dir : 1, slice ? "0" : lim, n);
	if (slice) {
		cnt = xl_new_long(x);
		em(x, "const union stp_arg *%s_keys = %s;", m, slice);
		em(x, "%s = 0;", cnt);
	}
	if (fe->limit)
		em(x, "if (%s <= 0)", lim);
	if (fe->limit)
		em(x, "\t%s = 0;", n);
	em(x, "for (%s = 0; %s < %s; %s++) {", i, i, n, i);
	if (slice) {
		em(x, "if (!stp_entry_matches(%s, %s[%s], %s_keys, 0x%x))", m, v, i, m, mask);
		em(x, "\tcontinue;");
		if (fe->limit) {
			em(x, "if (++%s > %s)", cnt, lim);
			em(x, "\tbreak;");
		}
	}
	iteration(x, s, fe->body);
	for (k = 0; k < fe->keys.n; k++) {
		struct elab_var *kv = xl_var(x, fe->keys.v[k]);

		if (arr->idx[k] == TYPE_STRING)
			em(x, "stp_strcpy(%s, stp_entry_key_string(%s, %s[%s], %zu));",
			   xl_local(x, kv), m, v, i, k);
		else
			em(x, "%s = stp_entry_key_long(%s, %s[%s], %zu);",
			   xl_local(x, kv), m, v, i, k);
	}
	if (fe->value) {
		struct elab_var *vv = xl_var(x, fe->value);

		if (arr->type == TYPE_STRING)
			em(x, "stp_strcpy(%s, stp_entry_string(%s, %s[%s]));",
			   xl_local(x, vv), m, v, i);
		else
			em(x, "%s = *stp_entry_long(%s, %s[%s]);", xl_local(x, vv), m, v, i);
	}
	vec_push(x->a, &x->fe_stack, arr);
	loop_body(x, fe->body, cont);
	x->fe_stack.n--;
	label(x, cont);
	em(x, "}");
	em(x, "}");
}

static void s_delete(struct xl *x, struct stmt *s)
{
	struct expr *t = s->expr;
	struct elab_var *v;
	const char *keys;

	if (t->kind == EXPR_SYMBOL && (v = xl_var(x, t))) {
		const char *g = v->scope == VAR_GLOBAL ? xl_global(x, v) : xl_local(x, v);

		if (v->arity > 0 && v->type == TYPE_STATS)
			em(x, "stp_pmap_clear(&%s);", g);
		else if (v->arity > 0)
			em(x, "stp_map_clear(%s.m);", g);
		else if (v->type == TYPE_STATS)
			em(x, "stp_pstat_clear(&%s);", g);
		else if (v->type == TYPE_STRING)
			em(x, "%s[0] = '\\0';", g);
		else
			em(x, "%s = 0;", g);
		return;
	}
	if (t->kind == EXPR_INDEX && t->index.base->kind == EXPR_SYMBOL &&
	    (v = xl_var(x, t->index.base)) && v->scope == VAR_GLOBAL &&
	    xl_has_wildcard(&t->index.idx)) {
		unsigned mask;

		keys = xl_slice_keys(x, t->index.base, &t->index.idx, &mask);
		if (v->type == TYPE_STATS)
			em(x, "stp_pmap_delete_matching(&%s, %s, 0x%x);", xl_global(x, v), keys, mask);
		else
			em(x, "stp_map_delete_matching(%s.m, %s, 0x%x);", xl_global(x, v), keys, mask);
		return;
	}
	if (t->kind == EXPR_INDEX && t->index.base->kind == EXPR_SYMBOL &&
	    (v = xl_var(x, t->index.base)) && v->scope == VAR_GLOBAL) {
		keys = xl_keys(x, &t->index.idx);
		if (v->type == TYPE_STATS)
			em(x, "stp_pmap_delete(&%s, %s);", xl_global(x, v), keys);
		else
			em(x, "stp_map_delete(%s.m, %s);", xl_global(x, v), keys);
		return;
	}
	xl_error(x, &s->loc, "keyword 'delete'",
		 "translation of this delete is not yet supported");
}

static void s_return(struct xl *x, struct stmt *s)
{
	if (!x->fn->f) {
		em(x, "goto out;");
		return;
	}
	if (s->expr) {
		struct cv v = xl_expr(x, s->expr);

		if (s->expr->type == TYPE_STRING)
			em(x, "stp_strcpy(l->__retvalue, %s);", v.t);
		else
			em(x, "l->__retvalue = %s;", v.t);
	}
	em(x, "goto out;");
}

/* The overload tried after @f: overloads (same name and arity) run in
 * priority order, then definition order. */
static struct elab_func *following_overload(struct xl *x, struct elab_func *f)
{
	struct ptrvec *v = ptrmap_get(&x->r->funcs, f->name);
	struct elab_func *head = f->first ? f->first : f, *best = NULL;
	int64_t fp = f->decl->func.has_priority ? f->decl->func.priority : 0;
	size_t i, fi = 0;

	for (i = 0; v && i < v->n; i++)
		if (v->v[i] == f)
			fi = i;
	for (i = 0; v && i < v->n; i++) {
		struct elab_func *o = v->v[i];
		int64_t op = o->decl->func.has_priority ? o->decl->func.priority : 0;
		int64_t bp;

		if (o == f || !o->used || (o != head && o->first != head))
			continue;
		if (op < fp || (op == fp && i < fi))
			continue;	/* tried before f */
		bp = best && best->decl->func.has_priority ? best->decl->func.priority : 0;
		if (!best || op < bp)
			best = o;
	}
	return best;
}

/* `next` in a function: the following overload runs with the same
 * arguments and its result is this one's; without one, the function
 * just returns. */
static void next_overload(struct xl *x, struct elab_func *f)
{
	struct elab_func *g = following_overload(x, f);
	const char **args;
	int i;

	if (g) {
		args = arena_alloc(x->a, sizeof(*args) * ((size_t)f->arity + 1));
		for (i = 0; i < f->arity; i++)
			args[i] = xl_local(x, f->params[i]);
		xl_emit_call(x, g, args, "l->__retvalue");
	}
	em(x, "goto out;");
}

static void s_try(struct xl *x, struct stmt *s)
{
	const char *saved = x->err_label;
	const char *katch = xl_new_label(x, "catch"), *end = xl_new_label(x, "tried");

	x->err_label = katch;
	xl_stmt(x, s->try_.body);
	x->err_label = saved;
	em(x, "goto %s;", end);
	label(x, katch);
	em(x, "if (unlikely(c->aborted))");	/* abort() passes through */
	em(x, "\tgoto %s;", saved);
	if (s->try_.var)
		em(x, "stp_strcpy(%s, c->last_error);", xl_local(x, xl_var(x, s->try_.var)));
	em(x, "c->last_error = NULL;");
	xl_stmt(x, s->try_.handler);
	label(x, end);
}

void xl_stmt(struct xl *x, struct stmt *s)
{
	size_t i;

	if (!s)
		return;
	x->nstr = 0;
	/* Loops spend their actions per iteration (as the reference does:
	 * `while (1) n++` stops at n++ after MAXACTION / 2 rounds). */
	if (s->kind != STMT_BLOCK && s->kind != STMT_NULL) {
		comment(x, s);
		if (s->kind != STMT_WHILE && s->kind != STMT_FOR && s->kind != STMT_FOREACH)
			action(x, s);
	}
	switch (s->kind) {
	case STMT_BLOCK:
		for (i = 0; i < s->stmts.n; i++)
			xl_stmt(x, s->stmts.v[i]);
		break;
	case STMT_NULL:
		break;
	case STMT_EXPR:
		xl_expr_stmt(x, s->expr);
		break;
	case STMT_IF:
		em(x, "if (%s) {", xl_cond(x, s->if_.cond));
		xl_stmt(x, s->if_.then);
		if (s->if_.els) {
			em(x, "} else {");
			xl_stmt(x, s->if_.els);
		}
		em(x, "}");
		break;
	case STMT_WHILE:
		s_while(x, s);
		break;
	case STMT_FOR:
		s_for(x, s);
		break;
	case STMT_FOREACH:
		s_foreach(x, s);
		break;
	case STMT_BREAK:
		em(x, "break;");
		break;
	case STMT_CONTINUE:
		em(x, "goto %s;", x->cont_label ? x->cont_label : "out");
		break;
	case STMT_NEXT:
		if (x->fn->f)
			next_overload(x, x->fn->f);
		else
			em(x, "goto out;");
		break;
	case STMT_RETURN:
		s_return(x, s);
		break;
	case STMT_DELETE:
		s_delete(x, s);
		break;
	case STMT_TRY:
		s_try(x, s);
		break;
	}
}
