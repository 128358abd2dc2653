// SPDX-License-Identifier: GPL-2.0-or-later
/* decode.c: the flags and enum renderings of decode.h. Loops are bounded
 * by the table size and the 64 bits of a number; output by the buffer. */
#include "decode.h"
#include "out.h"

static void decode_out_s(struct stp_out *o, const char *s)
{
	stp_out_n(o, s, strlen(s));
}

/* @v in @base (10 or 16) with @prefix, after a '-' when @neg. */
static void decode_out_num(struct stp_out *o, u64 v, unsigned int base,
			   bool neg, const char *prefix)
{
	char tmp[24], *p = tmp + sizeof(tmp);

	do {
		*--p = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	if (neg)
		stp_out_char(o, '-');
	decode_out_s(o, prefix);
	stp_out_n(o, p, (size_t)(tmp + sizeof(tmp) - p));
}

static size_t decode_end(struct stp_out *o)
{
	if (o->size)
		o->buf[o->len] = '\0';
	return o->len;
}

size_t stp_flags_str(char *buf, size_t len, uint64_t v,
		     const struct stp_sym *t, size_t nt)
{
	struct stp_out o = { buf, len, 0 };
	u64 live = ~(u64)0;	/* bits no match has taken yet */
	bool any = false;
	size_t i;

	for (i = 0; i < nt; i++) {
		u64 mask = (u64)t[i].mask;

		if (!mask || (mask & live) != mask ||
		    (v & mask) != (u64)t[i].value)
			continue;
		if (any)
			stp_out_char(&o, '|');
		decode_out_s(&o, t[i].name);
		live &= ~mask;
		any = true;
	}
	if (v & live) {
		if (any)
			stp_out_char(&o, '|');
		decode_out_num(&o, v & live, 16, false, "0x");
	} else if (!any) {
		decode_out_s(&o, "0x0");	/* as the reference's argstrs print it */
	}
	return decode_end(&o);
}

const char *stp_enum_name(int64_t v, const struct stp_sym *t, size_t nt)
{
	size_t i;

	for (i = 0; i < nt; i++)
		if (t[i].value == v)
			return t[i].name;
	return NULL;
}

size_t stp_enum_str(char *buf, size_t len, int64_t v,
		    const struct stp_sym *t, size_t nt)
{
	struct stp_out o = { buf, len, 0 };
	const char *name = stp_enum_name(v, t, nt);

	if (name)
		decode_out_s(&o, name);
	else
		/* unknown: hex as the reference's argstrs print it, negatives
		 * (fd-like values) in decimal */
		decode_out_num(&o, v < 0 ? 0 - (u64)v : (u64)v, v < 0 ? 10 : 16,
			       v < 0, v < 0 ? "" : "0x");
	return decode_end(&o);
}
