// SPDX-License-Identifier: GPL-2.0-or-later
/* hrtimer_setup(): 6.13 and later (hrtimer_init() went away in 6.15). */
#include <linux/hrtimer.h>

static enum hrtimer_restart stp_ac_fn(struct hrtimer *t)
{
	return HRTIMER_NORESTART;
}

void stp_ac_test(struct hrtimer *t);
void stp_ac_test(struct hrtimer *t)
{
	hrtimer_setup(t, stp_ac_fn, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
}
