// SPDX-License-Identifier: GPL-2.0-or-later
/* dwarf_access.c: a target-variable access path compiled to C: the
 * variable's location at the site (or @cast's pointer, @var's address),
 * then members, indexes, dereferences, and the final fetch, bit-field
 * extraction, write or address; the getter bodies of $var, $return,
 * @cast and @var. */
#include "elaborate/dwarf_vars.h"

#include <stdlib.h>
#include <string.h>

#include "elaborate/dwarf_emit.h"
#include "parse/ast.h"
#include "util/arena.h"

#define VARS_MAX_MEMBER_DEPTH 16	/* anonymous struct/union nesting */

static Dwarf_CFI *site_cfi(struct dw_mod *m, Dwarf_Addr *bias)
{
	Dwarf_CFI *cfi = dwfl_module_dwarf_cfi(m->dm, bias);

	if (!cfi)
		cfi = dwfl_module_eh_cfi(m->dm, bias);
	return cfi;
}

/* The out-of-line function of the compile unit whose code holds @pc: for
 * an inlined copy, the function whose frame base its variables use. */
static bool containing_function(struct scopes *sc, uint64_t pc, Dwarf_Die *out)
{
	Dwarf_Die c;

	if (dwarf_child(&sc->cu, &c) != 0)
		return false;
	do {
		if (dwarf_tag(&c) == DW_TAG_subprogram && dwarf_haspc(&c, pc) == 1) {
			*out = c;
			return true;
		}
	} while (dwarf_siblingof(&c, &c) == 0);
	return false;
}

/* Frame base of the function containing the site, CFA at its pc, and
 * how static addresses are relocated. */
static void setup_loc(struct access *ac, struct scopes *sc, struct loc_ctx *lc)
{
	struct dw_mod *m = ac->m;
	Dwarf_Addr cbias;
	Dwarf_CFI *cfi;
	int i;

	memset(lc, 0, sizeof(*lc));
	lc->a = ac->e->a;
	lc->at_entry = !ac->s->is_statement && !(ac->s->fn->flags & DWF_INLINED) &&
		       ac->s->pc == ac->s->fn->entry;
	for (i = 0; i < sc->n; i++) {
		Dwarf_Die fn;
		Dwarf_Attribute a;
		Dwarf_Op *ops;
		size_t n;

		if (dwarf_tag(&sc->v[i]) == DW_TAG_subprogram)
			fn = sc->v[i];
		else if (dwarf_tag(&sc->v[i]) != DW_TAG_inlined_subroutine ||
			 !containing_function(sc, ac->s->pc, &fn))
			continue;
		if (dwarf_attr(&fn, DW_AT_frame_base, &a) &&
		    dwarf_getlocation_addr(&a, ac->s->pc, &ops, &n, 1) == 1) {
			lc->fb_ops = ops;
			lc->fb_n = n;
		}
		break;
	}
	cfi = site_cfi(m, &cbias);
	if (cfi) {
		Dwarf_Frame *fr = NULL;
		Dwarf_Op *ops;
		size_t n;

		if (dwarf_cfi_addrframe(cfi, ac->s->pc + m->bias - cbias, &fr) == 0 &&
		    dwarf_frame_cfa(fr, &ops, &n) == 0) {
			Dwarf_Op *copy = arena_alloc(ac->e->a, sizeof(*copy) * (n ? n : 1));

			memcpy(copy, ops, sizeof(*copy) * n);
			lc->cfa_ops = copy;
			lc->cfa_n = n;
		}
		free(fr);
	}
	lc->e = ac->e;
	lc->m = m;
}

/* Strip and report the kind of the current type. */
int dwv_tag(struct access *ac, Dwarf_Die *stripped)
{
	if (!ac->has_type || !dw_type_strip(&ac->type, stripped))
		return 0;	/* void */
	dw_type_complete(ac->e, ac->m, stripped, stripped);
	return dwarf_tag(stripped);
}

long long dwv_type_size(Dwarf_Die *t)
{
	Dwarf_Word w;
	Dwarf_Die s;

	if (!dw_type_strip(t, &s))
		return -1;
	if (dwarf_tag(&s) == DW_TAG_pointer_type)
		return 8;
	return dwarf_aggregate_size(&s, &w) == 0 ? (long long)w : -1;
}

/* The current object is a pointer (in memory, a register or a value):
 * make its target the current object. */
bool dwv_deref(struct access *ac, Dwarf_Die *ptr)
{
	Dwarf_Die pointee;

	if (ac->kind == DWL_MEM)
		sb_addf(&ac->c, DWE_DEREF, ac->slot, ac->slot);
	else if (ac->kind == DWL_REG) {
		ac->slot = 14;
		sb_addf(&ac->c, DWE_REG_TO_S14, ac->reg);
	}
	ac->kind = DWL_MEM;
	ac->copy = false;	/* what it points to is real memory */
	if (!dwv_die_type(ptr, &pointee)) {
		ac->err = "dereferencing a 'void *'";
		return false;
	}
	ac->type = pointee;
	return true;
}

static bool find_member(Dwarf_Die *st, const char *name, Dwarf_Die *out,
			Dwarf_Word *off, int depth)
{
	Dwarf_Die c;

	if (depth > VARS_MAX_MEMBER_DEPTH || dwarf_child(st, &c) != 0)
		return false;
	do {
		Dwarf_Attribute a;
		Dwarf_Word o = 0;
		const char *n;

		if (dwarf_tag(&c) != DW_TAG_member)
			continue;
		dwarf_formudata(dwarf_attr(&c, DW_AT_data_member_location, &a), &o);
		n = dwarf_diename(&c);
		if (n && !strcmp(n, name)) {
			*out = c;
			*off = o;
			return true;
		}
		if (!n) {	/* anonymous struct/union: look inside */
			Dwarf_Die t, s;
			Dwarf_Word inner;

			if (dwv_die_type(&c, &t) && dw_type_strip(&t, &s) &&
			    find_member(&s, name, out, &inner, depth + 1)) {
				*off = o + inner;
				return true;
			}
		}
	} while (dwarf_siblingof(&c, &c) == 0);
	return false;
}

/* ", a, b" for the members of @st (inside anonymous ones too), in
 * declaration order: the alternatives of a member not found. */
static void member_names(Dwarf_Die *st, struct strbuf *out, int depth)
{
	Dwarf_Die c;

	if (depth > VARS_MAX_MEMBER_DEPTH || dwarf_child(st, &c) != 0)
		return;
	do {
		const char *n;
		Dwarf_Die t, s;

		if (dwarf_tag(&c) != DW_TAG_member)
			continue;
		n = dwarf_diename(&c);
		if (n)
			sb_addf(out, ", %s", n);
		else if (dwv_die_type(&c, &t) && dw_type_strip(&t, &s))
			member_names(&s, out, depth + 1);
	} while (dwarf_siblingof(&c, &c) == 0);
}

static const char *type_text(struct access *ac)
{
	return ac->has_type ? dw_type_name(ac->e->a, &ac->type) : "void";
}

static bool member(struct access *ac, const char *field)
{
	Dwarf_Die st, mem;
	Dwarf_Word off;
	Dwarf_Attribute a;
	Dwarf_Word bits;
	int tag = dwv_tag(ac, &st);

	if (tag == DW_TAG_pointer_type) {
		if (!dwv_deref(ac, &st))
			return false;
		tag = dwv_tag(ac, &st);
	}
	if (tag != DW_TAG_structure_type && tag != DW_TAG_union_type &&
	    tag != DW_TAG_class_type) {
		ac->err = arena_printf(ac->e->a, "'%s' is not a struct or union: no "
				       "member '%s'", type_text(ac), field);
		return false;
	}
	if (!find_member(&st, field, &mem, &off, 0)) {
		struct strbuf names = STRBUF_INIT;

		member_names(&st, &names, 0);
		ac->err = arena_printf(ac->e->a, "unable to find member '%s' for %s%s%s%s",
				       field, type_text(ac), names.len ? " (alternatives: " : "",
				       names.len ? names.buf + 2 : "", names.len ? ")" : "");
		sb_release(&names);
		return false;
	}
	ac->bit_size = 0;
	if (dwarf_formudata(dwarf_attr(&mem, DW_AT_bit_size, &a), &bits) == 0) {
		Dwarf_Word bo, pos = 0;

		if (dwarf_formudata(dwarf_attr(&mem, DW_AT_data_bit_offset, &a), &bo) == 0) {
			pos = bo;
		} else if (dwarf_formudata(dwarf_attr(&mem, DW_AT_bit_offset, &a), &bo) == 0) {
			/* DWARF 2: counted from the storage unit's top bit */
			Dwarf_Word bytes = 4;

			dwarf_formudata(dwarf_attr(&mem, DW_AT_byte_size, &a), &bytes);
			pos = bytes * 8 - bo - bits;
		}
		off += pos / 8;
		ac->bit_off = (int)(pos % 8);
		ac->bit_size = (int)bits;
	}
	if (ac->kind == DWL_REG) {	/* a small struct passed in a register */
		ac->kind = DWL_VALUE;
		ac->slot = 14;
		sb_addf(&ac->c, DWE_REG_TO_S14, ac->reg);
	}
	if (ac->kind == DWL_VALUE && off >= 8) {
		ac->err = "a member beyond the register holding its structure";
		return false;
	}
	if (ac->kind == DWL_VALUE && off)
		sb_addf(&ac->c, "\t\ts%d >>= %llu;\n", ac->slot,
			(unsigned long long)off * 8);
	else if (off)
		sb_addf(&ac->c, "\t\ts%d += 0x%llxULL;\n", ac->slot,
			(unsigned long long)off);
	if (!dwv_die_type(&mem, &ac->type))
		ac->has_type = false;
	return true;
}

/* [@ix] of the current object; @of_self (the first step of a @cast) takes
 * the object as element 0 of an array of its type, as ((T *)p)[i]. */
static bool index_step(struct access *ac, const struct expr *ix, bool of_self)
{
	Dwarf_Die st, elem;
	int tag = dwv_tag(ac, &st);
	long long esize;
	const char *iv;

	if (ix->kind == EXPR_NUMBER)
		iv = arena_printf(ac->e->a, DWE_INDEX_LITERAL, (long long)ix->num);
	else
		iv = arena_printf(ac->e->a, DWE_INDEX_ARG, ac->nidx++);
	if (of_self && tag != DW_TAG_pointer_type && tag != DW_TAG_array_type) {
		elem = ac->type;
	} else if (tag == DW_TAG_pointer_type) {
		if (!dwv_deref(ac, &st))
			return false;
		elem = ac->type;
	} else if (tag == DW_TAG_array_type) {
		if (ac->kind != DWL_MEM) {
			ac->err = "an array held in registers";
			return false;
		}
		if (!dwv_die_type(&st, &elem)) {
			ac->err = "array of unknown type";
			return false;
		}
	} else {
		ac->err = arena_printf(ac->e->a, "cannot index '%s': not an array "
				       "or pointer", type_text(ac));
		return false;
	}
	esize = dwv_type_size(&elem);
	if (esize <= 0) {
		ac->err = "array element of unknown size";
		return false;
	}
	sb_addf(&ac->c, "\t\ts%d += %s * %lldULL;\n", ac->slot, iv, esize);
	ac->type = elem;
	ac->has_type = true;
	return true;
}

/* The final value of the current object into STAP_RETVALUE. */
static bool fetch(struct access *ac, bool write)
{
	Dwarf_Die st;
	int tag = dwv_tag(ac, &st);
	Dwarf_Attribute a;
	Dwarf_Word enc = DW_ATE_unsigned;
	long long size;
	bool sign;

	if (tag == DW_TAG_array_type) {
		if (ac->kind != DWL_MEM || write) {
			ac->err = "an array is not a value";
			return false;
		}
		sb_addf(&ac->c, DWE_RETURN_SLOT, ac->slot);
		return true;
	}
	if (tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
	    tag == DW_TAG_class_type || tag == 0) {
		ac->err = arena_printf(ac->e->a, "'%s' is not a value: use a member "
				       "('->'), '&', or the $ pretty-printer", type_text(ac));
		return false;
	}
	size = dwv_type_size(&ac->type);
	if (tag == DW_TAG_pointer_type)
		size = 8;
	dwarf_formudata(dwarf_attr_integrate(&st, DW_AT_encoding, &a), &enc);
	sign = tag == DW_TAG_enumeration_type ? false :
	       enc == DW_ATE_signed || enc == DW_ATE_signed_char;
	if (size != 1 && size != 2 && size != 4 && size != 8) {
		ac->err = arena_printf(ac->e->a, "values of type '%s' (%lld bytes) "
				       "are not supported", type_text(ac), size);
		return false;
	}
	if (write && ac->copy) {
		ac->err = "cannot write a value the compiler keeps in pieces (registers)";
		return false;
	}
	if (write) {
		if (ac->kind == DWL_MEM) {
			sb_addf(&ac->c, DWE_WRITE_MEM, sign ? 's' : 'u', size * 8, sign ? 's' : 'u', size * 8,
				ac->slot, ac->slot);
		} else if (ac->kind == DWL_REG) {
			sb_addf(&ac->c, DWE_WRITE_REG, ac->reg);
		} else {
			ac->err = "it is a computed value, not stored anywhere";
			return false;
		}
		sb_adds(&ac->c, DWE_RETURN_ARG);
		return true;
	}
	if (ac->bit_size > 0) {
		int left = 64 - ac->bit_off - ac->bit_size;

		if (write || ac->kind == DWL_REG || left < 0) {
			ac->err = write ? "writing bit-fields is not supported" :
				  "bit-field outside its storage";
			return false;
		}
		if (ac->kind == DWL_MEM)
			sb_addf(&ac->c, DWE_BITS_MEM, ac->slot);
		else
			sb_addf(&ac->c, DWE_BITS_VALUE, ac->slot);
		if (sign)
			sb_addf(&ac->c, "\t\ts15 = (u64)((s64)(s15 << %d) >> %d);\n",
				left, 64 - ac->bit_size);
		else
			sb_addf(&ac->c, "\t\ts15 = (s15 << %d) >> %d;\n", left,
				64 - ac->bit_size);
	} else if (ac->kind == DWL_MEM) {
		sb_addf(&ac->c, DWE_FETCH_MEM, sign ? 's' : 'u', size * 8, ac->slot);
	} else if (ac->kind == DWL_REG) {
		sb_addf(&ac->c, DWE_FETCH_REG, sign ? 's' : 'u', size * 8, ac->reg);
	} else {
		sb_addf(&ac->c, DWE_FETCH_VALUE, sign ? 's' : 'u', size * 8, ac->slot);
	}
	sb_adds(&ac->c, DWE_RETURN_S15);
	return true;
}

static const char *not_accessible(struct access *ac, const char *name,
				  const char *why)
{
	uint64_t off = 0;
	const char *sym = dw_symbol_at(ac->e, ac->m, ac->s->pc, &off);

	return arena_printf(ac->e->a, "not accessible at this address [%s%s0x%llx, "
			    "dieoffset: 0x%llx]: %s: %s (test it with @defined($%s), or see "
			    "what is there with stap -L)", sym ? sym : "", sym ? "+" : "",
			    (unsigned long long)(sym ? off : ac->s->pc),
			    (unsigned long long)ac->s->fn->die, name, why, name);
}

/* Place the variable's value or address in the access. */
bool dwv_locate_var(struct access *ac, struct scopes *sc, Dwarf_Die *var,
		    const char *name)
{
	struct loc_ctx lc;
	struct dw_loc l;
	Dwarf_Attribute a;
	Dwarf_Op *ops;
	size_t n = 0;
	int r;

	ac->has_type = dwv_die_type(var, &ac->type);
	if (ac->s->kind)
		return ac->s->kind->locate(ac, sc, var, name);
	if (!dwarf_attr(var, DW_AT_location, &a)) {
		Dwarf_Attribute cv;
		Dwarf_Sword sv;

		if (dwarf_attr_integrate(var, DW_AT_const_value, &cv) &&
		    dwarf_formsdata(&cv, &sv) == 0) {
			sb_addf(&ac->c, DWE_CONST, (unsigned long long)sv);
			ac->kind = DWL_VALUE;
			ac->slot = 0;
			return true;
		}
		ac->err = not_accessible(ac, name, "it has no location (optimized out)");
		return false;
	}
	r = dwarf_getlocation_addr(&a, ac->s->pc, &ops, &n, 1);
	if (r <= 0 || !n) {
		ac->err = not_accessible(ac, name, "no location at this address "
					 "(optimized out here)");
		return false;
	}
	setup_loc(ac, sc, &lc);
	lc.attr = &a;
	if (!dw_compile_location(&lc, &ac->c, ops, n, &l)) {
		ac->err = not_accessible(ac, name, l.err);
		return false;
	}
	ac->kind = l.kind;
	ac->slot = l.slot;
	ac->reg = l.reg;
	ac->copy = l.copy;
	return true;
}

bool dwv_locate_return(struct access *ac, struct scopes *sc)
{
	int i;

	for (i = 0; i < sc->n && !dwv_func_scope(&sc->v[i]); i++)
		;
	if (!ac->s->is_return || i == sc->n || !dwv_die_type(&sc->v[i], &ac->type)) {
		const char *file = ac->s->fn->file ? strrchr(ac->s->fn->file, '/') : NULL;

		ac->err = ac->s->is_return ?
			arena_printf(ac->e->a, "function %s (%s) has no return value",
				     ac->s->fn->name, file ? file + 1 : ac->s->fn->file) :
			"$return exists only in .return probes";
		return false;
	}
	ac->has_type = true;
	ac->kind = DWL_REG;
	ac->reg = "ax";
	return true;
}

/* The value's type when it is an address: of the current object when
 * @addr_of, else of a pointer's target or an array. */
static const struct dw_ptype *value_ptype(struct access *ac, bool addr_of)
{
	struct dw_ptype *t;
	Dwarf_Die st, target;
	int tag;

	if (!ac->has_type)
		return NULL;
	tag = dwv_tag(ac, &st);
	if (addr_of || tag == DW_TAG_array_type)
		target = ac->type;
	else if (tag != DW_TAG_pointer_type || !dwv_die_type(&st, &target))
		return NULL;	/* not a pointer, or a void * */
	t = arena_new_obj(ac->e->a, struct dw_ptype);
	t->m = ac->m;
	t->die = target;
	return t;
}

/* Finish an access whose object is in place: the path, then &, the
 * printed value ($ and $$ suffixes) or the value. */
static const char *finish(struct access *ac, const struct target_path *p,
			  bool write, struct dw_code_info *ci)
{
	bool ok = true;
	size_t i;

	ci->is_string = false;
	for (i = 0; ok && i < p->comps.n; i++) {
		const struct target_comp *tc = p->comps.v[i];

		ok = tc->is_index ? index_step(ac, tc->index, i == 0 && ac->cast_root) :
				    member(ac, tc->field);
		if (!ok)
			ac->err_at = tc;
	}
	if (ok && !p->pretty && !write)
		ci->ptype = value_ptype(ac, p->addr_of);
	if (ok && p->pretty) {
		if (write || p->addr_of) {
			ac->err = "a pretty-printed value cannot be written or addressed";
			ok = false;
		} else {
			sb_adds(&ac->c, PP_HEAD);
			ok = dwv_pretty(ac, p->pretty == 2);
			sb_adds(&ac->c, PP_TAIL);
			ci->is_string = true;
		}
	} else if (ok && p->addr_of) {
		if (ac->kind != DWL_MEM || ac->bit_size || ac->copy) {
			ac->err = ac->copy ? "cannot take the address of a value the compiler "
					     "keeps in pieces (registers)" :
				  "cannot take the address of a value held in a register "
				  "or of a bit-field";
			ok = false;
		} else if (write) {
			ac->err = "cannot assign to an address";
			ok = false;
		} else {
			sb_addf(&ac->c, DWE_RETURN_SLOT, ac->slot);
		}
	} else if (ok) {
		ok = fetch(ac, write);
	}
	if (!ok) {
		ci->err = ac->err;
		ci->err_at = ac->err_at;
		ci->ptype = NULL;
		sb_release(&ac->c);
		return NULL;
	}
	sb_adds(&ac->c, DWE_BODY_END);
	ci->nidx = ac->nidx;
	return sb_to_arena(&ac->c, ac->e->a);
}

/* " (alternatives: $a, $s)" from a -L variable list " $a:int $s:..." */
static const char *alternatives(struct elab *e, const char *list)
{
	struct strbuf out = STRBUF_INIT;
	const char *p = list, *sp, *colon;
	const char *r;

	while ((p = strchr(p, '$')) != NULL) {
		colon = strchr(p, ':');
		sp = strstr(p, " $");
		if (!colon || (sp && sp < colon))
			break;
		sb_addf(&out, "%s%.*s", out.len ? ", " : " (alternatives: ",
			(int)(colon - p), p);
		p = sp ? sp + 1 : colon + strlen(colon);
	}
	if (out.len)
		sb_adds(&out, ")");
	r = out.len ? arena_printf(e->a, "%s", out.buf) : "";
	sb_release(&out);
	return r;
}

const char *dw_cfa_code(struct elab *e, const struct dw_site *s, const char **err)
{
	struct dw_mod *m = s->mod;
	struct loc_ctx lc;
	struct strbuf c = STRBUF_INIT;
	Dwarf_Frame *fr = NULL;
	Dwarf_Addr cbias;
	Dwarf_CFI *cfi = m->dm ? site_cfi(m, &cbias) : NULL;
	Dwarf_Op *ops;
	struct dw_loc out = { 0 };
	const char *body;
	size_t n;

	if (!cfi || dwarf_cfi_addrframe(cfi, s->pc + m->bias - cbias, &fr) != 0 ||
	    dwarf_frame_cfa(fr, &ops, &n) != 0) {
		free(fr);
		*err = arena_printf(e->a, "no call frame information (CFI) at 0x%llx in %s",
				    (unsigned long long)s->pc, dw_mod_path(m));
		return NULL;
	}
	memset(&lc, 0, sizeof(lc));
	lc.a = e->a;
	lc.e = e;
	lc.m = m;
	if (!dw_compile_location(&lc, &c, ops, n, &out) || out.kind != DWL_MEM) {
		free(fr);
		sb_release(&c);
		*err = arena_printf(e->a, "cannot compute the frame address at 0x%llx in %s%s%s",
				    (unsigned long long)s->pc, dw_mod_path(m),
				    out.err ? ": " : "", out.err ? out.err : "");
		return NULL;
	}
	free(fr);
	body = arena_printf(e->a, "%s%s" DWE_CFA_RETURN, DWE_USER_SLOTS_DECL, sb_str(&c), out.slot);
	sb_release(&c);
	return body;
}

const char *dw_target_code(struct elab *e, const struct dw_site *s,
			   const struct expr *x, bool write, struct dw_code_info *ci)
{
	struct access ac = ACCESS_INIT(e, s, s ? s->mod : NULL);
	const struct target_path *p = &x->target.path;
	const char *name = x->target.name + 1;	/* without '$' */
	struct scopes sc;
	Dwarf_Die var;
	bool ok;

	memset(ci, 0, sizeof(*ci));
	if (!s || !s->fn) {
		ci->err = "probes of this kind have no debuginfo context";
		return NULL;
	}
	if ((s->fn->flags & DWF_SYMTAB) && dw_mod_kind(s->mod) == DW_USER &&
	    strcmp(name, "$$parms") && strcmp(name, "$$vars") &&
	    strcmp(name, "$$locals") && strcmp(name, "$$return")) {
		/* a function of the symbol table only (a library without
		 * debuginfo): its registers are there, its variables not */
		ci->err = arena_printf(e->a, "no debuginfo for function '%s' of %s, "
				    "cannot resolve context variable (use pointer_arg(N), "
				    "int_arg(N), returnval(), or install its debug symbols: "
				    "the -dbgsym/-dbg package)", s->fn->name, dw_mod_path(s->mod));
		return NULL;
	}
	if (name[0] == '$') {
		ci->is_string = true;
		if (write || p->comps.n || p->addr_of) {
			ci->err = "$$ variables can only be read, as a whole";
			return NULL;
		}
		return dwv_vars_string(e, s, x->target.name, p->pretty, &ci->err);
	}
	if (!dwv_scopes(s->mod, s, &sc)) {
		ci->err = "no scope at this address";
		return NULL;
	}
	sb_adds(&ac.c, dwv_body_head(s));
	if (!strcmp(name, "return"))
		ok = dwv_locate_return(&ac, &sc);
	else if (dwv_find_var(&sc, name, &var) < 0) {
		struct strbuf vars = STRBUF_INIT;
		const char *alt;

		dw_list_vars(e, s, &vars);	/* " $a:int $s:struct shape*" */
		alt = vars.len ? alternatives(e, vars.buf) : "";
		sb_release(&vars);
		ok = false;
		ac.err = arena_printf(e->a, "unable to find local '%s', [man error::dwarf] "
				      "dieoffset 0x%llx in %s%s", name,
				      (unsigned long long)s->fn->die, dw_mod_path(s->mod), alt);
	} else {
		ok = dwv_locate_var(&ac, &sc, &var, name);
	}
	free(sc.v);
	if (!ok) {
		ci->err = ac.err;
		sb_release(&ac.c);
		return NULL;
	}
	return finish(&ac, p, write, ci);
}
/* ---- @cast and @var: no probe site needed ---- */

/* PATH on the object of type @type at STAP_ARG_pointer. */
static const char *cast_from(struct access *ac, const Dwarf_Die *type,
			     const struct target_path *p, bool write,
			     struct dw_code_info *ci)
{
	ac->type = *type;
	ac->has_type = true;
	ac->cast_root = true;
	sb_adds(&ac->c, DWE_SLOTS_DECL);
	sb_adds(&ac->c, DWE_CAST_POINTER);
	ac->slot = 0;
	return finish(ac, p, write, ci);
}

const char *dw_cast_code(struct elab *e, struct dw_mod *m, const char *type,
			 const struct target_path *p, bool write,
			 struct dw_code_info *ci)
{
	struct access ac = ACCESS_INIT(e, NULL, m);
	Dwarf_Die t;

	memset(ci, 0, sizeof(*ci));
	if (!dw_find_type(m, type, &t)) {
		ci->err = arena_printf(e->a, "type definition '%s' not found in '%s'",
				       type, dw_mod_path(m));
		return NULL;
	}
	return cast_from(&ac, &t, p, write, ci);
}

const char *dw_autocast_code(struct elab *e, const struct dw_ptype *t,
			     const struct target_path *p, bool write,
			     struct dw_code_info *ci)
{
	struct access ac = ACCESS_INIT(e, NULL, t->m);

	memset(ci, 0, sizeof(*ci));
	return cast_from(&ac, &t->die, p, write, ci);
}

const struct dw_ptype *dw_ptype_find(struct elab *e, struct dw_mod *m,
				     const char *type)
{
	struct dw_ptype *t = arena_new_obj(e->a, struct dw_ptype);

	if (!dw_find_type(m, type, &t->die))
		return NULL;
	t->m = m;
	return t;
}

bool dw_ptype_same(struct elab *e, const struct dw_ptype *a,
		   const struct dw_ptype *b)
{
	Dwarf_Die da = a->die, db = b->die;

	if (a == b)
		return true;
	if (a->m != b->m)
		return false;
	if (dwarf_dieoffset(&da) == dwarf_dieoffset(&db))
		return true;
	/* one type defined in several compile units */
	return !strcmp(dw_type_name(e->a, &da), dw_type_name(e->a, &db));
}

const char *dw_var_code(struct elab *e, struct dw_mod *m, const char *name,
			const char *file, const struct target_path *p, bool write,
			struct dw_code_info *ci)
{
	struct access ac = ACCESS_INIT(e, NULL, m);
	Dwarf_Off off = 0, next;
	size_t hs;
	uint64_t addr = 0;
	bool found = false;
	const char *ae;

	memset(ci, 0, sizeof(*ci));
	while (!found && dwarf_nextcu(m->dw, off, &next, &hs, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu, c;

		if (dwarf_offdie(m->dw, off + hs, &cu) && dwarf_child(&cu, &c) == 0 &&
		    (!file || dw_file_matches(file, dwarf_diename(&cu)))) {
			do {
				Dwarf_Attribute a;
				Dwarf_Op *ops;
				size_t n;
				const char *vn = dwarf_diename(&c);

				if (dwarf_tag(&c) != DW_TAG_variable || !vn || strcmp(vn, name) ||
				    !dwarf_attr(&c, DW_AT_location, &a) ||
				    dwarf_getlocation(&a, &ops, &n) != 0 || n != 1 ||
				    ops[0].atom != DW_OP_addr)
					continue;
				addr = ops[0].number;
				ac.has_type = dwv_die_type(&c, &ac.type);
				found = true;
				break;
			} while (dwarf_siblingof(&c, &c) == 0);
		}
		off = next;
	}
	if (!found) {
		ci->err = arena_printf(e->a, "unable to find global '%s' in %s%s%s", name,
				    dw_mod_path(m), file ? ", in " : "", file ? file : "");
		return NULL;
	}
	sb_adds(&ac.c, DWE_SLOTS_DECL);
	ae = dw_static_addr(e, m, addr, &ci->err);
	if (!ae) {
		sb_release(&ac.c);
		return NULL;
	}
	sb_addf(&ac.c, DWE_STATIC_ADDR, ae);
	ac.slot = 0;
	return finish(&ac, p, write, ci);
}

const char *dwv_body_head(const struct dw_site *s)
{
	if (s->kind)
		return s->kind->body_head;
	/* a capture at a uretprobe's entry runs outside a probe's context,
	 * in a function that says its reads are of user memory */
	return s->mod && dw_mod_kind(s->mod) == DW_USER && !s->capture ? DWE_HEAD_UREGS
									: DWE_HEAD_REGS;
}
