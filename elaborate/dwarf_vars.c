// SPDX-License-Identifier: GPL-2.0-or-later
/* dwarf_vars.c: target variables at a probe site: the variables in scope
 * (for -L), and $var/$var->a[i].b/&$var/$return/$$vars compiled into the
 * C body of a getter (or setter) function. */
#include "elaborate/dwarf_loc.h"

#include <stdlib.h>
#include <string.h>

#include "parse/ast.h"
#include "util/arena.h"
#include "util/intern.h"
#include "util/strbuf.h"

#define VARS_MAX_MEMBER_DEPTH 16	/* anonymous struct/union nesting */
#define VARS_MAX_PARMS 64		/* variables listed by $$vars */

/* The scopes at a site, innermost first (CU last). */
struct scopes {
	Dwarf_Die cu;
	Dwarf_Die *v;
	int n;
};

#define VARS_MAX_SCOPES 32

/* The scopes at the site: the lexical blocks of its function that contain
 * the pc, innermost first, then the function and the compile unit. Code
 * inlined into the function is not entered: a statement probe on a line
 * that calls an inline function sees the caller's variables, as the
 * reference's do. */
static bool get_scopes(struct dw_mod *m, const struct dw_site *s,
		       struct scopes *sc)
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

static const char *die_name(Dwarf_Die *d)
{
	Dwarf_Attribute a;

	return dwarf_formstring(dwarf_attr_integrate(d, DW_AT_name, &a));
}

static bool die_type(Dwarf_Die *d, Dwarf_Die *t)
{
	Dwarf_Attribute a;

	return dwarf_formref_die(dwarf_attr_integrate(d, DW_AT_type, &a), t) != NULL;
}

static bool is_func_scope(Dwarf_Die *d)
{
	int tag = dwarf_tag(d);

	return tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine;
}

/* Variable or parameter @name visible in the scopes; its scope index. */
static int find_var(struct scopes *sc, const char *name, Dwarf_Die *out)
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
			n = die_name(&c);
			if (n && !strcmp(n, name)) {
				*out = c;
				return i;
			}
		} while (dwarf_siblingof(&c, &c) == 0);
	}
	return -1;
}

/* ---- -L ---- */

/* Does @var have a value at @pc (a location there, or a constant)? */
static bool has_location(Dwarf_Die *var, uint64_t pc)
{
	Dwarf_Attribute a;
	Dwarf_Op *ops;
	size_t n;

	if (dwarf_attr_integrate(var, DW_AT_const_value, &a))
		return true;
	if (!dwarf_attr(var, DW_AT_location, &a))
		return false;
	return dwarf_getlocation_addr(&a, pc, &ops, &n, 1) == 1 && n > 0;
}

void dw_list_vars(struct elab *e, const struct dw_site *s, struct strbuf *out)
{
	struct scopes sc;
	Dwarf_Die t;
	int i;

	if (!s || !s->fn || !get_scopes(s->mod, s, &sc))
		return;
	if (s->is_return) {
		for (i = 0; i < sc.n && !is_func_scope(&sc.v[i]); i++)
			;
		if (i < sc.n && die_type(&sc.v[i], &t))
			sb_addf(out, " $return:%s", dw_type_name(e->a, &t));
	}
	/* parameters of the innermost function, then (statement probes)
	 * locals of the scopes inside it */
	for (i = 0; i < sc.n; i++) {
		Dwarf_Die c;
		bool func = is_func_scope(&sc.v[i]), first = true;

		if (!func && !s->is_statement)
			continue;	/* function probes: the function's own block */
		if (dwarf_child(&sc.v[i], &c) == 0) {
			do {
				int tag = dwarf_tag(&c);
				const char *n = die_name(&c);

				if (s->is_trace) {	/* the arguments after __data */
					if (tag == DW_TAG_formal_parameter && !first && n)
						sb_addf(out, " $%s:%s", n, die_type(&c, &t) ?
							dw_type_name(e->a, &t) : "void");
					if (tag == DW_TAG_formal_parameter)
						first = false;
					continue;
				}

				if (!n || (tag != DW_TAG_formal_parameter &&
					   tag != DW_TAG_variable) || !has_location(&c, s->pc))
					continue;
				sb_addf(out, " $%s:%s", n, die_type(&c, &t) ?
					dw_type_name(e->a, &t) : "void");
			} while (dwarf_siblingof(&c, &c) == 0);
		}
		if (func)
			break;
	}
	free(sc.v);
}

/* ---- compiling an access ---- */

struct access {
	struct elab *e;
	const struct dw_site *s;
	struct dw_mod *m;
	struct strbuf c;
	int slot;		/* sN holding the address (MEM) or value */
	enum dw_loc_kind kind;
	const char *reg;
	Dwarf_Die type;		/* unstripped type of the current object */
	bool has_type;
	int bit_size, bit_off;	/* a bit-field member, when bit_size > 0 */
	int nidx;
	const char *err;
	bool copy;		/* MEM: in a copy assembled from pieces */
};

#define ACCESS_INIT(e_, s_, m_) \
	{ .e = (e_), .s = (s_), .m = (m_), .c = STRBUF_INIT, .kind = DWL_MEM }

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
static int cur_tag(struct access *ac, Dwarf_Die *stripped)
{
	if (!ac->has_type || !dw_type_strip(&ac->type, stripped))
		return 0;	/* void */
	dw_type_complete(ac->e, ac->m, stripped, stripped);
	return dwarf_tag(stripped);
}

static long long type_size(Dwarf_Die *t)
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
static bool deref(struct access *ac, Dwarf_Die *ptr)
{
	Dwarf_Die pointee;

	if (ac->kind == DWL_MEM)
		sb_addf(&ac->c, "\t\t{ u64 t; STP_DW_FETCH(t, s%d); s%d = t; }\n",
			ac->slot, ac->slot);
	else if (ac->kind == DWL_REG) {
		ac->slot = 14;
		sb_addf(&ac->c, "\t\ts14 = (u64)STP_DW_REGS->%s;\n", ac->reg);
	}
	ac->kind = DWL_MEM;
	ac->copy = false;	/* what it points to is real memory */
	if (!die_type(ptr, &pointee)) {
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

			if (die_type(&c, &t) && dw_type_strip(&t, &s) &&
			    find_member(&s, name, out, &inner, depth + 1)) {
				*off = o + inner;
				return true;
			}
		}
	} while (dwarf_siblingof(&c, &c) == 0);
	return false;
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
	int tag = cur_tag(ac, &st);

	if (tag == DW_TAG_pointer_type) {
		if (!deref(ac, &st))
			return false;
		tag = cur_tag(ac, &st);
	}
	if (tag != DW_TAG_structure_type && tag != DW_TAG_union_type &&
	    tag != DW_TAG_class_type) {
		ac->err = arena_printf(ac->e->a, "'%s' is not a struct or union: no "
				       "member '%s'", type_text(ac), field);
		return false;
	}
	if (!find_member(&st, field, &mem, &off, 0)) {
		ac->err = arena_printf(ac->e->a, "unable to find member '%s' for %s",
				       field, type_text(ac));
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
		sb_addf(&ac->c, "\t\ts14 = (u64)STP_DW_REGS->%s;\n", ac->reg);
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
	if (!die_type(&mem, &ac->type))
		ac->has_type = false;
	return true;
}

static bool index_step(struct access *ac, const struct expr *ix)
{
	Dwarf_Die st, elem;
	int tag = cur_tag(ac, &st);
	long long esize;
	const char *iv;

	if (ix->kind == EXPR_NUMBER)
		iv = arena_printf(ac->e->a, "(u64)%lldLL", (long long)ix->num);
	else
		iv = arena_printf(ac->e->a, "(u64)STAP_ARG_i%d", ac->nidx++);
	if (tag == DW_TAG_pointer_type) {
		if (!deref(ac, &st))
			return false;
		elem = ac->type;
	} else if (tag == DW_TAG_array_type) {
		if (ac->kind != DWL_MEM) {
			ac->err = "an array held in registers";
			return false;
		}
		if (!die_type(&st, &elem)) {
			ac->err = "array of unknown type";
			return false;
		}
	} else {
		ac->err = arena_printf(ac->e->a, "cannot index '%s': not an array "
				       "or pointer", type_text(ac));
		return false;
	}
	esize = type_size(&elem);
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
	int tag = cur_tag(ac, &st);
	Dwarf_Attribute a;
	Dwarf_Word enc = DW_ATE_unsigned;
	long long size;
	bool sign;

	if (tag == DW_TAG_array_type) {
		if (ac->kind != DWL_MEM || write) {
			ac->err = "an array is not a value";
			return false;
		}
		sb_addf(&ac->c, "\t\tSTAP_RETURN((s64)s%d);\n", ac->slot);
		return true;
	}
	if (tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
	    tag == DW_TAG_class_type || tag == 0) {
		ac->err = arena_printf(ac->e->a, "'%s' is not a value: use a member "
				       "('->'), '&', or the $ pretty-printer", type_text(ac));
		return false;
	}
	size = type_size(&ac->type);
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
			sb_addf(&ac->c, "\t\t{ %c%lld t = (%c%lld)STAP_ARG_value;\n"
				"\t\t  if (copy_to_kernel_nofault((void *)(unsigned long)s%d, &t, sizeof(t)))\n"
				"\t\t\tSTAP_ERROR(\"kernel write fault at 0x%%llx\", (unsigned long long)s%d); }\n",
				sign ? 's' : 'u', size * 8, sign ? 's' : 'u', size * 8,
				ac->slot, ac->slot);
		} else if (ac->kind == DWL_REG) {
			sb_addf(&ac->c, "\t\tSTP_DW_REGS->%s = (unsigned long)STAP_ARG_value;\n",
				ac->reg);
		} else {
			ac->err = "it is a computed value, not stored anywhere";
			return false;
		}
		sb_adds(&ac->c, "\t\tSTAP_RETURN(STAP_ARG_value);\n");
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
			sb_addf(&ac->c, "\t\tSTP_DW_FETCH(s15, s%d);\n", ac->slot);
		else
			sb_addf(&ac->c, "\t\ts15 = s%d;\n", ac->slot);
		if (sign)
			sb_addf(&ac->c, "\t\ts15 = (u64)((s64)(s15 << %d) >> %d);\n",
				left, 64 - ac->bit_size);
		else
			sb_addf(&ac->c, "\t\ts15 = (s15 << %d) >> %d;\n", left,
				64 - ac->bit_size);
	} else if (ac->kind == DWL_MEM) {
		sb_addf(&ac->c, "\t\t{ %c%lld t; STP_DW_FETCH(t, s%d); s15 = (u64)(s64)t; }\n",
			sign ? 's' : 'u', size * 8, ac->slot);
	} else if (ac->kind == DWL_REG) {
		sb_addf(&ac->c, "\t\ts15 = (u64)(s64)(%c%lld)STP_DW_REGS->%s;\n",
			sign ? 's' : 'u', size * 8, ac->reg);
	} else {
		sb_addf(&ac->c, "\t\ts15 = (u64)(s64)(%c%lld)s%d;\n",
			sign ? 's' : 'u', size * 8, ac->slot);
	}
	sb_adds(&ac->c, "\t\tSTAP_RETURN((s64)s15);\n");
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

/* Which tracepoint argument @var is (the __traceiter_ function's
 * parameters after void *__data), or -1. */
static int trace_arg_index(struct scopes *sc, Dwarf_Die *var)
{
	Dwarf_Die c;
	int i = -1;

	if (dwarf_child(&sc->v[sc->n - 2], &c) != 0)
		return -1;
	do {
		if (dwarf_tag(&c) != DW_TAG_formal_parameter)
			continue;
		if (dwarf_dieoffset(&c) == dwarf_dieoffset(var))
			return i;
		i++;
	} while (dwarf_siblingof(&c, &c) == 0);
	return -1;
}

/* Place the variable's value or address in the access. */
static bool locate_var(struct access *ac, struct scopes *sc, Dwarf_Die *var,
		       const char *name)
{
	struct loc_ctx lc;
	struct dw_loc l;
	Dwarf_Attribute a;
	Dwarf_Op *ops;
	size_t n = 0;
	int r;

	ac->has_type = die_type(var, &ac->type);
	if (ac->s->is_trace) {
		int k = trace_arg_index(sc, var);

		if (k < 0) {
			ac->err = arena_printf(ac->e->a, "'%s' is not an argument of "
					       "this tracepoint", name);
			return false;
		}
		sb_addf(&ac->c, "\t\ts0 = CONTEXT->tp_args[%d];\n", k);
		ac->kind = DWL_VALUE;
		ac->slot = 0;
		return true;
	}
	if (!dwarf_attr(var, DW_AT_location, &a)) {
		Dwarf_Attribute cv;
		Dwarf_Sword sv;

		if (dwarf_attr_integrate(var, DW_AT_const_value, &cv) &&
		    dwarf_formsdata(&cv, &sv) == 0) {
			sb_addf(&ac->c, "\t\ts0 = 0x%llxULL;\n", (unsigned long long)sv);
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

static bool locate_return(struct access *ac, struct scopes *sc)
{
	int i;

	for (i = 0; i < sc->n && !is_func_scope(&sc->v[i]); i++)
		;
	if (!ac->s->is_return || i == sc->n || !die_type(&sc->v[i], &ac->type)) {
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

/* The opening of every getter body: a block declaring the expression
 * stack s0..s15 (see dwarf_loc.h). */
#define DW_SLOTS_DECL								\
	"\t{\n"								\
	"\t\tu64 s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;\n" \
	"\t\tu64 s8 = 0, s9 = 0, s10 = 0, s11 = 0, s12 = 0, s13 = 0, s14 = 0, s15 = 0;\n\n" \
	"\t\t(void)s0; (void)s1; (void)s2; (void)s3; (void)s4; (void)s5; (void)s6;\n" \
	"\t\t(void)s7; (void)s8; (void)s9; (void)s10; (void)s11; (void)s12;\n" \
	"\t\t(void)s13; (void)s14; (void)s15;\n"

/* ... after checking that the probe's context has what the body reads. */
static const char *body_head(const struct dw_site *s)
{
	return s->is_trace ?
	       "\tif (!CONTEXT->tp_args)\n"
	       "\t\tSTAP_ERROR(\"cannot access tracepoint arguments in this context\");\n"
	       DW_SLOTS_DECL :
	       "\tif (!STP_DW_REGS)\n"
	       "\t\tSTAP_ERROR(\"cannot access target variables in this context\");\n"
	       DW_SLOTS_DECL;
}

/* The printing into STAP_RETVALUE: STP_PP appends, up to MAXSTRINGLEN. */
#define PP_DEFINE \
	"#define STP_PP(...) do { if (n < MAXSTRINGLEN - 1) n += scnprintf(b + n, MAXSTRINGLEN - n, __VA_ARGS__); } while (0)\n"
#define PP_HEAD "\t\tsize_t n = 0;\n\t\tchar *b = STAP_RETVALUE;\n\n\t\tb[0] = '\\0';\n" PP_DEFINE
#define PP_TAIL "#undef STP_PP\n"

static bool pretty(struct access *ac, bool deep);

/* $$vars / $$parms / $$locals / $$return: "a=0x1 b=0x2" (unreadable: "a=?");
 * with @pretty, each value as $var$ ($$vars$) or $var$$ ($$vars$$) prints it. */
static const char *vars_string(struct elab *e, const struct dw_site *s,
			       const char *which, int pretty_level, const char **err)
{
	struct scopes sc;
	struct strbuf fmt = STRBUF_INIT, args = STRBUF_INIT, code = STRBUF_INIT;
	bool parms = !strcmp(which, "$$parms") || !strcmp(which, "$$vars");
	bool locals = !strcmp(which, "$$locals") || !strcmp(which, "$$vars");
	bool ret = !strcmp(which, "$$return");
	int i, k = 0;

	if (!s->fn->die)	/* a function the DWARF does not describe */
		return "\tSTAP_RETVALUE[0] = '\\0';\n";
	if (!get_scopes(s->mod, s, &sc)) {
		*err = "no scope at this address";
		return NULL;
	}
	sb_adds(&code, body_head(s));
	if (pretty_level)	/* printed piece by piece, no format */
		sb_adds(&code, PP_HEAD);
	if (ret) {
		struct access ac = ACCESS_INIT(e, s, s->mod);

		if (!s->is_return) {
			free(sc.v);
			*err = "$$return exists only in .return probes";
			return NULL;
		}
		if (locate_return(&ac, &sc)) {	/* a void function: "" */
			if (pretty_level) {
				sb_adds(&code, "\t\tSTP_PP(\"return=\");\n\t\t{\n");
				if (pretty(&ac, pretty_level == 2))
					sb_adds(&code, sb_str(&ac.c));
				else
					sb_adds(&code, "\t\tSTP_PP(\"?\");\n");
				sb_adds(&code, "\t\t}\n");
			} else {
				sb_adds(&fmt, "return=0x%llx");
				sb_adds(&args, ", (unsigned long long)regs_return_value(STP_DW_REGS)");
			}
		}
		sb_release(&ac.c);
	}
	for (i = 0; !ret && i < sc.n && k < VARS_MAX_PARMS; i++) {
		Dwarf_Die c;
		bool func = is_func_scope(&sc.v[i]);

		if (dwarf_child(&sc.v[i], &c) == 0) {
			do {
				int tag = dwarf_tag(&c);
				const char *n = die_name(&c);
				struct access ac = ACCESS_INIT(e, s, s->mod);
				Dwarf_Die st;
				int t = 0;

				if (!n || !((tag == DW_TAG_formal_parameter && parms) ||
					    (tag == DW_TAG_variable && locals)) ||
				    (s->is_trace && !strcmp(n, "__data")))
					continue;
				if (pretty_level) {
					sb_addf(&code, "\t\tSTP_PP(\"%s%s=\");\n\t\t{\n", k++ ? " " : "", n);
					if (locate_var(&ac, &sc, &c, n) && pretty(&ac, pretty_level == 2))
						sb_adds(&code, sb_str(&ac.c));
					else
						sb_adds(&code, "\t\tSTP_PP(\"?\");\n");
					sb_adds(&code, "\t\t}\n");
					sb_release(&ac.c);
					continue;
				}
				sb_addf(&fmt, "%s%s=", k++ ? " " : "", n);
				if (!locate_var(&ac, &sc, &c, n) ||
				    ((t = cur_tag(&ac, &st)) != DW_TAG_base_type &&
				     t != DW_TAG_pointer_type && t != DW_TAG_enumeration_type)) {
					sb_adds(&fmt, t == DW_TAG_structure_type ||
						t == DW_TAG_union_type ? "{...}" : "?");
					sb_release(&ac.c);
					continue;
				}
				/* each value into v<k>, read as 64 bits, its code
				 * in a block of its own */
				sb_addf(&code, "\t\tu64 v%d;\n\t\t{\n", k);
				sb_adds(&code, sb_str(&ac.c));
				if (ac.kind == DWL_MEM)
					sb_addf(&code, "\t\tSTP_DW_FETCH(v%d, s%d);\n", k, ac.slot);
				else if (ac.kind == DWL_REG)
					sb_addf(&code, "\t\tv%d = (u64)STP_DW_REGS->%s;\n", k, ac.reg);
				else
					sb_addf(&code, "\t\tv%d = s%d;\n", k, ac.slot);
				sb_adds(&code, "\t\t}\n");
				sb_adds(&fmt, "0x%llx");
				sb_addf(&args, ", (unsigned long long)v%d", k);
				sb_release(&ac.c);
			} while (dwarf_siblingof(&c, &c) == 0 && k < VARS_MAX_PARMS);
		}
		if (func)
			break;
	}
	free(sc.v);
	if (pretty_level)
		sb_adds(&code, PP_TAIL "\t\tSTAP_RETURN(STAP_RETVALUE);\n\t}\n");
	else
		sb_addf(&code, "\t\tsnprintf(STAP_RETVALUE, MAXSTRINGLEN, \"%s\"%s);\n"
			"\t\tSTAP_RETURN(STAP_RETVALUE);\n\t}\n", sb_str(&fmt), sb_str(&args));
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
	long long size = type_size(t);
	int tag = dw_type_strip(t, &st) ? dwarf_tag(&st) : 0;
	bool sign;

	if (tag == DW_TAG_pointer_type) {
		bool str = die_type(&st, &sub) && dw_type_strip(&sub, &sub) &&
			   dwarf_tag(&sub) == DW_TAG_base_type && type_size(&sub) == 1;

		sb_addf(c, "\t\t{ u64 p; if (stp_read_kernel(&p, a%d, 8)) STP_PP(\"?\");\n", depth);
		if (str)
			sb_addf(c, "\t\t  else if (!p) STP_PP(\"NULL\"); else { char *q = stp_scratch();\n"
				"\t\t    if (stp_kernel_strn(q, p, MAXSTRINGLEN) && stp_user_strn(q, p, MAXSTRINGLEN))\n"
				"\t\t\tSTP_PP(\"0x%%llx\", (unsigned long long)p);\n"
				"\t\t    else STP_PP(\"\\\"%%s\\\"\", q); } }\n");
		else
			sb_adds(c, "\t\t  else STP_PP(\"0x%llx\", (unsigned long long)p); }\n");
		return;
	}
	if (tag != DW_TAG_base_type && tag != DW_TAG_enumeration_type) {
		sb_addf(c, "\t\t(void)a%d; STP_PP(\"?\");\n", depth);
		return;
	}
	dwarf_formudata(dwarf_attr_integrate(&st, DW_AT_encoding, &a), &enc);
	if (enc == DW_ATE_float || (size != 1 && size != 2 && size != 4 && size != 8)) {
		sb_addf(c, "\t\t(void)a%d; STP_PP(\"?\");\n", depth);
		return;
	}
	sign = tag == DW_TAG_base_type && (enc == DW_ATE_signed || enc == DW_ATE_signed_char);
	sb_addf(c, "\t\t{ %c%lld v; if (stp_read_kernel(&v, a%d, sizeof(v))) STP_PP(\"?\");\n",
		sign ? 's' : 'u', size * 8, depth);
	if (size == 1 && (enc == DW_ATE_signed_char || enc == DW_ATE_unsigned_char))
		sb_adds(c, "\t\t  else if (v >= 32 && v < 127) STP_PP(\"'%c'\", (char)v);\n"
			   "\t\t  else STP_PP(\"'\\\\x%02x'\", (unsigned)(u8)v); }\n");
	else
		sb_addf(c, "\t\t  else STP_PP(\"%s\", (%s)v); }\n", sign ? "%lld" : "%llu",
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
	sb_addf(&c, "/* %s %s%s */\n"
		"static __maybe_unused size_t %s(char *b, size_t n, u64 a0, int depth)\n{\n"
		PP_DEFINE
		"\tif (depth >= %d%s) {\n\t\tSTP_PP(\"{...}\");\n\t\treturn n;\n\t}\n"
		"\tSTP_PP(\"{\");\n",
		dwarf_tag(st) == DW_TAG_union_type ? "union" : "struct",
		dwarf_diename(st) ? dwarf_diename(st) : "<anonymous>", deep ? " ($$)" : "",
		name, PRETTY_MAX_DEPTH, deep ? "" : " || depth > 0");
	if (dwarf_child(st, &m) == 0) {
		do {
			Dwarf_Attribute a;
			Dwarf_Word off = 0, bits;
			const char *n = dwarf_diename(&m);

			if (dwarf_tag(&m) != DW_TAG_member || !die_type(&m, &mt))
				continue;
			if (k++ >= PRETTY_MAX_MEMBERS) {
				sb_adds(&c, "\t\tSTP_PP(\", ...\");\n");
				break;
			}
			dwarf_formudata(dwarf_attr(&m, DW_AT_data_member_location, &a), &off);
			sb_addf(&c, "\t\tSTP_PP(\"%s%s%s=\");\n", k > 1 ? ", " : "",
				n ? "." : "", n ? n : "<union>");
			if (dwarf_formudata(dwarf_attr(&m, DW_AT_bit_size, &a), &bits) == 0) {
				Dwarf_Word bo = 0;
				int left;

				dwarf_formudata(dwarf_attr(&m, DW_AT_data_bit_offset, &a), &bo);
				left = 64 - (int)(bo % 8) - (int)bits;
				sb_addf(&c, "\t\t{ u64 v; if (stp_read_kernel(&v, a0 + %llu, 8)) STP_PP(\"?\");\n"
					"\t\t  else STP_PP(\"%%llu\", (unsigned long long)((v << %d) >> %d)); }\n",
					(unsigned long long)(off + bo / 8), left < 0 ? 0 : left,
					64 - (int)bits);
				continue;
			}
			sb_addf(&c, "\t\t{ u64 a1 = a0 + %llu;\n", (unsigned long long)off);
			pretty_obj(ac, &c, &mt, 1, "depth + 1", deep);
			sb_adds(&c, "\t\t}\n");
		} while (dwarf_siblingof(&m, &m) == 0);
	}
	sb_adds(&c, "\tSTP_PP(\"}\");\n" PP_TAIL "\treturn n;\n}\n\n");
	vec_push(e->a, &e->dw_printer_code, (void *)sb_to_arena(&c, e->a));
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

		if (!die_type(&st, &et) || !deep) {
			sb_addf(c, "\t\t(void)a%d; STP_PP(\"[...]\");\n", local);
			return;
		}
		if (type_size(&et) == 1) {	/* char[]: a string */
			sb_addf(c, "\t\t{ char *q = stp_scratch(); if (stp_kernel_strn(q, a%d, MAXSTRINGLEN))\n"
				"\t\t\tSTP_PP(\"?\"); else STP_PP(\"\\\"%%s\\\"\", q); }\n", local);
			return;
		}
		sb_adds(c, "\t\tSTP_PP(\"[\");\n");
		pretty_obj(ac, c, &et, local, depth, deep);
		sb_adds(c, "\t\tSTP_PP(\", ...]\");\n");
		return;
	}
	if (tag != DW_TAG_structure_type && tag != DW_TAG_union_type) {
		pretty_scalar(c, t, local);
		return;
	}
	if (!deep && local > 0) {	/* a nested struct of $var$: not expanded */
		sb_addf(c, "\t\t(void)a%d; STP_PP(\"{...}\");\n", local);
		return;
	}
	sb_addf(c, "\t\tn = %s(b, n, a%d, %s);\n", printer(ac, &st, deep), local, depth);
}

/* The object of the access, printed with STP_PP: a struct/union (through
 * a pointer too) as {.m=v, ...}, a scalar as its value. */
static bool pretty(struct access *ac, bool deep)
{
	Dwarf_Die st;
	int tag = cur_tag(ac, &st);

	if (tag == DW_TAG_pointer_type) {
		Dwarf_Die pt;

		if (die_type(&st, &pt) && dw_type_strip(&pt, &pt) &&
		    (dwarf_tag(&pt) == DW_TAG_structure_type ||
		     dwarf_tag(&pt) == DW_TAG_union_type)) {
			if (!deref(ac, &st))
				return false;
			tag = cur_tag(ac, &st);
		}
	}
	if (ac->kind == DWL_REG) {
		ac->slot = 14;
		sb_addf(&ac->c, "\t\ts14 = (u64)STP_DW_REGS->%s;\n", ac->reg);
		ac->kind = DWL_VALUE;
	}
	if (ac->kind == DWL_VALUE) {
		/* a value: keep it in memory of our own to read it like one */
		sb_addf(&ac->c, "\t\tu64 cell = s%d;\n", ac->slot);
		sb_adds(&ac->c, "\t\tu64 a0 = (u64)(unsigned long)&cell;\n");
	} else {
		sb_addf(&ac->c, "\t\tu64 a0 = s%d;\n", ac->slot);
	}
	pretty_obj(ac, &ac->c, &ac->type, 0, "0", deep);
	return true;
}

/* Finish an access whose object is in place: the path, then &, the
 * printed value ($ and $$ suffixes) or the value. */
static const char *finish(struct access *ac, const struct target_path *p,
			  bool write, int *nidx, bool *is_string, const char **err)
{
	bool ok = true;
	size_t i;

	*is_string = false;
	for (i = 0; ok && i < p->comps.n; i++) {
		const struct target_comp *tc = p->comps.v[i];

		ok = tc->is_index ? index_step(ac, tc->index) : member(ac, tc->field);
	}
	if (ok && p->pretty) {
		if (write || p->addr_of) {
			ac->err = "a pretty-printed value cannot be written or addressed";
			ok = false;
		} else {
			sb_adds(&ac->c, PP_HEAD);
			ok = pretty(ac, p->pretty == 2);
			sb_adds(&ac->c, PP_TAIL);
			*is_string = true;
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
			sb_addf(&ac->c, "\t\tSTAP_RETURN((s64)s%d);\n", ac->slot);
		}
	} else if (ok) {
		ok = fetch(ac, write);
	}
	if (!ok) {
		*err = ac->err;
		sb_release(&ac->c);
		return NULL;
	}
	sb_adds(&ac->c, "\t}\n");
	*nidx = ac->nidx;
	return sb_to_arena(&ac->c, ac->e->a);
}

const char *dw_target_code(struct elab *e, const struct dw_site *s,
			   const struct expr *x, bool write, int *nidx,
			   bool *is_string, const char **err)
{
	struct access ac = ACCESS_INIT(e, s, s ? s->mod : NULL);
	const struct target_path *p = &x->target.path;
	const char *name = x->target.name + 1;	/* without '$' */
	struct scopes sc;
	Dwarf_Die var;
	bool ok;

	*nidx = 0;
	*is_string = false;
	if (!s || !s->fn) {
		*err = "probes of this kind have no debuginfo context";
		return NULL;
	}
	if (name[0] == '$') {
		*is_string = true;
		if (write || p->comps.n || p->addr_of) {
			*err = "$$ variables can only be read, as a whole";
			return NULL;
		}
		return vars_string(e, s, x->target.name, p->pretty, err);
	}
	if (!get_scopes(s->mod, s, &sc)) {
		*err = "no scope at this address";
		return NULL;
	}
	sb_adds(&ac.c, body_head(s));
	if (!strcmp(name, "return"))
		ok = locate_return(&ac, &sc);
	else if (find_var(&sc, name, &var) < 0) {
		ok = false;
		ac.err = arena_printf(e->a, "unable to find local '%s', [man error::dwarf] "
				      "dieoffset 0x%llx in %s", name,
				      (unsigned long long)s->fn->die, dw_mod_path(s->mod));
	} else {
		ok = locate_var(&ac, &sc, &var, name);
	}
	free(sc.v);
	if (!ok) {
		*err = ac.err;
		sb_release(&ac.c);
		return NULL;
	}
	return finish(&ac, p, write, nidx, is_string, err);
}

const char *dw_entry_slot(struct arena *a, struct dw_site *s, bool str)
{
	const char *off = s->entry_strs ?
		arena_printf(a, "(%u + %u * STP_STR_SLOTS)", s->entry_slots, s->entry_strs) :
		arena_printf(a, "%u", s->entry_slots);

	if (str)
		s->entry_strs++;
	else
		s->entry_slots++;
	return off;
}

const char *dw_entry_capture(struct elab *e, struct dw_site *s,
			     const struct expr *x, bool *str, const char **err)
{
	struct strbuf c = STRBUF_INIT;
	const char *code, *off;
	bool ret = s->is_return;
	unsigned k = s->entry_slots + s->entry_strs;	/* a label number */
	int nidx;

	/* the values at entry: the site's pc is the function's entry */
	s->is_return = false;
	code = dw_target_code(e, s, x, false, &nidx, str, err);
	s->is_return = ret;
	if (!code)
		return NULL;
	if (nidx) {
		*err = "array indexes that are not literals cannot be captured at entry";
		return NULL;
	}
	off = dw_entry_slot(e->a, s, *str);
	sb_adds(&c, s->entry_code ? s->entry_code : "");
	if (*str)	/* the getter fills STAP_RETVALUE, or returns a string */
		sb_addf(&c, "#define STAP_RETVALUE ((char *)(slots + %s))\n"
			"#define STAP_RETURN(v) do { stp_entry_str(STAP_RETVALUE, (v)); goto entry%u; } while (0)\n"
			"#define STAP_ERROR(...) do { STAP_RETVALUE[0] = '\\0'; goto entry%u; } while (0)\n",
			off, k, k);
	else
		sb_addf(&c, "#define STAP_RETURN(v) do { slots[%s] = (u64)(v); goto entry%u; } while (0)\n"
			"#define STAP_ERROR(...) do { slots[%s] = 0; goto entry%u; } while (0)\n",
			off, k, off, k);
	sb_addf(&c, "%sentry%u: __attribute__((unused));\n#undef STAP_RETURN\n#undef STAP_ERROR\n%s", code, k,
		*str ? "#undef STAP_RETVALUE\n" : "");
	s->entry_code = sb_to_arena(&c, e->a);
	return arena_printf(e->a, "\tif (!CONTEXT->ri)\n"
			    "\t\tSTAP_ERROR(\"no entry values in this context\");\n"
			    "\tSTAP_RETURN(%s((u64 *)CONTEXT->ri->data + %s));\n",
			    *str ? "(const char *)" : "(s64)*", off);
}

/* ---- @cast and @var: no probe site needed ---- */


const char *dw_cast_code(struct elab *e, struct dw_mod *m, const char *type,
			 const struct target_path *p, bool write, int *nidx,
			 bool *is_string, const char **err)
{
	struct access ac = ACCESS_INIT(e, NULL, m);

	if (!dw_find_type(m, type, &ac.type)) {
		*err = arena_printf(e->a, "type definition '%s' not found in '%s'",
				    type, dw_mod_path(m));
		return NULL;
	}
	ac.has_type = true;
	sb_adds(&ac.c, DW_SLOTS_DECL);
	sb_adds(&ac.c, "\t\ts0 = (u64)STAP_ARG_pointer;\n");
	ac.slot = 0;
	return finish(&ac, p, write, nidx, is_string, err);
}

const char *dw_var_code(struct elab *e, struct dw_mod *m, const char *name,
			const char *file, const struct target_path *p, bool write,
			int *nidx, bool *is_string, const char **err)
{
	struct access ac = ACCESS_INIT(e, NULL, m);
	Dwarf_Off off = 0, next;
	size_t hs;
	uint64_t addr = 0;
	bool found = false;
	const char *ae;

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
				ac.has_type = die_type(&c, &ac.type);
				found = true;
				break;
			} while (dwarf_siblingof(&c, &c) == 0);
		}
		off = next;
	}
	if (!found) {
		*err = arena_printf(e->a, "unable to find global '%s' in %s%s%s", name,
				    dw_mod_path(m), file ? ", in " : "", file ? file : "");
		return NULL;
	}
	sb_adds(&ac.c, DW_SLOTS_DECL);
	ae = dw_static_addr(e, m, addr, err);
	if (!ae) {
		sb_release(&ac.c);
		return NULL;
	}
	sb_addf(&ac.c, "\t\ts0 = %s;\n", ae);
	ac.slot = 0;
	return finish(&ac, p, write, nidx, is_string, err);
}
