/* SPDX-License-Identifier: GPL-2.0-or-later */
/* xl.h: the state of one translation, shared by the translator's files.
 * Everything lives in the session arena; nothing is global. */
#ifndef TRANSLATE_XL_H
#define TRANSLATE_XL_H

#include <stdbool.h>
#include <stdio.h>

#include "elaborate/elab.h"
#include "families.h"
#include "util/strbuf.h"

/* A C expression for a script value, valid until the end of the script
 * statement being translated. @stable: later code cannot change what it
 * denotes (a literal or a temporary), so it need not be saved before
 * other operands run statements. */
struct cv {
	const char *t;
	bool stable;
};

struct xl_fn;

struct xl {
	const struct elab_result *r;	/* pass 2's result: all it reads */
	const struct session *s;
	struct arena *a;
	const char *modname;

	struct strbuf head;		/* file scope: tables, frame structs */
	struct strbuf *cur;		/* the function being written */
	int indent;

	/* The function or probe body being translated. */
	struct xl_fn *fn;
	int nlong;			/* long temporaries t0.. (C locals) */
	int nstr;			/* string temporaries in use (frame) */
	int maxstr;			/* most string temporaries at once */
	int nlabel;			/* labels and loop state */
	const char *err_label;		/* where an error goes */
	const char *cont_label;		/* `continue` target, or NULL */
	bool in_loop;
	struct ptrvec fe_stack;		/* arrays of the enclosing foreach loops */

	int nfmt;			/* format tables */
	int nloc;			/* location strings */
	struct ptrmap loc_of;		/* struct expr/stmt, and interned
					 * location text -> "stp_loc12" */
	struct ptrmap body_of;		/* a probe body's code with its own
					 * names taken out (interned) -> the
					 * C name of the first such body */
	struct ptrmap names;		/* function / global -> C name */
	struct ptrmap locks_of;		/* a lock table's entries (interned)
					 * -> the C name of the first such
					 * table: probes share equal ones */
	int nfunc;
	int errors;

	struct ptrmap pp_of;		/* live elab_point -> "stp_ppN" */
	bool re_caps;			/* the script calls matched(): =~
					 * records its groups */
	size_t re_max_insts, re_max_slots;	/* the largest such program */
	bool mech_used[MECH_COUNT];	/* mechanisms with points */
	bool usym;			/* the script calls a function of
					 * tapset/usym.stp: the module carries
					 * user-space symbol tables (usyms.c) */
	bool usym_lines;		/* and one of its source-line functions:
					 * with line tables */
	bool sc_names_done;		/* stp_syscall_names[] is emitted */
};

/* The frame (locals) of a probe body or function being written. */
struct xl_fn {
	const char *frame;		/* struct name: "stp_frame_p3" */
	struct elab_func *f;		/* or NULL for a probe body */
	struct elab_probe *p;
	bool embedded;			/* embedded-C function */
};

/* ---- emit.c ---- */
void em(struct xl *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void em_label(struct xl *x, const char *label);
/* The target's system-call names by number, as stp_syscall_names[] at
 * file scope, once (translate/probes/syscall.c). */
void xl_syscall_names(struct xl *x, const char *const *names, size_t n);
void em_head(struct xl *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A C string literal for @len bytes at @s. */
const char *c_string(struct arena *a, const char *s, size_t len);
/* A translation error at @loc (token text @tok). */
void xl_error(struct xl *x, const struct srcloc *loc, const char *tok,
	      const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* The name of a static string "TOKEN at FILE:L:C" for run-time errors. */
const char *xl_loc(struct xl *x, const struct expr *e);
const char *xl_stmt_loc(struct xl *x, const struct stmt *s);
/* The same for token text @tok at @loc (one string per @key). */
const char *xl_loc_at(struct xl *x, const void *key, const char *tok,
		      const struct srcloc *loc);

/* ---- names.c ---- */
const char *xl_global(struct xl *x, const struct elab_var *v);	/* "g_NAME" */
/* The C lvalue of a local or parameter of the current frame. */
const char *xl_local(struct xl *x, const struct elab_var *v);
const char *xl_func_name(struct xl *x, const struct elab_func *f);
const char *xl_frame_name_of(struct xl *x, const struct elab_func *f);
/* The field of parameter @i of @f in its frame. */
const char *xl_param_field(struct xl *x, const struct elab_func *f, int i);
const char *xl_new_long(struct xl *x);	/* "t3" */
const char *xl_new_str(struct xl *x);	/* "l->__s2" */
const char *xl_new_label(struct xl *x, const char *what);

/* ---- expr.c ---- */
struct cv xl_expr(struct xl *x, struct expr *e);
/* Evaluate @e for its effects only. */
void xl_expr_stmt(struct xl *x, struct expr *e);
/* The truth of a long expression, as C text. */
const char *xl_cond(struct xl *x, struct expr *e);
/* A (const union stp_arg[]){...} of the index expressions @idx (NULL
 * entries are wildcards and are not allowed here). */
const char *xl_keys(struct xl *x, struct ptrvec *idx);
void xl_check_error(struct xl *x);
/* Array slices: does @idx hold a '*'? The keys of a slice (placeholders
 * for the wildcards) and in *@mask the positions that must match. */
bool xl_has_wildcard(const struct ptrvec *idx);
const char *xl_slice_keys(struct xl *x, struct expr *base, struct ptrvec *idx,
			  unsigned *mask);
/* Evaluate @n operands left to right (see expr.c). */
void xl_operands(struct xl *x, struct expr **es, size_t n, struct cv *out);
/* (const union stp_arg[]){ ... } of evaluated values. */
const char *xl_arg_array(struct xl *x, struct cv *v, struct expr **es, size_t n);
/* A call of @f with argument values @args (C text, one per parameter);
 * its result, if any, goes to @result (NULL: dropped). */
void xl_emit_call(struct xl *x, struct elab_func *f, const char *const *args,
		  const char *result);
/* print(@hist_*(s)) */
struct cv xl_hist_print(struct xl *x, struct expr *h, struct expr *at);
/* The variable a symbol expression stands for. */
struct elab_var *xl_var(struct xl *x, const struct expr *e);

/* ---- stmt.c ---- */
void xl_stmt(struct xl *x, struct stmt *s);

/* ---- probe_tables.c ---- */
/* The handlers of every point and the tables of each mechanism
 * (translate/probes/), then the module descriptor stp_module. */
void xl_probe_tables(struct xl *x, const char **bodies, const char **conds);
/* #include lines of the runtime parts of the mechanisms used. */
void xl_runtime_includes(struct xl *x, FILE *out);

/* ---- print.c ---- */
struct cv xl_print(struct xl *x, struct expr *e);

/* ---- globals.c ---- */
void xl_globals(struct xl *x);
/* The lock requests of a probe body, as a table name ("NULL" if none)
 * and count. */
const char *xl_locks(struct xl *x, struct elab_probe *p, unsigned *n);
/* stap --monitor: the rows of the globals' table (struct stp_mon_global). */
const char *xl_monitor_globals(struct xl *x);
/* The stat descriptor expression of a statistics global. */
const char *xl_stat_desc(struct xl *x, const struct elab_var *v);

#endif
