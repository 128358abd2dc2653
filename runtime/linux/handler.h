/* SPDX-License-Identifier: GPL-2.0-or-later */
/* handler.h: the path of every probe hit, inline in the family runtimes'
 * handlers (the generated translation unit), as it was when the runtime
 * was part of it: claiming the CPU's context, the global locks, running
 * the body, releasing. */
#ifndef STP_HANDLER_H
#define STP_HANDLER_H

extern struct stp_context **stp_contexts;	/* one per possible CPU (context.c) */
/* Count the handler's error against MAXERRORS (session.c). */
void stp_session_error_count(struct stp_context *c);

/* Claim this CPU's context for @p (preemption must be off). NULL when the
 * context is busy (counted as skipped) or the monitor paused @p. */
static inline struct stp_context *stp_enter(const struct stp_probe *p, s64 budget)
{
	struct stp_context *c;

	if (unlikely(stp_mon_paused(p)))	/* monitor: paused, not a hit */
		return NULL;
	c = stp_contexts[smp_processor_id()];
	if (atomic_cmpxchg(&c->busy, 0, 1) != 0) {
		stp_skipped();
		return NULL;
	}
	memset(&c->hit, 0, sizeof(c->hit));
	c->probe = p;
	c->actions = budget;
	c->entry_sp = current_stack_pointer;
	if (p->frame_size)	/* the body's variables only */
		memset(c->frames, 0, p->frame_size);
	return c;
}

static inline void stp_leave(struct stp_context *c)
{
	if (c->out_len)
		stp_flush(c);
	if (c->last_error && !c->aborted)
		stp_session_error_count(c);
	atomic_set(&c->busy, 0);
}

/* Take the locks of @p in order, each with a bounded number of tries. */
static inline bool stp_lock(const struct stp_probe *p)
{
	unsigned int i;

	for (i = 0; i < p->nlocks; i++) {
		const struct stp_lockreq *l = &p->locks[i];
		int tries = MAXTRYLOCK;

		for (;;) {
			if (l->write ? write_trylock(l->lock) : read_trylock(l->lock))
				break;
			if (--tries <= 0)
				goto fail;
			ndelay(TRYLOCKDELAY);
		}
	}
	return true;
fail:
	while (i--) {
		if (p->locks[i].write)
			write_unlock(p->locks[i].lock);
		else
			read_unlock(p->locks[i].lock);
	}
	return false;
}

static inline void stp_unlock(const struct stp_probe *p)
{
	unsigned int i = p->nlocks;

	while (i--) {
		if (p->locks[i].write)
			write_unlock(p->locks[i].lock);
		else
			read_unlock(p->locks[i].lock);
	}
}

/* Run @p's condition and body in an entered context. */
static inline void stp_run_body(struct stp_context *c, const struct stp_probe *p)
{
	if (!stp_lock(p)) {
		stp_skipped();
		return;
	}
	if (!p->cond || p->cond(c)) {
		u64 t0 = stp_mon_begin(p);

		p->body(c);
		stp_mon_end(p, t0);
	}
	stp_unlock(p);
}

#endif
