/* SPDX-License-Identifier: GPL-2.0-or-later */
/* token.h: tokens as they travel from the lexer through the preprocessor. */
#ifndef PARSE_TOKEN_H
#define PARSE_TOKEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/source.h"

/* kind is a Bison token kind (enum yytokentype from parser.h); the
 * preprocessor-only kinds (PP_*, ARG_*, AT_IDENT) are declared there too
 * so that one enumeration covers every token. */
struct token {
	int kind;
	const char *text;	/* interned spelling; decoded value for strings */
	size_t len;		/* length of text (strings may hold NULs) */
	uint64_t num;		/* NUMBER value; ARG_* index */
	struct srcloc loc;
	bool space_before;	/* whitespace or a comment precedes it */
	bool from_argument;	/* pasted in by a $N script argument */
};

#endif
