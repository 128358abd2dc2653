// SPDX-License-Identifier: GPL-2.0-or-later
/* perf.c: the perf family, points on the kernel's perf events:
 *
 *   perf.type(T).config(C)[.sample(N)|.hz(N)]   every CPU, the body runs
 *                                               at each overflow
 *   perf.type(T).config(C).process[("PATH")]    the processes running
 *                                               PATH (-c's without it)
 *   perf.type(T).config(C)[.process[("PATH")]].counter("NAME")
 *                                               a counting event that
 *                                               @perf("NAME") reads
 *
 * T and C are perf_event_attr's type and config (perf_event_open(2)),
 * passed to the kernel unchecked: it refuses what it does not know when
 * the module starts. The default sampling period is 1000000 events. The
 * point names are the reference's: the period always shows, as
 * .sample(N) even for .hz(N) (whose N is a frequency), and a counter's as
 * .sample(0). runtime/linux/perf.c arms them. */
#include "elaborate/probes/points.h"

#include <string.h>

#include "elaborate/dwarf.h"
#include "session.h"
#include "util/arena.h"
#include "util/intern.h"
#include "util/strbuf.h"

#define PERF_DEFAULT_PERIOD 1000000

static int derive(struct elab *e, struct pm_ctx *c, const struct probe_point *pp);

static const struct pm_family perf_family = {
	.name = "perf", .derive = derive, .mech = MECH_perf,
};

static int derive(struct elab *e, struct pm_ctx *c, const struct probe_point *pp)
{
	const struct pp_component *c0 = pp->comps.v[0];
	const struct expr *sample = pm_param_of(pp, "sample");
	const struct expr *hz = pm_param_of(pp, "hz");
	const struct expr *counter = pm_param_of(pp, "counter");
	struct perf_point *d = arena_new_obj(e->a, struct perf_point);
	struct elab_point *pt;
	struct strbuf sb = STRBUF_INIT;

	d->type = pm_param_of(pp, "type")->num;
	d->config = pm_param_of(pp, "config")->num;
	d->period = counter ? 0 : PERF_DEFAULT_PERIOD;
	if (sample) {
		if (sample->num <= 0) {
			pm_error(e, c, &sample->loc, elab_token(e, sample),
				 "invalid perf sample period %lld", (long long)sample->num);
			return -1;
		}
		d->period = sample->num;
	} else if (hz) {
		d->period = hz->num;
		d->freq = true;
	}
	if (pm_has(pp, "process")) {
		const struct expr *x = pm_param_of(pp, "process");
		const char *name = x ? x->str.s : pm_target_command(e), *why;

		if (!name) {
			pm_error(e, c, &c0->loc, "identifier 'perf'",
				 "unspecified process probe is invalid without a -c COMMAND");
			return -1;
		}
		d->path = dw_user_path(e, name, NULL, &why);
		if (!d->path) {
			/* a program not (yet) on this machine: named as given */
			d->path = name;
		}
	}
	if (counter) {
		const char *key = intern(e->in, counter->str.s);

		if (ptrmap_get(&e->perf_counters, key)) {
			pm_error(e, c, &counter->loc, elab_token(e, counter),
				 "duplicate counter name");
			return -1;
		}
		d->counter = key;
	}
	d->optional = pm_quiet(e, c);	/* (or -l, which stops at pass 2) */
	pt = pm_point(e, c, pp);
	pt->family = &perf_family;
	pt->data = d;
	sb_addf(&sb, "perf.type(%lld).config(%lld).sample(%lld)", (long long)d->type,
		(long long)d->config, (long long)d->period);
	if (d->path)
		sb_addf(&sb, ".process(\"%s\")", d->path);
	if (d->counter)
		sb_addf(&sb, ".counter(\"%s\")", d->counter);
	pt->name = arena_strndup(e->a, sb.buf, sb.len);
	sb_release(&sb);
	if (d->counter && !pm_quiet(e, c))
		ptrmap_put(e->a, &e->perf_counters, d->counter, pt);
	pm_emit(e, c, pt);
	return 1;
}

void pm_register_perf(struct elab *e)
{
	static const char *const tails[] = {
		"", ".sample(n)", ".hz(n)", ".process", ".process(s)",
		".counter(s)", ".process.counter(s)", ".process(s).counter(s)",
	};
	size_t i;

	for (i = 0; i < sizeof(tails) / sizeof(tails[0]); i++)
		pm_register(e, arena_printf(e->a, "perf.type(n).config(n)%s", tails[i]),
			    &perf_family);
}
