// SPDX-License-Identifier: GPL-2.0-or-later
/* proclife.c: the process lifecycle family: process[(PATH|PID)].begin,
 * .end, .thread.begin and .thread.end. No debuginfo is needed: the
 * points fire on the scheduler's process tracepoints (fork, exec, exit)
 * and, for .begin, once for each process already running at start
 * (runtime/linux/proclife.c). A PATH is the program as the target
 * machine names it ($PATH searched, --sysroot applied); a PID must name
 * a process running now, as the reference requires. */
#include "elaborate/probes/points.h"

#include <errno.h>
#include <signal.h>
#include <string.h>

#include "elaborate/dwarf.h"
#include "util/arena.h"

static int derive(struct elab *e, struct pm_ctx *c, const struct probe_point *pp);

static const struct pm_family proclife_family = {
	.name = "process", .derive = derive, .mech = MECH_proclife,
};

static const char *const kinds[] = {
	[PL_BEGIN] = "begin", [PL_END] = "end",
	[PL_THREAD_BEGIN] = "thread.begin", [PL_THREAD_END] = "thread.end",
};

static int derive(struct elab *e, struct pm_ctx *c, const struct probe_point *pp)
{
	const struct pp_component *c0 = pp->comps.v[0];
	struct proclife_point *d = arena_new_obj(e->a, struct proclife_point);
	bool thread = pm_has(pp, "thread");
	struct elab_point *pt;
	const char *why;

	d->kind = pm_has(pp, "begin") ? (thread ? PL_THREAD_BEGIN : PL_BEGIN)
				       : (thread ? PL_THREAD_END : PL_END);
	if (c0->param && c0->param->kind == EXPR_NUMBER) {
		int64_t pid = c0->param->num;

		if (pid <= 0 || pid > INT32_MAX) {
			pm_error(e, c, &c0->loc, "identifier 'process'",
				 "cannot probe pid %lld: Invalid pid", (long long)pid);
			return -1;
		}
		if (kill((pid_t)pid, 0) && errno == ESRCH) {
			pm_error(e, c, &c0->loc, "identifier 'process'",
				 "cannot probe pid %lld: No such process", (long long)pid);
			return -1;
		}
		d->pid = pid;
	} else if (c0->param) {
		d->path = dw_user_path(e, c0->param->str.s, NULL, &why);
		if (!d->path) {
			pm_error(e, c, &c0->param->loc, elab_token(e, c0->param), "%s", why);
			return -1;
		}
	}
	pt = pm_point(e, c, pp);
	if (d->path)		/* named by the file it resolved to */
		pt->name = arena_printf(e->a, "process(\"%s\").%s", d->path,
					kinds[d->kind]);
	pt->family = &proclife_family;
	pt->data = d;
	pm_emit(e, c, pt);
	return 1;
}

void pm_register_proclife(struct elab *e)
{
	static const char *const heads[] = { "process", "process(s)", "process(n)" };
	static const char *const tails[] = {
		"begin", "end", "thread.begin", "thread.end",
	};
	size_t h, t;

	for (h = 0; h < sizeof(heads) / sizeof(heads[0]); h++)
		for (t = 0; t < sizeof(tails) / sizeof(tails[0]); t++)
			pm_register(e, arena_printf(e->a, "%s.%s", heads[h], tails[t]),
				    &proclife_family);
}
