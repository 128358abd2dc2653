/* SPDX-License-Identifier: GPL-2.0-or-later */
/* print.h: the print family for generated code (print.c). */
#ifndef STP_PRINT_H
#define STP_PRINT_H

/* Each is described at its definition in print.c. */
void stp_printf(struct stp_context *c, const struct stp_fmt_piece *p,
		unsigned int n, const union stp_arg *args);
/* sprintf into @dst (MAXSTRINGLEN bytes); returns dst. */
char *stp_sprintf(struct stp_context *c, char *dst,
		  const struct stp_fmt_piece *p, unsigned int n,
		  const union stp_arg *args);
void stp_print_str(struct stp_context *c, const char *s);
void stp_print_long(struct stp_context *c, s64 v);
/* print(@hist_log(s)) etc.: the text goes straight to the output. */
void stp_print_hist(struct stp_context *c, const struct stp_stat *s,
		    const struct stp_stat_desc *d, const char *loc);
/* STAP_PRINTF in embedded C: a C format. */
void stp_cprintf(struct stp_context *c, const char *fmt, ...) __printf(2, 3);

#endif
