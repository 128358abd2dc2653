// SPDX-License-Identifier: GPL-2.0-or-later
/* ptrmap.c: open-addressing pointer hash maps. */
#include "util/ptrmap.h"

#include <stdint.h>

#include "util/arena.h"
#include "util/vec.h"

static size_t hash_ptr(const void *p)
{
	uint64_t x = (uint64_t)(uintptr_t)p;

	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return (size_t)x;
}

static struct ptrmap_slot *find(struct ptrmap_slot *slots, size_t cap,
				const void *key)
{
	size_t i = hash_ptr(key) & (cap - 1);

	while (slots[i].key && slots[i].key != key)
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

void *ptrmap_get(const struct ptrmap *m, const void *key)
{
	if (!m->cap)
		return NULL;
	return find(m->slots, m->cap, key)->val;
}

static void grow_to(struct arena *a, struct ptrmap *m, size_t ncap)
{
	struct ptrmap_slot *ns = arena_new_array(a, struct ptrmap_slot, ncap);
	size_t i;

	for (i = 0; i < m->cap; i++)
		if (m->slots[i].key)
			*find(ns, ncap, m->slots[i].key) = m->slots[i];
	m->slots = ns;
	m->cap = ncap;
}

void ptrmap_reserve(struct arena *a, struct ptrmap *m, size_t n)
{
	size_t ncap = m->cap ? m->cap : 16;

	while ((m->n + n) * 2 > ncap)
		ncap *= 2;
	if (ncap != m->cap)
		grow_to(a, m, ncap);
}

void ptrmap_put(struct arena *a, struct ptrmap *m, const void *key, void *val)
{
	struct ptrmap_slot *s;

	if ((m->n + 1) * 2 > m->cap)
		grow_to(a, m, m->cap ? m->cap * 2 : 16);
	s = find(m->slots, m->cap, key);
	if (!s->key) {
		s->key = key;
		m->n++;
	}
	s->val = val;
}

struct ptrvec *ptrmap_list(struct arena *a, struct ptrmap *m, const void *key)
{
	struct ptrvec *v = ptrmap_get(m, key);

	if (!v) {
		v = arena_new_obj(a, struct ptrvec);
		ptrmap_put(a, m, key, v);
	}
	return v;
}

void ptrmap_keys(struct arena *a, const struct ptrmap *m, struct ptrvec *out)
{
	size_t i;

	for (i = 0; i < m->cap; i++)
		if (m->slots[i].key)
			vec_push(a, out, (void *)m->slots[i].key);
}
