/* SPDX-License-Identifier: GPL-2.0-or-later */
/* translate.h: pass 3: the elaborated session as the C source of one
 * kernel module, calling only the runtime's API (runtime/runtime.h). */
#ifndef TRANSLATE_TRANSLATE_H
#define TRANSLATE_TRANSLATE_H

#include <stdio.h>

struct elab;
struct session;

/* Write the module source for @e to @out. @modname is the module's name.
 * Returns 0, or -1 after reporting errors (constructs pass 3 cannot
 * translate) through e->d. */
int translate(struct elab *e, const struct session *s, const char *modname,
	      FILE *out);

#endif
