// SPDX-License-Identifier: GPL-2.0-or-later
/* map.c: preallocated associative arrays: a pool of fixed-size entries
 * (keys then value, laid out at init), hash chains, an insertion-order list
 * (oldest first: iteration order and wrap eviction) and a sort array for
 * foreach. Every loop is bounded by the map's capacity. */
#include "map.h"

struct stp_map_entry {
	struct stp_map_entry *hnext;		/* hash chain */
	struct stp_map_entry *older, *newer;	/* insertion order */
	u64 hash;
	u64 pos;				/* place in the list: ties (u64 keeps data[] 8-aligned) */
	char data[];				/* keys, then the value */
};

_Static_assert(sizeof(struct stp_map_entry) % 8 == 0,
	       "entry data must stay 8-byte aligned for its s64 slots");

struct stp_map {
	struct stp_map_desc d;
	u32 off[STP_MAP_MAX_KEYS + 1];		/* keys; [nkeys] = the value */
	size_t esize;
	u32 nbuckets;				/* power of two */
	struct stp_map_entry **buckets;
	char *pool;
	struct stp_map_entry *free;
	struct stp_map_entry *oldest, *newest;
	u32 n;
	struct stp_map_entry **iter;		/* foreach order, iter_slots arrays */
};

static size_t slot_size(const struct stp_map_desc *d, u8 type)
{
	if (type == STP_STAT)
		return (d->stat_size + 7) & ~(size_t)7;
	return type == STP_STRING ? MAXSTRINGLEN : sizeof(s64);
}

static struct stp_map_entry *entry_at(const struct stp_map *m, u32 i)
{
	return (struct stp_map_entry *)(m->pool + (size_t)i * m->esize);
}

struct stp_map *stp_map_alloc(const struct stp_map_desc *d)
{
	struct stp_map *m;
	size_t off = 0;
	u32 i;

	if (d->nkeys > STP_MAP_MAX_KEYS || !d->max_entries)
		return NULL;
	m = stp_zalloc(sizeof(*m));
	if (!m)
		return NULL;
	m->d = *d;
	for (i = 0; i < d->nkeys; i++) {
		m->off[i] = (u32)off;
		off += slot_size(d, d->key_type[i]);
	}
	m->off[d->nkeys] = (u32)off;
	off += slot_size(d, d->val_type);
	m->esize = (sizeof(struct stp_map_entry) + off + 7) & ~(size_t)7;
	for (m->nbuckets = 16; m->nbuckets < d->max_entries; m->nbuckets <<= 1)
		;
	m->buckets = stp_zalloc(m->nbuckets * sizeof(*m->buckets));
	m->pool = stp_zalloc(m->esize * d->max_entries);
	m->iter = stp_zalloc((size_t)d->max_entries * (d->iter_slots ? d->iter_slots : 1) *
			     sizeof(*m->iter));
	if (!m->buckets || !m->pool || !m->iter) {
		stp_map_free(m);
		return NULL;
	}
	stp_map_clear(m);
	return m;
}

void stp_map_free(struct stp_map *m)
{
	if (!m)
		return;
	stp_free(m->buckets);
	stp_free(m->pool);
	stp_free(m->iter);
	stp_free(m);
}

void stp_map_clear(struct stp_map *m)
{
	u32 i;

	memset(m->buckets, 0, m->nbuckets * sizeof(*m->buckets));
	m->free = NULL;
	for (i = m->d.max_entries; i-- > 0;) {
		struct stp_map_entry *e = entry_at(m, i);

		e->hnext = m->free;
		m->free = e;
	}
	m->oldest = m->newest = NULL;
	m->n = 0;
}

u32 stp_map_size(const struct stp_map *m)
{
	return m->n;
}

const struct stp_map_desc *stp_map_desc_of(const struct stp_map *m)
{
	return &m->d;
}

/* Stored strings keep MAXSTRINGLEN - 1 bytes; keys compare the same way. */
static size_t key_len(const char *s)
{
	size_t n = 0;

	while (n < MAXSTRINGLEN - 1 && s[n])
		n++;
	return n;
}

static u64 hash_keys(const struct stp_map *m, const union stp_arg *keys)
{
	u64 h = 0xcbf29ce484222325ULL;	/* FNV-1a */
	u32 i;
	size_t j, n;

	for (i = 0; i < m->d.nkeys; i++) {
		const unsigned char *p;

		if (m->d.key_type[i] == STP_STRING) {
			p = (const unsigned char *)(keys[i].s ? keys[i].s : "");
			n = key_len((const char *)p);
		} else {
			p = (const unsigned char *)&keys[i].n;
			n = sizeof(keys[i].n);
		}
		for (j = 0; j < n; j++)
			h = (h ^ p[j]) * 0x100000001b3ULL;
		h = (h ^ 0xff) * 0x100000001b3ULL;	/* key separator */
	}
	return h;
}

static bool same_keys(const struct stp_map *m, const struct stp_map_entry *e,
		      const union stp_arg *keys)
{
	u32 i;

	for (i = 0; i < m->d.nkeys; i++) {
		const char *slot = e->data + m->off[i];

		if (m->d.key_type[i] == STP_STRING) {
			const char *k = keys[i].s ? keys[i].s : "";
			size_t n = key_len(k);

			if (strncmp(slot, k, n) || slot[n])
				return false;
		} else if (*(const s64 *)slot != keys[i].n) {
			return false;
		}
	}
	return true;
}

static struct stp_map_entry *find_hashed(struct stp_map *m, u64 h,
					 const union stp_arg *keys)
{
	struct stp_map_entry *e = m->buckets[h & (m->nbuckets - 1)];

	for (; e; e = e->hnext)
		if (e->hash == h && same_keys(m, e, keys))
			return e;
	return NULL;
}

struct stp_map_entry *stp_map_find(struct stp_map *m, const union stp_arg *keys)
{
	return find_hashed(m, hash_keys(m, keys), keys);
}

static void unlink_entry(struct stp_map *m, struct stp_map_entry *e)
{
	struct stp_map_entry **pp = &m->buckets[e->hash & (m->nbuckets - 1)];

	while (*pp != e)
		pp = &(*pp)->hnext;
	*pp = e->hnext;
	if (e->older)
		e->older->newer = e->newer;
	else
		m->oldest = e->newer;
	if (e->newer)
		e->newer->older = e->older;
	else
		m->newest = e->older;
	e->hnext = m->free;
	m->free = e;
	m->n--;
}

struct stp_map_entry *stp_map_insert(struct stp_map *m, const union stp_arg *keys)
{
	u64 h = hash_keys(m, keys);	/* once: this runs in probe handlers */
	struct stp_map_entry *e = find_hashed(m, h, keys);
	u32 i;

	if (e)
		return e;
	if (!m->free) {
		if (!m->d.wrap)
			return NULL;
		unlink_entry(m, m->oldest);
	}
	e = m->free;
	m->free = e->hnext;
	memset(e->data, 0, m->esize - sizeof(*e));
	for (i = 0; i < m->d.nkeys; i++) {
		char *slot = e->data + m->off[i];

		if (m->d.key_type[i] == STP_STRING) {
			const char *k = keys[i].s ? keys[i].s : "";

			memcpy(slot, k, key_len(k));
		} else {
			*(s64 *)slot = keys[i].n;
		}
	}
	e->hash = h;
	e->hnext = m->buckets[h & (m->nbuckets - 1)];
	m->buckets[h & (m->nbuckets - 1)] = e;
	e->older = m->newest;
	e->newer = NULL;
	if (m->newest)
		m->newest->newer = e;
	else
		m->oldest = e;
	m->newest = e;
	m->n++;
	return e;
}

void stp_map_delete(struct stp_map *m, const union stp_arg *keys)
{
	struct stp_map_entry *e = stp_map_find(m, keys);

	if (e)
		unlink_entry(m, e);
}

s64 *stp_entry_long(const struct stp_map *m, struct stp_map_entry *e)
{
	return (s64 *)(e->data + m->off[m->d.nkeys]);
}

char *stp_entry_string(const struct stp_map *m, struct stp_map_entry *e)
{
	return e->data + m->off[m->d.nkeys];
}

struct stp_stat *stp_entry_stat(const struct stp_map *m, struct stp_map_entry *e)
{
	return (struct stp_stat *)(e->data + m->off[m->d.nkeys]);
}

s64 stp_entry_key_long(const struct stp_map *m, const struct stp_map_entry *e,
		       unsigned int i)
{
	return *(const s64 *)(e->data + m->off[i]);
}

const char *stp_entry_key_string(const struct stp_map *m,
				 const struct stp_map_entry *e, unsigned int i)
{
	return e->data + m->off[i];
}

bool stp_entry_matches(const struct stp_map *m, const struct stp_map_entry *e,
		       const union stp_arg *keys, u32 mask)
{
	u32 i;

	for (i = 0; i < m->d.nkeys; i++) {
		if (!(mask & (1u << i)))
			continue;
		if (m->d.key_type[i] == STP_STRING) {
			const char *k = keys[i].s ? keys[i].s : "";

			if (strncmp(e->data + m->off[i], k, MAXSTRINGLEN - 1))
				return false;
		} else if (*(const s64 *)(e->data + m->off[i]) != keys[i].n) {
			return false;
		}
	}
	return true;
}

bool stp_map_any_match(const struct stp_map *m, const union stp_arg *keys, u32 mask)
{
	const struct stp_map_entry *e;
	u32 n = 0;

	for (e = m->oldest; e && n < m->d.max_entries; e = e->newer, n++)
		if (stp_entry_matches(m, e, keys, mask))
			return true;
	return false;
}

void stp_map_delete_matching(struct stp_map *m, const union stp_arg *keys, u32 mask)
{
	struct stp_map_entry *e, *next;
	u32 n = 0;

	for (e = m->oldest; e && n < m->d.max_entries; e = next, n++) {
		next = e->newer;
		if (stp_entry_matches(m, e, keys, mask))
			unlink_entry(m, e);
	}
}

/* The statistic a value sort of a statistics array compares: @by -1
 * @count, -2 @sum, -3 @min, -4 @max, -5 @avg (see map.h). */
static s64 stat_sort_value(const struct stp_stat *st, int by)
{
	switch (by) {
	case -2: return st->sum;
	case -3: return st->min;
	case -4: return st->max;
	case -5: return st->count ? st->sum / st->count : 0;
	default: return st->count;
	}
}

/* <0, 0, >0 as @a sorts before, with, after @b in the requested order. */
static int compare(const struct stp_map *m, const struct stp_map_entry *a,
		   const struct stp_map_entry *b, int by, int dir)
{
	u32 slot = by < 0 ? m->d.nkeys : (u32)(by - 1);
	u8 type = by < 0 ? m->d.val_type : m->d.key_type[slot];
	const char *x = a->data + m->off[slot], *y = b->data + m->off[slot];
	int c;

	if (type == STP_STRING) {
		c = strncmp(x, y, MAXSTRINGLEN);
	} else if (type == STP_STAT) {
		s64 u = stat_sort_value((const struct stp_stat *)x, by);
		s64 v = stat_sort_value((const struct stp_stat *)y, by);

		c = u < v ? -1 : u > v;
	} else {
		s64 u = *(const s64 *)x, v = *(const s64 *)y;

		c = u < v ? -1 : u > v;
	}
	if (c)
		return dir < 0 ? -c : c;
	return a->pos < b->pos ? -1 : a->pos > b->pos;	/* stable */
}

static void sift_down(struct stp_map *m, struct stp_map_entry **v, u32 root,
		      u32 n, int by, int dir)
{
	for (;;) {
		u32 child = 2 * root + 1;
		struct stp_map_entry *t;

		if (child >= n)
			return;
		if (child + 1 < n && compare(m, v[child], v[child + 1], by, dir) < 0)
			child++;
		if (compare(m, v[root], v[child], by, dir) >= 0)
			return;
		t = v[root];
		v[root] = v[child];
		v[child] = t;
		root = child;
	}
}

struct stp_map_entry **stp_map_sorted(struct stp_map *m, int by, int dir,
				      s64 limit, u32 *n)
{
	return stp_map_sorted_slot(m, 0, by, dir, limit, n);
}

struct stp_map_entry **stp_map_sorted_slot(struct stp_map *m, unsigned int slot,
					   int by, int dir, s64 limit, u32 *n)
{
	struct stp_map_entry **v, *e, *t;
	u32 count = 0, i;

	if (slot >= (m->d.iter_slots ? m->d.iter_slots : 1))
		slot = 0;
	v = m->iter + (size_t)slot * m->d.max_entries;
	for (e = m->oldest; e && count < m->d.max_entries; e = e->newer) {
		e->pos = count;
		v[count++] = e;
	}
	if (by && (by < 0 || (u32)by <= m->d.nkeys) && count > 1 &&
	    (by >= -1 || m->d.val_type == STP_STAT)) {
		for (i = count / 2; i-- > 0;)
			sift_down(m, v, i, count, by, dir);
		for (i = count; i-- > 1;) {
			t = v[0];
			v[0] = v[i];
			v[i] = t;
			sift_down(m, v, 0, i, by, dir);
		}
		/* As in the reference, a sort reorders the array itself:
		 * later unsorted loops (and ties of later sorts) follow it. */
		for (i = 0; i < count; i++) {
			v[i]->older = i ? v[i - 1] : NULL;
			v[i]->newer = i + 1 < count ? v[i + 1] : NULL;
		}
		m->oldest = v[0];
		m->newest = v[count - 1];
	}
	if (limit > 0 && (u64)limit < count)
		count = (u32)limit;
	*n = count;
	return v;
}
