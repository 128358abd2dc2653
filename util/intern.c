// SPDX-License-Identifier: GPL-2.0-or-later
/* intern.c: open-addressing hash set of strings, FNV-1a hashed. */
#include "util/intern.h"

#include <stdint.h>
#include <string.h>

#include "util/arena.h"

struct islot {
	const char *s;
	size_t len;
	uint32_t hash;
};

struct interner {
	struct arena *arena;
	struct islot *slots;
	size_t cap;	/* power of two */
	size_t count;
};

static uint32_t fnv1a(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	return h;
}

struct interner *intern_new(struct arena *a)
{
	struct interner *in = arena_new_obj(a, struct interner);

	in->arena = a;
	in->cap = 1024;
	in->slots = arena_new_array(a, struct islot, in->cap);
	return in;
}

static void intern_grow_to(struct interner *in, size_t ncap)
{
	size_t i;
	struct islot *ns = arena_new_array(in->arena, struct islot, ncap);

	for (i = 0; i < in->cap; i++) {
		struct islot *o = &in->slots[i];
		size_t j;

		if (!o->s)
			continue;
		for (j = o->hash & (ncap - 1); ns[j].s; j = (j + 1) & (ncap - 1))
			;
		ns[j] = *o;
	}
	in->slots = ns;
	in->cap = ncap;
}

static void intern_grow(struct interner *in)
{
	intern_grow_to(in, in->cap * 2);
}

void intern_reserve(struct interner *in, size_t n)
{
	size_t ncap = in->cap;

	while ((in->count + n) * 2 >= ncap)
		ncap *= 2;
	if (ncap != in->cap)
		intern_grow_to(in, ncap);
}

const char *intern_n(struct interner *in, const char *s, size_t n)
{
	uint32_t h = fnv1a(s, n);
	size_t j;

	if (in->count * 2 >= in->cap)
		intern_grow(in);
	for (j = h & (in->cap - 1); in->slots[j].s; j = (j + 1) & (in->cap - 1)) {
		struct islot *sl = &in->slots[j];

		if (sl->hash == h && sl->len == n && !memcmp(sl->s, s, n))
			return sl->s;
	}
	in->slots[j].s = arena_strndup(in->arena, s, n);
	in->slots[j].len = n;
	in->slots[j].hash = h;
	in->count++;
	return in->slots[j].s;
}

const char *intern(struct interner *in, const char *s)
{
	return intern_n(in, s, strlen(s));
}
