/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vec.h: growable arrays of pointers whose storage lives in an arena. */
#ifndef UTIL_VEC_H
#define UTIL_VEC_H

#include <stddef.h>

#include "util/arena.h"

struct ptrvec {
	void **v;
	size_t n;
	size_t cap;
};

/* Append @p; old storage is abandoned to the arena (freed with it). */
static inline void vec_push(struct arena *a, struct ptrvec *vec, void *p)
{
	vec->v = arena_grow(a, vec->v, vec->n, &vec->cap, sizeof(*vec->v));
	vec->v[vec->n++] = p;
}

/* Append every element of @src to @dst. */
static inline void vec_append(struct arena *a, struct ptrvec *dst,
			      const struct ptrvec *src)
{
	size_t i;

	for (i = 0; i < src->n; i++)
		vec_push(a, dst, src->v[i]);
}

/* Sort the strings of @vec (const char *) and drop repeats; the new
 * count (vec.c). */
size_t vec_sort_unique_str(struct ptrvec *vec);
/* Sort the @n strings of @v (strcmp order). */
void strs_sort(char **v, size_t n);

#endif
