/* SPDX-License-Identifier: GPL-2.0-or-later */
/* intern.h: interned strings; equal strings share one pointer. */
#ifndef UTIL_INTERN_H
#define UTIL_INTERN_H

#include <stddef.h>

struct arena;
struct interner;

/* A table whose strings and buckets live in @a. */
struct interner *intern_new(struct arena *a);

/* The unique NUL-terminated copy of @s[0..n). Never NULL. */
const char *intern_n(struct interner *in, const char *s, size_t n);
const char *intern(struct interner *in, const char *s);
/* Room for @n more strings without growing the table again (old tables
 * stay in the arena: growing once for a known count wastes less). */
void intern_reserve(struct interner *in, size_t n);

#endif
