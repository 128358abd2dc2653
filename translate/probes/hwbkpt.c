// SPDX-License-Identifier: GPL-2.0-or-later
/* hwbkpt.c: the table of kernel.data watchpoints: each one's length,
 * access kind and a function giving its address at run time (a symbol's
 * address moves with KASLR; runtime/linux/hwbkpt.c). */
#include "translate/probes/probes.h"

#include "util/strbuf.h"

static void emit(struct xl *x, const struct xl_point *v, size_t n, struct xl_tables *t)
{
	struct strbuf tab = STRBUF_INIT;
	size_t i;

	sb_adds(&tab, "static const struct stp_hwbkpt_probe stp_hwbkpts[] = {\n");
	for (i = 0; i < n; i++) {
		const struct hwbkpt_point *d = hwbkpt_point(v[i].pt);

		sb_addf(t->out, "static unsigned long stp_hwaddr%zu(void)\n{\n"
			"\treturn (unsigned long)(%s);\n}\n\n", v[i].id, d->addr_expr);
		sb_addf(&tab, "\t{ &stp_pp%zu, stp_hwaddr%zu, %u, %s, %s },\n", v[i].id,
			v[i].id, d->len, d->write ? "true" : "false",
			xl_point_optional(v[i].pt) ? "true" : "false");
	}
	sb_adds(&tab, "};\n\n");
	sb_addn(t->out, tab.buf, tab.len);
	sb_release(&tab);
	xl_family_use(t, "stp_hwbkpt_family", "stp_hwbkpts", n, false);
	(void)x;
}

const struct xl_mech xl_mech_hwbkpt = { .runtime = "linux/hwbkpt.c", .emit = emit };
