// SPDX-License-Identifier: GPL-2.0-or-later
/* strings.c: bounded string values (see strings.h). */
#include "strings.h"

char *stp_strcpy(char *dst, const char *src)
{
	size_t n = 0;

	if (dst == src) {
		dst[MAXSTRINGLEN - 1] = '\0';
		return dst;
	}
	while (n < MAXSTRINGLEN - 1 && src[n]) {
		dst[n] = src[n];
		n++;
	}
	dst[n] = '\0';
	return dst;
}

char *stp_strcat(char *dst, const char *a, const char *b)
{
	size_t n = 0;

	if (dst != a)
		stp_strcpy(dst, a);
	while (n < MAXSTRINGLEN - 1 && dst[n])
		n++;
	while (n < MAXSTRINGLEN - 1 && *b)
		dst[n++] = *b++;
	dst[n] = '\0';
	return dst;
}

char *stp_ltoa(char *dst, s64 v)
{
	char tmp[24];
	char *p = tmp + sizeof(tmp);
	u64 u = v < 0 ? -(u64)v : (u64)v;

	*--p = '\0';
	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		*--p = '-';
	return stp_strcpy(dst, p);
}
