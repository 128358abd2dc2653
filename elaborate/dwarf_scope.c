// SPDX-License-Identifier: GPL-2.0-or-later
/* dwarf_scope.c: the scopes at a probe site, the variables visible there,
 * and the -L listing of them. */
#include "elaborate/dwarf_vars.h"

#include <stdlib.h>
#include <string.h>

#include "util/arena.h"

#define VARS_MAX_SCOPES 32
#define LIST_DROP_EVERY 16384	/* sites listed: dw_drop_pages */

/* The scopes at the site: the lexical blocks of its function that contain
 * the pc, innermost first, then the function and the compile unit. Code
 * inlined into the function is not entered: a statement probe on a line
 * that calls an inline function sees the caller's variables, as the
 * reference's do. */
bool dwv_scopes(struct dw_mod *m, const struct dw_site *s, struct scopes *sc)
{
	Dwarf_Die chain[VARS_MAX_SCOPES];
	int n = 0, i;

	sc->v = NULL;
	sc->n = 0;
	if (!s->fn->die || !dw_die(m, s->fn->cu, &sc->cu) ||
	    !dw_die(m, s->fn->die, &chain[0]))
		return false;
	for (n = 1; n < VARS_MAX_SCOPES - 1; n++) {
		Dwarf_Die c;
		bool found = false;

		if (dwarf_child(&chain[n - 1], &c) != 0)
			break;
		do {
			if (dwarf_tag(&c) == DW_TAG_lexical_block &&
			    dwarf_haspc(&c, s->pc) == 1) {
				chain[n] = c;
				found = true;
				break;
			}
		} while (dwarf_siblingof(&c, &c) == 0);
		if (!found)
			break;
	}
	sc->v = calloc((size_t)n + 1, sizeof(*sc->v));
	if (!sc->v)
		return false;
	for (i = 0; i < n; i++)
		sc->v[i] = chain[n - 1 - i];
	sc->v[n] = sc->cu;
	sc->n = n + 1;
	return true;
}

const char *dwv_die_name(Dwarf_Die *d)
{
	Dwarf_Attribute a;

	return dwarf_formstring(dwarf_attr_integrate(d, DW_AT_name, &a));
}

bool dwv_die_type(Dwarf_Die *d, Dwarf_Die *t)
{
	Dwarf_Attribute a;

	return dwarf_formref_die(dwarf_attr_integrate(d, DW_AT_type, &a), t) != NULL;
}

bool dwv_func_scope(Dwarf_Die *d)
{
	int tag = dwarf_tag(d);

	return tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine;
}

/* Variable or parameter @name visible in the scopes; its scope index. */
int dwv_find_var(struct scopes *sc, const char *name, Dwarf_Die *out)
{
	int i;

	for (i = 0; i < sc->n; i++) {
		Dwarf_Die c;

		if (dwarf_child(&sc->v[i], &c) != 0)
			continue;
		do {
			int tag = dwarf_tag(&c);
			const char *n;

			if (tag != DW_TAG_variable && tag != DW_TAG_formal_parameter)
				continue;
			n = dwv_die_name(&c);
			if (n && !strcmp(n, name)) {
				*out = c;
				return i;
			}
		} while (dwarf_siblingof(&c, &c) == 0);
	}
	return -1;
}

/* ---- -L ---- */

/* Does @var have a value at @pc (a location there, or a constant)? A
 * single expression has one when it has bytes: libdw would parse it and
 * keep the operations of each until the end (tens of MB over -L of a
 * kernel's every function). */
static bool has_location(Dwarf_Die *var, uint64_t pc)
{
	Dwarf_Attribute a;
	Dwarf_Block b;
	Dwarf_Op *ops;
	size_t n;

	if (dwarf_attr_integrate(var, DW_AT_const_value, &a))
		return true;
	if (!dwarf_attr(var, DW_AT_location, &a))
		return false;
	if (dwarf_whatform(&a) == DW_FORM_exprloc)
		return dwarf_formblock(&a, &b) == 0 && b.length > 0;
	return dwarf_getlocation_addr(&a, pc, &ops, &n, 1) == 1 && n > 0;
}

void dw_list_vars(struct elab *e, const struct dw_site *s, struct strbuf *out)
{
	struct scopes sc;
	Dwarf_Die t;
	int i;

	if (s && s->sdt) {	/* a marker: its operands */
		for (i = 1; i <= s->sdt->nargs; i++)
			sb_addf(out, " $arg%d:long", i);
		return;
	}
	if (!s || !s->fn || !dwv_scopes(s->mod, s, &sc))
		return;
	/* -L lists sites in the order of their DIEs: the pages read are
	 * given back now and then */
	if (!(++s->mod->sites_listed % LIST_DROP_EVERY))
		dw_drop_pages(s->mod);
	if (s->is_return) {
		for (i = 0; i < sc.n && !dwv_func_scope(&sc.v[i]); i++)
			;
		if (i < sc.n && dwv_die_type(&sc.v[i], &t)) {
			sb_adds(out, " $return:");
			dw_type_name_into(out, &t);
		}
	}
	/* parameters of the innermost function, then (statement probes)
	 * locals of the scopes inside it */
	for (i = 0; i < sc.n; i++) {
		Dwarf_Die c;
		bool func = dwv_func_scope(&sc.v[i]);

		if (!func && !s->is_statement)
			continue;	/* function probes: the function's own block */
		if (s->kind) {
			s->kind->list_vars(e, &sc.v[i], out);
		} else if (dwarf_child(&sc.v[i], &c) == 0) {
			do {
				int tag = dwarf_tag(&c);
				const char *n = dwv_die_name(&c);

				if (!n || (tag != DW_TAG_formal_parameter &&
					   tag != DW_TAG_variable) || !has_location(&c, s->pc))
					continue;
				sb_addf(out, " $%s:", n);
				dw_type_name_into(out, dwv_die_type(&c, &t) ? &t : NULL);
			} while (dwarf_siblingof(&c, &c) == 0);
		}
		if (func)
			break;
	}
	free(sc.v);
}
