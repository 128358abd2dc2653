// SPDX-License-Identifier: GPL-2.0-or-later
/* cache.c: where the translator caches what it computed (modules, feature
 * tests, DWARF function indexes), and making its directories. */
#include "util/cache.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "util/arena.h"

const char *cache_dir(struct arena *a)
{
	const char *sd = getenv("SYSTEMTAP_DIR"), *home = getenv("HOME");

	if (sd && *sd)
		return arena_printf(a, "%s/cache", sd);
	return arena_printf(a, "%s/.systemtap/cache", home && *home ? home : "/tmp");
}

int mkdir_p(const char *path)
{
	char buf[4096];
	size_t i;

	snprintf(buf, sizeof(buf), "%s", path);
	for (i = 1; buf[i]; i++) {
		if (buf[i] != '/')
			continue;
		buf[i] = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -errno;
		buf[i] = '/';
	}
	return mkdir(buf, 0755) && errno != EEXIST ? -errno : 0;
}

int cache_write(const char *path, const struct iovec *iov, int n)
{
	char tmp[4200];
	FILE *f;
	int i, err = 0;

	snprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, (int)getpid());
	f = fopen(tmp, "wb");
	if (!f)
		return -errno;
	for (i = 0; i < n && !err; i++)
		if (iov[i].iov_len && fwrite(iov[i].iov_base, iov[i].iov_len, 1, f) != 1)
			err = -EIO;
	if (fclose(f) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}

void hash_hex(const char *data, size_t len, const char *salt, char out[33])
{
	uint64_t h[2] = { 0xcbf29ce484222325ULL, 0x84222325cbf29ce4ULL };
	size_t i;
	int k;

	for (k = 0; k < 2; k++) {
		const char *p;

		for (p = salt; *p; p++)
			h[k] = (h[k] ^ (unsigned char)*p) * 0x100000001b3ULL;
		for (i = 0; i < len; i++)
			h[k] = (h[k] ^ (unsigned char)data[i] ^ (unsigned)k) * 0x100000001b3ULL;
	}
	snprintf(out, 33, "%016llx%016llx", (unsigned long long)h[0],
		 (unsigned long long)h[1]);
}
