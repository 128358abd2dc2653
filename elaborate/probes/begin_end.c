// SPDX-License-Identifier: GPL-2.0-or-later
/* begin_end.c: the begin, end, error and never families: session start,
 * normal end, end after a fatal error, and a point that never fires. Each
 * but never takes an optional 64-bit sequence number; lower numbers run
 * first, equal numbers in script order. */
#include "elaborate/probe_match.h"

#include <string.h>

static int derive(struct elab *e, struct pm_ctx *c, const struct probe_point *pp);

static const struct pm_family families[] = {
	{ .name = "begin", .derive = derive },
	{ .name = "end", .derive = derive },
	{ .name = "error", .derive = derive },
	{ .name = "never", .derive = derive },
};

static int derive(struct elab *e, struct pm_ctx *c, const struct probe_point *pp)
{
	const struct pp_component *c0 = pp->comps.v[0];
	struct elab_point *pt = pm_point(e, c, pp);
	size_t i;

	for (i = 0; i < sizeof(families) / sizeof(families[0]); i++)
		if (!strcmp(families[i].name, c0->name))
			pt->family = &families[i];
	pt->num[0] = c0->param ? c0->param->num : 0;
	pm_emit(e, c, pt);
	return 1;
}

const struct pm_family *pm_end_family(void)
{
	return &families[1];
}

void pm_register_begin_end(struct elab *e)
{
	pm_register(e, "begin", &families[0]);
	pm_register(e, "begin(n)", &families[0]);
	pm_register(e, "end", &families[1]);
	pm_register(e, "end(n)", &families[1]);
	pm_register(e, "error", &families[2]);
	pm_register(e, "error(n)", &families[2]);
	pm_register(e, "never", &families[3]);
}
