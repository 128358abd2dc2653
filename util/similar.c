// SPDX-License-Identifier: GPL-2.0-or-later
/* similar.c: "did you mean" suggestions by edit distance. */
#include "util/similar.h"

#include <string.h>

#include "util/strbuf.h"

#define SIMILAR_MAX 5
#define NAME_MAX_LEN 63

/* Levenshtein distance; names longer than NAME_MAX_LEN are never close. */
static unsigned distance(const char *a, const char *b)
{
	unsigned row[NAME_MAX_LEN + 1], i, j, prev, tmp, best;
	size_t la = strlen(a), lb = strlen(b);

	if (la > NAME_MAX_LEN || lb > NAME_MAX_LEN)
		return 99;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			best = prev + (a[i - 1] != b[j - 1]);
			tmp = row[j];
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			prev = tmp;
			row[j] = best;
		}
	}
	return row[lb];
}

const char *similar_names(struct arena *a, const char *name,
			  const char *const *cands, size_t n)
{
	const char *pick[SIMILAR_MAX];
	unsigned best[SIMILAR_MAX], d;
	struct strbuf sb = STRBUF_INIT;
	size_t i, j, npick = 0, len = strlen(name);

	for (i = 0; i < n; i++) {
		const char *c = cands[i];

		if (!c || !strcmp(c, name))
			continue;
		d = distance(name, c);
		/* a typo: at most a third of the name, or two edits */
		if (d > 2 && d * 3 > len)
			continue;
		for (j = 0; j < npick && strcmp(pick[j], c); j++)
			;
		if (j < npick)
			continue;
		for (j = npick; j > 0 && (best[j - 1] > d ||
					  (best[j - 1] == d && strcmp(pick[j - 1], c) > 0)); j--)
			if (j < SIMILAR_MAX) {
				best[j] = best[j - 1];
				pick[j] = pick[j - 1];
			}
		if (j < SIMILAR_MAX) {
			best[j] = d;
			pick[j] = c;
			if (npick < SIMILAR_MAX)
				npick++;
		}
	}
	if (!npick)
		return "";
	sb_adds(&sb, " (similar: ");
	for (i = 0; i < npick; i++)
		sb_addf(&sb, "%s%s", i ? ", " : "", pick[i]);
	sb_adds(&sb, ")");
	return sb_to_arena(&sb, a);
}
