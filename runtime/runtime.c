// SPDX-License-Identifier: GPL-2.0-or-later
/* runtime.c: the runtime, compiled apart from the generated code. What
 * generated code and the family runtimes (linux/kprobe.c, ..., included
 * by the generated file) call is declared in the headers runtime.h
 * includes; the rest stays static within a part.
 *
 * The runtime is made of parts, each an `#if ... defined(STP_PART_NAME)`
 * below. Pass 4 compiles each part on its own (STP_PART_ONE and
 * STP_PART_NAME defined), once per kernel tree, runtime and -D limits,
 * into an archive the module is linked with, so that a module holds only
 * the parts it calls (the "core" part is in every one). Compiled with no
 * STP_PART_* defined (the kbuild path), runtime.c is the whole runtime in
 * one object. (doc/build.md) */
#include "runtime.h"

#ifdef STP_PART_ONE
#define STP_ALL_PARTS 0
#else
#define STP_ALL_PARTS 1
#endif

/* A part offers more than one module uses. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#if STP_ALL_PARTS || defined(STP_PART_core)
#include "linux/transport.c"
#include "linux/context.c"
#include "linux/print.c"
#include "linux/kmod.c"
#include "linux/session.c"
#endif
#if STP_ALL_PARTS || defined(STP_PART_monitor)
#include "linux/monitor.c"
#endif
#if STP_ALL_PARTS || defined(STP_PART_strings)
#include "strings.c"
#endif
#if STP_ALL_PARTS || defined(STP_PART_printf)
#include "format.c"
#include "linux/printf.c"
#endif
#if STP_ALL_PARTS || defined(STP_PART_map)
#include "map.c"
#endif
#if STP_ALL_PARTS || defined(STP_PART_stat)
#include "stat.c"
#endif
#if STP_ALL_PARTS || defined(STP_PART_hist)
#include "hist.c"
#include "linux/print_hist.c"
#endif
#if STP_ALL_PARTS || defined(STP_PART_regex)
#include "regex.c"
#endif
#if STP_ALL_PARTS || defined(STP_PART_decode)
#include "decode.c"
#endif
#if STP_ALL_PARTS || defined(STP_PART_softfloat)
#include "softfloat.c"
#endif
#if STP_ALL_PARTS || defined(STP_PART_globals)
#include "linux/globals.c"
#endif
#if STP_ALL_PARTS || defined(STP_PART_tapset)
#include "linux/tapset_support.c"
#endif
#pragma GCC diagnostic pop
