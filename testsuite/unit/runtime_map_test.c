// SPDX-License-Identifier: GPL-2.0-or-later
/* runtime_map_test.c: the runtime's associative arrays (runtime/map.c),
 * built in user space: insert/find/delete, tuple keys, capacity and
 * overflow, wrapping arrays, foreach orders and limits, long string keys.
 * Prints a line per failure and "N passed, N failed". */
#include <stdio.h>
#include <string.h>

#include "runtime/map.h"
#include "testsuite/unit/check.h"


static struct stp_map *long_map(u32 max, bool wrap)
{
	struct stp_map_desc d = { .nkeys = 1, .val_type = STP_LONG,
				  .max_entries = max, .wrap = wrap };

	d.key_type[0] = STP_LONG;
	return stp_map_alloc(&d);
}

static void test_basic(void)
{
	struct stp_map *m = long_map(4, false);
	union stp_arg k[1];
	struct stp_map_entry *e;
	int i;

	CHECK(m && stp_map_size(m) == 0);
	k[0].n = 7;
	CHECK(stp_map_find(m, k) == NULL);
	e = stp_map_insert(m, k);
	CHECK(e && *stp_entry_long(m, e) == 0);
	*stp_entry_long(m, e) += 5;
	CHECK(stp_map_insert(m, k) == e && *stp_entry_long(m, stp_map_find(m, k)) == 5);
	for (i = 0; i < 3; i++) {
		k[0].n = 100 + i;
		CHECK(stp_map_insert(m, k) != NULL);
	}
	k[0].n = 999;
	CHECK(stp_map_insert(m, k) == NULL);	/* full: Array overflow */
	CHECK(stp_map_size(m) == 4);
	k[0].n = 7;
	stp_map_delete(m, k);
	CHECK(stp_map_find(m, k) == NULL && stp_map_size(m) == 3);
	k[0].n = 999;
	CHECK(stp_map_insert(m, k) != NULL);	/* room again */
	stp_map_clear(m);
	CHECK(stp_map_size(m) == 0 && stp_map_find(m, k) == NULL);
	stp_map_free(m);
}

static void test_wrap(void)
{
	struct stp_map *m = long_map(3, true);
	union stp_arg k[1];
	struct stp_map_entry **v;
	u32 n, i;
	int ok = 1;

	for (i = 0; i < 5; i++) {
		k[0].n = i;
		ok &= stp_map_insert(m, k) != NULL;
	}
	CHECK(ok);
	/* a%[3] after keys 0..4 holds 2, 3, 4 (reference behaviour) */
	v = stp_map_sorted(m, 1, 1, 0, &n);
	CHECK(n == 3);
	for (i = 0; i < n && i < 3; i++)
		CHECK(stp_entry_key_long(m, v[i], 0) == (s64)(i + 2));
	stp_map_free(m);
}

static void test_tuples_and_order(void)
{
	struct stp_map_desc d = { .nkeys = 2, .val_type = STP_STRING,
				  .max_entries = 16 };
	static const char *const names[] = { "pear", "apple", "fig", "apple" };
	struct stp_map *m;
	struct stp_map_entry **v;
	union stp_arg k[2];
	u32 n, i;

	d.key_type[0] = STP_STRING;
	d.key_type[1] = STP_LONG;
	m = stp_map_alloc(&d);
	for (i = 0; i < 4; i++) {
		struct stp_map_entry *e;

		k[0].s = names[i];
		k[1].n = i;
		e = stp_map_insert(m, k);
		snprintf(stp_entry_string(m, e), MAXSTRINGLEN, "v%u", 9 - i);
	}
	CHECK(stp_map_size(m) == 4);	/* ("apple",1) != ("apple",3) */
	k[0].s = "apple";
	k[1].n = 3;
	CHECK(stp_map_find(m, k) && !strcmp(stp_entry_string(m, stp_map_find(m, k)), "v6"));
	v = stp_map_sorted(m, 0, 1, 0, &n);	/* insertion order */
	CHECK(n == 4 && !strcmp(stp_entry_key_string(m, v[0], 0), "pear"));
	v = stp_map_sorted(m, 1, 1, 0, &n);	/* by key 0, ties in insertion order */
	CHECK(!strcmp(stp_entry_key_string(m, v[0], 0), "apple") &&
	      stp_entry_key_long(m, v[0], 1) == 1 && stp_entry_key_long(m, v[1], 1) == 3);
	CHECK(!strcmp(stp_entry_key_string(m, v[3], 0), "pear"));
	v = stp_map_sorted(m, 2, -1, 0, &n);	/* by key 1 descending */
	CHECK(stp_entry_key_long(m, v[0], 1) == 3 && stp_entry_key_long(m, v[3], 1) == 0);
	v = stp_map_sorted(m, -1, 1, 2, &n);	/* by value, limit 2 */
	CHECK(n == 2 && !strcmp(stp_entry_string(m, v[0]), "v6") &&
	      !strcmp(stp_entry_string(m, v[1]), "v7"));
	v = stp_map_sorted(m, 0, 1, 0, &n);	/* the sort reordered the map */
	CHECK(n == 4 && !strcmp(stp_entry_string(m, v[0]), "v6") &&
	      !strcmp(stp_entry_string(m, v[3]), "v9"));
	stp_map_free(m);
}

static void test_long_strings(void)
{
	struct stp_map_desc d = { .nkeys = 1, .val_type = STP_LONG, .max_entries = 4 };
	static char a[2000], b[2000];
	struct stp_map *m;
	union stp_arg k[1];

	d.key_type[0] = STP_STRING;
	m = stp_map_alloc(&d);
	memset(a, 'x', sizeof(a) - 1);
	memcpy(b, a, sizeof(b));
	b[1500] = 'y';		/* differs only beyond MAXSTRINGLEN - 1 */
	k[0].s = a;
	CHECK(stp_map_insert(m, k) != NULL);
	k[0].s = b;
	CHECK(stp_map_find(m, k) != NULL);	/* stored keys are truncated */
	CHECK(strlen(stp_entry_key_string(m, stp_map_find(m, k), 0)) == MAXSTRINGLEN - 1);
	k[0].s = NULL;
	CHECK(stp_map_insert(m, k) != NULL && stp_map_size(m) == 2);	/* NULL is "" */
	stp_map_free(m);
}

static void test_sort_large(void)
{
	struct stp_map *m = long_map(5000, false);
	struct stp_map_entry **v;
	union stp_arg k[1];
	u32 n, i;
	int ok = 1;

	for (i = 0; i < 5000; i++) {
		k[0].n = (s64)((i * 7919u) % 5000);
		*stp_entry_long(m, stp_map_insert(m, k)) = -(s64)k[0].n;
	}
	v = stp_map_sorted(m, -1, -1, 0, &n);	/* by value descending */
	for (i = 0; i + 1 < n; i++)
		ok &= *stp_entry_long(m, v[i]) >= *stp_entry_long(m, v[i + 1]);
	CHECK(n == 5000 && ok && stp_entry_key_long(m, v[0], 0) == 0);
	stp_map_free(m);
}

int main(void)
{
	test_basic();
	test_wrap();
	test_tuples_and_order();
	test_long_strings();
	test_sort_large();
	return CHECK_SUMMARY();
}
