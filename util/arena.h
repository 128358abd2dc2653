/* SPDX-License-Identifier: GPL-2.0-or-later */
/* arena.h: one bump allocator per translation; everything is freed at once. */
#ifndef UTIL_ARENA_H
#define UTIL_ARENA_H

#include <stddef.h>

struct arena;

/* Create an empty arena. Aborts on out-of-memory (the translator cannot
 * continue without memory, and callers need not check). */
struct arena *arena_new(void);

/* Release every allocation made from @a, then @a itself. NULL is a no-op. */
void arena_free(struct arena *a);

/* Zeroed, 16-byte aligned memory owned by @a. */
void *arena_alloc(struct arena *a, size_t size);

/* Copy of @n bytes of @s plus a terminating NUL, owned by @a. */
char *arena_strndup(struct arena *a, const char *s, size_t n);

/* printf into arena memory. */
char *arena_printf(struct arena *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Room for one more element in the arena array @v of @n elements of
 * @size bytes and capacity *@cap: when full, a copy twice as large (the
 * old one is left to the arena). Returns the array to use from now on. */
void *arena_grow(struct arena *a, void *v, size_t n, size_t *cap, size_t size);

/* Bytes handed out so far (for -v statistics). */
size_t arena_used(const struct arena *a);

#define arena_new_obj(a, type) ((type *)arena_alloc((a), sizeof(type)))
#define arena_new_array(a, type, n) ((type *)arena_alloc((a), sizeof(type) * (n)))

#endif
