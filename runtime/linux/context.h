/* SPDX-License-Identifier: GPL-2.0-or-later */
/* context.h: the per-CPU state of a running probe handler. A handler
 * claims its CPU's context with an atomic busy flag (a handler that finds
 * it busy, e.g. a kprobe hit inside another handler, is counted as
 * skipped), gets an action budget, a stack of frames for the locals of the
 * probe body and of each nested function call, a buffer for its output and
 * room for an error message. Errors set last_error and the generated code
 * leaves the handler at once (goto out). */
#ifndef STP_CONTEXT_H
#define STP_CONTEXT_H

#define STP_OUT_SIZE (2 * STP_PRINT_MAX + 2)
#define STP_ERR_SIZE 256

struct stp_probe;
struct stp_nf_hit;

struct stp_context {
	atomic_t busy;
	/* Per hit: zeroed when a handler starts (stp_enter). */
	struct_group(hit,
		int nesting;			/* frames in use above frame 0 */
		s64 actions;			/* statements left in the budget */
		const char *last_error;		/* the message, or NULL */
		const char *error_loc;		/* "operator '/' at f.stp:3:9" or NULL */
		const struct stp_probe *probe;
		struct task_struct *task;	/* the task the probe is about when
						 * it is not current (process.begin
						 * at fork, or at start), or NULL */
		struct pt_regs *regs;		/* the probed registers, or NULL */
		bool user_mode;			/* a user-space probe (uprobe): regs
						 * are the task's user registers */
		bool is_return;
		unsigned long probe_addr;	/* the probed address (kprobes) */
		u64 *entry_data;		/* .return probes: the values
						 * captured at the function's entry
						 * (a kretprobe instance's data, or a
						 * uretprobe's frame), or NULL */
		u64 *tp_args;			/* tracepoint arguments, or NULL */
		u64 *sc_args;			/* system-call probes: the task's
						 * user registers (struct pt_regs *),
						 * the call's number, its return
						 * value; or NULL */
		struct stp_nf_hit *nf;		/* netfilter probes: the packet */
		char *procfs_buf;		/* procfs probes: $value */
		size_t procfs_size;
		size_t procfs_len;
		size_t out_len;
		bool re_matched;		/* the last =~ matched (matched()) */
		unsigned int bt_n;		/* stp_backtrace()'s addresses of
						 * this hit, once bt_done */
		bool bt_done;
		unsigned long entry_sp;		/* the stack pointer when the
						 * handler started (stack_used) */
		bool aborted;			/* abort(): last_error ends the
						 * handler, try/catch cannot catch
						 * it, and it is not reported */
	);
	/* Kept across hits. */
	char *frames;			/* (MAXNESTING + 1) frames */
	char error_buf[STP_ERR_SIZE];	/* a formatted message */
	struct stp_re_work re_work;	/* =~ */
	void *re_caps;			/* =~ when the script calls matched():
					 * stp_module.re_caps_size bytes
					 * (regex_caps.h), or NULL */
	char out[STP_OUT_SIZE];		/* this handler's output so far */
};

/* The locals of the current frame (probe body or function). */
#define stp_frame(c) ((void *)((c)->frames + (size_t)(c)->nesting * stp_module.frame_size))
#define stp_frame_at(c, n) ((void *)((c)->frames + (size_t)(n) * stp_module.frame_size))

/* The task the handler runs for: pid(), execname() ... read it. */
#define stp_task(c) ((c)->task ? (c)->task : current)

/* Record a run-time error (the first one wins); @loc may be NULL. */
void stp_error(struct stp_context *c, const char *msg, const char *loc);
void stp_errorf(struct stp_context *c, const char *loc, const char *fmt, ...)
	__printf(3, 4);
/* Send what the handler printed so far. */
void stp_flush(struct stp_context *c);
/* Room for @n more bytes of output (flushing what is there if needed);
 * returns where to write, with at least min(n, STP_PRINT_MAX) + 1 bytes. */
char *stp_out_reserve(struct stp_context *c, size_t n);

/* Entering and leaving a handler: inline, in handler.h. */
/* The common path of every handler: claim, run, release. */
void stp_run_probe(const struct stp_probe *p, struct pt_regs *regs, s64 budget);

/* One statement (or loop iteration) of the budget; true when exhausted. */
static inline bool stp_action(struct stp_context *c, const char *loc)
{
	if (likely(--c->actions >= 0))
		return false;
	stp_error(c, "MAXACTION exceeded", loc);
	return true;
}

/* Arithmetic with the script language's rules: 64-bit wrapping, division
 * by zero is an error, shifts use the low 6 bits of the count. */
static inline s64 stp_div(struct stp_context *c, s64 a, s64 b, const char *loc)
{
	if (unlikely(b == 0)) {
		stp_error(c, "division by 0", loc);
		return 0;
	}
	if (unlikely(b == -1))
		return (s64)(0 - (u64)a);
	return a / b;
}

static inline s64 stp_mod(struct stp_context *c, s64 a, s64 b, const char *loc)
{
	if (unlikely(b == 0)) {
		stp_error(c, "division by 0", loc);
		return 0;
	}
	if (unlikely(b == -1))
		return 0;
	return a % b;
}

static inline s64 stp_shl(s64 a, s64 b)
{
	return (s64)((u64)a << (b & 63));
}

static inline s64 stp_shr(s64 a, s64 b)
{
	return a >> (b & 63);
}

static inline s64 stp_ushr(s64 a, s64 b)
{
	return (s64)((u64)a >> (b & 63));
}

#endif
