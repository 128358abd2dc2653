/* SPDX-License-Identifier: GPL-2.0-or-later */
/* monitor.h: stap --monitor's module side (monitor.c, doc/monitor.md):
 * per-probe hit statistics and pause flags, the globals it shows and
 * resets. Without --monitor every probe's mon is NULL and the hooks below
 * cost one test of it per hit. */
#ifndef STP_MONITOR_H
#define STP_MONITOR_H

/* A probe point's monitor state (the generated stp_pmon[i]). */
struct stp_probe_mon {
	bool paused;		/* its handler returns at once */
	bool fixed;		/* begin/end/error: never paused */
};

enum stp_mon_kind { STP_MG_LONG, STP_MG_STRING, STP_MG_ARRAY, STP_MG_STAT, STP_MG_PMAP };

/* A script global as the monitor shows and resets it. */
struct stp_mon_global {
	const char *name;
	enum stp_mon_kind kind;
	void *var;		/* s64, char[MAXSTRINGLEN], struct stp_array,
				 * struct stp_pstat, struct stp_pmap */
	rwlock_t *lock;
	const long *init;	/* STP_MG_LONG: its initial value (the module
				 * parameter of the same name) */
};

struct stp_monitor_desc {
	const struct stp_probe *const *probes;	/* probes[i]->mon == &mons[i] */
	struct stp_probe_mon *mons;
	unsigned int nprobes;
	const struct stp_mon_global *globals;
	unsigned int nglobals;
	int (*init)(void);	/* stp_monitor_init, stp_monitor_free: named */
	void (*free)(void);	/* here so that only --monitor links them */
};

/* At load, after the transport made the directory: the statistics, the
 * string globals' initial values, the file. 0 or -errno (then free). */
int stp_monitor_init(void);
/* After the transport removed the directory (and the file with it). */
void stp_monitor_free(void);

/* One CPU's statistics of one probe (monitor.c allocates them per CPU). */
struct stp_mon_stat {
	u64 hits, ns, min_ns, max_ns;
};
extern struct stp_mon_stat __percpu *stp_mon_stats;	/* session.c */

static inline bool stp_mon_paused(const struct stp_probe *p)
{
	return p->mon && READ_ONCE(p->mon->paused);
}

static inline u64 stp_mon_begin(const struct stp_probe *p)
{
	return p->mon ? local_clock() : 0;
}

/* A hit of @p whose body ran from @t0 (preemption off). */
static inline void stp_mon_end(const struct stp_probe *p, u64 t0)
{
	struct stp_mon_stat *s;
	u64 d;

	if (!p->mon || !stp_mon_stats)
		return;
	s = this_cpu_ptr(stp_mon_stats) + (p->mon - stp_module.monitor->mons);
	d = local_clock() - t0;
	if (!s->hits || d < s->min_ns)
		s->min_ns = d;
	if (d > s->max_ns)
		s->max_ns = d;
	s->hits++;
	s->ns += d;
}

#endif
