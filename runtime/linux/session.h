/* SPDX-License-Identifier: GPL-2.0-or-later */
/* session.h: what the generated code hands the runtime: the probes of each
 * family, the globals' set-up and tear-down, the frame size. The
 * generated file defines `const struct stp_module_desc stp_module` after
 * including runtime.h; the runtime (stp_runtime.o) refers to it. */
#ifndef STP_SESSION_H
#define STP_SESSION_H

struct stp_context;
struct stp_probe_mon;
struct stp_monitor_desc;

/* A global's lock: probes take the ones they use, in index order. */
struct stp_lockreq {
	rwlock_t *lock;
	bool write;
};

/* The low-level handlers, as probe_type() names them (stp_probe_type_name):
 * a number in each probe, not a string (a relocation less a point). */
enum stp_probe_type {
	STP_PT_UNKNOWN, STP_PT_BEGIN_END, STP_PT_PROCFS, STP_PT_HRTIMER, STP_PT_TIMER,
	STP_PT_KPROBE, STP_PT_KRETPROBE, STP_PT_UPROBE, STP_PT_URETPROBE,
	STP_PT_KERNEL_TRACEPOINT, STP_PT_HWBKPT, STP_PT_NETFILTER, STP_PT_UTRACE,
	STP_PT_PERF_EVENT, STP_PT_COUNT
};

/* One probe point's handler. */
struct stp_probe {
	const char *pp;			/* the probe point, as pp() says */
	const char *pn;			/* the script's probe point, aliases
					 * and wildcards expanded, as pn() says;
					 * NULL when it is pp (stp_probe_pn) */
	void (*body)(struct stp_context *c);
	bool (*cond)(struct stp_context *c);	/* if (...) of the point, or NULL */
	const struct stp_lockreq *locks;
	unsigned int nlocks;
	unsigned int type;		/* enum stp_probe_type */
	size_t frame_size;		/* its body's frame: zeroed per hit */
	struct stp_probe_mon *mon;	/* stap --monitor: its state, else NULL */
};

/* The run-time part of a mechanism (families.h): runtime/linux/MECH.c
 * defines `static const struct stp_family stp_MECH_family`, and the
 * generated code lists the families it uses with their tables. */
struct stp_family {
	const char *name;
	/* Register the @n points of @table (an array of the family's own
	 * entry type, from the generated code): 0, or -errno after the
	 * message (stp_registered). */
	int (*start)(const void *table, unsigned int n);
	/* Once every family has started and the session runs (no handler
	 * runs before: every point becomes live at once, as in the
	 * reference): what fires as the session begins (process.begin of
	 * the processes running now); or NULL. */
	void (*started)(void);
	/* Unregister: safe after a failed start or none. */
	void (*stop)(void);
	/* After every family stopped and their handlers finished: warnings
	 * about the session (missed hits); or NULL. */
	void (*report)(void);
	/* Module unload: free what outlives stop(); or NULL. */
	void (*release)(void);
	/* Kernel module @mod has loaded (@coming) or is going; or NULL. */
	void (*module)(struct module *mod, bool coming);
};

struct stp_family_use {
	const struct stp_family *family;
	const void *table;
	unsigned int n;
	bool modules;			/* some points are in kernel modules:
					 * the session follows them (kmod.c) */
};

/* begin/end/error probes, in the order they run (sequence number, then
 * script order). */
struct stp_seq_probe {
	const struct stp_probe *probe;
	s64 seq;
};

/* A symbol of a kernel module that static variables of the module are
 * addressed from (kmod.c): its run-time address while the module is
 * loaded. */
struct stp_kmod {
	const char *module;
	const char *symbol;
	unsigned long addr;		/* 0: not loaded; 1: loaded, no such
					 * symbol; else its address (one word:
					 * handlers read it once) */
};

/* The run-time address of anchor @k, or the handler ends with an error. */
#define STP_KMOD_BASE(k) ({							\
	unsigned long stp_kb_ = READ_ONCE(stp_module.kmods[k].addr);		\
	if (!stp_kb_)								\
		STAP_ERROR("module '%s' is not loaded", stp_module.kmods[k].module);	\
	if (stp_kb_ == 1)							\
		STAP_ERROR("module '%s' has no symbol '%s'",			\
			   stp_module.kmods[k].module, stp_module.kmods[k].symbol);	\
	(u64)stp_kb_;								\
})

struct stp_module_desc {
	const char *name;
	size_t frame_size;		/* largest frame of a body or function */
	size_t re_caps_size;		/* per context, when the script calls
					 * matched() (regex_caps.h) */
	int (*globals_init)(void);	/* allocate, set initial values */
	void (*globals_free)(void);
	const struct stp_seq_probe *begin, *end, *error;
	unsigned int nbegin, nend, nerror;
	struct stp_kmod *kmods;
	unsigned int nkmods;
	/* the mechanisms with points, in start order (families.h) */
	const struct stp_family_use *families;
	unsigned int nfamilies;
	const struct stp_monitor_desc *monitor;	/* stap --monitor, else NULL */
	const struct stp_probe *probes;	/* every point's handler (stp_pps[]) */
};

extern const struct stp_module_desc stp_module;

static inline const char *stp_probe_pn(const struct stp_probe *p)
{
	return p->pn ? p->pn : p->pp;
}

/* "kprobe", "begin_end", ...: what probe_type() says. */
const char *stp_probe_type_name(unsigned int type);

/* exit(): end the session after this handler (status 0). */
void stp_request_exit(void);
/* A handler could not run (busy context, lock timeout). */
void stp_skipped(void);
/* The session's state (session.c); read on every hit by stp_running. */
enum stp_state { STP_LOADED, STP_STARTING, STP_RUNNING, STP_STOPPING, STP_STOPPED };

struct stp_session {
	atomic_t state;
	atomic_t errors;
	atomic_t skipped;
	atomic_t exit_requested;	/* X sent */
	atomic_t fatal;			/* error limit reached */
	struct mutex ctl_mutex;		/* start/stop */
};

extern struct stp_session stp_sess;

/* Is the session running (probes other than begin/end may fire)? From
 * the moment the session starts (begin probes have run, every point is
 * registered) until exit() or a fatal error (as in the reference: no
 * probe runs between the request and the end probes). Inline: every
 * hit asks. */
static inline bool stp_running(void)
{
	return atomic_read(&stp_sess.state) == STP_RUNNING &&
	       !atomic_read(&stp_sess.exit_requested);
}
/* A message line for staprun's stderr; a warning ("WARNING: " added). */
void stp_ctl_printf(const char *fmt, ...) __printf(1, 2);
void stp_warn(const char *fmt, ...) __printf(1, 2);
/* The outcome of registering a point of @probe (session.c). */
int stp_registered(const struct stp_probe *probe, bool optional, int rc,
		   const char *why);
/* Run begin (@begin) or end/error probes in order. */
void stp_run_seq(const struct stp_seq_probe *v, unsigned int n, bool begin);
/* Is the module named by the @len characters at @name loaded? (kmod.c) */
bool stp_kmod_is_loaded(const char *name, size_t len);

/* staprun's module parameters (session.c) */
extern long _stp_target;		/* stap -x / -c: the target process */
extern long _stp_pid;			/* staprun's pid */
extern long _stp_tz_gmtoff;		/* local time zone: seconds west of UTC */
extern char _stp_tz_name[16];		/* and its abbreviation */

#endif
