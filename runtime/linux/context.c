// SPDX-License-Identifier: GPL-2.0-or-later
/* context.c: per-CPU contexts, entering and leaving a probe handler, and
 * run-time errors. */

struct stp_context **stp_contexts;	/* one per possible CPU */

static int stp_contexts_init(void)
{
	unsigned int cpu;

	stp_contexts = stp_vzalloc(sizeof(*stp_contexts) * nr_cpu_ids);
	if (!stp_contexts)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct stp_context *c = stp_vzalloc(sizeof(*c));

		if (!c)
			return -ENOMEM;
		stp_contexts[cpu] = c;
		c->frames = stp_vzalloc((MAXNESTING + 1) * max_t(size_t, stp_module.frame_size, 8));
		if (!c->frames)
			return -ENOMEM;
		if (stp_module.re_caps_size) {
			c->re_caps = stp_vzalloc(stp_module.re_caps_size);
			if (!c->re_caps)
				return -ENOMEM;
		}
	}
	return 0;
}

static void stp_contexts_free(void)
{
	unsigned int cpu;

	if (!stp_contexts)
		return;
	for_each_possible_cpu(cpu) {
		if (stp_contexts[cpu]) {
			vfree(stp_contexts[cpu]->frames);
			vfree(stp_contexts[cpu]->re_caps);
		}
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
