// SPDX-License-Identifier: GPL-2.0-or-later
/* strlcpy(): up to 6.7 (6.8 removed it for strscpy()). */
#include <linux/string.h>

size_t stp_ac_test(char *dst, const char *src);
size_t stp_ac_test(char *dst, const char *src)
{
	return strlcpy(dst, src, 8);
}
