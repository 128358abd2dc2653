// SPDX-License-Identifier: GPL-2.0-or-later
/* kernel_info.c: release, version and .config of the target kernel. */
#include "util/kernel_info.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "util/arena.h"

struct kconfig_entry {
	struct kconfig_entry *next;
	const char *name;
	const char *value;
};

static unsigned str_hash(const char *s)
{
	unsigned h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

/* kernel_v from the headers' version.h when present: Debian names its
 * 6.1.192 kernel "6.1.0-NN-amd64", and the true sublevel matters to
 * version conditions. Falls back to the release up to its first '-'. */
static const char *read_version(struct arena *a, const char *build_dir,
				const char *release)
{
	char path[4096], line[256];
	long major = -1, patch = -1, sub = -1;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/include/generated/uapi/linux/version.h",
		 build_dir);
	f = fopen(path, "r");
	if (f) {
		while (fgets(line, sizeof(line), f)) {
			sscanf(line, "#define LINUX_VERSION_MAJOR %ld", &major);
			sscanf(line, "#define LINUX_VERSION_PATCHLEVEL %ld", &patch);
			sscanf(line, "#define LINUX_VERSION_SUBLEVEL %ld", &sub);
		}
		fclose(f);
		if (major >= 0 && patch >= 0 && sub >= 0)
			return arena_printf(a, "%ld.%ld.%ld", major, patch, sub);
	}
	n = strcspn(release, "-");
	return arena_strndup(a, release, n);
}

/* The release a build tree is for: UTS_RELEASE, what uname -r says on
 * that kernel (Debian's include/config/kernel.release holds the upstream
 * version, "6.1.192" for 6.1.0-56-amd64), else kernel.release. */
static const char *read_release_file(struct arena *a, const char *dir)
{
	char path[4096], line[256], rel[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/include/generated/utsrelease.h", dir);
	f = fopen(path, "r");
	if (f) {
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "#define UTS_RELEASE \"%255[^\"]\"", rel) == 1) {
				fclose(f);
				return arena_strndup(a, rel, strlen(rel));
			}
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/include/config/kernel.release", dir);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		return NULL;
	}
	fclose(f);
	line[strcspn(line, "\n")] = '\0';
	return arena_strndup(a, line, strlen(line));
}

void kernel_info_init(struct kernel_info *ki, struct arena *a,
		      const char *release, const char *build_dir)
{
	struct utsname u;

	memset(ki, 0, sizeof(*ki));
	if (!release && build_dir)
		release = read_release_file(a, build_dir);
	if (!release) {
		if (uname(&u) == 0)
			release = arena_strndup(a, u.release, strlen(u.release));
		else
			release = "unknown";
	}
	ki->release = release;
	ki->build_dir = build_dir ? build_dir :
		arena_printf(a, "/lib/modules/%s/build", release);
	ki->version = read_version(a, ki->build_dir, release);
}

static void config_add(struct kernel_info *ki, struct arena *a,
		       const char *name, size_t nlen, const char *val, size_t vlen)
{
	struct kconfig_entry *e = arena_new_obj(a, struct kconfig_entry);
	unsigned b;

	e->name = arena_strndup(a, name, nlen);
	e->value = arena_strndup(a, val, vlen);
	b = str_hash(e->name) % ki->config_buckets;
	e->next = ki->config[b];
	ki->config[b] = e;
}

static bool config_load(struct kernel_info *ki, struct arena *a)
{
	char path[4096], *line = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/.config", ki->build_dir);
	f = fopen(path, "r");
	if (!f) {
		snprintf(path, sizeof(path), "/boot/config-%s", ki->release);
		f = fopen(path, "r");
	}
	if (!f)
		return false;
	ki->config_path = arena_strndup(a, path, strlen(path));
	ki->config_buckets = 4096;
	ki->config = arena_new_array(a, struct kconfig_entry *, ki->config_buckets);
	while ((n = getline(&line, &cap, f)) > 0) {
		char *eq;

		if (strncmp(line, "CONFIG_", 7))
			continue;
		eq = strchr(line, '=');
		if (!eq)
			continue;
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		config_add(ki, a, line, (size_t)(eq - line), eq + 1,
			   strlen(eq + 1));
	}
	free(line);
	fclose(f);
	return true;
}

const char *kernel_config(struct kernel_info *ki, struct arena *a,
			  const char *name)
{
	struct kconfig_entry *e;

	if (!ki->config_tried) {
		ki->config_tried = true;
		ki->config_loaded = config_load(ki, a);
	}
	if (!ki->config_loaded)
		return NULL;
	for (e = ki->config[str_hash(name) % ki->config_buckets]; e; e = e->next)
		if (!strcmp(e->name, name))
			return e->value;
	return "";
}
