/* SPDX-License-Identifier: GPL-2.0-or-later */
/* probes.h: the pass-3 part of a mechanism (families.h): it writes the
 * module's table of its points and names the run-time family that
 * registers them (runtime/linux/session.h: struct stp_family). */
#ifndef TRANSLATE_PROBES_PROBES_H
#define TRANSLATE_PROBES_PROBES_H

#include <stdbool.h>
#include <stddef.h>

#include "elaborate/probes/points.h"
#include "translate/xl.h"

/* A point of a live probe and its handler, struct stp_probe stp_ppN. */
struct xl_point {
	const struct elab_point *pt;
	size_t id;
};

/* Where a mechanism writes. */
struct xl_tables {
	struct strbuf *out;	/* file scope, before the module descriptor */
	struct strbuf *desc;	/* initialisers of stp_module's own fields */
	struct strbuf *uses;	/* entries of stp_families[] (xl_family_use) */
};

struct xl_mech {
	/* The runtime file its tables and handlers need, included after
	 * runtime.h when the module has points of it; or NULL. */
	const char *runtime;
	/* Write the table of @n points (n > 0), in probe order. */
	void (*emit)(struct xl *x, const struct xl_point *v, size_t n,
		     struct xl_tables *t);
};

#define XL_MECH_DECL(m) extern const struct xl_mech xl_mech_##m;
STAP_MECHANISMS(XL_MECH_DECL)
#undef XL_MECH_DECL

/* "stp_ppN": the handler of @pt (a point of a live probe). */
const char *xl_point_ref(struct xl *x, const struct elab_point *pt);
/* Is @pt optional (a `?` point: a failed registration is a warning)? */
bool xl_point_optional(const struct elab_point *pt);
/* Have the session start and stop @n entries of @table (of the family's
 * own entry type) with the run-time family @family ("stp_timer_family");
 * @modules: some are in kernel modules, whose loads and unloads the
 * session then follows. */
void xl_family_use(struct xl_tables *t, const char *family, const char *table,
		   size_t n, bool modules);

/* The entry capture of DWARF .return point @v (pass 2's code for the
 * values its body reads at entry, if any) written to @out as
 * `static void stp_entryN(struct pt_regs *stp_regs, u64 *slots)`; the
 * initialisers "ENTRY_FN, NSLOTS, ENTRY_PROBE" of its table entry in
 * *@fields ("NULL, 0, NULL" without any). kprobe.c and uprobe.c. */
void xl_entry_capture(struct xl *x, const struct xl_point *v, struct strbuf *out,
		      const char **fields);

#endif
