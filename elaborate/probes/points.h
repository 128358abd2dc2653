/* SPDX-License-Identifier: GPL-2.0-or-later */
/* points.h: the typed data each mechanism's points carry from pass 2 to
 * pass 3 (elab_point.data), decided once by the family that derives them. */
#ifndef ELABORATE_PROBES_POINTS_H
#define ELABORATE_PROBES_POINTS_H

#include <assert.h>
#include <stdbool.h>
#include <stdint.h>

#include "elaborate/probe_match.h"

/* begin, end, error: run in order of sequence number, then script order. */
enum seq_kind { SEQ_BEGIN, SEQ_END, SEQ_ERROR };

struct seq_point {
	enum seq_kind kind;
	int64_t seq;
};

/* timer.*: a period and a random spread in one unit. */
enum timer_unit {
	TIMER_NS,			/* nanoseconds */
	TIMER_JIFFIES,			/* ticks of the target kernel's HZ */
	TIMER_PROFILE,			/* every tick, on each CPU */
};

struct timer_point {
	enum timer_unit unit;
	int64_t period;
	int64_t randomize;		/* +- this much each period, or 0 */
};

/* procfs("PATH").read / .write */
struct procfs_point {
	const char *path;		/* under /proc/systemtap/MODULE */
	int64_t maxsize;		/* read buffer; 0: the default */
	int64_t umask;			/* -1: none given */
	bool write;
};

/* kprobe.*, kernel.function/statement, module(M).function/statement */
struct kprobe_point {
	const char *symbol;		/* NULL: an absolute address */
	const char *module;		/* NULL: the kernel */
	uint64_t offset;		/* from the symbol */
	uint64_t addr;			/* without a symbol */
	int64_t maxactive;		/* .return: -1 for the default */
	bool ret;			/* a kretprobe */
	/* a kernel entry at an ftrace call site: the site's distance from
	 * &jiffies (link-time; the same at run time whatever KASLR does),
	 * registered through the runtime's ftrace_ops; 0: a kprobe */
	int64_t fsite_jiffies;
	/* a kernel point from DWARF: its address's distance from &jiffies,
	 * registered by address (no symbol lookup: on 6.1 one is a walk
	 * over every kernel symbol); 0: by symbol */
	int64_t addr_jiffies;
	bool wildcard;			/* one of a wildcard's points: its failure
					 * to register is a warning */
	bool module_init;		/* in a module's init text: a module
					 * loaded before the start has freed it,
					 * so the point waits for the next load */
};

/* process("PATH")[.library("LIB")].function/statement: a uprobe on the
 * file's inode at a file offset (or a uretprobe) */
struct uprobe_point {
	const char *path;		/* the file, as the target machine names it */
	uint64_t offset;		/* in the file */
	uint64_t capture_offset;	/* .return: where values at entry are
					 * read (past the prologue) */
	uint64_t sem_offset;		/* an SDT marker's semaphore: its offset in
					 * the file, raised while the probe is
					 * attached; 0: none */
	bool ret;			/* a uretprobe */
};

/* kernel.trace("SYSTEM:NAME") */
struct tracepoint_point {
	const char *name;
	const char *system;
	unsigned nargs;
};

/* kernel.data(ADDR|"SYMBOL")[.length(N)].write|.rw */
struct hwbkpt_point {
	const char *symbol;		/* NULL for an address */
	uint64_t addr;			/* the address given, without a symbol */
	const char *addr_expr;		/* C: the run-time address */
	unsigned len;			/* 1, 2, 4 or 8 bytes */
	bool write;			/* .write, else .rw */
};

/* __syscall("NAME")[.return], __syscall.any[.return] */
struct syscall_point {
	const char *name;		/* NULL: every call */
	int nr;				/* its number on x86-64, or -1 */
	bool ret;			/* at the return */
	const char *const *names;	/* the target kernel's calls by number
					 * (NULL holes), for syscall_name() */
	size_t nnames;
};

/* netfilter.hook("HOOK").pf("PF")[.priority("N")]: C expressions of the
 * protocol family, the hook number and the priority (numbers, or in guru
 * mode the user's text verbatim). */
struct netfilter_point {
	const char *pf;
	const char *hook;
	const char *priority;
};

/* process[(PATH|PID)].begin/.end/.thread.begin/.thread.end/.syscall[.return] */
enum proclife_kind {
	PL_BEGIN, PL_END, PL_THREAD_BEGIN, PL_THREAD_END, PL_SYSCALL, PL_SYSCALL_RETURN,
};

struct proclife_point {
	enum proclife_kind kind;
	const char *path;		/* the program on the target, or NULL */
	int64_t pid;			/* process(PID), or 0 */
};

/* perf.type(T).config(C)[.sample(N)|.hz(N)][.process[("PATH")]]
 * [.counter("NAME")]: a perf event of the kernel's perf_event_attr type
 * and config, sampled every @period events (or @period times a second
 * with @freq), on every CPU or in the processes running @path; a
 * .counter point only counts, for @perf("NAME") to read. */
struct perf_point {
	int64_t type;
	int64_t config;
	int64_t period;			/* sample_period, or sample_freq */
	bool freq;			/* .hz(N) */
	const char *path;		/* the program on the target, or NULL */
	const char *counter;		/* .counter("NAME"), or NULL */
	bool optional;			/* in a `?` point, maybe an alias's:
					 * the kernel's refusal is a warning */
};

/* The data of @pt, a point of mechanism @mech: seq_point(pt), ... */
#define PM_POINT_DATA(m, type)						\
static inline struct type *m##_point(const struct elab_point *pt)	\
{									\
	assert(pt->family && pt->family->mech == MECH_##m);		\
	return pt->data;						\
}
PM_POINT_DATA(seq, seq_point)
PM_POINT_DATA(timer, timer_point)
PM_POINT_DATA(procfs, procfs_point)
PM_POINT_DATA(kprobe, kprobe_point)
PM_POINT_DATA(uprobe, uprobe_point)
PM_POINT_DATA(tracepoint, tracepoint_point)
PM_POINT_DATA(hwbkpt, hwbkpt_point)
PM_POINT_DATA(syscall, syscall_point)
PM_POINT_DATA(netfilter, netfilter_point)
PM_POINT_DATA(proclife, proclife_point)
PM_POINT_DATA(perf, perf_point)
#undef PM_POINT_DATA

#endif
