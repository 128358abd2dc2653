// SPDX-License-Identifier: GPL-2.0-or-later
/* listing.c: -l / -L (the probe points a pattern resolves to, with their
 * variables) and --dump-probe-types / --dump-probe-aliases /
 * --dump-functions. */
#include "elaborate/probe_match.h"

#include <stdlib.h>
#include <string.h>

#include "elaborate/dwarf.h"
#include "parse/parse.h"
#include "util/arena.h"
#include "util/diag.h"
#include "util/intern.h"
#include "util/source.h"
#include "util/strbuf.h"

static int cmp_var(const void *a, const void *b)
{
	const struct elab_var *x = *(const struct elab_var *const *)a;
	const struct elab_var *y = *(const struct elab_var *const *)b;

	return strcmp(x->name, y->name);
}

/* Print the sorted unique strings of @v. */
static int print_sorted(FILE *out, struct ptrvec *v)
{
	size_t i, n = vec_sort_unique_str(v);

	for (i = 0; i < n; i++)
		fprintf(out, "%s\n", (const char *)v->v[i]);
	return (int)n;
}

/* The variables of point @pt of probe @p, each as " name:type", one a
 * line in @out: the script's locals by name, then the $target
 * variables. */
static void point_vars(struct elab *e, const struct elab_probe *p,
		       const struct elab_point *pt, struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT;
	struct ptrvec vars = { 0 };
	const char *s, *next;
	size_t i;

	vec_append(e->a, &vars, &p->locals);
	if (vars.n)
		qsort(vars.v, vars.n, sizeof(*vars.v), cmp_var);
	for (i = 0; i < vars.n; i++) {
		const struct elab_var *v = vars.v[i];

		/* As the reference: "__" names are the library's own
		 * temporaries; "_sock" and the like are listed. */
		if (v->scope == VAR_LOCAL && strncmp(v->name, "__", 2))
			sb_addf(out, " %s:%s\n", v->name, type_name(v->type));
	}
	if (pt->family && pt->family->procfs)
		sb_adds(out, " $value:string\n");
	/* the family's own context variables, then the DWARF ones:
	 * " $a:T1 $b:T2", where a type never holds " $" */
	if (pt->family && pt->family->listed_vars)
		sb_adds(&sb, pt->family->listed_vars);
	if (pt->site)
		dw_list_vars(e, pt->site, &sb);
	for (s = sb.buf ? sb.buf : ""; *s; s = next) {
		next = strstr(s + 1, " $");
		if (!next)
			next = s + strlen(s);
		sb_addn(out, s, (size_t)(next - s));
		sb_addc(out, '\n');
	}
	sb_release(&sb);
}

/* Does @vars (lines) have the line @var (@n bytes, without its '\n')? */
static bool has_var(const char *vars, const char *var, size_t n)
{
	const char *end;

	for (; *vars; vars = end + 1) {
		end = strchr(vars, '\n');
		if ((size_t)(end - vars) == n && !memcmp(vars, var, n))
			return true;
	}
	return false;
}

/* Is @pt an inlined copy of a DWARF function? (An SDT marker's site
 * has no function.) */
static bool point_inlined(const struct elab_point *pt)
{
	return pt->site && pt->site->fn && (pt->site->fn->flags & DWF_INLINED);
}

/* A point -L lists: its name, its probe, its place in the order the
 * points were derived in, and its variables (point_vars). */
struct lpoint {
	const char *listed;
	const struct elab_point *pt;
	const struct elab_probe *p;
	size_t idx;
	char *vars;
};

/* The order of the points' DIEs: listing their variables then reads the
 * DWARF from start to end (dw_list_vars gives the pages back). */
static int cmp_die(const void *pa, const void *pb)
{
	const struct lpoint *x = pa, *y = pb;
	const struct dw_site *a = x->pt->site, *b = y->pt->site;
	uint64_t da = a && a->fn ? a->fn->die : 0, db = b && b->fn ? b->fn->die : 0;
	uintptr_t ma = a ? (uintptr_t)a->mod : 0, mb = b ? (uintptr_t)b->mod : 0;

	if (ma != mb)
		return ma < mb ? -1 : 1;
	if (da != db)
		return da < db ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* By name, then in the order derived: each name's points together. */
static int cmp_listed(const void *pa, const void *pb)
{
	const struct lpoint *x = pa, *y = pb;
	int c = strcmp(x->listed, y->listed);

	if (c)
		return c;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* The -L line of the points listed under one name (@v, @n of them): as
 * the reference, the variables all of them have, with the same type (an
 * alias over several probe points or several aliases lists what a
 * script may use at every one). Of a DWARF function's copies the
 * out-of-line ones count, or the first inlined one when it has none. */
static const char *group_line(struct elab *e, const struct lpoint *v, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	const struct lpoint **in = calloc(n, sizeof(*in));
	const char *s, *end;
	bool outline = false, inl_seen = false;
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (v[i].pt->site && !point_inlined(v[i].pt))
			outline = true;
	for (i = 0; in && i < n; i++) {
		if (point_inlined(v[i].pt)) {
			if (outline || inl_seen)
				continue;
			inl_seen = true;
		}
		in[k++] = &v[i];
	}
	sb_adds(&sb, v[0].listed);
	for (s = k ? in[0]->vars : ""; *s; s = end + 1) {
		bool all = true;

		end = strchr(s, '\n');
		for (i = 1; i < k && all; i++)
			all = has_var(in[i]->vars, s, (size_t)(end - s));
		if (all)
			sb_addn(&sb, s, (size_t)(end - s));
	}
	free(in);
	return sb_to_arena(&sb, e->a);
}

/* The -L lines of the points of e->out.probes, in @lines. */
static void vars_lines(struct elab *e, struct ptrvec *lines)
{
	struct lpoint *v;
	struct strbuf sb = STRBUF_INIT;
	size_t n = 0, i, j;

	for (i = 0; i < e->out.probes.n; i++) {
		const struct elab_probe *p = e->out.probes.v[i];

		if (!p->entry_helper)
			n += p->points.n;
	}
	v = calloc(n ? n : 1, sizeof(*v));
	if (!v)
		return;
	for (i = 0, n = 0; i < e->out.probes.n; i++) {
		const struct elab_probe *p = e->out.probes.v[i];

		for (j = 0; !p->entry_helper && j < p->points.n; j++, n++) {
			const struct elab_point *pt = p->points.v[j];

			v[n] = (struct lpoint){ pt->listed, pt, p, n, NULL };
		}
	}
	qsort(v, n, sizeof(*v), cmp_die);
	for (i = 0; i < n; i++) {
		sb_reset(&sb);
		point_vars(e, v[i].p, v[i].pt, &sb);
		v[i].vars = strdup(sb.buf ? sb.buf : "");
	}
	sb_release(&sb);
	qsort(v, n, sizeof(*v), cmp_listed);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && !strcmp(v[j].listed, v[i].listed); j++)
			;
		vec_push(e->a, lines, (void *)group_line(e, v + i, j - i));
	}
	for (i = 0; i < n; i++)
		free(v[i].vars);
	free(v);
}

int pm_list(struct elab *e, const char *pattern, bool vars, FILE *out)
{
	const char *text = arena_printf(e->a, "probe %s {}", pattern);
	struct source *src = source_from_mem(e->a, "<listing>", text,
					     strlen(text));
	struct ptrvec lines = { 0 };
	struct ast_file *f;
	size_t i, j;

	f = parse_file(e->penv, src, false);
	if (diag_errors(e->d))
		return -1;
	/* Listing reports what resolves; errors of the rest are not shown. */
	e->d->muted++;
	e->listing = true;
	e->list_names = !vars;
	elab_include_file(e, f);
	for (i = 0; i < f->decls.n; i++) {
		struct decl *d = f->decls.v[i];

		if (d->kind == DECL_PROBE)
			pm_derive(e, d, f->src);
	}
	for (i = 0; i < e->listed_points.n; i++)
		vec_push(e->a, &lines, (void *)((struct elab_point *)e->listed_points.v[i])->listed);
	if (vars) {
		for (i = 0; i < e->out.probes.n; i++)
			sym_resolve_probe(e, e->out.probes.v[i]);
		sym_resolve_pending(e);
		type_infer(e);
	}
	e->d->muted--;
	if (vars) {
		vars_lines(e, &lines);
		return print_sorted(out, &lines);
	}
	for (i = 0; i < e->out.probes.n; i++) {
		struct elab_probe *p = e->out.probes.v[i];

		for (j = 0; !p->entry_helper && j < p->points.n; j++)
			vec_push(e->a, &lines,
				 (void *)((struct elab_point *)p->points.v[j])->listed);
	}
	return print_sorted(out, &lines);
}

static void dump_node(struct elab *e, const struct pm_node *n,
		      const char *prefix, struct ptrvec *out)
{
	size_t i;

	for (i = 0; i < n->kids.n; i++) {
		const struct pm_node *k = n->kids.v[i];
		const char *text = arena_printf(e->a, "%s%s%s%s", prefix,
						*prefix ? "." : "", k->name,
						k->param == PM_NUM ? "(number)" :
						k->param == PM_STR ? "(string)" : "");

		if (k->family)
			vec_push(e->a, out, (void *)text);
		dump_node(e, k, text, out);
	}
}

void pm_dump_types(struct elab *e, FILE *out)
{
	struct ptrvec lines = { 0 };

	dump_node(e, e->root, "", &lines);
	print_sorted(out, &lines);
}

static void alias_lines(struct elab *e, const struct pm_node *n,
			struct ptrvec *out)
{
	size_t i, j, k;

	for (i = 0; i < n->aliases.n; i++) {
		const struct decl *d = n->aliases.v[i];
		struct strbuf sb = STRBUF_INIT;

		for (j = 0; j < d->probe.names.n; j++) {
			const char *name = pm_point_text(e, d->probe.names.v[j]);

			sb_reset(&sb);
			sb_addf(&sb, "%s %s ", name, d->probe.epilogue ? "+=" : "=");
			for (k = 0; k < d->probe.points.n; k++)
				sb_addf(&sb, "%s%s", k ? ", " : "",
					pm_point_text(e, d->probe.points.v[k]));
			vec_push(e->a, out, sb_to_arena(&sb, e->a));
		}
	}
	for (i = 0; i < n->kids.n; i++)
		alias_lines(e, n->kids.v[i], out);
}

void elab_print_aliases(struct elab *e, FILE *out)
{
	struct ptrvec lines = { 0 };

	tapset_include_all(e);
	alias_lines(e, e->root, &lines);
	print_sorted(out, &lines);
}

void elab_print_functions(struct elab *e, FILE *out)
{
	struct ptrvec lines = { 0 };
	size_t i, j;

	tapset_include_all(e);
	/* Infer every function's types; problems are not ours to report. */
	e->d->muted++;
	for (i = 0; i < e->out.func_list.n; i++) {
		struct elab_func *f = e->out.func_list.v[i];

		if (!f->used) {
			f->used = true;
			vec_push(e->a, &e->pending, f);
		}
	}
	sym_resolve_pending(e);
	type_infer(e);
	e->d->muted--;
	for (i = 0; i < e->out.func_list.n; i++) {
		const struct elab_func *f = e->out.func_list.v[i];
		struct strbuf sb = STRBUF_INIT;

		if (f->decl->private_)
			continue;
		sb_addf(&sb, "%s:%s (", f->name, type_name(f->ret));
		for (j = 0; j < (size_t)f->arity; j++)
			sb_addf(&sb, "%s%s:%s", j ? ", " : "", f->params[j]->name,
				type_name(f->params[j]->type));
		sb_adds(&sb, ")");
		vec_push(e->a, &lines, sb_to_arena(&sb, e->a));
	}
	print_sorted(out, &lines);
}
