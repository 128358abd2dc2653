// SPDX-License-Identifier: GPL-2.0-or-later
/* mm_struct.rss_stat[] as per-CPU counters: 6.2 and later (commit f1a7941243c1,
 * "mm: convert mm's rss stats into percpu_counter"); before, one struct
 * mm_rss_stat of atomic_long_t. */
#include <linux/mm_types.h>
#include <linux/percpu_counter.h>

s64 stp_ac_test(struct mm_struct *mm);
s64 stp_ac_test(struct mm_struct *mm)
{
	return mm->rss_stat[MM_FILEPAGES].count;
}
