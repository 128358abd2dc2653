/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cache.h: the translator's cache directory. */
#ifndef UTIL_CACHE_H
#define UTIL_CACHE_H

#include <stddef.h>

struct arena;

/* A 128-bit hash as 32 hex digits (FNV-1a, two seeds): cache keys. */
void hash_hex(const char *data, size_t len, const char *salt, char out[33]);

/* The cache directory: $SYSTEMTAP_DIR/cache or ~/.systemtap/cache (in
 * @a's memory). */
const char *cache_dir(struct arena *a);
/* mkdir -p; 0 or -1 (errno set). */
int mkdir_p(const char *path);

#endif
