/* SPDX-License-Identifier: GPL-2.0-or-later */
/* parse_internal.h: state shared by the lexer, preprocessor and grammar. */
#ifndef PARSE_INTERNAL_H
#define PARSE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parse/ast.h"
#include "parse/token.h"
#include "util/source.h"
#include "util/vec.h"

struct arena;
struct interner;
struct diag;
struct session;
struct kernel_info;
struct macro_table;
struct parser;

/* Bison's location type: where a token or construct starts. */
typedef struct srcloc YYLTYPE;
#define YYLTYPE_IS_DECLARED 1
#define YYLTYPE_IS_TRIVIAL 0
#define YYLLOC_DEFAULT(Cur, Rhs, N)					\
	do {								\
		if (N)							\
			(Cur) = YYRHSLOC(Rhs, 1);			\
		else							\
			(Cur) = YYRHSLOC(Rhs, 0);			\
	} while (0)

/* Semantic value of a terminal. */
struct tokval {
	const char *text;
	size_t len;
	uint64_t num;
	bool space_before;
};

/* ---- lexer (lexer.l, lex_util.c) ---- */
struct lexer {
	struct parser *p;
	const struct source *src;
	void *scanner;		/* yyscan_t */
	void *buffer;		/* YY_BUFFER_STATE */
	unsigned line, col;	/* position of the next character */
	bool space;		/* whitespace seen since the last token */
};

int lex_open(struct lexer *lx);
void lex_close(struct lexer *lx);
int lex_scan(void *scanner, struct token *tok);

/* Helpers called from the Flex actions; each fills @tok and returns its
 * kind. Errors are reported here and yield the LEX_ERROR kind. */
void lex_begin_token(struct lexer *lx, struct token *tok, const char *text,
		     size_t len);
int lex_simple(struct lexer *lx, struct token *tok, int kind);
int lex_ident(struct lexer *lx, struct token *tok, int kind, const char *text,
	      size_t len);
int lex_number(struct lexer *lx, struct token *tok, const char *text,
	       size_t len);
int lex_string(struct lexer *lx, struct token *tok, const char *text,
	       size_t len);
int lex_embedded(struct lexer *lx, struct token *tok, const char *text,
		 size_t len);
int lex_arg(struct lexer *lx, struct token *tok, int kind, const char *digits);
int lex_error(struct lexer *lx, struct token *tok, const char *msg);
int lex_eof(struct lexer *lx, struct token *tok);

/* Turn @tok into the number 0 (a stand-in after an error); returns NUMBER. */
int token_set_zero(struct token *tok);
/* "identifier 'x'", "operator '{'", ... for diagnostics; in @p's arena. */
const char *token_describe(struct parser *p, const struct token *tok);
/* Spelling of a token kind for "expected" lists: "'('", "identifier". */
const char *token_kind_name(int kind);

/* ---- macros (macro.c): @define and @NAME expansion ---- */
struct macro_table *macro_table_new(struct arena *a);
/* Define @NAME (interned, without '@') in @t as the one string token
 * @value (not copied), a macro of no file: the translator's own. */
void macro_define_string(struct macro_table *t, struct arena *a,
			 const struct source *src, const char *name,
			 const char *value);
/* Next token after macro processing; @define is consumed here. */
int macro_next(struct parser *p, struct token *tok);
/* Paste the tokens of script argument text @text in place of @use ($N):
 * they go through macros and conditionals like the script's own. */
void macro_push_argument(struct parser *p, const struct token *use,
			 const char *text);
/* Start reading a new source at the bottom of the macro layer. */
void macro_push_source(struct parser *p, const struct source *src);

/* ---- conditionals and arguments (preproc.c, pp_cond.c) ---- */
/* The token function the grammar calls. */
int pp_next(struct parser *p, struct token *tok);
struct at_operator {
	const char *name;	/* without '@' */
	int kind;		/* grammar token */
	unsigned min, max;	/* arguments, for AT_OP */
};
/* The @-operator called @name, or NULL. */
const struct at_operator *at_operator_find(const char *name);

/* True inside a branch of a conditional that is not taken. */
bool pp_skipping(const struct parser *p);
/* Evaluate one %( condition; reads tokens up to and including %?.
 * Returns 1/0, or -1 after reporting an error. */
int pp_eval_condition(struct parser *p);

/* ---- the parser state ---- */
struct cond_frame {
	struct srcloc loc;	/* of its %( */
	bool taking;		/* emitting the current branch */
	bool seen_else;
	bool parent_skipping;
};

struct macro_frame;

struct parser {
	struct arena *arena;
	struct interner *in;
	struct diag *diag;
	const struct session *sess;
	struct kernel_info *kinfo;
	struct macro_table *library_macros;	/* from .stpm files */
	struct macro_table *file_macros;	/* this file's @defines */
	bool macro_file;	/* parsing a .stpm: only @define allowed */
	bool library;		/* a tapset: embedded C allowed */

	/* Source stack of the macro layer. */
	struct lexer lexer;
	struct macro_frame *mframe;
	unsigned mdepth;
	unsigned long macro_tokens;	/* produced by expansions so far */

	/* Conditional layer. */
	struct cond_frame *conds;
	size_t ncond, cond_cap;

	/* Grammar state. */
	bool in_function;
	bool depth_reported;
	unsigned long lexed;		/* tokens read from the file */
	unsigned long parsed;		/* tokens handed to the grammar */
	struct token last;		/* the lookahead, for error messages */
	struct ast_file *file;
};

/* Report a parse error at @loc about @tok (NULL: the current lookahead). */
void parse_error_from(struct parser *p, const char *file, int line,
		      const struct srcloc *loc, const struct token *tok,
		      const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
#define parse_error_at(p, ...) parse_error_from((p), __FILE__, __LINE__, __VA_ARGS__)

#endif
