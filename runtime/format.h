/* SPDX-License-Identifier: GPL-2.0-or-later */
/* format.h: the script language's printf, for the kernel runtime. The
 * translator parses each (literal) format at compile time and emits its
 * pieces as a static table; nothing is parsed in probe context. */
#ifndef STP_FORMAT_H
#define STP_FORMAT_H

#include "stp_types.h"

enum stp_conv {
	STP_CONV_TEXT,		/* literal text */
	STP_CONV_SIGNED,	/* %d %i */
	STP_CONV_UNSIGNED,	/* %u */
	STP_CONV_OCTAL,		/* %o */
	STP_CONV_HEX,		/* %x */
	STP_CONV_HEX_UPPER,	/* %X */
	STP_CONV_CHAR,		/* %c: the low byte; %#c escapes it */
	STP_CONV_STRING,	/* %s */
	STP_CONV_POINTER,	/* %p: 0x and hex digits */
	STP_CONV_BINARY,	/* %b: the value's bytes; width 1, 2, 4 or 8 */
	STP_CONV_MEMORY,	/* %m: precision bytes of memory, raw */
	STP_CONV_MEMORY_HEX,	/* %M: the same in hex */
};

#define STP_F_LEFT	1	/* - */
#define STP_F_PLUS	2	/* + */
#define STP_F_SPACE	4	/* space */
#define STP_F_ALT	8	/* # */
#define STP_F_ZERO	16	/* 0 */

#define STP_FMT_NONE	(-1)	/* no width / precision */
#define STP_FMT_STAR	(-2)	/* taken from the next argument */

struct stp_fmt_piece {
	u8 conv;		/* enum stp_conv */
	u8 flags;
	s16 width;
	s16 precision;
	u16 len;		/* STP_CONV_TEXT: length of text */
	const char *text;
};

/* One argument: a long, or a string for %s. */
union stp_arg {
	s64 n;
	const char *s;
};

/* Reads @len bytes at address @addr for %m/%M; returns 0 or -EFAULT.
 * The kernel runtime passes a fault-safe reader. */
typedef int (*stp_read_fn)(void *dst, u64 addr, size_t len);

/* Format @n pieces with @args into @buf of @size bytes (NUL-terminated,
 * never overrun: output beyond size - 1 is cut). Returns the number of
 * bytes stored (without the NUL), or -EFAULT when %m/%M could not read. */
int stp_format(char *buf, size_t size, const struct stp_fmt_piece *p,
	       unsigned int n, const union stp_arg *args, stp_read_fn read_mem);

#endif
