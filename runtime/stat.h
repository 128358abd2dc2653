/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stat.h: statistics (aggregates filled with <<<) for the kernel runtime:
 * one accumulator per CPU, updated without locks by the CPU's own probes,
 * merged when read (@count, @sum, @min, @max, @avg, histograms). The
 * histogram bucket layout is fixed at translation time by the variable's
 * one histogram kind. */
#ifndef STP_STAT_H
#define STP_STAT_H

#include "stp_types.h"

enum stp_hist { STP_HIST_NONE, STP_HIST_LOG, STP_HIST_LINEAR };

/* Log histograms: bucket 0 holds 0; bucket i (1..63) holds values with
 * their highest set bit at i - 1, i.e. [2^(i-1), 2^i); the mirror image
 * holds negative values. */
#define STP_HIST_LOG_BUCKETS 128
#define STP_HIST_LOG_ZERO 64		/* index of the 0 bucket */

struct stp_stat_desc {
	u8 hist;			/* enum stp_hist */
	u8 shift;			/* @variance(s, shift): 0..62, per variable */
	s64 lo, hi, step;		/* linear: [lo, hi] in steps */
	u32 nbuckets;			/* histogram buckets, see stp_stat_desc_init */
};

struct stp_stat {
	s64 count, sum, min, max;
	s64 avg, m2;			/* Welford, on values << shift */
	u64 bucket[];			/* desc->nbuckets entries */
};

/* Fill in @d->nbuckets for its kind; linear histograms get (hi - lo) /
 * step + 1 buckets of width step from lo (the last may reach past hi), plus
 * an underflow (index 0) and an overflow (last) bucket. Returns 0, or -EINVAL for a step <= 0, hi < lo, or more than
 * 100000 buckets. */
int stp_stat_desc_init(struct stp_stat_desc *d);

/* Bytes of one accumulator for @d. */
size_t stp_stat_size(const struct stp_stat_desc *d);

/* Empty @s (count 0). */
void stp_stat_clear(struct stp_stat *s, const struct stp_stat_desc *d);

/* s <<< v */
void stp_stat_add(struct stp_stat *s, const struct stp_stat_desc *d, s64 v);

/* Fold @src (another CPU's accumulator) into @dst. */
void stp_stat_merge(struct stp_stat *dst, const struct stp_stat *src,
		    const struct stp_stat_desc *d);

/* The bucket @v falls in. */
u32 stp_stat_bucket(const struct stp_stat_desc *d, s64 v);

/* @avg of a non-empty statistic: the sum divided by the count, rounded
 * toward zero as C division does. */
s64 stp_stat_avg(const struct stp_stat *s);

/* @variance of a non-empty statistic (0 for one value): integer Welford on
 * the values shifted left by d->shift, with the reference's correction at
 * read time, divided by count - 1 and shifted back (reproduces the values
 * recorded from the reference in testsuite/observed/stats*). */
s64 stp_stat_variance(const struct stp_stat *s, const struct stp_stat_desc *d);

#endif
