/* SPDX-License-Identifier: GPL-2.0-or-later */
/* build_parts.h: the runtime's parts (runtime.c) and which of them a
 * module calls, so that pass 4 compiles only those (doc/build.md). */
#ifndef BUILD_PARTS_H
#define BUILD_PARTS_H

#include <stdint.h>

struct arena;

/* At most this many parts (a mask of them fits a uint64_t; build_parts.c
 * keeps one in a pointer-sized value: x86_64 only, as the runtime). */
#define RT_PARTS_MAX 64

/*
 * The parts of the runtime in @rt (runtime.c's `#if ... defined(STP_PART_NAME)`
 * blocks, in order): their count, names into *@parts. With @c_text (a
 * generated file), *@needed is the mask of the parts (bit i: (*@parts)[i])
 * it may call, directly or through other parts, found by reading the
 * sources: every part defining a name the generated file, what it includes
 * from @rt, or a needed part uses (inside braces, after `=`, or in a
 * #define). That may be more than the module links, never fewer unless a
 * name is used only where this does not look (the build then compiles the
 * rest and links again). "core" is always needed. Without @c_text, every part.
 * 0 parts when runtime.c cannot be read.
 */
int rt_parts(struct arena *a, const char *rt, const char *c_text, const char ***parts,
	     uint64_t *needed);

#endif
