// SPDX-License-Identifier: GPL-2.0-or-later
/* runtime_stat_test.c: the runtime's statistics (runtime/stat.c), built in
 * user space: @count/@sum/@min/@max/@avg against the reference's observed
 * values, log and linear bucket layout (0 = underflow, N + 1 = overflow),
 * merging per-CPU accumulators. Prints "N passed, N failed". */
#include <stdio.h>
#include <stdlib.h>

#include "runtime/stat.h"
#include "testsuite/unit/check.h"


static struct stp_stat *new_stat(const struct stp_stat_desc *d)
{
	struct stp_stat *s = calloc(1, stp_stat_size(d));

	stp_stat_clear(s, d);
	return s;
}

int main(void)
{
	struct stp_stat_desc plain = { .hist = STP_HIST_NONE };
	struct stp_stat_desc lg = { .hist = STP_HIST_LOG };
	struct stp_stat_desc lin = { .hist = STP_HIST_LINEAR, .lo = 1, .hi = 3, .step = 1 };
	struct stp_stat_desc bad = { .hist = STP_HIST_LINEAR, .lo = 0, .hi = 10, .step = 0 };
	struct stp_stat *s, *cpu[2], *all;
	int i;

	CHECK(stp_stat_desc_init(&plain) == 0 && plain.nbuckets == 0);
	CHECK(stp_stat_desc_init(&lg) == 0 && lg.nbuckets == STP_HIST_LOG_BUCKETS);
	CHECK(stp_stat_desc_init(&lin) == 0 && lin.nbuckets == 5);	/* <1 1 2 3 >3 */
	CHECK(stp_stat_desc_init(&bad) == -EINVAL);
	bad.step = 1;
	bad.hi = -5;
	CHECK(stp_stat_desc_init(&bad) == -EINVAL);

	/* squares of 1..10: count=10 sum=385 min=1 max=100 avg=38 (observed) */
	s = new_stat(&plain);
	for (i = 1; i <= 10; i++)
		stp_stat_add(s, &plain, (s64)i * i);
	CHECK(s->count == 10 && s->sum == 385 && s->min == 1 && s->max == 100);
	CHECK(stp_stat_avg(s) == 38);
	free(s);

	/* negative values: min/max/avg rounding toward zero */
	s = new_stat(&plain);
	stp_stat_add(s, &plain, -7);
	stp_stat_add(s, &plain, -2);
	CHECK(s->min == -7 && s->max == -2 && stp_stat_avg(s) == -4);
	free(s);

	/* linear buckets: 0 underflow, 1..3, 4 overflow */
	CHECK(stp_stat_bucket(&lin, 0) == 0 && stp_stat_bucket(&lin, 1) == 1);
	CHECK(stp_stat_bucket(&lin, 3) == 3 && stp_stat_bucket(&lin, 4) == 4);
	{
		/* (0, 100, 10): "100" holds 100..109, 110 overflows */
		struct stp_stat_desc l2 = { .hist = STP_HIST_LINEAR, .lo = 0,
					    .hi = 100, .step = 10 };

		stp_stat_desc_init(&l2);
		CHECK(l2.nbuckets == 13 && stp_stat_bucket(&l2, 105) == 11 &&
		      stp_stat_bucket(&l2, 110) == 12 && stp_stat_bucket(&l2, -1) == 0);
	}
	CHECK(stp_stat_bucket(&lin, INT64_MIN) == 0 && stp_stat_bucket(&lin, INT64_MAX) == 4);

	/* log buckets: 0, [1,2), [2,4), ..., negatives mirrored */
	CHECK(stp_stat_bucket(&lg, 0) == STP_HIST_LOG_ZERO);
	CHECK(stp_stat_bucket(&lg, 1) == STP_HIST_LOG_ZERO + 1);
	CHECK(stp_stat_bucket(&lg, 3) == STP_HIST_LOG_ZERO + 2);
	CHECK(stp_stat_bucket(&lg, 4) == STP_HIST_LOG_ZERO + 3);
	CHECK(stp_stat_bucket(&lg, -1) == STP_HIST_LOG_ZERO - 1);
	CHECK(stp_stat_bucket(&lg, INT64_MAX) == STP_HIST_LOG_BUCKETS - 1);
	CHECK(stp_stat_bucket(&lg, INT64_MIN) == 0);

	/* two CPUs' accumulators merge into the whole */
	cpu[0] = new_stat(&lin);
	cpu[1] = new_stat(&lin);
	all = new_stat(&lin);
	for (i = -1; i <= 5; i++)
		stp_stat_add(cpu[i & 1], &lin, i);
	stp_stat_merge(all, cpu[0], &lin);
	stp_stat_merge(all, cpu[1], &lin);
	CHECK(all->count == 7 && all->sum == 14 && all->min == -1 && all->max == 5);
	CHECK(all->bucket[0] == 2 && all->bucket[1] == 1 && all->bucket[2] == 1 &&
	      all->bucket[3] == 1 && all->bucket[4] == 2);
	s = new_stat(&lin);
	stp_stat_merge(all, s, &lin);	/* empty: no change */
	CHECK(all->count == 7 && all->min == -1);
	free(s);
	free(cpu[0]);
	free(cpu[1]);
	free(all);
	/* @variance, as recorded from the reference (testsuite/observed/stats) */
	{
		static const struct {
			s64 v[10];
			int n, shift;
			s64 want;
		} vc[] = {
			{ { 1, 4, 9, 16, 25, 36, 49, 64, 81, 100 }, 10, 0, 1240 },
			{ { 1, 4, 9, 16, 25, 36, 49, 64, 81, 100 }, 10, 1, 1223 },
			{ { 1, 4, 9, 16, 25, 36, 49, 64, 81, 100 }, 10, 8, 1168 },
			{ { 1, 2, 3, 4, 5 }, 5, 0, 12 },
			{ { 1, 2, 3, 4, 5 }, 5, 1, 2 },
			{ { 42 }, 1, 3, 0 },
			{ { 1, 2 }, 2, 0, 1 },
			{ { -1, -2, -10, -100 }, 4, 0, 2322 },
			{ { -1, -2, -10, -100 }, 4, 1, 2321 },
			{ { INT64_MAX, INT64_MAX }, 2, 0, 0 },
			{ { INT64_MAX, INT64_MIN }, 2, 0, 3 },
		};
		size_t k;

		for (k = 0; k < sizeof(vc) / sizeof(vc[0]); k++) {
			struct stp_stat_desc dv = { .hist = STP_HIST_NONE,
						    .shift = (u8)vc[k].shift };
			struct stp_stat *one = new_stat(&dv), *merged = new_stat(&dv);

			for (i = 0; i < vc[k].n; i++)
				stp_stat_add(one, &dv, vc[k].v[i]);
			CHECK(stp_stat_variance(one, &dv) == vc[k].want);
			/* one CPU's partial merged into an empty total: the same */
			stp_stat_merge(merged, one, &dv);
			CHECK(stp_stat_variance(merged, &dv) == vc[k].want);
			free(one);
			free(merged);
		}
	}
	return CHECK_SUMMARY();
}
