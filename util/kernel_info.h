/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kernel_info.h: facts about the target kernel for %( %) conditions. */
#ifndef UTIL_KERNEL_INFO_H
#define UTIL_KERNEL_INFO_H

#include <stdbool.h>

struct arena;

struct kernel_info {
	const char *release;	/* kernel_vr: "6.1.0-56-amd64" */
	const char *version;	/* kernel_v: "6.1.192" (or the release's prefix) */
	const char *build_dir;	/* /lib/modules/REL/build or -r DIR */
	/* Lazily loaded CONFIG_ table. */
	bool config_tried;
	bool config_loaded;
	const char *config_path;
	struct kconfig_entry **config;	/* hash buckets */
	unsigned config_buckets;
};

/* Fill @ki for @release / @build_dir (either may be NULL: the running
 * kernel). Strings live in @a. */
void kernel_info_init(struct kernel_info *ki, struct arena *a,
		      const char *release, const char *build_dir);

/* Value of CONFIG_ option @name ("y", "m", "32", "\"str\"") or "" when
 * unset. Returns NULL when no kernel configuration could be read. */
const char *kernel_config(struct kernel_info *ki, struct arena *a,
			  const char *name);

#endif
