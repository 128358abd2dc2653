// SPDX-License-Identifier: GPL-2.0-or-later
/* print_hist.c: printing a histogram (hist.c) from generated code; with
 * hist.c a part of its own of the runtime (runtime.c). */

/* print(@hist_log(s)) etc.: the text goes straight to the output. */
void stp_print_hist(struct stp_context *c, const struct stp_stat *s,
		    const struct stp_stat_desc *d, const char *loc)
{
	static const size_t room = STP_OUT_SIZE - 1;
	int n;

	if (!s || !s->count) {
		stp_error(c, "empty aggregate", loc);
		return;
	}
	stp_flush(c);
	n = stp_hist_format(c->out, room + 1, s, d, HIST_ELISION);
	if (n < 0) {
		stp_error(c, "empty aggregate", loc);
		return;
	}
	c->out_len = (size_t)n;
}
