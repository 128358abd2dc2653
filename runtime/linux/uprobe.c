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
};

struct stp_uprobe_state {
	struct uprobe_consumer uc;
	const struct stp_uprobe_probe *d;
	struct path path;		/* held while held is set */
	struct inode *inode;
#ifdef STAPCONF_UPROBE_UNREGISTER_NOSYNC
	struct uprobe *up;
#endif
	bool registered;
	bool held;			/* path */
};

static struct stp_uprobe_state *stp_up;
static unsigned int stp_up_n;

/* Run @s's body for a hit at @addr (the probed instruction, or for a
 * return the function's address) with the task's user registers. The
 * handlers may be preempted: the CPU's context is claimed with
 * preemption off, as in the kernel's own probe handlers. */
static void stp_uprobe_run(struct stp_uprobe_state *s, struct pt_regs *regs,
			   unsigned long addr, bool ret)
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
		stp_run_body(c, s->d->probe);
		stp_leave(c);
	}
	preempt_enable();
}

static int stp_uprobe_handler(struct uprobe_consumer *uc, struct pt_regs *regs)
{
	struct stp_uprobe_state *s = container_of(uc, struct stp_uprobe_state, uc);

	/* the kernel has set the ip back to the breakpoint's address */
	stp_uprobe_run(s, regs, instruction_pointer(regs), false);
	return 0;
}

static int stp_uretprobe_handler(struct uprobe_consumer *uc, unsigned long func,
				 struct pt_regs *regs)
{
	struct stp_uprobe_state *s = container_of(uc, struct stp_uprobe_state, uc);

	stp_uprobe_run(s, regs, func, true);
	return 0;
}

static void stp_uprobe_unregister_one(struct stp_uprobe_state *s)
{
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
	s->up = uprobe_register(s->inode, (loff_t)s->d->offset,
				(loff_t)s->d->ref_ctr_offset, &s->uc);
	if (IS_ERR(s->up)) {
		rc = (int)PTR_ERR(s->up);
		s->up = NULL;
		goto fail;
	}
#elif defined(STAPCONF_UPROBE_REGISTER_REFCTR)
	rc = uprobe_register_refctr(s->inode, (loff_t)s->d->offset,
				    (loff_t)s->d->ref_ctr_offset, &s->uc);
	if (rc)
		goto fail;
#else
	if (s->d->ref_ctr_offset) {
		rc = -EOPNOTSUPP;	/* no semaphores: the marker would not fire */
		goto fail;
	}
	rc = uprobe_register(s->inode, (loff_t)s->d->offset, &s->uc);
	if (rc)
		goto fail;
#endif
	s->registered = true;
	s->held = true;
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
		any |= stp_up[i].registered;
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
	stp_up = vzalloc(sizeof(*stp_up) * n);
	if (!stp_up)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		stp_up[i].d = &v[i];
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

static void stp_uprobes_release(void)
{
	vfree(stp_up);
	stp_up = NULL;
}

static const struct stp_family stp_uprobe_family = {
	.name = "uprobe",
	.start = stp_uprobes_start,
	.stop = stp_uprobes_stop,
	.release = stp_uprobes_release,
};
