// SPDX-License-Identifier: GPL-2.0-or-later
/* perf.c: the table of perf.* points: each one's perf_event_attr type,
 * config and sampling period (or frequency), the program whose
 * processes it is bound to, if any, and the name @perf reads a counting
 * point by (runtime/linux/perf.c). */
#include "translate/probes/probes.h"

#include <inttypes.h>
#include <string.h>

#include "util/arena.h"
#include "util/strbuf.h"

static void emit(struct xl *x, const struct xl_point *v, size_t n, struct xl_tables *t)
{
	size_t i;

	sb_adds(t->out, "static const struct stp_perf_probe stp_perf_points[] = {\n");
	for (i = 0; i < n; i++) {
		const struct perf_point *d = perf_point(v[i].pt);

		sb_addf(t->out, "\t{ &stp_pp%zu, %" PRIu32 "U, %" PRIu64 "ULL, %" PRIu64
			"ULL, %s, %s, %s, %s },\n", v[i].id, (uint32_t)d->type,
			(uint64_t)d->config, (uint64_t)d->period, d->freq ? "true" : "false",
			d->path ? c_string(x->a, d->path, strlen(d->path)) : "NULL",
			d->optional || xl_point_optional(v[i].pt) ? "true" : "false",
			d->counter ? c_string(x->a, d->counter, strlen(d->counter)) : "NULL");
	}
	sb_adds(t->out, "};\n\n");
	xl_family_use(t, "stp_perf_family", "stp_perf_points", n, false);
}

const struct xl_mech xl_mech_perf = { .runtime = "linux/perf.c", .emit = emit };
