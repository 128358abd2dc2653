/* SPDX-License-Identifier: GPL-2.0-or-later */
/* translate.h: pass 3: the elaborated session as the C source of one
 * kernel module, calling only the runtime's API (runtime/runtime.h). */
#ifndef TRANSLATE_TRANSLATE_H
#define TRANSLATE_TRANSLATE_H

#include <stdio.h>

struct elab_result;
struct session;
struct strbuf;

/* Write the module source for @r (pass 2's result) to @out. @modname is
 * the module's name.
 * Returns 0, or -1 after reporting errors (constructs pass 3 cannot
 * translate) through r->d. */
int translate(const struct elab_result *r, const struct session *s, const char *modname,
	      FILE *out);

/* The -D options as #define lines, as the generated file starts with
 * them: pass 4 compiles the runtime object (runtime/runtime.c) with the
 * same lines, so both agree on MAXSTRINGLEN and the other limits. */
void translate_defines(const struct session *s, struct strbuf *out);

#endif
