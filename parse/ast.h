/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ast.h: the syntax tree of a script. All nodes live in the session arena. */
#ifndef PARSE_AST_H
#define PARSE_AST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parse/ast_kinds.h"
#include "util/source.h"
#include "util/vec.h"

struct arena;
struct fmt_spec;

#define X_ENUM(name, str) name,
enum expr_kind { EXPR_KINDS(X_ENUM) };
enum stmt_kind { STMT_KINDS(X_ENUM) };
enum decl_kind { DECL_KINDS(X_ENUM) };
enum op { OP_KINDS(X_ENUM) };
#undef X_ENUM

const char *expr_kind_name(enum expr_kind k);
const char *stmt_kind_name(enum stmt_kind k);
const char *decl_kind_name(enum decl_kind k);
const char *op_spelling(enum op op);

enum stap_type {
	TYPE_UNKNOWN,
	TYPE_LONG,
	TYPE_STRING,
	TYPE_STATS,
};

/* One step of a target-variable path: ->field or [index]. */
struct target_comp {
	bool is_index;
	const char *field;	/* interned, when !is_index */
	struct expr *index;	/* when is_index */
	struct srcloc loc;
};

/* Shared tail of $var, @cast and @var: ->a[1]->b, a $/$$ pretty suffix,
 * and a leading & (address of). */
struct target_path {
	struct ptrvec comps;	/* struct target_comp * */
	int pretty;		/* 0, 1 ($) or 2 ($$) */
	bool addr_of;
};

/* Properties of one print-family function, from its name. */
struct print_kind {
	const char *name;
	bool format;		/* first argument is a format string */
	bool delim;		/* first argument is a delimiter */
	bool newline;		/* ...ln */
	bool to_string;		/* s... returns the text */
};

enum hist_kind { HIST_LOG, HIST_LINEAR };

struct expr {
	enum expr_kind kind;
	struct srcloc loc;	/* the principal token */
	enum stap_type type;	/* set by elaboration */
	unsigned depth;		/* operator nesting below this node */
	union {
		int64_t num;
		struct {
			const char *s;
			size_t len;
		} str;
		const char *name;	/* EXPR_SYMBOL, EXPR_PROBEWRITE */
		struct {
			struct expr *base;	/* EXPR_SYMBOL or EXPR_HIST */
			struct ptrvec idx;	/* struct expr * */
		} index;
		struct {
			const char *name;
			struct ptrvec args;
		} call;
		struct {
			const struct print_kind *pk;
			struct expr *fmt;	/* format or delimiter literal */
			struct fmt_spec *spec;	/* parsed format */
			struct ptrvec args;
		} print;
		struct {
			enum op op;
			struct expr *l, *r;
		} bin;			/* EXPR_BINARY, EXPR_ASSIGN */
		struct {
			enum op op;
			struct expr *e;
		} un;			/* EXPR_UNARY, EXPR_CREMENT */
		struct {
			struct expr *c, *t, *f;
		} tern;
		struct {
			struct ptrvec idx;	/* keys tested */
			bool bracketed;		/* written [k] */
			struct expr *array;	/* EXPR_SYMBOL or EXPR_HIST */
		} in;
		struct {
			const char *name;	/* "$var", "$$vars", ... */
			struct target_path path;
		} target;
		struct {
			struct expr *operand;
			const char *type;
			const char *module;	/* NULL when absent */
			struct target_path path;
		} cast;
		struct {
			const char *name;
			const char *module;
			struct target_path path;
		} atvar;
		struct expr *operand;	/* EXPR_ENTRY, EXPR_DEFINED */
		struct {
			struct expr *operand;
			struct target_path path;
		} deref;
		struct {
			const char *op;		/* "count", "sum", ... */
			struct ptrvec args;	/* operand, then extras */
		} stat;
		struct {
			enum hist_kind hk;
			struct expr *operand;
			struct ptrvec params;	/* @hist_linear lo, hi, step */
		} hist;
		struct {
			const char *name;	/* without '@' */
			struct ptrvec args;
		} atop;
		const char *code;	/* EXPR_EMBEDDED */
	};
};

struct foreach_stmt {
	struct ptrvec keys;	/* EXPR_SYMBOL */
	bool bracketed;
	struct expr *value;	/* EXPR_SYMBOL, or NULL */
	struct expr *array;	/* EXPR_SYMBOL, EXPR_INDEX (slice), EXPR_HIST */
	int sort_key;		/* 0 none, -1 by value, i+1 by key i */
	int sort_dir;		/* +1 ascending, -1 descending */
	const char *sort_stat;	/* "sum", ...: value sort of a stats array */
	struct expr *limit;
	struct stmt *body;
};

struct stmt {
	enum stmt_kind kind;
	struct srcloc loc;
	union {
		struct ptrvec stmts;	/* STMT_BLOCK */
		struct expr *expr;	/* EXPR, RETURN (may be NULL), DELETE */
		struct {
			struct expr *cond;
			struct stmt *then, *els;
		} if_;
		struct {
			struct expr *init, *cond, *incr; /* each may be NULL */
			struct stmt *body;
		} loop;			/* STMT_WHILE uses cond and body */
		struct foreach_stmt *fe;
		struct {
			struct stmt *body;
			struct expr *var;	/* EXPR_SYMBOL or NULL */
			struct stmt *handler;
		} try_;
	};
};

struct pp_component {
	const char *name;	/* may hold '*' */
	struct expr *param;	/* EXPR_NUMBER / EXPR_STRING, or NULL */
	struct srcloc loc;
};

struct probe_point {
	struct ptrvec comps;	/* struct pp_component * */
	bool optional;		/* '?' */
	bool sufficient;	/* '!' */
	struct expr *cond;	/* if (...) */
	struct srcloc loc;
};

struct param {
	const char *name;
	enum stap_type type;
	struct srcloc loc;
};

struct decl {
	enum decl_kind kind;
	struct srcloc loc;
	bool private_;
	union {
		struct {
			const char *name;
			struct expr *init;	/* literal, or NULL */
			int64_t size;		/* [N]; 0 when absent */
			bool wrap;		/* a%, a%[N] */
		} global;
		struct {
			const char *name;
			enum stap_type ret;
			struct ptrvec params;	/* struct param * */
			bool has_priority;
			int64_t priority;
			struct stmt *body;	/* or: */
			const char *code;	/* embedded-C body */
		} func;
		struct {
			struct ptrvec names;	/* DECL_ALIAS: struct probe_point * */
			bool epilogue;		/* += */
			struct ptrvec points;	/* struct probe_point * */
			struct stmt *body;
			/* "probe a = b { prologue }, { epilogue }" */
			struct stmt *epilogue_body;
		} probe;
		const char *code;		/* DECL_EMBED */
	};
};

struct ast_file {
	const struct source *src;
	struct ptrvec decls;	/* struct decl * */
};

/* ---- constructors (ast.c): plain allocation, no diagnostics ---- */
struct expr *ast_expr(struct arena *a, enum expr_kind kind, struct srcloc loc);
struct expr *ast_number(struct arena *a, int64_t v, struct srcloc loc);
struct expr *ast_string(struct arena *a, const char *s, size_t len,
			struct srcloc loc);
struct expr *ast_symbol(struct arena *a, const char *name, struct srcloc loc);
struct expr *ast_binary(struct arena *a, enum op op, struct expr *l,
			struct expr *r, struct srcloc loc);
struct expr *ast_assign(struct arena *a, enum op op, struct expr *l,
			struct expr *r, struct srcloc loc);
/* Unary minus of a literal folds into the literal (so -5 prints as -5
 * and re-parses to the same tree). */
struct expr *ast_unary(struct arena *a, enum op op, struct expr *e,
		       struct srcloc loc);
struct expr *ast_crement(struct arena *a, enum op op, struct expr *e,
			 struct srcloc loc);
/* Operator nesting a tree may reach; later passes recurse over it. */
#define EXPR_MAX_DEPTH 2000

struct expr *ast_ternary(struct arena *a, struct expr *c, struct expr *t,
			 struct expr *f, struct srcloc loc);
struct expr *ast_index(struct arena *a, struct expr *base,
		       struct ptrvec *idx, struct srcloc loc);
struct expr *ast_in(struct arena *a, struct ptrvec *idx, bool bracketed,
		    struct expr *array, struct srcloc loc);
struct expr *ast_target(struct arena *a, const char *name, struct srcloc loc);
struct target_path *ast_target_path(struct expr *e);
struct expr *ast_with_operand(struct arena *a, enum expr_kind kind,
			      struct expr *operand, struct srcloc loc);
struct expr *ast_hist(struct arena *a, enum hist_kind hk, struct expr *operand,
		      struct ptrvec *params, struct srcloc loc);
struct expr *ast_embedded(struct arena *a, const char *code, struct srcloc loc);
/* The token that messages about @x name: "identifier 'a'", "operator
 * '+'", "number '3'" ... (in @a's memory, or a constant). */
const char *ast_token(struct arena *a, const struct expr *x);
/* The print-family properties of @name, or NULL if it is not one. */
const struct print_kind *ast_print_kind(const char *name);

struct stmt *ast_stmt(struct arena *a, enum stmt_kind kind, struct srcloc loc);
struct stmt *ast_stmt_expr(struct arena *a, enum stmt_kind kind,
			   struct expr *e, struct srcloc loc);
struct stmt *ast_block(struct arena *a, struct ptrvec *stmts, struct srcloc loc);
struct stmt *ast_if(struct arena *a, struct expr *c, struct stmt *then,
		    struct stmt *els, struct srcloc loc);
struct stmt *ast_loop(struct arena *a, enum stmt_kind kind, struct expr *init,
		      struct expr *cond, struct expr *incr, struct stmt *body,
		      struct srcloc loc);
struct stmt *ast_try(struct arena *a, struct stmt *body, struct expr *var,
		     struct stmt *handler, struct srcloc loc);

struct decl *ast_decl(struct arena *a, enum decl_kind kind, struct srcloc loc);
struct probe_point *ast_probe_point(struct arena *a, struct srcloc loc);

#endif
