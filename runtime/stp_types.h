/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stp_types.h: the few types and helpers the runtime uses, from the kernel
 * when built as a module, from libc when built in user space (unit tests
 * of the runtime run there, see testsuite/unit/runtime_*_test.c). */
#ifndef STP_TYPES_H
#define STP_TYPES_H

#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/vmalloc.h>
#include "linux/fault.h"
/* Module init and exit only: never in probe context. */
#define stp_zalloc(size) stp_vzalloc(size)
#define stp_free(p) vfree(p)
#else
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#define stp_zalloc(size) calloc(1, (size))
#define stp_free(p) free(p)
typedef int64_t s64;
typedef uint64_t u64;
typedef int16_t s16;
typedef uint32_t u32;
typedef uint16_t u16;
typedef uint8_t u8;
#endif

/* strlcpy() as BSD has it: @src's length returned, @dst cut to @size - 1
 * bytes and terminated (kernels from 6.8 have none, runtime.h). */
static inline size_t stp_strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);

	if (size) {
		size_t n = len < size - 1 ? len : size - 1;

		memcpy(dst, src, n);
		dst[n] = '\0';
	}
	return len;
}

#endif
