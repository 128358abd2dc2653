/* SPDX-License-Identifier: GPL-2.0-or-later */
/* embedded_compat.h: kernel functions that scripts' embedded C calls and newer
 * kernels no longer have. Included by the generated file after
 * runtime.h: runtime.h is precompiled once for every kernel tree's
 * feature set, so nothing in it may test a STAPCONF_ macro (pass 4,
 * doc/build.md). */
#ifndef STP_EMBEDDED_COMPAT_H
#define STP_EMBEDDED_COMPAT_H

/* strlcpy(): gone from the kernel in 6.8 (strscpy() took its place), but
 * scripts' embedded C still calls it (the collection's psig.stp and
 * ttyspy.stp): stp_types.h's stp_strlcpy then. */
#ifndef STAPCONF_STRLCPY
#define strlcpy stp_strlcpy
#endif

#endif /* STP_EMBEDDED_COMPAT_H */
