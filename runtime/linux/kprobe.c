// SPDX-License-Identifier: GPL-2.0-or-later
/* kprobe.c: kprobe.function/.call/.return/.statement probes. Everything is
 * registered or nothing: a failure unregisters what was done (a ? point
 * that fails is skipped with a warning). At the end each probe's missed
 * hits are reported. */

struct stp_kprobe_state {
	struct kprobe kp;
	struct kretprobe krp;
	const struct stp_kprobe_probe *d;
	bool registered;
};

static struct stp_kprobe_state *stp_kp;

static int stp_kprobe_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct stp_kprobe_state *s = container_of(kp, struct stp_kprobe_state, kp);
	struct stp_context *c;

	if (!stp_running())
		return 0;
	c = stp_enter(s->d->probe, MAXACTION_INTERRUPTIBLE);
	if (!c)
		return 0;
	c->regs = regs;
	c->probe_addr = (unsigned long)kp->addr;
	stp_run_body(c, s->d->probe);
	stp_leave(c);
	return 0;
}

static int stp_kretprobe_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kretprobe *krp = get_kretprobe(ri);
	struct stp_kprobe_state *s;
	struct stp_context *c;

	if (!krp || !stp_running())
		return 0;
	s = container_of(krp, struct stp_kprobe_state, krp);
	c = stp_enter(s->d->probe, MAXACTION_INTERRUPTIBLE);
	if (!c)
		return 0;
	c->regs = regs;
	c->is_return = true;
	c->ri = ri;
	c->probe_addr = (unsigned long)krp->kp.addr;
	stp_run_body(c, s->d->probe);
	stp_leave(c);
	return 0;
}

/* A string captured at a .return probe's entry into its slot (the
 * generated capture code; @v may already be the slot). */
static inline void stp_entry_str(char *slot, const char *v)
{
	if (v != slot)
		strscpy(slot, v, MAXSTRINGLEN);
}

/* A .return probe's entry: capture the values its body reads at entry.
 * Inside the CPU's context like a probe body (the captures may use its
 * scratch buffer); when that is busy, the hit is skipped, counted, and
 * the return handler not run for it (entry handler returns nonzero). */
static int stp_kretprobe_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kretprobe *krp = get_kretprobe(ri);
	struct stp_kprobe_state *s;
	struct stp_context *c;

	if (!krp)
		return 1;
	s = container_of(krp, struct stp_kprobe_state, krp);
	memset(ri->data, 0, s->d->nslots * sizeof(u64));
	if (!stp_running())
		return 1;
	c = stp_enter(s->d->entry_probe ? s->d->entry_probe : s->d->probe,
		      MAXACTION_INTERRUPTIBLE);
	if (!c)
		return 1;
	if (s->d->entry)
		s->d->entry(regs, (u64 *)ri->data);
	if (s->d->entry_probe) {
		c->regs = regs;
		c->ri = ri;
		stp_run_body(c, s->d->entry_probe);
	}
	stp_leave(c);
	return 0;
}

static void stp_kprobe_unregister_one(struct stp_kprobe_state *s)
{
	if (!s->registered)
		return;
	if (s->d->ret)
		unregister_kretprobe(&s->krp);
	else
		unregister_kprobe(&s->kp);
	s->registered = false;
}

static int stp_kprobes_register(void)
{
	unsigned int i;
	int rc;

	if (!stp_module.nkprobes)
		return 0;
	stp_kp = vzalloc(sizeof(*stp_kp) * stp_module.nkprobes);
	if (!stp_kp)
		return -ENOMEM;
	for (i = 0; i < stp_module.nkprobes; i++) {
		struct stp_kprobe_state *s = &stp_kp[i];
		const struct stp_kprobe_probe *d = &stp_module.kprobes[i];
		struct kprobe *kp = d->ret ? &s->krp.kp : &s->kp;

		s->d = d;
		if (d->symbol) {
			kp->symbol_name = d->symbol;
			kp->offset = (unsigned int)d->offset;
		} else {
			kp->addr = (kprobe_opcode_t *)d->addr;
		}
		if (d->ret) {
			s->krp.handler = stp_kretprobe_handler;
			s->krp.maxactive = d->maxactive;
			if (d->nslots) {
				s->krp.entry_handler = stp_kretprobe_entry;
				s->krp.data_size = (int)(d->nslots * sizeof(u64));
			}
			rc = register_kretprobe(&s->krp);
		} else {
			s->kp.pre_handler = stp_kprobe_pre;
			rc = register_kprobe(&s->kp);
		}
		s->registered = rc == 0;
		rc = stp_registered(d->probe, d->optional, rc, "");
		if (rc) {
			while (i--)
				stp_kprobe_unregister_one(&stp_kp[i]);
			return rc;
		}
	}
	return 0;
}

static void stp_kprobes_unregister(void)
{
	unsigned int i;

	if (!stp_kp)
		return;
	for (i = 0; i < stp_module.nkprobes; i++)
		stp_kprobe_unregister_one(&stp_kp[i]);
}

/* After unregistering: missed hits, as warnings. */
static void stp_kprobes_report(void)
{
	unsigned int i;

	if (!stp_kp)
		return;
	for (i = 0; i < stp_module.nkprobes; i++) {
		struct stp_kprobe_state *s = &stp_kp[i];
		unsigned long missed = s->d->ret ? s->krp.nmissed + s->krp.kp.nmissed
						 : s->kp.nmissed;

		if (missed)
			stp_warn("Missed %lu hits of probe %s", missed, s->d->probe->pp);
	}
	vfree(stp_kp);
	stp_kp = NULL;
}
