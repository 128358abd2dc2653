/* SPDX-License-Identifier: GPL-2.0-or-later */
/* strings.h: string values of the script language: NUL-terminated, at
 * most MAXSTRINGLEN - 1 bytes, silently cut beyond (as in the reference). */
#ifndef STP_STRINGS_H
#define STP_STRINGS_H

#include "stp_types.h"

#ifndef MAXSTRINGLEN
#define MAXSTRINGLEN 512
#endif

/* dst = src, cut to MAXSTRINGLEN - 1 bytes; dst and src may be equal. */
char *stp_strcpy(char *dst, const char *src);
/* dst = a . b (dst must not overlap b; it may be a). */
char *stp_strcat(char *dst, const char *a, const char *b);
/* dst = decimal text of v. */
char *stp_ltoa(char *dst, s64 v);

#endif
