// SPDX-License-Identifier: GPL-2.0-or-later
/* hwbkpt.c: hardware watchpoints: kernel.data(ADDR)[.length(N)].write|.rw
 * and kernel.data("SYMBOL").write|.rw (one byte, as the reference). A
 * symbol's address comes from the kernel's ELF symbol table (its debuginfo
 * vmlinux) and is moved at run time like a static variable's (KASLR). The
 * x86 debug registers watch 1, 2, 4 or 8 aligned bytes: other lengths and
 * misaligned addresses are refused here (the reference passes them to the
 * kernel, which refuses them when the probe is registered). */
#include "elaborate/probes/points.h"

#include <string.h>

#include "elaborate/dwarf.h"
#include "util/arena.h"
#include "util/diag.h"

static int derive(struct elab *e, struct pm_ctx *c, const struct probe_point *pp);

static const struct pm_family hwbkpt_family = {
	.name = "kernel.data", .derive = derive, .mech = MECH_hwbkpt,
};

static int derive(struct elab *e, struct pm_ctx *c, const struct probe_point *pp)
{
	const struct expr *where = ((const struct pp_component *)pp->comps.v[1])->param;
	const struct expr *len = pm_param_of(pp, "length");
	bool write = pm_has(pp, "write");
	struct elab_point *pt;
	struct hwbkpt_point *d;
	int64_t n = len ? len->num : 1;

	if (n != 1 && n != 2 && n != 4 && n != 8) {
		pm_error(e, c, &len->loc, elab_token(e, len),
			 "a watchpoint's length must be 1, 2, 4 or 8 bytes, not %lld",
			 (long long)n);
		return -1;
	}
	pt = pm_point(e, c, pp);
	pt->family = &hwbkpt_family;
	pt->data = d = arena_new_obj(e->a, struct hwbkpt_point);
	d->len = (unsigned)n;
	d->write = write;
	if (where->kind == EXPR_STRING) {
		const char *why = NULL, *expr;
		struct dw_mod *m = dw_open(e, DW_KERNEL, NULL, &why);
		uint64_t addr = m ? dw_symbol_addr(e, m, where->str.s) : 0;
		uint64_t pcpu_end = m ? dw_symbol_addr(e, m, "__per_cpu_end") : 0;

		if (m && !addr)
			why = "no such symbol in the kernel's symbol table (or a per-CPU "
			      "variable)";
		else if (m && addr < pcpu_end)
			why = "a per-CPU variable (each CPU has its own copy)";
		if (why) {
			pm_error(e, c, &where->loc, elab_token(e, where),
				 "cannot watch '%s': %s", where->str.s, why);
			return -1;
		}
		expr = dw_static_addr(e, m, addr, &why);
		if (!expr) {
			pm_error(e, c, &where->loc, elab_token(e, where),
				 "cannot watch '%s': %s", where->str.s, why);
			return -1;
		}
		d->symbol = where->str.s;
		d->addr_expr = expr;
		pt->name = arena_printf(e->a, "kernel.data(\"%s\").length(1).%s",
					where->str.s, write ? "write" : "rw");
	} else {
		if ((uint64_t)where->num % (uint64_t)n) {
			pm_error(e, c, &where->loc, elab_token(e, where),
				 "a watchpoint of %lld bytes needs an address aligned to "
				 "%lld bytes, not 0x%llx", (long long)n, (long long)n,
				 (unsigned long long)where->num);
			return -1;
		}
		d->addr = (uint64_t)where->num;
		d->addr_expr = arena_printf(e->a, "0x%llxUL", (unsigned long long)where->num);
		pt->name = arena_printf(e->a, "kernel.data(0x%llx).length(%lld).%s",
					(unsigned long long)where->num, (long long)n,
					write ? "write" : "rw");
	}
	pm_emit(e, c, pt);
	/* x86-64 has four debug registers, shared with debuggers and perf:
	 * a fifth watchpoint cannot register (the reference says nothing) */
	if (++e->hwbkpts == 5 && !pm_quiet(e, c))
		diag_report(e->d, DIAG_WARNING, &where->loc, elab_token(e, where),
			    "more than 4 kernel.data watchpoints: x86-64 has 4 debug "
			    "registers, so this one and any later one will fail to "
			    "register");
	/* -l/-L list the point as written, addresses in hex (the
	 * reference's listing) */
	if (pt->listed == pt->name && where->kind == EXPR_STRING)
		pt->listed = arena_printf(e->a, "kernel.data(\"%s\").%s", where->str.s,
					  write ? "write" : "rw");
	else if (pt->listed == pt->name)
		pt->listed = arena_printf(e->a, "kernel.data(0x%llx)%s.%s",
					  (unsigned long long)where->num,
					  len ? arena_printf(e->a, ".length(%lld)", (long long)n) : "",
					  write ? "write" : "rw");
	return 1;
}

void pm_register_hwbkpt(struct elab *e)
{
	static const char *const specs[] = {
		"kernel.data(n).write", "kernel.data(n).rw",
		"kernel.data(n).length(n).write", "kernel.data(n).length(n).rw",
		"kernel.data(s).write", "kernel.data(s).rw",
	};
	size_t i;

	for (i = 0; i < sizeof(specs) / sizeof(specs[0]); i++)
		pm_register(e, specs[i], &hwbkpt_family);
}
