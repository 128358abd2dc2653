// SPDX-License-Identifier: GPL-2.0-or-later
/* seq.c: the tables of the begin, end and error probes, in the order the
 * session runs them: by sequence number, then in script order. The
 * session runs them itself (runtime/linux/session.c: stp_run_seq). */
#include "translate/probes/probes.h"

#include <inttypes.h>
#include <stdlib.h>

#include "util/strbuf.h"

static const char *const seq_names[] = {
	[SEQ_BEGIN] = "begin", [SEQ_END] = "end", [SEQ_ERROR] = "error",
};

static int by_seq(const void *a, const void *b)
{
	const struct xl_point *x = a, *y = b;
	int64_t sx = seq_point(x->pt)->seq, sy = seq_point(y->pt)->seq;

	if (sx != sy)
		return sx < sy ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static void emit(struct xl *x, const struct xl_point *v, size_t n, struct xl_tables *t)
{
	struct xl_point *s = calloc(n, sizeof(*s));
	unsigned kind;
	size_t i, k;

	if (!s)
		abort();
	for (kind = SEQ_BEGIN; kind <= SEQ_ERROR; kind++) {
		const char *name = seq_names[kind];

		for (i = 0, k = 0; i < n; i++)
			if (seq_point(v[i].pt)->kind == kind)
				s[k++] = v[i];
		if (!k)
			continue;
		qsort(s, k, sizeof(*s), by_seq);
		sb_addf(t->out, "static const struct stp_seq_probe stp_%s_probes[] = {\n", name);
		for (i = 0; i < k; i++) {
			int64_t seq = seq_point(s[i].pt)->seq;

			/* -9223372036854775808LL is a negated literal too
			 * large for long long: spell the minimum as S64_MIN */
			if (seq == INT64_MIN)
				sb_addf(t->out, "\t{ &stp_pp%zu, S64_MIN },\n", s[i].id);
			else
				sb_addf(t->out, "\t{ &stp_pp%zu, %" PRId64 "LL },\n", s[i].id, seq);
		}
		sb_adds(t->out, "};\n\n");
		sb_addf(t->desc, "\t.%s = stp_%s_probes,\n\t.n%s = %zu,\n", name, name, name, k);
	}
	free(s);
	(void)x;
}

const struct xl_mech xl_mech_seq = { .runtime = NULL, .emit = emit };
