// SPDX-License-Identifier: GPL-2.0-or-later
/* hwbkpt.c: kernel.data watchpoints, one wide hardware breakpoint (a
 * perf event on every CPU) per point. The handler runs from the debug
 * exception after the watched access, with the registers of the code
 * that made it. Everything is registered or nothing (a ? point that
 * fails is skipped with a warning); x86 has four debug registers, so a
 * fifth watchpoint fails to register (-ENOSPC). */

/* A point, in the generated table stp_hwbkpts[]. */
struct stp_hwbkpt_probe {
	const struct stp_probe *probe;
	unsigned long (*addr)(void);	/* the address watched, at run time
					 * (symbols move with KASLR) */
	unsigned int len;		/* bytes watched: 1, 2, 4 or 8 */
	bool write;			/* .write, else .rw */
	bool optional;
};

struct stp_hwbkpt_state {
	struct perf_event * __percpu *ev;	/* NULL: not registered */
	const struct stp_hwbkpt_probe *d;
};

static struct stp_hwbkpt_state *stp_hws;
static unsigned int stp_hw_n;

static void stp_hwbkpt_hit(struct perf_event *bp, struct perf_sample_data *data,
			   struct pt_regs *regs)
{
	const struct stp_hwbkpt_probe *d = bp->overflow_handler_context;
	struct stp_context *c;

	if (!d || !stp_running())
		return;
	c = stp_enter(d->probe, MAXACTION_INTERRUPTIBLE);
	if (!c)
		return;
	c->regs = regs;		/* addr(), backtraces: the accessing code */
	stp_run_body(c, d->probe);
	stp_leave(c);
}

static void stp_hwbkpts_stop(void)
{
	unsigned int i;

	for (i = 0; stp_hws && i < stp_hw_n; i++) {
		if (stp_hws[i].ev)
			unregister_wide_hw_breakpoint(stp_hws[i].ev);
		stp_hws[i].ev = NULL;
	}
	vfree(stp_hws);
	stp_hws = NULL;
}

static int stp_hwbkpts_start(const void *table, unsigned int n)
{
	const struct stp_hwbkpt_probe *v = table;
	static const u8 lens[9] = { [1] = HW_BREAKPOINT_LEN_1, [2] = HW_BREAKPOINT_LEN_2,
				    [4] = HW_BREAKPOINT_LEN_4, [8] = HW_BREAKPOINT_LEN_8 };
	unsigned int i;
	int rc = 0;

	stp_hw_n = n;
	stp_hws = stp_vzalloc(sizeof(*stp_hws) * n);
	if (!stp_hws)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		const struct stp_hwbkpt_probe *d = &v[i];
		struct perf_event * __percpu *ev;
		struct perf_event_attr attr;

		stp_hws[i].d = d;
		hw_breakpoint_init(&attr);
		attr.bp_addr = d->addr();
		attr.bp_len = d->len < sizeof(lens) && lens[d->len] ? lens[d->len] : HW_BREAKPOINT_LEN_1;
		attr.bp_type = d->write ? HW_BREAKPOINT_W : HW_BREAKPOINT_W | HW_BREAKPOINT_R;
		ev = STP_FAULT_ERR_PTR("hardware breakpoint",
				       register_wide_hw_breakpoint(&attr, stp_hwbkpt_hit, (void *)d));
		rc = IS_ERR(ev) ? (int)PTR_ERR(ev) : 0;
		if (!rc)
			stp_hws[i].ev = ev;
		rc = stp_registered(d->probe, d->optional, rc, "");
		if (rc) {
			stp_hwbkpts_stop();
			return rc;
		}
	}
	return 0;
}

static const struct stp_family stp_hwbkpt_family = {
	.name = "hwbkpt",
	.start = stp_hwbkpts_start,
	.stop = stp_hwbkpts_stop,
};
