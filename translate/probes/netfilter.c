// SPDX-License-Identifier: GPL-2.0-or-later
/* netfilter.c: the table of netfilter hooks: protocol family, hook number
 * and priority of each point, as C (runtime/linux/netfilter.c registers
 * them in every network namespace). */
#include "translate/probes/probes.h"

#include "util/strbuf.h"

static void emit(struct xl *x, const struct xl_point *v, size_t n, struct xl_tables *t)
{
	size_t i;

	(void)x;
	sb_adds(t->out, "static const struct stp_nf_probe stp_nf_probes[] = {\n");
	for (i = 0; i < n; i++) {
		const struct netfilter_point *d = netfilter_point(v[i].pt);

		sb_addf(t->out, "\t{ &stp_pp%zu, (%s), (%s), (%s), %s },\n", v[i].id,
			d->pf, d->hook, d->priority,
			xl_point_optional(v[i].pt) ? "true" : "false");
	}
	sb_adds(t->out, "};\n\n");
	xl_family_use(t, "stp_netfilter_family", "stp_nf_probes", n, false);
}

const struct xl_mech xl_mech_netfilter = { .runtime = "linux/netfilter.c", .emit = emit };
