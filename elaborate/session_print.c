// SPDX-License-Identifier: GPL-2.0-or-later
/* session_print.c: the -p2 output: embedded code, globals with types,
 * functions, and every derived probe with its derivation and locals
 * (bodies too with -v). The format is documented in doc/pass2.md. */
#include "elaborate/elab.h"

#include "parse/parse.h"

static void print_var(FILE *out, const struct elab_var *v, const char *indent)
{
	int i;

	fprintf(out, "%s%s", indent, v->name);
	if (v->decl && v->decl->kind == DECL_GLOBAL) {
		if (v->decl->global.wrap)
			fputc('%', out);
		if (v->decl->global.size)
			fprintf(out, "[%lld]", (long long)v->decl->global.size);
	}
	fprintf(out, ":%s", type_name(v->type));
	if (v->arity > 0) {
		fputs(" [", out);
		for (i = 0; i < v->arity && i < ELAB_MAX_INDEX; i++)
			fprintf(out, "%s%s", i ? ", " : "", type_name(v->idx[i]));
		fputc(']', out);
	}
	fputc('\n', out);
}

static void print_locals(FILE *out, const struct ptrvec *locals)
{
	size_t i, n = 0;

	for (i = 0; i < locals->n; i++)
		if (((const struct elab_var *)locals->v[i])->scope == VAR_LOCAL)
			n++;
	if (!n)
		return;
	fputs("  # locals\n", out);
	for (i = 0; i < locals->n; i++) {
		const struct elab_var *v = locals->v[i];

		if (v->scope == VAR_LOCAL)
			print_var(out, v, "  ");
	}
}

static void print_body(FILE *out, const struct stmt *body)
{
	ast_print_stmt(out, body, 0);
	fputc('\n', out);
}

void elab_print(struct elab *e, FILE *out, bool bodies)
{
	size_t i, j;
	int k;

	if (e->out.embeds.n) {
		fputs("# global embedded code\n", out);
		for (i = 0; i < e->out.embeds.n; i++) {
			const struct decl *d = e->out.embeds.v[i];

			fprintf(out, "%%{%s%%}\n", d->code);
		}
	}
	for (i = 0, k = 0; i < e->out.global_list.n; i++) {
		const struct elab_var *v = e->out.global_list.v[i];

		if (v->elided)
			continue;
		if (!k++)
			fputs("# globals\n", out);
		print_var(out, v, "");
	}
	for (i = 0, k = 0; i < e->out.func_list.n; i++) {
		const struct elab_func *f = e->out.func_list.v[i];

		if (!f->used)
			continue;
		if (!k++)
			fputs("# functions\n", out);
		fprintf(out, "%s:%s (", f->name, type_name(f->ret));
		for (j = 0; j < (size_t)f->arity; j++)
			fprintf(out, "%s%s:%s", j ? ", " : "", f->params[j]->name,
				type_name(f->params[j]->type));
		fputs(")\n", out);
		print_locals(out, &f->locals);
		if (bodies && f->decl->func.body)
			print_body(out, f->decl->func.body);
		else if (bodies)
			fprintf(out, "%%{%s%%}\n", f->decl->func.code);
	}
	fputs("# probes\n", out);
	for (i = 0; i < e->out.probes.n; i++) {
		const struct elab_probe *p = e->out.probes.v[i];

		if (p->elided)
			continue;
		for (j = 0; j < p->points.n; j++) {
			const struct elab_point *pt = p->points.v[j];

			fprintf(out, "%s%s", pt->name, pt->marks ? pt->marks : "");
			if (pt->cond) {
				fputs(" if (", out);
				ast_print_expr(out, pt->cond);
				fputc(')', out);
			}
			if (pt->comment)
				fprintf(out, " /* %s */", pt->comment);
			fprintf(out, " /*%s */\n", pt->chain);
			print_locals(out, &p->locals);
			if (bodies)
				print_body(out, p->body);
		}
	}
}
