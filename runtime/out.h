/* SPDX-License-Identifier: GPL-2.0-or-later */
/* out.h: appending to a fixed buffer that is never overrun (the output
 * helpers of format.c and hist.c); what does not fit is cut, leaving room
 * for the final NUL. */
#ifndef STP_OUT_H
#define STP_OUT_H

#include "stp_types.h"

struct stp_out {
	char *buf;
	size_t size;		/* room including the NUL */
	size_t len;
};

static inline void stp_out_char(struct stp_out *o, char ch)
{
	if (o->len + 1 < o->size)
		o->buf[o->len++] = ch;
}

static inline void stp_out_n(struct stp_out *o, const char *s, size_t n)
{
	while (n-- && o->len + 1 < o->size)
		o->buf[o->len++] = *s++;
}

/* @n copies of @ch (none when n <= 0). */
static inline void stp_out_pad(struct stp_out *o, char ch, long n)
{
	while (n-- > 0 && o->len + 1 < o->size)
		o->buf[o->len++] = ch;
}

#endif
