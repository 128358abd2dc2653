// SPDX-License-Identifier: GPL-2.0-or-later
/* dwarf_types.c: DWARF types: their names as listings show them
 * ("struct file*", "char const*", "int[4]"), typedef stripping. */
#include "elaborate/dwarf_internal.h"

#include <string.h>

#include "util/arena.h"
#include "util/strbuf.h"

#define TYPE_MAX_DEPTH 32

static bool type_of(Dwarf_Die *d, Dwarf_Die *out)
{
	Dwarf_Attribute a;

	return dwarf_formref_die(dwarf_attr_integrate(d, DW_AT_type, &a), out) != NULL;
}

bool dw_type_strip(Dwarf_Die *t, Dwarf_Die *out)
{
	Dwarf_Die cur = *t;
	int i;

	for (i = 0; i < TYPE_MAX_DEPTH; i++) {
		int tag = dwarf_tag(&cur);

		if (tag != DW_TAG_typedef && tag != DW_TAG_const_type &&
		    tag != DW_TAG_volatile_type && tag != DW_TAG_restrict_type &&
		    tag != DW_TAG_atomic_type) {
			*out = cur;
			return true;
		}
		if (!type_of(&cur, &cur))
			return false;	/* const void */
	}
	return false;
}

static void name_into(struct strbuf *sb, Dwarf_Die *t, int depth);

/* A function pointer: "int (*) (struct dentry*, umode_t, void*)". */
static void subroutine(struct strbuf *sb, Dwarf_Die *fn, int depth)
{
	Dwarf_Die ret, c;
	bool first = true;

	if (type_of(fn, &ret))
		name_into(sb, &ret, depth + 1);
	else
		sb_adds(sb, "void");
	sb_adds(sb, " (*) (");
	if (dwarf_child(fn, &c) == 0) {
		do {
			Dwarf_Die pt;

			if (dwarf_tag(&c) == DW_TAG_unspecified_parameters) {
				sb_adds(sb, first ? "..." : ", ...");
				first = false;
				continue;
			}
			if (dwarf_tag(&c) != DW_TAG_formal_parameter)
				continue;
			if (!first)
				sb_adds(sb, ", ");
			first = false;
			if (type_of(&c, &pt))
				name_into(sb, &pt, depth + 1);
			else
				sb_adds(sb, "void");
		} while (dwarf_siblingof(&c, &c) == 0);
	}
	sb_adds(sb, ")");
}

static void name_into(struct strbuf *sb, Dwarf_Die *t, int depth)
{
	const char *n = dwarf_diename(t);
	Dwarf_Die sub;
	int tag = dwarf_tag(t);

	if (depth > TYPE_MAX_DEPTH) {
		sb_adds(sb, "...");
		return;
	}
	switch (tag) {
	case DW_TAG_base_type:
	case DW_TAG_typedef:
	case DW_TAG_unspecified_type:
		sb_adds(sb, n ? n : "?");
		return;
	case DW_TAG_structure_type:
	case DW_TAG_union_type:
	case DW_TAG_enumeration_type:
	case DW_TAG_class_type:
		sb_addf(sb, "%s %s", tag == DW_TAG_structure_type ? "struct" :
			tag == DW_TAG_union_type ? "union" :
			tag == DW_TAG_class_type ? "class" : "enum",
			n ? n : "{...}");
		return;
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
		if (!type_of(t, &sub))
			sb_adds(sb, "void");
		else if (dwarf_tag(&sub) == DW_TAG_subroutine_type) {
			subroutine(sb, &sub, depth);
			return;
		} else
			name_into(sb, &sub, depth + 1);
		sb_adds(sb, tag == DW_TAG_pointer_type ? "*" :
			tag == DW_TAG_reference_type ? "&" : "&&");
		return;
	case DW_TAG_const_type:
	case DW_TAG_volatile_type:
		if (!type_of(t, &sub))
			sb_adds(sb, "void");
		else
			name_into(sb, &sub, depth + 1);
		sb_adds(sb, tag == DW_TAG_const_type ? " const" : " volatile");
		return;
	case DW_TAG_restrict_type:
	case DW_TAG_atomic_type:
		if (!type_of(t, &sub))
			sb_adds(sb, "void");
		else
			name_into(sb, &sub, depth + 1);
		return;
	case DW_TAG_array_type: {
		Dwarf_Die c;

		if (!type_of(t, &sub))
			sb_adds(sb, "void");
		else
			name_into(sb, &sub, depth + 1);
		(void)c;
		sb_adds(sb, "[]");	/* the reference shows no dimensions */
		return;
	}
	case DW_TAG_subroutine_type:
		subroutine(sb, t, depth);
		return;
	default:
		sb_adds(sb, n ? n : "?");
		return;
	}
}

const char *dw_type_name(struct arena *a, Dwarf_Die *t)
{
	struct strbuf sb = STRBUF_INIT;

	if (!t)
		return "void";
	name_into(&sb, t, 0);
	return sb_to_arena(&sb, a);
}
