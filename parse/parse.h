/* SPDX-License-Identifier: GPL-2.0-or-later */
/* parse.h: pass 1, from script text to syntax tree. */
#ifndef PARSE_PARSE_H
#define PARSE_PARSE_H

#include <stdbool.h>
#include <stdio.h>

#include "parse/ast.h"

struct arena;
struct interner;
struct diag;
struct session;
struct kernel_info;
struct macro_table;
struct source;

/* What pass 1 needs from the session; owned by the caller. */
struct parse_env {
	struct arena *arena;
	struct interner *in;
	struct diag *diag;
	const struct session *sess;
	struct kernel_info *kinfo;
	struct macro_table *library_macros;	/* from parse_env_init */
};

/* Set up @env over the caller's arena, diagnostics, session and kernel
 * facts, with a new interner and an empty macro library (in @a). */
void parse_env_init(struct parse_env *env, struct arena *a, struct diag *d,
		    const struct session *sess, struct kernel_info *kinfo);

/* Parse one script or tapset file. Returns its tree (in the arena) even
 * when errors were reported; errors are counted in @env->diag. */
struct ast_file *parse_file(struct parse_env *env, const struct source *src,
			    bool library);

/* Load the @defines of a .stpm macro file into the library table.
 * Returns false if the file had errors or held anything but @define. */
bool parse_macro_file(struct parse_env *env, const struct source *src);

/* The canonical text of @f (the body of -p1 output). */
void ast_print_file(FILE *out, const struct ast_file *f);
void ast_print_expr(FILE *out, const struct expr *e);
/* A statement indented by @depth tabs; a probe point with its ?, ! and
 * condition. */
void ast_print_stmt(FILE *out, const struct stmt *s, int depth);
void ast_print_point(FILE *out, const struct probe_point *pp);

#endif
