/* SPDX-License-Identifier: GPL-2.0-or-later */
/* similar.h: "did you mean" suggestions by edit distance. */
#ifndef UTIL_SIMILAR_H
#define UTIL_SIMILAR_H

#include <stddef.h>

struct arena;

/* " (similar: a, b, c)" naming up to five of the @n names in @cands closest
 * to @name (close enough to be a plausible typo), or "" when none is.
 * Duplicates in @cands are listed once; @name itself is not listed. */
const char *similar_names(struct arena *a, const char *name,
			  const char *const *cands, size_t n);

#endif
