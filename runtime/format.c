// SPDX-License-Identifier: GPL-2.0-or-later
/* format.c: the script language's printf over pre-parsed pieces, bounded
 * by the output buffer, usable in probe context (no allocation, loops
 * bounded by the buffer and the 64-bit width of numbers). */
#include "format.h"
#include "out.h"

#define STP_MEM_CHUNK 64	/* bytes of memory read at a time for %m */

/* Digits of @v in @base into the end of @tmp; returns the start. */
static char *digits(char *end, u64 v, unsigned int base, bool upper)
{
	const char *set = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char *p = end;

	do {
		*--p = set[v % base];
		v /= base;
	} while (v);
	return p;
}

static void format_int(struct stp_out *o, const struct stp_fmt_piece *p,
		       int width, int prec, s64 value)
{
	char tmp[80], *end = tmp + sizeof(tmp), *d;
	const char *prefix = "";
	char sign = 0;
	u64 mag = (u64)value;
	long ndig, nzero = 0, total;

	switch (p->conv) {
	case STP_CONV_SIGNED:
		if (value < 0) {
			sign = '-';
			mag = 0 - (u64)value;
		} else if (p->flags & STP_F_PLUS) {
			sign = '+';
		} else if (p->flags & STP_F_SPACE) {
			sign = ' ';
		}
		d = digits(end, mag, 10, false);
		break;
	case STP_CONV_UNSIGNED:
		d = digits(end, mag, 10, false);
		break;
	case STP_CONV_OCTAL:
		d = digits(end, mag, 8, false);
		if (p->flags & STP_F_ALT)
			prefix = "0";	/* always, as the reference: 0 -> "00" */
		break;
	case STP_CONV_HEX_UPPER:
		d = digits(end, mag, 16, true);
		if (p->flags & STP_F_ALT)
			prefix = "0X";
		break;
	case STP_CONV_POINTER:
		d = digits(end, mag, 16, false);
		prefix = "0x";
		break;
	default:	/* STP_CONV_HEX */
		d = digits(end, mag, 16, false);
		if (p->flags & STP_F_ALT)
			prefix = "0x";	/* 0 -> "0x0", as the reference */
		break;
	}
	/* The reference's rules, where they differ from C's: an explicit zero
	 * precision still prints a 0, and the 0 flag pads to the width even
	 * with a precision (%010.3d of 7 is 0000000007). */
	ndig = end - d;
	if (prec > ndig)
		nzero = prec - ndig;
	total = ndig + nzero + (sign != 0) + (long)strlen(prefix);
	if ((p->flags & STP_F_ZERO) && !(p->flags & STP_F_LEFT) &&
	    width > total) {
		nzero += width - total;
		total = width;
	}
	if (!(p->flags & STP_F_LEFT))
		stp_out_pad(o, ' ', width - total);
	if (sign)
		stp_out_char(o, sign);
	stp_out_n(o, prefix, strlen(prefix));
	stp_out_pad(o, '0', nzero);
	stp_out_n(o, end - ndig, (size_t)ndig);
	if (p->flags & STP_F_LEFT)
		stp_out_pad(o, ' ', width - total);
}

/* %#c: C escapes (but " stays as it is, as in the reference), octal for
 * other unprintable bytes. */
static size_t escape_char(char *out, unsigned char ch)
{
	static const char from[] = "\a\b\f\n\r\t\v\\'";
	static const char to[] = "abfnrtv\\'";
	const char *hit = ch ? strchr(from, ch) : NULL;

	if (hit) {
		out[0] = '\\';
		out[1] = to[hit - from];
		return 2;
	}
	if (ch < 32 || ch >= 127) {
		out[0] = '\\';
		out[1] = (char)('0' + ((ch >> 6) & 7));
		out[2] = (char)('0' + ((ch >> 3) & 7));
		out[3] = (char)('0' + (ch & 7));
		return 4;
	}
	out[0] = (char)ch;
	return 1;
}

static void format_text(struct stp_out *o, const struct stp_fmt_piece *p,
			int width, const char *s, size_t n)
{
	if (!(p->flags & STP_F_LEFT))
		stp_out_pad(o, ' ', width - (long)n);
	stp_out_n(o, s, n);
	if (p->flags & STP_F_LEFT)
		stp_out_pad(o, ' ', width - (long)n);
}

static void format_binary(struct stp_out *o, int width, s64 value)
{
	union {
		u64 v64;
		u8 b[8];
		unsigned int v32;
		unsigned short v16;
		unsigned char v8;
	} u;
	size_t n = width == 1 || width == 2 || width == 4 ? (size_t)width : 8;

	u.v64 = 0;
	if (n == 1)
		u.v8 = (unsigned char)value;
	else if (n == 2)
		u.v16 = (unsigned short)value;
	else if (n == 4)
		u.v32 = (unsigned int)value;
	else
		u.v64 = (u64)value;
	stp_out_n(o, (const char *)u.b, n);	/* host byte order */
}

static int format_memory(struct stp_out *o, const struct stp_fmt_piece *p,
			 int width, int prec, u64 addr, stp_read_fn read_mem)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char chunk[STP_MEM_CHUNK];
	long count = prec < 0 ? 1 : prec;
	long shown = p->conv == STP_CONV_MEMORY_HEX ? count * 2 : count;

	if (!read_mem)
		return -EFAULT;
	if (!(p->flags & STP_F_LEFT))
		stp_out_pad(o, ' ', width - shown);
	while (count > 0 && o->len + 1 < o->size) {
		size_t n = count < STP_MEM_CHUNK ? (size_t)count : STP_MEM_CHUNK;
		size_t i;

		if (read_mem(chunk, addr, n))
			return -EFAULT;
		for (i = 0; i < n; i++) {
			if (p->conv == STP_CONV_MEMORY_HEX) {
				stp_out_char(o, hex[chunk[i] >> 4]);
				stp_out_char(o, hex[chunk[i] & 15]);
			} else {
				stp_out_char(o, (char)chunk[i]);
			}
		}
		addr += n;
		count -= (long)n;
	}
	if (p->flags & STP_F_LEFT)
		stp_out_pad(o, ' ', width - shown);
	return 0;
}

int stp_format(char *buf, size_t size, const struct stp_fmt_piece *p,
	       unsigned int n, const union stp_arg *args, stp_read_fn read_mem)
{
	struct stp_out o = { buf, size, 0 };
	unsigned int i, a = 0;

	if (!size)
		return 0;
	for (i = 0; i < n; i++, p++) {
		int width = p->width, prec = p->precision;

		if (p->conv == STP_CONV_TEXT) {
			stp_out_n(&o, p->text, p->len);
			continue;
		}
		if (width == STP_FMT_STAR)
			width = (int)args[a++].n;
		if (prec == STP_FMT_STAR)
			prec = (int)args[a++].n;
		if (width < 0)
			width = 0;
		/* As in the reference, a field never pads past the end of
		 * the buffer: the padding shrinks so that the value fits. */
		if ((size_t)width > o.size - 1 - o.len)
			width = (int)(o.size - 1 - o.len);
		if (prec < STP_FMT_NONE)
			prec = STP_FMT_NONE;
		switch (p->conv) {
		case STP_CONV_STRING: {
			const char *s = args[a++].s;
			size_t len = s ? strlen(s) : 0;

			if (prec >= 0 && (size_t)prec < len)
				len = (size_t)prec;
			format_text(&o, p, width, s ? s : "", len);
			break;
		}
		case STP_CONV_CHAR: {
			char esc[4];
			unsigned char ch = (unsigned char)args[a++].n;
			size_t len = 1;

			esc[0] = (char)ch;
			if (p->flags & STP_F_ALT)
				len = escape_char(esc, ch);
			format_text(&o, p, width, esc, len);
			break;
		}
		case STP_CONV_BINARY:
			format_binary(&o, width, args[a++].n);
			break;
		case STP_CONV_MEMORY:
		case STP_CONV_MEMORY_HEX:
			if (format_memory(&o, p, width, prec, (u64)args[a++].n,
					  read_mem)) {
				buf[o.len] = '\0';
				return -EFAULT;
			}
			break;
		default:
			format_int(&o, p, width, prec, args[a++].n);
			break;
		}
	}
	buf[o.len] = '\0';
	return (int)o.len;
}
