// SPDX-License-Identifier: GPL-2.0-or-later
/* print.c: the print family for generated code. printf formats with the
 * translator's piece tables (format.c) straight into the handler's output
 * buffer; sprintf into a string value. One printf produces at most
 * STP_PRINT_MAX bytes, as in the reference. */

void stp_printf(struct stp_context *c, const struct stp_fmt_piece *p,
		unsigned int n, const union stp_arg *args)
{
	char *at = stp_out_reserve(c, STP_PRINT_MAX);
	int len = stp_format(at, STP_PRINT_MAX + 1, p, n, args, stp_read_kernel);

	if (len < 0) {
		stp_error(c, "kernel memory read fault in printf", NULL);
		return;
	}
	c->out_len += (size_t)len;
}

/* sprintf into @dst (MAXSTRINGLEN bytes); returns dst. */
char *stp_sprintf(struct stp_context *c, char *dst,
		  const struct stp_fmt_piece *p, unsigned int n,
		  const union stp_arg *args)
{
	if (stp_format(dst, MAXSTRINGLEN, p, n, args, stp_read_kernel) < 0) {
		stp_error(c, "kernel memory read fault in sprintf", NULL);
		dst[0] = '\0';
	}
	return dst;
}

void stp_print_str(struct stp_context *c, const char *s)
{
	stp_out_bytes(c, s, strlen(s));
}

void stp_print_long(struct stp_context *c, s64 v)
{
	char buf[24];
	int n = snprintf(buf, sizeof(buf), "%lld", (long long)v);

	stp_out_bytes(c, buf, (size_t)n);
}

static void stp_print_char(struct stp_context *c, char ch)
{
	stp_out_bytes(c, &ch, 1);
}

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

/* STAP_PRINTF in embedded C: a C format. */
void stp_cprintf(struct stp_context *c, const char *fmt, ...)
{
	char *at = stp_out_reserve(c, STP_PRINT_MAX);
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(at, STP_PRINT_MAX + 1, fmt, ap);
	va_end(ap);
	if (n > 0)
		c->out_len += min_t(size_t, (size_t)n, STP_PRINT_MAX);
}
