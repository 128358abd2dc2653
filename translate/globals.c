// SPDX-License-Identifier: GPL-2.0-or-later
/* globals.c: script globals in C (scalars, arrays, statistics), their
 * set-up at module load (initial values, -G values, module parameters so
 * that staprun NAME=VALUE can set scalars), and the locks each probe body
 * takes: a global written anywhere in the body or the functions it calls
 * is write-locked, else read-locked; <<< only needs a read lock (per-CPU
 * accumulators) while reading a statistic needs the write lock (merging). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "parse/ast_walk.h"
#include "session.h"
#include "translate/xl.h"
#include "util/arena.h"
#include "util/intern.h"
#include "util/strbuf.h"

static bool live(const struct elab_var *v)
{
	return !v->elided;
}

/* The -G value of @v, or NULL. */
static const char *g_value(struct xl *x, const struct elab_var *v)
{
	size_t n = strlen(v->name);
	int i;

	for (i = x->s->globals.n - 1; i >= 0; i--) {
		const char *g = x->s->globals.v[i];

		if (!strncmp(g, v->name, n) && g[n] == '=')
			return g + n + 1;
	}
	return NULL;
}

static const char *type_const(enum stap_type t)
{
	return t == TYPE_STRING ? "STP_STRING" : "STP_LONG";
}

/* Histogram and @variance shift of a statistics global. */
struct stat_scan {
	struct ast_visitor v;
	struct xl *x;
	const struct elab_var *var;
	int64_t shift;
};

static bool scan_variance(struct ast_visitor *v, struct expr *e)
{
	struct stat_scan *s = (struct stat_scan *)v;
	const struct expr *op, *b;

	if (e->kind != EXPR_STAT || strcmp(e->stat.op, "variance") || e->stat.args.n < 2)
		return true;
	op = e->stat.args.v[0];
	b = e->stat.args.v[1];
	if (op->kind == EXPR_INDEX)
		op = op->index.base;
	if (xl_var(s->x, op) == s->var && b->kind == EXPR_NUMBER && s->shift < 0)
		s->shift = b->num;
	return true;
}

static int64_t variance_shift(struct xl *x, const struct elab_var *var)
{
	struct stat_scan s = { { scan_variance, NULL }, x, var, -1 };
	size_t i;

	for (i = 0; i < x->r->probes.n; i++) {
		struct elab_probe *p = x->r->probes.v[i];

		if (!p->elided)
			ast_walk_stmt(&s.v, p->body);
	}
	for (i = 0; i < x->r->func_list.n; i++) {
		struct elab_func *f = x->r->func_list.v[i];

		if (f->used && f->decl->func.body)
			ast_walk_stmt(&s.v, f->decl->func.body);
	}
	return s.shift < 0 ? 0 : s.shift;
}

const char *xl_stat_desc(struct xl *x, const struct elab_var *v)
{
	struct strbuf sb = STRBUF_INIT;
	int64_t shift = variance_shift(x, v);

	if (v->hist == HIST_LINEAR && v->hist_expr) {
		const struct ptrvec *ps = &v->hist_expr->hist.params;
		int64_t p[3] = { 0, 0, 1 };
		size_t i;

		for (i = 0; i < 3 && i < ps->n; i++) {
			const struct expr *e = ps->v[i];

			if (e->kind == EXPR_NUMBER)
				p[i] = e->num;
		}
		sb_addf(&sb, "{ .hist = STP_HIST_LINEAR, .shift = %" PRId64 ", .lo = %" PRId64
			"LL, .hi = %" PRId64 "LL, .step = %" PRId64 "LL }", shift, p[0], p[1], p[2]);
	} else {
		sb_addf(&sb, "{ .hist = %s, .shift = %" PRId64 " }",
			v->hist == HIST_LOG ? "STP_HIST_LOG" : "STP_HIST_NONE", shift);
	}
	return sb_to_arena(&sb, x->a);
}

/* How many foreach loops over @v are nested at most, lexically, in @s
 * (@d: those around @s). */
static unsigned foreach_depth(struct xl *x, const struct elab_var *v,
			      const struct stmt *s, unsigned d)
{
	unsigned best = d, k;
	size_t i;

	if (!s)
		return d;
	switch (s->kind) {
	case STMT_BLOCK:
		for (i = 0; i < s->stmts.n; i++)
			if ((k = foreach_depth(x, v, s->stmts.v[i], d)) > best)
				best = k;
		return best;
	case STMT_IF:
		best = foreach_depth(x, v, s->if_.then, d);
		k = foreach_depth(x, v, s->if_.els, d);
		return k > best ? k : best;
	case STMT_WHILE:
	case STMT_FOR:
		return foreach_depth(x, v, s->loop.body, d);
	case STMT_TRY:
		best = foreach_depth(x, v, s->try_.body, d);
		k = foreach_depth(x, v, s->try_.handler, d);
		return k > best ? k : best;
	case STMT_FOREACH: {
		const struct expr *a = s->fe->array;

		if (a->kind == EXPR_INDEX)
			a = a->index.base;
		if (xl_var(x, a) == v)
			d++;
		k = foreach_depth(x, v, s->fe->body, d);
		return k > d ? k : d;
	}
	case STMT_NULL:
	case STMT_EXPR:
	case STMT_BREAK:
	case STMT_CONTINUE:
	case STMT_NEXT:
	case STMT_RETURN:
	case STMT_DELETE:
		return d;
	}
	return d;
}

/* Iteration arrays @v needs: its deepest nesting of foreach loops. */
static unsigned iter_slots(struct xl *x, const struct elab_var *v)
{
	unsigned best = 1, k;
	size_t i;

	for (i = 0; i < x->r->probes.n; i++) {
		const struct elab_probe *p = x->r->probes.v[i];

		if (!p->elided && (k = foreach_depth(x, v, p->body, 0)) > best)
			best = k;
	}
	for (i = 0; i < x->r->func_list.n; i++) {
		const struct elab_func *f = x->r->func_list.v[i];

		if (f->used && f->decl->func.body &&
		    (k = foreach_depth(x, v, f->decl->func.body, 0)) > best)
			best = k;
	}
	return best > 255 ? 255 : best;
}

static const char *map_desc(struct xl *x, const struct elab_var *v, const char **ovf)
{
	struct strbuf sb = STRBUF_INIT;
	int64_t size = v->decl ? v->decl->global.size : 0;
	int i;

	sb_addf(&sb, "{ .nkeys = %d, .key_type = { ", v->arity);
	for (i = 0; i < v->arity; i++)
		sb_addf(&sb, "%s%s", i ? ", " : "", type_const(v->idx[i]));
	sb_addf(&sb, " }, .val_type = %s, .max_entries = %s, .wrap = %s, .iter_slots = %u }",
		type_const(v->type),
		size > 0 ? arena_printf(x->a, "%" PRId64, size) : "MAXMAPENTRIES",
		v->decl && v->decl->global.wrap ? "true" : "false", iter_slots(x, v));
	*ovf = size > 0 ? arena_printf(x->a, "\"Array overflow, check size limit (%" PRId64 ")\"", size)
			: "\"Array overflow, check MAXMAPENTRIES\"";
	return sb_to_arena(&sb, x->a);
}

void xl_globals(struct xl *x)
{
	struct strbuf init = STRBUF_INIT, fini = STRBUF_INIT;
	size_t i;

	em_head(x, "/* ---- globals ---- */");
	for (i = 0; i < x->r->global_list.n; i++) {
		struct elab_var *v = x->r->global_list.v[i];
		const char *g = xl_global(x, v), *val = g_value(x, v), *ovf;
		const struct expr *in = v->decl ? v->decl->global.init : NULL;

		if (!live(v))
			continue;
		em_head(x, "static DEFINE_RWLOCK(stp_glock_%s);", v->name);
		if (v->arity > 0) {
			const char *md = map_desc(x, v, &ovf);

			if (v->type == TYPE_STATS) {
				em_head(x, "static struct stp_pmap %s;", g);
				sb_addf(&init, "\t{\n\t\tstatic const struct stp_map_desc md = %s;\n"
					"\t\tstatic const struct stp_stat_desc sd = %s;\n\n"
					"\t\tif (stp_pmap_init(&%s, &md, &sd, %s))\n\t\t\treturn -ENOMEM;\n\t}\n",
					md, xl_stat_desc(x, v), g, ovf);
				sb_addf(&fini, "\tstp_pmap_free(&%s);\n", g);
			} else {
				em_head(x, "static struct stp_array %s;", g);
				sb_addf(&init, "\t{\n\t\tstatic const struct stp_map_desc md = %s;\n\n"
					"\t\tif (stp_array_init(&%s, &md, %s))\n\t\t\treturn -ENOMEM;\n\t}\n",
					md, g, ovf);
				sb_addf(&fini, "\tstp_map_free(%s.m);\n", g);
			}
		} else if (v->type == TYPE_STATS) {
			em_head(x, "static struct stp_pstat %s;", g);
			sb_addf(&init, "\t{\n\t\tstatic const struct stp_stat_desc sd = %s;\n\n"
				"\t\tif (stp_pstat_init(&%s, &sd))\n\t\t\treturn -ENOMEM;\n\t}\n",
				xl_stat_desc(x, v), g);
			sb_addf(&fini, "\tstp_pstat_free(&%s);\n", g);
		} else if (v->type == TYPE_STRING) {
			const char *text = val ? c_string(x->a, val, strlen(val))
				: in && in->kind == EXPR_STRING ? c_string(x->a, in->str.s, in->str.len)
				: "\"\"";

			em_head(x, "static char %s[MAXSTRINGLEN] = %s;", g, text);
			/* The parameter is named as the global; module_param_string()
			 * and module_param_named() would expand a name that is also a
			 * kernel macro (io/inodewatch2's ATTR_MODE), the inner
			 * __module_param_call() only pastes and quotes it. */
			em_head(x, "static const struct kparam_string stp_pstring_%s = { MAXSTRINGLEN, %s };",
				v->name, g);
			em_head(x, "__module_param_call(MODULE_PARAM_PREFIX, %s, &param_ops_string, "
				".str = &stp_pstring_%s, 0, -1, 0);", v->name, v->name);
			em_head(x, "__MODULE_PARM_TYPE(%s, \"string\");", v->name);
		} else {
			const char *text = val ? arena_printf(x->a, "%lldLL", strtoll(val, NULL, 0))
				: in && in->kind == EXPR_NUMBER
					? (in->num == INT64_MIN ? "(-9223372036854775807LL - 1)"
						: arena_printf(x->a, "%" PRId64 "LL", in->num))
				: "0";

			em_head(x, "static s64 %s;", g);
			em_head(x, "static long stp_param_%s = %s;", v->name, text);
			em_head(x, "__module_param_call(MODULE_PARAM_PREFIX, %s, &param_ops_long, "
				"&stp_param_%s, 0, -1, 0);", v->name, v->name);
			em_head(x, "__MODULE_PARM_TYPE(%s, \"long\");", v->name);
			sb_addf(&init, "\t%s = stp_param_%s;\n", g, v->name);
		}
	}
	em_head(x, "\nstatic int stp_globals_init(void)\n{\n%s\treturn 0;\n}\n", sb_str(&init));
	em_head(x, "static void stp_globals_free(void)\n{\n%s}\n", sb_str(&fini));
	sb_release(&init);
	sb_release(&fini);
}

const char *xl_monitor_globals(struct xl *x)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < x->r->global_list.n; i++) {
		struct elab_var *v = x->r->global_list.v[i];
		const char *g = xl_global(x, v), *kind = "STP_MG_LONG", *var = g;
		const char *init = "NULL";

		if (!live(v))
			continue;
		if (v->arity > 0)
			kind = v->type == TYPE_STATS ? "STP_MG_PMAP" : "STP_MG_ARRAY";
		else if (v->type == TYPE_STATS)
			kind = "STP_MG_STAT";
		else if (v->type == TYPE_STRING)
			kind = "STP_MG_STRING";
		else
			init = arena_printf(x->a, "&stp_param_%s", v->name);
		if (v->type != TYPE_STRING || v->arity > 0)
			var = arena_printf(x->a, "&%s", g);
		sb_addf(&sb, "\t{ \"%s\", %s, %s, &stp_glock_%s, %s },\n", v->name, kind, var,
			v->name, init);
	}
	return sb_to_arena(&sb, x->a);
}

/* ---- locks ---- */

struct lock_scan {
	struct ast_visitor v;
	struct xl *x;
	char *mode;			/* per global: 0, 'r', 'w' */
	struct ptrmap seen;		/* functions walked */
};

static void mark(struct lock_scan *ls, const struct expr *e, char m)
{
	struct elab_var *v;
	size_t i;

	if (e && e->kind == EXPR_INDEX)
		e = e->index.base;
	if (!e || e->kind != EXPR_SYMBOL || !(v = xl_var(ls->x, e)) || v->scope != VAR_GLOBAL)
		return;
	for (i = 0; i < ls->x->r->global_list.n; i++)
		if (ls->x->r->global_list.v[i] == v && ls->mode[i] != 'w')
			ls->mode[i] = m;
}

static void walk_func(struct lock_scan *ls, struct elab_func *f);

/* Embedded C names what it touches: pragma:read:NAME, pragma:write:NAME. */
static void pragmas(struct lock_scan *ls, const char *code)
{
	size_t i;

	for (i = 0; i < ls->x->r->global_list.n; i++) {
		const struct elab_var *v = ls->x->r->global_list.v[i];
		char *r = arena_printf(ls->x->a, "pragma:read:%s", v->name);
		char *w = arena_printf(ls->x->a, "pragma:write:%s", v->name);

		if (strstr(code, w))
			ls->mode[i] = 'w';
		else if (strstr(code, r) && ls->mode[i] != 'w')
			ls->mode[i] = 'r';
	}
}

static bool lock_expr(struct ast_visitor *v, struct expr *e)
{
	struct lock_scan *ls = (struct lock_scan *)v;
	struct elab_func *f;

	if (e->kind == EXPR_SYMBOL) {
		mark(ls, e, 'r');
	} else if (e->kind == EXPR_ASSIGN) {
		mark(ls, e->bin.l, e->bin.op == OP_STATS_ADD ? 'r' : 'w');
	} else if (e->kind == EXPR_CREMENT) {
		mark(ls, e->un.e, 'w');
	} else if (e->kind == EXPR_STAT) {
		if (e->stat.args.n)
			mark(ls, e->stat.args.v[0], 'w');
	} else if (e->kind == EXPR_HIST) {
		mark(ls, e->hist.operand, 'w');
	} else if (e->kind == EXPR_IN) {
		mark(ls, e->in.array, 'w');
	} else if (e->kind == EXPR_CALL) {
		f = ptrmap_get(&ls->x->r->func_of, e);
		if (f)
			walk_func(ls, f);
	}
	return true;
}

static bool lock_stmt(struct ast_visitor *v, struct stmt *s)
{
	struct lock_scan *ls = (struct lock_scan *)v;

	if (s->kind == STMT_DELETE)
		mark(ls, s->expr, 'w');
	else if (s->kind == STMT_FOREACH)
		mark(ls, s->fe->array, 'w');
	return true;
}

static void walk_func(struct lock_scan *ls, struct elab_func *f)
{
	if (ptrmap_get(&ls->seen, f))
		return;
	ptrmap_put(ls->x->a, &ls->seen, f, f);
	if (f->decl->func.code)
		pragmas(ls, f->decl->func.code);
	else
		ast_walk_stmt(&ls->v, f->decl->func.body);
}

const char *xl_locks(struct xl *x, struct elab_probe *p, unsigned *n)
{
	struct lock_scan ls = { { lock_expr, lock_stmt }, x, NULL, { 0 } };
	struct strbuf sb = STRBUF_INIT;
	const char *name, *key;
	size_t i, j;

	ls.mode = arena_alloc(x->a, x->r->global_list.n + 1);
	memset(ls.mode, 0, x->r->global_list.n + 1);
	ast_walk_stmt(&ls.v, p->body);
	for (i = 0; i < p->points.n; i++) {
		const struct elab_point *pt = p->points.v[i];

		if (pt->cond)
			ast_walk_expr(&ls.v, pt->cond);
	}
	*n = 0;
	for (i = 0; i < x->r->global_list.n; i++) {
		const struct elab_var *v = x->r->global_list.v[i];

		if (!ls.mode[i] || !live(v))
			continue;
		sb_addf(&sb, "\t{ &stp_glock_%s, %s },\n", v->name,
			ls.mode[i] == 'w' ? "true" : "false");
		(*n)++;
	}
	if (!*n) {
		sb_release(&sb);
		return "NULL";
	}
	key = intern(x->r->in, sb_str(&sb));
	name = ptrmap_get(&x->locks_of, key);
	if (!name) {
		j = (size_t)x->nlabel++;
		name = arena_printf(x->a, "stp_locks%zu", j);
		em_head(x, "static const struct stp_lockreq %s[] = {\n%s};", name, key);
		ptrmap_put(x->a, &x->locks_of, key, (void *)name);
	}
	sb_release(&sb);
	return name;
}
