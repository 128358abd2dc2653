// SPDX-License-Identifier: GPL-2.0-or-later
/* diag.c: printing diagnostics with the source line and a caret. */
#include "util/diag.h"
#include "util/sgr.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

/* Expansion sites shown under a message; a runaway recursion is summed up. */
#define DIAG_MAX_EXPANSIONS 4

struct seen_msg {
	struct seen_msg *next;
	char text[];
};

#define DIAG_SEEN_BUCKETS 4096

void diag_init(struct diag *d, FILE *out)
{
	memset(d, 0, sizeof(*d));
	d->out = out;
}

void diag_release(struct diag *d)
{
	struct seen_msg *m, *next;
	size_t i;

	if (!d->seen)
		return;
	for (i = 0; i < DIAG_SEEN_BUCKETS; i++)
		for (m = d->seen[i]; m; m = next) {
			next = m->next;
			free(m);
		}
	free(d->seen);
	d->seen = NULL;
}

/* True if @text was reported before; otherwise remember it. Hashed, so a
 * script with thousands of errors is not quadratic. */
static bool diag_seen(struct diag *d, const char *text)
{
	size_t n = strlen(text), i;
	unsigned h = 2166136261u;
	struct seen_msg *m;

	if (!d->seen) {
		d->seen = calloc(DIAG_SEEN_BUCKETS, sizeof(*d->seen));
		if (!d->seen)
			return false;
	}
	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)text[i]) * 16777619u;
	h %= DIAG_SEEN_BUCKETS;
	for (m = d->seen[h]; m; m = m->next)
		if (!strcmp(m->text, text))
			return true;
	m = malloc(sizeof(*m) + n + 1);
	if (!m)
		return false;
	memcpy(m->text, text, n + 1);
	m->next = d->seen[h];
	d->seen[h] = m;
	return false;
}

/* "PREFIX " (--color: PREFIX in @part's colour). */
static void add_prefix(struct strbuf *sb, const struct sgr *sgr,
		       enum sgr_part part, const char *prefix)
{
	char on[40];

	sb_adds(sb, sgr_start(sgr, part, on, sizeof(on)));
	sb_adds(sb, prefix);
	sb_adds(sb, sgr_end(sgr, part));
	sb_addc(sb, ' ');
}

/* "LABEL: <line>" then a caret under column @col; tabs are kept so the
 * caret lines up with what a terminal shows. */
static void add_source(struct strbuf *sb, const char *label,
		       const struct srcloc *loc, const struct sgr *sgr,
		       const char *token)
{
	size_t len, i, indent = strlen(label), at = loc->col ? loc->col - 1 : 0;
	const char *line = source_line(loc->src, loc->line, &len);
	const char *q = token ? strchr(token, '\'') : NULL;
	size_t tlen = 0;
	char on[40];

	/* --color: the token ("identifier 'x'": x) where the line has it */
	if (sgr && sgr->on && q && strrchr(q, '\'') > q + 1) {
		tlen = (size_t)(strrchr(q, '\'') - q - 1);
		if (at + tlen > len || strncmp(line + at, q + 1, tlen))
			tlen = 0;
	}
	sb_adds(sb, label);
	if (tlen) {
		sb_addn(sb, line, at);
		sb_adds(sb, sgr_start(sgr, SGR_TOKEN, on, sizeof(on)));
		sb_addn(sb, line + at, tlen);
		sb_adds(sb, sgr_end(sgr, SGR_TOKEN));
		sb_addn(sb, line + at + tlen, len - at - tlen);
	} else {
		sb_addn(sb, line, len);
	}
	sb_addc(sb, '\n');
	for (i = 0; i < indent; i++)
		sb_addc(sb, ' ');
	for (i = 0; i + 1 < loc->col && i < len; i++)
		sb_addc(sb, line[i] == '\t' ? '\t' : ' ');
	sb_adds(sb, sgr_start(sgr, SGR_CARET, on, sizeof(on)));
	sb_addc(sb, '^');
	sb_adds(sb, sgr_end(sgr, SGR_CARET));
	sb_addc(sb, '\n');
}

/* The chain of expansions that produced @loc, innermost first. */
static void add_expansions(struct strbuf *sb, const char *label,
			   const struct srcloc *loc)
{
	const struct expansion *x;
	unsigned depth = 0;

	for (x = loc->from; x; x = x->site.from, depth++) {
		if (depth >= DIAG_MAX_EXPANSIONS)
			continue;	/* only count the rest */
		sb_addf(sb, "\tin expansion of %s: %s at %s:%u:%u\n", x->what,
			x->token, x->site.src->name, x->site.line, x->site.col);
		add_source(sb, label, &x->site, NULL, NULL);
	}
	if (depth > DIAG_MAX_EXPANSIONS)
		sb_addf(sb, "\t(and %u more expansions)\n",
			depth - DIAG_MAX_EXPANSIONS);
}

void diag_report_from(struct diag *d, const char *file, int line,
		      enum diag_kind kind, const struct srcloc *loc,
		      const char *token, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	bool has_loc = loc && loc->src && loc->line;
	va_list ap;

	if (d->muted)
		return;
	if (kind == DIAG_WARNING && d->warnings_are_errors)
		kind = DIAG_SEMANTIC_ERROR;
	if (kind == DIAG_WARNING && d->no_warnings)
		return;

	switch (kind) {
	case DIAG_PARSE_ERROR:
	case DIAG_LEX_ERROR:
		add_prefix(&sb, d->sgr, SGR_ERROR, "parse error:");
		break;
	case DIAG_SEMANTIC_ERROR:
		add_prefix(&sb, d->sgr, SGR_ERROR, "semantic error:");
		break;
	case DIAG_WARNING:
		add_prefix(&sb, d->sgr, SGR_WARNING, "WARNING:");
		break;
	case DIAG_ERROR:
		add_prefix(&sb, d->sgr, SGR_ERROR, "ERROR:");
		break;
	case DIAG_PLAIN:
		break;
	}
	va_start(ap, fmt);
	{
		char buf[1024];

		vsnprintf(buf, sizeof(buf), fmt, ap);
		sb_adds(&sb, buf);
	}
	va_end(ap);
	if (d->show_origin)
		sb_addf(&sb, " [%s:%d]", file, line);

	switch (kind) {
	case DIAG_PARSE_ERROR:
	case DIAG_LEX_ERROR:
		sb_adds(&sb, kind == DIAG_PARSE_ERROR ? "\n        saw: "
						      : "\n         at: ");
		if (!token && loc && loc->src)
			sb_addf(&sb, "%s EOF\n", loc->src->name);
		else if (has_loc)
			sb_addf(&sb, "%s at %s:%u:%u\n", token ? token : "",
				loc->src->name, loc->line, loc->col);
		else
			sb_addf(&sb, "%s\n", token ? token : "");
		if (token && has_loc) {
			add_source(&sb, "     source: ", loc, d->sgr, token);
			add_expansions(&sb, "     source: ", loc);
		}
		sb_addc(&sb, '\n');
		break;
	case DIAG_SEMANTIC_ERROR:
	case DIAG_WARNING:
		if (token && has_loc) {
			char on[40];

			sb_addf(&sb, ": %s at %s%s:%u:%u%s\n", token,
				sgr_start(d->sgr, SGR_SOURCE, on, sizeof(on)),
				loc->src->name, loc->line, loc->col,
				sgr_end(d->sgr, SGR_SOURCE));
		}
		else
			sb_addc(&sb, '\n');
		if (has_loc) {
			/* The reference indents warnings' sources less. */
			const char *lead = kind == DIAG_WARNING ? " source: "
							       : "        source: ";

			add_source(&sb, lead, loc, d->sgr, token);
			add_expansions(&sb, lead, loc);
		}
		break;
	case DIAG_ERROR:
	case DIAG_PLAIN:
		sb_addc(&sb, '\n');
		break;
	}

	if (diag_seen(d, sb_str(&sb))) {
		d->suppressed++;
	} else {
		fputs(sb_str(&sb), d->out);
		switch (kind) {
		case DIAG_PARSE_ERROR:
		case DIAG_LEX_ERROR:
			d->parse_errors++;
			break;
		case DIAG_SEMANTIC_ERROR:
			d->semantic_errors++;
			break;
		case DIAG_WARNING:
			d->warnings++;
			break;
		case DIAG_ERROR:
		case DIAG_PLAIN:
			d->other_errors++;
			break;
		}
	}
	sb_release(&sb);
}

int diag_fail_from(struct diag *d, const char *file, int line, int err,
		   const char *subject, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	diag_report_from(d, file, line, DIAG_ERROR, NULL, NULL, "%s%s%s",
			 subject ? subject : "", subject ? ": " : "", buf);
	return err;
}

int diag_describe(char *buf, size_t len, int err, const char *fmt, ...)
{
	va_list ap;

	if (buf && len) {
		va_start(ap, fmt);
		vsnprintf(buf, len, fmt, ap);
		va_end(ap);
	}
	return err;
}
