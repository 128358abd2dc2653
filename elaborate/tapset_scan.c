// SPDX-License-Identifier: GPL-2.0-or-later
/* tapset_scan.c: a quick lexical scan of a tapset file for the names it
 * may define (functions, globals, first components of alias names), so
 * the library can be indexed without parsing it. Both arms of %( %)
 * conditionals are scanned: the result may name too much, never too
 * little; a file is parsed only when one of its names is needed. */
#include "elaborate/tapset_scan.h"

#include <ctype.h>
#include <string.h>

struct scanner {
	const char *p, *end;
	tapset_scan_fn fn;
	void *ctx;
};

static bool ident_start(char c)
{
	return isalpha((unsigned char)c) || c == '_';
}

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Skip blanks and comments. */
static void skip_ws(struct scanner *s)
{
	while (s->p < s->end) {
		char c = *s->p;

		if (isspace((unsigned char)c)) {
			s->p++;
		} else if (c == '#' || (c == '/' && s->p + 1 < s->end &&
					s->p[1] == '/')) {
			while (s->p < s->end && *s->p != '\n')
				s->p++;
		} else if (c == '/' && s->p + 1 < s->end && s->p[1] == '*') {
			const char *e = s->p + 2;

			while (e + 1 < s->end && !(e[0] == '*' && e[1] == '/'))
				e++;
			s->p = e + 1 < s->end ? e + 2 : s->end;
		} else {
			break;
		}
	}
}

static void skip_string(struct scanner *s)
{
	s->p++;
	while (s->p < s->end && *s->p != '"') {
		if (*s->p == '\\' && s->p + 1 < s->end)
			s->p++;
		s->p++;
	}
	if (s->p < s->end)
		s->p++;
}

/* %{ ... %} */
static void skip_embedded(struct scanner *s)
{
	const char *e = s->p + 2;

	while (e + 1 < s->end && !(e[0] == '%' && e[1] == '}'))
		e++;
	s->p = e + 1 < s->end ? e + 2 : s->end;
}

static size_t ident(struct scanner *s)
{
	size_t n = 0;

	if (s->p < s->end && ident_start(*s->p))
		while (s->p + n < s->end && ident_char(s->p[n]))
			n++;
	return n;
}

static bool keyword(struct scanner *s, const char *kw)
{
	size_t n = strlen(kw);

	return (size_t)(s->end - s->p) >= n && !memcmp(s->p, kw, n) &&
	       (s->p + n == s->end || !ident_char(s->p[n]));
}

static void scan_function(struct scanner *s)
{
	size_t n;

	skip_ws(s);
	n = ident(s);
	if (n)
		s->fn(s->ctx, TAPSET_SCAN_FUNCTION, s->p, n);
	s->p += n;
}

/* global a, b[10], c% , d = 5, e = "x" */
static void scan_global(struct scanner *s)
{
	for (;;) {
		size_t n;

		skip_ws(s);
		n = ident(s);
		if (!n)
			return;
		s->fn(s->ctx, TAPSET_SCAN_GLOBAL, s->p, n);
		s->p += n;
		skip_ws(s);
		if (s->p < s->end && *s->p == '%')
			s->p++;
		skip_ws(s);
		if (s->p < s->end && *s->p == '[') {
			while (s->p < s->end && *s->p != ']' && *s->p != '\n')
				s->p++;
			if (s->p < s->end && *s->p == ']')
				s->p++;
			skip_ws(s);
		}
		if (s->p < s->end && *s->p == '=') {
			s->p++;
			skip_ws(s);
			if (s->p < s->end && *s->p == '"')
				skip_string(s);
			else
				while (s->p < s->end && (isalnum((unsigned char)*s->p) ||
							 *s->p == '-' || *s->p == '_'))
					s->p++;
			skip_ws(s);
		}
		if (s->p >= s->end || *s->p != ',')
			return;
		s->p++;
	}
}

/* probe NAME[, NAME] = ... / += ... : report the first components. */
static void scan_probe(struct scanner *s)
{
	const char *firsts[16];
	size_t lens[16], nnames = 0, i;
	bool at_start = true;

	while (s->p < s->end) {
		char c;

		skip_ws(s);
		if (s->p >= s->end)
			return;
		c = *s->p;
		if (c == '{' || keyword(s, "if"))
			return;
		if (c == '=' || (c == '+' && s->p + 1 < s->end && s->p[1] == '=')) {
			for (i = 0; i < nnames; i++)
				s->fn(s->ctx, TAPSET_SCAN_ALIAS, firsts[i], lens[i]);
			return;
		}
		if (c == ',') {
			at_start = true;
			s->p++;
			continue;
		}
		if (c == '"') {
			skip_string(s);
			continue;
		}
		if (at_start && (ident_start(c) || c == '*')) {
			const char *b = s->p;

			while (s->p < s->end && (ident_char(*s->p) || *s->p == '*'))
				s->p++;
			if (nnames < 16) {
				firsts[nnames] = b;
				lens[nnames++] = (size_t)(s->p - b);
			}
			at_start = false;
			continue;
		}
		if (ident_char(c) || strchr(".*()?!-", c)) {
			s->p++;
			continue;
		}
		return;
	}
}

void tapset_scan(const char *text, size_t len, tapset_scan_fn fn, void *ctx)
{
	struct scanner s = { text, text + len, fn, ctx };
	int depth = 0;

	while (s.p < s.end) {
		char c;

		skip_ws(&s);
		if (s.p >= s.end)
			break;
		c = *s.p;
		if (c == '"') {
			skip_string(&s);
		} else if (c == '%' && s.p + 1 < s.end && s.p[1] == '{') {
			skip_embedded(&s);
		} else if (c == '{') {
			depth++;
			s.p++;
		} else if (c == '}') {
			if (depth > 0)
				depth--;
			s.p++;
		} else if (ident_start(c)) {
			size_t n = ident(&s);

			if (depth == 0 && keyword(&s, "function")) {
				s.p += n;
				scan_function(&s);
			} else if (depth == 0 && keyword(&s, "global")) {
				s.p += n;
				scan_global(&s);
			} else if (depth == 0 && keyword(&s, "probe")) {
				s.p += n;
				scan_probe(&s);
			} else {
				s.p += n;
			}
		} else {
			s.p++;
		}
	}
}
