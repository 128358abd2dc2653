/* SPDX-License-Identifier: GPL-2.0-or-later */
/* runtime.h: the one header a generated module includes. It sets the
 * limits (each overridable with stap -D), pulls in the kernel headers and
 * declares the runtime's interface. The runtime itself (runtime.c) is
 * compiled on its own, as stp_runtime.o, with the same -D limits, and
 * linked with the generated object into the module; pass 4 caches that
 * object per kernel tree, runtime and limits (doc/build.md). The
 * generated code defines `stp_module` (the probe tables, see
 * linux/session.h) after this include. */
#ifndef STP_RUNTIME_H
#define STP_RUNTIME_H

#ifndef MAXNESTING
#define MAXNESTING 10		/* function call depth */
#endif
#ifndef MAXSTRINGLEN
#define MAXSTRINGLEN 512	/* bytes of a string value, NUL included */
#endif
/* u64 slots one string takes in a .return probe's entry data */
#define STP_STR_SLOTS ((MAXSTRINGLEN + 7) / 8)
#ifndef MAXACTION
#define MAXACTION 1000		/* statements per hit of timer.profile */
#endif
#ifndef MAXACTION_INTERRUPTIBLE
/* Statements per hit of every other probe: the reference gives begin,
 * end, timer.ms and kprobe handlers this budget (testsuite/runok's
 * err_maxaction_small, kprobe_maxaction). */
#define MAXACTION_INTERRUPTIBLE (MAXACTION * 10)
#endif
#ifndef MAXTRYLOCK
#define MAXTRYLOCK 1000		/* attempts at a global's lock */
#endif
#ifndef TRYLOCKDELAY
#define TRYLOCKDELAY 10		/* ns between attempts */
#endif
#ifndef MAXMAPENTRIES
#define MAXMAPENTRIES 2048	/* entries of an array without a size */
#endif
#ifndef MAXERRORS
#define MAXERRORS 0		/* errors tolerated before the session ends */
#endif
#ifndef MAXSKIPPED
#define MAXSKIPPED 100		/* skipped probes tolerated */
#endif
#ifndef STP_PRINT_MAX
#define STP_PRINT_MAX 8192	/* bytes one printf may produce */
#endif
#ifndef STP_BUFSIZE_DEFAULT
#define STP_BUFSIZE_DEFAULT (1 << 20)	/* output ring per CPU */
#endif

#include <linux/atomic.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/delay.h>
#include <linux/ftrace.h>
#include <linux/hash.h>
#include <linux/hrtimer.h>
#include <linux/hw_breakpoint.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/namei.h>
#include <linux/percpu.h>
#include <linux/poll.h>
#include <linux/proc_fs.h>
#include <linux/random.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/timer.h>
#include <linux/trace_recursion.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>
#include <linux/utsname.h>
#include <linux/version.h>
#include <linux/vmalloc.h>
#include <linux/wait.h>
#include <asm/irq_regs.h>

#include "stp_types.h"
#include "format.h"
#include "map.h"
#include "stat.h"
#include "hist.h"
#include "regex.h"
#include "decode.h"
#include "softfloat.h"
#include "linux/context.h"
#include "linux/session.h"
#include "strings.h"

#include "linux/mem.h"
#include "linux/transport.h"
#include "linux/print.h"
#include "linux/globals.h"
#include "linux/tapset_support.h"
#include "linux/monitor.h"
#include "linux/handler.h"

#endif
