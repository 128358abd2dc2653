// SPDX-License-Identifier: GPL-2.0-or-later
/* proclife.c: the process lifecycle family: process[(PATH|PID)].begin,
 * .end, .thread.begin, .thread.end, .syscall and .syscall.return. No
 * debuginfo is needed: the points fire on the scheduler's process
 * tracepoints (fork, exec, exit) and, for .begin, once for each process
 * already running at start; .syscall[.return] on the raw_syscalls
 * tracepoints, for the processes the point names
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

/* .syscall and .syscall.return: the call's number and its first six
 * arguments (the task's registers), and at the return its value
 * (runtime/linux/proclife.c: CONTEXT->sc_args) */
#define PL_SC_VARS							\
	{ .name = "$syscall", .get = "(s64)CONTEXT->sc_args[1]" },		\
	{ .name = "$arg1", .get = "stp_pl_sc_arg(CONTEXT, 0)" },		\
	{ .name = "$arg2", .get = "stp_pl_sc_arg(CONTEXT, 1)" },		\
	{ .name = "$arg3", .get = "stp_pl_sc_arg(CONTEXT, 2)" },		\
	{ .name = "$arg4", .get = "stp_pl_sc_arg(CONTEXT, 3)" },		\
	{ .name = "$arg5", .get = "stp_pl_sc_arg(CONTEXT, 4)" },		\
	{ .name = "$arg6", .get = "stp_pl_sc_arg(CONTEXT, 5)" }
static const struct pm_ctxvar syscall_vars[] = { PL_SC_VARS, { 0 } };
static const struct pm_ctxvar syscall_return_vars[] = {
	PL_SC_VARS, { .name = "$return", .get = "(s64)CONTEXT->sc_args[2]" }, { 0 },
};
#undef PL_SC_VARS
/* as the reference lists them (without $return) */
#define PL_SC_LISTED " $syscall:long $arg1:long $arg2:long $arg3:long $arg4:long " \
	"$arg5:long $arg6:long"

static const struct pm_family syscall_family = {
	.name = "process", .derive = derive, .mech = MECH_proclife,
	.ctxvars = syscall_vars, .listed_vars = PL_SC_LISTED,
	.ctx_readonly = "system-call variables cannot be written",
};
static const struct pm_family syscall_return_family = {
	.name = "process", .derive = derive, .mech = MECH_proclife,
	.ctxvars = syscall_return_vars, .listed_vars = PL_SC_LISTED,
	.ctx_readonly = "system-call variables cannot be written",
};

static const char *const kinds[] = {
	[PL_BEGIN] = "begin", [PL_END] = "end",
	[PL_THREAD_BEGIN] = "thread.begin", [PL_THREAD_END] = "thread.end",
	[PL_SYSCALL] = "syscall", [PL_SYSCALL_RETURN] = "syscall.return",
};

static int derive(struct elab *e, struct pm_ctx *c, const struct probe_point *pp)
{
	const struct pp_component *c0 = pp->comps.v[0];
	struct proclife_point *d = arena_new_obj(e->a, struct proclife_point);
	bool thread = pm_has(pp, "thread");
	struct elab_point *pt;
	const char *why;

	if (pm_has(pp, "syscall"))
		d->kind = pm_has(pp, "return") ? PL_SYSCALL_RETURN : PL_SYSCALL;
	else
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
	pt->family = d->kind == PL_SYSCALL ? &syscall_family :
		     d->kind == PL_SYSCALL_RETURN ? &syscall_return_family : &proclife_family;
	pt->data = d;
	pm_emit(e, c, pt);
	return 1;
}

void pm_register_proclife(struct elab *e)
{
	static const char *const heads[] = { "process", "process(s)", "process(n)" };
	size_t h, t;

	for (h = 0; h < sizeof(heads) / sizeof(heads[0]); h++)
		for (t = 0; t < sizeof(kinds) / sizeof(kinds[0]); t++)
			pm_register(e, arena_printf(e->a, "%s.%s", heads[h], kinds[t]),
				    t == PL_SYSCALL ? &syscall_family :
				    t == PL_SYSCALL_RETURN ? &syscall_return_family :
				    &proclife_family);
}
