// SPDX-License-Identifier: GPL-2.0-or-later
/* dwarf_types.c: DWARF types: their names as listings show them
 * ("struct file*", "char const*", "int[4]"), typedef stripping, finding
 * a type by name and the definition of a declared struct. */
#include "elaborate/dwarf_internal.h"

#include <string.h>

#include "util/arena.h"
#include "util/intern.h"
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

bool dw_find_type(struct dw_mod *m, const char *spec, Dwarf_Die *out)
{
	static const struct { const char *kw; int tag; } kinds[] = {
		{ "struct ", DW_TAG_structure_type }, { "union ", DW_TAG_union_type },
		{ "enum ", DW_TAG_enumeration_type }, { "class ", DW_TAG_class_type },
	};
	const char *name = spec;
	Dwarf_Off off = 0, next;
	size_t hs, i;
	int want = 0;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strncmp(spec, kinds[i].kw, strlen(kinds[i].kw))) {
			want = kinds[i].tag;
			name = spec + strlen(kinds[i].kw);
		}
	while (*name == ' ')
		name++;
	while (dwarf_nextcu(m->dw, off, &next, &hs, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu, c;

		if (dwarf_offdie(m->dw, off + hs, &cu) && dwarf_child(&cu, &c) == 0) {
			do {
				int tag = dwarf_tag(&c);
				const char *n = dwarf_diename(&c);
				Dwarf_Attribute a;

				if (!n || strcmp(n, name) || dwarf_attr(&c, DW_AT_declaration, &a))
					continue;
				/* a bare name ("task_struct") may be any kind */
				if (want ? tag == want : (tag == DW_TAG_typedef ||
							  tag == DW_TAG_base_type ||
							  tag == DW_TAG_structure_type ||
							  tag == DW_TAG_union_type ||
							  tag == DW_TAG_enumeration_type)) {
					*out = c;
					return true;
				}
			} while (dwarf_siblingof(&c, &c) == 0);
		}
		off = next;
	}
	return false;
}

bool dw_type_complete(struct elab *e, struct dw_mod *m, Dwarf_Die *t, Dwarf_Die *out)
{
	static const char *const kw[] = { "struct ", "union ", "class " };
	int tag = dwarf_tag(t), k;
	Dwarf_Attribute a;
	const char *name, *key;
	uintptr_t off;

	k = tag == DW_TAG_structure_type ? 0 : tag == DW_TAG_union_type ? 1 :
	    tag == DW_TAG_class_type ? 2 : -1;
	if (k < 0 || !dwarf_attr(t, DW_AT_declaration, &a) || !(name = dwarf_diename(t)))
		return false;
	key = intern(e->in, arena_printf(e->a, "%s%s", kw[k], name));
	off = (uintptr_t)ptrmap_get(&m->complete, key);
	if (!off) {	/* 1: looked, none; else the offset + 2 */
		Dwarf_Die d;

		off = dw_find_type(m, key, &d) ? (uintptr_t)dwarf_dieoffset(&d) + 2 : 1;
		ptrmap_put(e->a, &m->complete, key, (void *)off);
	}
	return off > 1 && dwarf_offdie(m->dw, off - 2, out);
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

void dw_type_name_into(struct strbuf *sb, Dwarf_Die *t)
{
	if (t)
		name_into(sb, t, 0);
	else
		sb_adds(sb, "void");
}

const char *dw_type_name(struct arena *a, Dwarf_Die *t)
{
	struct strbuf sb = STRBUF_INIT;

	if (!t)
		return "void";
	name_into(&sb, t, 0);
	return sb_to_arena(&sb, a);
}
