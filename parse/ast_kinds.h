/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ast_kinds.h: the one list of node and operator kinds (X-macros), from
 * which the enums and their name tables are generated. */
#ifndef PARSE_AST_KINDS_H
#define PARSE_AST_KINDS_H

#define EXPR_KINDS(X)							\
	X(EXPR_NUMBER, "number")					\
	X(EXPR_STRING, "string")					\
	X(EXPR_SYMBOL, "symbol")					\
	X(EXPR_WILDCARD, "wildcard")	/* '*' in an index list */	\
	X(EXPR_INDEX, "index")		/* a[i, j], @hist_*(x)[i] */	\
	X(EXPR_CALL, "call")						\
	X(EXPR_PRINT, "print")		/* print/printf/... family */	\
	X(EXPR_BINARY, "binary")					\
	X(EXPR_UNARY, "unary")						\
	X(EXPR_CREMENT, "crement")	/* ++/-- pre and post */	\
	X(EXPR_ASSIGN, "assignment")					\
	X(EXPR_TERNARY, "ternary")					\
	X(EXPR_IN, "in")						\
	X(EXPR_TARGET, "target")	/* $var..., $$vars */		\
	X(EXPR_CAST, "cast")		/* @cast(...) */		\
	X(EXPR_ATVAR, "atvar")		/* @var(...) */			\
	X(EXPR_DEREF, "deref")		/* local->field, f()->field */	\
	X(EXPR_ENTRY, "entry")		/* @entry(e) */			\
	X(EXPR_DEFINED, "defined")	/* @defined(e) */		\
	X(EXPR_PROBEWRITE, "probewrite") /* @probewrite(v) */		\
	X(EXPR_STAT, "stat")		/* @count(s) ... */		\
	X(EXPR_HIST, "hist")		/* @hist_log / @hist_linear */	\
	X(EXPR_ATOP, "atop")		/* @const, @kderef, ... */	\
	X(EXPR_EMBEDDED, "embedded")	/* %{ C %} as an expression */

#define STMT_KINDS(X)							\
	X(STMT_BLOCK, "block")						\
	X(STMT_NULL, "null")						\
	X(STMT_EXPR, "expression")					\
	X(STMT_IF, "if")						\
	X(STMT_WHILE, "while")						\
	X(STMT_FOR, "for")						\
	X(STMT_FOREACH, "foreach")					\
	X(STMT_BREAK, "break")						\
	X(STMT_CONTINUE, "continue")					\
	X(STMT_NEXT, "next")						\
	X(STMT_RETURN, "return")					\
	X(STMT_DELETE, "delete")					\
	X(STMT_TRY, "try")

#define DECL_KINDS(X)							\
	X(DECL_GLOBAL, "global")					\
	X(DECL_FUNCTION, "function")					\
	X(DECL_PROBE, "probe")						\
	X(DECL_ALIAS, "alias")						\
	X(DECL_EMBED, "embedded")

/* Operators with their spellings. */
#define OP_KINDS(X)							\
	X(OP_ADD, "+") X(OP_SUB, "-") X(OP_MUL, "*") X(OP_DIV, "/")	\
	X(OP_MOD, "%") X(OP_SHL, "<<") X(OP_SHR, ">>") X(OP_USHR, ">>>") \
	X(OP_BAND, "&") X(OP_BOR, "|") X(OP_BXOR, "^")			\
	X(OP_LAND, "&&") X(OP_LOR, "||")				\
	X(OP_LT, "<") X(OP_GT, ">") X(OP_LE, "<=") X(OP_GE, ">=")	\
	X(OP_EQ, "==") X(OP_NE, "!=")					\
	X(OP_CONCAT, ".") X(OP_MATCH, "=~") X(OP_NOMATCH, "!~")		\
	X(OP_NEG, "-") X(OP_PLUS, "+") X(OP_NOT, "!") X(OP_BNOT, "~") X(OP_ADDR, "&")	\
	X(OP_PREINC, "++") X(OP_PREDEC, "--")				\
	X(OP_POSTINC, "++") X(OP_POSTDEC, "--")				\
	X(OP_ASSIGN, "=") X(OP_ADD_ASSIGN, "+=") X(OP_SUB_ASSIGN, "-=")	\
	X(OP_MUL_ASSIGN, "*=") X(OP_DIV_ASSIGN, "/=")			\
	X(OP_MOD_ASSIGN, "%=") X(OP_SHL_ASSIGN, "<<=")			\
	X(OP_SHR_ASSIGN, ">>=") X(OP_AND_ASSIGN, "&=")			\
	X(OP_OR_ASSIGN, "|=") X(OP_XOR_ASSIGN, "^=")			\
	X(OP_CAT_ASSIGN, ".=") X(OP_STATS_ADD, "<<<")

#endif
