// SPDX-License-Identifier: GPL-2.0-or-later
/* emit.c: writing generated C: indented lines, C string literals, the
 * location strings of run-time errors, translation errors. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate/xl.h"
#include "util/arena.h"
#include "util/intern.h"
#include "util/diag.h"

static void vadd(struct strbuf *sb, const char *fmt, va_list ap)
{
	char small[256];
	va_list ap2;
	int n;

	va_copy(ap2, ap);
	n = vsnprintf(small, sizeof(small), fmt, ap2);
	va_end(ap2);
	if (n < (int)sizeof(small)) {
		sb_addn(sb, small, (size_t)n);
	} else {
		char *big = malloc((size_t)n + 1);

		if (!big)
			abort();
		vsnprintf(big, (size_t)n + 1, fmt, ap);
		sb_addn(sb, big, (size_t)n);
		free(big);
	}
}

void em(struct xl *x, const char *fmt, ...)
{
	va_list ap;
	int i;

	if (fmt[0] == '}')
		x->indent--;
	for (i = 0; i < x->indent; i++)
		sb_addc(x->cur, '\t');
	va_start(ap, fmt);
	vadd(x->cur, fmt, ap);
	va_end(ap);
	sb_addc(x->cur, '\n');
	if (fmt[0] && fmt[strlen(fmt) - 1] == '{')
		x->indent++;
}

void em_label(struct xl *x, const char *label)
{
	int i;

	for (i = 1; i < x->indent; i++)
		sb_addc(x->cur, '\t');
	sb_addf(x->cur, "%s: __attribute__((unused));\n", label);
}

void em_head(struct xl *x, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vadd(&x->head, fmt, ap);
	va_end(ap);
	sb_addc(&x->head, '\n');
}

const char *c_string(struct arena *a, const char *s, size_t len)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	bool hex = false;

	sb_addc(&sb, '"');
	for (i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)s[i];

		/* A hex escape swallows following hex digits: split there. */
		if (hex && strchr("0123456789abcdefABCDEF", ch) && ch)
			sb_adds(&sb, "\"\"");
		hex = false;
		switch (ch) {
		case '"': sb_adds(&sb, "\\\""); break;
		case '\\': sb_adds(&sb, "\\\\"); break;
		case '\n': sb_adds(&sb, "\\n"); break;
		case '\t': sb_adds(&sb, "\\t"); break;
		case '?': sb_adds(&sb, "\\?"); break;	/* no trigraphs */
		default:
			if (ch < 32 || ch >= 127) {
				sb_addf(&sb, "\\x%02x", ch);
				hex = true;
			} else {
				sb_addc(&sb, (char)ch);
			}
		}
	}
	sb_addc(&sb, '"');
	return sb_to_arena(&sb, a);
}

void xl_error(struct xl *x, const struct srcloc *loc, const char *tok,
	      const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	diag_report(x->r->d, DIAG_SEMANTIC_ERROR, loc, tok, "%s", msg);
	x->errors++;
}

const char *xl_loc_at(struct xl *x, const void *key, const char *tok,
		      const struct srcloc *loc)
{
	const char *name = ptrmap_get(&x->loc_of, key);
	const char *text;

	if (name)
		return name;
	/* one string per text: the copies of a body (a wildcard's points,
	 * alias expansions) share their locations */
	text = intern(x->r->in, arena_printf(x->a, "%s at %s:%u:%u", tok,
					     loc->src ? loc->src->name : "<input>",
					     loc->line, loc->col));
	name = ptrmap_get(&x->loc_of, text);
	if (!name) {
		name = arena_printf(x->a, "stp_loc%d", x->nloc++);
		em_head(x, "static const char %s[] = %s;", name,
			c_string(x->a, text, strlen(text)));
		ptrmap_put(x->a, &x->loc_of, text, (void *)name);
	}
	ptrmap_put(x->a, &x->loc_of, key, (void *)name);
	return name;
}

const char *xl_loc(struct xl *x, const struct expr *e)
{
	return xl_loc_at(x, e, ast_token(x->a, e), &e->loc);
}

/* The leftmost expression of a statement names it in messages. */
static const struct expr *leftmost(const struct expr *e)
{
	for (;;) {
		if (e->kind == EXPR_BINARY || e->kind == EXPR_ASSIGN)
			e = e->bin.l;
		else if (e->kind == EXPR_CREMENT &&
			 (e->un.op == OP_POSTINC || e->un.op == OP_POSTDEC))
			e = e->un.e;
		else if (e->kind == EXPR_TERNARY)
			e = e->tern.c;
		else if (e->kind == EXPR_INDEX)
			return e->index.base;
		else
			return e;
	}
}

const char *xl_stmt_loc(struct xl *x, const struct stmt *s)
{
	static const char *const kw[] = {
		[STMT_IF] = "if", [STMT_WHILE] = "while", [STMT_FOR] = "for",
		[STMT_FOREACH] = "foreach", [STMT_BREAK] = "break",
		[STMT_CONTINUE] = "continue", [STMT_NEXT] = "next",
		[STMT_RETURN] = "return", [STMT_DELETE] = "delete",
		[STMT_TRY] = "try",
	};

	if (s->kind == STMT_EXPR && s->expr) {
		const struct expr *e = leftmost(s->expr);

		return xl_loc_at(x, s, ast_token(x->a, e), &e->loc);
	}
	if ((size_t)s->kind < sizeof(kw) / sizeof(kw[0]) && kw[s->kind])
		return xl_loc_at(x, s, arena_printf(x->a, "keyword '%s'", kw[s->kind]),
				  &s->loc);
	return xl_loc_at(x, s, "operator '{'", &s->loc);
}
