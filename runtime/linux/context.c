// SPDX-License-Identifier: GPL-2.0-or-later
/* context.c: per-CPU contexts, entering and leaving a probe handler, and
 * run-time errors. */

static struct stp_context **stp_contexts;	/* one per possible CPU */

static int stp_contexts_init(void)
{
	unsigned int cpu;

	stp_contexts = vzalloc(sizeof(*stp_contexts) * nr_cpu_ids);
	if (!stp_contexts)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct stp_context *c = vzalloc(sizeof(*c));

		if (!c)
			return -ENOMEM;
		stp_contexts[cpu] = c;
		c->frames = vzalloc((MAXNESTING + 1) * max_t(size_t, stp_module.frame_size, 8));
		if (!c->frames)
			return -ENOMEM;
	}
	return 0;
}

static void stp_contexts_free(void)
{
	unsigned int cpu;

	if (!stp_contexts)
		return;
	for_each_possible_cpu(cpu) {
		if (stp_contexts[cpu])
			vfree(stp_contexts[cpu]->frames);
		vfree(stp_contexts[cpu]);
	}
	vfree(stp_contexts);
	stp_contexts = NULL;
}

void stp_error(struct stp_context *c, const char *msg, const char *loc)
{
	if (c->last_error)
		return;
	c->last_error = msg;
	c->error_loc = loc;
}

void stp_errorf(struct stp_context *c, const char *loc, const char *fmt, ...)
{
	va_list ap;

	if (c->last_error)
		return;
	va_start(ap, fmt);
	vsnprintf(c->error_buf, sizeof(c->error_buf), fmt, ap);
	va_end(ap);
	c->last_error = c->error_buf;
	c->error_loc = loc;
}

/* Send what the handler printed so far. */
void stp_flush(struct stp_context *c)
{
	stp_transport_write(c->out, c->out_len);
	c->out_len = 0;
}

/* Room for @n more bytes of output (flushing what is there if needed);
 * returns where to write, with at least min(n, STP_PRINT_MAX) + 1 bytes. */
char *stp_out_reserve(struct stp_context *c, size_t n)
{
	if (n > STP_PRINT_MAX)
		n = STP_PRINT_MAX;
	if (c->out_len + n + 1 > sizeof(c->out))
		stp_flush(c);
	return c->out + c->out_len;
}

static void stp_out_bytes(struct stp_context *c, const char *s, size_t n)
{
	while (n) {
		size_t room, k;

		if (c->out_len + 1 >= sizeof(c->out))
			stp_flush(c);
		room = sizeof(c->out) - 1 - c->out_len;
		k = min(n, room);
		memcpy(c->out + c->out_len, s, k);
		c->out_len += k;
		s += k;
		n -= k;
	}
}

static void stp_session_error_count(struct stp_context *c);

/* Claim this CPU's context for @p (preemption must be off). NULL when the
 * context is busy (counted as skipped). */
struct stp_context *stp_enter(const struct stp_probe *p, s64 budget)
{
	struct stp_context *c = stp_contexts[smp_processor_id()];

	if (atomic_cmpxchg(&c->busy, 0, 1) != 0) {
		stp_skipped();
		return NULL;
	}
	memset(&c->hit, 0, sizeof(c->hit));
	c->probe = p;
	c->actions = budget;
	memset(c->frames, 0, p->frame_size);	/* the body's variables only */
	return c;
}

void stp_leave(struct stp_context *c)
{
	stp_flush(c);
	if (c->last_error)
		stp_session_error_count(c);
	atomic_set(&c->busy, 0);
}

/* Take the locks of @p in order, each with a bounded number of tries. */
static bool stp_lock(const struct stp_probe *p)
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

static void stp_unlock(const struct stp_probe *p)
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
void stp_run_body(struct stp_context *c, const struct stp_probe *p)
{
	if (!stp_lock(p)) {
		stp_skipped();
		return;
	}
	if (!p->cond || p->cond(c))
		p->body(c);
	stp_unlock(p);
}

/* The common path of every handler: claim, run, release. */
void stp_run_probe(const struct stp_probe *p, struct pt_regs *regs, s64 budget)
{
	struct stp_context *c = stp_enter(p, budget);

	if (!c)
		return;
	c->regs = regs;
	stp_run_body(c, p);
	stp_leave(c);
}
