// SPDX-License-Identifier: GPL-2.0-or-later
/* print.c: the print family. Every form becomes a table of format pieces
 * (util/format.h's parse of a printf format, or pieces made here for
 * print/println/printd) handed to the runtime's stp_printf/stp_sprintf
 * with the argument values; histograms print through stp_print_hist. */
#include <string.h>

#include "translate/xl.h"
#include "util/arena.h"
#include "util/format.h"
#include "util/strbuf.h"

static const char *conv_name(enum fmt_conv c)
{
	switch (c) {
	case FMT_LITERAL: return "STP_CONV_TEXT";
	case FMT_SIGNED: return "STP_CONV_SIGNED";
	case FMT_UNSIGNED: return "STP_CONV_UNSIGNED";
	case FMT_OCTAL: return "STP_CONV_OCTAL";
	case FMT_HEX: return "STP_CONV_HEX";
	case FMT_HEX_UPPER: return "STP_CONV_HEX_UPPER";
	case FMT_CHAR: return "STP_CONV_CHAR";
	case FMT_STRING: return "STP_CONV_STRING";
	case FMT_POINTER: return "STP_CONV_POINTER";
	case FMT_BINARY: return "STP_CONV_BINARY";
	case FMT_MEMORY: return "STP_CONV_MEMORY";
	case FMT_MEMORY_HEX: return "STP_CONV_MEMORY_HEX";
	}
	return "STP_CONV_TEXT";
}

static void add_piece(struct xl *x, struct strbuf *sb, const struct fmt_piece *p)
{
	if (p->conv == FMT_LITERAL)
		sb_addf(sb, "\t{ STP_CONV_TEXT, 0, STP_FMT_NONE, STP_FMT_NONE, %zu, %s },\n",
			p->len, c_string(x->a, p->text, p->len));
	else
		sb_addf(sb, "\t{ %s, %u, %d, %d, 0, NULL },\n", conv_name(p->conv),
			p->flags, p->width, p->precision);
}

/* A static table of @n pieces: its name. */
static const char *table(struct xl *x, const struct fmt_piece *p, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	const char *name = arena_printf(x->a, "stp_fmt%d", x->nfmt++);
	size_t i;

	sb_addf(&sb, "static const struct stp_fmt_piece %s[] = {\n", name);
	for (i = 0; i < n; i++)
		add_piece(x, &sb, &p[i]);
	sb_adds(&sb, "};");
	em_head(x, "%s", sb_str(&sb));
	sb_release(&sb);
	return name;
}

/* Pieces for print/println/printd/printdln over @args. */
static struct fmt_piece *plain_pieces(struct xl *x, struct expr *e, size_t *n)
{
	struct ptrvec *args = &e->print.args;
	struct fmt_piece *p = arena_alloc(x->a, sizeof(*p) * (2 * args->n + 2));
	const struct expr *delim = e->print.pk->delim ? e->print.fmt : NULL;
	size_t i, k = 0;

	for (i = 0; i < args->n; i++) {
		const struct expr *a = args->v[i];

		if (i && delim) {
			p[k].conv = FMT_LITERAL;
			p[k].text = delim->str.s;
			p[k].len = delim->str.len;
			p[k].width = p[k].precision = FMT_NONE;
			k++;
		}
		p[k].conv = a->type == TYPE_STRING ? FMT_STRING : FMT_SIGNED;
		p[k].flags = 0;
		p[k].width = p[k].precision = FMT_NONE;
		k++;
	}
	if (e->print.pk->newline) {
		p[k].conv = FMT_LITERAL;
		p[k].text = "\n";
		p[k].len = 1;
		p[k].width = p[k].precision = FMT_NONE;
		k++;
	}
	*n = k;
	return p;
}

static bool has_hist(const struct expr *e)
{
	size_t i;

	for (i = 0; i < e->print.args.n; i++)
		if (((const struct expr *)e->print.args.v[i])->kind == EXPR_HIST)
			return true;
	return false;
}

/* print(@hist_log(s)) and friends: each argument on its own. */
static struct cv print_with_hist(struct xl *x, struct expr *e)
{
	size_t i;

	for (i = 0; i < e->print.args.n; i++) {
		struct expr *a = e->print.args.v[i];

		if (i && e->print.pk->delim)
			em(x, "stp_print_str(c, %s);",
			   c_string(x->a, e->print.fmt->str.s, e->print.fmt->str.len));
		if (a->kind == EXPR_HIST)
			xl_hist_print(x, a, e);
		else if (a->type == TYPE_STRING)
			em(x, "stp_print_str(c, %s);", xl_expr(x, a).t);
		else
			em(x, "stp_print_long(c, %s);", xl_expr(x, a).t);
	}
	/* println(@hist_*(s)) prints what print does: the histogram's text
	 * ends with its own empty line. */
	return (struct cv){ "0", true };
}

struct cv xl_print(struct xl *x, struct expr *e)
{
	const struct print_kind *pk = e->print.pk;
	struct ptrvec *args = &e->print.args;
	struct cv *v = arena_alloc(x->a, sizeof(*v) * (args->n + 1));
	const struct fmt_piece *p;
	bool memory = false;
	const char *tab, *argv;
	size_t n, i;

	if (!pk->to_string && has_hist(e))
		return print_with_hist(x, e);
	if (pk->format) {
		p = e->print.spec->pieces;
		n = e->print.spec->n;
	} else {
		p = plain_pieces(x, e, &n);
	}
	for (i = 0; i < n; i++)
		memory |= p[i].conv == FMT_MEMORY || p[i].conv == FMT_MEMORY_HEX;
	tab = table(x, p, n);
	xl_operands(x, (struct expr **)args->v, args->n, v);
	argv = args->n ? xl_arg_array(x, v, (struct expr **)args->v, args->n) : "NULL";
	if (pk->to_string) {
		const char *t = xl_new_str(x);

		em(x, "stp_sprintf(c, %s, %s, %zu, %s);", t, tab, n, argv);
		if (memory)
			xl_check_error(x);
		return (struct cv){ t, true };
	}
	em(x, "stp_printf(c, %s, %zu, %s);", tab, n, argv);
	if (memory)
		xl_check_error(x);
	return (struct cv){ "0", true };
}
