/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cache.h: the translator's cache directory. */
#ifndef UTIL_CACHE_H
#define UTIL_CACHE_H

#include <stddef.h>

struct arena;
struct iovec;

/* A 128-bit hash as 32 hex digits (FNV-1a, two seeds): cache keys. */
void hash_hex(const char *data, size_t len, const char *salt, char out[33]);

/* The cache directory: $SYSTEMTAP_DIR/cache or ~/.systemtap/cache (in
 * @a's memory). */
const char *cache_dir(struct arena *a);
/* mkdir -p; 0 or -errno. */
int mkdir_p(const char *path);
/* Write the @n pieces of @iov as @path, through a temporary file beside
 * it renamed into place, so that a reader sees the old file or the whole
 * new one. 0 or -errno (doc/errors.md); nothing is left on failure. */
int cache_write(const char *path, const struct iovec *iov, int n);

#endif
