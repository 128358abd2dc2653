// SPDX-License-Identifier: GPL-2.0-or-later
/* hist.c: print(@hist_log(s)) and print(@hist_linear(s, ...)) in the
 * reference's exact layout (testsuite/observed/hist_*): a header, one row
 * per bucket of the display range with an '@' bar scaled to 50 columns,
 * runs of empty buckets far from any value elided to a '~' line, a blank
 * line at the end. Bounded by the output buffer; no allocation. */
#include "hist.h"
#include "out.h"

#define STP_HIST_BAR 50
#define STP_LABEL_MAX 24

/* Decimal text of @v into @end's left; returns its start. */
static char *dec(char *end, s64 v)
{
	u64 m = v < 0 ? 0 - (u64)v : (u64)v;
	char *p = end;

	do {
		*--p = (char)('0' + m % 10);
		m /= 10;
	} while (m);
	if (v < 0)
		*--p = '-';
	return p;
}

/* The label of bucket @i into @buf (STP_LABEL_MAX bytes); its length. */
static size_t label(const struct stp_stat_desc *d, u32 i, char *buf)
{
	char tmp[STP_LABEL_MAX], *end = tmp + sizeof(tmp), *p;
	size_t n;

	if (d->hist == STP_HIST_LOG) {
		if (i == STP_HIST_LOG_ZERO)
			p = dec(end, 0);
		else if (i > STP_HIST_LOG_ZERO)
			p = dec(end, (s64)((u64)1 << (i - STP_HIST_LOG_ZERO - 1)));
		else	/* -2^63 is its own two's complement */
			p = dec(end, (s64)(0 - ((u64)1 << (STP_HIST_LOG_ZERO - 1 - i))));
	} else if (i == 0) {
		p = dec(end, d->lo);
		*--p = '<';
	} else if (i == d->nbuckets - 1) {
		p = dec(end, (s64)((u64)d->lo + (u64)(i - 2) * (u64)d->step));
		*--p = '>';
	} else {
		p = dec(end, (s64)((u64)d->lo + (u64)(i - 1) * (u64)d->step));
	}
	n = (size_t)(end - p);
	memcpy(buf, p, n);
	return n;
}

/* Linear histograms print their underflow and overflow rows only when
 * they hold something. */
static bool shown(const struct stp_stat_desc *d, const struct stp_stat *s,
		  u32 i)
{
	if (d->hist != STP_HIST_LINEAR || (i && i + 1 < d->nbuckets))
		return true;
	return s->bucket[i] != 0;
}

int stp_hist_format(char *buf, size_t size, const struct stp_stat *s,
		    const struct stp_stat_desc *d, int elision)
{
	struct stp_out o = { buf, size, 0 };
	char lab[STP_LABEL_MAX], num[STP_LABEL_MAX];
	u32 i, j, first = 0, last = 0, lo, hi;
	u64 max = 0, scale = 1;
	long width = 5, cw;
	bool any = false, hidden = false;

	if (!size)
		return 0;
	if (d->hist == STP_HIST_NONE || !d->nbuckets)
		return -EINVAL;
	for (i = 0; i < d->nbuckets; i++) {
		if (!s->bucket[i])
			continue;
		if (!any)
			first = i;
		last = i;
		any = true;
		if (s->bucket[i] > max)
			max = s->bucket[i];
	}
	if (!any)
		return -ENODATA;	/* "empty aggregate" for the caller */
	/* The display range: two buckets of context on each side; a log
	 * histogram without negative values starts at 0. */
	lo = first >= 2 ? first - 2 : 0;
	hi = last + 2 < d->nbuckets ? last + 2 : d->nbuckets - 1;
	if (d->hist == STP_HIST_LOG && first >= STP_HIST_LOG_ZERO &&
	    lo < STP_HIST_LOG_ZERO)
		lo = STP_HIST_LOG_ZERO;
	for (i = lo; i <= hi; i++)
		if (shown(d, s, i) && (long)label(d, i, lab) > width)
			width = (long)label(d, i, lab);
	if (max > STP_HIST_BAR)
		scale = (max + STP_HIST_BAR - 1) / STP_HIST_BAR;
	cw = (long)(num + sizeof(num) - dec(num + sizeof(num), (s64)max));

	stp_out_pad(&o, ' ', width - 5);
	stp_out_n(&o, "value |", 7);
	stp_out_pad(&o, '-', STP_HIST_BAR);
	stp_out_n(&o, " count\n", 7);
	for (i = lo; i <= hi; i++) {
		u64 c = s->bucket[i];
		bool near = c != 0;
		size_t n;
		char *p;

		if (!shown(d, s, i))
			continue;
		/* An empty bucket shows only near a non-empty one. */
		for (j = i > (u32)elision ? i - (u32)elision : 0;
		     !near && j <= i + (u32)elision && j < d->nbuckets; j++)
			near = s->bucket[j] != 0;
		if (!near) {
			hidden = true;
			continue;
		}
		if (hidden) {
			stp_out_pad(&o, ' ', width + 1);
			stp_out_n(&o, "~\n", 2);
			hidden = false;
		}
		n = label(d, i, lab);
		stp_out_pad(&o, ' ', width - (long)n);
		stp_out_n(&o, lab, n);
		stp_out_n(&o, " |", 2);
		stp_out_pad(&o, '@', (long)(c / scale));
		stp_out_pad(&o, ' ', STP_HIST_BAR - (long)(c / scale));
		stp_out_pad(&o, ' ', 1);
		p = dec(num + sizeof(num), (s64)c);
		stp_out_pad(&o, ' ', cw - (long)(num + sizeof(num) - p));
		stp_out_n(&o, p, (size_t)(num + sizeof(num) - p));
		stp_out_n(&o, "\n", 1);
	}
	stp_out_n(&o, "\n", 1);
	buf[o.len] = '\0';
	return (int)o.len;
}
