// SPDX-License-Identifier: GPL-2.0-or-later
/* globals.c: what generated code calls for arrays and statistics: map
 * accesses that report "Array overflow", and statistics kept per CPU
 * (<<< touches only the CPU's own accumulator, so it needs only a read
 * lock) and merged when read (under the global's write lock). */

long stp_array_init(struct stp_array *a, const struct stp_map_desc *d,
		    const char *overflow)
{
	a->m = stp_map_alloc(d);
	a->overflow = overflow;
	return a->m ? 0 : -ENOMEM;
}

static struct stp_map_entry *stp_array_slot(struct stp_context *c,
					    struct stp_array *a,
					    const union stp_arg *k, const char *loc)
{
	struct stp_map_entry *e = stp_map_insert(a->m, k);

	if (!e)
		stp_error(c, a->overflow, loc);
	return e;
}

s64 stp_array_get_long(struct stp_array *a, const union stp_arg *k)
{
	struct stp_map_entry *e = stp_map_find(a->m, k);

	return e ? *stp_entry_long(a->m, e) : 0;
}

/* Copies into @dst (MAXSTRINGLEN): the value may move once the map changes. */
char *stp_array_get_str(struct stp_array *a, const union stp_arg *k, char *dst)
{
	struct stp_map_entry *e = stp_map_find(a->m, k);

	return stp_strcpy(dst, e ? stp_entry_string(a->m, e) : "");
}

s64 stp_array_set_long(struct stp_context *c, struct stp_array *a,
		       const union stp_arg *k, s64 v, const char *loc)
{
	struct stp_map_entry *e = stp_array_slot(c, a, k, loc);

	if (e)
		*stp_entry_long(a->m, e) = v;
	return v;
}

/* a[k] += v (and ++, --): the new value. */
s64 stp_array_add_long(struct stp_context *c, struct stp_array *a,
		       const union stp_arg *k, s64 v, const char *loc)
{
	struct stp_map_entry *e = stp_array_slot(c, a, k, loc);

	if (!e)
		return 0;
	*stp_entry_long(a->m, e) = (s64)((u64)*stp_entry_long(a->m, e) + (u64)v);
	return *stp_entry_long(a->m, e);
}

const char *stp_array_set_str(struct stp_context *c, struct stp_array *a,
			      const union stp_arg *k, const char *v,
			      const char *loc)
{
	struct stp_map_entry *e = stp_array_slot(c, a, k, loc);

	if (e)
		stp_strcpy(stp_entry_string(a->m, e), v);
	return v;
}

bool stp_array_exists(struct stp_array *a, const union stp_arg *k)
{
	return stp_map_find(a->m, k) != NULL;
}

long stp_pstat_init(struct stp_pstat *s, const struct stp_stat_desc *d)
{
	unsigned int cpu;

	s->d = *d;
	if (stp_stat_desc_init(&s->d))
		return -EINVAL;
	s->cpu = stp_vzalloc(sizeof(*s->cpu) * nr_cpu_ids);
	s->agg = stp_vzalloc(stp_stat_size(&s->d));
	if (!s->cpu || !s->agg)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		s->cpu[cpu] = stp_vzalloc(stp_stat_size(&s->d));
		if (!s->cpu[cpu])
			return -ENOMEM;
	}
	return 0;
}

void stp_pstat_free(struct stp_pstat *s)
{
	unsigned int cpu;

	if (s->cpu)
		for_each_possible_cpu(cpu)
			vfree(s->cpu[cpu]);
	vfree(s->cpu);
	vfree(s->agg);
}

void stp_pstat_add(struct stp_pstat *s, s64 v)
{
	stp_stat_add(s->cpu[smp_processor_id()], &s->d, v);
}

struct stp_stat *stp_pstat_get(struct stp_pstat *s)
{
	unsigned int cpu;

	stp_stat_clear(s->agg, &s->d);
	for_each_possible_cpu(cpu)
		stp_stat_merge(s->agg, s->cpu[cpu], &s->d);
	return s->agg;
}

void stp_pstat_clear(struct stp_pstat *s)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		stp_stat_clear(s->cpu[cpu], &s->d);
}

long stp_pmap_init(struct stp_pmap *p, const struct stp_map_desc *md,
		   const struct stp_stat_desc *sd, const char *overflow)
{
	struct stp_map_desc d = *md;
	unsigned int cpu;

	p->d = *sd;
	p->overflow = overflow;
	if (stp_stat_desc_init(&p->d))
		return -EINVAL;
	d.val_type = STP_STAT;
	d.stat_size = (u32)stp_stat_size(&p->d);
	p->cpu = stp_vzalloc(sizeof(*p->cpu) * nr_cpu_ids);
	p->agg = stp_map_alloc(&d);
	p->one = stp_vzalloc(stp_stat_size(&p->d));
	if (!p->cpu || !p->agg || !p->one)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		p->cpu[cpu] = stp_map_alloc(&d);
		if (!p->cpu[cpu])
			return -ENOMEM;
	}
	return 0;
}

void stp_pmap_free(struct stp_pmap *p)
{
	unsigned int cpu;

	if (p->cpu)
		for_each_possible_cpu(cpu)
			stp_map_free(p->cpu[cpu]);
	vfree(p->cpu);
	vfree(p->one);
	stp_map_free(p->agg);
}

void stp_pmap_add(struct stp_context *c, struct stp_pmap *p,
		  const union stp_arg *k, s64 v, const char *loc)
{
	struct stp_map *m = p->cpu[smp_processor_id()];
	struct stp_map_entry *e = stp_map_insert(m, k);

	if (!e) {
		stp_error(c, p->overflow, loc);
		return;
	}
	stp_stat_add(stp_entry_stat(m, e), &p->d, v);
}

/* Merge every CPU's map into p->agg (in CPU order, each in its order). */
struct stp_map *stp_pmap_agg(struct stp_pmap *p)
{
	union stp_arg keys[STP_MAP_MAX_KEYS];
	unsigned int cpu, i;

	stp_map_clear(p->agg);
	for_each_possible_cpu(cpu) {
		struct stp_map *m = p->cpu[cpu];
		const struct stp_map_desc *md = stp_map_desc_of(m);
		struct stp_map_entry **v;
		u32 n, j;

		v = stp_map_sorted(m, 0, 1, 0, &n);
		for (j = 0; j < n; j++) {
			struct stp_map_entry *e;

			for (i = 0; i < md->nkeys; i++) {
				if (md->key_type[i] == STP_STRING)
					keys[i].s = stp_entry_key_string(m, v[j], i);
				else
					keys[i].n = stp_entry_key_long(m, v[j], i);
			}
			e = stp_map_insert(p->agg, keys);
			if (e)
				stp_stat_merge(stp_entry_stat(p->agg, e),
					       stp_entry_stat(m, v[j]), &p->d);
		}
	}
	return p->agg;
}

/* The merged statistic at @k, or NULL when no CPU has it: each CPU's
 * entry for @k only (a lookup per CPU, not a merge of the whole array). */
struct stp_stat *stp_pmap_get(struct stp_pmap *p, const union stp_arg *k)
{
	unsigned int cpu;
	bool found = false;

	stp_stat_clear(p->one, &p->d);
	for_each_possible_cpu(cpu) {
		struct stp_map_entry *e = stp_map_find(p->cpu[cpu], k);

		if (e) {
			stp_stat_merge(p->one, stp_entry_stat(p->cpu[cpu], e), &p->d);
			found = true;
		}
	}
	return found ? p->one : NULL;
}

bool stp_pmap_exists(struct stp_pmap *p, const union stp_arg *k)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		if (stp_map_find(p->cpu[cpu], k))
			return true;
	return false;
}

void stp_pmap_delete(struct stp_pmap *p, const union stp_arg *k)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		stp_map_delete(p->cpu[cpu], k);
}

bool stp_pmap_any_match(struct stp_pmap *p, const union stp_arg *k, u32 mask)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		if (stp_map_any_match(p->cpu[cpu], k, mask))
			return true;
	return false;
}

void stp_pmap_delete_matching(struct stp_pmap *p, const union stp_arg *k, u32 mask)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		stp_map_delete_matching(p->cpu[cpu], k, mask);
}

void stp_pmap_clear(struct stp_pmap *p)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		stp_map_clear(p->cpu[cpu]);
}

/* @count etc. of a merged statistic (NULL: empty). */
s64 stp_stat_op(struct stp_context *c, const struct stp_stat *s,
		const struct stp_stat_desc *d, int op, const char *loc)
{
	if (op == 'c')
		return s ? s->count : 0;
	if (op == 's')
		return s ? s->sum : 0;
	if (!s || !s->count) {
		stp_error(c, "empty aggregate", loc);
		return 0;
	}
	switch (op) {
	case 'm':
		return s->min;
	case 'M':
		return s->max;
	case 'a':
		return stp_stat_avg(s);
	case 'v':
		return stp_stat_variance(s, d);
	}
	return 0;
}
