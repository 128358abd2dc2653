// SPDX-License-Identifier: GPL-2.0-or-later
/* uprobe.c: the table of uprobe points (process(...).function/statement
 * and their .return, .mark): the file as the target names it, the offset
 * in it, an SDT semaphore's offset, uprobe or uretprobe
 * (runtime/linux/uprobe.c). */
#include "translate/probes/probes.h"

#include <inttypes.h>
#include <string.h>

#include "elaborate/dwarf.h"
#include "util/arena.h"
#include "util/strbuf.h"

static void emit(struct xl *x, const struct xl_point *v, size_t n, struct xl_tables *t)
{
	struct strbuf tab = STRBUF_INIT;
	size_t i;

	sb_adds(&tab, "static const struct stp_uprobe_probe stp_uprobes[] = {\n");
	for (i = 0; i < n; i++) {
		const struct elab_point *pt = v[i].pt;
		const struct uprobe_point *d = uprobe_point(pt);
		const struct dw_site *s = pt->site;

		/* a uretprobe has no per-instance data to keep entry values in */
		if (s && (s->entry_slots || s->entry_strs || s->entry_probe))
			xl_error(x, &pt->loc, NULL, "parameters and @entry(...) in "
				 "process(...).return probes are not yet supported "
				 "(values at entry): %s", pt->name);
		sb_addf(&tab, "\t{ &stp_pp%zu, %s, 0x%" PRIx64 "ULL, 0x%" PRIx64 "ULL, %s, %s },\n",
			v[i].id, c_string(x->a, d->path, strlen(d->path)), d->offset, d->sem_offset,
			d->ret ? "true" : "false", xl_point_optional(pt) ? "true" : "false");
	}
	sb_adds(&tab, "};\n\n");
	sb_addn(t->out, tab.buf, tab.len);
	sb_release(&tab);
	xl_family_use(t, "stp_uprobe_family", "stp_uprobes", n, false);
}

const struct xl_mech xl_mech_uprobe = { .runtime = "linux/uprobe.c", .emit = emit };
