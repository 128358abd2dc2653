// SPDX-License-Identifier: GPL-2.0-or-later
/* syscall.c: the table of system-call points: each one's number (-1 for
 * every call) and whether it fires at the return; the runtime dispatches
 * by number from one callback per raw_syscalls tracepoint
 * (runtime/linux/syscall.c); and the target kernel's names of the calls
 * by number, as pass 2 read them from its <asm/unistd_64.h>. */
#include "translate/probes/probes.h"

#include "util/strbuf.h"

/* The target kernel's names of the calls, by number (syscall_name()), at
 * file scope before the functions that read them, so they are known from
 * the first begin probe on. */
void xl_syscall_names(struct xl *x, const char *const *names, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	if (x->sc_names_done)
		return;
	x->sc_names_done = true;
	sb_adds(&sb, "static const char *const stp_syscall_names[] = {\n");
	for (i = 0; i < n; i++)
		if (names[i])
			sb_addf(&sb, "\t[%zu] = \"%s\",\n", i, names[i]);
	sb_adds(&sb, "\tNULL\n};\n#include \"linux/sc_names.h\"");
	em_head(x, "%s", sb_str(&sb));
	sb_release(&sb);
}

static void emit(struct xl *x, const struct xl_point *v, size_t n, struct xl_tables *t)
{
	size_t i;

	/* every point has the same table */
	xl_syscall_names(x, syscall_point(v[0].pt)->names, syscall_point(v[0].pt)->nnames);
	sb_adds(t->out, "static const struct stp_syscall_probe stp_syscall_points[] = {\n");
	for (i = 0; i < n; i++) {
		const struct syscall_point *d = syscall_point(v[i].pt);

		sb_addf(t->out, "\t{ &stp_pp%zu, %d, %s, %s },\n", v[i].id, d->nr,
			d->ret ? "true" : "false",
			xl_point_optional(v[i].pt) ? "true" : "false");
	}
	sb_adds(t->out, "};\n\n");
	xl_family_use(t, "stp_syscall_family", "stp_syscall_points", n, false);
	(void)x;
}

const struct xl_mech xl_mech_syscall = { .runtime = "linux/syscall.c", .emit = emit };
