// SPDX-License-Identifier: GPL-2.0-or-later
/* arena.c: bump allocator made of a chain of large chunks. */
#include "util/arena.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARENA_CHUNK (64 * 1024)
#define ARENA_ALIGN 16

struct chunk {
	struct chunk *next;
	size_t size;
	size_t used;
	unsigned char data[] __attribute__((aligned(ARENA_ALIGN)));
};

struct arena {
	struct chunk *head;
	size_t total;
};

static void *xmalloc(size_t n)
{
	void *p = malloc(n);

	if (!p) {
		fputs("stap: out of memory\n", stderr);
		abort();
	}
	return p;
}

struct arena *arena_new(void)
{
	struct arena *a = xmalloc(sizeof(*a));

	a->head = NULL;
	a->total = 0;
	return a;
}

void arena_free(struct arena *a)
{
	struct chunk *c, *next;

	if (!a)
		return;
	for (c = a->head; c; c = next) {
		next = c->next;
		free(c);
	}
	free(a);
}

static struct chunk *arena_new_chunk(struct arena *a, size_t need)
{
	size_t size = need > ARENA_CHUNK ? need : ARENA_CHUNK;
	struct chunk *c = xmalloc(sizeof(*c) + size);

	c->size = size;
	c->used = 0;
	/* A big one-off block goes behind the head so the head keeps its room. */
	if (a->head && need > ARENA_CHUNK) {
		c->next = a->head->next;
		a->head->next = c;
	} else {
		c->next = a->head;
		a->head = c;
	}
	return c;
}

void *arena_alloc(struct arena *a, size_t size)
{
	struct chunk *c = a->head;
	size_t off;
	void *p;

	size = (size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
	if (!size)
		size = ARENA_ALIGN;
	if (!c || c->size - c->used < size)
		c = arena_new_chunk(a, size);
	off = c->used;
	c->used += size;
	a->total += size;
	p = c->data + off;
	memset(p, 0, size);
	return p;
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *arena_printf(struct arena *a, const char *fmt, ...)
{
	va_list ap;
	int n;
	char *p;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	p = arena_alloc(a, (size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

void *arena_grow(struct arena *a, void *v, size_t n, size_t *cap, size_t size)
{
	void *nv;

	if (n < *cap)
		return v;
	*cap = *cap ? *cap * 2 : 8;
	nv = arena_alloc(a, *cap * size);
	if (n)
		memcpy(nv, v, n * size);
	return nv;
}

size_t arena_used(const struct arena *a)
{
	return a->total;
}
