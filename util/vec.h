/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vec.h: growable arrays of pointers whose storage lives in an arena. */
#ifndef UTIL_VEC_H
#define UTIL_VEC_H

#include <stddef.h>
#include <string.h>

#include "util/arena.h"

struct ptrvec {
	void **v;
	size_t n;
	size_t cap;
};

/* Append @p; old storage is abandoned to the arena (freed with it). */
static inline void vec_push(struct arena *a, struct ptrvec *vec, void *p)
{
	if (vec->n == vec->cap) {
		size_t cap = vec->cap ? vec->cap * 2 : 4;
		void **nv = arena_alloc(a, cap * sizeof(*nv));

		if (vec->n)
			memcpy(nv, vec->v, vec->n * sizeof(*nv));
		vec->v = nv;
		vec->cap = cap;
	}
	vec->v[vec->n++] = p;
}

#define vec_at(vec, i, type) ((type)(vec)->v[i])

#endif
