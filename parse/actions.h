/* SPDX-License-Identifier: GPL-2.0-or-later */
/* actions.h: helpers called by the grammar's actions. Each builds one
 * node or declaration and reports what the grammar alone cannot check. */
#ifndef PARSE_ACTIONS_H
#define PARSE_ACTIONS_H

#include "parse/parse_internal.h"

/* A foreach key or value variable with its sort mark (0, +1, -1); as the
 * array sort it carries the statistic extractor in @stat. */
struct fe_var {
	struct expr *sym;
	int sort;
	const char *stat;
	struct srcloc sort_loc;	/* of the + or - */
};

/* The variables of a foreach, before the array and its sort are known. */
struct fe_head {
	struct ptrvec keys;	/* struct fe_var * */
	struct fe_var *value;	/* or NULL */
	bool bracketed;
};

/* The size part of a global: a[N], a%, a%[N]. */
struct gsize {
	int64_t size;
	bool wrap;
};

/* Interned spelling of an operator token kind, e.g. "*" for '*'. */
const char *token_spelling(struct parser *p, int kind);

void act_globals(struct parser *p, struct ptrvec *gvars, bool private_);
struct decl *act_gvar(struct parser *p, struct srcloc loc,
		      const struct tokval *name, const struct gsize *gs,
		      struct expr *init);
/* Function header: sets the function context for 'return' checks. */
struct decl *act_fn_head(struct parser *p, struct srcloc loc,
			 const struct tokval *name, enum stap_type ret,
			 struct ptrvec *params, const struct tokval *prio);
void act_param(struct parser *p, struct ptrvec *params, struct srcloc loc,
	       const struct tokval *name, enum stap_type type);
void act_function(struct parser *p, struct decl *head, struct stmt *body,
		  const struct tokval *code, bool private_);
void act_probe(struct parser *p, struct srcloc loc, struct ptrvec *points,
	       struct stmt *body);
void act_alias(struct parser *p, struct srcloc loc, struct ptrvec *names,
	       bool epilogue, struct ptrvec *points, struct stmt *body,
	       struct stmt *epilogue_body);
void act_top_embedded(struct parser *p, struct srcloc loc,
		      const struct tokval *code);
void act_recover(struct parser *p);

/* Probe-point lists during brace expansion are ptrvecs of probe_point. */
struct ptrvec act_pp_single(struct parser *p, struct pp_component *c);
struct ptrvec act_pp_product(struct parser *p, struct ptrvec *heads,
			     struct ptrvec *tails, struct srcloc loc);
struct ptrvec act_pp_finish(struct parser *p, struct ptrvec *points,
			    int flags, struct expr *cond);
void act_pp_append(struct parser *p, struct ptrvec *list, struct ptrvec *more);
struct pp_component *act_pp_comp(struct parser *p, struct srcloc loc,
				 const struct tokval *name, struct expr *param);
struct tokval act_pp_glue(struct parser *p, const struct tokval *a,
			  const struct tokval *b, struct srcloc bloc);

struct stmt *act_return(struct parser *p, struct srcloc loc, struct expr *e);
struct fe_head *act_fe_keys(struct parser *p, const struct fe_var *value,
			    const struct fe_var *key, const struct ptrvec *keys,
			    bool bracketed);
void act_fe_push(struct parser *p, struct ptrvec *keys, const struct fe_var *v);
struct stmt *act_foreach(struct parser *p, struct srcloc loc,
			 struct fe_head *head, struct expr *array,
			 const struct fe_var *sort, struct expr *limit,
			 struct stmt *body);

struct expr *act_in(struct parser *p, struct srcloc loc, struct expr *key,
		    struct ptrvec *keys, struct expr *array);
struct expr *act_regex(struct parser *p, struct srcloc loc, enum op op,
		       struct expr *l, struct expr *r);
struct expr *act_addr_of(struct parser *p, struct srcloc loc,
			 struct expr *target);
struct expr *act_call(struct parser *p, struct srcloc loc,
		      const struct tokval *name, struct ptrvec *args);
struct expr *act_embedded_expr(struct parser *p, struct srcloc loc,
			       const struct tokval *code);
struct expr *act_probewrite(struct parser *p, struct srcloc loc,
			    const struct tokval *name);
struct expr *act_stat(struct parser *p, struct srcloc loc,
		      const struct tokval *op, struct ptrvec *args);
struct expr *act_atop(struct parser *p, struct srcloc loc,
		      const struct tokval *op, struct ptrvec *args);
struct expr *act_hist_linear(struct parser *p, struct srcloc loc,
			     struct expr *operand, struct ptrvec *params);
struct expr *act_target(struct parser *p, struct srcloc loc,
			const struct tokval *name);
struct expr *act_cast(struct parser *p, struct srcloc loc, struct expr *operand,
		      struct expr *type, struct expr *module);
struct expr *act_atvar(struct parser *p, struct srcloc loc, struct expr *name,
		       struct expr *module);
/* expr->... on a local, a call result or a parenthesised expression. */
struct expr *act_deref(struct parser *p, struct srcloc loc, struct expr *operand);
struct expr *act_target_field(struct parser *p, struct expr *target,
			      struct srcloc loc, const struct tokval *field);
/* "->$" / "->$$": the reference's spelling of a pretty-print suffix. */
struct expr *act_target_pretty(struct parser *p, struct expr *target,
			       struct srcloc loc, const struct tokval *dollars);
struct expr *act_target_index(struct parser *p, struct expr *target,
			      struct srcloc loc, struct expr *index);
void act_string_piece(struct parser *p, struct ptrvec *pieces,
		      const struct tokval *piece);
struct expr *act_string(struct parser *p, struct srcloc loc,
			struct ptrvec *pieces);

/* @e, unless operators nest deeper than EXPR_MAX_DEPTH below it: then
 * one error per file and a leaf in its place, so no later pass recurses
 * without bound. */
struct expr *act_depth(struct parser *p, struct expr *e);

/* The grammar's syntax-error report: @kinds are the expected tokens. */
void act_syntax_error(struct parser *p, const int *kinds, int n);

#endif
