// SPDX-License-Identifier: GPL-2.0-or-later
/* ast_print.c: the canonical, re-parsable text of a parsed script (-p1).
 * Every operand is parenthesised so precedence never decides anything;
 * literals are re-escaped; printing a parse of this output reproduces it. */
#include "parse/parse.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "parse/ast.h"

struct printer {
	FILE *out;
	int indent;
};

static void print_expr(struct printer *pr, const struct expr *e);
static void print_stmt(struct printer *pr, const struct stmt *s);

static void indent(struct printer *pr)
{
	int i;

	for (i = 0; i < pr->indent; i++)
		fputc('\t', pr->out);
}

static void print_string(FILE *out, const char *s, size_t len)
{
	size_t i;

	fputc('"', out);
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		switch (c) {
		case '"': fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\n': fputs("\\n", out); break;
		case '\t': fputs("\\t", out); break;
		case '\r': fputs("\\r", out); break;
		case '\a': fputs("\\a", out); break;
		case '\b': fputs("\\b", out); break;
		case '\f': fputs("\\f", out); break;
		case '\v': fputs("\\v", out); break;
		default:
			if (c < 32 || c == 127)
				fprintf(out, "\\%03o", c);
			else
				fputc(c, out);
		}
	}
	fputc('"', out);
}

static void print_list(struct printer *pr, const struct ptrvec *v)
{
	size_t i;

	for (i = 0; i < v->n; i++) {
		if (i)
			fputs(", ", pr->out);
		print_expr(pr, v->v[i]);
	}
}

static void paren(struct printer *pr, const struct expr *e)
{
	fputc('(', pr->out);
	print_expr(pr, e);
	fputc(')', pr->out);
}

static void print_path(struct printer *pr, const struct target_path *path)
{
	size_t i;

	for (i = 0; i < path->comps.n; i++) {
		const struct target_comp *c = path->comps.v[i];

		if (c->is_index) {
			fputc('[', pr->out);
			print_expr(pr, c->index);
			fputc(']', pr->out);
		} else {
			fprintf(pr->out, "->%s", c->field);
		}
	}
	fputs(path->pretty == 2 ? "$$" : path->pretty == 1 ? "$" : "", pr->out);
}

static void print_expr(struct printer *pr, const struct expr *e)
{
	FILE *out = pr->out;

	switch (e->kind) {
	case EXPR_NUMBER:
		fprintf(out, "%" PRId64, e->num);
		break;
	case EXPR_STRING:
		print_string(out, e->str.s, e->str.len);
		break;
	case EXPR_SYMBOL:
	case EXPR_PROBEWRITE:
		if (e->kind == EXPR_PROBEWRITE)
			fprintf(out, "@probewrite(%s)", e->name);
		else
			fputs(e->name, out);
		break;
	case EXPR_WILDCARD:
		fputc('*', out);
		break;
	case EXPR_INDEX:
		print_expr(pr, e->index.base);
		fputc('[', out);
		print_list(pr, &e->index.idx);
		fputc(']', out);
		break;
	case EXPR_CALL:
		fprintf(out, "%s(", e->call.name);
		print_list(pr, &e->call.args);
		fputc(')', out);
		break;
	case EXPR_PRINT:
		fprintf(out, "%s(", e->print.pk->name);
		if (e->print.fmt) {
			print_expr(pr, e->print.fmt);
			if (e->print.args.n)
				fputs(", ", out);
		}
		print_list(pr, &e->print.args);
		fputc(')', out);
		break;
	case EXPR_BINARY:
	case EXPR_ASSIGN:
		paren(pr, e->bin.l);
		fprintf(out, " %s ", op_spelling(e->bin.op));
		paren(pr, e->bin.r);
		break;
	case EXPR_UNARY:
		fputs(op_spelling(e->un.op), out);
		paren(pr, e->un.e);
		break;
	case EXPR_CREMENT:
		if (e->un.op == OP_PREINC || e->un.op == OP_PREDEC) {
			fputs(op_spelling(e->un.op), out);
			paren(pr, e->un.e);
		} else {
			paren(pr, e->un.e);
			fputs(op_spelling(e->un.op), out);
		}
		break;
	case EXPR_TERNARY:
		paren(pr, e->tern.c);
		fputs(" ? ", out);
		paren(pr, e->tern.t);
		fputs(" : ", out);
		paren(pr, e->tern.f);
		break;
	case EXPR_IN:
		if (e->in.bracketed) {
			fputc('[', out);
			print_list(pr, &e->in.idx);
			fputc(']', out);
		} else {
			paren(pr, e->in.idx.v[0]);
		}
		fputs(" in ", out);
		print_expr(pr, e->in.array);
		break;
	case EXPR_TARGET:
		if (e->target.path.addr_of)
			fputc('&', out);
		fputs(e->target.name, out);
		print_path(pr, &e->target.path);
		break;
	case EXPR_CAST:
		if (e->cast.path.addr_of)
			fputc('&', out);
		fputs("@cast(", out);
		print_expr(pr, e->cast.operand);
		fputs(", ", out);
		print_string(out, e->cast.type, strlen(e->cast.type));
		if (e->cast.module) {
			fputs(", ", out);
			print_string(out, e->cast.module, strlen(e->cast.module));
		}
		fputc(')', out);
		print_path(pr, &e->cast.path);
		break;
	case EXPR_ATVAR:
		if (e->atvar.path.addr_of)
			fputc('&', out);
		fputs("@var(", out);
		print_string(out, e->atvar.name, strlen(e->atvar.name));
		if (e->atvar.module) {
			fputs(", ", out);
			print_string(out, e->atvar.module, strlen(e->atvar.module));
		}
		fputc(')', out);
		print_path(pr, &e->atvar.path);
		break;
	case EXPR_DEREF:
		if (e->deref.path.addr_of)
			fputc('&', out);
		paren(pr, e->deref.operand);
		print_path(pr, &e->deref.path);
		break;
	case EXPR_ENTRY:
	case EXPR_DEFINED:
		fputs(e->kind == EXPR_ENTRY ? "@entry(" : "@defined(", out);
		print_expr(pr, e->operand);
		fputc(')', out);
		break;
	case EXPR_STAT:
		fprintf(out, "@%s(", e->stat.op);
		print_list(pr, &e->stat.args);
		fputc(')', out);
		break;
	case EXPR_HIST:
		fputs(e->hist.hk == HIST_LOG ? "@hist_log(" : "@hist_linear(", out);
		print_expr(pr, e->hist.operand);
		if (e->hist.params.n) {
			fputs(", ", out);
			print_list(pr, &e->hist.params);
		}
		fputc(')', out);
		break;
	case EXPR_ATOP:
		fprintf(out, "@%s(", e->atop.name);
		print_list(pr, &e->atop.args);
		fputc(')', out);
		break;
	case EXPR_EMBEDDED:
		fprintf(out, "%%{%s%%}", e->code);
		break;
	}
}

/* A sub-statement of if/while/for/foreach: a block stays on the line,
 * anything else goes on its own line one level deeper. */
static void print_body(struct printer *pr, const struct stmt *s)
{
	if (s->kind == STMT_BLOCK) {
		fputc(' ', pr->out);
		print_stmt(pr, s);
		return;
	}
	fputc('\n', pr->out);
	pr->indent++;
	indent(pr);
	print_stmt(pr, s);
	pr->indent--;
}

static void print_sort(FILE *out, const struct foreach_stmt *fe, int which)
{
	if (fe->sort_key == which && fe->sort_dir && !fe->sort_stat)
		fputc(fe->sort_dir > 0 ? '+' : '-', out);
}

static void print_foreach(struct printer *pr, const struct foreach_stmt *fe)
{
	FILE *out = pr->out;
	size_t i;

	fputs("foreach (", out);
	if (fe->value) {
		print_expr(pr, fe->value);
		fputs(" = ", out);
	}
	if (fe->bracketed)
		fputc('[', out);
	for (i = 0; i < fe->keys.n; i++) {
		if (i)
			fputs(", ", out);
		print_expr(pr, fe->keys.v[i]);
		print_sort(out, fe, (int)i + 1);
	}
	if (fe->bracketed)
		fputc(']', out);
	fputs(" in ", out);
	print_expr(pr, fe->array);
	if (fe->sort_stat)
		fprintf(out, " @%s%s", fe->sort_stat,
			fe->sort_dir < 0 ? "-" : "+");
	else
		print_sort(out, fe, -1);
	if (fe->limit) {
		fputs(" limit ", out);
		paren(pr, fe->limit);
	}
	fputc(')', out);
	print_body(pr, fe->body);
}

static void print_stmt(struct printer *pr, const struct stmt *s)
{
	FILE *out = pr->out;
	size_t i;

	switch (s->kind) {
	case STMT_BLOCK:
		fputs("{\n", out);
		pr->indent++;
		for (i = 0; i < s->stmts.n; i++) {
			indent(pr);
			print_stmt(pr, s->stmts.v[i]);
			fputc('\n', out);
		}
		pr->indent--;
		indent(pr);
		fputc('}', out);
		break;
	case STMT_NULL:
		fputc(';', out);
		break;
	case STMT_EXPR:
		print_expr(pr, s->expr);
		fputc(';', out);
		break;
	case STMT_IF:
		fputs("if ", out);
		paren(pr, s->if_.cond);
		print_body(pr, s->if_.then);
		if (s->if_.els) {
			fputc('\n', out);
			indent(pr);
			fputs("else", out);
			print_body(pr, s->if_.els);
		}
		break;
	case STMT_WHILE:
		fputs("while ", out);
		paren(pr, s->loop.cond);
		print_body(pr, s->loop.body);
		break;
	case STMT_FOR:
		fputs("for (", out);
		if (s->loop.init)
			print_expr(pr, s->loop.init);
		fputs("; ", out);
		if (s->loop.cond)
			print_expr(pr, s->loop.cond);
		fputs("; ", out);
		if (s->loop.incr)
			print_expr(pr, s->loop.incr);
		fputc(')', out);
		print_body(pr, s->loop.body);
		break;
	case STMT_FOREACH:
		print_foreach(pr, s->fe);
		break;
	case STMT_BREAK:
		fputs("break;", out);
		break;
	case STMT_CONTINUE:
		fputs("continue;", out);
		break;
	case STMT_NEXT:
		fputs("next;", out);
		break;
	case STMT_RETURN:
		fputs("return", out);
		if (s->expr) {
			fputc(' ', out);
			print_expr(pr, s->expr);
		}
		fputc(';', out);
		break;
	case STMT_DELETE:
		fputs("delete ", out);
		print_expr(pr, s->expr);
		fputc(';', out);
		break;
	case STMT_TRY:
		fputs("try ", out);
		print_stmt(pr, s->try_.body);
		fputs(" catch", out);
		if (s->try_.var) {
			fputs(" (", out);
			print_expr(pr, s->try_.var);
			fputc(')', out);
		}
		fputc(' ', out);
		print_stmt(pr, s->try_.handler);
		break;
	}
}

static void print_probe_point(struct printer *pr, const struct probe_point *pp)
{
	size_t i;

	for (i = 0; i < pp->comps.n; i++) {
		const struct pp_component *c = pp->comps.v[i];

		if (i)
			fputc('.', pr->out);
		fputs(c->name, pr->out);
		if (c->param) {
			fputc('(', pr->out);
			print_expr(pr, c->param);
			fputc(')', pr->out);
		}
	}
	if (pp->optional)
		fputc('?', pr->out);
	if (pp->sufficient)
		fputc('!', pr->out);
	if (pp->cond) {
		fputs(" if ", pr->out);
		paren(pr, pp->cond);
	}
}

static void print_points(struct printer *pr, const struct ptrvec *v)
{
	size_t i;

	for (i = 0; i < v->n; i++) {
		if (i)
			fputs(", ", pr->out);
		print_probe_point(pr, v->v[i]);
	}
}

static const char *type_suffix(enum stap_type t)
{
	switch (t) {
	case TYPE_LONG:
		return ":long";
	case TYPE_STRING:
		return ":string";
	case TYPE_UNKNOWN:
	case TYPE_STATS:
		break;
	}
	return "";
}

static void print_decl(struct printer *pr, const struct decl *d)
{
	FILE *out = pr->out;
	size_t i;

	if (d->private_)
		fputs("private ", out);
	switch (d->kind) {
	case DECL_GLOBAL:
		fprintf(out, "global %s", d->global.name);
		if (d->global.wrap)
			fputc('%', out);
		if (d->global.size)
			fprintf(out, "[%" PRId64 "]", d->global.size);
		if (d->global.init) {
			fputs(" = ", out);
			print_expr(pr, d->global.init);
		}
		break;
	case DECL_FUNCTION:
		fprintf(out, "function %s%s(", d->func.name,
			type_suffix(d->func.ret));
		for (i = 0; i < d->func.params.n; i++) {
			const struct param *pa = d->func.params.v[i];

			fprintf(out, "%s%s%s", i ? ", " : "", pa->name,
				type_suffix(pa->type));
		}
		fputc(')', out);
		if (d->func.has_priority)
			fprintf(out, ":%" PRId64, d->func.priority);
		if (d->func.code) {
			fprintf(out, " %%{%s%%}", d->func.code);
		} else {
			fputc(' ', out);
			print_stmt(pr, d->func.body);
		}
		break;
	case DECL_PROBE:
		fputs("probe ", out);
		print_points(pr, &d->probe.points);
		fputc(' ', out);
		print_stmt(pr, d->probe.body);
		break;
	case DECL_ALIAS:
		fputs("probe ", out);
		for (i = 0; i < d->probe.names.n; i++) {
			print_probe_point(pr, d->probe.names.v[i]);
			fputs(d->probe.epilogue ? " += " : " = ", out);
		}
		print_points(pr, &d->probe.points);
		fputc(' ', out);
		print_stmt(pr, d->probe.body);
		if (d->probe.epilogue_body) {
			fputs(", ", out);
			print_stmt(pr, d->probe.epilogue_body);
		}
		break;
	case DECL_EMBED:
		fprintf(out, "%%{%s%%}", d->code);
		break;
	}
	fputc('\n', out);
}

void ast_print_file(FILE *out, const struct ast_file *f)
{
	struct printer pr = { out, 0 };
	size_t i;

	fprintf(out, "# file %s\n", f->src->name);
	for (i = 0; i < f->decls.n; i++)
		print_decl(&pr, f->decls.v[i]);
}

void ast_print_expr(FILE *out, const struct expr *e)
{
	struct printer pr = { out, 0 };

	print_expr(&pr, e);
}

void ast_print_stmt(FILE *out, const struct stmt *s, int depth)
{
	struct printer pr = { out, depth };

	print_stmt(&pr, s);
}

void ast_print_point(FILE *out, const struct probe_point *pp)
{
	struct printer pr = { out, 0 };

	print_probe_point(&pr, pp);
}
