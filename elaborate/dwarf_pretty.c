// SPDX-License-Identifier: GPL-2.0-or-later
/* dwarf_pretty.c: target variables as strings ($var$, $var$$, $$vars and
 * its kind, struct printers shared by every getter) and the capture of
 * values at a function's entry for its .return probes. */
#include "elaborate/dwarf_vars.h"

#include <stdlib.h>
#include <string.h>

#include "elaborate/dwarf_emit.h"
#include "util/arena.h"
#include "util/intern.h"

/* $$vars / $$parms / $$locals / $$return: "a=0x1 b=0x2" (unreadable: "a=?");
 * with @pretty, each value as $var$ ($$vars$) or $var$$ ($$vars$$) prints it. */
const char *dwv_vars_string(struct elab *e, const struct dw_site *s,
			    const char *which, int pretty_level, const char **err)
{
	struct scopes sc;
	struct strbuf fmt = STRBUF_INIT, args = STRBUF_INIT, code = STRBUF_INIT;
	bool parms = !strcmp(which, "$$parms") || !strcmp(which, "$$vars");
	bool locals = !strcmp(which, "$$locals") || !strcmp(which, "$$vars");
	bool ret = !strcmp(which, "$$return");
	int i, k = 0;

	if (!s->fn->die)	/* a function the DWARF does not describe */
		return DWE_EMPTY_STRING;
	if (!dwv_scopes(s->mod, s, &sc)) {
		*err = "no scope at this address";
		return NULL;
	}
	sb_adds(&code, dwv_body_head(s));
	if (pretty_level)	/* printed piece by piece, no format */
		sb_adds(&code, PP_HEAD);
	if (ret) {
		struct access ac = ACCESS_INIT(e, s, s->mod);

		if (!s->is_return) {
			free(sc.v);
			*err = "$$return exists only in .return probes";
			return NULL;
		}
		if (dwv_locate_return(&ac, &sc)) {	/* a void function: "" */
			if (pretty_level) {
				sb_adds(&code, PP_TEXT("return=") "\t\t{\n");
				if (dwv_pretty(&ac, pretty_level == 2))
					sb_adds(&code, sb_str(&ac.c));
				else
					sb_adds(&code, PP_TEXT("?"));
				sb_adds(&code, "\t\t}\n");
			} else {
				sb_adds(&fmt, "return=0x%llx");
				sb_adds(&args, DWE_RETURN_ARG_REGS);
			}
		}
		sb_release(&ac.c);
	}
	for (i = 0; !ret && i < sc.n && k < VARS_MAX_PARMS; i++) {
		Dwarf_Die c;
		bool func = dwv_func_scope(&sc.v[i]);

		if (dwarf_child(&sc.v[i], &c) == 0) {
			do {
				int tag = dwarf_tag(&c);
				const char *n = dwv_die_name(&c);
				struct access ac = ACCESS_INIT(e, s, s->mod);
				Dwarf_Die st;
				long long sz;
				int t = 0;

				if (!n || !((tag == DW_TAG_formal_parameter && parms) ||
					    (tag == DW_TAG_variable && locals)) ||
				    (s->kind && s->kind->hidden(n)))
					continue;
				if (pretty_level) {
					sb_addf(&code, PP_NAME "\t\t{\n", k++ ? " " : "", "", n);
					if (dwv_locate_var(&ac, &sc, &c, n) && dwv_pretty(&ac, pretty_level == 2))
						sb_adds(&code, sb_str(&ac.c));
					else
						sb_adds(&code, PP_TEXT("?"));
					sb_adds(&code, "\t\t}\n");
					sb_release(&ac.c);
					continue;
				}
				sb_addf(&fmt, "%s%s=", k++ ? " " : "", n);
				if (!dwv_locate_var(&ac, &sc, &c, n) ||
				    ((t = dwv_tag(&ac, &st)) != DW_TAG_base_type &&
				     t != DW_TAG_pointer_type && t != DW_TAG_enumeration_type)) {
					sb_adds(&fmt, t == DW_TAG_structure_type ||
						t == DW_TAG_union_type ? "{...}" : "?");
					sb_release(&ac.c);
					continue;
				}
				/* each value into v<k>, from memory as many bytes
				 * as its type has (zero-extended), its code in a
				 * block of its own */
				sb_addf(&code, DWE_VAR_OPEN, k);
				sb_adds(&code, sb_str(&ac.c));
				sz = dwv_type_size(&st);
				if (ac.kind == DWL_MEM && (sz == 1 || sz == 2 || sz == 4))
					sb_addf(&code, DWE_VAR_MEM_N, (int)sz * 8, ac.slot, k);
				else if (ac.kind == DWL_MEM)
					sb_addf(&code, DWE_VAR_MEM, k, ac.slot);
				else if (ac.kind == DWL_REG)
					sb_addf(&code, DWE_VAR_REG, k, ac.reg);
				else
					sb_addf(&code, DWE_VAR_VALUE, k, ac.slot);
				sb_adds(&code, DWE_VAR_CLOSE);
				sb_adds(&fmt, "0x%llx");
				sb_addf(&args, DWE_VAR_ARG, k);
				sb_release(&ac.c);
			} while (dwarf_siblingof(&c, &c) == 0 && k < VARS_MAX_PARMS);
		}
		if (func)
			break;
	}
	free(sc.v);
	if (pretty_level)
		sb_adds(&code, PP_END);
	else
		sb_addf(&code, DWE_VARS_END, sb_str(&fmt), sb_str(&args));
	sb_release(&fmt);
	sb_release(&args);
	return sb_to_arena(&code, e->a);
}

/* ---- $var$ and $var$$: pretty-printing ---- */

#define PRETTY_MAX_DEPTH 4
#define PRETTY_MAX_MEMBERS 64

/* Append to @c the printing of the object of type @t at the address in
 * C variable a<@local>; @depth is the C expression of its nesting depth
 * (@deep: nested structs and arrays expanded). Structs and unions are
 * printed by a function per type, shared by every getter (printer()). */
static void pretty_obj(struct access *ac, struct strbuf *c, Dwarf_Die *t, int local,
		       const char *depth, bool deep);

static void pretty_scalar(struct strbuf *c, Dwarf_Die *t, int depth)
{
	Dwarf_Die st, sub;
	Dwarf_Attribute a;
	Dwarf_Word enc = DW_ATE_unsigned;
	long long size = dwv_type_size(t);
	int tag = dw_type_strip(t, &st) ? dwarf_tag(&st) : 0;
	bool sign;

	if (tag == DW_TAG_pointer_type) {
		bool str = dwv_die_type(&st, &sub) && dw_type_strip(&sub, &sub) &&
			   dwarf_tag(&sub) == DW_TAG_base_type && dwv_type_size(&sub) == 1;

		sb_addf(c, PP_PTR_READ, depth);
		if (str)
			sb_addf(c, PP_PTR_STRING);
		else
			sb_adds(c, PP_PTR_HEX);
		return;
	}
	if (tag != DW_TAG_base_type && tag != DW_TAG_enumeration_type) {
		sb_addf(c, PP_UNKNOWN, depth);
		return;
	}
	dwarf_formudata(dwarf_attr_integrate(&st, DW_AT_encoding, &a), &enc);
	if (enc == DW_ATE_float || (size != 1 && size != 2 && size != 4 && size != 8)) {
		sb_addf(c, PP_UNKNOWN, depth);
		return;
	}
	sign = tag == DW_TAG_base_type && (enc == DW_ATE_signed || enc == DW_ATE_signed_char);
	sb_addf(c, PP_NUM_READ, sign ? 's' : 'u', size * 8, depth);
	if (size == 1 && (enc == DW_ATE_signed_char || enc == DW_ATE_unsigned_char))
		sb_adds(c, PP_NUM_CHAR);
	else
		sb_addf(c, PP_NUM_DEC, sign ? "%lld" : "%llu",
			sign ? "long long" : "unsigned long long");
}

/* The name of the shared printer of struct/union @st (complete), made
 * on first use: size_t NAME(char *b, size_t n, u64 a0, int depth)
 * appends {.m=v, ...} (or {...} past the depth limit) and returns n. */
static const char *printer(struct access *ac, Dwarf_Die *st, bool deep)
{
	struct elab *e = ac->e;
	/* the DIE's own address: unique across units, type units and
	 * alternate files, where offsets are not */
	const char *key = intern(e->in, arena_printf(e->a, "%p:%d", st->addr, deep));
	const char *name = ptrmap_get(&e->dw_printers, key);
	struct strbuf c = STRBUF_INIT;
	Dwarf_Die m, mt;
	int k = 0;

	if (name)
		return name;
	name = arena_printf(e->a, "stp_dw_pp%zu", e->dw_printers.n);
	ptrmap_put(e->a, &e->dw_printers, key, (void *)name);	/* before the members */
	sb_addf(&c, PP_FUNC_OPEN,
		dwarf_tag(st) == DW_TAG_union_type ? "union" : "struct",
		dwarf_diename(st) ? dwarf_diename(st) : "<anonymous>", deep ? " ($$)" : "",
		name, PRETTY_MAX_DEPTH, deep ? "" : " || depth > 0");
	if (dwarf_child(st, &m) == 0) {
		do {
			Dwarf_Attribute a;
			Dwarf_Word off = 0, bits;
			const char *n = dwarf_diename(&m);

			if (dwarf_tag(&m) != DW_TAG_member || !dwv_die_type(&m, &mt))
				continue;
			if (k++ >= PRETTY_MAX_MEMBERS) {
				sb_adds(&c, PP_TEXT(", ..."));
				break;
			}
			dwarf_formudata(dwarf_attr(&m, DW_AT_data_member_location, &a), &off);
			sb_addf(&c, PP_NAME, k > 1 ? ", " : "",
				n ? "." : "", n ? n : "<union>");
			if (dwarf_formudata(dwarf_attr(&m, DW_AT_bit_size, &a), &bits) == 0) {
				Dwarf_Word bo = 0;
				int left;

				dwarf_formudata(dwarf_attr(&m, DW_AT_data_bit_offset, &a), &bo);
				left = 64 - (int)(bo % 8) - (int)bits;
				sb_addf(&c, PP_BITFIELD, (unsigned long long)(off + bo / 8), left < 0 ? 0 : left,
					64 - (int)bits);
				continue;
			}
			sb_addf(&c, PP_MEMBER_OPEN, (unsigned long long)off);
			pretty_obj(ac, &c, &mt, 1, "depth + 1", deep);
			sb_adds(&c, PP_MEMBER_CLOSE);
		} while (dwarf_siblingof(&m, &m) == 0);
	}
	sb_adds(&c, PP_FUNC_CLOSE);
	vec_push(e->a, &e->out.dw_printer_code, (void *)sb_to_arena(&c, e->a));
	return name;
}

static void pretty_obj(struct access *ac, struct strbuf *c, Dwarf_Die *t, int local,
		       const char *depth, bool deep)
{
	Dwarf_Die st;
	int tag = 0;

	if (dw_type_strip(t, &st)) {
		dw_type_complete(ac->e, ac->m, &st, &st);
		tag = dwarf_tag(&st);
	}
	if (tag == DW_TAG_array_type) {
		Dwarf_Die et;

		if (!dwv_die_type(&st, &et) || !deep) {
			sb_addf(c, PP_ELLIPSIS_ARRAY, local);
			return;
		}
		if (dwv_type_size(&et) == 1) {	/* char[]: a string */
			sb_addf(c, PP_CHARS, local);
			return;
		}
		sb_adds(c, PP_TEXT("["));
		pretty_obj(ac, c, &et, local, depth, deep);
		sb_adds(c, PP_TEXT(", ...]"));
		return;
	}
	if (tag != DW_TAG_structure_type && tag != DW_TAG_union_type) {
		pretty_scalar(c, t, local);
		return;
	}
	if (!deep && local > 0) {	/* a nested struct of $var$: not expanded */
		sb_addf(c, PP_ELLIPSIS_STRUCT, local);
		return;
	}
	sb_addf(c, PP_CALL, printer(ac, &st, deep), local, depth);
}

/* The object of the access, printed with STP_PP: a struct/union (through
 * a pointer too) as {.m=v, ...}, a scalar as its value. */
bool dwv_pretty(struct access *ac, bool deep)
{
	Dwarf_Die st;
	int tag = dwv_tag(ac, &st);

	if (tag == DW_TAG_pointer_type) {
		Dwarf_Die pt;

		if (dwv_die_type(&st, &pt) && dw_type_strip(&pt, &pt) &&
		    (dwarf_tag(&pt) == DW_TAG_structure_type ||
		     dwarf_tag(&pt) == DW_TAG_union_type)) {
			if (!dwv_deref(ac, &st))
				return false;
			tag = dwv_tag(ac, &st);
		}
	}
	if (ac->kind == DWL_REG) {
		ac->slot = 14;
		sb_addf(&ac->c, DWE_REG_TO_S14, ac->reg);
		ac->kind = DWL_VALUE;
	}
	if (ac->kind == DWL_VALUE) {
		/* a value: keep it in memory of our own to read it like one */
		sb_addf(&ac->c, PP_CELL, ac->slot);
		sb_adds(&ac->c, PP_CELL_ADDR);
	} else {
		sb_addf(&ac->c, PP_ADDR, ac->slot);
	}
	pretty_obj(ac, &ac->c, &ac->type, 0, "0", deep);
	return true;
}

/* ---- entry values of .return probes ---- */

const char *dw_entry_slot(struct arena *a, struct dw_site *s, bool str)
{
	const char *off = s->entry_strs ?
		arena_printf(a, DWE_SLOT_OFFSET, s->entry_slots, s->entry_strs) :
		arena_printf(a, "%u", s->entry_slots);

	if (str)
		s->entry_strs++;
	else
		s->entry_slots++;
	return off;
}

const char *dw_entry_getter(struct arena *a, const char *off, bool str)
{
	return arena_printf(a, DWE_ENTRY_GET, str ? "(const char *)" : "(s64)*", off);
}

const char *dw_entry_setter(struct arena *a, const char *off, bool str)
{
	return arena_printf(a, str ? DWE_ENTRY_SET_STR : DWE_ENTRY_SET_LONG, off);
}

const char *dw_entry_capture_code(struct elab *e, const struct dw_site *s,
				  const struct expr *x, struct dw_code_info *ci)
{
	struct dw_site at = *s;
	const char *code;

	/* the values at entry: the site's pc is the function's entry */
	at.is_return = false;
	at.capture = true;
	code = dw_target_code(e, &at, x, false, ci);
	if (!code)
		return NULL;
	if (ci->nidx) {
		ci->err = "array indexes that are not literals cannot be captured at entry";
		return NULL;
	}
	return code;
}

const char *dw_entry_capture_add(struct elab *e, struct dw_site *s, const char *code, bool str)
{
	struct strbuf c = STRBUF_INIT;
	unsigned k = s->entry_slots + s->entry_strs;	/* a label number */
	const char *off = dw_entry_slot(e->a, s, str);

	if (s->entry_code)
		sb_adds(&c, s->entry_code);
	else if (dw_mod_kind(s->mod) == DW_USER)
		sb_adds(&c, DWE_CAPTURE_USER);	/* the reads are of user memory */
	if (str)	/* the getter fills STAP_RETVALUE, or returns a string */
		sb_addf(&c, DWE_CAPTURE_STR, off, k, k);
	else
		sb_addf(&c, DWE_CAPTURE_LONG, off, k, off, k);
	sb_addf(&c, DWE_CAPTURE_END, code, k, str ? DWE_CAPTURE_END_STR : "");
	s->entry_code = sb_to_arena(&c, e->a);
	return off;
}
