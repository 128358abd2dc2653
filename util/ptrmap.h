/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ptrmap.h: hash maps from pointers (syntax-tree nodes, interned names) to
 * pointers: the side tables of the passes. Storage lives in an arena. */
#ifndef UTIL_PTRMAP_H
#define UTIL_PTRMAP_H

#include <stddef.h>

struct arena;

struct ptrmap_slot {
	const void *key;
	void *val;
};

struct ptrmap {
	struct ptrmap_slot *slots;
	size_t cap;		/* power of two, or 0 */
	size_t n;
};

/* Value stored for @key, or NULL. */
void *ptrmap_get(const struct ptrmap *m, const void *key);
/* Store @val for @key (replacing any value); @key must not be NULL. */
void ptrmap_put(struct arena *a, struct ptrmap *m, const void *key, void *val);
/* Room for @n more keys without growing the table again. */
void ptrmap_reserve(struct arena *a, struct ptrmap *m, size_t n);

struct ptrvec;

/* The vector stored for @key, created empty on first use: maps from a
 * name to several things. */
struct ptrvec *ptrmap_list(struct arena *a, struct ptrmap *m, const void *key);
/* Append every key of @m to @out (in no particular order). */
void ptrmap_keys(struct arena *a, const struct ptrmap *m, struct ptrvec *out);

#endif
