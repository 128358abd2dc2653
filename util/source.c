// SPDX-License-Identifier: GPL-2.0-or-later
/* source.c: loading scripts and finding their lines. */
#include "util/source.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/arena.h"

struct source *source_from_mem(struct arena *a, const char *name,
			       const char *text, size_t len)
{
	struct source *s = arena_new_obj(a, struct source);

	size_t *starts, i;
	unsigned n = 1;

	s->name = arena_strndup(a, name, strlen(name));
	s->text = arena_strndup(a, text, len);
	s->len = len;
	for (i = 0; i < len; i++)
		n += text[i] == '\n';
	starts = arena_new_array(a, size_t, n);
	starts[0] = 0;
	for (n = 1, i = 0; i < len; i++)
		if (text[i] == '\n')
			starts[n++] = i + 1;
	s->line_start = starts;
	s->nlines = n;
	return s;
}

struct source *source_from_file(struct arena *a, const char *name,
				const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	char *buf = NULL;
	size_t len = 0, cap = 0;
	struct source *s;
	int err = 0;

	if (!f)
		return NULL;
	for (;;) {
		size_t got;

		if (cap - len < 65536) {
			char *nb;

			cap = cap ? cap * 2 : 65536;
			nb = realloc(buf, cap);
			if (!nb) {
				err = ENOMEM;
				break;
			}
			buf = nb;
		}
		got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (got == 0) {
			if (ferror(f))
				err = EIO;
			break;
		}
	}
	if (f != stdin)
		fclose(f);
	if (err) {
		free(buf);
		errno = err;
		return NULL;
	}
	s = source_from_mem(a, name, buf ? buf : "", len);
	free(buf);
	return s;
}

const char *source_line(const struct source *src, unsigned line, size_t *len)
{
	const char *p = src->text, *end = src->text + src->len, *nl;

	if (line >= 1 && line <= src->nlines)
		p += src->line_start[line - 1];
	else
		p = end;
	nl = memchr(p, '\n', (size_t)(end - p));
	*len = (size_t)((nl ? nl : end) - p);
	return p;
}
