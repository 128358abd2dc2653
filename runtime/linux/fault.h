/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fault.h: fault injection for testing the module's failure paths
 * (doc/reliability.md). Compiled in only with `stap -D STP_FAULT_INJECT`:
 * every fault point (an allocation, a probe registration, a step of the
 * transport's set-up) then counts itself, and the one numbered by the
 * module parameter _stp_fault_at (1 = the first reached) fails as the real
 * call could. Without the define STP_FAULT() is the constant false and the
 * wrappers are the plain calls: nothing of this is in a normal module. */
#ifndef STP_FAULT_H
#define STP_FAULT_H

#ifdef STP_FAULT_INJECT
/* Count a fault point; true when it is the one to fail (session.c). */
bool stp_fault(const char *what, const char *func, int line);
#define STP_FAULT(what) unlikely(stp_fault((what), __func__, __LINE__))
#else
#define STP_FAULT(what) false
#endif

/* `stap -D STP_ARM_TIMING` (bench/kprobe-arm's breakdown): a kernel log
 * line with the time since boot at each step of a session's start and of
 * the arming and disarming of function entries; nothing without it. */
#ifdef STP_ARM_TIMING
#define STP_TIMING(fmt, ...) \
	printk(KERN_INFO "stp_timing: %llu us: " fmt "\n", ktime_get_ns() / 1000, ##__VA_ARGS__)
#else
#define STP_TIMING(fmt, ...) do { } while (0)
#endif

/* The errno an injected registration failure returns: the one the kernel
 * gives for a point it refuses. */
#define STP_FAULT_ERRNO EINVAL

/* Allocations (never in probe context), counted in stp_mem_bytes (what
 * the monitor reports as the runtime's memory; monitor.c). */
extern atomic_long_t stp_mem_bytes;
static inline void *stp_mem_count(void *p, size_t size)
{
	if (p)
		atomic_long_add((long)size, &stp_mem_bytes);
	return p;
}
#define stp_vzalloc(size) (STP_FAULT("allocation") ? NULL : stp_mem_count(vzalloc(size), (size)))
#define stp_vmalloc(size) (STP_FAULT("allocation") ? NULL : stp_mem_count(vmalloc(size), (size)))
#define stp_kcalloc(n, size, gfp) (STP_FAULT("allocation") ? NULL : \
	stp_mem_count(kcalloc((n), (size), (gfp)), (size_t)(n) * (size)))
/* A registration returning 0 or -errno. */
#define STP_FAULT_RC(what, call) (STP_FAULT(what) ? -STP_FAULT_ERRNO : (call))
/* One returning a pointer or NULL. */
#define STP_FAULT_PTR(what, call) (STP_FAULT(what) ? NULL : (call))
/* One returning a pointer or ERR_PTR(-errno). */
#define STP_FAULT_ERR_PTR(what, call) (STP_FAULT(what) ? ERR_PTR(-STP_FAULT_ERRNO) : (call))

#endif
