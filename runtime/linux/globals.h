/* SPDX-License-Identifier: GPL-2.0-or-later */
/* globals.h: arrays and statistics of script globals (globals.c). */
#ifndef STP_GLOBALS_H
#define STP_GLOBALS_H

/* An array global (long or string values). */
struct stp_array {
	struct stp_map *m;
	const char *overflow;	/* "Array overflow, check ..." */
};

/* A statistic (scalar): one accumulator per CPU plus the merged one. */
struct stp_pstat {
	struct stp_stat_desc d;
	struct stp_stat **cpu;
	struct stp_stat *agg;
};

/* A statistics array: one map per CPU plus the merged map. */
struct stp_pmap {
	struct stp_stat_desc d;
	struct stp_map **cpu;
	struct stp_map *agg;		/* all keys merged: foreach */
	struct stp_stat *one;		/* one key merged: @count(a[k]) */
	const char *overflow;
};

/* Each is described at its definition in globals.c. */
long stp_array_init(struct stp_array *a, const struct stp_map_desc *d,
		    const char *overflow);
s64 stp_array_get_long(struct stp_array *a, const union stp_arg *k);
char *stp_array_get_str(struct stp_array *a, const union stp_arg *k, char *dst);
s64 stp_array_set_long(struct stp_context *c, struct stp_array *a,
		       const union stp_arg *k, s64 v, const char *loc);
s64 stp_array_add_long(struct stp_context *c, struct stp_array *a,
		       const union stp_arg *k, s64 v, const char *loc);
const char *stp_array_set_str(struct stp_context *c, struct stp_array *a,
			      const union stp_arg *k, const char *v,
			      const char *loc);
bool stp_array_exists(struct stp_array *a, const union stp_arg *k);
long stp_pstat_init(struct stp_pstat *s, const struct stp_stat_desc *d);
void stp_pstat_free(struct stp_pstat *s);
void stp_pstat_add(struct stp_pstat *s, s64 v);
struct stp_stat *stp_pstat_get(struct stp_pstat *s);
void stp_pstat_clear(struct stp_pstat *s);
long stp_pmap_init(struct stp_pmap *p, const struct stp_map_desc *md,
		   const struct stp_stat_desc *sd, const char *overflow);
void stp_pmap_free(struct stp_pmap *p);
void stp_pmap_add(struct stp_context *c, struct stp_pmap *p,
		  const union stp_arg *k, s64 v, const char *loc);
struct stp_map *stp_pmap_agg(struct stp_pmap *p);
struct stp_stat *stp_pmap_get(struct stp_pmap *p, const union stp_arg *k);
bool stp_pmap_exists(struct stp_pmap *p, const union stp_arg *k);
void stp_pmap_delete(struct stp_pmap *p, const union stp_arg *k);
bool stp_pmap_any_match(struct stp_pmap *p, const union stp_arg *k, u32 mask);
void stp_pmap_delete_matching(struct stp_pmap *p, const union stp_arg *k, u32 mask);
void stp_pmap_clear(struct stp_pmap *p);
s64 stp_stat_op(struct stp_context *c, const struct stp_stat *s,
		const struct stp_stat_desc *d, int op, const char *loc);

#endif
