// SPDX-License-Identifier: GPL-2.0-or-later
/* tracepoint.c: kernel.trace probes. Each probe's generated callback
 * (translate/probes/tracepoint.c) has the tracepoint's signature with every argument
 * as a u64 and hands them to stp_trace_hit() as an array, which the
 * body's $var getters read (CONTEXT->tp_args). The struct tracepoint is
 * found by name with for_each_kernel_tracepoint(), since most
 * __tracepoint_NAME symbols are not exported to modules. */

/* A point, in the generated table stp_traces[]. */
struct stp_trace_probe {
	const struct stp_probe *probe;
	const char *name;		/* the tracepoint's name */
	void *fn;			/* the generated callback */
	bool optional;
};

struct stp_trace_state {
	struct tracepoint *tp;
	const struct stp_trace_probe *d;
	bool registered;
};

static struct stp_trace_state *stp_tps;
static unsigned int stp_tp_n;

static void stp_trace_hit(void *data, u64 *args)
{
	struct stp_trace_state *s = data;
	struct stp_context *c;

	if (!stp_running())
		return;
	c = stp_enter(s->d->probe, MAXACTION_INTERRUPTIBLE);
	if (!c)
		return;
	c->tp_args = args;
	stp_run_body(c, s->d->probe);
	stp_leave(c);
}

static void stp_trace_find(struct tracepoint *tp, void *priv)
{
	unsigned int i;

	(void)priv;
	for (i = 0; i < stp_tp_n; i++)
		if (!stp_tps[i].tp && !strcmp(tp->name, stp_tps[i].d->name))
			stp_tps[i].tp = tp;
}

static int stp_traces_start(const void *table, unsigned int n)
{
	const struct stp_trace_probe *v = table;
	unsigned int i;
	int rc;

	stp_tp_n = n;
	stp_tps = stp_vzalloc(sizeof(*stp_tps) * n);
	if (!stp_tps)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		stp_tps[i].d = &v[i];
	for_each_kernel_tracepoint(stp_trace_find, NULL);
	for (i = 0; i < n; i++) {
		struct stp_trace_state *s = &stp_tps[i];

		rc = s->tp ? STP_FAULT_RC("tracepoint registration",
					   tracepoint_probe_register(s->tp, s->d->fn, s)) : -ENOENT;
		s->registered = rc == 0;
		rc = stp_registered(s->d->probe, s->d->optional, rc,
				    s->tp ? "" : ": no such tracepoint");
		if (rc)
			return rc;
	}
	return 0;
}

static void stp_traces_stop(void)
{
	unsigned int i;
	bool any = false;

	if (!stp_tps)
		return;
	for (i = 0; i < stp_tp_n; i++) {
		if (stp_tps[i].registered) {
			tracepoint_probe_unregister(stp_tps[i].tp, stp_tps[i].d->fn, &stp_tps[i]);
			stp_tps[i].registered = false;
			any = true;
		}
	}
	if (any)
		tracepoint_synchronize_unregister();
	vfree(stp_tps);
	stp_tps = NULL;
}

static const struct stp_family stp_tracepoint_family = {
	.name = "tracepoint",
	.start = stp_traces_start,
	.stop = stp_traces_stop,
};
