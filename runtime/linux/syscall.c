// SPDX-License-Identifier: GPL-2.0-or-later
/* syscall.c: system-call probes (__syscall("NAME")[.return] and
 * __syscall.any[.return], under the tapset's syscall.* aliases). One
 * callback on each of the raw_syscalls tracepoints serves every point:
 * it looks the call's number up in a table built at start, so a script
 * probing all 400 calls costs one registration and one lookup per call,
 * not 400 of either. Handlers see the task's user registers (the call's
 * arguments) and the number or the return value in CONTEXT->sc_args
 * ({ regs, nr, ret }). 32-bit (ia32) calls, whose numbers differ, are
 * not dispatched. */

#include <linux/compat.h>
#include <asm/syscall.h>

#include "linux/tp_lookup.h"

#define STP_SYSCALL_MAX 1024		/* numbers above this are not dispatched */

/* A point, in the generated table stp_syscalls[]. */
struct stp_syscall_probe {
	const struct stp_probe *probe;
	int nr;				/* -1: every call */
	bool ret;			/* at the return */
	bool optional;			/* a ? point */
};

/* The points of each number, entry and return separately: their indexes
 * in the table, grouped by number (first[nr] .. first[nr + 1]), every
 * call's points (nr -1) last. */
struct stp_syscall_dispatch {
	u16 *first;			/* STP_SYSCALL_MAX + 2 entries */
	u16 *idx;			/* n entries */
	bool used;
	bool optional;			/* every point of it is a ? point */
	const struct stp_probe *pt;	/* its first point, for messages */
};

static struct {
	const struct stp_syscall_probe *v;
	unsigned int n;
	struct stp_syscall_dispatch entry, exit;
	struct tracepoint *tp_enter, *tp_exit;
	bool on_enter, on_exit;		/* registered */
} stp_sc;

static void stp_syscall_range(unsigned int i, unsigned int end, const u16 *idx, u64 *args)
{
	for (; i < end; i++) {
		const struct stp_probe *p = stp_sc.v[idx[i]].probe;
		struct stp_context *c = stp_enter(p, MAXACTION_INTERRUPTIBLE);

		if (!c)
			continue;
		c->sc_args = args;
		stp_run_body(c, p);
		stp_leave(c);
	}
}

static void stp_syscall_run(const struct stp_syscall_dispatch *d, long nr,
			    struct pt_regs *regs, long ret)
{
	u64 args[3] = { (u64)(unsigned long)regs, (u64)nr, (u64)ret };

	/* ia32 calls have other numbers; so have x32 ones (the x32 bit set
	 * in orig_ax), but not -1, which has that bit set too: the return
	 * of rt_sigreturn, whose restored registers say "no call". */
	if (!stp_running() || in_ia32_syscall() || (nr != -1 && in_x32_syscall()))
		return;
	/* this number's points, then every call's */
	if (nr >= 0 && nr < STP_SYSCALL_MAX)
		stp_syscall_range(d->first[nr], d->first[nr + 1], d->idx, args);
	stp_syscall_range(d->first[STP_SYSCALL_MAX], d->first[STP_SYSCALL_MAX + 1], d->idx, args);
}

static void stp_syscall_enter(void *data, struct pt_regs *regs, long id)
{
	stp_syscall_run(&stp_sc.entry, id, regs, 0);
}

static void stp_syscall_exit(void *data, struct pt_regs *regs, long ret)
{
	stp_syscall_run(&stp_sc.exit, syscall_get_nr(current, regs), regs, ret);
}

/* Group the points of @ret kind by number into @d. */
static int stp_syscall_index(struct stp_syscall_dispatch *d, bool ret)
{
	unsigned int i, k = 0;
	int nr;

	d->first = stp_vzalloc(sizeof(*d->first) * (STP_SYSCALL_MAX + 2));
	d->idx = stp_vzalloc(sizeof(*d->idx) * (stp_sc.n + 1));
	if (!d->first || !d->idx)
		return -ENOMEM;
	/* numbers in order, then -1 (every call) at STP_SYSCALL_MAX */
	for (nr = 0; nr <= STP_SYSCALL_MAX; nr++) {
		int want = nr == STP_SYSCALL_MAX ? -1 : nr;

		d->first[nr] = (u16)k;
		for (i = 0; i < stp_sc.n; i++)
			if (stp_sc.v[i].ret == ret && stp_sc.v[i].nr == want)
				d->idx[k++] = (u16)i;
	}
	d->first[STP_SYSCALL_MAX + 1] = (u16)k;
	d->used = k > 0;
	d->optional = true;
	for (i = 0; i < k; i++)
		d->optional &= stp_sc.v[d->idx[i]].optional;
	d->pt = k ? stp_sc.v[d->idx[0]].probe : NULL;
	return 0;
}

/* Put @fn on tracepoint @tp when @d has points (@missing: the message
 * when the kernel has no such tracepoint). */
static int stp_syscall_attach(const struct stp_syscall_dispatch *d, struct tracepoint *tp,
			      void *fn, const char *missing, bool *on)
{
	int rc;

	if (!d->used)
		return 0;
	rc = tp ? STP_FAULT_RC("tracepoint registration", tracepoint_probe_register(tp, fn, NULL)) :
		-ENOENT;
	*on = rc == 0;
	return stp_registered(d->pt, d->optional, rc, tp ? "" : missing);
}

static int stp_syscalls_start(const void *table, unsigned int n)
{
	int rc;

	stp_sc.v = table;
	stp_sc.n = n;
	if (n > U16_MAX) {
		stp_ctl_printf("ERROR: too many system-call probes (%u)", n);
		return -E2BIG;
	}
	rc = stp_syscall_index(&stp_sc.entry, false);
	if (!rc)
		rc = stp_syscall_index(&stp_sc.exit, true);
	if (rc)
		return rc;
	stp_tp_lookup((const struct stp_tp_want[]){
		{ "sys_enter", &stp_sc.tp_enter }, { "sys_exit", &stp_sc.tp_exit } }, 2);
	rc = stp_syscall_attach(&stp_sc.entry, stp_sc.tp_enter, (void *)stp_syscall_enter,
				": no raw_syscalls:sys_enter tracepoint", &stp_sc.on_enter);
	if (!rc)
		rc = stp_syscall_attach(&stp_sc.exit, stp_sc.tp_exit, (void *)stp_syscall_exit,
					": no raw_syscalls:sys_exit tracepoint", &stp_sc.on_exit);
	return rc;
}

static void stp_syscalls_stop(void)
{
	if (stp_sc.on_enter)
		tracepoint_probe_unregister(stp_sc.tp_enter, (void *)stp_syscall_enter, NULL);
	if (stp_sc.on_exit)
		tracepoint_probe_unregister(stp_sc.tp_exit, (void *)stp_syscall_exit, NULL);
	if (stp_sc.on_enter || stp_sc.on_exit)
		tracepoint_synchronize_unregister();
	stp_sc.on_enter = stp_sc.on_exit = false;
	vfree(stp_sc.entry.first);
	vfree(stp_sc.entry.idx);
	vfree(stp_sc.exit.first);
	vfree(stp_sc.exit.idx);
	memset(&stp_sc.entry, 0, sizeof(stp_sc.entry));
	memset(&stp_sc.exit, 0, sizeof(stp_sc.exit));
}

#include "linux/sc_names.h"

static const struct stp_family stp_syscall_family = {
	.name = "syscall",
	.start = stp_syscalls_start,
	.stop = stp_syscalls_stop,
};
