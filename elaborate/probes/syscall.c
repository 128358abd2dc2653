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
#include <string.h>

#include "util/arena.h"
#include "util/intern.h"
#include "util/kernel_info.h"
#include "util/syscalls.h"

static int derive(struct elab *e, struct pm_ctx *c, const struct probe_point *pp);

static struct elab_point *entry_of(struct elab *e, const struct elab_point *pt);

static const struct pm_family syscall_family = {
	.name = "__syscall", .derive = derive, .mech = MECH_syscall,
	.entry_of = entry_of,
};

/* __syscall("ia32:NAME"): a call x86-64 does not have natively (a 32-bit,
 * 16-bit-uid or socketcall one). The point resolves, so the library's
 * alias exists with its variables as in the reference, but it has no
 * mechanism: nothing is registered for it and it never fires (ia32 calls
 * are not dispatched, doc/syscalls.md). */
static const struct pm_family never_family = {
	.name = "__syscall", .derive = derive, .mech = MECH_NONE,
	.entry_of = entry_of,
};

/* The entry of the same call(s) as return point @pt. */
static struct elab_point *entry_of(struct elab *e, const struct elab_point *pt)
{
	const struct syscall_point *d = pt->data;
	struct syscall_point *ed;
	struct elab_point *ep;

	if (!d->ret)
		return NULL;
	ed = arena_new_obj(e->a, struct syscall_point);
	*ed = *d;
	ed->ret = false;
	ep = arena_new_obj(e->a, struct elab_point);
	*ep = *pt;
	ep->data = ed;
	ep->name = arena_printf(e->a, "%s (entry)", pt->name);
	return ep;
}

/* The target kernel's system calls, read once: @e->sc_names by number
 * and @e->sc_nrs (name -> number + 1); false with *@why when there is
 * no header. */
static bool syscall_numbers(struct elab *e, const char **why)
{
	size_t i;

	if (!e->sc_tried) {
		e->sc_tried = true;
		e->sc_names = syscall_table(e->a, e->ki->build_dir, &e->sc_nnames,
					    &e->sc_error);
		for (i = 0; e->sc_names && i < e->sc_nnames; i++)
			if (e->sc_names[i])
				ptrmap_put(e->a, &e->sc_nrs, intern(e->in, e->sc_names[i]),
					   (void *)(uintptr_t)(i + 1));
	}
	*why = e->sc_error;
	return e->sc_names != NULL;
}

void elab_syscall_names(struct elab *e)
{
	const char *why;

	if (syscall_numbers(e, &why)) {
		e->out.sc_names = e->sc_names;
		e->out.sc_nnames = e->sc_nnames;
	}
}

static int derive(struct elab *e, struct pm_ctx *c, const struct probe_point *pp)
{
	const struct pp_component *c0 = pp->comps.v[0];
	struct syscall_point *d = arena_new_obj(e->a, struct syscall_point);
	struct elab_point *pt;
	const char *why;

	d->ret = pm_has(pp, "return");
	d->nr = -1;
	pt = pm_point(e, c, pp);
	pt->data = d;
	pt->family = &syscall_family;
	if (c0->param && !strncmp(c0->param->str.s, "ia32:", 5)) {
		d->name = intern(e->in, c0->param->str.s);
		pt->family = &never_family;
		pm_emit(e, c, pt);
		return 1;
	}
	if (!syscall_numbers(e, &why) && c0->param) {
		pm_error(e, c, &c0->param->loc, elab_token(e, c0->param), "%s", why);
		return -1;
	}
	d->names = e->sc_names;
	d->nnames = e->sc_nnames;
	if (c0->param) {
		const char *name = intern(e->in, c0->param->str.s);
		uintptr_t v;

		v = (uintptr_t)ptrmap_get(&e->sc_nrs, name);
		if (!v) {
			pm_error(e, c, &c0->param->loc, elab_token(e, c0->param),
				 "no system call '%s' in kernel %s", name, e->ki->release);
			return -1;
		}
		d->name = name;
		d->nr = (int)(v - 1);
	}
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
