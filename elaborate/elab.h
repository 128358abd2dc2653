/* SPDX-License-Identifier: GPL-2.0-or-later */
/* elab.h: pass 2 (elaboration): what it produces and the interface of its
 * parts. Results live in side tables keyed by syntax-tree nodes. */
#ifndef ELABORATE_ELAB_H
#define ELABORATE_ELAB_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "parse/ast.h"
#include "util/ptrmap.h"
#include "util/vec.h"

struct arena;
struct interner;
struct diag;
struct session;
struct kernel_info;
struct parse_env;
struct tapset_index;
struct pm_node;
struct ksyms;
struct dw_site;
struct dw_ptype;

#define ELAB_MAX_INDEX 32	/* index expressions of one array */

enum var_scope { VAR_GLOBAL, VAR_LOCAL, VAR_PARAM };

/* A variable: global, local of one probe or function, or a parameter. */
struct elab_var {
	const char *name;		/* interned */
	enum var_scope scope;
	enum stap_type type;		/* value type; TYPE_STATS: aggregate */
	struct srcloc type_loc;		/* where the type was first inferred */
	int arity;			/* -1 unknown, 0 scalar, N: N indexes */
	struct srcloc arity_loc;
	enum stap_type idx[ELAB_MAX_INDEX];
	struct srcloc idx_loc[ELAB_MAX_INDEX];
	int hist;			/* -1, or enum hist_kind seen on it */
	struct srcloc hist_loc;
	struct decl *decl;		/* globals */
	const struct source *file;	/* the defining file */
	struct srcloc loc;		/* declaration or first reference */
	bool read, written;
	bool deleted;			/* the target of a delete */
	bool tapset;			/* from the library */
	bool elided;
	bool sized;			/* global a[N] / a%: an array */
	enum stap_type g_type;		/* type of its -G value, if any */
	const struct expr *hist_expr;	/* first histogram of it */
	const struct dw_ptype *ptype;	/* holds addresses of this DWARF
					 * type (types.c), or NULL */
	bool ptype_mixed;		/* of several types: none */
};

/* A script function (one arity of a name). */
struct elab_func {
	const char *name;
	int arity;
	struct decl *decl;
	const struct source *file;
	struct elab_var **params;	/* arity entries */
	struct ptrvec locals;		/* struct elab_var * (params too) */
	enum stap_type ret;
	struct srcloc ret_loc;
	bool used;			/* reachable from a probe */
	bool resolved;			/* body resolved */
	bool tapset;
	bool has_next;			/* body says `next` */
	struct elab_func *first;	/* earlier overload of this arity */
	struct elab_var *ret_as;	/* returns this variable's type (an
					 * @entry getter: its setter's value) */
	struct elab_probe *site;	/* a clone for this probe's DWARF
					 * context ($var in functions), or NULL */
	const struct dw_ptype *ret_ptype;	/* returns an address of this
					 * DWARF type (types.c), or NULL */
	bool ret_ptype_mixed;		/* returns addresses of several types */
	bool ret_ptype_tried;		/* its pragma:cast was looked up */
};

struct pm_family;

/* One place a probe body runs: a concrete probe point. */
struct elab_point {
	const char *name;		/* canonical text: timer.ms(100) */
	const char *marks;		/* "?" or "!" of the point it came from */
	const char *listed;		/* the name as -l lists it */
	const char *chain;		/* " <- ..." derivation, for -p2 */
	struct expr *cond;		/* combined if(), or NULL */
	const struct pm_family *family;
	struct srcloc loc;		/* the user's probe point */
	void *data;			/* its mechanism's typed data
					 * (elaborate/probes/points.h) */
	struct dw_site *site;		/* DWARF points: what $vars see */
	const char *comment;		/* -p2: " pc=..." */
};

/* A probe body with its locals, run at one or more points. */
struct elab_probe {
	struct decl *decl;		/* the user's (or a tapset's) probe */
	struct stmt *body;		/* own copy when aliases were expanded */
	struct ptrvec locals;		/* struct elab_var * */
	struct ptrvec points;		/* struct elab_point * */
	const struct source *file;
	bool procfs;			/* $value allowed */
	bool procfs_write;
	const struct pm_family *ctx;	/* whose ctxvars its $variables are,
					 * or NULL */
	bool elided;
	/* @entry(EXPR) in a return probe without DWARF: the probe at the
	 * matching entry points that records EXPR by thread (targets.c) */
	struct elab_probe *entry_probe;
	bool entry_helper;		/* is such a probe: not listed by -L */
};

/* A symbol of a kernel module whose run-time address the module finds in
 * the loaded module's symbol table; static variables of that module are
 * addressed from it (elaborate/dwarf_static.c, runtime/linux/kmod.c). */
struct kmod_anchor {
	const char *module;		/* interned */
	const char *symbol;		/* interned */
};

/* What pass 2 hands pass 3: the elaborated script. translate/ reads
 * nothing else of pass 2 (doc/pass2.md). Everything lives in the
 * session's arena @a. */
struct elab_result {
	struct arena *a;
	struct interner *in;
	struct diag *d;
	struct ptrvec global_list;	/* struct elab_var *, declaration order */
	struct ptrmap funcs;		/* name -> struct ptrvec * of elab_func */
	struct ptrvec func_list;	/* struct elab_func *; `used` ones are live */
	struct ptrvec embeds;		/* DECL_EMBED of included files */
	struct ptrmap var_of;		/* EXPR_SYMBOL -> elab_var */
	struct ptrmap func_of;		/* EXPR_CALL -> elab_func */
	struct ptrvec probes;		/* struct elab_probe *; not `elided` ones
					 * are live */
	struct ptrvec kmod_anchors;	/* struct kmod_anchor *: statics of
					 * modules are found from these */
	struct ptrvec dw_printer_code;	/* C of the $var$ printers, callees
					 * first */
	const char **sc_names;		/* the target's system-call names by
					 * number, when a live function asks
					 * for them (syscall_num), or NULL */
	size_t sc_nnames;
};

/* The state of one elaboration: its result, and pass 2's own working
 * state (caches, tables, counters) that pass 3 never sees. */
struct elab {
	struct elab_result out;
	struct arena *a;		/* = out.a, out.in, out.d */
	struct interner *in;
	struct diag *d;
	const struct session *sess;
	struct kernel_info *ki;
	struct parse_env *penv;
	struct tapset_index *tapsets;

	struct ptrvec files;		/* included struct ast_file *, user first */
	struct ptrmap included;		/* ast_file -> non-NULL once included */
	struct ptrmap globals;		/* name -> struct ptrvec * of elab_var */
	struct ptrvec pending;		/* elab_func to resolve */

	struct pm_node *root;		/* the probe-point builder tree */
	struct ksyms *ksyms;		/* kernel symbols, loaded on demand */
	bool ksyms_tried;
	const char *ksyms_error;	/* why there is no table */
	struct ptrmap mod_ksyms;	/* module name -> struct ksyms * */
	struct ptrmap dw_mods;		/* "kind:name" -> struct dw_mod * */
	struct ptrvec dw_list;		/* the same, opening order */
	struct ptrmap kmod_paths;	/* module name -> file, as listed */
	unsigned tvar_seq;		/* synthesized $var functions */
	struct ptrmap dw_printers;	/* type key -> shared printer name */
	struct ptrvec entry_fixups;	/* struct entry_fixup *: @entry(EXPR)
					 * bodies, written after inference */
	struct ptrvec entry_captures;	/* struct entry_capture *: parameters
					 * read in .return probes */

	struct ptrmap procfs_reads;	/* path -> its .read point */
	const char **sc_names;		/* system calls by number (__syscall) */
	size_t sc_nnames;
	struct ptrmap sc_nrs;		/* system call name -> number + 1 */
	bool sc_tried;
	bool badvar_warned;	/* --skip-badvars: the first substitution
				 * was reported (the others are counted) */
	const char *sc_error;		/* why there are no numbers */
	unsigned hwbkpts;		/* kernel.data watchpoints derived */
	struct ptrmap perf_counters;	/* perf .counter("NAME") -> its point */
	struct ptrmap fn_clones;	/* "probe/function" -> its clone */
	struct ptrmap fn_need_site;	/* function -> itself when its body
					 * (or a callee's) reads $vars */
	struct ptrmap fn_site_known;	/* functions fn_need_site has seen */
	struct ptrvec dead_code;	/* branches the optimiser removed, each
					 * followed by its function (or NULL) */
	bool listing;			/* -l/-L: no diagnostics for points */
	bool list_names;		/* -l: a point is only its listed name:
					 * pm_emit puts it in listed_points,
					 * without a probe or a body */
	struct ptrvec listed_points;
	struct ptrmap listed_seen;	/* -l: names listed (interned) */
	struct ptrmap tok_of;		/* lowered target expression -> its
					 * token as written ("identifier
					 * '$file'"), for messages */
	unsigned derefs;		/* `->` on values met (types.c types
					 * them: t = $file; t->f_flags) */
	struct ptrmap deferred;		/* target expression -> the message of
					 * its error, reported only if it
					 * survives optimisation (targets.c) */
};

/* ---- elaborate.c ---- */
/* Run pass 2 over @user (parsed with the parse_env given to elab_init).
 * Returns 0, or -1 after errors (reported through @e->d). */
int elab_run(struct elab *e, struct ast_file *user);
/* Set up @e for @penv's session. */
void elab_init(struct elab *e, struct parse_env *penv);
/* Message token for @x: "identifier 'a'", "operator '+'", ... */
static inline const char *elab_token(struct elab *e, const struct expr *x)
{
	const char *t = ptrmap_get(&e->tok_of, x);

	return t ? t : ast_token(e->a, x);
}

/* ---- tapset_index.c ---- */
/* Parse the library's .stp files (search path of the session) and index
 * their names. Returns the number of files. */
unsigned tapset_index_load(struct elab *e);
/* Include the library files that define function/global/alias @name;
 * returns how many new files were included. */
unsigned tapset_include_function(struct elab *e, const char *name);
unsigned tapset_include_global(struct elab *e, const char *name);
/* Include the files with aliases whose first component matches the glob
 * @pattern. */
unsigned tapset_include_aliases(struct elab *e, const char *pattern);
/* Append the names of the library's functions to @out. */
void tapset_function_names(struct elab *e, struct ptrvec *out);
/* Include every library file (for --dump-*). */
void tapset_include_all(struct elab *e);

/* ---- decls.c ---- */
/* Add the declarations of @f to the session tables (duplicates are
 * reported through @e->d). */
void elab_include_file(struct elab *e, struct ast_file *f);

/* ---- symbols.c ---- */
/* Visible global @name from @file (library lookup on demand), or NULL. */
struct elab_var *sym_global(struct elab *e, const char *name,
			    const struct source *file);
/* Function @name of @arity visible from @file, or NULL. */
struct elab_func *sym_func(struct elab *e, const char *name, int arity,
			   const struct source *file);
/* Resolve names in a probe body and in every function it reaches. */
void sym_resolve_probe(struct elab *e, struct elab_probe *p);
void sym_resolve_pending(struct elab *e);
/* Resolve a probe condition (globals only). */
void sym_resolve_cond(struct elab *e, struct expr *cond);
/* Report a semantic error at @x: "MSG: TOKEN at LOC". */
void sym_error(struct elab *e, const struct expr *x, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* ---- types.c ---- */
/* Infer types to a fixed point; report conflicts and unknowns. */
void type_infer(struct elab *e);

/* ---- optimize.c ---- */
void opt_run(struct elab *e);
/* Does @s do nothing (empty blocks and null statements only)? */
bool empty_stmt(const struct stmt *s);

/* ---- probe_match.c / alias.c ---- */
/* An empty probe-point builder tree in @e->root (the families then
 * register their points: elab_init). */
void pm_init(struct elab *e);
/* Put the target kernel's system-call names into the result (for a
 * library function marked `/ * syscall_names * /`, without the spaces);
 * quietly nothing when the kernel has no table (probes/syscall.c). */
void elab_syscall_names(struct elab *e);
/* Derive the probes of user (or tapset) probe @d. */
void pm_derive(struct elab *e, struct decl *d, const struct source *file);
/* Listing (-l/-L): resolve @pattern and print the points. Returns the
 * number of points printed. */
int pm_list(struct elab *e, const char *pattern, bool vars, FILE *out);
/* --dump-probe-types */
void pm_dump_types(struct elab *e, FILE *out);

/* ---- global_display.c ---- */
/* Add an @end probe printing each script global written but never read. */
void elab_global_display(struct elab *e);

/* ---- session_print.c ---- */
void elab_print(struct elab *e, FILE *out, bool bodies);
void elab_print_aliases(struct elab *e, FILE *out);
void elab_print_functions(struct elab *e, FILE *out);
const char *type_name(enum stap_type t);

#endif
