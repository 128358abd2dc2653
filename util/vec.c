// SPDX-License-Identifier: GPL-2.0-or-later
/* vec.c: what the pointer arrays of vec.h do beyond appending. */
#include "util/vec.h"

#include <stdlib.h>
#include <string.h>

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void strs_sort(char **v, size_t n)
{
	if (n)
		qsort(v, n, sizeof(*v), cmp_str);
}

size_t vec_sort_unique_str(struct ptrvec *vec)
{
	size_t i, n = 0;

	if (vec->n)
		qsort(vec->v, vec->n, sizeof(*vec->v), cmp_str);
	for (i = 0; i < vec->n; i++)
		if (!n || strcmp(vec->v[n - 1], vec->v[i]))
			vec->v[n++] = vec->v[i];
	vec->n = n;
	return n;
}
