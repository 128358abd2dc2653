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

void stp_stat_add(struct stp_stat *s, const struct stp_stat_desc *d, s64 v)
{
	if (!s->count || v < s->min)
		s->min = v;
	if (!s->count || v > s->max)
		s->max = v;
	s->count++;
	s->sum = (s64)((u64)s->sum + (u64)v);	/* wraps like the language */
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
	dst->count += src->count;
	dst->sum = (s64)((u64)dst->sum + (u64)src->sum);
	for (i = 0; i < d->nbuckets; i++)
		dst->bucket[i] += src->bucket[i];
}

s64 stp_stat_avg(const struct stp_stat *s)
{
	if (!s->count)
		return 0;
	return s->sum / s->count;	/* count >= 1: no overflow */
}
