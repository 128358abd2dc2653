/* SPDX-License-Identifier: GPL-2.0-or-later */
/* map.h: the script language's associative arrays for the kernel runtime:
 * preallocated at module init (no allocation in probe context), keyed by
 * tuples of longs and strings, with long or string values; bounded
 * capacity (MAXMAPENTRIES or the declared size), wrapping arrays (a%)
 * evict the oldest entry. Locking is the caller's (the translator takes
 * the global's lock around each use). */
#ifndef STP_MAP_H
#define STP_MAP_H

#include "format.h"
#include "stat.h"
#include "stp_types.h"

#ifndef MAXSTRINGLEN
#define MAXSTRINGLEN 512
#endif
#define STP_MAP_MAX_KEYS 32

/* STP_STAT: values only, a statistics accumulator of stat_size bytes
 * (zeroed = empty); sorting by value sorts by @count. */
enum stp_type { STP_LONG, STP_STRING, STP_STAT };

struct stp_map_desc {
	u8 nkeys;
	u8 key_type[STP_MAP_MAX_KEYS];	/* enum stp_type */
	u8 val_type;			/* enum stp_type */
	u32 stat_size;			/* STP_STAT values: stp_stat_size() */
	u32 max_entries;
	bool wrap;			/* a%: evict the oldest when full */
	u8 iter_slots;			/* foreach loops over it nested at once (0: 1) */
};

struct stp_map_entry;
struct stp_map;

/* At module init (may sleep): a map for @d, or NULL without memory. */
struct stp_map *stp_map_alloc(const struct stp_map_desc *d);
void stp_map_free(struct stp_map *m);

/* The entry for @keys, or NULL. Strings in @keys are compared up to
 * MAXSTRINGLEN - 1 bytes, as stored. */
struct stp_map_entry *stp_map_find(struct stp_map *m, const union stp_arg *keys);
/* The entry for @keys, created (value 0 / "") when absent. NULL when the
 * map is full and does not wrap: the caller reports "Array overflow". */
struct stp_map_entry *stp_map_insert(struct stp_map *m, const union stp_arg *keys);
/* Remove the entry for @keys, if any. */
void stp_map_delete(struct stp_map *m, const union stp_arg *keys);
void stp_map_clear(struct stp_map *m);
u32 stp_map_size(const struct stp_map *m);
const struct stp_map_desc *stp_map_desc_of(const struct stp_map *m);

/* The value and keys of an entry. */
s64 *stp_entry_long(const struct stp_map *m, struct stp_map_entry *e);
char *stp_entry_string(const struct stp_map *m, struct stp_map_entry *e);
struct stp_stat *stp_entry_stat(const struct stp_map *m, struct stp_map_entry *e);
s64 stp_entry_key_long(const struct stp_map *m, const struct stp_map_entry *e,
		       unsigned int i);
const char *stp_entry_key_string(const struct stp_map *m,
				 const struct stp_map_entry *e, unsigned int i);

/* Array slices (a[k, *]): does @e have the keys of @keys at the positions
 * whose bit is set in @mask? */
bool stp_entry_matches(const struct stp_map *m, const struct stp_map_entry *e,
		       const union stp_arg *keys, u32 mask);
/* Is there an entry matching (see above)? */
bool stp_map_any_match(const struct stp_map *m, const union stp_arg *keys, u32 mask);
/* Delete every matching entry. */
void stp_map_delete_matching(struct stp_map *m, const union stp_arg *keys, u32 mask);

/* foreach: the entries in order into the map's own iteration array, which
 * is returned with its length in *@n. A sort reorders the map itself (as
 * the reference does): plain iteration then follows the last sort, and
 * ties keep their current order. @by is 0 for the current order, -1 for
 * the value (a statistics array's @count; -2 @sum, -3 @min, -4 @max, -5
 * @avg), i + 1 for key i; @dir is +1 ascending or -1 descending;
 * @limit > 0 keeps that many. No allocation; O(n log n) heap sort. The
 * array is valid until the next call or change of the map. */
struct stp_map_entry **stp_map_sorted(struct stp_map *m, int by, int dir,
				      s64 limit, u32 *n);
/* The same into iteration array @slot (< iter_slots): a foreach nested in
 * another over the same map uses its own array, so the outer loop keeps
 * its order. */
struct stp_map_entry **stp_map_sorted_slot(struct stp_map *m, unsigned int slot,
					   int by, int dir, s64 limit, u32 *n);

#endif
