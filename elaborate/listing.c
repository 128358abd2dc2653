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

/* The variables of point @pt of probe @p, each as " name:type": the
 * script's locals by name, then the $target variables. */
static void point_vars(struct elab *e, const struct elab_probe *p,
		       const struct elab_point *pt, struct ptrvec *out)
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
			vec_push(e->a, out, arena_printf(e->a, " %s:%s", v->name,
							 type_name(v->type)));
	}
	if (pt->family && pt->family->procfs)
		vec_push(e->a, out, (void *)" $value:string");
	/* the family's own context variables, then the DWARF ones:
	 * " $a:T1 $b:T2", where a type never holds " $" */
	if (pt->family && pt->family->listed_vars)
		sb_adds(&sb, pt->family->listed_vars);
	if (pt->site)
		dw_list_vars(e, pt->site, &sb);
	s = sb_to_arena(&sb, e->a);
	for (; *s; s = next) {
		next = strstr(s + 1, " $");
		if (!next)
			next = s + strlen(s);
		vec_push(e->a, out, arena_strndup(e->a, s, (size_t)(next - s)));
	}
}

static bool has_var(const struct ptrvec *v, const char *var)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		if (!strcmp(v->v[i], var))
			return true;
	return false;
}

/* Is @pt an inlined copy of a DWARF function? (An SDT marker's site
 * has no function.) */
static bool point_inlined(const struct elab_point *pt)
{
	return pt->site && pt->site->fn && (pt->site->fn->flags & DWF_INLINED);
}

/* The -L line of the points listed under one name (@pts, their probes
 * @probes): as the reference, the variables all of them have, with the
 * same type (an alias over several probe points or several aliases lists
 * what a script may use at every one). Of a DWARF function's copies the
 * out-of-line ones count, or the first inlined one when it has none. */
static const char *group_line(struct elab *e, const struct ptrvec *pts,
			      const struct ptrvec *probes)
{
	struct strbuf sb = STRBUF_INIT;
	struct ptrvec common = { 0 };
	bool outline = false, first = true, inl_seen = false;
	size_t i, j, k;

	for (i = 0; i < pts->n; i++) {
		const struct elab_point *pt = pts->v[i];

		if (pt->site && !point_inlined(pt))
			outline = true;
	}
	for (i = 0; i < pts->n; i++) {
		const struct elab_point *pt = pts->v[i];
		struct ptrvec vars = { 0 };

		if (point_inlined(pt)) {
			if (outline || inl_seen)
				continue;
			inl_seen = true;
		}
		point_vars(e, probes->v[i], pt, &vars);
		if (first) {
			common = vars;
			first = false;
			continue;
		}
		for (j = k = 0; j < common.n; j++)
			if (has_var(&vars, common.v[j]))
				common.v[k++] = common.v[j];
		common.n = k;
	}
	sb_adds(&sb, ((const struct elab_point *)pts->v[0])->listed);
	for (j = 0; j < common.n; j++)
		sb_adds(&sb, common.v[j]);
	return sb_to_arena(&sb, e->a);
}

int pm_list(struct elab *e, const char *pattern, bool vars, FILE *out)
{
	const char *text = arena_printf(e->a, "probe %s {}", pattern);
	struct source *src = source_from_mem(e->a, "<listing>", text,
					     strlen(text));
	struct ptrvec lines = { 0 }, keys = { 0 };
	struct ptrmap points = { 0 }, probes = { 0 };
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
	for (i = 0; i < e->out.probes.n; i++) {
		struct elab_probe *p = e->out.probes.v[i];

		if (p->entry_helper)
			continue;
		for (j = 0; j < p->points.n; j++) {
			struct elab_point *pt = p->points.v[j];
			const char *key;

			if (!vars) {
				vec_push(e->a, &lines, (void *)pt->listed);
				continue;
			}
			/* one line per listed name */
			key = intern(e->in, pt->listed);
			if (!ptrmap_get(&points, key))
				vec_push(e->a, &keys, (void *)key);
			vec_push(e->a, ptrmap_list(e->a, &points, key), pt);
			vec_push(e->a, ptrmap_list(e->a, &probes, key), p);
		}
	}
	for (i = 0; i < keys.n; i++)
		vec_push(e->a, &lines,
			 (void *)group_line(e, ptrmap_list(e->a, &points, keys.v[i]),
					    ptrmap_list(e->a, &probes, keys.v[i])));
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
