// SPDX-License-Identifier: GPL-2.0-or-later
/* proclife.c: the table of process lifecycle points: each one's event
 * (begin, end, thread begin, thread end) and its filter, a program path
 * or a pid (runtime/linux/proclife.c). */
#include "translate/probes/probes.h"

#include <inttypes.h>
#include <string.h>

#include "util/arena.h"
#include "util/strbuf.h"

static void emit(struct xl *x, const struct xl_point *v, size_t n, struct xl_tables *t)
{
	static const char *const kinds[] = {
		[PL_BEGIN] = "STP_PL_BEGIN", [PL_END] = "STP_PL_END",
		[PL_THREAD_BEGIN] = "STP_PL_THREAD_BEGIN",
		[PL_THREAD_END] = "STP_PL_THREAD_END",
		[PL_SYSCALL] = "STP_PL_SYSCALL",
		[PL_SYSCALL_RETURN] = "STP_PL_SYSCALL_RETURN",
	};
	size_t i;

	sb_adds(t->out, "static const struct stp_proclife_probe stp_proclife_points[] = {\n");
	for (i = 0; i < n; i++) {
		const struct proclife_point *d = proclife_point(v[i].pt);

		sb_addf(t->out, "\t{ &stp_pp%zu, %s, %s, %" PRId64 ", %s },\n", v[i].id,
			kinds[d->kind],
			d->path ? c_string(x->a, d->path, strlen(d->path)) : "NULL",
			d->pid, xl_point_optional(v[i].pt) ? "true" : "false");
	}
	sb_adds(t->out, "};\n\n");
	xl_family_use(t, "stp_proclife_family", "stp_proclife_points", n, false);
}

const struct xl_mech xl_mech_proclife = { .runtime = "linux/proclife.c", .emit = emit };
