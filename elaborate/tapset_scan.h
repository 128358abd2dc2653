/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tapset_scan.h: names a tapset file may define, found without parsing. */
#ifndef ELABORATE_TAPSET_SCAN_H
#define ELABORATE_TAPSET_SCAN_H

#include <stdbool.h>
#include <stddef.h>

enum tapset_scan_kind {
	TAPSET_SCAN_FUNCTION,
	TAPSET_SCAN_GLOBAL,
	TAPSET_SCAN_ALIAS,	/* the first component of an alias name */
};

typedef void (*tapset_scan_fn)(void *ctx, enum tapset_scan_kind kind,
			       const char *name, size_t len);

/* Call @fn for each name the top level of @text[0..len) may define. A
 * superset: both arms of %( %) conditionals are scanned. */
void tapset_scan(const char *text, size_t len, tapset_scan_fn fn, void *ctx);

#endif
