// SPDX-License-Identifier: GPL-2.0-or-later
/* stat.c: statistics accumulators: count, sum, min, max and histogram
 * buckets; constant time per value, no allocation. */
#include "stat.h"

#define STP_HIST_LINEAR_MAX 100000

int stp_stat_desc_init(struct stp_stat_desc *d)
{
	u64 span;

	switch (d->hist) {
	case STP_HIST_LOG:
		d->nbuckets = STP_HIST_LOG_BUCKETS;
		return 0;
	case STP_HIST_LINEAR:
		if (d->step <= 0 || d->hi < d->lo)
			return -EINVAL;
		span = (u64)d->hi - (u64)d->lo;
		if (span / (u64)d->step + 3 > STP_HIST_LINEAR_MAX)
			return -EINVAL;
		d->nbuckets = (u32)(span / (u64)d->step) + 3;
		return 0;
	default:
		d->nbuckets = 0;
		return 0;
	}
}

size_t stp_stat_size(const struct stp_stat_desc *d)
{
	return sizeof(struct stp_stat) + d->nbuckets * sizeof(u64);
}

void stp_stat_clear(struct stp_stat *s, const struct stp_stat_desc *d)
{
	memset(s, 0, stp_stat_size(d));
}

/* Index of the highest set bit of @v (v > 0), 0-based. */
static u32 top_bit(u64 v)
{
	u32 n = 0;

	while (v >>= 1)
		n++;
	return n;
}

u32 stp_stat_bucket(const struct stp_stat_desc *d, s64 v)
{
	if (d->hist == STP_HIST_LOG) {
		u64 mag;

		if (v == 0)
			return STP_HIST_LOG_ZERO;
		mag = v < 0 ? 0 - (u64)v : (u64)v;
		if (v > 0)
			return STP_HIST_LOG_ZERO + 1 + top_bit(mag);	/* 65.. */
		return STP_HIST_LOG_ZERO - 1 - top_bit(mag);		/* ..63 */
	}
	/* Buckets [lo + i*step, lo + (i+1)*step) for i in 0..nb-1, where
	 * nb = (hi - lo) / step + 1: the last one may reach past hi, as in
	 * the reference (observed: 105 counts in "100" of (0, 100, 10)). */
	if (v < d->lo)
		return 0;
	{
		u64 i = ((u64)v - (u64)d->lo) / (u64)d->step;

		if (i >= d->nbuckets - 2)
			return d->nbuckets - 1;
		return (u32)i + 1;
	}
}

/* Wrapping 64-bit arithmetic, as the language's. */
static s64 wadd(s64 a, s64 b)
{
	return (s64)((u64)a + (u64)b);
}

static s64 wsub(s64 a, s64 b)
{
	return (s64)((u64)a - (u64)b);
}

static s64 wmul(s64 a, s64 b)
{
	return (s64)((u64)a * (u64)b);
}

/* C division, but never traps (INT64_MIN / -1 wraps). */
static s64 wdiv(s64 a, s64 b)
{
	if (b == -1)
		return wsub(0, a);
	return a / b;
}

void stp_stat_add(struct stp_stat *s, const struct stp_stat_desc *d, s64 v)
{
	s64 xs = (s64)((u64)v << d->shift), delta;

	if (!s->count || v < s->min)
		s->min = v;
	if (!s->count || v > s->max)
		s->max = v;
	s->count++;
	s->sum = wadd(s->sum, v);
	delta = wsub(xs, s->avg);
	s->avg = wadd(s->avg, wdiv(delta, s->count));
	s->m2 = wadd(s->m2, wmul(delta, wsub(xs, s->avg)));
	if (d->nbuckets)
		s->bucket[stp_stat_bucket(d, v)]++;
}

void stp_stat_merge(struct stp_stat *dst, const struct stp_stat *src,
		    const struct stp_stat_desc *d)
{
	u32 i;

	if (!src->count)
		return;
	if (!dst->count || src->min < dst->min)
		dst->min = src->min;
	if (!dst->count || src->max > dst->max)
		dst->max = src->max;
	if (!dst->count) {
		dst->avg = src->avg;
		dst->m2 = src->m2;
	} else {
		/* Chan's combination of two Welford partials, in integers. */
		s64 n = dst->count + src->count;
		s64 delta = wsub(src->avg, dst->avg);

		dst->avg = wadd(dst->avg, wdiv(wmul(delta, src->count), n));
		dst->m2 = wadd(wadd(dst->m2, src->m2),
			       wdiv(wmul(wmul(delta, delta),
					 wmul(dst->count, src->count)), n));
	}
	dst->count += src->count;
	dst->sum = wadd(dst->sum, src->sum);
	for (i = 0; i < d->nbuckets; i++)
		dst->bucket[i] += src->bucket[i];
}

s64 stp_stat_avg(const struct stp_stat *s)
{
	if (!s->count)
		return 0;
	return s->sum / s->count;	/* count >= 1: no overflow */
}

s64 stp_stat_variance(const struct stp_stat *s, const struct stp_stat_desc *d)
{
	s64 a, m2, diff, var;

	if (s->count < 2)
		return 0;
	a = wdiv((s64)((u64)s->sum << d->shift), s->count);
	diff = wsub(s->avg, a);
	m2 = wadd(s->m2, wmul(s->count, wmul(diff, diff)));
	var = wdiv(m2, s->count - 1);
	/* shift back; an arithmetic shift of a negative (overflowed) value
	 * rounds toward zero like the reference's */
	if (var < 0)
		return wsub(0, (s64)((0 - (u64)var) >> (2 * d->shift)));
	return (s64)((u64)var >> (2 * d->shift));
}
