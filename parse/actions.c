// SPDX-License-Identifier: GPL-2.0-or-later
/* actions.c: node building and checks behind the grammar's actions. */
#include "parse/actions.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "parse/parser.h"
#include "session.h"
#include "util/arena.h"
#include "util/diag.h"
#include "util/format.h"
#include "util/intern.h"
#include "util/strbuf.h"

#define A (p->arena)

static void vreport(struct parser *p, const char *file, int line,
		    const struct srcloc *loc, const struct token *tok,
		    const char *fmt, va_list ap)
{
	char msg[512];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (!tok)
		tok = &p->last;
	diag_report_from(p->diag, file, line, DIAG_PARSE_ERROR,
			 loc ? loc : &tok->loc, token_describe(p, tok), "%s", msg);
}

void parse_error_from(struct parser *p, const char *file, int line,
		      const struct srcloc *loc, const struct token *tok,
		      const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(p, file, line, loc, tok, fmt, ap);
	va_end(ap);
}

/* An error about a construct whose token is only known by kind and text. */
static void error_near_from(struct parser *p, const char *file, int line,
			    struct srcloc loc, int kind, const char *text,
			    const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));
#define error_near(p, ...) error_near_from((p), __FILE__, __LINE__, __VA_ARGS__)

static void error_near_from(struct parser *p, const char *file, int line,
			    struct srcloc loc, int kind, const char *text,
			    const char *fmt, ...)
{
	struct token t = { .kind = kind, .text = text, .loc = loc };
	va_list ap;

	t.len = text ? strlen(text) : 0;
	va_start(ap, fmt);
	vreport(p, file, line, &loc, &t, fmt, ap);
	va_end(ap);
}

const char *token_spelling(struct parser *p, int kind)
{
	const char *n = token_kind_name(kind);
	size_t len = strlen(n);

	if (len >= 2 && n[0] == '\'' && n[len - 1] == '\'')
		return intern_n(p->in, n + 1, len - 2);
	return intern(p->in, n);
}

static void add_decl(struct parser *p, struct decl *d)
{
	vec_push(A, &p->file->decls, d);
}

/* Embedded C needs guru mode unless it comes from a tapset; @what names
 * it in the message ("embedded code", "embedded expression code"). */
static bool embedded_allowed(struct parser *p, struct srcloc loc,
			     const char *what)
{
	if (p->library || p->sess->guru)
		return true;
	error_near(p, loc, EMBEDDED, NULL,
		   "%s in unprivileged script; need stap -g", what);
	return false;
}

/* global x, y[10], z% = ... */
void act_globals(struct parser *p, struct ptrvec *gvars, bool private_)
{
	size_t i;

	for (i = 0; i < gvars->n; i++) {
		struct decl *d = gvars->v[i];

		d->private_ = private_;
		add_decl(p, d);
	}
}

struct decl *act_gvar(struct parser *p, struct srcloc loc,
		      const struct tokval *name, const struct gsize *gs,
		      struct expr *init)
{
	struct decl *d = ast_decl(A, DECL_GLOBAL, loc);

	d->global.name = name->text;
	d->global.size = gs->size;
	d->global.wrap = gs->wrap;
	d->global.init = init;
	if (gs->size < 0)
		error_near(p, loc, IDENT, name->text, "invalid array size");
	if (init && (gs->size || gs->wrap))
		error_near(p, loc, IDENT, name->text,
			   "only scalar globals can be initialized");
	return d;
}

/* function NAME[:type](params)[:priority] */
struct decl *act_fn_head(struct parser *p, struct srcloc loc,
			 const struct tokval *name, enum stap_type ret,
			 struct ptrvec *params, const struct tokval *prio)
{
	struct decl *d = ast_decl(A, DECL_FUNCTION, loc);

	d->func.name = name->text;
	d->func.ret = ret;
	d->func.params = *params;
	if (prio) {
		d->func.has_priority = true;
		d->func.priority = (int64_t)prio->num;
	}
	p->in_function = true;
	return d;
}

void act_param(struct parser *p, struct ptrvec *params, struct srcloc loc,
	       const struct tokval *name, enum stap_type type)
{
	struct param *pa = arena_new_obj(A, struct param);

	pa->name = name->text;
	pa->type = type;
	pa->loc = loc;
	vec_push(A, params, pa);
}

void act_function(struct parser *p, struct decl *head, struct stmt *body,
		  const struct tokval *code, bool private_)
{
	p->in_function = false;
	head->private_ = private_;
	head->func.body = body;
	if (code) {
		if (!embedded_allowed(p, head->loc, "embedded code"))
			return;
		head->func.code = code->text;
	}
	add_decl(p, head);
}

void act_probe(struct parser *p, struct srcloc loc, struct ptrvec *points,
	       struct stmt *body)
{
	struct decl *d = ast_decl(A, DECL_PROBE, loc);

	d->probe.points = *points;
	d->probe.body = body;
	add_decl(p, d);
}

void act_alias(struct parser *p, struct srcloc loc, struct ptrvec *names,
	       bool epilogue, struct ptrvec *points, struct stmt *body,
	       struct stmt *epilogue_body)
{
	struct decl *d = ast_decl(A, DECL_ALIAS, loc);
	size_t i;

	for (i = 0; i < names->n; i++) {
		struct probe_point *pp = names->v[i];

		if (pp->optional || pp->sufficient || pp->cond)
			error_near(p, pp->loc, IDENT,
				   ((struct pp_component *)pp->comps.v[0])->name,
				   "probe point alias name cannot be optional, sufficient or conditional");
	}
	d->probe.names = *names;
	d->probe.epilogue = epilogue;
	d->probe.points = *points;
	d->probe.body = body;
	d->probe.epilogue_body = epilogue_body;
	add_decl(p, d);
}

void act_top_embedded(struct parser *p, struct srcloc loc,
		      const struct tokval *code)
{
	struct decl *d;

	if (!embedded_allowed(p, loc, "embedded code"))
		return;
	d = ast_decl(A, DECL_EMBED, loc);
	d->code = code->text;
	add_decl(p, d);
}

void act_recover(struct parser *p)
{
	p->in_function = false;
}

struct ptrvec act_pp_single(struct parser *p, struct pp_component *c)
{
	struct probe_point *pp = ast_probe_point(A, c->loc);
	struct ptrvec v = { 0 };

	vec_push(A, &pp->comps, c);
	vec_push(A, &v, pp);
	return v;
}

static bool pp_has_suffix(const struct probe_point *pp)
{
	return pp->optional || pp->sufficient || pp->cond;
}

/* Every head followed by every tail, in that order (brace expansion). */
struct ptrvec act_pp_product(struct parser *p, struct ptrvec *heads,
			     struct ptrvec *tails, struct srcloc loc)
{
	struct ptrvec out = { 0 };
	size_t i, j;

	for (i = 0; i < heads->n; i++) {
		struct probe_point *h = heads->v[i];

		if (pp_has_suffix(h))
			error_near(p, loc, '.', NULL,
				   "'?', '!' or condition must only be specified in suffix");
		for (j = 0; j < tails->n; j++) {
			struct probe_point *t = tails->v[j];
			struct probe_point *n = ast_probe_point(A, h->loc);

			vec_append(A, &n->comps, &h->comps);
			vec_append(A, &n->comps, &t->comps);
			n->optional = t->optional;
			n->sufficient = t->sufficient;
			n->cond = t->cond;
			vec_push(A, &out, n);
		}
	}
	return out;
}

/* Apply the suffix (?, !, if) to every expanded point. */
struct ptrvec act_pp_finish(struct parser *p, struct ptrvec *points,
			    int flags, struct expr *cond)
{
	size_t i;

	for (i = 0; i < points->n; i++) {
		struct probe_point *pp = points->v[i];

		if ((flags || cond) && pp_has_suffix(pp))
			error_near(p, pp->loc, IDENT,
				   ((struct pp_component *)pp->comps.v[0])->name,
				   "'?', '!' or condition must only be specified in suffix");
		if (flags == 1)
			pp->optional = true;
		if (flags == 2)
			pp->sufficient = true;
		if (cond)
			pp->cond = cond;
	}
	return *points;
}

void act_pp_append(struct parser *p, struct ptrvec *list, struct ptrvec *more)
{
	vec_append(A, list, more);
}

struct pp_component *act_pp_comp(struct parser *p, struct srcloc loc,
				 const struct tokval *name, struct expr *param)
{
	struct pp_component *c = arena_new_obj(A, struct pp_component);

	c->name = name->text;
	c->param = param;
	c->loc = loc;
	return c;
}

/* Adjacent pieces of one component name, e.g. "sys" "*" "*" "open". */
struct tokval act_pp_glue(struct parser *p, const struct tokval *a,
			  const struct tokval *b, struct srcloc bloc)
{
	struct tokval r = *a;
	size_t la = strlen(a->text), lb = strlen(b->text);
	char *buf;

	if (b->space_before)
		error_near(p, bloc, IDENT, b->text,
			   "expected '.', ',', '(', '?', '!', '{', '=' or 'if' after probe point component");
	buf = arena_alloc(A, la + lb + 1);
	memcpy(buf, a->text, la);
	memcpy(buf + la, b->text, lb);
	r.text = intern_n(p->in, buf, la + lb);
	r.len = la + lb;
	return r;
}

struct stmt *act_return(struct parser *p, struct srcloc loc, struct expr *e)
{
	if (!p->in_function)
		error_near(p, loc, K_RETURN, "return",
			   "found 'return' not in function context");
	return ast_stmt_expr(A, STMT_RETURN, e, loc);
}

void act_fe_push(struct parser *p, struct ptrvec *keys, const struct fe_var *v)
{
	struct fe_var *copy = arena_new_obj(A, struct fe_var);

	*copy = *v;
	vec_push(A, keys, copy);
}

struct fe_head *act_fe_keys(struct parser *p, const struct fe_var *value,
			    const struct fe_var *key, const struct ptrvec *keys,
			    bool bracketed)
{
	struct fe_head *h = arena_new_obj(A, struct fe_head);

	if (key)
		act_fe_push(p, &h->keys, key);
	else
		h->keys = *keys;
	if (value) {
		h->value = arena_new_obj(A, struct fe_var);
		*h->value = *value;
	}
	h->bracketed = bracketed;
	return h;
}

/* Record one sort mark; a second one anywhere is an error at its mark. */
static void take_sort(struct parser *p, struct foreach_stmt *fe,
		      const struct fe_var *v, int key, bool *seen)
{
	if (!v->sort)
		return;
	if (*seen) {
		error_near(p, v->sort_loc, v->sort > 0 ? '+' : '-', NULL,
			   "multiple sort directives");
		return;
	}
	*seen = true;
	fe->sort_dir = v->sort;
	fe->sort_key = key;
}

struct stmt *act_foreach(struct parser *p, struct srcloc loc,
			 struct fe_head *head, struct expr *array,
			 const struct fe_var *sort, struct expr *limit,
			 struct stmt *body)
{
	struct stmt *s = ast_stmt(A, STMT_FOREACH, loc);
	struct foreach_stmt *fe = arena_new_obj(A, struct foreach_stmt);
	bool seen = false;
	size_t i;

	for (i = 0; i < head->keys.n; i++) {
		struct fe_var *v = head->keys.v[i];

		take_sort(p, fe, v, (int)i + 1, &seen);
		vec_push(A, &fe->keys, v->sym);
	}
	fe->bracketed = head->bracketed;
	if (head->value) {
		take_sort(p, fe, head->value, -1, &seen);
		fe->value = head->value->sym;
	}
	take_sort(p, fe, sort, -1, &seen);
	if (sort->stat) {
		/* "s @sum" sorts a statistics array by that extractor. */
		fe->sort_stat = sort->stat;
		if (!fe->sort_dir) {
			fe->sort_dir = 1;
			fe->sort_key = -1;
		}
	}
	fe->array = array;
	fe->limit = limit;
	fe->body = body;
	s->fe = fe;
	return s;
}

struct expr *act_in(struct parser *p, struct srcloc loc, struct expr *key,
		    struct ptrvec *keys, struct expr *array)
{
	struct ptrvec v = { 0 };

	if (key)
		vec_push(A, &v, key);
	return ast_in(A, key ? &v : keys, !key, array, loc);
}

struct expr *act_regex(struct parser *p, struct srcloc loc, enum op op,
		       struct expr *l, struct expr *r)
{
	if (r->kind != EXPR_STRING)
		error_near(p, r->loc, IDENT, NULL,
			   "expected literal string as regular expression");
	return ast_binary(A, op, l, r, loc);
}

struct expr *act_addr_of(struct parser *p, struct srcloc loc,
			 struct expr *target)
{
	struct target_path *path = ast_target_path(target);

	/* &$var->f marks the path; & of anything else (a parenthesised or
	 * macro-built expression) stays an operator for elaboration. */
	if (!path || path->addr_of)
		return ast_unary(A, OP_ADDR, target, loc);
	path->addr_of = true;
	target->loc = loc;
	return target;
}

static struct expr *print_call(struct parser *p, struct srcloc loc,
			       const struct print_kind *pk,
			       struct ptrvec *args)
{
	struct expr *e = ast_expr(A, EXPR_PRINT, loc);
	size_t first = 0;

	e->print.pk = pk;
	if (pk->format || pk->delim) {
		struct expr *f = args->n ? args->v[0] : NULL;

		if (!f || f->kind != EXPR_STRING) {
			error_near(p, f ? f->loc : loc, IDENT, pk->name,
				   pk->format ? "expected literal format string as the first argument of %s"
					      : "expected literal delimiter string as the first argument of %s",
				   pk->name);
		} else {
			e->print.fmt = f;
			first = 1;
		}
		if (f && f->kind == EXPR_STRING && pk->format) {
			const char *err = NULL;
			size_t off = 0;

			e->print.spec = fmt_parse(A, f->str.s, f->str.len,
						  &err, &off);
			if (!e->print.spec)
				error_near(p, f->loc, STRING,
					   arena_strndup(A, f->str.s, f->str.len),
					   "%s", err);
		}
	} else if (!args->n && !pk->newline) {
		error_near(p, loc, IDENT, pk->name,
			   "%s requires at least one argument", pk->name);
	}
	for (; first < args->n; first++)
		vec_push(A, &e->print.args, args->v[first]);
	return e;
}

struct expr *act_call(struct parser *p, struct srcloc loc,
		      const struct tokval *name, struct ptrvec *args)
{
	const struct print_kind *pk = ast_print_kind(name->text);
	struct expr *e;

	if (pk)
		return print_call(p, loc, pk, args);
	e = ast_expr(A, EXPR_CALL, loc);
	e->call.name = name->text;
	e->call.args = *args;
	return e;
}

struct expr *act_embedded_expr(struct parser *p, struct srcloc loc,
			       const struct tokval *code)
{
	embedded_allowed(p, loc, "embedded expression code");
	return ast_embedded(A, code->text, loc);
}

struct expr *act_probewrite(struct parser *p, struct srcloc loc,
			    const struct tokval *name)
{
	struct expr *e = ast_expr(A, EXPR_PROBEWRITE, loc);

	e->name = name->text;
	return e;
}

struct expr *act_stat(struct parser *p, struct srcloc loc,
		      const struct tokval *op, struct ptrvec *args)
{
	struct expr *e = ast_expr(A, EXPR_STAT, loc);
	size_t max = strcmp(op->text, "variance") ? 1 : 2;

	if (args->n > max)
		error_near(p, loc, AT_STATOP, op->text,
			   "too many arguments to @%s", op->text);
	e->stat.op = op->text;
	e->stat.args = *args;
	return e;
}

struct expr *act_atop(struct parser *p, struct srcloc loc,
		      const struct tokval *op, struct ptrvec *args)
{
	struct expr *e = ast_expr(A, EXPR_ATOP, loc);
	const struct at_operator *o = at_operator_find(op->text);

	if (o && (args->n < o->min || args->n > o->max))
		error_near(p, loc, AT_OP, op->text,
			   "wrong number of arguments to @%s", op->text);
	e->atop.name = op->text;
	e->atop.args = *args;
	return e;
}

struct expr *act_hist_linear(struct parser *p, struct srcloc loc,
			     struct expr *operand, struct ptrvec *params)
{
	if (params->n != 3)
		error_near(p, loc, AT_HIST_LINEAR, "hist_linear",
			   "@hist_linear takes a value and 3 parameters (low, high, width)");
	return ast_hist(A, HIST_LINEAR, operand, params, loc);
}

/* Split "$name$$" into the name and its pretty-print suffix. */
static const char *strip_pretty(struct parser *p, const char *text, int *pretty)
{
	size_t len = strlen(text), n = 0;

	while (len > 1 && text[len - 1] == '$' && n < 2 &&
	       !(len == 2 && text[0] == '$')) {
		len--;
		n++;
	}
	*pretty = (int)n;
	return n ? intern_n(p->in, text, len) : text;
}

struct expr *act_target(struct parser *p, struct srcloc loc,
			const struct tokval *name)
{
	int pretty;
	const char *n = strip_pretty(p, name->text, &pretty);
	struct expr *e = ast_target(A, n, loc);

	e->target.path.pretty = pretty;
	return e;
}

struct expr *act_deref(struct parser *p, struct srcloc loc, struct expr *operand)
{
	struct expr *e = ast_expr(A, EXPR_DEREF, loc);

	e->deref.operand = operand;
	return e;
}

struct expr *act_cast(struct parser *p, struct srcloc loc, struct expr *operand,
		      struct expr *type, struct expr *module)
{
	struct expr *e = ast_expr(A, EXPR_CAST, loc);

	(void)p;
	e->cast.operand = operand;
	e->cast.type = type->str.s;
	e->cast.module = module ? module->str.s : NULL;
	return e;
}

struct expr *act_atvar(struct parser *p, struct srcloc loc, struct expr *name,
		       struct expr *module)
{
	struct expr *e = ast_expr(A, EXPR_ATVAR, loc);

	(void)p;
	e->atvar.name = name->str.s;
	e->atvar.module = module ? module->str.s : NULL;
	return e;
}

static struct target_comp *add_comp(struct parser *p, struct expr *target,
				    struct srcloc loc)
{
	struct target_path *path = ast_target_path(target);
	struct target_comp *c = arena_new_obj(A, struct target_comp);

	if (path->pretty)
		error_near(p, loc, ARROW, NULL,
			   "a pretty-printing suffix ($ or $$) must come last");
	c->loc = loc;
	vec_push(A, &path->comps, c);
	return c;
}

struct expr *act_target_field(struct parser *p, struct expr *target,
			      struct srcloc loc, const struct tokval *field)
{
	struct target_comp *c = add_comp(p, target, loc);
	int pretty;

	c->field = strip_pretty(p, field->text, &pretty);
	ast_target_path(target)->pretty = pretty;
	return target;
}

struct expr *act_target_pretty(struct parser *p, struct expr *target,
			       struct srcloc loc, const struct tokval *dollars)
{
	struct target_path *path = ast_target_path(target);

	if (strcmp(dollars->text, "$") && strcmp(dollars->text, "$$"))
		error_near(p, loc, TARGET, dollars->text,
			   "expected a field name, '$' or '$$' after '->'");
	else if (path->pretty)
		error_near(p, loc, TARGET, dollars->text,
			   "a pretty-printing suffix ($ or $$) must come last");
	path->pretty = (int)strlen(dollars->text);
	return target;
}

struct expr *act_target_index(struct parser *p, struct expr *target,
			      struct srcloc loc, struct expr *index)
{
	struct target_comp *c = add_comp(p, target, loc);

	c->is_index = true;
	c->index = index;
	return target;
}

void act_string_piece(struct parser *p, struct ptrvec *pieces,
		      const struct tokval *piece)
{
	struct tokval *copy = arena_new_obj(A, struct tokval);

	*copy = *piece;
	vec_push(A, pieces, copy);
}

struct expr *act_string(struct parser *p, struct srcloc loc,
			struct ptrvec *pieces)
{
	const struct tokval *first = pieces->v[0];
	size_t i, len = 0;
	char *s;

	if (pieces->n == 1)
		return ast_string(A, first->text, first->len, loc);
	for (i = 0; i < pieces->n; i++)
		len += ((const struct tokval *)pieces->v[i])->len;
	s = arena_alloc(A, len + 1);
	for (len = 0, i = 0; i < pieces->n; i++) {
		const struct tokval *t = pieces->v[i];

		memcpy(s + len, t->text, t->len);
		len += t->len;
	}
	return ast_string(A, s, len, loc);
}

struct expr *act_depth(struct parser *p, struct expr *e)
{
	if (e->depth <= EXPR_MAX_DEPTH)
		return e;
	if (!p->depth_reported)
		error_near(p, e->loc, IDENT, NULL,
			   "expression nested too deeply (more than %d operators)",
			   EXPR_MAX_DEPTH);
	p->depth_reported = true;
	return ast_number(A, 0, e->loc);
}

static bool has_kind(const int *kinds, int n, int k)
{
	int i;

	for (i = 0; i < n; i++)
		if (kinds[i] == k)
			return true;
	return false;
}

/* Tokens that would only continue the expression just parsed. */
static bool continues_expression(int k)
{
	switch (k) {
	case '=': case ADD_ASSIGN: case SUB_ASSIGN: case MUL_ASSIGN:
	case DIV_ASSIGN: case MOD_ASSIGN: case SHL_ASSIGN: case SHR_ASSIGN:
	case AND_ASSIGN: case OR_ASSIGN: case XOR_ASSIGN: case CAT_ASSIGN:
	case STATS_ADD: case '?': case OROR: case ANDAND: case '|': case '^':
	case '&': case K_IN: case EQ: case NE: case '<': case '>': case LE:
	case GE: case MATCH: case NOMATCH: case SHL: case SHR: case USHR:
	case '.': case '+': case '-': case '*': case '/': case '%': case INC:
	case DEC: case '(': case '[': case ARROW: case STRING:
		return true;
	default:
		return false;
	}
}

void act_syntax_error(struct parser *p, const int *kinds, int n)
{
	struct strbuf sb = STRBUF_INIT;
	int shown[512], i, m = 0;
	bool in_expr = false;
	bool after_point = has_kind(kinds, n, '.') && has_kind(kinds, n, '{') &&
			   has_kind(kinds, n, ',');

	if (p->last.kind == LEX_ERROR)
		return;	/* the lexer has said what is wrong */
	for (i = 0; i < n && i < 512; i++) {
		/* After a probe point, name what may end it, not the many
		 * ways to extend it. */
		if (after_point && kinds[i] != ',' && kinds[i] != '{' &&
		    kinds[i] != '=' && kinds[i] != ADD_ASSIGN)
			continue;
		if (kinds[i] < 0 || kinds[i] == LEX_ERROR)
			continue;
		if (continues_expression(kinds[i]) && has_kind(kinds, n, '+') &&
		    has_kind(kinds, n, '*')) {
			in_expr = true;
			continue;
		}
		shown[m++] = kinds[i];
	}
	if (has_kind(kinds, n, IDENT) && has_kind(kinds, n, NUMBER) &&
	    has_kind(kinds, n, STRING)) {
		sb_adds(&sb, has_kind(kinds, n, '}') ? "expected statement"
						     : "expected expression");
	} else if (has_kind(kinds, n, K_PROBE) && has_kind(kinds, n, EMBEDDED) &&
		   !has_kind(kinds, n, IDENT)) {
		sb_adds(&sb, "expected 'probe', 'global', 'function', 'private' or embedded code");
	} else if (has_kind(kinds, n, IDENT) && has_kind(kinds, n, K_PROBE)) {
		/* A name where keywords are names too: after '->' or '.'. */
		sb_adds(&sb, has_kind(kinds, n, '{') ? "expected identifier, '*' or '{'"
						     : "expected identifier or keyword");
	} else if (m > 0 && m <= 6) {
		sb_adds(&sb, "expected ");
		for (i = 0; i < m; i++) {
			if (i)
				sb_adds(&sb, i == m - 1 ? " or " : ", ");
			sb_adds(&sb, token_kind_name(shown[i]));
		}
		if (in_expr)
			sb_adds(&sb, " after expression");
	} else if (in_expr && m == 0) {
		sb_adds(&sb, "expected operator");
	} else {
		sb_adds(&sb, "unexpected token");
	}
	parse_error_at(p, &p->last.loc, &p->last, "%s", sb_str(&sb));
	sb_release(&sb);
}
