/* SPDX-License-Identifier: GPL-2.0-or-later */
/* build_autoconf.h: pass 4's kernel feature tests (build_autoconf.c,
 * runtime/linux/autoconf/README.md, doc/build.md). */
#ifndef BUILD_AUTOCONF_H
#define BUILD_AUTOCONF_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct session;
struct diag;
struct arena;

/* The kernel feature tests (runtime/linux/autoconf/NAME.c): compiled once
 * per kernel tree (and set of tests); the header defines STAPCONF_NAME
 * for each that compiled. Cached. ac_start reads the cache or writes the
 * tests; they run by the recorded compile command, all in one file
 * (ac_direct), or by make, each to its own object (ac_make); ac_finish
 * makes the header. */
struct autoconf {
	const char *hdr;	/* the header: from the cache, or made */
	const char *cached;	/* where it is cached */
	char tmpl[32];		/* the scratch directory ("" when none) */
	char **tests;
	size_t n;
	pid_t pid;		/* make or the shell, while it runs; 0 when none */
	const char *build;
	const char *all_sh;	/* ac_direct: the script compiling them together */
	const char *each_sh;	/* ac_direct: the script compiling each alone */
};

/* Read the header for the tree of @build (@tree_key: its release and
 * configuration) from the cache into ac->hdr, or write the tests of the
 * runtime @rt into a scratch directory. 0 or -errno after the message. */
int ac_start(const struct session *s, struct diag *d, struct arena *a, const char *rt,
	     const char *build, const char *tree_key, struct autoconf *ac);
/*
 * Compile the tests in the background, together in one file, by the
 * compile command @cc (with @D@ and @N@ for the directory and the name;
 * the recorded one, with the runtime's precompiled header when there is
 * one) in the environment @env (shell exports), without make: the kernel's
 * headers are read once. When gcc's messages cannot be placed (ac_finish),
 * each test is compiled alone, as many at once as there are CPUs. Nonzero
 * when they could not be started (ac_make then runs them).
 */
int ac_direct(const struct session *s, struct arena *a, const char *build, const char *cc,
	      const char *env, struct autoconf *ac);
/* Unless started, compile them with make (-k), each to its own object, in
 * the background. 0 or -errno after the message. */
int ac_make(const struct session *s, struct diag *d, const char *build, struct autoconf *ac);
/* Wait for them and make the header (*@out, NULL on an error), cached. */
int ac_finish(const struct session *s, struct diag *d, struct arena *a, struct autoconf *ac,
	      const char **out);

#endif
