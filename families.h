/* SPDX-License-Identifier: GPL-2.0-or-later */
/* families.h: the one list of probe families and of the mechanisms that
 * arm their points in the kernel (doc/adding-a-probe-family.md). */
#ifndef STAP_FAMILIES_H
#define STAP_FAMILIES_H

/*
 * Pass-2 families: FAMILY(x) is elaborate/probes/x.c, whose pm_register_x()
 * registers the probe points it resolves (pass 2 registers them in this
 * order). A family's derive() turns a point into elab_points of one
 * mechanism, each carrying that mechanism's typed data
 * (elaborate/probes/points.h).
 */
#define STAP_FAMILIES(FAMILY)						\
	FAMILY(begin_end)						\
	FAMILY(timer)							\
	FAMILY(procfs)							\
	FAMILY(kprobe)							\
	FAMILY(hwbkpt)							\
	FAMILY(dwarf)							\
	FAMILY(trace)							\
	FAMILY(syscall)							\
	FAMILY(netfilter)						\
	FAMILY(proclife)						\
	FAMILY(perf)

/*
 * Mechanisms: MECH(x) has a pass-3 part translate/probes/x.c (xl_mech_x:
 * the module's table of its points) and, unless the session runs its
 * points itself (seq: begin, end, error), a run-time part
 * runtime/linux/x.c (stp_x_family: registers and unregisters them). The
 * session starts them in this order and stops them in the reverse order.
 */
#define STAP_MECHANISMS(MECH)						\
	MECH(seq)							\
	MECH(procfs)							\
	MECH(timer)							\
	MECH(kprobe)							\
	MECH(uprobe)							\
	MECH(tracepoint)						\
	MECH(hwbkpt)							\
	MECH(syscall)							\
	MECH(netfilter)						\
	MECH(proclife)							\
	MECH(perf)

enum probe_mech {
	MECH_NONE,	/* no table of its own: see struct pm_family */
#define STAP_MECH_ENUM(x) MECH_##x,
	STAP_MECHANISMS(STAP_MECH_ENUM)
#undef STAP_MECH_ENUM
	MECH_COUNT
};

#endif
