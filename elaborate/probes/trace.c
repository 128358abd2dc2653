// SPDX-License-Identifier: GPL-2.0-or-later
/* trace.c: the tracepoint family: kernel.trace("NAME") and
 * kernel.trace("SYSTEM:NAME"), globs in both parts, resolved against the
 * tracepoints the kernel's DWARF declares (elaborate/dwarf_trace.c); the
 * arguments are the probe's $variables. */
#include "elaborate/probes/points.h"

#include <fnmatch.h>
#include <string.h>

#include "elaborate/dwarf.h"
#include "util/arena.h"

static int derive(struct elab *e, struct pm_ctx *c, const struct probe_point *pp);

static const struct pm_family trace_family = {
	.name = "trace", .derive = derive, .mech = MECH_tracepoint, .per_point = true,
};

static int derive(struct elab *e, struct pm_ctx *c, const struct probe_point *pp)
{
	const struct pp_component *c0 = pp->comps.v[0], *tc = pp->comps.v[1];
	const char *pat = tc->param->str.s, *colon = strchr(pat, ':');
	const char *sys_pat = colon ? arena_strndup(e->a, pat, (size_t)(colon - pat)) : "*";
	const char *name_pat = colon ? colon + 1 : pat;
	const struct dw_trace *tps;
	const char *why;
	struct dw_mod *m = dw_open(e, DW_KERNEL, NULL, &why);
	size_t n, i;
	int emitted = 0;

	if (!m) {
		pm_error(e, c, &c0->loc, "identifier 'kernel'", "%s", why);
		return -1;
	}
	n = dw_tracepoints(e, m, &tps);
	for (i = 0; i < n; i++) {
		const struct dw_trace *t = &tps[i];
		struct elab_point *pt;
		struct tracepoint_point *d;
		struct dw_site *s;

		if (fnmatch(sys_pat, t->system, 0) || fnmatch(name_pat, t->name, 0))
			continue;
		pt = pm_point(e, c, pp);
		pt->name = arena_printf(e->a, "kernel.trace(\"%s:%s\")", t->system,
					t->name);
		pt->family = &trace_family;
		pt->data = d = arena_new_obj(e->a, struct tracepoint_point);
		d->name = t->name;
		d->system = t->system;
		d->nargs = (unsigned)t->nargs;
		s = arena_new_obj(e->a, struct dw_site);
		s->mod = m;
		s->fn = t->fn;
		s->pc = t->fn->entry;
		s->kind = dw_trace_site_kind();
		pt->site = s;
		pm_emit(e, c, pt);
		emitted++;
	}
	if (!emitted)
		pm_error(e, c, &tc->param->loc, elab_token(e, tc->param),
			 "no match for tracepoint '%s' (%zu tracepoints in %s)", pat,
			 n, dw_mod_path(m));
	return emitted ? emitted : -1;
}

void pm_register_trace(struct elab *e)
{
	pm_register(e, "kernel.trace(s)", &trace_family);
}
