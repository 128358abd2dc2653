/* SPDX-License-Identifier: GPL-2.0-or-later */
/* usyms.h: the module's user-space symbol tables (usyms.c). */
#ifndef TRANSLATE_USYMS_H
#define TRANSLATE_USYMS_H

#include "translate/xl.h"

/* Write the tables of the objects of the live @points (struct elab_point
 * *: the programs and libraries of process(...) points), of -d PATH and,
 * with --ldd, of the libraries they need, as stp_uobjs[] to @out, and the
 * session's use of them (runtime/linux/usym.c: stp_usym_family) to @uses;
 * with their line tables when @lines. */
void xl_usym_tables(const struct session *s, struct arena *a, const struct ptrvec *points,
		    bool lines, struct strbuf *out, struct strbuf *uses);

#endif
