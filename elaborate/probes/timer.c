// SPDX-License-Identifier: GPL-2.0-or-later
/* timer.c: the timer family: timer.jiffies(N), timer.s/sec/ms/msec/us/usec/
 * ns/nsec(N) with .randomize(M), timer.hz(N) and timer.profile.tick. The
 * range checks are the reference's: a period between 100 us and one day,
 * jiffies 1..1000000, a randomization between 0 and the period. */
#include "elaborate/probes/points.h"

#include <string.h>

#include "util/arena.h"

static int derive(struct elab *e, struct pm_ctx *c, const struct probe_point *pp);

static const struct pm_family timer_family = {
	.name = "timer", .derive = derive, .mech = MECH_timer,
};

/* Units: nanoseconds per unit, and the unit's allowed interval range. */
static const struct timer_unit_def {
	const char *name;
	int64_t ns;
	int64_t lo, hi;
} units[] = {
	{ "s", 1000000000LL, 1, 86400LL },
	{ "sec", 1000000000LL, 1, 86400LL },
	{ "ms", 1000000LL, 1, 86400000LL },
	{ "msec", 1000000LL, 1, 86400000LL },
	{ "us", 1000LL, 100, 86400000000LL },
	{ "usec", 1000LL, 100, 86400000000LL },
	{ "ns", 1LL, 100000, 86400000000000LL },
	{ "nsec", 1LL, 100000, 86400000000000LL },
};

static const struct srcloc *param_loc(const struct probe_point *pp,
				      const char *name)
{
	const struct expr *x = pm_param_of(pp, name);

	return x ? &x->loc : &((const struct pp_component *)pp->comps.v[0])->loc;
}

static const char *num_token(struct elab *e, const struct probe_point *pp,
			     const char *name)
{
	const struct expr *x = pm_param_of(pp, name);

	return x ? elab_token(e, x) : "identifier 'timer'";
}

static int derive(struct elab *e, struct pm_ctx *c, const struct probe_point *pp)
{
	const struct pp_component *kind = pp->comps.v[1];
	const struct expr *n = kind->param, *r = pm_param_of(pp, "randomize");
	struct elab_point *pt;
	struct timer_point *d = arena_new_obj(e->a, struct timer_point);
	size_t i;

	pt = pm_point(e, c, pp);
	pt->family = &timer_family;
	pt->data = d;
	if (!strcmp(kind->name, "profile")) {
		d->unit = TIMER_PROFILE;
		pm_emit(e, c, pt);
		return 1;
	}
	if (!strcmp(kind->name, "jiffies")) {
		if (n->num < 1 || n->num > 1000000) {
			pm_error(e, c, param_loc(pp, "jiffies"),
				 num_token(e, pp, "jiffies"),
				 "invalid interval for jiffies timer");
			return -1;
		}
		if (r && (r->num < 0 || r->num > n->num)) {
			pm_error(e, c, param_loc(pp, "randomize"),
				 num_token(e, pp, "randomize"),
				 "invalid randomize for jiffies timer");
			return -1;
		}
		d->unit = TIMER_JIFFIES;
		d->period = n->num;
		d->randomize = r ? r->num : 0;
		pm_emit(e, c, pt);
		return 1;
	}
	if (!strcmp(kind->name, "hz")) {
		if (n->num <= 0) {
			pm_error(e, c, param_loc(pp, "hz"), num_token(e, pp, "hz"),
				 "frequency must be greater than 0");
			return -1;
		}
		d->period = 1000000000LL / n->num;	/* period in ns */
		if (d->period < 100000) {
			pm_error(e, c, param_loc(pp, "hz"), num_token(e, pp, "hz"),
				 "interval value out of range (100000, 86400000000000)");
			return -1;
		}
		pm_emit(e, c, pt);
		return 1;
	}
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		const struct timer_unit_def *u = &units[i];

		if (strcmp(u->name, kind->name))
			continue;
		if (n->num < u->lo || n->num > u->hi) {
			pm_error(e, c, param_loc(pp, u->name),
				 num_token(e, pp, u->name),
				 "interval value out of range (%lld, %lld)",
				 (long long)u->lo, (long long)u->hi);
			return -1;
		}
		if (r && (r->num < 0 || r->num > n->num)) {
			pm_error(e, c, param_loc(pp, "randomize"),
				 num_token(e, pp, "randomize"),
				 "randomization value out of range");
			return -1;
		}
		d->period = n->num * u->ns;
		d->randomize = r ? r->num * u->ns : 0;
		pm_emit(e, c, pt);
		return 1;
	}
	return 0;
}

void pm_register_timer(struct elab *e)
{
	size_t i;

	pm_register(e, "timer.jiffies(n)", &timer_family);
	pm_register(e, "timer.jiffies(n).randomize(n)", &timer_family);
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		pm_register(e, arena_printf(e->a, "timer.%s(n)", units[i].name),
			    &timer_family);
		pm_register(e, arena_printf(e->a, "timer.%s(n).randomize(n)",
					    units[i].name), &timer_family);
	}
	pm_register(e, "timer.hz(n)", &timer_family);
	pm_register(e, "timer.profile.tick", &timer_family);
}
