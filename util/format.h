/* SPDX-License-Identifier: GPL-2.0-or-later */
/* format.h: printf-style format strings of the script language, parsed
 * once and shared by the parser (validation), elaboration (argument types)
 * and translation. */
#ifndef UTIL_FORMAT_H
#define UTIL_FORMAT_H

#include <stdbool.h>
#include <stddef.h>

struct arena;

enum fmt_conv {
	FMT_LITERAL,	/* plain text (with %% folded in) */
	FMT_SIGNED,	/* %d %i */
	FMT_UNSIGNED,	/* %u */
	FMT_OCTAL,	/* %o */
	FMT_HEX,	/* %x */
	FMT_HEX_UPPER,	/* %X */
	FMT_CHAR,	/* %c */
	FMT_STRING,	/* %s */
	FMT_POINTER,	/* %p */
	FMT_BINARY,	/* %b, width = bytes */
	FMT_MEMORY,	/* %m */
	FMT_MEMORY_HEX,	/* %M */
};

enum {
	FMT_F_LEFT = 1,		/* - */
	FMT_F_PLUS = 2,		/* + */
	FMT_F_SPACE = 4,	/* space */
	FMT_F_ALT = 8,		/* # */
	FMT_F_ZERO = 16,	/* 0 */
};

#define FMT_NONE (-1)	/* no width / precision */
#define FMT_STAR (-2)	/* taken from an argument */

struct fmt_piece {
	enum fmt_conv conv;
	unsigned flags;
	int width;
	int precision;
	const char *text;	/* FMT_LITERAL: the text */
	size_t len;
};

struct fmt_spec {
	struct fmt_piece *pieces;
	size_t n;
	unsigned nargs;		/* values consumed, '*' included */
};

/* Parse @len bytes at @s. On success returns the spec (in @a); on error
 * returns NULL and sets *@err to a message and *@err_off to the byte
 * offset of the offending conversion. */
struct fmt_spec *fmt_parse(struct arena *a, const char *s, size_t len,
			   const char **err, size_t *err_off);

/* Does conversion @c take a string argument (else a long)? */
bool fmt_conv_takes_string(enum fmt_conv c);

#endif
