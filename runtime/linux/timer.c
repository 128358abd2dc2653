// SPDX-License-Identifier: GPL-2.0-or-later
/* timer.c: timer.* probes on hrtimers (period plus or minus a random
 * amount with .randomize) and timer.profile.tick on one pinned hrtimer per
 * CPU, whose handler sees the interrupted registers. */

/* A point, in the generated table stp_timers[]. */
struct stp_timer_probe {
	const struct stp_probe *probe;
	u64 period_ns;
	u64 randomize_ns;		/* +- this much each period */
	bool profile;			/* one per CPU, interrupted registers */
};

struct stp_timer_state {
	struct hrtimer t;
	const struct stp_timer_probe *tp;
};

struct stp_timers {
	unsigned int n;				/* timer probes */
	struct stp_timer_state *plain;		/* one per timer probe */
	struct stp_timer_state *profile;	/* nr_cpu_ids per profile probe */
	unsigned int nprofile;
	int hp_state;				/* CPU hotplug callbacks, > 0 */
	bool live;
};

static struct stp_timers stp_tm;

static ktime_t stp_timer_period(const struct stp_timer_probe *tp)
{
	u64 ns = tp->period_ns;

	if (tp->randomize_ns) {
		u64 span = 2 * tp->randomize_ns + 1;
		s64 delta = (s64)(get_random_u64() % span) - (s64)tp->randomize_ns;

		ns = (u64)max_t(s64, (s64)ns + delta, 1000);
	}
	return ns_to_ktime(ns);
}

static enum hrtimer_restart stp_timer_fn(struct hrtimer *t)
{
	struct stp_timer_state *s = container_of(t, struct stp_timer_state, t);
	struct pt_regs *regs = s->tp->profile ? get_irq_regs() : NULL;

	if (stp_running())
		stp_run_probe(s->tp->probe, regs,
			      s->tp->profile ? MAXACTION : MAXACTION_INTERRUPTIBLE);
	if (!READ_ONCE(stp_tm.live))
		return HRTIMER_NORESTART;
	hrtimer_forward_now(t, stp_timer_period(s->tp));
	return HRTIMER_RESTART;
}

static void stp_timer_start_one(struct stp_timer_state *s, bool pinned)
{
#ifdef STAPCONF_HRTIMER_SETUP
	hrtimer_setup(&s->t, stp_timer_fn, CLOCK_MONOTONIC,
		      pinned ? HRTIMER_MODE_REL_PINNED : HRTIMER_MODE_REL);
#else
	hrtimer_init(&s->t, CLOCK_MONOTONIC,
		     pinned ? HRTIMER_MODE_REL_PINNED : HRTIMER_MODE_REL);
	s->t.function = stp_timer_fn;
#endif
	hrtimer_start(&s->t, stp_timer_period(s->tp),
		      pinned ? HRTIMER_MODE_REL_PINNED : HRTIMER_MODE_REL);
}

static void stp_profile_start_here(void *arg)
{
	unsigned int i, cpu = smp_processor_id();

	for (i = 0; i < stp_tm.nprofile; i++)
		stp_timer_start_one(&stp_tm.profile[i * nr_cpu_ids + cpu], true);
}

/* CPU hotplug: a CPU coming online starts its own profile timers (the
 * callback runs on it); one going offline cancels them first, so that the
 * kernel does not move them, still armed, to a CPU that has its own. */
static int stp_profile_online(unsigned int cpu)
{
	if (READ_ONCE(stp_tm.live))
		stp_profile_start_here(NULL);
	return 0;
}

static int stp_profile_offline(unsigned int cpu)
{
	unsigned int i;

	for (i = 0; i < stp_tm.nprofile; i++)
		if (stp_tm.profile[i * nr_cpu_ids + cpu].t.function)
			hrtimer_cancel(&stp_tm.profile[i * nr_cpu_ids + cpu].t);
	return 0;
}

static int stp_timers_start(const void *table, unsigned int n)
{
	const struct stp_timer_probe *v = table;
	unsigned int i, p = 0, cpu;

	stp_tm.n = n;
	stp_tm.plain = stp_vzalloc(sizeof(*stp_tm.plain) * n);
	for (i = 0; i < n; i++)
		if (v[i].profile)
			stp_tm.nprofile++;
	if (stp_tm.nprofile)
		stp_tm.profile = stp_vzalloc(sizeof(*stp_tm.profile) * stp_tm.nprofile * nr_cpu_ids);
	if (!stp_tm.plain || (stp_tm.nprofile && !stp_tm.profile))
		return -ENOMEM;
	WRITE_ONCE(stp_tm.live, true);
	for (i = 0; i < n; i++) {
		const struct stp_timer_probe *tp = &v[i];

		/* hrtimer_start() cannot fail: an injected failure (fault.h)
		 * stands for a timer the family could not set up */
		if (STP_FAULT("timer start"))
			return stp_registered(tp->probe, false, -STP_FAULT_ERRNO, "");
		if (!tp->profile) {
			stp_tm.plain[i].tp = tp;
			stp_timer_start_one(&stp_tm.plain[i], false);
			continue;
		}
		for_each_possible_cpu(cpu)
			stp_tm.profile[p * nr_cpu_ids + cpu].tp = tp;
		p++;
	}
	if (stp_tm.nprofile) {
		int st;

		/* no CPU comes or goes between the callbacks' set-up and
		 * the start on the CPUs online now */
		cpus_read_lock();
		st = STP_FAULT_RC("CPU hotplug callbacks",
				  cpuhp_setup_state_nocalls_cpuslocked(CPUHP_AP_ONLINE_DYN,
								       "stap/timer.profile",
								       stp_profile_online,
								       stp_profile_offline));
		if (st > 0)
			stp_tm.hp_state = st;
		on_each_cpu(stp_profile_start_here, NULL, 1);
		cpus_read_unlock();
		if (st < 0)
			stp_ctl_printf("WARNING: timer.profile will not follow CPUs going offline or online (cpuhp %d)",
				       st);
	}
	return 0;
}

static void stp_timers_stop(void)
{
	unsigned int i, cpu;

	if (!READ_ONCE(stp_tm.live))
		goto free;
	WRITE_ONCE(stp_tm.live, false);
	if (stp_tm.hp_state > 0) {
		cpuhp_remove_state_nocalls(stp_tm.hp_state);
		stp_tm.hp_state = 0;
	}
	for (i = 0; i < stp_tm.n; i++)
		if (stp_tm.plain[i].tp)
			hrtimer_cancel(&stp_tm.plain[i].t);
	/* every possible CPU: one whose offline callback could not run
	 * (no hotplug state) handed its pinned timers to another, armed */
	for (i = 0; i < stp_tm.nprofile; i++)
		for_each_possible_cpu(cpu)
			if (stp_tm.profile[i * nr_cpu_ids + cpu].t.function)
				hrtimer_cancel(&stp_tm.profile[i * nr_cpu_ids + cpu].t);
free:
	vfree(stp_tm.plain);
	vfree(stp_tm.profile);
	stp_tm.plain = stp_tm.profile = NULL;
}

static const struct stp_family stp_timer_family = {
	.name = "timer",
	.start = stp_timers_start,
	.stop = stp_timers_stop,
};
