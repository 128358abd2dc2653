/* SPDX-License-Identifier: GPL-2.0-or-later */
/* early.h: the module cache checked before pass 1 (early.c, doc/build.md). */
#ifndef EARLY_H
#define EARLY_H

#include <stdbool.h>

struct arena;
struct kernel_info;
struct session;

/* The early key of this run (32 hex digits in @a), or NULL when the run
 * builds no module or must not use the cache (-k, --disable-cache, -p1..3,
 * listings, a script from stdin). */
const char *early_key(const struct session *s, const struct kernel_info *ki,
		      struct arena *a, int argc, char **argv);
/* 0 with *@ko (the cached module), *@name (the module's name) and *@diag
 * (the warnings the recorded run printed, to print again) when
 * @key has an entry whose recorded inputs are unchanged; else -ENOENT (no
 * entry) or -ESTALE. */
int early_lookup(struct arena *a, const char *key, const char **ko, const char **name,
		 const char **diag);
/* Record @key -> @ko (module @name, @diag the warnings printed) with the
 * files @inputs reports
 * (dw_inputs over the elaboration @ctx); nothing when it returns false. */
void early_record(struct arena *a, const char *key, const char *ko, const char *name,
		  const char *diag, bool (*inputs)(void *ctx, void (*fn)(void *arg, const char *path), void *arg),
		  void *ctx);

#endif
