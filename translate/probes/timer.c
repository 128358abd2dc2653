// SPDX-License-Identifier: GPL-2.0-or-later
/* timer.c: the table of timer.* points: each one's period and random
 * spread in nanoseconds (jiffies in the kernel's HZ), or a profile tick
 * on every CPU (runtime/linux/timer.c). */
#include "translate/probes/probes.h"

#include <inttypes.h>

#include "util/strbuf.h"

static void emit(struct xl *x, const struct xl_point *v, size_t n, struct xl_tables *t)
{
	size_t i;

	sb_adds(t->out, "static const struct stp_timer_probe stp_timers[] = {\n");
	for (i = 0; i < n; i++) {
		const struct timer_point *d = timer_point(v[i].pt);
		const char *unit = d->unit == TIMER_JIFFIES ? " * (NSEC_PER_SEC / HZ)" : "";

		if (d->unit == TIMER_PROFILE)
			sb_addf(t->out, "\t{ &stp_pp%zu, NSEC_PER_SEC / HZ, 0, true },\n", v[i].id);
		else
			sb_addf(t->out, "\t{ &stp_pp%zu, %" PRId64 "ULL%s, %" PRId64 "ULL%s, false },\n",
				v[i].id, d->period, unit, d->randomize, unit);
	}
	sb_adds(t->out, "};\n\n");
	xl_family_use(t, "stp_timer_family", "stp_timers", n, false);
	(void)x;
}

const struct xl_mech xl_mech_timer = { .runtime = "linux/timer.c", .emit = emit };
