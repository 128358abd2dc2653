// SPDX-License-Identifier: GPL-2.0-or-later
/* uprobe.c: process(...).function/statement probes and their .return
 * (uretprobes): one uprobe consumer per point on the file's inode at the
 * point's offset in the file, for every process that maps it. Everything
 * is registered or nothing; at the end every consumer is unregistered
 * (whether the programs still run or not) and the handlers have finished
 * before stop() returns. The handlers run in the probed task, with its
 * user registers: CONTEXT->user_mode says so, and the body reads user
 * memory through the fault-safe user accessors. An SDT marker with a
 * semaphore (process(...).mark) passes the semaphore's offset in the file
 * as the uprobe's reference counter: the kernel raises it in every
 * process that maps the file while the consumer is registered (and in
 * those that map it later), and lowers it at unregistration, so programs
 * that test PROVIDER_NAME_ENABLED() run their markers only then. */
#include <linux/uprobes.h>

/* A point, in the generated table stp_uprobes[]. */
struct stp_uprobe_probe {
	const struct stp_probe *probe;
	const char *path;		/* the file, as this machine names it */
	u64 offset;			/* of the probed instruction in it */
	u64 ref_ctr_offset;		/* of an SDT marker's semaphore, raised
					 * while the probe is attached; 0: none */
	bool ret;			/* a uretprobe */
	bool optional;			/* a ? point: failure is a warning */
	/* .return: the values the body reads at the function's entry, taken
	 * by an entry uprobe at capture_offset (past the prologue) into a
	 * frame of stp_uframes, found again at the return by the thread and
	 * the frame address (cfa(regs) at the capture: the stack pointer
	 * once the function has returned); nslots 0 without any */
	u64 capture_offset;
	void (*entry)(struct pt_regs *regs, u64 *slots);
	unsigned int nslots;
	const struct stp_probe *entry_probe;	/* @entry(EXPR): a body run at entry */
	u64 (*cfa)(struct pt_regs *regs);
};

struct stp_uprobe_state {
	struct uprobe_consumer uc;
	struct uprobe_consumer uce;	/* the capture of values at entry */
	const struct stp_uprobe_probe *d;
	struct path path;		/* held while held is set */
	struct inode *inode;
#ifdef STAPCONF_UPROBE_UNREGISTER_NOSYNC
	struct uprobe *up, *upe;
#endif
	bool registered, entry_registered;
	bool held;			/* path */
	atomic_t no_entry;		/* returns whose entry was not seen */
};

static struct stp_uprobe_state *stp_up;
static unsigned int stp_up_n;

/* ---- values at entry of .return points ----
 * A preallocated pool of frames, each the values one call captured at
 * entry, hashed by thread. A thread's live calls have strictly decreasing
 * frame addresses, so a new entry at frame address A ends any frame of
 * the same thread at A or below (a call left by longjmp or an exception
 * never returns through its uretprobe). When the pool is empty the oldest
 * frame not in use is taken. */
#ifndef STP_UPROBE_FRAMES
#define STP_UPROBE_FRAMES 512		/* calls with values at entry at once */
#endif
#define STP_UF_BUCKETS 64

struct stp_uframe {
	struct hlist_node node;		/* in a bucket, or free */
	pid_t tid;
	unsigned int point;		/* index in stp_up */
	u64 cfa;
	u64 seq;			/* age */
	bool busy;			/* being filled, or read by a return */
	u64 slots[];
};

static struct {
	char *pool;
	size_t stride;
	struct hlist_head buckets[STP_UF_BUCKETS];
	struct hlist_head free;
	raw_spinlock_t lock;
	u64 seq;
} stp_uf;

static struct stp_uframe *stp_uframe_at(unsigned int i)
{
	return (struct stp_uframe *)(stp_uf.pool + i * stp_uf.stride);
}

static void stp_uframe_free_locked(struct stp_uframe *f)
{
	hlist_del(&f->node);
	hlist_add_head(&f->node, &stp_uf.free);
}

/* A frame for @point's call in the current thread at frame address @cfa,
 * busy (the caller fills it and releases it), or NULL. */
static struct stp_uframe *stp_uframe_new(unsigned int point, u64 cfa)
{
	struct hlist_head *b = &stp_uf.buckets[current->pid % STP_UF_BUCKETS];
	struct stp_uframe *f, *oldest = NULL;
	struct hlist_node *tmp;
	unsigned long flags;
	unsigned int i;

	raw_spin_lock_irqsave(&stp_uf.lock, flags);
	hlist_for_each_entry_safe(f, tmp, b, node)
		if (f->tid == current->pid && f->cfa <= cfa && !f->busy)
			stp_uframe_free_locked(f);	/* a call that did not return */
	if (hlist_empty(&stp_uf.free)) {
		for (i = 0; i < STP_UPROBE_FRAMES; i++) {
			f = stp_uframe_at(i);
			if (!f->busy && (!oldest || f->seq < oldest->seq))
				oldest = f;
		}
		if (oldest)
			stp_uframe_free_locked(oldest);
	}
	f = NULL;
	if (!hlist_empty(&stp_uf.free)) {
		f = hlist_entry(stp_uf.free.first, struct stp_uframe, node);
		hlist_del(&f->node);
		f->tid = current->pid;
		f->point = point;
		f->cfa = cfa;
		f->seq = ++stp_uf.seq;
		f->busy = true;
		hlist_add_head(&f->node, b);
	}
	raw_spin_unlock_irqrestore(&stp_uf.lock, flags);
	return f;
}

/* The frame of @point's call in the current thread at frame address
 * @cfa, busy, or NULL. */
static struct stp_uframe *stp_uframe_find(unsigned int point, u64 cfa)
{
	struct stp_uframe *f, *found = NULL;
	unsigned long flags;

	raw_spin_lock_irqsave(&stp_uf.lock, flags);
	hlist_for_each_entry(f, &stp_uf.buckets[current->pid % STP_UF_BUCKETS], node)
		if (f->tid == current->pid && f->point == point && f->cfa == cfa && !f->busy) {
			found = f;
			found->busy = true;
			break;
		}
	raw_spin_unlock_irqrestore(&stp_uf.lock, flags);
	return found;
}

/* Done with @f: keep it for its return (@keep), or free it. */
static void stp_uframe_release(struct stp_uframe *f, bool keep)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&stp_uf.lock, flags);
	f->busy = false;
	if (!keep)
		stp_uframe_free_locked(f);
	raw_spin_unlock_irqrestore(&stp_uf.lock, flags);
}

static int stp_uframes_alloc(const struct stp_uprobe_probe *v, unsigned int n)
{
	unsigned int i, nslots = 0;

	for (i = 0; i < n; i++)
		if (v[i].cfa && v[i].nslots > nslots)
			nslots = v[i].nslots;
	raw_spin_lock_init(&stp_uf.lock);
	INIT_HLIST_HEAD(&stp_uf.free);
	for (i = 0; i < STP_UF_BUCKETS; i++)
		INIT_HLIST_HEAD(&stp_uf.buckets[i]);
	if (!nslots)
		return 0;
	stp_uf.stride = ALIGN(sizeof(struct stp_uframe) + nslots * sizeof(u64), 8);
	stp_uf.pool = stp_vzalloc(stp_uf.stride * STP_UPROBE_FRAMES);
	if (!stp_uf.pool)
		return -ENOMEM;
	for (i = 0; i < STP_UPROBE_FRAMES; i++)
		hlist_add_head(&stp_uframe_at(i)->node, &stp_uf.free);
	return 0;
}

/* Under -c/-x the points fire only in the target process and its
 * descendants, as the reference does (stapprobes(3stap): "process probes
 * are restricted to the process hierarchy associated with the target
 * process"): the current task's ancestors are walked up to init. A
 * descendant the target's exit left to init (or to a subreaper) is no
 * longer seen as one. */
#define STP_UPROBE_TREE_DEPTH 64	/* ancestors looked at */

static noinline bool stp_uprobe_target_ancestor(struct task_struct *t)
{
	bool found = false;
	int depth;

	rcu_read_lock();
	for (depth = 0; depth < STP_UPROBE_TREE_DEPTH && t->pid > 1; depth++) {
		t = rcu_dereference(t->real_parent);
		if (t->tgid == _stp_target) {
			found = true;
			break;
		}
	}
	rcu_read_unlock();
	return found;
}

/* (inline: without -c/-x a hit pays one test) */
static __always_inline bool stp_uprobe_in_target_tree(void)
{
	if (likely(!_stp_target) || current->tgid == _stp_target)
		return true;
	return stp_uprobe_target_ancestor(current);
}

/* Run @s's body for a hit at @addr (the probed instruction, or for a
 * return the function's address) with the task's user registers. The
 * handlers may be preempted: the CPU's context is claimed with
 * preemption off, as in the kernel's own probe handlers. */
static void stp_uprobe_run(struct stp_uprobe_state *s, struct pt_regs *regs,
			   unsigned long addr, bool ret, u64 *entry_data)
{
	struct stp_context *c;

	if (!stp_running())
		return;
	preempt_disable();
	c = stp_enter(s->d->probe, MAXACTION_INTERRUPTIBLE);
	if (c) {
		c->regs = regs;
		c->user_mode = true;
		c->is_return = ret;
		c->probe_addr = addr;
		c->entry_data = entry_data;
		stp_run_body(c, s->d->probe);
		stp_leave(c);
	}
	preempt_enable();
}

/* A .return point's entry: capture its values into a new frame (inside
 * the CPU's context, like a probe body: the captures may use its scratch
 * buffer); when the context is busy or no frame is left, the call's
 * return is skipped. */
static int stp_uprobe_capture(struct uprobe_consumer *uc, struct pt_regs *regs)
{
	struct stp_uprobe_state *s = container_of(uc, struct stp_uprobe_state, uce);
	const struct stp_uprobe_probe *d = s->d;
	struct stp_uframe *f;
	struct stp_context *c;

	if (!stp_running() || !stp_uprobe_in_target_tree())
		return 0;
	f = stp_uframe_new((unsigned int)(s - stp_up), d->cfa(regs));
	if (!f)
		return 0;
	memset(f->slots, 0, d->nslots * sizeof(u64));
	preempt_disable();
	c = stp_enter(d->entry_probe ? d->entry_probe : d->probe, MAXACTION_INTERRUPTIBLE);
	if (c) {
		if (d->entry)
			d->entry(regs, f->slots);
		if (d->entry_probe) {
			c->regs = regs;
			c->user_mode = true;
			c->probe_addr = instruction_pointer(regs);
			c->entry_data = f->slots;
			stp_run_body(c, d->entry_probe);
		}
		stp_leave(c);
	}
	preempt_enable();
	stp_uframe_release(f, c != NULL);
	return 0;
}

static int stp_uprobe_handler(struct uprobe_consumer *uc, struct pt_regs *regs)
{
	struct stp_uprobe_state *s = container_of(uc, struct stp_uprobe_state, uc);

	if (!stp_uprobe_in_target_tree())
		return 0;
	/* the kernel has set the ip back to the breakpoint's address */
	stp_uprobe_run(s, regs, instruction_pointer(regs), false, NULL);
	return 0;
}

static int stp_uretprobe_handler(struct uprobe_consumer *uc, unsigned long func,
				 struct pt_regs *regs)
{
	struct stp_uprobe_state *s = container_of(uc, struct stp_uprobe_state, uc);
	struct stp_uframe *f;

	if (!stp_uprobe_in_target_tree())
		return 0;
	if (!s->d->cfa) {
		stp_uprobe_run(s, regs, func, true, NULL);
		return 0;
	}
	/* the ret has popped the return address: sp is the frame address */
	f = stp_running() ? stp_uframe_find((unsigned int)(s - stp_up),
					    (u64)user_stack_pointer(regs)) : NULL;
	if (!f) {
		if (stp_running())
			atomic_inc(&s->no_entry);
		return 0;
	}
	stp_uprobe_run(s, regs, func, true, f->slots);
	stp_uframe_release(f, false);
	return 0;
}

static void stp_uprobe_unregister_one(struct stp_uprobe_state *s)
{
	if (s->entry_registered) {
#ifdef STAPCONF_UPROBE_UNREGISTER_NOSYNC
		uprobe_unregister_nosync(s->upe, &s->uce);	/* synced by the caller */
		s->upe = NULL;
#else
		uprobe_unregister(s->inode, s->d->capture_offset, &s->uce);
#endif
		s->entry_registered = false;
	}
	if (!s->registered)
		return;
#ifdef STAPCONF_UPROBE_UNREGISTER_NOSYNC
	uprobe_unregister_nosync(s->up, &s->uc);	/* synced by the caller */
	s->up = NULL;
#else
	uprobe_unregister(s->inode, s->d->offset, &s->uc);
#endif
	s->registered = false;
}

/* The entry uprobe of .return point @s that captures its values. */
static int stp_uprobe_register_capture(struct stp_uprobe_state *s)
{
	memset(&s->uce, 0, sizeof(s->uce));
	s->uce.handler = stp_uprobe_capture;
#ifdef STAPCONF_UPROBE_UNREGISTER_NOSYNC
	s->upe = STP_FAULT_ERR_PTR("uprobe registration",
				   uprobe_register(s->inode, (loff_t)s->d->capture_offset, 0, &s->uce));
	if (IS_ERR(s->upe)) {
		int rc = (int)PTR_ERR(s->upe);

		s->upe = NULL;
		return rc;
	}
#else
	{
		int rc = STP_FAULT_RC("uprobe registration",
				      uprobe_register(s->inode, (loff_t)s->d->capture_offset, &s->uce));

		if (rc)
			return rc;
	}
#endif
	s->entry_registered = true;
	return 0;
}

/* The file of @s's point, and the uprobe on it. 0 or -errno. */
static int stp_uprobe_register_one(struct stp_uprobe_state *s)
{
	int rc = kern_path(s->d->path, LOOKUP_FOLLOW, &s->path);

	if (rc)
		return rc;
	s->inode = d_real_inode(s->path.dentry);
	if (!s->inode || !S_ISREG(s->inode->i_mode)) {
		rc = -EINVAL;
		goto fail;
	}
	memset(&s->uc, 0, sizeof(s->uc));
	if (s->d->ret)
		s->uc.ret_handler = stp_uretprobe_handler;
	else
		s->uc.handler = stp_uprobe_handler;
#ifdef STAPCONF_UPROBE_UNREGISTER_NOSYNC
	s->up = STP_FAULT_ERR_PTR("uprobe registration",
				  uprobe_register(s->inode, (loff_t)s->d->offset,
						  (loff_t)s->d->ref_ctr_offset, &s->uc));
	if (IS_ERR(s->up)) {
		rc = (int)PTR_ERR(s->up);
		s->up = NULL;
		goto fail;
	}
#elif defined(STAPCONF_UPROBE_REGISTER_REFCTR)
	rc = STP_FAULT_RC("uprobe registration",
			  uprobe_register_refctr(s->inode, (loff_t)s->d->offset,
						 (loff_t)s->d->ref_ctr_offset, &s->uc));
	if (rc)
		goto fail;
#else
	if (s->d->ref_ctr_offset) {
		rc = -EOPNOTSUPP;	/* no semaphores: the marker would not fire */
		goto fail;
	}
	rc = STP_FAULT_RC("uprobe registration",
			  uprobe_register(s->inode, (loff_t)s->d->offset, &s->uc));
	if (rc)
		goto fail;
#endif
	s->registered = true;
	s->held = true;
	if (s->d->cfa) {
		/* the values at entry are taken before the first return */
		rc = stp_uprobe_register_capture(s);
		if (rc)
			return rc;	/* unregistered with the rest */
	}
	return 0;
fail:
	path_put(&s->path);
	s->inode = NULL;
	return rc;
}

/* Unregister every registered consumer, wait for their handlers, and
 * drop the files. */
static void stp_uprobes_unregister_all(void)
{
	unsigned int i;
	bool any = false;

	for (i = 0; stp_up && i < stp_up_n; i++) {
		any |= stp_up[i].registered || stp_up[i].entry_registered;
		stp_uprobe_unregister_one(&stp_up[i]);
	}
#ifdef STAPCONF_UPROBE_UNREGISTER_NOSYNC
	if (any)
		uprobe_unregister_sync();
#endif
	for (i = 0; stp_up && i < stp_up_n; i++) {
		if (stp_up[i].held) {
			path_put(&stp_up[i].path);
			stp_up[i].inode = NULL;
			stp_up[i].held = false;
		}
	}
}

static int stp_uprobes_start(const void *table, unsigned int n)
{
	const struct stp_uprobe_probe *v = table;
	unsigned int i;
	int rc = 0;

	stp_up_n = n;
	stp_up = stp_vzalloc(sizeof(*stp_up) * n);
	if (!stp_up)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		stp_up[i].d = &v[i];
	rc = stp_uframes_alloc(v, n);
	for (i = 0; i < n && !rc; i++) {
		struct stp_uprobe_state *s = &stp_up[i];

		rc = stp_uprobe_register_one(s);
		rc = stp_registered(s->d->probe, s->d->optional, rc,
				    rc == -ENOENT ? ": no such file" :
				    rc == -EOPNOTSUPP ? ": this kernel has no SDT semaphores "
				    "(uprobe reference counters)" : "");
	}
	if (rc)
		stp_uprobes_unregister_all();
	return rc;
}

static void stp_uprobes_stop(void)
{
	stp_uprobes_unregister_all();
}

/* After unregistering: the returns skipped for want of their entry. */
static void stp_uprobes_report(void)
{
	unsigned int i;

	for (i = 0; stp_up && i < stp_up_n; i++) {
		int k = atomic_read(&stp_up[i].no_entry);

		if (k)
			stp_warn("Skipped %d returns of probe %s whose entry was not seen "
				 "(more calls at once than STP_UPROBE_FRAMES=%d, or entered "
				 "before the session started)", k, stp_up[i].d->probe->pp,
				 STP_UPROBE_FRAMES);
	}
}

static void stp_uprobes_release(void)
{
	vfree(stp_up);
	stp_up = NULL;
	vfree(stp_uf.pool);
	stp_uf.pool = NULL;
}

static const struct stp_family stp_uprobe_family = {
	.name = "uprobe",
	.start = stp_uprobes_start,
	.stop = stp_uprobes_stop,
	.report = stp_uprobes_report,
	.release = stp_uprobes_release,
};
