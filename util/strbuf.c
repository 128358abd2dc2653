// SPDX-License-Identifier: GPL-2.0-or-later
/* strbuf.c: growable heap string. */
#include "util/strbuf.h"

#include "util/arena.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void sb_grow(struct strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1, cap = sb->cap ? sb->cap : 64;
	char *nb;

	if (need <= sb->cap)
		return;
	while (cap < need)
		cap *= 2;
	nb = realloc(sb->buf, cap);
	if (!nb) {
		fputs("stap: out of memory\n", stderr);
		abort();
	}
	sb->buf = nb;
	sb->cap = cap;
}

void sb_addn(struct strbuf *sb, const char *s, size_t n)
{
	if (!n && sb->buf)
		return;
	sb_grow(sb, n);
	if (!n) {
		sb->buf[sb->len] = '\0';
		return;
	}
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void sb_adds(struct strbuf *sb, const char *s)
{
	sb_addn(sb, s, strlen(s));
}

void sb_addc(struct strbuf *sb, char c)
{
	sb_addn(sb, &c, 1);
}

void sb_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n <= 0)
		return;
	sb_grow(sb, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}

void sb_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

void sb_release(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->cap = 0;
}

const char *sb_str(const struct strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

char *sb_to_arena(struct strbuf *sb, struct arena *a)
{
	char *s = arena_strndup(a, sb_str(sb), sb->len);

	sb_release(sb);
	return s;
}

int sb_read_file(struct strbuf *sb, const char *path)
{
	char buf[65536];
	size_t n;
	FILE *f = fopen(path, "rb");
	int err;

	if (!f)
		return -errno;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		sb_addn(sb, buf, n);
	err = ferror(f) ? -EIO : 0;
	fclose(f);
	return err;
}
