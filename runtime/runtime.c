// SPDX-License-Identifier: GPL-2.0-or-later
/* runtime.c: the runtime, one translation unit compiled apart from the
 * generated code (pass 4: stp_runtime.o, cached per kernel tree, runtime
 * sources and -D limits). What generated code and the family runtimes
 * (linux/kprobe.c, ..., included by the generated file) call is declared
 * in the headers runtime.h includes; the rest stays static here. */
#include "runtime.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "format.c"
#include "map.c"
#include "stat.c"
#include "hist.c"
#include "regex.c"
#include "strings.c"
#include "decode.c"
#include "linux/transport.c"
#include "linux/context.c"
#include "linux/print.c"
#include "linux/globals.c"
#include "linux/kmod.c"
#include "linux/session.c"
#include "linux/tapset_support.c"
#pragma GCC diagnostic pop
