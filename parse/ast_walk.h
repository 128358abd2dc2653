/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ast_walk.h: a generic read-only walk over statements and expressions,
 * and deep copies of bodies (alias expansion gives each derived probe its
 * own tree). */
#ifndef PARSE_AST_WALK_H
#define PARSE_AST_WALK_H

#include <stdbool.h>

#include "parse/ast.h"

struct arena;

/* Callbacks run before the children of a node; returning false skips the
 * children. Either may be NULL. */
struct ast_visitor {
	bool (*expr)(struct ast_visitor *v, struct expr *e);
	bool (*stmt)(struct ast_visitor *v, struct stmt *s);
};

/* Pre-order walks; NULL nodes are ignored. */
void ast_walk_expr(struct ast_visitor *v, struct expr *e);
void ast_walk_stmt(struct ast_visitor *v, struct stmt *s);

/* Deep copies in @a (NULL gives NULL). Strings, format specs and source
 * locations are shared with the original; only nodes are new. */
struct expr *ast_clone_expr(struct arena *a, const struct expr *e);
struct stmt *ast_clone_stmt(struct arena *a, const struct stmt *s);

#endif
