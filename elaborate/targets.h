/* SPDX-License-Identifier: GPL-2.0-or-later */
/* targets.h: the lowering of target expressions ($var, $$vars, @cast,
 * @var, @entry, @defined, $$name) into calls of synthesized embedded-C
 * functions, and the per-probe clones of script functions that read
 * target variables (targets.c, targets_clone.c).
 *
 * Name resolution (symbols.c) calls these where it meets such an
 * expression, not in a pass of their own before it: diagnostics are
 * printed as they are found, and the library files a body needs are
 * included in the order its names are met, so that lowering first would
 * change the order of messages (an unresolved function before an unknown
 * $var in one body) and of functions in -p2 and -p3 (a library file a
 * global pulls in against a synthesized getter). A lowering that returns
 * true has turned its node into a call of the new function, which the
 * caller then resolves like any call. */
#ifndef ELABORATE_TARGETS_H
#define ELABORATE_TARGETS_H

#include <stdbool.h>

#include "util/source.h"

struct elab;
struct elab_func;
struct elab_probe;
struct expr;
struct decl;
struct dw_site;
struct dw_ptype;

/* The context a body is resolved in. */
struct tgt_ctx {
	struct elab_probe *probe;	/* the probe (in a function: the probe
					 * of a clone), or NULL */
	struct elab_func *fn;		/* the function, or NULL in probes */
};

/* The DWARF site target expressions in @c read (the probe's, when it has
 * exactly one point with one), or NULL. */
struct dw_site *tgt_site(const struct tgt_ctx *c);

/* ---- targets.c ---- */
/* Are @c's $variables its family's context variables (pm_family.ctxvars:
 * netfilter's $skb ...)? */
bool tgt_ctx_probe(const struct tgt_ctx *c);
/* $var, $$vars, $$name, procfs' $value (EXPR_TARGET @x), read, or written
 * when @write (the left side of an assignment outside a DWARF context).
 * Errors are reported here, except for a read that does not resolve
 * (deferred: tgt_deferred); true when @x became a call to resolve. */
bool tgt_target(struct elab *e, const struct tgt_ctx *c, struct expr *x,
		bool write);
/* The assignment @x to a $var in a DWARF context: a setter call (-g or a
 * library file). True when @x became a call to resolve. */
bool tgt_assign(struct elab *e, const struct tgt_ctx *c, struct expr *x);
/* @entry(...) (EXPR_ENTRY @x) in a .return probe: of a target expression,
 * captured by C at entry; of any other expression, by a probe body run
 * at entry (a synthesized point of family "entry"). True when @x became
 * a call to resolve. */
bool tgt_entry(struct elab *e, const struct tgt_ctx *c, struct expr *x);
/* @cast(...) (EXPR_CAST @x, its operand already resolved) and @var(...)
 * (EXPR_ATVAR): true when @x became a call to resolve. */
bool tgt_cast(struct elab *e, const struct tgt_ctx *c, struct expr *x);
bool tgt_atvar(struct elab *e, const struct tgt_ctx *c, struct expr *x);
/* `->` on a value (EXPR_DEREF @x, or the assignment @x to one) whose
 * operand holds addresses of DWARF type @pt: @x becomes a resolved call
 * of a synthesized getter (setter) taking the operand as its first
 * argument; true when it did. A path that does not resolve is deferred
 * (tgt_deferred). Called by type inference, which finds @pt. */
bool tgt_autocast(struct elab *e, struct expr *x, const struct dw_ptype *pt);
/* The DWARF type of what embedded-C function @f returns, from its
 * pragma `pragma:cast:TYPE[:MODULE]` in a comment (task_current(): a
 * task_struct), looked up once; NULL without one. */
const struct dw_ptype *tgt_pragma_ptype(struct elab *e, struct elab_func *f);
/* @defined(...) (EXPR_DEFINED @x) becomes the number 1 or 0. */
void tgt_fold_defined(struct elab *e, const struct tgt_ctx *c, struct expr *x);
/* The error of target expression @x, which did not resolve and was left
 * for types.c to report if it survives optimisation; else NULL. */
struct tgt_error {
	const char *msg;
	struct srcloc loc;
	const char *tok;	/* "identifier '$x'", "operator '->'" */
};
const struct tgt_error *tgt_deferred(struct elab *e, const struct expr *x);
/* The function a declaration synthesized or cloned here added, or NULL. */
struct elab_func *tgt_func_of_decl(struct elab *e, const struct decl *d);

/* @entry(EXPR) in a .return probe: the synthesized setter (run at entry)
 * and getter, whose bodies depend on the type of EXPR (@value). */
struct entry_fixup {
	struct dw_site *site;
	struct decl *set, *get;
	struct elab_var *value;
};
/* A parameter read in a .return probe: its value is captured at entry
 * (@code, into a number or string slot, @str) and read back by the
 * synthesized getter @get, whose body is written with the slot's offset
 * @off once the read is known to stay. */
struct entry_capture {
	struct dw_site *site;
	const char *code;
	bool str;
	struct decl *get;
	const char *off;
};
/* After optimization and type inference: the entry captures of the
 * parameter reads that are still used (one slot per distinct value and
 * site) and their getters' bodies; the bodies of the @entry setters and
 * getters, each with a slot for a number or a string. */
void tgt_finish_entries(struct elab *e);

/* ---- targets_clone.c ---- */
/* Does @f, or any function it calls (transitively), read target
 * variables? Cached per function. */
bool tgt_needs_site(struct elab *e, struct elab_func *f);
/* @f's clone for probe @p, made on first use (a recursive call in the
 * clone finds the clone itself); overloads of @f are cloned with it under
 * one new name. The clone is resolved later in @p's context. NULL when
 * none could be made. */
struct elab_func *tgt_clone(struct elab *e, struct elab_probe *p,
			    struct elab_func *f);

#endif
