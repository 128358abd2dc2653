// SPDX-License-Identifier: GPL-2.0-or-later
/* proclife.c: process lifecycle probes, process[(PATH|PID)].begin, .end,
 * .thread.begin and .thread.end, on the scheduler's tracepoints:
 *
 *   sched_process_fork  a new process (begin) or thread (thread.begin);
 *                       the current task is the parent, the child has not
 *                       run yet
 *   sched_process_exec  the process's old image ends (end) and its new one
 *                       begins (begin), in the exec'ing task
 *   sched_process_exit  a thread ends (thread.end), or the last thread of
 *                       its process (end), in the exiting task
 *
 * and, for begin, one hit for each user process that already runs when the
 * session starts (a walk of the task list at start, in process context);
 * .syscall and .syscall.return on the raw_syscalls tracepoints (sys_enter,
 * sys_exit) of the processes the point names, with the call's number, its
 * registers and its return value in CONTEXT->sc_args (64-bit calls only).
 *
 * The handlers run as the new or existing process: when it is not the
 * current task (fork: the parent runs the tracepoint; the walk at start:
 * staprun runs it), CONTEXT->task names it, and the tapset's task
 * functions (pid(), tid(), ppid(), execname(), uid(), task_current() ...)
 * read it rather than current (stp_task()). This keeps the handlers where
 * the events happen, with nothing queued to the child and nothing to
 * allocate or cancel; its limit is user memory, which remains the current
 * task's (at fork the parent's, which the child's is a copy of).
 *
 * PATH points: a process matches when its executable is the file's inode.
 * The executable is gone when the exit tracepoint runs (after exit_mm), and
 * at exec only the new one is known, so the processes that match some PATH
 * are tracked in a table preallocated at start (a bit per PATH, taken at
 * start, at fork from the parent and at exec from the new file), as are,
 * with -c/-x, the target and its descendants, to which the points without
 * PATH or PID are then restricted (stapprobes(3stap)). A process the full
 * table cannot hold is not tracked, and counted. Kernel threads never match.
 */
#include <linux/binfmts.h>
#include <linux/compat.h>
#include <asm/syscall.h>
#include <linux/namei.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>

#include "linux/tp_lookup.h"

#ifndef STP_MAXPROCS
#define STP_MAXPROCS 4096		/* processes tracked at once */
#endif
#define STP_PL_PATHS 31			/* distinct PATHs (bits 1..31) */
#define STP_PL_BUCKETS 256
#define STP_PL_WALK_MAX (1 << 22)	/* tasks walked at start */
#define STP_PL_TARGET 1u		/* the -c/-x target or a descendant */

enum stp_pl_kind {
	STP_PL_BEGIN, STP_PL_END, STP_PL_THREAD_BEGIN, STP_PL_THREAD_END,
	STP_PL_SYSCALL, STP_PL_SYSCALL_RETURN, STP_PL_KINDS
};

/* A point, in the generated table stp_proclife_points[]. */
struct stp_proclife_probe {
	const struct stp_probe *probe;
	enum stp_pl_kind kind;
	const char *path;		/* NULL: any program */
	s64 pid;			/* 0: any process */
	bool optional;
};

struct stp_pl_proc {
	struct hlist_node node;
	pid_t tgid;
	u32 mask;			/* STP_PL_TARGET, PATH bits */
};

static struct {
	const struct stp_proclife_probe *v;
	unsigned int n;
	u32 *bit;			/* each point's PATH bit, or 0 */
	struct path paths[STP_PL_PATHS];
	struct inode *inodes[STP_PL_PATHS];
	unsigned int npaths;
	bool track;			/* the table is in use */
	bool any_kind[STP_PL_KINDS];
	struct stp_pl_proc *pool;
	struct hlist_head buckets[STP_PL_BUCKETS];
	struct hlist_head free;
	raw_spinlock_t lock;
	atomic_t untracked;
	struct tracepoint *tp_fork, *tp_exec, *tp_exit, *tp_enter, *tp_sysexit;
	bool on_fork, on_exec, on_exit, on_enter, on_sysexit;
} stp_pl;

/* Argument @i (0..5) of the system call of a .syscall[.return] probe:
 * the x86-64 calling convention's registers, at the call's entry. */
static inline s64 stp_pl_sc_arg(struct stp_context *c, int i)
{
	const struct pt_regs *r = c->sc_args ? (const struct pt_regs *)(unsigned long)c->sc_args[0]
					     : NULL;

	if (!r)
		return 0;
	switch (i) {
	case 0: return (s64)r->di;
	case 1: return (s64)r->si;
	case 2: return (s64)r->dx;
	case 3: return (s64)r->r10;
	case 4: return (s64)r->r8;
	default: return (s64)r->r9;
	}
}

/* ---- the table of tracked processes ---- */

static struct stp_pl_proc *stp_pl_find(pid_t tgid)
{
	struct stp_pl_proc *p;

	hlist_for_each_entry(p, &stp_pl.buckets[tgid % STP_PL_BUCKETS], node)
		if (p->tgid == tgid)
			return p;
	return NULL;
}

static u32 stp_pl_mask(pid_t tgid)
{
	struct stp_pl_proc *p;
	unsigned long flags;
	u32 m;

	if (!stp_pl.track)
		return 0;
	raw_spin_lock_irqsave(&stp_pl.lock, flags);
	p = stp_pl_find(tgid);
	m = p ? p->mask : 0;
	raw_spin_unlock_irqrestore(&stp_pl.lock, flags);
	return m;
}

/* Track @tgid with @mask (0: forget it). */
static void stp_pl_set(pid_t tgid, u32 mask)
{
	struct stp_pl_proc *p;
	unsigned long flags;

	if (!stp_pl.track)
		return;
	raw_spin_lock_irqsave(&stp_pl.lock, flags);
	p = stp_pl_find(tgid);
	if (!mask) {
		if (p) {
			hlist_del(&p->node);
			hlist_add_head(&p->node, &stp_pl.free);
		}
	} else if (p) {
		p->mask = mask;
	} else if (!hlist_empty(&stp_pl.free)) {
		p = hlist_entry(stp_pl.free.first, struct stp_pl_proc, node);
		hlist_del(&p->node);
		p->tgid = tgid;
		p->mask = mask;
		hlist_add_head(&p->node, &stp_pl.buckets[tgid % STP_PL_BUCKETS]);
	} else {
		atomic_inc(&stp_pl.untracked);
	}
	raw_spin_unlock_irqrestore(&stp_pl.lock, flags);
}

/* The PATH bits of executable @f (may be NULL). */
static u32 stp_pl_file_mask(struct file *f)
{
	struct inode *ino;
	unsigned int i;
	u32 m = 0;

	if (!f)
		return 0;
	ino = file_inode(f);
	for (i = 0; i < stp_pl.npaths; i++)
		if (stp_pl.inodes[i] == ino)
			m |= 1u << (i + 1);
	return m;
}

/* The PATH bits of @t's executable; @t is current, a child that has not
 * run yet, or a task held under RCU (the walk): task_lock keeps its mm. */
static u32 stp_pl_task_mask(struct task_struct *t)
{
	u32 m = 0;

	if (!stp_pl.npaths)
		return 0;
	task_lock(t);
	if (t->mm) {
		rcu_read_lock();
		m = stp_pl_file_mask(rcu_dereference(t->mm->exe_file));
		rcu_read_unlock();
	}
	task_unlock(t);
	return m;
}

/* ---- firing ---- */

/* Run the points of @kind for process @tgid (tracked as @mask) with @t as
 * the task their body sees (NULL: current); @sc: a system call's { user
 * registers, number, return value }, or NULL. */
static void stp_pl_fire_sc(enum stp_pl_kind kind, struct task_struct *t, pid_t tgid, u32 mask,
			   u64 *sc)
{
	unsigned int i;

	if (!stp_running() || !stp_pl.any_kind[kind])
		return;
	preempt_disable();
	for (i = 0; i < stp_pl.n; i++) {
		const struct stp_proclife_probe *d = &stp_pl.v[i];
		struct stp_context *c;

		if (d->kind != kind)
			continue;
		if (d->pid ? d->pid != tgid :
		    stp_pl.bit[i] ? !(mask & stp_pl.bit[i]) :
		    _stp_target && !(mask & STP_PL_TARGET))
			continue;
		c = stp_enter(d->probe, MAXACTION_INTERRUPTIBLE);
		if (!c)
			continue;
		c->task = t;
		if (sc) {
			c->sc_args = sc;
			c->regs = (struct pt_regs *)(unsigned long)sc[0];
			c->user_mode = true;
		}
		stp_run_body(c, d->probe);
		stp_leave(c);
	}
	preempt_enable();
}

static void stp_pl_fire(enum stp_pl_kind kind, struct task_struct *t, pid_t tgid, u32 mask)
{
	stp_pl_fire_sc(kind, t, tgid, mask, NULL);
}

/* A system call of the current task, at its entry or its return. */
static void stp_pl_syscall(enum stp_pl_kind kind, struct pt_regs *regs, long nr, long ret)
{
	u64 sc[3] = { (u64)(unsigned long)regs, (u64)nr, (u64)ret };

	if (!stp_running() || (current->flags & PF_KTHREAD) || in_compat_syscall())
		return;
	stp_pl_fire_sc(kind, NULL, current->tgid, stp_pl_mask(current->tgid), sc);
}

static void stp_pl_sys_enter(void *data, struct pt_regs *regs, long id)
{
	stp_pl_syscall(STP_PL_SYSCALL, regs, id, 0);
}

static void stp_pl_sys_exit(void *data, struct pt_regs *regs, long ret)
{
	stp_pl_syscall(STP_PL_SYSCALL_RETURN, regs, syscall_get_nr(current, regs), ret);
}

static void stp_pl_fork(void *data, struct task_struct *parent, struct task_struct *child)
{
	u32 mask;

	if (child->flags & PF_KTHREAD)
		return;
	mask = stp_pl_mask(parent->tgid);
	if (child->pid != child->tgid) {		/* a new thread */
		stp_pl_fire(STP_PL_THREAD_BEGIN, child, child->tgid, mask);
		return;
	}
	/* the child runs the parent's program */
	stp_pl_set(child->tgid, mask);
	stp_pl_fire(STP_PL_BEGIN, child, child->tgid, mask);
}

static void stp_pl_exec(void *data, struct task_struct *p, pid_t old_pid,
			struct linux_binprm *bprm)
{
	u32 old, mask;

	if (p->flags & PF_KTHREAD)
		return;
	old = stp_pl_mask(p->tgid);
	stp_pl_fire(STP_PL_END, NULL, p->tgid, old);
	mask = (old & STP_PL_TARGET) | stp_pl_file_mask(bprm->file);
	stp_pl_set(p->tgid, mask);
	stp_pl_fire(STP_PL_BEGIN, NULL, p->tgid, mask);
}

static void stp_pl_exit(void *data, struct task_struct *p)
{
	u32 mask;

	if (p->flags & PF_KTHREAD)
		return;
	mask = stp_pl_mask(p->tgid);
	/* do_exit() has counted this thread out of its process */
	if (atomic_read(&p->signal->live)) {
		stp_pl_fire(STP_PL_THREAD_END, NULL, p->tgid, mask);
		return;
	}
	stp_pl_fire(STP_PL_END, NULL, p->tgid, mask);
	stp_pl_set(p->tgid, 0);
}

/* Track and report each user process running now (begin), staprun's
 * context, once the session runs (the family's started hook); a process
 * forked after the fork tracepoint was attached is tracked by it too. */
static void stp_pl_walk(void)
{
	struct task_struct *t;
	unsigned int count = 0;

	rcu_read_lock();
	for_each_process(t) {
		u32 mask;

		if (++count > STP_PL_WALK_MAX)
			break;
		if ((t->flags & PF_KTHREAD) || (t->flags & PF_EXITING))
			continue;
		mask = stp_pl_task_mask(t);
		if (_stp_target && t->tgid == _stp_target)
			mask |= STP_PL_TARGET;
		if (mask)
			stp_pl_set(t->tgid, mask);
		stp_pl_fire(STP_PL_BEGIN, t, t->tgid, mask);
	}
	rcu_read_unlock();
}

/* ---- start and stop ---- */

/* The PATH bit of point @d: its file is opened once for all its points. */
static int stp_pl_path(const struct stp_proclife_probe *d, u32 *bit)
{
	unsigned int i;
	int rc;

	*bit = 0;
	if (!d->path)
		return 0;
	for (i = 0; i < stp_pl.n && &stp_pl.v[i] != d; i++)
		if (stp_pl.v[i].path && !strcmp(stp_pl.v[i].path, d->path)) {
			*bit = stp_pl.bit[i];
			return 0;
		}
	if (stp_pl.npaths >= STP_PL_PATHS)
		return -E2BIG;
	rc = kern_path(d->path, LOOKUP_FOLLOW, &stp_pl.paths[stp_pl.npaths]);
	if (rc)
		return rc;
	stp_pl.inodes[stp_pl.npaths] = d_inode(stp_pl.paths[stp_pl.npaths].dentry);
	*bit = 1u << (stp_pl.npaths + 1);
	stp_pl.npaths++;
	return 0;
}

static int stp_pl_attach(struct tracepoint *tp, void *fn, bool *on)
{
	int rc = tp ? STP_FAULT_RC("tracepoint registration", tracepoint_probe_register(tp, fn, NULL)) :
		     -ENOENT;

	*on = rc == 0;
	return rc;
}

static void stp_proclife_stop(void);

static int stp_proclife_start(const void *table, unsigned int n)
{
	unsigned int i;
	int rc = 0;

	stp_pl.v = table;
	stp_pl.n = n;
	raw_spin_lock_init(&stp_pl.lock);
	atomic_set(&stp_pl.untracked, 0);
	stp_pl.bit = stp_vzalloc(sizeof(*stp_pl.bit) * n);
	if (!stp_pl.bit)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		const struct stp_proclife_probe *d = &stp_pl.v[i];

		rc = stp_pl_path(d, &stp_pl.bit[i]);
		rc = stp_registered(d->probe, d->optional, rc,
				    rc == -ENOENT ? ": no such file" :
				    rc == -E2BIG ? ": too many programs" : "");
		if (rc)
			goto fail;
		stp_pl.any_kind[d->kind] = true;
		stp_pl.track |= stp_pl.bit[i] != 0;
	}
	stp_pl.track |= _stp_target != 0;
	INIT_HLIST_HEAD(&stp_pl.free);
	for (i = 0; i < STP_PL_BUCKETS; i++)
		INIT_HLIST_HEAD(&stp_pl.buckets[i]);
	if (stp_pl.track) {
		stp_pl.pool = stp_vzalloc(sizeof(*stp_pl.pool) * STP_MAXPROCS);
		if (!stp_pl.pool) {
			rc = -ENOMEM;
			goto fail;
		}
		for (i = 0; i < STP_MAXPROCS; i++)
			hlist_add_head(&stp_pl.pool[i].node, &stp_pl.free);
	}
	stp_tp_lookup((const struct stp_tp_want[]){
		{ "sched_process_fork", &stp_pl.tp_fork },
		{ "sched_process_exec", &stp_pl.tp_exec },
		{ "sched_process_exit", &stp_pl.tp_exit },
		{ "sys_enter", &stp_pl.tp_enter },
		{ "sys_exit", &stp_pl.tp_sysexit } }, 5);
	rc = stp_pl_attach(stp_pl.tp_fork, (void *)stp_pl_fork, &stp_pl.on_fork);
	if (!rc)
		rc = stp_pl_attach(stp_pl.tp_exec, (void *)stp_pl_exec, &stp_pl.on_exec);
	if (!rc)
		rc = stp_pl_attach(stp_pl.tp_exit, (void *)stp_pl_exit, &stp_pl.on_exit);
	if (rc) {
		stp_ctl_printf("ERROR: cannot register the sched_process_* tracepoints (%d)", rc);
		goto fail;
	}
	if (stp_pl.any_kind[STP_PL_SYSCALL])
		rc = stp_pl_attach(stp_pl.tp_enter, (void *)stp_pl_sys_enter, &stp_pl.on_enter);
	if (!rc && stp_pl.any_kind[STP_PL_SYSCALL_RETURN])
		rc = stp_pl_attach(stp_pl.tp_sysexit, (void *)stp_pl_sys_exit, &stp_pl.on_sysexit);
	if (rc) {
		stp_ctl_printf("ERROR: cannot register the raw_syscalls tracepoints (%d)", rc);
		goto fail;
	}
	return 0;
fail:
	stp_proclife_stop();
	return rc;
}

static void stp_proclife_stop(void)
{
	unsigned int i;
	bool any = stp_pl.on_fork || stp_pl.on_exec || stp_pl.on_exit || stp_pl.on_enter ||
		   stp_pl.on_sysexit;

	if (stp_pl.on_fork)
		tracepoint_probe_unregister(stp_pl.tp_fork, (void *)stp_pl_fork, NULL);
	if (stp_pl.on_exec)
		tracepoint_probe_unregister(stp_pl.tp_exec, (void *)stp_pl_exec, NULL);
	if (stp_pl.on_exit)
		tracepoint_probe_unregister(stp_pl.tp_exit, (void *)stp_pl_exit, NULL);
	if (stp_pl.on_enter)
		tracepoint_probe_unregister(stp_pl.tp_enter, (void *)stp_pl_sys_enter, NULL);
	if (stp_pl.on_sysexit)
		tracepoint_probe_unregister(stp_pl.tp_sysexit, (void *)stp_pl_sys_exit, NULL);
	if (any)
		tracepoint_synchronize_unregister();
	stp_pl.on_fork = stp_pl.on_exec = stp_pl.on_exit = false;
	stp_pl.on_enter = stp_pl.on_sysexit = false;
	for (i = 0; i < stp_pl.npaths; i++)
		path_put(&stp_pl.paths[i]);
	stp_pl.npaths = 0;
	stp_pl.track = false;
	vfree(stp_pl.pool);
	stp_pl.pool = NULL;
	vfree(stp_pl.bit);
	stp_pl.bit = NULL;
}

static void stp_proclife_report(void)
{
	int n = atomic_read(&stp_pl.untracked);

	if (n)
		stp_warn("%d processes were not tracked (table full); try -DSTP_MAXPROCS=N", n);
}

static const struct stp_family stp_proclife_family = {
	.name = "proclife",
	.start = stp_proclife_start,
	.started = stp_pl_walk,
	.stop = stp_proclife_stop,
	.report = stp_proclife_report,
};
