// SPDX-License-Identifier: GPL-2.0-or-later
/* begin_end.c: the begin, end, error and never families: session start,
 * normal end, end after a fatal error, and a point that never fires. Each
 * but never takes an optional 64-bit sequence number; lower numbers run
 * first, equal numbers in script order. */
#include "elaborate/probes/points.h"

#include <string.h>

#include "util/arena.h"

static int derive(struct elab *e, struct pm_ctx *c, const struct probe_point *pp);

/* Indexed by enum seq_kind; never last (no mechanism: it never runs). */
static const struct pm_family families[] = {
	{ .name = "begin", .derive = derive, .mech = MECH_seq },
	{ .name = "end", .derive = derive, .mech = MECH_seq },
	{ .name = "error", .derive = derive, .mech = MECH_seq },
	{ .name = "never", .derive = derive, .mech = MECH_NONE },
};

#define NEVER 3

static void set_seq(struct elab *e, struct elab_point *pt, enum seq_kind kind,
		    int64_t seq)
{
	struct seq_point *d = arena_new_obj(e->a, struct seq_point);

	d->kind = kind;
	d->seq = seq;
	pt->family = &families[kind];
	pt->data = d;
}

static int derive(struct elab *e, struct pm_ctx *c, const struct probe_point *pp)
{
	const struct pp_component *c0 = pp->comps.v[0];
	struct elab_point *pt = pm_point(e, c, pp);
	size_t i;

	for (i = 0; i < sizeof(families) / sizeof(families[0]); i++) {
		if (strcmp(families[i].name, c0->name))
			continue;
		if (i == NEVER)
			pt->family = &families[i];
		else
			set_seq(e, pt, (enum seq_kind)i, c0->param ? c0->param->num : 0);
	}
	pm_emit(e, c, pt);
	return 1;
}

void pm_set_end(struct elab *e, struct elab_point *pt)
{
	set_seq(e, pt, SEQ_END, 0);
}

void pm_register_begin_end(struct elab *e)
{
	pm_register(e, "begin", &families[SEQ_BEGIN]);
	pm_register(e, "begin(n)", &families[SEQ_BEGIN]);
	pm_register(e, "end", &families[SEQ_END]);
	pm_register(e, "end(n)", &families[SEQ_END]);
	pm_register(e, "error", &families[SEQ_ERROR]);
	pm_register(e, "error(n)", &families[SEQ_ERROR]);
	pm_register(e, "never", &families[NEVER]);
}
