// SPDX-License-Identifier: GPL-2.0-or-later
/* expr.c: expressions. Each becomes a C expression (struct cv); what
 * cannot be one (calls, anything that may fail, side effects) is emitted
 * as statements before it, into temporaries. Operands run left to right:
 * when a later operand needs statements, earlier values that those
 * statements could change are saved first. */
#include <inttypes.h>
#include <string.h>

#include "elaborate/probes/points.h"
#include "translate/xl.h"
#include "util/arena.h"
#include "util/regex.h"
#include "util/strbuf.h"

static struct cv cv(const char *t, bool stable)
{
	struct cv v = { t, stable };

	return v;
}

struct elab_var *xl_var(struct xl *x, const struct expr *e)
{
	return ptrmap_get(&x->r->var_of, e);
}

void xl_check_error(struct xl *x)
{
	em(x, "if (unlikely(c->last_error))");
	em(x, "\tgoto %s;", x->err_label);
}

static struct cv spill(struct xl *x, struct cv v, enum stap_type t)
{
	const char *n;

	if (v.stable)
		return v;
	if (t == TYPE_STRING) {
		n = xl_new_str(x);
		em(x, "stp_strcpy(%s, %s);", n, v.t);
	} else {
		n = xl_new_long(x);
		em(x, "%s = %s;", n, v.t);
	}
	return cv(n, true);
}

/* Evaluate @e into a scratch buffer; the statements it needs are left in
 * @sb for the caller to place. */
static struct cv expr_into(struct xl *x, struct expr *e, struct strbuf *sb)
{
	struct strbuf *saved = x->cur;
	struct cv v;

	x->cur = sb;
	v = xl_expr(x, e);
	x->cur = saved;
	return v;
}

void xl_operands(struct xl *x, struct expr **es, size_t n, struct cv *out)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		struct strbuf sb = STRBUF_INIT;

		out[i] = expr_into(x, es[i], &sb);
		if (sb.len) {
			for (j = 0; j < i; j++)
				out[j] = spill(x, out[j], es[j]->type);
			sb_addn(x->cur, sb.buf, sb.len);
		}
		sb_release(&sb);
	}
}

const char *xl_arg_array(struct xl *x, struct cv *v, struct expr **es, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	sb_adds(&sb, "(const union stp_arg[]){ ");
	for (i = 0; i < n; i++)
		sb_addf(&sb, "%s{ .%c = %s }", i ? ", " : "",
			es[i]->type == TYPE_STRING ? 's' : 'n', v[i].t);
	sb_adds(&sb, " }");
	return sb_to_arena(&sb, x->a);
}

const char *xl_keys(struct xl *x, struct ptrvec *idx)
{
	struct cv *v = arena_alloc(x->a, sizeof(*v) * (idx->n + 1));
	size_t i;

	for (i = 0; i < idx->n; i++) {
		struct expr *k = idx->v[i];

		if (k->kind == EXPR_WILDCARD) {
			xl_error(x, &k->loc, "operator '*'",
				 "translation of array slices is not yet supported");
			return "NULL";
		}
	}
	xl_operands(x, (struct expr **)idx->v, idx->n, v);
	return xl_arg_array(x, v, (struct expr **)idx->v, idx->n);
}

bool xl_has_wildcard(const struct ptrvec *idx)
{
	size_t i;

	for (i = 0; i < idx->n; i++)
		if (((const struct expr *)idx->v[i])->kind == EXPR_WILDCARD)
			return true;
	return false;
}

const char *xl_slice_keys(struct xl *x, struct expr *base, struct ptrvec *idx,
			  unsigned *mask)
{
	const struct elab_var *arr = xl_var(x, base);
	struct expr **es = arena_alloc(x->a, sizeof(*es) * (idx->n + 1));
	struct cv *v = arena_alloc(x->a, sizeof(*v) * (idx->n + 1));
	struct strbuf sb = STRBUF_INIT;
	size_t i, k = 0, j = 0;

	*mask = 0;
	for (i = 0; i < idx->n; i++)
		if (((struct expr *)idx->v[i])->kind != EXPR_WILDCARD) {
			es[k++] = idx->v[i];
			*mask |= 1u << i;
		}
	xl_operands(x, es, k, v);
	sb_adds(&sb, "(const union stp_arg[]){ ");
	for (i = 0; i < idx->n; i++) {
		bool str = arr && i < ELAB_MAX_INDEX && arr->idx[i] == TYPE_STRING;

		if (*mask & (1u << i))
			sb_addf(&sb, "%s{ .%c = %s }", i ? ", " : "",
				es[j]->type == TYPE_STRING ? 's' : 'n', v[j].t), j++;
		else
			sb_addf(&sb, "%s{ .%s }", i ? ", " : "", str ? "s = \"\"" : "n = 0");
	}
	sb_adds(&sb, " }");
	return sb_to_arena(&sb, x->a);
}

/* The C object of an array or statistics global named by @base. */
static const char *global_obj(struct xl *x, struct expr *base)
{
	struct elab_var *v = xl_var(x, base);

	if (!v || v->scope != VAR_GLOBAL) {
		xl_error(x, &base->loc, ast_token(x->a, base),
			 "translation of this array reference is not supported");
		return "NULL";
	}
	return arena_printf(x->a, "&%s", xl_global(x, v));
}

static enum stap_type var_type(struct xl *x, const struct expr *base)
{
	const struct elab_var *v = xl_var(x, base);

	return v ? v->type : base->type;
}

static bool is_stat_array(struct xl *x, struct expr *base)
{
	struct elab_var *v = xl_var(x, base);

	return v && v->type == TYPE_STATS;
}

static const char *scalar_lv(struct xl *x, const struct elab_var *v)
{
	return v->scope == VAR_GLOBAL ? xl_global(x, v) : xl_local(x, v);
}

static struct cv number(struct xl *x, int64_t n)
{
	if (n == INT64_MIN)
		return cv("(-9223372036854775807LL - 1)", true);
	return cv(arena_printf(x->a, "%" PRId64 "LL", n), true);
}

/* C operators for script operators on longs (compound forms too). */
static const struct {
	enum op op;
	const char *c;		/* infix, or helper name after "stp_" */
	bool helper;
} arith_ops[] = {
	{ OP_ADD, "+", false }, { OP_ADD_ASSIGN, "+", false },
	{ OP_SUB, "-", false }, { OP_SUB_ASSIGN, "-", false },
	{ OP_MUL, "*", false }, { OP_MUL_ASSIGN, "*", false },
	{ OP_BAND, "&", false }, { OP_AND_ASSIGN, "&", false },
	{ OP_BOR, "|", false }, { OP_OR_ASSIGN, "|", false },
	{ OP_BXOR, "^", false }, { OP_XOR_ASSIGN, "^", false },
	{ OP_LT, "<", false }, { OP_GT, ">", false }, { OP_LE, "<=", false },
	{ OP_GE, ">=", false }, { OP_EQ, "==", false }, { OP_NE, "!=", false },
	{ OP_SHL, "shl", true }, { OP_SHL_ASSIGN, "shl", true },
	{ OP_SHR, "shr", true }, { OP_SHR_ASSIGN, "shr", true },
	{ OP_USHR, "ushr", true },
};

/* @a OP @b for long operands; may emit a checked helper call. */
static struct cv arith(struct xl *x, enum op op, struct cv a, struct cv b,
		       struct expr *at)
{
	const char *t;
	size_t i;

	if (op == OP_DIV || op == OP_DIV_ASSIGN || op == OP_MOD || op == OP_MOD_ASSIGN) {
		t = xl_new_long(x);
		em(x, "%s = stp_%s(c, %s, %s, %s);", t,
		   op == OP_DIV || op == OP_DIV_ASSIGN ? "div" : "mod", a.t, b.t,
		   xl_loc(x, at));
		xl_check_error(x);
		return cv(t, true);
	}
	for (i = 0; i < sizeof(arith_ops) / sizeof(arith_ops[0]); i++) {
		if (arith_ops[i].op != op)
			continue;
		if (arith_ops[i].helper)
			return cv(arena_printf(x->a, "stp_%s(%s, %s)", arith_ops[i].c, a.t, b.t),
				  a.stable && b.stable);
		return cv(arena_printf(x->a, "(%s %s %s)", a.t, arith_ops[i].c, b.t),
			  a.stable && b.stable);
	}
	xl_error(x, &at->loc, ast_token(x->a, at),
		 "translation of this operator is not supported");
	return cv("0", true);
}

static const char *str_cmp_op(enum op op)
{
	size_t i;

	if (op == OP_ADD || op == OP_SUB || op == OP_MUL || op == OP_BAND ||
	    op == OP_BOR || op == OP_BXOR)
		return NULL;
	for (i = 0; i < sizeof(arith_ops) / sizeof(arith_ops[0]); i++)
		if (arith_ops[i].op == op && !arith_ops[i].helper &&
		    (arith_ops[i].c[0] == '<' || arith_ops[i].c[0] == '>' ||
		     arith_ops[i].c[1] == '='))
			return arith_ops[i].c;
	return NULL;
}

/* && and ||: the right side runs only when needed. */
static struct cv logical(struct xl *x, struct expr *e)
{
	bool and = e->bin.op == OP_LAND;
	struct cv l = xl_expr(x, e->bin.l), r;
	struct strbuf sb = STRBUF_INIT;
	const char *t;

	x->indent++;
	r = expr_into(x, e->bin.r, &sb);
	x->indent--;
	if (!sb.len) {
		sb_release(&sb);
		return cv(arena_printf(x->a, "(%s %s %s)", l.t, and ? "&&" : "||", r.t),
			  l.stable && r.stable);
	}
	t = xl_new_long(x);
	em(x, "%s = %s;", t, and ? "0" : "1");
	em(x, "if (%s%s) {", and ? "" : "!", l.t);
	sb_addn(x->cur, sb.buf, sb.len);
	sb_release(&sb);
	em(x, "%s = %s != 0;", t, r.t);
	em(x, "}");
	return cv(t, true);
}

static struct cv ternary(struct xl *x, struct expr *e)
{
	struct cv c = xl_expr(x, e->tern.c), a, b;
	struct strbuf sa = STRBUF_INIT, sb = STRBUF_INIT;
	bool str = e->type == TYPE_STRING;
	const char *t;

	x->indent++;
	a = expr_into(x, e->tern.t, &sa);
	b = expr_into(x, e->tern.f, &sb);
	x->indent--;
	if (!sa.len && !sb.len) {
		sb_release(&sa);
		sb_release(&sb);
		return cv(arena_printf(x->a, "(%s ? %s : %s)", c.t, a.t, b.t),
			  c.stable && a.stable && b.stable);
	}
	t = str ? xl_new_str(x) : xl_new_long(x);
	em(x, "if (%s) {", c.t);
	sb_addn(x->cur, sa.buf, sa.len);
	em(x, str ? "stp_strcpy(%s, %s);" : "%s = %s;", t, a.t);
	em(x, "} else {");
	sb_addn(x->cur, sb.buf, sb.len);
	em(x, str ? "stp_strcpy(%s, %s);" : "%s = %s;", t, b.t);
	em(x, "}");
	sb_release(&sa);
	sb_release(&sb);
	return cv(t, true);
}

/* s =~ "literal": the pattern is compiled here into a static NFA program
 * (util/regex.c) that the runtime runs (runtime/regex.c). */
static struct cv regex_match(struct xl *x, struct expr *e)
{
	const struct expr *pat = e->bin.r;
	struct strbuf sb = STRBUF_INIT;
	struct re_prog *prog;
	const char *err, *name, *classes = "NULL";
	struct cv subj;
	size_t i, k;

	if (pat->kind != EXPR_STRING) {
		xl_error(x, &pat->loc, ast_token(x->a, pat),
			 "regular expression must be a literal string");
		return cv("0", true);
	}
	prog = re_compile(x->a, pat->str.s, pat->str.len, x->re_caps, &err);
	if (!prog) {
		xl_error(x, &pat->loc, ast_token(x->a, pat),
			 "invalid regular expression: %s", err);
		return cv("0", true);
	}
	name = arena_printf(x->a, "stp_re%d", x->nfmt++);
	sb_addf(&sb, "static const struct stp_re_inst %s[] = {\n", name);
	for (i = 0; i < prog->n; i++)
		sb_addf(&sb, "\t{ %u, %u, %u, %u },\n", prog->inst[i].op, prog->inst[i].c,
			prog->inst[i].x, prog->inst[i].y);
	sb_adds(&sb, "};");
	if (prog->nclasses) {
		classes = arena_printf(x->a, "%s_classes", name);
		sb_addf(&sb, "\nstatic const u8 %s[][32] = {\n", classes);
		for (i = 0; i < prog->nclasses; i++) {
			sb_adds(&sb, "\t{");
			for (k = 0; k < 32; k++)
				sb_addf(&sb, "%s0x%02x", k ? ", " : " ", prog->classes[i][k]);
			sb_adds(&sb, " },\n");
		}
		sb_adds(&sb, "};");
	}
	em_head(x, "%s", sb_str(&sb));
	sb_release(&sb);
	subj = xl_expr(x, e->bin.l);
	if (x->re_caps) {
		size_t slots = 2 * (prog->ngroups + 1);

		if (prog->n > x->re_max_insts)
			x->re_max_insts = prog->n;
		if (slots > x->re_max_slots)
			x->re_max_slots = slots;
		return cv(arena_printf(x->a, "(%s(c->re_matched = stp_regex_match_caps(%s, %zu, "
				       "%s, %zu, %s, stp_re_caps(c))))",
				       e->bin.op == OP_NOMATCH ? "!" : "", name, prog->n,
				       classes, slots, subj.t), false);
	}
	return cv(arena_printf(x->a, "(%sstp_regex_match(%s, %zu, %s, %s, &c->re_work))",
			       e->bin.op == OP_NOMATCH ? "!" : "", name, prog->n, classes,
			       subj.t), false);
}

static struct cv binary(struct xl *x, struct expr *e)
{
	struct expr *ops[2] = { e->bin.l, e->bin.r };
	struct cv v[2];
	const char *t;

	if (e->bin.op == OP_LAND || e->bin.op == OP_LOR)
		return logical(x, e);
	if (e->bin.op == OP_MATCH || e->bin.op == OP_NOMATCH)
		return regex_match(x, e);
	xl_operands(x, ops, 2, v);
	if (e->bin.op == OP_CONCAT) {
		t = xl_new_str(x);
		em(x, "stp_strcat(%s, %s, %s);", t, v[0].t, v[1].t);
		return cv(t, true);
	}
	if (e->bin.l->type == TYPE_STRING) {
		const char *op = str_cmp_op(e->bin.op);

		if (!op) {
			xl_error(x, &e->loc, ast_token(x->a, e),
				 "translation of this string operator is not supported");
			return cv("0", true);
		}
		return cv(arena_printf(x->a, "(strcmp(%s, %s) %s 0)", v[0].t, v[1].t, op),
			  v[0].stable && v[1].stable);
	}
	return arith(x, e->bin.op, v[0], v[1], e);
}

static struct cv unary(struct xl *x, struct expr *e)
{
	struct cv v = xl_expr(x, e->un.e);
	const char *fmt;

	if (e->un.op == OP_PLUS)
		return v;
	if (e->un.op == OP_NEG)
		fmt = "(-%s)";
	else if (e->un.op == OP_NOT)
		fmt = "(!%s)";
	else if (e->un.op == OP_BNOT)
		fmt = "(~%s)";
	else {
		xl_error(x, &e->loc, ast_token(x->a, e),
			 "translation of this operator is not supported");
		return cv("0", true);
	}
	return cv(arena_printf(x->a, fmt, v.t), v.stable);
}

/* The string of a procfs probe: $value. */
static bool is_value(const struct expr *e)
{
	return e->kind == EXPR_TARGET && !strcmp(e->target.name, "$value") &&
	       !e->target.path.comps.n;
}

static struct cv crement(struct xl *x, struct expr *e)
{
	struct expr *tgt = e->un.e;
	bool inc = e->un.op == OP_PREINC || e->un.op == OP_POSTINC;
	bool post = e->un.op == OP_POSTINC || e->un.op == OP_POSTDEC;
	const char *t;

	if (tgt->kind == EXPR_SYMBOL) {
		const char *lv = scalar_lv(x, xl_var(x, tgt));

		if (!post) {
			em(x, "%s%s;", inc ? "++" : "--", lv);
			return cv(lv, false);
		}
		t = xl_new_long(x);
		em(x, "%s = %s%s;", t, lv, inc ? "++" : "--");
		return cv(t, true);
	}
	if (tgt->kind == EXPR_INDEX) {
		const char *keys = xl_keys(x, &tgt->index.idx);

		t = xl_new_long(x);
		em(x, "%s = stp_array_add_long(c, %s, %s, %s, %s)%s;", t,
		   global_obj(x, tgt->index.base), keys, inc ? "1" : "-1",
		   xl_loc(x, tgt->index.base), post ? (inc ? " - 1" : " + 1") : "");
		xl_check_error(x);
		return cv(t, true);
	}
	xl_error(x, &e->loc, ast_token(x->a, e), "translation of this operand is not supported");
	return cv("0", true);
}

static struct cv assign_index(struct xl *x, struct expr *e, struct expr *tgt)
{
	struct ptrvec *idx = &tgt->index.idx;
	struct expr **es = arena_alloc(x->a, sizeof(*es) * (idx->n + 1));
	struct cv *v = arena_alloc(x->a, sizeof(*v) * (idx->n + 1));
	const char *obj = global_obj(x, tgt->index.base), *keys, *loc, *t;
	enum op op = e->bin.op;
	struct cv rhs, cur;
	size_t n = idx->n;

	memcpy(es, idx->v, sizeof(*es) * n);
	es[n] = e->bin.r;
	xl_operands(x, es, n + 1, v);
	keys = xl_arg_array(x, v, es, n);
	rhs = v[n];
	loc = xl_loc(x, tgt->index.base);
	if (op == OP_STATS_ADD) {
		em(x, "stp_pmap_add(c, %s, %s, %s, %s);", obj, keys, rhs.t, loc);
		xl_check_error(x);
		return rhs;
	}
	if (var_type(x, tgt->index.base) == TYPE_STRING) {
		if (op == OP_CAT_ASSIGN) {
			t = xl_new_str(x);
			em(x, "stp_array_get_str(%s, %s, %s);", obj, keys, t);
			em(x, "stp_strcat(%s, %s, %s);", t, t, rhs.t);
			rhs = cv(t, true);
		}
		em(x, "stp_array_set_str(c, %s, %s, %s, %s);", obj, keys, rhs.t, loc);
		xl_check_error(x);
		return rhs;
	}
	t = xl_new_long(x);
	if (op == OP_ASSIGN) {
		em(x, "%s = stp_array_set_long(c, %s, %s, %s, %s);", t, obj, keys, rhs.t, loc);
	} else if (op == OP_ADD_ASSIGN || op == OP_SUB_ASSIGN) {
		em(x, "%s = stp_array_add_long(c, %s, %s, %s%s, %s);", t, obj, keys,
		   op == OP_SUB_ASSIGN ? "-" : "", rhs.t, loc);
	} else {
		em(x, "%s = stp_array_get_long(%s, %s);", t, obj, keys);
		cur = arith(x, op, cv(t, true), rhs, e->bin.r);
		em(x, "%s = stp_array_set_long(c, %s, %s, %s, %s);", t, obj, keys, cur.t, loc);
	}
	xl_check_error(x);
	return cv(t, true);
}

static struct cv assign(struct xl *x, struct expr *e)
{
	struct expr *tgt = e->bin.l;
	enum op op = e->bin.op;
	struct elab_var *var;
	struct cv rhs;
	const char *lv;

	if (tgt->kind == EXPR_INDEX)
		return assign_index(x, e, tgt);
	if (is_value(tgt)) {
		rhs = xl_expr(x, e->bin.r);
		em(x, "stp_procfs_set(c, %s, %d);", rhs.t, op == OP_CAT_ASSIGN);
		return cv("stp_procfs_value(c)", false);
	}
	if (tgt->kind != EXPR_SYMBOL || !(var = xl_var(x, tgt))) {
		xl_error(x, &tgt->loc, ast_token(x->a, tgt),
			 "translation of this assignment is not yet supported");
		return cv("0", true);
	}
	rhs = xl_expr(x, e->bin.r);
	if (op == OP_STATS_ADD) {
		em(x, "stp_pstat_add(&%s, %s);", xl_global(x, var), rhs.t);
		return rhs;
	}
	lv = scalar_lv(x, var);
	if (var->type == TYPE_STRING) {
		if (op == OP_CAT_ASSIGN) {
			if (!strcmp(rhs.t, lv))
				rhs = spill(x, cv(rhs.t, false), TYPE_STRING);
			em(x, "stp_strcat(%s, %s, %s);", lv, lv, rhs.t);
		} else {
			em(x, "stp_strcpy(%s, %s);", lv, rhs.t);
		}
		return cv(lv, false);
	}
	/* x /= 0 is reported at the divisor, as the reference does. */
	if (op != OP_ASSIGN)
		rhs = arith(x, op, cv(lv, false), rhs, e->bin.r);
	em(x, "%s = %s;", lv, rhs.t);
	return cv(lv, false);
}

void xl_emit_call(struct xl *x, struct elab_func *f, const char *const *args,
		  const char *result)
{
	int i;

	em(x, "if (unlikely(c->nesting >= MAXNESTING)) {");
	/* Reported at the function entered, as the reference does. */
	em(x, "stp_error(c, \"MAXNESTING exceeded\", %s);",
	   xl_loc_at(x, f, arena_printf(x->a, "identifier '%s'", f->name), &f->decl->loc));
	em(x, "goto %s;", x->err_label);
	em(x, "}");
	em(x, "{");
	em(x, "struct %s *n = stp_frame_at(c, c->nesting + 1);", xl_frame_name_of(x, f));
	em(x, "memset(n, 0, offsetof(struct %s, __vars_end));", xl_frame_name_of(x, f));
	if (f->ret == TYPE_STRING)
		em(x, "n->__retvalue[0] = '\\0';");
	else if (f->ret == TYPE_LONG)
		em(x, "n->__retvalue = 0;");
	for (i = 0; i < f->arity; i++) {
		if (f->params[i]->type == TYPE_STRING)
			em(x, "stp_strcpy(n->%s, %s);", xl_param_field(x, f, i), args[i]);
		else
			em(x, "n->%s = %s;", xl_param_field(x, f, i), args[i]);
	}
	em(x, "c->nesting++;");
	em(x, "%s(c);", xl_func_name(x, f));
	em(x, "c->nesting--;");
	if (result && f->ret == TYPE_STRING)
		em(x, "stp_strcpy(%s, n->__retvalue);", result);
	else if (result && f->ret == TYPE_LONG)
		em(x, "%s = n->__retvalue;", result);
	em(x, "}");
	xl_check_error(x);
}

static struct cv call(struct xl *x, struct expr *e)
{
	struct elab_func *f = ptrmap_get(&x->r->func_of, e);
	struct ptrvec *args = &e->call.args;
	struct cv *v = arena_alloc(x->a, sizeof(*v) * (args->n + 1));
	const char **texts = arena_alloc(x->a, sizeof(*texts) * (args->n + 1));
	const char *t = NULL;
	size_t i;

	if (!f) {
		xl_error(x, &e->loc, ast_token(x->a, e), "unresolved function call");
		return cv("0", true);
	}
	xl_operands(x, (struct expr **)args->v, args->n, v);
	for (i = 0; i < args->n; i++)
		texts[i] = v[i].t;
	if (f->ret == TYPE_STRING)
		t = xl_new_str(x);
	else if (f->ret == TYPE_LONG)
		t = xl_new_long(x);
	xl_emit_call(x, f, texts, t);
	return t ? cv(t, true) : cv("0", true);
}

static int stat_op_letter(const char *op)
{
	static const struct { const char *name; int c; } ops[] = {
		{ "count", 'c' }, { "sum", 's' }, { "min", 'm' }, { "max", 'M' },
		{ "avg", 'a' }, { "variance", 'v' },
	};
	size_t i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strcmp(ops[i].name, op))
			return ops[i].c;
	return 0;
}

/* The merged statistic and its descriptor for a stats operand. */
static bool stat_operand(struct xl *x, struct expr *s, const char **agg,
			 const char **desc)
{
	struct elab_var *v;

	if (s->kind == EXPR_SYMBOL && (v = xl_var(x, s)) && v->scope == VAR_GLOBAL) {
		*agg = arena_printf(x->a, "stp_pstat_get(&%s)", xl_global(x, v));
		*desc = arena_printf(x->a, "&%s.d", xl_global(x, v));
		return true;
	}
	if (s->kind == EXPR_INDEX && is_stat_array(x, s->index.base)) {
		const char *keys = xl_keys(x, &s->index.idx);

		*agg = arena_printf(x->a, "stp_pmap_get(%s, %s)",
				    global_obj(x, s->index.base), keys);
		*desc = arena_printf(x->a, "%s.d", global_obj(x, s->index.base));
		return true;
	}
	xl_error(x, &s->loc, ast_token(x->a, s),
		 "translation of this statistics operand is not supported");
	return false;
}

static struct cv stat(struct xl *x, struct expr *e)
{
	int op = stat_op_letter(e->stat.op);
	const char *agg, *desc, *t;

	if (!op || !e->stat.args.n) {
		xl_error(x, &e->loc, ast_token(x->a, e),
			 "translation of @%s is not supported", e->stat.op);
		return cv("0", true);
	}
	if (!stat_operand(x, e->stat.args.v[0], &agg, &desc))
		return cv("0", true);
	t = xl_new_long(x);
	em(x, "%s = stp_stat_op(c, %s, %s, '%c', %s);", t, agg, desc, op, xl_loc(x, e));
	if (op != 'c' && op != 's')
		xl_check_error(x);
	return cv(t, true);
}

/* print(@hist_*(s)): the histogram's text. */
struct cv xl_hist_print(struct xl *x, struct expr *h, struct expr *at)
{
	const char *agg, *desc;

	if (!stat_operand(x, h->hist.operand, &agg, &desc))
		return cv("0", true);
	em(x, "stp_print_hist(c, %s, %s, %s);", agg, desc, xl_loc(x, at));
	xl_check_error(x);
	return cv("0", true);
}

static struct cv in(struct xl *x, struct expr *e)
{
	const char *keys;
	unsigned mask;

	if (e->in.array->kind == EXPR_SYMBOL && xl_has_wildcard(&e->in.idx)) {
		keys = xl_slice_keys(x, e->in.array, &e->in.idx, &mask);
		if (is_stat_array(x, e->in.array))
			return cv(arena_printf(x->a, "stp_pmap_any_match(%s, %s, 0x%x)",
					       global_obj(x, e->in.array), keys, mask), false);
		return cv(arena_printf(x->a, "stp_map_any_match(%s.m, %s, 0x%x)",
				       global_obj(x, e->in.array) + 1, keys, mask), false);
	}
	keys = xl_keys(x, &e->in.idx);
	if (e->in.array->kind != EXPR_SYMBOL) {
		xl_error(x, &e->loc, "keyword 'in'",
			 "translation of this membership test is not supported");
		return cv("0", true);
	}
	return cv(arena_printf(x->a, "stp_%s_exists(%s, %s)",
			       is_stat_array(x, e->in.array) ? "pmap" : "array",
			       global_obj(x, e->in.array), keys), false);
}

static struct cv symbol(struct xl *x, struct expr *e)
{
	struct elab_var *v = xl_var(x, e);

	if (!v) {
		xl_error(x, &e->loc, ast_token(x->a, e), "unresolved symbol");
		return cv("0", true);
	}
	return cv(scalar_lv(x, v), false);
}

/* The perf .counter("NAME") point of the script, or NULL. */
static const struct elab_point *perf_counter_point(struct xl *x, const char *name)
{
	size_t i, j;

	for (i = 0; i < x->r->probes.n; i++) {
		const struct elab_probe *p = x->r->probes.v[i];

		for (j = 0; j < p->points.n; j++) {
			const struct elab_point *pt = p->points.v[j];

			if (pt->family && pt->family->mech == MECH_perf &&
			    perf_point(pt)->counter && !strcmp(perf_point(pt)->counter, name))
				return pt;
		}
	}
	return NULL;
}

/* @perf("NAME"): the count so far of the current process's NAME counter
 * (runtime/linux/perf.c), read in a probe of a process (uprobes) only. */
static struct cv at_perf(struct xl *x, struct expr *e)
{
	const struct expr *a = e->atop.args.n == 1 ? e->atop.args.v[0] : NULL;
	const struct elab_probe *p = x->fn ? x->fn->p : NULL;
	size_t i;

	if (!a || a->kind != EXPR_STRING) {
		xl_error(x, &e->loc, ast_token(x->a, e),
			 "@perf takes the name of a perf counter as a string literal");
		return cv("0", true);
	}
	for (i = 0; p && i < p->points.n; i++) {
		const struct elab_point *pt = p->points.v[i];

		if (!pt->family || pt->family->mech != MECH_uprobe)
			p = NULL;
	}
	if (!p) {
		xl_error(x, &e->loc, ast_token(x->a, e),
			 "@perf can be read only in the body of a probe of a process's code "
			 "(process(...).function, .statement, .mark), not in a function or "
			 "another kind of probe");
		return cv("0", true);
	}
	if (!perf_counter_point(x, a->str.s)) {
		xl_error(x, &e->loc, ast_token(x->a, e),
			 "no perf counter named \"%s\": define it with a point such as "
			 "perf.sw.task_clock.process(\"PATH\").counter(\"%s\")",
			 a->str.s, a->str.s);
		return cv("0", true);
	}
	return cv(arena_printf(x->a, "stp_perf_read(%s)", c_string(x->a, a->str.s, a->str.len)),
		  false);
}

struct cv xl_expr(struct xl *x, struct expr *e)
{
	switch (e->kind) {
	case EXPR_NUMBER:
		return number(x, e->num);
	case EXPR_STRING:
		return cv(c_string(x->a, e->str.s, e->str.len), true);
	case EXPR_SYMBOL:
		return symbol(x, e);
	case EXPR_INDEX:
		if (e->index.base->kind == EXPR_SYMBOL && !is_stat_array(x, e->index.base)) {
			const char *keys = xl_keys(x, &e->index.idx);
			const char *obj = global_obj(x, e->index.base), *t;

			if (var_type(x, e->index.base) != TYPE_STRING)
				return cv(arena_printf(x->a, "stp_array_get_long(%s, %s)",
						       obj, keys), false);
			t = xl_new_str(x);
			em(x, "stp_array_get_str(%s, %s, %s);", obj, keys, t);
			return cv(t, true);
		}
		break;
	case EXPR_CALL:
		return call(x, e);
	case EXPR_PRINT:
		return xl_print(x, e);
	case EXPR_BINARY:
		return binary(x, e);
	case EXPR_UNARY:
		return unary(x, e);
	case EXPR_CREMENT:
		return crement(x, e);
	case EXPR_ASSIGN:
		return assign(x, e);
	case EXPR_TERNARY:
		return ternary(x, e);
	case EXPR_IN:
		return in(x, e);
	case EXPR_STAT:
		return stat(x, e);
	case EXPR_TARGET:
		if (is_value(e))
			return cv("stp_procfs_value(c)", false);
		break;
	case EXPR_EMBEDDED:
		return cv(arena_printf(x->a, "(%s)", e->code), false);
	case EXPR_WILDCARD:
	case EXPR_HIST:
	case EXPR_CAST:
	case EXPR_ATVAR:
	case EXPR_DEREF:
	case EXPR_ENTRY:
	case EXPR_DEFINED:
	case EXPR_PROBEWRITE:
		break;
	case EXPR_ATOP:
		if (!strcmp(e->atop.name, "perf"))
			return at_perf(x, e);
		break;
	}
	xl_error(x, &e->loc, ast_token(x->a, e),
		 "translation of %s expressions is not yet supported",
		 expr_kind_name(e->kind));
	return cv("0", true);
}

void xl_expr_stmt(struct xl *x, struct expr *e)
{
	struct cv v = xl_expr(x, e);

	/* A plain value has no effect; a call to a C helper might. */
	if (!v.stable && strchr(v.t, '(') && e->kind != EXPR_ASSIGN &&
	    e->kind != EXPR_SYMBOL)
		em(x, "(void)%s;", v.t);
}

const char *xl_cond(struct xl *x, struct expr *e)
{
	return xl_expr(x, e).t;
}
