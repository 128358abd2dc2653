// SPDX-License-Identifier: GPL-2.0-or-later
/* format.c: parsing printf formats into pieces. */
#include "util/format.h"

#include <string.h>

#include "util/arena.h"

static int read_number(const char *s, size_t len, size_t *i)
{
	long v = 0;

	while (*i < len && s[*i] >= '0' && s[*i] <= '9') {
		if (v < 100000)
			v = v * 10 + (s[*i] - '0');
		(*i)++;
	}
	return (int)v;
}

static void add_piece(struct fmt_piece **pieces, size_t *n, size_t *cap,
		      struct arena *a, const struct fmt_piece *pc)
{
	*pieces = arena_grow(a, *pieces, *n, cap, sizeof(**pieces));
	(*pieces)[(*n)++] = *pc;
}

/* Append literal text, merging with a preceding literal piece. */
static void add_literal(struct fmt_piece **pieces, size_t *n, size_t *cap,
			struct arena *a, const char *text, size_t len)
{
	struct fmt_piece pc = { .conv = FMT_LITERAL, .width = FMT_NONE,
				.precision = FMT_NONE };

	if (!len)
		return;
	if (*n && (*pieces)[*n - 1].conv == FMT_LITERAL) {
		struct fmt_piece *last = &(*pieces)[*n - 1];
		char *t = arena_alloc(a, last->len + len + 1);

		memcpy(t, last->text, last->len);
		memcpy(t + last->len, text, len);
		last->text = t;
		last->len += len;
		return;
	}
	pc.text = arena_strndup(a, text, len);
	pc.len = len;
	add_piece(pieces, n, cap, a, &pc);
}

struct fmt_spec *fmt_parse(struct arena *a, const char *s, size_t len,
			   const char **err, size_t *err_off)
{
	struct fmt_spec *spec = arena_new_obj(a, struct fmt_spec);
	size_t cap = 0, i = 0, start;

	while (i < len) {
		struct fmt_piece pc = { .width = FMT_NONE,
					.precision = FMT_NONE };

		start = i;
		while (i < len && s[i] != '%')
			i++;
		add_literal(&spec->pieces, &spec->n, &cap, a, s + start, i - start);
		if (i >= len)
			break;
		start = i++;
		if (i < len && s[i] == '%') {
			add_literal(&spec->pieces, &spec->n, &cap, a, "%", 1);
			i++;
			continue;
		}
		for (; i < len; i++) {
			const char *f = strchr("-+ #0", s[i]);

			if (!f || !s[i])
				break;
			pc.flags |= 1u << (f - "-+ #0");
		}
		if (i < len && s[i] == '*') {
			pc.width = FMT_STAR;
			spec->nargs++;
			i++;
		} else if (i < len && s[i] >= '0' && s[i] <= '9') {
			pc.width = read_number(s, len, &i);
		}
		if (i < len && s[i] == '.') {
			i++;
			if (i < len && s[i] == '*') {
				pc.precision = FMT_STAR;
				spec->nargs++;
				i++;
			} else {
				pc.precision = read_number(s, len, &i);
			}
		}
		/* Length modifiers are accepted and ignored: values are
		 * 64-bit whatever they say. */
		if (i < len && (s[i] == 'l' || s[i] == 'h')) {
			char m = s[i++];

			if (i < len && s[i] == m)
				i++;
		}
		if (i >= len)
			goto bad;
		switch (s[i]) {
		case 'd': case 'i': pc.conv = FMT_SIGNED; break;
		case 'u': pc.conv = FMT_UNSIGNED; break;
		case 'o': pc.conv = FMT_OCTAL; break;
		case 'x': pc.conv = FMT_HEX; break;
		case 'X': pc.conv = FMT_HEX_UPPER; break;
		case 'c': pc.conv = FMT_CHAR; break;
		case 's': pc.conv = FMT_STRING; break;
		case 'p': pc.conv = FMT_POINTER; break;
		case 'b': pc.conv = FMT_BINARY; break;
		case 'm': pc.conv = FMT_MEMORY; break;
		case 'M': pc.conv = FMT_MEMORY_HEX; break;
		default:
			goto bad;
		}
		i++;
		spec->nargs++;
		add_piece(&spec->pieces, &spec->n, &cap, a, &pc);
	}
	return spec;
bad:
	*err = "invalid or missing conversion specifier";
	*err_off = start;
	return NULL;
}

bool fmt_conv_takes_string(enum fmt_conv c)
{
	return c == FMT_STRING;
}
