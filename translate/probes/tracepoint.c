// SPDX-License-Identifier: GPL-2.0-or-later
/* tracepoint.c: the table of kernel.trace points, each with a generated
 * callback of the tracepoint's arity that hands its arguments (as u64)
 * to the runtime (runtime/linux/tracepoint.c: stp_trace_hit). */
#include "translate/probes/probes.h"

#include <string.h>

#include "util/strbuf.h"

static void emit(struct xl *x, const struct xl_point *v, size_t n, struct xl_tables *t)
{
	struct strbuf tab = STRBUF_INIT;
	unsigned a;
	size_t i;

	sb_adds(&tab, "static const struct stp_trace_probe stp_traces[] = {\n");
	for (i = 0; i < n; i++) {
		const struct tracepoint_point *d = tracepoint_point(v[i].pt);

		sb_addf(t->out, "static void stp_tpfn%zu(void *data", v[i].id);
		for (a = 0; a < d->nargs; a++)
			sb_addf(t->out, ", u64 a%u", a);
		sb_addf(t->out, ")\n{\n\tu64 args[%u] = { 0", d->nargs + 1);
		for (a = 0; a < d->nargs; a++)
			sb_addf(t->out, ", a%u", a);
		sb_adds(t->out, " };\n\n\tstp_trace_hit(data, args + 1);\n}\n\n");
		sb_addf(&tab, "\t{ &stp_pp%zu, %s, (void *)stp_tpfn%zu, %s },\n", v[i].id,
			c_string(x->a, d->name, strlen(d->name)), v[i].id,
			xl_point_optional(v[i].pt) ? "true" : "false");
	}
	sb_adds(&tab, "};\n\n");
	sb_addn(t->out, tab.buf, tab.len);
	sb_release(&tab);
	xl_family_use(t, "stp_tracepoint_family", "stp_traces", n, false);
}

const struct xl_mech xl_mech_tracepoint = { .runtime = "linux/tracepoint.c", .emit = emit };
