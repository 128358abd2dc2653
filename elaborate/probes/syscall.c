// SPDX-License-Identifier: GPL-2.0-or-later
/* syscall.c: the system-call family under the tapset's syscall.*,
 * nd_syscall.* and syscall_any aliases: __syscall("NAME") and
 * __syscall("NAME").return for one call, __syscall.any[.return] for every
 * call. A name is the kernel's (openat, not sys_openat); its number comes
 * from the target kernel's own <asm/unistd_64.h> (the build tree's
 * generated uapi header), so a call the kernel lacks does not resolve.
 * No debuginfo is needed: the points fire on the raw_syscalls tracepoints
 * (runtime/linux/syscall.c), and the aliases read the arguments from the
 * task's registers. */
#include "elaborate/probes/points.h"

#include <stdint.h>

#include "util/arena.h"
#include "util/intern.h"
#include "util/kernel_info.h"
#include "util/syscalls.h"

static int derive(struct elab *e, struct pm_ctx *c, const struct probe_point *pp);

static const struct pm_family syscall_family = {
	.name = "__syscall", .derive = derive, .mech = MECH_syscall,
};

/* The target kernel's system-call numbers: name -> number + 1, read once;
 * NULL with *@why when there is no header. */
static const struct ptrmap *syscall_numbers(struct elab *e, const char **why)
{
	const char **names;
	size_t i, n;

	if (e->sc_tried) {
		*why = e->sc_error;
		return e->sc_error ? NULL : &e->sc_nrs;
	}
	e->sc_tried = true;
	names = syscall_table(e->a, e->ki->build_dir, &n, &e->sc_error);
	for (i = 0; names && i < n; i++)
		if (names[i])
			ptrmap_put(e->a, &e->sc_nrs, intern(e->in, names[i]),
				   (void *)(uintptr_t)(i + 1));
	*why = e->sc_error;
	return names ? &e->sc_nrs : NULL;
}

static int derive(struct elab *e, struct pm_ctx *c, const struct probe_point *pp)
{
	const struct pp_component *c0 = pp->comps.v[0];
	struct syscall_point *d = arena_new_obj(e->a, struct syscall_point);
	struct elab_point *pt;

	d->ret = pm_has(pp, "return");
	d->nr = -1;
	if (c0->param) {
		const char *why, *name = intern(e->in, c0->param->str.s);
		const struct ptrmap *nrs = syscall_numbers(e, &why);
		uintptr_t v;

		if (!nrs) {
			pm_error(e, c, &c0->param->loc, elab_token(e, c0->param), "%s", why);
			return -1;
		}
		v = (uintptr_t)ptrmap_get(nrs, name);
		if (!v) {
			pm_error(e, c, &c0->param->loc, elab_token(e, c0->param),
				 "no system call '%s' in kernel %s", name, e->ki->release);
			return -1;
		}
		d->name = name;
		d->nr = (int)(v - 1);
	}
	pt = pm_point(e, c, pp);
	pt->family = &syscall_family;
	pt->data = d;
	pm_emit(e, c, pt);
	return 1;
}

void pm_register_syscall(struct elab *e)
{
	pm_register(e, "__syscall(s)", &syscall_family);
	pm_register(e, "__syscall(s).return", &syscall_family);
	pm_register(e, "__syscall.any", &syscall_family);
	pm_register(e, "__syscall.any.return", &syscall_family);
}
