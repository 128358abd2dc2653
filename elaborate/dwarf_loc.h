/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dwarf_loc.h: location expressions to C (dwarf_loc.c), for
 * dwarf_access.c. The C uses STP_DW_REGS (the probed struct pt_regs *),
 * STP_DW_FETCH(dst, addr) (a fault-safe read that ends the handler with
 * an error on a fault) and variables u64 s0..s15 the caller declares. */
#ifndef ELABORATE_DWARF_LOC_H
#define ELABORATE_DWARF_LOC_H

#include "elaborate/dwarf_internal.h"

struct arena;
struct strbuf;

struct loc_ctx {
	struct arena *a;
	/* the function's frame base and the CFA at the probe address */
	const Dwarf_Op *fb_ops;
	size_t fb_n;
	const Dwarf_Op *cfa_ops;
	size_t cfa_n;
	/* DW_OP_addr: the module whose link-time addresses these are
	 * (dw_static_addr), NULL when there are none here */
	struct elab *e;
	struct dw_mod *m;
	bool at_entry;			/* the probe is at the function's entry */
	Dwarf_Attribute *attr;		/* the location attribute (entry values) */
};

enum dw_loc_kind { DWL_MEM, DWL_REG, DWL_VALUE };

struct dw_loc {
	enum dw_loc_kind kind;
	int slot;		/* MEM: sN holds the address; VALUE: the value */
	const char *reg;	/* REG: the pt_regs field */
	bool copy;		/* MEM: a copy assembled from pieces (no
				 * writes, no address) */
	const char *err;	/* why it failed */
};

/* Compile @ops into statements appended to @c. False with @out->err. */
bool dw_compile_location(struct loc_ctx *lc, struct strbuf *c,
			 const Dwarf_Op *ops, size_t n, struct dw_loc *out);
/* The pt_regs field of DWARF register @regno, or NULL. */
const char *dw_reg_name(unsigned regno);

#endif
