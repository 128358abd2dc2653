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
#include "util/vec.h"

/* A .return point's values at entry: the capture (xl_entry_capture) run
 * by an entry uprobe at the capture offset, and the function giving the
 * frame address the return will find again as its stack pointer
 * (stp_cfaN), which pairs each return with its entry; the table fields
 * "CAPTURE_OFFSET, ENTRY_FN, NSLOTS, ENTRY_PROBE, CFA_FN" in *@fields. */
static void entry_values(struct xl *x, const struct xl_point *v, struct strbuf *out,
			 const char **fields)
{
	const struct elab_point *pt = v->pt;
	const struct uprobe_point *d = uprobe_point(pt);
	const struct dw_site *s = pt->site;
	const char *capture;

	*fields = "0, NULL, 0, NULL, NULL";
	if (!s || (!s->entry_slots && !s->entry_strs))
		return;
	if (!s->entry_cfa) {
		xl_error(x, &pt->loc, NULL, "cannot pair the returns of %s with their "
			 "entries (for its values at entry): %s", pt->name,
			 s->entry_cfa_err ? s->entry_cfa_err : "not a function's return");
		return;
	}
	xl_entry_capture(x, v, out, &capture);
	sb_addf(out, "/* the frame address at the capture of %s's values at entry */\n"
		"static u64 stp_cfa%zu(struct pt_regs *stp_regs)\n{\n"
		"#undef STP_DW_REGS\n#define STP_DW_REGS stp_regs\n"
		"#define STAP_ERROR(...) return 0\n%s"
		"#undef STAP_ERROR\n"
		"#undef STP_DW_REGS\n#define STP_DW_REGS STP_DW_REGS_OF_CONTEXT\n}\n\n",
		pt->name, v->id, s->entry_cfa);
	*fields = arena_printf(x->a, "0x%" PRIx64 "ULL, %s, stp_cfa%zu", d->capture_offset,
			       capture, v->id);
}

/* The probed files, for tools that run the module elsewhere (stap
 * --remote=qemu copies them into the VM: remote.c): their paths, each
 * once, as strings in the section .stp_userfiles, which is not loaded
 * (no "a" flag). Paths with a quote, a backslash or a control character
 * are left out (the assembler's string syntax). */
static void emit_userfiles(struct xl *x, const struct xl_point *v, size_t n, struct strbuf *out)
{
	struct ptrvec seen = { 0 };
	size_t i, j;

	sb_adds(out, "asm(\".pushsection .stp_userfiles,\\\"\\\",@progbits\\n\"\n");
	for (i = 0; i < n; i++) {
		const char *p = uprobe_point(v[i].pt)->path, *q;

		for (q = p; *q && *q != '"' && *q != '\\' && (unsigned char)*q >= ' '; q++)
			;
		for (j = 0; !*q && j < seen.n && strcmp(seen.v[j], p); j++)
			;
		if (*q || j < seen.n)
			continue;
		vec_push(x->a, &seen, (void *)p);
		sb_addf(out, "    \".asciz \\\"%s\\\"\\n\"\n", p);
	}
	sb_adds(out, "    \".popsection\");\n\n");
}

static void emit(struct xl *x, const struct xl_point *v, size_t n, struct xl_tables *t)
{
	struct strbuf tab = STRBUF_INIT;
	size_t i;

	sb_adds(&tab, "static const struct stp_uprobe_probe stp_uprobes[] = {\n");
	for (i = 0; i < n; i++) {
		const struct elab_point *pt = v[i].pt;
		const struct uprobe_point *d = uprobe_point(pt);
		const char *entry;

		entry_values(x, &v[i], t->out, &entry);
		sb_addf(&tab, "\t{ &stp_pp%zu, %s, 0x%" PRIx64 "ULL, 0x%" PRIx64 "ULL, %s, %s, %s },\n",
			v[i].id, c_string(x->a, d->path, strlen(d->path)), d->offset, d->sem_offset,
			d->ret ? "true" : "false", xl_point_optional(pt) ? "true" : "false", entry);
	}
	sb_adds(&tab, "};\n\n");
	emit_userfiles(x, v, n, &tab);
	sb_addn(t->out, tab.buf, tab.len);
	sb_release(&tab);
	xl_family_use(t, "stp_uprobe_family", "stp_uprobes", n, false);
}

const struct xl_mech xl_mech_uprobe = { .runtime = "linux/uprobe.c", .emit = emit };
