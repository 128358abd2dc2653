// SPDX-License-Identifier: GPL-2.0-or-later
/* kprobe.c: the table of kprobe points (kprobe.*, and the kernel's and
 * modules' DWARF points): "MODULE:symbol"+offset or an absolute address,
 * kretprobes with maxactive, and for a .return point the code that
 * captures its entry values into the instance's data (the getters pass 2
 * wrote read them back) and the @entry body run at entry
 * (runtime/linux/kprobe.c); a kernel function entry at an ftrace call
 * site has the site's distance from &jiffies, for the one ftrace_ops that
 * takes all of them (doc/batch-registration.md). */
#include "translate/probes/probes.h"

#include <inttypes.h>
#include <string.h>

#include "elaborate/dwarf.h"
#include "util/arena.h"
#include "util/strbuf.h"

void xl_entry_capture(struct xl *x, const struct xl_point *v, struct strbuf *out,
		      const char **fields)
{
	const struct elab_point *pt = v->pt;
	const struct dw_site *s = pt->site;
	const char *fn = "NULL", *ep = "NULL";

	*fields = "NULL, 0, NULL";
	if (!s || (!s->entry_slots && !s->entry_strs))
		return;
	if (s->entry_code) {
		sb_addf(out, "/* entry values of %s */\n"
			"static void stp_entry%zu(struct pt_regs *stp_regs, u64 *slots)\n{\n"
			"#undef STP_DW_REGS\n#define STP_DW_REGS stp_regs\n%s"
			"#undef STP_DW_REGS\n"
			"#define STP_DW_REGS STP_DW_REGS_OF_CONTEXT\n}\n\n",
			pt->name, v->id, s->entry_code);
		fn = arena_printf(x->a, "stp_entry%zu", v->id);
	}
	if (s->entry_probe)
		ep = arena_printf(x->a, "&%s", xl_point_ref(x, s->entry_probe->points.v[0]));
	*fields = arena_printf(x->a, "%s, %u + %u * STP_STR_SLOTS, %s", fn,
			       s->entry_slots, s->entry_strs, ep);
}

/* The entry capture of kretprobe point @v, and the check that its values
 * fit in a kretprobe instance's data. */
static void entry_capture(struct xl *x, const struct xl_point *v, struct strbuf *out,
			  const char **fields)
{
	const struct elab_point *pt = v->pt;
	const struct dw_site *s = pt->site;

	xl_entry_capture(x, v, out, fields);
	if (!s || (!s->entry_slots && !s->entry_strs))
		return;
	/* the kernel refuses more instance data than this */
	sb_addf(out, "#ifdef KRETPROBE_MAX_DATA_SIZE\n"
		"_Static_assert((%u + %u * STP_STR_SLOTS) * 8 <= KRETPROBE_MAX_DATA_SIZE,\n"
		"\t\"the values \" %s \" captures at entry take more than "
		"KRETPROBE_MAX_DATA_SIZE bytes: capture fewer strings, or lower MAXSTRINGLEN\");\n"
		"#endif\n\n", s->entry_slots, s->entry_strs,
		c_string(x->a, pt->name, strlen(pt->name)));
}

static void emit(struct xl *x, const struct xl_point *v, size_t n, struct xl_tables *t)
{
	struct strbuf tab = STRBUF_INIT;
	bool modules = false;
	size_t i;

	sb_adds(&tab, "static const struct stp_kprobe_probe stp_kprobes[] = {\n");
	for (i = 0; i < n; i++) {
		const struct kprobe_point *d = kprobe_point(v[i].pt);
		const char *sym = "NULL", *entry;

		/* a point registered by address needs no name (a kernel
		 * point's name is in its probe's pp) */
		if (d->symbol && !d->addr_jiffies) {
			const char *s = d->module ? arena_printf(x->a, "%s:%s", d->module, d->symbol)
						  : d->symbol;

			sym = c_string(x->a, s, strlen(s));
		}
		modules |= d->module != NULL;
		entry_capture(x, &v[i], t->out, &entry);
		sb_addf(&tab, "\t{ %zu, %s, 0x%" PRIx64 "UL, 0x%" PRIx64 "UL, %s, %" PRId64
			", %s, %s, %" PRId64 "L, %" PRId64 "L, %s, %s },\n", v[i].id, sym, d->offset,
			d->symbol ? (uint64_t)0 : d->addr, d->ret ? "true" : "false",
			d->maxactive > 0 ? d->maxactive : 0,
			xl_point_optional(v[i].pt) ? "true" : "false", entry, d->fsite_jiffies,
			d->addr_jiffies, d->wildcard ? "true" : "false", d->module_init ? "true" : "false");
	}
	sb_adds(&tab, "};\n\n");
	sb_addn(t->out, tab.buf, tab.len);
	sb_release(&tab);
	xl_family_use(t, "stp_kprobe_family", "stp_kprobes", n, modules);
}

const struct xl_mech xl_mech_kprobe = { .runtime = "linux/kprobe.c", .emit = emit };
