// SPDX-License-Identifier: GPL-2.0-or-later
/* print.c: the print family for generated code: values and C formats into
 * the handler's output buffer. printf and sprintf are in printf.c,
 * print(@hist_...) in print_hist.c. */

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
