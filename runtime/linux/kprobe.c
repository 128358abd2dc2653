// SPDX-License-Identifier: GPL-2.0-or-later
/* kprobe.c: kprobe.function/.call/.return/.statement probes. Everything is
 * registered or nothing: a failure unregisters what was done (a ? point
 * that fails is skipped with a warning). A point in a module that is not
 * loaded waits for it: the module notifier (kmod.c) registers it when the
 * module loads and unregisters it when the module unloads, as often as
 * that happens. At the end each probe's missed hits are reported. */

/* A point, in the generated table stp_kprobes[]. */
struct stp_kprobe_probe {
	const struct stp_probe *probe;
	const char *symbol;		/* "[MODULE:]symbol", or NULL for an
					 * absolute address */
	unsigned long offset;
	unsigned long addr;
	bool ret;
	int maxactive;			/* 0: the kernel's default */
	bool optional;			/* a ? point: failure is a warning */
	/* .return: values captured at function entry into the instance's
	 * data (u64 slots), read by the return probe's $var getters */
	void (*entry)(struct pt_regs *regs, u64 *slots);
	unsigned int nslots;
	const struct stp_probe *entry_probe;	/* @entry(EXPR): a body run at entry */
};

struct stp_kprobe_state {
	struct kprobe kp;
	struct kretprobe krp;
	const struct stp_kprobe_probe *d;
	bool registered;
	bool waiting;			/* for its module to load */
	unsigned long missed;		/* by earlier registrations */
};

/* The states; registering and unregistering under stp_kp_mutex (the
 * session's start and end, and the module notifier). */
static struct stp_kprobe_state *stp_kp;
static unsigned int stp_kp_n;
static DEFINE_MUTEX(stp_kp_mutex);
static bool stp_kp_closed;		/* the session's end: no more */

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
	c->entry_data = (u64 *)ri->data;
	c->probe_addr = (unsigned long)krp->kp.addr;
	stp_run_body(c, s->d->probe);
	stp_leave(c);
	return 0;
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
		c->entry_data = (u64 *)ri->data;
		stp_run_body(c, s->d->entry_probe);
	}
	stp_leave(c);
	return 0;
}

/* The module of point @d ("MODULE:function"), its name's length in
 * *@len; NULL for the kernel's points. */
static const char *stp_kprobe_module(const struct stp_kprobe_probe *d, size_t *len)
{
	const char *colon = d->symbol ? strchr(d->symbol, ':') : NULL;

	if (!colon)
		return NULL;
	*len = (size_t)(colon - d->symbol);
	return d->symbol;
}

/* Register @s's point afresh (the kernel wants clean structures). */
static int stp_kprobe_register_one(struct stp_kprobe_state *s)
{
	const struct stp_kprobe_probe *d = s->d;
	struct kprobe *kp = d->ret ? &s->krp.kp : &s->kp;
	int rc;

	memset(&s->kp, 0, sizeof(s->kp));
	memset(&s->krp, 0, sizeof(s->krp));
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
	return rc;
}

static void stp_kprobe_unregister_one(struct stp_kprobe_state *s)
{
	if (!s->registered)
		return;
	if (s->d->ret) {
		unregister_kretprobe(&s->krp);
		s->missed += s->krp.nmissed + s->krp.kp.nmissed;
	} else {
		unregister_kprobe(&s->kp);
		s->missed += s->kp.nmissed;
	}
	s->registered = false;
}

static int stp_kprobes_start(const void *table, unsigned int n)
{
	const struct stp_kprobe_probe *v = table;
	unsigned int i;
	size_t len;
	int rc = 0;

	mutex_lock(&stp_kp_mutex);
	stp_kp_n = n;
	stp_kp = vzalloc(sizeof(*stp_kp) * n);
	if (!stp_kp)
		rc = -ENOMEM;
	for (i = 0; !rc && i < n; i++)
		stp_kp[i].d = &v[i];
	/* Last to first: the kernel puts a kprobe that shares its address
	 * with registered ones at the head of their list, so the handlers
	 * then run in the script's order, and the .return handlers of one
	 * function in the reverse order (their instances are a stack), as the
	 * reference's do (runok vfs_values: vfs.read and vfs.do_sync_read on
	 * vfs_read). */
	for (i = 0; !rc && i < n; i++) {
		struct stp_kprobe_state *s = &stp_kp[n - 1 - i];
		const char *mod = stp_kprobe_module(s->d, &len);

		rc = stp_kprobe_register_one(s);
		/* its module is not loaded: wait for it; it was still being
		 * set up when kprobes looked: once more */
		if (rc == -ENOENT && mod && !stp_kmod_is_loaded(mod, len)) {
			s->waiting = true;
			rc = 0;
			continue;
		}
		if (rc == -ENOENT && mod)
			rc = stp_kprobe_register_one(s);
		rc = stp_registered(s->d->probe, s->d->optional, rc, "");
		if (rc) {
			for (i = 0; i < n; i++)
				stp_kprobe_unregister_one(&stp_kp[i]);
			stp_kp_closed = true;	/* the notifier leaves them alone */
		}
	}
	mutex_unlock(&stp_kp_mutex);
	return rc;
}

/* Module @mod has loaded (@coming) or is unloading: its points. */
static void stp_kprobes_module(struct module *mod, bool coming)
{
	unsigned int i;

	mutex_lock(&stp_kp_mutex);
	for (i = 0; stp_kp && !stp_kp_closed && i < stp_kp_n; i++) {
		struct stp_kprobe_state *s = &stp_kp[stp_kp_n - 1 - i];	/* as start */
		size_t len;
		const char *m = stp_kprobe_module(s->d, &len);
		int rc;

		if (!m || strlen(mod->name) != len || strncmp(m, mod->name, len))
			continue;
		if (coming && s->waiting) {
			rc = stp_kprobe_register_one(s);
			s->waiting = rc != 0;
			if (rc)
				stp_warn("probe %s registration error (rc %d)", s->d->probe->pp, rc);
		} else if (!coming && s->registered) {
			stp_kprobe_unregister_one(s);
			s->waiting = true;
		}
	}
	mutex_unlock(&stp_kp_mutex);
}

static void stp_kprobes_stop(void)
{
	unsigned int i;

	mutex_lock(&stp_kp_mutex);
	stp_kp_closed = true;
	for (i = 0; stp_kp && i < stp_kp_n; i++)
		stp_kprobe_unregister_one(&stp_kp[i]);
	mutex_unlock(&stp_kp_mutex);
}

/* After unregistering: missed hits, as warnings. */
static void stp_kprobes_report(void)
{
	struct stp_kprobe_state *v;
	unsigned int i;

	mutex_lock(&stp_kp_mutex);
	v = stp_kp;
	stp_kp = NULL;
	mutex_unlock(&stp_kp_mutex);
	if (!v)
		return;
	for (i = 0; i < stp_kp_n; i++)
		if (v[i].missed)
			stp_warn("Missed %lu hits of probe %s", v[i].missed, v[i].d->probe->pp);
	vfree(v);
}

static const struct stp_family stp_kprobe_family = {
	.name = "kprobe",
	.start = stp_kprobes_start,
	.stop = stp_kprobes_stop,
	.report = stp_kprobes_report,
	.module = stp_kprobes_module,
};
