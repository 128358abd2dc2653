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
			sb_adds(sb, "void (*)()");
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
		if (dwarf_child(t, &c) == 0) {
			do {
				Dwarf_Word cnt;
				Dwarf_Attribute a;

				if (dwarf_tag(&c) != DW_TAG_subrange_type)
					continue;
				if (dwarf_formudata(dwarf_attr(&c, DW_AT_count, &a), &cnt) == 0)
					sb_addf(sb, "[%llu]", (unsigned long long)cnt);
				else if (dwarf_formudata(dwarf_attr(&c, DW_AT_upper_bound, &a),
							 &cnt) == 0)
					sb_addf(sb, "[%llu]", (unsigned long long)cnt + 1);
				else
					sb_adds(sb, "[]");
			} while (dwarf_siblingof(&c, &c) == 0);
		}
		return;
	}
	case DW_TAG_subroutine_type:
		sb_adds(sb, "void ()");
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
