/* SPDX-License-Identifier: GPL-2.0-or-later */
/* strbuf.h: growable heap string for building output text. */
#ifndef UTIL_STRBUF_H
#define UTIL_STRBUF_H

#include <stddef.h>

struct strbuf {
	char *buf;	/* always NUL-terminated once anything was added */
	size_t len;
	size_t cap;
};

#define STRBUF_INIT { NULL, 0, 0 }

void sb_addn(struct strbuf *sb, const char *s, size_t n);
void sb_adds(struct strbuf *sb, const char *s);
void sb_addc(struct strbuf *sb, char c);
void sb_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Empty the buffer, keeping its storage. */
void sb_reset(struct strbuf *sb);
/* Free the storage; the buffer is empty and reusable afterwards. */
void sb_release(struct strbuf *sb);
/* Contents as a C string ("" when nothing was added). */
const char *sb_str(const struct strbuf *sb);

/* Append the contents of the file @path: 0 or -errno. */
int sb_read_file(struct strbuf *sb, const char *path);

struct arena;
/* Copy the contents into @a and release the buffer. */
char *sb_to_arena(struct strbuf *sb, struct arena *a);

#endif
