// SPDX-License-Identifier: GPL-2.0-or-later
/* kprobe.c: kprobe.function/.call/.return/.statement probes and the
 * kernel's and modules' DWARF points (doc/batch-registration.md).
 *
 * Kernel function entries at an ftrace call site are armed together
 * through one ftrace_ops: one filter update and one code patch for all of
 * them, and one unregistration (one grace period) at the end; its handler
 * finds the probes of a hit's address in a hash table built at start. The
 * other points (statements, +offsets, functions without an ftrace call,
 * module functions, .return) are kprobes and kretprobes, registered one by
 * one (register_kprobes() is that same loop, but rolls the whole batch
 * back on one failure) and unregistered in two batches (one grace period
 * each). A ? point that fails is skipped with a warning, and so is a
 * failing point of a wildcard (counted; the count is reported); any other
 * failure unregisters everything and ends the session. A point in a module
 * that is not loaded waits for it: the module notifier (kmod.c) registers
 * it when the module loads and unregisters it when the module unloads, as
 * often as that happens. At the end each probe's missed hits are reported. */

#if defined(STAPCONF_FTRACE_OPS_REGS) && !defined(STP_NO_FTRACE)
#define STP_KP_FTRACE 1
#if defined(STAPCONF_FPROBE_IPS) && !defined(STP_NO_FPROBE)
#define STP_KP_FPROBE 1
#include <linux/fprobe.h>
#endif
#endif

/* A point, in the generated table stp_kprobes[]. */
struct stp_kprobe_probe {
	unsigned int probe;		/* its handler: stp_module.probes[probe]
					 * (an index: no relocation a point) */
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
	long fsite;			/* a kernel function entry at an ftrace
					 * call site: the site's address less
					 * &jiffies's (KASLR moves both); 0: none */
	long kaddr;			/* a kernel point from DWARF: its address
					 * less &jiffies's, registered by address;
					 * 0: by symbol */
	bool wildcard;			/* one of a wildcard's points: failure is
					 * a warning */
	bool module_init;		/* in its module's init text */
};

struct stp_kprobe_state {
	struct kprobe kp;
	struct kretprobe krp;
	const struct stp_kprobe_probe *d;
	const struct stp_probe *probe;	/* its handler: stp_module.probes[d->probe] */
	bool registered;
	bool ftrace;			/* in a batch: stp_fops, stp_fp (armed
					 * once registered is set too) */
	bool tried;			/* its kprobe registration was tried */
	bool deferred;			/* registered disabled: armed after the
					 * ftrace batch (stp_kprobes_enable) */
	unsigned int fslot;		/* stp_fp: its slots in the entry data */
	bool waiting;			/* for its module to load */
	unsigned long missed;		/* by earlier registrations */
	atomic_long_t hmissed;		/* hits not run: inside another kprobe
					 * handler, or ftrace recursion */
};

/* The states; registering and unregistering under stp_kp_mutex (the
 * session's start and end, and the module notifier). */
static struct stp_kprobe_state *stp_kp;
static unsigned int stp_kp_n;
static DEFINE_MUTEX(stp_kp_mutex);
static bool stp_kp_closed;		/* the session's end: no more */
static void **stp_kp_batch;		/* room for stp_kp_n pointers: the
					 * unregistration batches */

/* A handler of this family runs on this CPU: a hit of another of its
 * points meanwhile (from a function the handler calls, or from an
 * interrupt) is missed, as kprobes miss a kprobe hit inside a kprobe
 * handler. Read and written with preemption off. */
static DEFINE_PER_CPU(int, stp_kp_active);

/* Run @s's body for a hit with registers @regs at @addr. */
static void stp_kprobe_run(struct stp_kprobe_state *s, struct pt_regs *regs,
			   unsigned long addr)
{
	struct stp_context *c;

	if (__this_cpu_read(stp_kp_active)) {
		atomic_long_inc(&s->hmissed);
		return;
	}
	c = stp_enter(s->probe, MAXACTION_INTERRUPTIBLE);
	if (!c)
		return;
	__this_cpu_write(stp_kp_active, 1);
	c->regs = regs;
	c->probe_addr = addr;
	stp_run_body(c, s->probe);
	stp_leave(c);
	__this_cpu_write(stp_kp_active, 0);
}

static int stp_kprobe_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct stp_kprobe_state *s = container_of(kp, struct stp_kprobe_state, kp);

	if (stp_running())
		stp_kprobe_run(s, regs, (unsigned long)kp->addr);
	return 0;
}

/* Run return probe @s's body for a return with registers @regs from the
 * function at @addr, with the values captured at its entry in @slots. */
static void stp_kret_run(struct stp_kprobe_state *s, struct pt_regs *regs,
			 unsigned long addr, u64 *slots)
{
	struct stp_context *c;

	if (__this_cpu_read(stp_kp_active)) {
		atomic_long_inc(&s->hmissed);
		return;
	}
	c = stp_enter(s->probe, MAXACTION_INTERRUPTIBLE);
	if (!c)
		return;
	__this_cpu_write(stp_kp_active, 1);
	c->regs = regs;
	c->is_return = true;
	c->entry_data = slots;
	c->probe_addr = addr;
	stp_run_body(c, s->probe);
	stp_leave(c);
	__this_cpu_write(stp_kp_active, 0);
}

static int stp_kretprobe_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kretprobe *krp = get_kretprobe(ri);

	if (krp && stp_running())
		stp_kret_run(container_of(krp, struct stp_kprobe_state, krp), regs,
			     (unsigned long)krp->kp.addr, (u64 *)ri->data);
	return 0;
}

/* A .return probe's entry: capture the values its body reads at entry
 * into @slots (zeroed first). Inside the CPU's context like a probe body
 * (the captures may use its scratch buffer); when that is busy, the hit
 * is skipped, counted, and the return not run for it: nonzero. */
static int stp_kret_entry(struct stp_kprobe_state *s, struct pt_regs *regs, u64 *slots)
{
	struct stp_context *c;

	memset(slots, 0, s->d->nslots * sizeof(u64));
	if (!stp_running())
		return 1;
	if (__this_cpu_read(stp_kp_active)) {
		atomic_long_inc(&s->hmissed);
		return 1;
	}
	c = stp_enter(s->d->entry_probe ? s->d->entry_probe : s->probe,
		      MAXACTION_INTERRUPTIBLE);
	if (!c)
		return 1;
	__this_cpu_write(stp_kp_active, 1);
	if (s->d->entry)
		s->d->entry(regs, slots);
	if (s->d->entry_probe) {
		c->regs = regs;
		c->entry_data = slots;
		stp_run_body(c, s->d->entry_probe);
	}
	stp_leave(c);
	__this_cpu_write(stp_kp_active, 0);
	return 0;
}

static int stp_kretprobe_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kretprobe *krp = get_kretprobe(ri);

	if (!krp)
		return 1;
	return stp_kret_entry(container_of(krp, struct stp_kprobe_state, krp), regs,
			      (u64 *)ri->data);
}

#ifdef STP_KP_FTRACE
/* The points armed in one batch at ftrace call sites: an open-addressing
 * hash table (at most half full) from a call site's address to the states
 * of its points, idx[first..first + n), in script order. One for the
 * entries (stp_fops), one for the .return points (stp_fp). */
struct stp_fsite {
	unsigned long addr;		/* 0: a free slot */
	unsigned int first, n;
};

struct stp_ftab {
	struct stp_fsite *hash;
	unsigned int bits;
	unsigned int *idx;
};

static struct stp_ftab stp_fent_tab;
static bool stp_fops_on;		/* stp_fops is registered */
static bool stp_fops_filtered;		/* its filter is set */
static int stp_fops_k;			/* the points in stp_fent_tab */
/* Many sites are armed and disarmed a chunk at a time: the kernel patches
 * the sites of one filter update in one go without rescheduling, and with
 * tens of thousands of sites (each hit running a handler as soon as it is
 * patched, in a slow guest) one go outlasts the soft-lockup watchdog. */
#define STP_FOPS_CHUNK 512
static unsigned long *stp_fops_sites;	/* the armed sites, sorted, when
					 * more than one chunk; else NULL */
static unsigned int stp_fops_nsites;

static const struct stp_fsite *stp_fsite_find(const struct stp_ftab *t, unsigned long addr)
{
	unsigned int mask = (1U << t->bits) - 1;
	unsigned int h = (unsigned int)hash_long(addr, t->bits), i;

	for (i = 0; t->hash && i <= mask; i++) {
		const struct stp_fsite *f = &t->hash[(h + i) & mask];

		if (f->addr == addr)
			return f;
		if (!f->addr)
			return NULL;
	}
	return NULL;
}

static void stp_fsite_missed(const struct stp_ftab *t, const struct stp_fsite *f)
{
	unsigned int i;

	for (i = 0; f && i < f->n; i++)
		atomic_long_inc(&stp_kp[t->idx[f->first + i]].hmissed);
}

/* A hit of one of the entries: the call to __fentry__ at @ip, in the
 * function called from @parent_ip. The handlers see what a kprobe's see:
 * the registers with the instruction pointer just past the probed address
 * (@ip + 1, as after a kprobe's int3; put back before returning, or ftrace
 * would resume there), and @ip as the probe's address. */
static void notrace stp_ftrace_hit(unsigned long ip, unsigned long parent_ip,
				   struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct pt_regs *regs = ftrace_get_regs(fregs);
	const struct stp_fsite *f;
	unsigned long orig_ip;
	unsigned int i;
	int bit;

	bit = ftrace_test_recursion_trylock(ip, parent_ip);
	if (bit < 0) {
		/* a function this handler calls, in the same context */
		if (stp_running())
			stp_fsite_missed(&stp_fent_tab, stp_fsite_find(&stp_fent_tab, ip));
		return;
	}
	/* preemption is off from here to the unlock */
	f = stp_fsite_find(&stp_fent_tab, ip);
	if (!f || !regs || !stp_running())
		goto out;
	/* inside a handler of ours (stp_kp_active): stp_kprobe_run counts
	 * each point's miss */
	orig_ip = instruction_pointer(regs);
	instruction_pointer_set(regs, ip + 1);
	for (i = 0; i < f->n; i++)
		stp_kprobe_run(&stp_kp[stp_fent_tab.idx[f->first + i]], regs, ip);
	instruction_pointer_set(regs, orig_ip);
out:
	ftrace_test_recursion_unlock(bit);
}

static struct ftrace_ops stp_fops = {
	.func = stp_ftrace_hit,
	.flags = FTRACE_OPS_FL_SAVE_REGS,
};

/* A point's call site at run time, and its index. */
struct stp_fent {
	unsigned long addr;
	unsigned int idx;
};

static int stp_fent_cmp(const void *a, const void *b)
{
	const struct stp_fent *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Add the @n sites @v to @ops's filter, all at once; where the kernel
 * refuses the set (a site without an ftrace record: the debuginfo is not
 * the running kernel's, or init text freed), halve it to find the sites
 * at fault and mark them in @bad (their points become kprobes). Each try
 * copies the filter: a few refusals cost a few copies. Depth: log2(n). */
static void stp_fops_add(struct ftrace_ops *ops, unsigned long *v, bool *bad, unsigned int n)
{
	if (!n || !STP_FAULT_RC("ftrace filter", ftrace_set_filter_ips(ops, v, n, 0, 0)))
		return;
	if (n == 1) {
		*bad = true;
		return;
	}
	stp_fops_add(ops, v, bad, n / 2);
	stp_fops_add(ops, v + n / 2, bad + n / 2, n - n / 2);
}

/* The batch of the points at ftrace call sites that are .return points
 * (@ret) or entries: their sites sorted (*@e, *@n entries; *@addrs, *@u
 * distinct sites) and *@bad, all false. 0 (*@n 0: none), or -ENOMEM. */
static int stp_fbatch(bool ret, struct stp_fent **e, unsigned int *n, unsigned long **addrs,
		      unsigned int *u, bool **bad)
{
	unsigned int i, k;

	*e = NULL;
	*addrs = NULL;
	*bad = NULL;
	*u = 0;
	for (i = 0, *n = 0; i < stp_kp_n; i++)
		*n += stp_kp[i].d->fsite && stp_kp[i].d->ret == ret;
	if (!*n)
		return 0;
	*e = stp_vmalloc(sizeof(**e) * *n);
	*addrs = stp_vmalloc(sizeof(**addrs) * *n);
	*bad = stp_vzalloc(sizeof(**bad) * *n);
	if (!*e || !*addrs || !*bad)
		return -ENOMEM;
	for (i = 0, k = 0; i < stp_kp_n; i++)
		if (stp_kp[i].d->fsite && stp_kp[i].d->ret == ret)
			(*e)[k++] = (struct stp_fent){
				(unsigned long)&jiffies + (unsigned long)stp_kp[i].d->fsite, i };
	sort(*e, *n, sizeof(**e), stp_fent_cmp, NULL);
	for (i = 0; i < *n; i++)
		if (!i || (*e)[i].addr != (*e)[i - 1].addr)
			(*addrs)[(*u)++] = (*e)[i].addr;
	return 0;
}

static void stp_fbatch_free(struct stp_fent *e, unsigned long *addrs, bool *bad)
{
	vfree(e);
	vfree(addrs);
	vfree(bad);
}

/* Build @t from the @n sorted points @e whose @u distinct sites are not
 * marked in @bad. The number of points in it, or -ENOMEM. */
static int stp_ftab_build(struct stp_ftab *t, const struct stp_fent *e, unsigned int n,
			  const bool *bad, unsigned int u)
{
	unsigned int i, k, mask;

	for (t->bits = 1; (1U << t->bits) < 2 * u; t->bits++)
		;
	t->hash = stp_vzalloc(sizeof(*t->hash) << t->bits);
	t->idx = stp_vmalloc(sizeof(*t->idx) * n);
	if (!t->hash || !t->idx)
		return -ENOMEM;
	mask = (1U << t->bits) - 1;
	for (i = 0, k = 0, u = 0; i < n; i++) {
		struct stp_fsite *f;
		unsigned int h;

		if (i && e[i].addr != e[i - 1].addr)
			u++;
		if (bad[u])
			continue;
		h = (unsigned int)hash_long(e[i].addr, t->bits);
		while (t->hash[h].addr && t->hash[h].addr != e[i].addr)
			h = (h + 1) & mask;
		f = &t->hash[h];
		if (!f->addr) {
			f->addr = e[i].addr;
			f->first = k;
		}
		f->n++;
		t->idx[k++] = e[i].idx;
	}
	return (int)k;
}

static void stp_ftab_free(struct stp_ftab *t)
{
	vfree(t->hash);
	t->hash = NULL;
	vfree(t->idx);
	t->idx = NULL;
}

/* Mark the @k points of @t armed in one batch. */
static void stp_ftab_armed(const struct stp_ftab *t, unsigned int k)
{
	unsigned int i;

	for (i = 0; i < k; i++) {
		stp_kp[t->idx[i]].ftrace = true;
		stp_kp[t->idx[i]].registered = true;
	}
}

/* Set up the batch of function entries at ftrace call sites: stp_fops's
 * filter and the table of its points, which are marked as its own; the
 * sites the kernel refuses stay kprobes. Nothing is armed yet: the
 * kprobes are registered before stp_fops is (stp_fops_enable), so that
 * they are not registered with thousands of functions traced (each
 * registration then runs through all of them). 0, or -ENOMEM. */
static int stp_fops_prepare(void)
{
	struct stp_fent *e;
	unsigned long *addrs;
	bool *bad;
	unsigned int n, u, i;
	int rc, k;

	rc = stp_fbatch(false, &e, &n, &addrs, &u, &bad);
	if (rc || !n)
		goto out;
	stp_fops_add(&stp_fops, addrs, bad, u);
	stp_fops_filtered = true;
	k = stp_ftab_build(&stp_fent_tab, e, n, bad, u);
	if (k < 0) {
		rc = k;
		goto out;
	}
	stp_fops_k = k;
	for (i = 0; i < (unsigned int)k; i++)
		stp_kp[stp_fent_tab.idx[i]].ftrace = true;
	/* the sites the kernel took; more than a chunk: the filter keeps
	 * the first chunk, stp_fops_enable adds the others back (the
	 * filter is not freed and set anew: ftrace_free_filter leaves the
	 * ops pointing at the freed hashes, on 6.1 at least) */
	for (i = 0, n = 0; i < u; i++)
		if (!bad[i])
			addrs[n++] = addrs[i];
	if (n > STP_FOPS_CHUNK) {
		rc = ftrace_set_filter_ips(&stp_fops, addrs + STP_FOPS_CHUNK,
					   n - STP_FOPS_CHUNK, 1, 0);
		stp_fops_sites = addrs;
		stp_fops_nsites = n;
		addrs = NULL;
	}
out:
	stp_fbatch_free(e, addrs, bad);
	return rc;
}

/* Arm the batch stp_fops_prepare set up. When the kernel refuses it, its
 * points are kprobes again (ftrace false, not tried): the caller
 * registers them. */
static void stp_fops_enable(void)
{
	unsigned int i;
	int rc;

	if (!stp_fops_k)
		return;
	rc = STP_FAULT_RC("ftrace registration", register_ftrace_function(&stp_fops));
	for (i = STP_FOPS_CHUNK; !rc && i < stp_fops_nsites; i += STP_FOPS_CHUNK) {
		unsigned int c = min_t(unsigned int, STP_FOPS_CHUNK, stp_fops_nsites - i);

		cond_resched();
		STP_TIMING("kprobes: ftrace batch, %u of %u sites armed", i, stp_fops_nsites);
		rc = ftrace_set_filter_ips(&stp_fops, stp_fops_sites + i, c, 0, 0);
		if (rc)
			unregister_ftrace_function(&stp_fops);
	}
	if (!rc) {
		stp_fops_on = true;
		stp_ftab_armed(&stp_fent_tab, (unsigned int)stp_fops_k);
		return;
	}
	stp_warn("cannot arm %d function entries through ftrace (%d): using kprobes",
		 stp_fops_k, rc);
	for (i = 0; i < (unsigned int)stp_fops_k; i++)
		stp_kp[stp_fent_tab.idx[i]].ftrace = false;
	stp_fops_k = 0;
	ftrace_free_filter(&stp_fops);
	stp_fops_filtered = false;
}

static void stp_fops_stop(void)
{
	unsigned int i;

	STP_TIMING("kprobes: disarming the ftrace batch");
	if (stp_fops_on) {
		/* all but the first chunk a chunk at a time (an empty filter
		 * would trace every function), then the rest */
		for (i = STP_FOPS_CHUNK; i < stp_fops_nsites; i += STP_FOPS_CHUNK) {
			unsigned int c = min_t(unsigned int, STP_FOPS_CHUNK,
					       stp_fops_nsites - i);

			ftrace_set_filter_ips(&stp_fops, stp_fops_sites + i, c, 1, 0);
			cond_resched();
		}
		unregister_ftrace_function(&stp_fops);
		stp_fops_on = false;
		STP_TIMING("kprobes: ftrace batch disarmed");
	}
	vfree(stp_fops_sites);
	stp_fops_sites = NULL;
	stp_fops_nsites = 0;
	if (stp_fops_filtered) {
		ftrace_free_filter(&stp_fops);
		stp_fops_filtered = false;
	}
	stp_fops_k = 0;
}
#endif

#ifdef STP_KP_FPROBE
/* The .return points at ftrace call sites, armed through one fprobe: its
 * entry handler runs each point's entry captures, its exit handler (on the
 * kernel's rethook, as kretprobes) their bodies. Per hit, the fprobe's
 * entry data holds a mask of the points whose entry ran (bit i: the
 * site's i-th point, at most STP_FP_MAX a site) and their slots, the i-th
 * point's at word 1 + its fslot. */
#define STP_FP_MAX 64

static struct stp_ftab stp_fret_tab;
static bool stp_fp_on;			/* stp_fp is registered */
static unsigned long stp_fp_missed;	/* its nmissed when unregistered */

/* The entry of a function with .return points. As at an entry point, the
 * instruction pointer is @ip + 1 while the captures run. */
static int notrace stp_fprobe_entry(struct fprobe *fp, unsigned long ip, unsigned long ret_ip,
				    struct pt_regs *regs, void *data)
{
	const struct stp_fsite *f = stp_fsite_find(&stp_fret_tab, ip);
	u64 *w = data, mask = 0;
	unsigned long orig_ip;
	unsigned int i;

	if (!f || !regs || !w || !stp_running())
		return 1;
	if (__this_cpu_read(stp_kp_active)) {
		stp_fsite_missed(&stp_fret_tab, f);
		return 1;
	}
	orig_ip = instruction_pointer(regs);
	instruction_pointer_set(regs, ip + 1);
	for (i = 0; i < f->n; i++) {
		struct stp_kprobe_state *s = &stp_kp[stp_fret_tab.idx[f->first + i]];

		if (!s->d->nslots || !stp_kret_entry(s, regs, w + 1 + s->fslot))
			mask |= 1ULL << i;
	}
	instruction_pointer_set(regs, orig_ip);
	w[0] = mask;
	return mask ? 0 : 1;	/* 1: no return hook */
}

/* The return: the bodies whose entry ran, last point first (as the
 * instances of kretprobes on one function, a stack, return). */
static void notrace stp_fprobe_exit(struct fprobe *fp, unsigned long ip, unsigned long ret_ip,
				    struct pt_regs *regs, void *data)
{
	const struct stp_fsite *f = stp_fsite_find(&stp_fret_tab, ip);
	u64 *w = data;
	unsigned int i;

	if (!f || !regs || !w || !stp_running())
		return;
	for (i = f->n; i-- > 0;) {
		struct stp_kprobe_state *s = &stp_kp[stp_fret_tab.idx[f->first + i]];

		if (w[0] & (1ULL << i))
			stp_kret_run(s, regs, ip, w + 1 + s->fslot);
	}
}

static struct fprobe stp_fp = {
	.entry_handler = stp_fprobe_entry,
	.exit_handler = stp_fprobe_exit,
};

/* A scratch ftrace_ops: which sites the kernel refuses (stp_fops_add). */
static void notrace stp_fcheck_hit(unsigned long ip, unsigned long parent_ip,
				   struct ftrace_ops *op, struct ftrace_regs *fregs)
{
}

static struct ftrace_ops stp_fcheck = {
	.func = stp_fcheck_hit,
	.flags = FTRACE_OPS_FL_SAVE_REGS,
};

/* A hit of a .return point costs more through the fprobe than through
 * a kretprobe (6.12, bench/probe-overhead --dwarf --nobatch: 790 against
 * 627 instructions; a lookup by address at the entry and at the return,
 * and the fprobe's own path), while arming many is much faster through
 * it: up to this many .return points at ftrace sites stay kretprobes. */
#define STP_FP_MIN 32

/* Arm the .return points at ftrace call sites through stp_fp; those it
 * cannot take stay kretprobes. 0, or -ENOMEM. */
static int stp_fprobe_start(void)
{
	struct stp_fent *e;
	unsigned long *addrs;
	unsigned int n, u, i, j, words = 0, nsites = 0;
	unsigned long active = 0;
	bool *bad, tried = false;
	int rc, k;

	rc = stp_fbatch(true, &e, &n, &addrs, &u, &bad);
	if (rc || n <= STP_FP_MIN)
		goto out;
	/* a site's points: at most STP_FP_MAX; their slots, its maxactive
	 * (the largest of its points', or a kretprobe's default) */
	for (i = 0, j = 0; i < u; i++) {
		unsigned int cnt = 0, sl = 0;
		int ma = 0;

		for (; j < n && e[j].addr == addrs[i]; j++) {
			const struct stp_kprobe_probe *d = stp_kp[e[j].idx].d;

			stp_kp[e[j].idx].fslot = sl;
			sl += d->nslots;
			ma = max(ma, d->maxactive);
			cnt++;
		}
		if (cnt > STP_FP_MAX) {
			bad[i] = true;
			continue;
		}
		words = max(words, 1 + sl);
		active += ma > 0 ? (unsigned long)ma : max(10U, 2 * num_possible_cpus());
		nsites++;
	}
	if (!nsites)
		goto out;
again:
	k = stp_ftab_build(&stp_fret_tab, e, n, bad, u);
	if (k < 0) {
		rc = k;
		goto out;
	}
	for (i = 0, j = 0; i < u; i++)
		if (!bad[i])
			addrs[j++] = addrs[i];
	stp_fp.entry_data_size = words * sizeof(u64);
	stp_fp.nr_maxactive = (int)min(active, (unsigned long)INT_MAX);
	rc = k ? STP_FAULT_RC("fprobe registration", register_fprobe_ips(&stp_fp, addrs, (int)j)) : 0;
	if (rc && !tried) {
		/* find the sites the kernel refuses, try once more without */
		bool *b2 = stp_vzalloc(sizeof(*b2) * j);

		tried = true;
		stp_ftab_free(&stp_fret_tab);
		if (b2) {
			stp_fops_add(&stp_fcheck, addrs, b2, j);
			ftrace_free_filter(&stp_fcheck);
			/* addrs[] is the sites not in bad[], in order */
			for (i = 0, j = 0; i < u; i++)
				if (!bad[i])
					bad[i] = b2[j++];
			vfree(b2);
			stp_fbatch_free(NULL, addrs, NULL);
			addrs = stp_vmalloc(sizeof(*addrs) * u);
			if (!addrs) {
				rc = -ENOMEM;
				goto out;
			}
			for (i = 0, j = 0; i < n; i++)
				if (!i || e[i].addr != e[i - 1].addr)
					addrs[j++] = e[i].addr;
			goto again;
		}
	}
	if (rc) {
		stp_warn("cannot arm %d .return points through fprobe (%d): using kretprobes",
			 k, rc);
		stp_ftab_free(&stp_fret_tab);
		rc = 0;
		goto out;
	}
	if (k) {
		stp_fp_on = true;
		stp_ftab_armed(&stp_fret_tab, (unsigned int)k);
	}
out:
	stp_fbatch_free(e, addrs, bad);
	return rc;
}

/* Disarm it: after this no handler of stp_fp runs. unregister_fprobe()
 * stops the rethook (returns still pending call no handler) and waits
 * for the ftrace handlers; the grace period waits for exit handlers that
 * started before (they run with preemption off). */
static void stp_fprobe_stop(void)
{
	if (!stp_fp_on)
		return;
	unregister_fprobe(&stp_fp);
	synchronize_rcu();
	stp_fp_missed += stp_fp.nmissed;
	stp_fp_on = false;
}
#endif

/* Set up the batches of points at ftrace call sites; the fprobe of
 * .return points is armed here already. 0, or -ENOMEM. */
static int stp_fbatches_start(void)
{
	int rc = 0;

#ifdef STP_KP_FTRACE
	rc = stp_fops_prepare();
#endif
#ifdef STP_KP_FPROBE
	if (!rc)
		rc = stp_fprobe_start();
#endif
	return rc;
}

/* Arm the batch of function entries, once the kprobes are registered. */
static void stp_fbatches_enable(void)
{
#ifdef STP_KP_FTRACE
	stp_fops_enable();
#endif
}

/* Disarm them all: after this no handler of theirs runs (ftrace waits
 * for the tasks that might be in one). */
static void stp_fbatches_stop(void)
{
	unsigned int i;

#ifdef STP_KP_FTRACE
	stp_fops_stop();
#endif
#ifdef STP_KP_FPROBE
	stp_fprobe_stop();
#endif
	for (i = 0; stp_kp && i < stp_kp_n; i++) {
		if (stp_kp[i].ftrace) {
			stp_kp[i].ftrace = false;
			stp_kp[i].registered = false;
		}
	/* (those of a batch never armed were not registered) */
	}
}

static void stp_fbatches_free(void)
{
#ifdef STP_KP_FTRACE
	stp_ftab_free(&stp_fent_tab);
#endif
#ifdef STP_KP_FPROBE
	stp_ftab_free(&stp_fret_tab);
	if (stp_fp_missed)
		stp_warn("Missed %lu hits of the .return probes armed through fprobe",
			 stp_fp_missed);
	stp_fp_missed = 0;
#endif
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

/* Registering many kprobes: the kernel's optimizer (which turns a kprobe's
 * int3 into a jump) wakes 5 jiffies after a registration and holds the
 * kprobe mutex over an RCU-tasks grace period, so it stalls the next
 * registrations again and again (191 kprobes: 18 s instead of 5 in a TCG
 * guest). A kprobe with a post_handler is never optimized: with more
 * than STP_KP_OPT_MAX to register, the kernel's points not at an ftrace
 * site (never ftrace-based kprobes, whose arming depends on the
 * post_handler) get this empty one while they are registered, and lose
 * it once all are: their hits take the int3 path (boosted: one trap), as
 * they would with the optimizer off.
 *
 * With an ftrace batch to arm as well, those kprobes are registered
 * disabled and armed once the batch is: the kernel's own ftrace code is
 * not traced, so its functions are kprobe points of a wildcard like
 * kernel.function("*"), and armed int3s there make every ftrace update
 * (which walks all of ftrace's records) trap thousands of times (the
 * whole kernel: 5,247 such kprobes, and the batch's first update had not
 * ended after 14 minutes in a TCG guest; disabled, nothing traps). */
#define STP_KP_OPT_MAX 32

/* An ftrace batch is still to be armed: register kprobes disabled (above). */
static bool stp_kp_defer(void)
{
#ifdef STP_KP_FTRACE
	return stp_fops_k > 0 && !stp_fops_on;
#else
	return false;
#endif
}

static void stp_kprobe_post_nop(struct kprobe *p, struct pt_regs *regs, unsigned long flags)
{
}

/* @s may be registered unoptimised (above). */
static bool stp_kprobe_unoptimizable(const struct stp_kprobe_state *s)
{
	return s->d->kaddr && !s->d->fsite && !s->d->ret && !s->ftrace && !s->tried;
}

/* Register @s's point afresh (the kernel wants clean structures);
 * @unopt: not to be optimised (above). */
static int stp_kprobe_register_one(struct stp_kprobe_state *s, bool unopt)
{
	const struct stp_kprobe_probe *d = s->d;
	struct kprobe *kp = d->ret ? &s->krp.kp : &s->kp;
	int rc;

	memset(&s->kp, 0, sizeof(s->kp));
	memset(&s->krp, 0, sizeof(s->krp));
	if (d->kaddr) {
		/* no symbol lookup: on 6.1 kallsyms_lookup_name() expands
		 * every kernel symbol in turn (25 ms a point in a TCG guest);
		 * the kernel still checks the address (an instruction of a
		 * function, not in a blacklisted range) */
		kp->addr = (kprobe_opcode_t *)((unsigned long)&jiffies + d->kaddr);
	} else if (d->symbol) {
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
		rc = STP_FAULT_RC("kretprobe registration", register_kretprobe(&s->krp));
	} else {
		s->kp.pre_handler = stp_kprobe_pre;
		if (unopt)
			s->kp.post_handler = stp_kprobe_post_nop;
		s->deferred = unopt && stp_kp_defer();
		if (s->deferred)
			s->kp.flags = KPROBE_FLAG_DISABLED;
		rc = STP_FAULT_RC("kprobe registration", register_kprobe(&s->kp));
	}
	s->registered = rc == 0;
	return rc;
}

/* What unregistering leaves: the kernel's count of missed hits. */
static void stp_kprobe_unregistered(struct stp_kprobe_state *s)
{
	if (s->d->ret)
		s->missed += s->krp.nmissed + s->krp.kp.nmissed;
	else
		s->missed += s->kp.nmissed;
	s->registered = false;
}

static void stp_kprobe_unregister_one(struct stp_kprobe_state *s)
{
	if (!s->registered || s->ftrace)
		return;
	if (s->d->ret)
		unregister_kretprobe(&s->krp);
	else
		unregister_kprobe(&s->kp);
	stp_kprobe_unregistered(s);
}

/* Unregister every registered kprobe, then every kretprobe, each kind in
 * one batch: one grace period each, not one per probe. */
static void stp_kprobes_unregister_all(void)
{
	unsigned int i, n;

	for (n = 0, i = 0; i < stp_kp_n; i++)
		if (stp_kp[i].registered && !stp_kp[i].ftrace && !stp_kp[i].d->ret)
			stp_kp_batch[n++] = &stp_kp[i].kp;
	if (n)
		unregister_kprobes((struct kprobe **)stp_kp_batch, (int)n);
	for (n = 0, i = 0; i < stp_kp_n; i++)
		if (stp_kp[i].registered && !stp_kp[i].ftrace && stp_kp[i].d->ret)
			stp_kp_batch[n++] = &stp_kp[i].krp;
	if (n)
		unregister_kretprobes((struct kretprobe **)stp_kp_batch, (int)n);
	for (i = 0; i < stp_kp_n; i++)
		if (stp_kp[i].registered && !stp_kp[i].ftrace)
			stp_kprobe_unregistered(&stp_kp[i]);
}

/* The outcome of registering (or arming) @s with result @rc: a failing
 * point of a wildcard is a warning counted in *@failed; 0 or the error
 * that ends the session. */
static int stp_kprobe_outcome(struct stp_kprobe_state *s, int rc, unsigned int *failed)
{
	if (rc && s->d->wildcard && !s->d->optional) {
		stp_warn("probe %s registration error (rc %d)", s->probe->pp, rc);
		(*failed)++;
		rc = 0;
	}
	return stp_registered(s->probe, s->d->optional, rc, "");
}

/* All in: the hits need no post_handler (the kernel reads it at each
 * hit; the kprobe stays unoptimised). */
static void stp_kprobes_post_clear(void)
{
	unsigned int i;

	for (i = 0; i < stp_kp_n; i++)
		if (!stp_kp[i].d->ret && stp_kp[i].kp.post_handler)
			WRITE_ONCE(stp_kp[i].kp.post_handler, NULL);
}

/* Register each point that is not in a batch and was not tried yet, last
 * to first: the kernel puts a kprobe that shares its address with
 * registered ones at the head of their list, so the handlers then run in
 * the script's order, and the .return handlers of one function in the
 * reverse order (their instances are a stack), as the reference's do
 * (runok vfs_values: vfs.read and vfs.do_sync_read on vfs_read). A failing
 * point of a wildcard is a warning counted in *@failed; 0 or the error
 * that ends the session. */
static int stp_kprobes_register_all(unsigned int *failed)
{
	unsigned int i, n = stp_kp_n, nunopt = 0;
	bool unopt;
	size_t len;
	int rc = 0;

	for (i = 0; i < n; i++)
		nunopt += stp_kprobe_unoptimizable(&stp_kp[i]);
	for (i = 0; !rc && i < n; i++) {
		struct stp_kprobe_state *s = &stp_kp[n - 1 - i];
		const char *mod = stp_kprobe_module(s->d, &len);

		if (s->ftrace || s->tried)
			continue;
		unopt = nunopt > STP_KP_OPT_MAX && stp_kprobe_unoptimizable(s);
		s->tried = true;
		rc = stp_kprobe_register_one(s, unopt);
		/* its module is not loaded: wait for it; it was still being
		 * set up when kprobes looked: once more. A loaded module's
		 * init text is gone (and its symbols): wait for its next
		 * load too, as the reference does */
		if (rc == -ENOENT && mod &&
		    (!stp_kmod_is_loaded(mod, len) || s->d->module_init)) {
			s->waiting = true;
			rc = 0;
			continue;
		}
		if (rc == -ENOENT && mod)
			rc = stp_kprobe_register_one(s, false);
		rc = stp_kprobe_outcome(s, rc, failed);
	}
	if (nunopt > STP_KP_OPT_MAX && !stp_kp_defer())
		stp_kprobes_post_clear();
	return rc;
}

/* Arm the kprobes registered disabled (stp_kp_defer), then clear the
 * post_handlers: 0, or the error that ends the session. */
static int stp_kprobes_enable(unsigned int *failed)
{
	unsigned int i;
	int rc = 0;

	for (i = 0; !rc && i < stp_kp_n; i++) {
		struct stp_kprobe_state *s = &stp_kp[stp_kp_n - 1 - i];

		if (!s->deferred || !s->registered)
			continue;
		s->deferred = false;
		rc = STP_FAULT_RC("kprobe arming", enable_kprobe(&s->kp));
		if (!rc)
			continue;
		unregister_kprobe(&s->kp);
		stp_kprobe_unregistered(s);
		rc = stp_kprobe_outcome(s, rc, failed);
	}
	stp_kprobes_post_clear();
	return rc;
}

static int stp_kprobes_start(const void *table, unsigned int n)
{
	const struct stp_kprobe_probe *v = table;
	unsigned int i, failed = 0;
	int rc = 0;

	mutex_lock(&stp_kp_mutex);
	stp_kp_n = n;
	stp_kp = stp_vzalloc(sizeof(*stp_kp) * n);
	stp_kp_batch = stp_vmalloc(sizeof(*stp_kp_batch) * n);
	if (!stp_kp || !stp_kp_batch)
		rc = -ENOMEM;
	for (i = 0; !rc && i < n; i++) {
		stp_kp[i].d = &v[i];
		stp_kp[i].probe = &stp_module.probes[v[i].probe];
	}
	STP_TIMING("kprobes: tables of %u points", n);
	if (!rc)
		rc = stp_fbatches_start();
	STP_TIMING("kprobes: ftrace batch prepared");
	if (rc)
		stp_ctl_printf("ERROR: cannot allocate the kprobes' tables (%d)", rc);
	if (!rc)
		rc = stp_kprobes_register_all(&failed);
	STP_TIMING("kprobes: kprobes registered");
	if (!rc) {
		stp_fbatches_enable();
		STP_TIMING("kprobes: ftrace batch armed");
		rc = stp_kprobes_enable(&failed);
		STP_TIMING("kprobes: kprobes armed");
		/* the entries of a batch the kernel refused, as kprobes */
		if (!rc)
			rc = stp_kprobes_register_all(&failed);
	}
	if (failed)
		stp_warn("%u probe point%s of wildcards could not be registered", failed,
			 failed == 1 ? "" : "s");
	if (rc) {
		/* kprobes first (stp_kprobes_stop) */
		if (stp_kp && stp_kp_batch)
			stp_kprobes_unregister_all();
		stp_fbatches_stop();
		stp_kp_closed = true;	/* the notifier leaves them alone */
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
			rc = stp_kprobe_register_one(s, false);
			s->waiting = rc != 0;
			if (rc)
				stp_warn("probe %s registration error (rc %d)", s->probe->pp, rc);
		} else if (!coming && s->registered) {
			stp_kprobe_unregister_one(s);
			s->waiting = true;
		}
	}
	mutex_unlock(&stp_kp_mutex);
}

static void stp_kprobes_stop(void)
{
	mutex_lock(&stp_kp_mutex);
	stp_kp_closed = true;
	/* the kprobes first: an int3 in the kernel's ftrace code (a point of
	 * kernel.function("*")) traps at every record the batch's disarming
	 * walks (stp_kp_defer) */
	if (stp_kp && stp_kp_batch)
		stp_kprobes_unregister_all();
	STP_TIMING("kprobes: kprobes unregistered");
	stp_fbatches_stop();
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
	stp_fbatches_free();
	vfree(stp_kp_batch);
	stp_kp_batch = NULL;
	mutex_unlock(&stp_kp_mutex);
	if (!v)
		return;
	for (i = 0; i < stp_kp_n; i++) {
		unsigned long m = v[i].missed + (unsigned long)atomic_long_read(&v[i].hmissed);

		if (m)
			stp_warn("Missed %lu hits of probe %s", m, v[i].probe->pp);
	}
	vfree(v);
}

static const struct stp_family stp_kprobe_family = {
	.name = "kprobe",
	.start = stp_kprobes_start,
	.stop = stp_kprobes_stop,
	.report = stp_kprobes_report,
	.module = stp_kprobes_module,
};
