// SPDX-License-Identifier: GPL-2.0-or-later
/* printf.c: printf and sprintf of generated code, formatting with the
 * translator's piece tables (format.c) straight into the handler's output
 * buffer or into a string value. One printf produces at most
 * STP_PRINT_MAX bytes, as in the reference. A part of its own of the
 * runtime (runtime.c): linked into the modules that print with a format. */

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
