/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dwarf_vars.h: what the target-variable files share: the scopes at a
 * site (dwarf_scope.c), an access being compiled to C (dwarf_access.c),
 * the printers and entry capture (dwarf_pretty.c) and the tracepoint
 * special cases (dwarf_trace_vars.c). */
#ifndef ELABORATE_DWARF_VARS_H
#define ELABORATE_DWARF_VARS_H

#include "elaborate/dwarf_loc.h"
#include "util/strbuf.h"

#define VARS_MAX_PARMS 64		/* variables listed by $$vars */

/* ---- dwarf_scope.c ---- */

/* The scopes at a site, innermost first (CU last). */
struct scopes {
	Dwarf_Die cu;
	Dwarf_Die *v;		/* malloc'd: the caller frees it */
	int n;
};

/* The scopes at @s: the lexical blocks of its function that contain the
 * pc, innermost first, then the function and the compile unit. False when
 * the site has no DIE (or on allocation failure); on success the caller
 * frees @sc->v. */
bool dwv_scopes(struct dw_mod *m, const struct dw_site *s, struct scopes *sc);
/* DW_AT_name of @d (through abstract origins), or NULL. */
const char *dwv_die_name(Dwarf_Die *d);
/* The DW_AT_type of @d into @t; false for void. */
bool dwv_die_type(Dwarf_Die *d, Dwarf_Die *t);
/* Is @d a function (out of line, or an inlined copy)? */
bool dwv_func_scope(Dwarf_Die *d);
/* Variable or parameter @name visible in @sc into @out: the index of its
 * scope, or -1 when there is none. */
int dwv_find_var(struct scopes *sc, const char *name, Dwarf_Die *out);

/* ---- dwarf_access.c ---- */

/* An access being compiled: C statements in @c that leave the object
 * (its address, register or value) in sN = @slot. */
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
	bool cast_root;		/* @cast(p, T): p[i] indexes an array of T */
	const struct target_comp *err_at;	/* the step that failed */
};

#define ACCESS_INIT(e_, s_, m_) \
	{ .e = (e_), .s = (s_), .m = (m_), .c = STRBUF_INIT, .kind = DWL_MEM }

/* The tag of the current object's type, typedefs and qualifiers stripped
 * (into @stripped) and a declared struct completed; 0 for void. */
int dwv_tag(struct access *ac, Dwarf_Die *stripped);
/* The size in bytes of type @t (pointers: 8), or -1. */
long long dwv_type_size(Dwarf_Die *t);
/* The current object is pointer @ptr: make its target the current object.
 * False with @ac->err for a void pointer. */
bool dwv_deref(struct access *ac, Dwarf_Die *ptr);
/* Place variable @var (named @name) of @sc in the access: its location at
 * the site compiled to C. False with @ac->err when it has none there. */
bool dwv_locate_var(struct access *ac, struct scopes *sc, Dwarf_Die *var,
		    const char *name);
/* Place $return: false with @ac->err outside .return probes or for a
 * function without a return value. */
bool dwv_locate_return(struct access *ac, struct scopes *sc);

/* ---- dwarf_pretty.c ---- */

/* Append to @ac->c the printing of the access's object with STP_PP (see
 * dwarf_emit.h): a struct/union (through a pointer too) as {.m=v, ...}, a
 * scalar as its value; @deep expands nested structs and arrays ($$). */
bool dwv_pretty(struct access *ac, bool deep);
/* The getter body of $$vars / $$parms / $$locals / $$return (@which) at
 * @s; @pretty_level 1 or 2 for the $ and $$ suffixes. NULL with @err. */
const char *dwv_vars_string(struct elab *e, const struct dw_site *s,
			    const char *which, int pretty_level, const char **err);

/* ---- a kind of site (struct dw_site.kind) ----
 * The hooks by which a kind of site's target variables differ from a code
 * location's; the generic code calls them when dw_site.kind is set and
 * knows no kind by name. The one kind today is the tracepoint's
 * (dwarf_trace_vars.c): its variables are the arguments of its
 * __traceiter_ function after void *__data, read from CONTEXT->tp_args[]
 * rather than from registers and memory. */
struct dw_site_kind {
	/* -L: append " $name:type" for each variable of function scope @fn */
	void (*list_vars)(struct elab *e, Dwarf_Die *fn, struct strbuf *out);
	/* Place variable @var (named @name) in the access; false with
	 * @ac->err when it is not one of the site's variables */
	bool (*locate)(struct access *ac, struct scopes *sc, Dwarf_Die *var,
		       const char *name);
	/* Is @name a parameter $$vars and $$parms leave out? */
	bool (*hidden)(const char *name);
	/* The opening of a getter body: the check that the probe's context
	 * has what the body reads (dwarf_emit.h) */
	const char *body_head;
};

/* The opening of a getter body at @s: a check that the probe's context
 * has what the body reads (registers, or a site kind's values), then the
 * declaration of the expression stack (dwarf_emit.h). */
const char *dwv_body_head(const struct dw_site *s);

#endif
