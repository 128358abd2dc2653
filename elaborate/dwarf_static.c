// SPDX-License-Identifier: GPL-2.0-or-later
/* dwarf_static.c: the run-time address of a static variable (a DW_OP_addr
 * link-time address) as a C expression. The kernel's are moved by the
 * distance of 'jiffies' from its link-time address (KASLR); a program's
 * are their link-time addresses; a kernel module's are an anchor symbol's
 * run-time address, which runtime/linux/kmod.c finds in the loaded
 * module's own symbol table, plus the variable's distance from it. */
#include "elaborate/dwarf_internal.h"

#include <string.h>

#include "elaborate/dwarf_emit.h"
#include "util/arena.h"
#include "util/intern.h"

/* A symbol of @m's section @shndx whose name no other symbol of @m has,
 * the nearest to @a (at or below it preferred): its address in *@at. */
static const char *anchor_of(struct elab *e, struct dw_mod *m, GElf_Word shndx,
			     GElf_Addr a, GElf_Addr *at)
{
	const char *best = NULL;
	GElf_Addr best_d = 0;
	bool best_below = false;
	int i, n = dwfl_module_getsymtab(m->dm);

	for (i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr sa, d;
		GElf_Word sx;
		const char *s = dwfl_module_getsym_info(m->dm, i, &sym, &sa, &sx, NULL, NULL);
		int type = GELF_ST_TYPE(sym.st_info);
		bool below;

		if (!s || !*s || sx != shndx || type == STT_SECTION || type == STT_FILE ||
		    !dw_symbol_unique(e, m, s))
			continue;
		below = sa <= a;
		d = below ? a - sa : sa - a;
		if (!best || (below && !best_below) ||
		    (below == best_below && d < best_d)) {
			best = s;
			best_d = d;
			best_below = below;
			*at = sa;
		}
	}
	return best;
}

/* The index of (@module, @symbol) in e->out.kmod_anchors, added if new. */
static size_t anchor_index(struct elab *e, const char *module, const char *symbol)
{
	struct kmod_anchor *k;
	size_t i;

	for (i = 0; i < e->out.kmod_anchors.n; i++) {
		k = e->out.kmod_anchors.v[i];
		if (k->module == module && k->symbol == symbol)
			return i;
	}
	k = arena_alloc(e->a, sizeof(*k));
	k->module = module;
	k->symbol = symbol;
	vec_push(e->a, &e->out.kmod_anchors, k);
	return e->out.kmod_anchors.n - 1;
}

const char *dw_kmod_section_at(struct dw_mod *m, uint64_t addr, uint32_t *shndx)
{
	GElf_Addr off = addr + m->bias;
	GElf_Word ndx = 0;
	int idx = dwfl_module_relocate_address(m->dm, &off);
	const char *sec;

	sec = idx < 0 ? NULL : dwfl_module_relocation_info(m->dm, (unsigned)idx, &ndx);
	if (shndx)
		*shndx = ndx;
	return sec;
}

static const char *kmod_addr(struct elab *e, struct dw_mod *m, uint64_t addr,
			     const char **err)
{
	GElf_Addr a = addr + m->bias, at = 0;
	uint32_t shndx = 0;
	const char *sec = dw_kmod_section_at(m, addr, &shndx), *sym;

	if (!sec) {
		*err = arena_printf(e->a, "the address 0x%llx is in no section of module '%s'",
				    (unsigned long long)addr, dw_mod_name(m));
		return NULL;
	}
	if (!strncmp(sec, ".init", 5) || !strncmp(sec, ".exit", 5)) {
		*err = arena_printf(e->a, "the variable is in section %s of module '%s', "
				    "which is freed once the module is loaded", sec, dw_mod_name(m));
		return NULL;
	}
	if (strstr(sec, "percpu")) {
		*err = "per-CPU variables of modules are not supported";
		return NULL;
	}
	sym = anchor_of(e, m, shndx, a, &at);
	if (!sym) {
		*err = arena_printf(e->a, "section %s of module '%s' has no symbol with a "
				    "unique name to find it by at run time", sec, dw_mod_name(m));
		return NULL;
	}
	return arena_printf(e->a, DWE_KMOD_STATIC,
			    anchor_index(e, intern(e->in, dw_mod_name(m)), intern(e->in, sym)),
			    (unsigned long long)a, (unsigned long long)at);
}

const char *dw_static_addr(struct elab *e, struct dw_mod *m, uint64_t addr,
			   const char **err)
{
	uint64_t ref;

	switch (dw_mod_kind(m)) {
	case DW_KERNEL:
		ref = dw_symbol_addr(e, m, "jiffies");
		if (!ref) {
			*err = "static addresses cannot be relocated (no 'jiffies' symbol)";
			return NULL;
		}
		return arena_printf(e->a, DWE_KERNEL_STATIC,
				    (unsigned long long)addr, (unsigned long long)ref);
	case DW_USER:
		return arena_printf(e->a, "0x%llxULL", (unsigned long long)addr);
	case DW_KMODULE:
		return kmod_addr(e, m, addr, err);
	}
	return NULL;
}
