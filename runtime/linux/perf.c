// SPDX-License-Identifier: GPL-2.0-or-later
/* perf.c: perf.type(T).config(C) points on the kernel's perf events
 * (perf_event_create_kernel_counter). The handler is the event's overflow
 * handler: it runs every `period` events (or `period` times a second with
 * .hz) with the registers of the code the overflow interrupted, from the
 * hrtimer interrupt for the clock events, the PMU's NMI for hardware ones
 * or inline where a software event is counted (page faults, context
 * switches).
 *
 * System-wide points have an event on each online CPU, created and
 * released by a CPU hotplug state of their own (CPUHP_AP_ONLINE_DYN):
 * setting it up creates them on the CPUs online at start, a CPU coming
 * online gets its events, a CPU going offline releases them, removing the
 * state releases the rest. An event the kernel refuses at start (an
 * unknown type or config, no such hardware counter, none free) is the
 * point's registration error; on a CPU that comes online later it is a
 * warning (the CPU is not held back).
 *
 * .process("PATH") points have an event per process running PATH, bound
 * to that task (cpu -1) and inherited by its threads (inherit_thread).
 * Processes running PATH at start get theirs from the start; later ones
 * at exec (and a PATH process's forked children at fork) from a task_work
 * the tracepoint queues to the task, which runs before the task returns
 * to user space and may sleep as creating the event needs. Each pending
 * task_work holds a reference on this module, so the module (and the
 * pool of slots the works point into, freed at unload) outlives them. A
 * process that execs another program keeps its event (the kernel keeps
 * task events across exec) but its slot is marked stale and its hits are
 * ignored. Slots of processes that have exited are reclaimed by a work
 * item when the pool runs short; a process that finds no slot is not
 * sampled, and counted.
 *
 * A .counter("NAME") point's events count (period 0: no overflow, its
 * body never runs); @perf("NAME") in a probe of the process reads the
 * process's event (stp_perf_read). Events are released only after
 * `readable` is cleared (stop) or the slot taken out of the LIVE state
 * (reclaim) and an RCU grace period has passed. */
#include <linux/binfmts.h>
#include <linux/cpuhotplug.h>
#include <linux/perf_event.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/task_work.h>
#include <linux/workqueue.h>

#include "linux/tp_lookup.h"

#ifndef STP_PERF_MAXTASKS
#define STP_PERF_MAXTASKS 1024		/* process events at once */
#endif
#define STP_PERF_PATHS 32		/* distinct PATHs */
#define STP_PERF_WALK_MAX (1 << 22)	/* tasks walked at start */

/* A point, in the generated table stp_perf_points[]. */
struct stp_perf_probe {
	const struct stp_probe *probe;
	u32 type;
	u64 config;
	u64 period;			/* sample_period, or sample_freq */
	bool freq;			/* .hz(N) */
	const char *path;		/* .process: the program; NULL: every CPU */
	bool optional;
	const char *counter;		/* .counter("NAME"): counts, read by
					 * @perf("NAME"); or NULL */
};

/* A slot is FREE, BUSY (being taken), WALK (a process found at start),
 * PENDING (its task_work is queued) or LIVE (it has its event). */
enum { STP_PT_FREE, STP_PT_BUSY, STP_PT_WALK, STP_PT_PENDING, STP_PT_LIVE };

/* One process event: a point's in one process (its threads inherit it). */
struct stp_perf_task {
	struct callback_head work;	/* creates the event in the task */
	struct task_struct *task;	/* held while not FREE */
	pid_t tgid;
	unsigned int point;
	struct perf_event *ev;
	atomic_t state;			/* STP_PT_* */
	bool stale;			/* the process runs another program */
};

static struct {
	const struct stp_perf_probe *v;
	unsigned int n;
	bool *dead;			/* an optional point that failed */
	/* system-wide points */
	struct perf_event **cpu_ev;	/* [point * nr_cpu_ids + cpu] */
	int hp_state;			/* the hotplug state, or <= 0 */
	bool hp_starting;		/* set-up: failures are the point's */
	int hp_rc;			/* the first failure at set-up */
	unsigned int hp_point;		/* and its point */
	/* process points */
	bool any_task;
	struct path paths[STP_PERF_PATHS];
	struct inode *inodes[STP_PERF_PATHS];
	unsigned int npaths;
	unsigned int *path_of;		/* each point's index in paths[] */
	struct stp_perf_task *tasks;	/* STP_PERF_MAXTASKS, freed at unload */
	struct mutex lock;		/* creating and releasing task events */
	bool live;			/* task events may be created */
	bool readable;			/* @perf may read the events: cleared,
					 * then an RCU grace period (handlers
					 * run with preemption off), before
					 * any event is released */
	struct work_struct reclaim;
	bool reclaim_init;
	atomic_t untracked;
	struct tracepoint *tp_exec, *tp_fork;
	bool on_exec, on_fork;
} stp_pf;

static struct perf_event **stp_pf_cpu_slot(unsigned int point, unsigned int cpu)
{
	return &stp_pf.cpu_ev[(size_t)point * nr_cpu_ids + cpu];
}

/* ---- the handlers ---- */

static void stp_pf_cpu_hit(struct perf_event *ev, struct perf_sample_data *data,
			   struct pt_regs *regs)
{
	const struct stp_perf_probe *d = ev->overflow_handler_context;

	if (d && stp_running())
		stp_run_probe(d->probe, regs, MAXACTION);
}

static void stp_pf_task_hit(struct perf_event *ev, struct perf_sample_data *data,
			    struct pt_regs *regs)
{
	struct stp_perf_task *s = ev->overflow_handler_context;

	if (s && !READ_ONCE(s->stale) && stp_running())
		stp_run_probe(stp_pf.v[s->point].probe, regs, MAXACTION);
}

static void stp_pf_attr(const struct stp_perf_probe *d, struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = d->type;
	a->config = d->config;
	a->freq = d->freq;
	if (d->freq)
		a->sample_freq = d->period;
	else
		a->sample_period = d->period;
}

/* A new event of @d on @cpu (-1: any) for @task (NULL: every task). */
static struct perf_event *stp_pf_create(const struct stp_perf_probe *d, int cpu,
					struct task_struct *task, void *ctx)
{
	struct perf_event_attr a;
	struct perf_event *ev;

	stp_pf_attr(d, &a);
	if (task) {
		a.inherit = 1;
		a.inherit_thread = 1;
	} else {
		a.pinned = 1;		/* on the PMU all the time, or an error */
	}
	ev = STP_FAULT_ERR_PTR("perf event",
			       perf_event_create_kernel_counter(&a, cpu, task,
								task ? stp_pf_task_hit : stp_pf_cpu_hit,
								ctx));
	if (!IS_ERR(ev) && ev->state == PERF_EVENT_STATE_ERROR) {
		/* a pinned event no counter could take */
		perf_event_release_kernel(ev);
		ev = ERR_PTR(-ENOSPC);
	}
	return ev;
}

/* ---- system-wide points: the CPU hotplug state ---- */

static void stp_pf_cpu_release(unsigned int point, unsigned int cpu)
{
	struct perf_event **slot = stp_pf_cpu_slot(point, cpu);

	if (*slot)
		perf_event_release_kernel(*slot);
	*slot = NULL;
}

/* Runs for each CPU when the state is set up, and for a CPU coming
 * online; the hotplug core runs these one at a time. */
static int stp_pf_cpu_online(unsigned int cpu)
{
	unsigned int i;

	for (i = 0; i < stp_pf.n; i++) {
		const struct stp_perf_probe *d = &stp_pf.v[i];
		struct perf_event *ev;
		unsigned int c;

		if (d->path || stp_pf.dead[i] || *stp_pf_cpu_slot(i, cpu))
			continue;
		ev = stp_pf_create(d, (int)cpu, NULL, (void *)d);
		if (!IS_ERR(ev)) {
			*stp_pf_cpu_slot(i, cpu) = ev;
			continue;
		}
		if (!stp_pf.hp_starting) {
			stp_warn("probe %s: no perf event on cpu %u (rc %ld)", d->probe->pp,
				 cpu, PTR_ERR(ev));
			continue;
		}
		if (!d->optional) {
			/* the set-up fails and undoes the CPUs done so far */
			stp_pf.hp_rc = (int)PTR_ERR(ev);
			stp_pf.hp_point = i;
			return stp_pf.hp_rc;
		}
		stp_registered(d->probe, true, (int)PTR_ERR(ev), "");
		stp_pf.dead[i] = true;
		for_each_possible_cpu(c)
			stp_pf_cpu_release(i, c);
	}
	return 0;
}

static int stp_pf_cpu_offline(unsigned int cpu)
{
	unsigned int i;

	for (i = 0; i < stp_pf.n; i++)
		stp_pf_cpu_release(i, cpu);
	return 0;
}

static int stp_pf_cpus_start(void)
{
	int rc;

	stp_pf.cpu_ev = stp_vzalloc(sizeof(*stp_pf.cpu_ev) * stp_pf.n * nr_cpu_ids);
	if (!stp_pf.cpu_ev)
		return -ENOMEM;
	stp_pf.hp_starting = true;
	rc = STP_FAULT_RC("CPU hotplug callbacks",
			  cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "stap:perf", stp_pf_cpu_online,
					    stp_pf_cpu_offline));
	stp_pf.hp_starting = false;
	if (rc >= 0) {
		stp_pf.hp_state = rc;
		return 0;
	}
	if (stp_pf.hp_rc)
		return stp_registered(stp_pf.v[stp_pf.hp_point].probe, false, rc,
				      rc == -ENOENT || rc == -EOPNOTSUPP ?
				      ": no PMU of this machine counts the event (no hardware counters: a VM?)" :
				      rc == -ENOSPC ? ": no free hardware counter" : "");
	stp_ctl_printf("ERROR: cannot set up the CPU hotplug state of perf probes (%d)", rc);
	return rc;
}

static void stp_pf_cpus_stop(void)
{
	unsigned int i, cpu;

	if (stp_pf.hp_state > 0)
		cpuhp_remove_state(stp_pf.hp_state);	/* offline on each CPU */
	stp_pf.hp_state = 0;
	for (i = 0; stp_pf.cpu_ev && i < stp_pf.n; i++)
		for_each_possible_cpu(cpu)
			stp_pf_cpu_release(i, cpu);
	vfree(stp_pf.cpu_ev);
	stp_pf.cpu_ev = NULL;
}

/* ---- process points ---- */

/* A free slot for point @point in process @t (held), or NULL (counted;
 * the reclaim work looks for slots of processes that have exited). */
static struct stp_perf_task *stp_pf_claim(struct task_struct *t, unsigned int point)
{
	unsigned int i;

	for (i = 0; i < STP_PERF_MAXTASKS; i++) {
		struct stp_perf_task *s = &stp_pf.tasks[i];

		if (atomic_cmpxchg(&s->state, STP_PT_FREE, STP_PT_BUSY) != STP_PT_FREE)
			continue;
		get_task_struct(t);
		s->task = t;
		s->tgid = t->tgid;
		s->point = point;
		s->ev = NULL;
		WRITE_ONCE(s->stale, false);
		return s;
	}
	atomic_inc(&stp_pf.untracked);
	schedule_work(&stp_pf.reclaim);
	return NULL;
}

static void stp_pf_unclaim(struct stp_perf_task *s)
{
	put_task_struct(s->task);
	s->task = NULL;
	atomic_set(&s->state, STP_PT_FREE);
}

/* The slot of point @point in process @tgid, or NULL. */
static struct stp_perf_task *stp_pf_find(pid_t tgid, unsigned int point)
{
	unsigned int i;

	for (i = 0; i < STP_PERF_MAXTASKS; i++) {
		struct stp_perf_task *s = &stp_pf.tasks[i];
		int st = atomic_read(&s->state);

		if (st >= STP_PT_WALK && s->tgid == tgid &&
		    s->point == point)
			return s;
	}
	return NULL;
}

/* Create slot @s's event (process context, may sleep); caller holds the
 * lock. */
static void stp_pf_attach(struct stp_perf_task *s)
{
	struct perf_event *ev = NULL;

	if (stp_pf.live && !(s->task->flags & PF_EXITING))
		ev = stp_pf_create(&stp_pf.v[s->point], -1, s->task, s);
	if (IS_ERR_OR_NULL(ev)) {
		stp_pf_unclaim(s);
		return;
	}
	s->ev = ev;
	atomic_set_release(&s->state, STP_PT_LIVE);	/* @perf reads s->ev after */
}

static void stp_pf_task_work(struct callback_head *w)
{
	struct stp_perf_task *s = container_of(w, struct stp_perf_task, work);

	mutex_lock(&stp_pf.lock);
	stp_pf_attach(s);
	mutex_unlock(&stp_pf.lock);
	module_put(THIS_MODULE);
}

/* Give process @t (current, or a child that has not run yet) an event of
 * @point, created by @t itself before it returns to user space. */
static void stp_pf_queue(struct task_struct *t, unsigned int point)
{
	struct stp_perf_task *s = stp_pf_claim(t, point);

	if (!s)
		return;
	atomic_set(&s->state, STP_PT_PENDING);
	init_task_work(&s->work, stp_pf_task_work);
	if (!try_module_get(THIS_MODULE)) {
		stp_pf_unclaim(s);
		return;
	}
	if (task_work_add(t, &s->work, TWA_RESUME)) {	/* @t is exiting */
		module_put(THIS_MODULE);
		stp_pf_unclaim(s);
	}
}

static unsigned int stp_pf_file_path(struct file *f)
{
	struct inode *ino = f ? file_inode(f) : NULL;
	unsigned int i;

	for (i = 0; ino && i < stp_pf.npaths; i++)
		if (stp_pf.inodes[i] == ino)
			return i;
	return UINT_MAX;
}

static void stp_pf_exec(void *data, struct task_struct *p, pid_t old_pid,
			struct linux_binprm *bprm)
{
	unsigned int i, path = stp_pf_file_path(bprm->file);

	if (!READ_ONCE(stp_pf.live) || (p->flags & PF_KTHREAD))
		return;
	for (i = 0; i < stp_pf.n; i++) {
		struct stp_perf_task *s;

		if (!stp_pf.v[i].path || stp_pf.dead[i])
			continue;
		s = stp_pf_find(p->tgid, i);
		if (s)
			WRITE_ONCE(s->stale, stp_pf.path_of[i] != path);
		else if (stp_pf.path_of[i] == path)
			stp_pf_queue(p, i);
	}
}

static void stp_pf_fork(void *data, struct task_struct *parent, struct task_struct *child)
{
	unsigned int i;

	if (!READ_ONCE(stp_pf.live) || (child->flags & PF_KTHREAD) ||
	    child->pid != child->tgid)		/* threads inherit the event */
		return;
	for (i = 0; i < stp_pf.n; i++) {
		struct stp_perf_task *s;

		if (!stp_pf.v[i].path || stp_pf.dead[i])
			continue;
		s = stp_pf_find(parent->tgid, i);
		if (s && !READ_ONCE(s->stale))
			stp_pf_queue(child, i);
	}
}

/* Release the events of processes that have exited. */
static void stp_pf_reclaim(struct work_struct *w)
{
	unsigned int i, dead = 0;

	mutex_lock(&stp_pf.lock);
	for (i = 0; i < STP_PERF_MAXTASKS; i++) {
		struct stp_perf_task *s = &stp_pf.tasks[i];
		struct task_struct *t = s->task;

		if (atomic_read(&s->state) != STP_PT_LIVE || !t->exit_state ||
		    atomic_read(&t->signal->live))
			continue;
		atomic_set(&s->state, STP_PT_BUSY);	/* @perf no longer finds it */
		dead++;
	}
	if (dead)
		synchronize_rcu();	/* a handler that found it has left */
	for (i = 0; dead && i < STP_PERF_MAXTASKS; i++) {
		struct stp_perf_task *s = &stp_pf.tasks[i];

		if (atomic_read(&s->state) != STP_PT_BUSY || !s->ev)
			continue;
		perf_event_release_kernel(s->ev);
		s->ev = NULL;
		stp_pf_unclaim(s);
	}
	mutex_unlock(&stp_pf.lock);
}

/* The PATH index of point @i (its file opened once for all its points). */
static int stp_pf_path(unsigned int i)
{
	const struct stp_perf_probe *d = &stp_pf.v[i];
	unsigned int j;
	int rc;

	for (j = 0; j < i; j++)
		if (stp_pf.v[j].path && !stp_pf.dead[j] && !strcmp(stp_pf.v[j].path, d->path)) {
			stp_pf.path_of[i] = stp_pf.path_of[j];
			return 0;
		}
	if (stp_pf.npaths >= STP_PERF_PATHS)
		return -E2BIG;
	rc = kern_path(d->path, LOOKUP_FOLLOW, &stp_pf.paths[stp_pf.npaths]);
	if (rc)
		return rc;
	stp_pf.inodes[stp_pf.npaths] = d_inode(stp_pf.paths[stp_pf.npaths].dentry);
	stp_pf.path_of[i] = stp_pf.npaths++;
	return 0;
}

/* Events for the processes running a PATH now: slots taken under RCU,
 * events created after it (creating one sleeps). */
static void stp_pf_walk(void)
{
	struct task_struct *t;
	unsigned int i, count = 0;

	rcu_read_lock();
	for_each_process(t) {
		unsigned int path;

		if (++count > STP_PERF_WALK_MAX)
			break;
		if ((t->flags & (PF_KTHREAD | PF_EXITING)) || !t->mm)
			continue;
		task_lock(t);
		path = t->mm ? stp_pf_file_path(rcu_dereference(t->mm->exe_file)) : UINT_MAX;
		task_unlock(t);
		for (i = 0; path != UINT_MAX && i < stp_pf.n; i++) {
			struct stp_perf_task *s;

			if (!stp_pf.v[i].path || stp_pf.dead[i] || stp_pf.path_of[i] != path)
				continue;
			s = stp_pf_claim(t, i);
			if (s)
				atomic_set(&s->state, STP_PT_WALK);
		}
	}
	rcu_read_unlock();
	mutex_lock(&stp_pf.lock);
	for (i = 0; i < STP_PERF_MAXTASKS; i++)
		if (atomic_read(&stp_pf.tasks[i].state) == STP_PT_WALK)
			stp_pf_attach(&stp_pf.tasks[i]);
	mutex_unlock(&stp_pf.lock);
}

static int stp_pf_attach_tp(struct tracepoint *tp, void *fn, bool *on)
{
	int rc = tp ? STP_FAULT_RC("tracepoint registration", tracepoint_probe_register(tp, fn, NULL)) :
		     -ENOENT;

	*on = rc == 0;
	return rc;
}

static int stp_pf_tasks_start(void)
{
	unsigned int i;
	int rc;

	for (i = 0; i < stp_pf.n; i++) {
		const struct stp_perf_probe *d = &stp_pf.v[i];

		if (!d->path)
			continue;
		rc = stp_pf_path(i);
		rc = stp_registered(d->probe, d->optional, rc,
				    rc == -ENOENT ? ": no such file" :
				    rc == -E2BIG ? ": too many programs" : "");
		if (rc)
			return rc;
		if (stp_pf.npaths && stp_pf.path_of[i] < stp_pf.npaths &&
		    stp_pf.inodes[stp_pf.path_of[i]])
			stp_pf.any_task = true;
		else
			stp_pf.dead[i] = true;
	}
	if (!stp_pf.any_task)
		return 0;
	stp_pf.tasks = stp_vzalloc(sizeof(*stp_pf.tasks) * STP_PERF_MAXTASKS);
	if (!stp_pf.tasks)
		return -ENOMEM;
	stp_tp_lookup((const struct stp_tp_want[]){
		{ "sched_process_exec", &stp_pf.tp_exec },
		{ "sched_process_fork", &stp_pf.tp_fork } }, 2);
	WRITE_ONCE(stp_pf.live, true);
	rc = stp_pf_attach_tp(stp_pf.tp_exec, (void *)stp_pf_exec, &stp_pf.on_exec);
	if (!rc)
		rc = stp_pf_attach_tp(stp_pf.tp_fork, (void *)stp_pf_fork, &stp_pf.on_fork);
	if (rc) {
		stp_ctl_printf("ERROR: cannot register the sched_process_* tracepoints (%d)", rc);
		return rc;
	}
	stp_pf_walk();
	return 0;
}

static void stp_pf_tasks_stop(void)
{
	unsigned int i;

	if (stp_pf.on_exec)
		tracepoint_probe_unregister(stp_pf.tp_exec, (void *)stp_pf_exec, NULL);
	if (stp_pf.on_fork)
		tracepoint_probe_unregister(stp_pf.tp_fork, (void *)stp_pf_fork, NULL);
	if (stp_pf.on_exec || stp_pf.on_fork)
		tracepoint_synchronize_unregister();
	stp_pf.on_exec = stp_pf.on_fork = false;
	if (!stp_pf.reclaim_init)		/* never started */
		return;
	cancel_work_sync(&stp_pf.reclaim);
	/* pending task_works find !live and let their slots go */
	mutex_lock(&stp_pf.lock);
	WRITE_ONCE(stp_pf.live, false);
	for (i = 0; stp_pf.tasks && i < STP_PERF_MAXTASKS; i++) {
		struct stp_perf_task *s = &stp_pf.tasks[i];

		if (atomic_read(&s->state) != STP_PT_LIVE)
			continue;
		perf_event_release_kernel(s->ev);
		s->ev = NULL;
		stp_pf_unclaim(s);
	}
	mutex_unlock(&stp_pf.lock);
	for (i = 0; i < stp_pf.npaths; i++)
		path_put(&stp_pf.paths[i]);
	stp_pf.npaths = 0;
}

/* ---- the family ---- */

static void stp_perf_stop(void);

static int stp_perf_start(const void *table, unsigned int n)
{
	unsigned int i;
	bool any_cpu = false;
	int rc;

	stp_pf.v = table;
	stp_pf.n = n;
	mutex_init(&stp_pf.lock);
	INIT_WORK(&stp_pf.reclaim, stp_pf_reclaim);
	stp_pf.reclaim_init = true;
	atomic_set(&stp_pf.untracked, 0);
	stp_pf.dead = stp_vzalloc(sizeof(*stp_pf.dead) * n);
	stp_pf.path_of = stp_vzalloc(sizeof(*stp_pf.path_of) * n);
	if (!stp_pf.dead || !stp_pf.path_of)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		stp_pf.path_of[i] = UINT_MAX;
		any_cpu |= !stp_pf.v[i].path;
	}
	rc = any_cpu ? stp_pf_cpus_start() : 0;
	if (!rc)
		rc = stp_pf_tasks_start();
	if (rc)
		stp_perf_stop();
	else
		WRITE_ONCE(stp_pf.readable, true);
	return rc;
}

/* ---- @perf ---- */

/* @ev's count so far (as perf_event_read_local() does, which modules
 * cannot call): an event active on this CPU is brought up to date first,
 * with interrupts off; the counts of exited threads are added. */
static u64 stp_pf_count(struct perf_event *ev)
{
	unsigned long flags;
	u64 v;

	local_irq_save(flags);
	if (READ_ONCE(ev->oncpu) == smp_processor_id() &&
	    READ_ONCE(ev->state) == PERF_EVENT_STATE_ACTIVE)
		ev->pmu->read(ev);
	v = local64_read(&ev->count) + atomic64_read(&ev->child_count);
	local_irq_restore(flags);
	return v;
}

/* @perf("NAME") in a probe handler (preemption off): the count of the
 * counting point NAME in the current process (for .process points: the
 * event of the process, which its threads inherit; a live thread's own
 * count is added to it when the thread exits), or on this CPU for a
 * system-wide point; 0 when there is none (the process was not seen yet,
 * runs another program now, or the session is stopping). */
static s64 __maybe_unused stp_perf_read(const char *name)
{
	unsigned int i;

	if (!READ_ONCE(stp_pf.readable))
		return 0;
	for (i = 0; i < stp_pf.n; i++) {
		const struct stp_perf_probe *d = &stp_pf.v[i];
		struct perf_event *ev = NULL;

		if (!d->counter || strcmp(d->counter, name))
			continue;
		if (d->path) {
			struct stp_perf_task *s = stp_pf_find(current->tgid, i);

			if (s && atomic_read_acquire(&s->state) == STP_PT_LIVE &&
			    !READ_ONCE(s->stale))
				ev = READ_ONCE(s->ev);
		} else if (stp_pf.cpu_ev) {
			ev = READ_ONCE(*stp_pf_cpu_slot(i, smp_processor_id()));
		}
		return ev ? (s64)stp_pf_count(ev) : 0;
	}
	return 0;
}

static void stp_perf_stop(void)
{
	if (stp_pf.readable) {
		WRITE_ONCE(stp_pf.readable, false);
		synchronize_rcu();	/* no handler reads an event any more */
	}
	stp_pf_cpus_stop();
	stp_pf_tasks_stop();
	vfree(stp_pf.dead);
	stp_pf.dead = NULL;
	vfree(stp_pf.path_of);
	stp_pf.path_of = NULL;
}

static void stp_perf_report(void)
{
	int n = atomic_read(&stp_pf.untracked);

	if (n)
		stp_warn("%d processes were not sampled (table full); try -DSTP_PERF_MAXTASKS=N", n);
}

/* Module unload: no task_work is pending any more (each held a module
 * reference), so the slots can go. */
static void stp_perf_release(void)
{
	vfree(stp_pf.tasks);
	stp_pf.tasks = NULL;
}

static const struct stp_family stp_perf_family = {
	.name = "perf",
	.start = stp_perf_start,
	.stop = stp_perf_stop,
	.report = stp_perf_report,
	.release = stp_perf_release,
};
