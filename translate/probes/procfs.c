// SPDX-License-Identifier: GPL-2.0-or-later
/* procfs.c: the table of procfs files: one entry per path with its .read
 * point, the list of its .write points (stp_procfs_wN[]: a script may
 * have several), the read buffer's size and the file mode
 * (runtime/linux/procfs.c). */
#include "translate/probes/probes.h"

#include <inttypes.h>
#include <string.h>

#include "util/arena.h"
#include "util/strbuf.h"

/* Is v[i] the first point on its path? */
static bool first_of_path(const struct xl_point *v, size_t i)
{
	size_t j;

	for (j = 0; j < i; j++)
		if (!strcmp(procfs_point(v[j].pt)->path, procfs_point(v[i].pt)->path))
			return false;
	return true;
}

static void emit(struct xl *x, const struct xl_point *v, size_t n, struct xl_tables *t)
{
	size_t i, j, k = 0;

	/* the .write probes of each path, in script order */
	for (i = 0; i < n; i++) {
		const char *sep = "";

		if (!first_of_path(v, i))
			continue;
		sb_addf(t->out, "static const struct stp_probe *const stp_procfs_w%zu[] = {", i);
		for (j = i; j < n; j++) {
			const struct procfs_point *q = procfs_point(v[j].pt);

			if (q->write && !strcmp(q->path, procfs_point(v[i].pt)->path)) {
				sb_addf(t->out, "%s &stp_pp%zu", sep, v[j].id);
				sep = ",";
			}
		}
		sb_adds(t->out, *sep ? " };\n" : " NULL };\n");
	}
	sb_adds(t->out, "static const struct stp_procfs_probe stp_procfs[] = {\n");
	for (i = 0; i < n; i++) {
		const struct procfs_point *d = procfs_point(v[i].pt);
		const struct xl_point *rd = NULL;
		int64_t maxsize = 0, umask = -1;
		unsigned mode, nwr = 0;

		if (!first_of_path(v, i))
			continue;
		for (j = i; j < n; j++) {
			const struct procfs_point *q = procfs_point(v[j].pt);

			if (strcmp(q->path, d->path))
				continue;
			if (q->write)
				nwr++;
			if (!q->write && !rd)
				rd = &v[j];
			if (q->maxsize > maxsize)
				maxsize = q->maxsize;
			if (q->umask >= 0)
				umask = q->umask;
		}
		mode = (rd ? 0400u : 0u) | (nwr ? 0200u : 0u);	/* root's only */
		if (umask >= 0)
			mode &= ~(unsigned)umask;
		sb_addf(t->out, "\t{ %s, stp_procfs_w%zu, %u, %s, 0%o, %s },\n",
			rd ? arena_printf(x->a, "&stp_pp%zu", rd->id) : "NULL", i, nwr,
			c_string(x->a, d->path, strlen(d->path)), mode,
			maxsize > 0 ? arena_printf(x->a, "%" PRId64, maxsize) : "STP_PROCFS_BUFSIZE");
		k++;
	}
	sb_adds(t->out, "};\n\n");
	xl_family_use(t, "stp_procfs_family", "stp_procfs", k, false);
}

const struct xl_mech xl_mech_procfs = { .runtime = "linux/procfs.c", .emit = emit };
