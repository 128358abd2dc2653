/* SPDX-License-Identifier: GPL-2.0-or-later */
/* build.h: pass 4 (the module, built with kbuild, cached) and pass 5
 * (running it with staprun, here or in the test VM). */
#ifndef BUILD_H
#define BUILD_H

#include <stddef.h>

struct session;
struct kernel_info;
struct arena;
struct diag;

/* Errors follow doc/errors.md: -errno returns, messages through @d. */

/* Build module @name from @c_text for the kernel of @ki. On success
 * returns 0 and sets *@ko to the module's path: in the cache, or in a
 * temporary directory (-k, --disable-cache, a cache that cannot be
 * written). Then *@tmp is that directory when the caller is to remove it
 * with build_remove_tmp() after pass 5, else NULL (cached; -k keeps it).
 * Else -errno after the message (for a module that does not compile:
 * kbuild's output, and -EIO), with nothing left behind. */
int build_module(const struct session *s, struct diag *d,
		 const struct kernel_info *ki, struct arena *a,
		 const char *c_text, const char *name, const char **ko,
		 const char **tmp);
/* Remove the temporary directory build_module() left (@dir NULL: none). */
void build_remove_tmp(const char *dir);

/* Pass 5: run @ko with staprun (or in the VM with --remote qemu).
 * Returns staprun's exit status, which stap exits with (1 after a
 * message when it could not be run): a status, not an error code. */
int run_module(const struct session *s, struct diag *d, struct arena *a,
	       const char *ko, const char *release);

/* --remote qemu[:WHAT]: *@release, the VM kernel's release (from
 * fetch-kernel). 0, or -errno after the message. */
int vm_release(const struct session *s, struct diag *d, struct arena *a,
	       const char **release);

/* --remote qemu: tools/fetch-debuginfo --release @release [--module
 * @module] (its messages and progress on stderr): the debuginfo root, or
 * NULL. */
const char *vm_fetch_debuginfo(struct arena *a, const char *release,
			       const char *module);

#endif
