// SPDX-License-Identifier: GPL-2.0-or-later
/* lex_util.c: token construction for the Flex actions: keywords, numbers,
 * string escapes, positions, and token descriptions for diagnostics. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/parse_internal.h"
#include "parse/parser.h"
#include "util/arena.h"
#include "util/diag.h"
#include "util/intern.h"

void lex_begin_token(struct lexer *lx, struct token *tok, const char *text,
		     size_t len)
{
	size_t i;

	tok->loc.src = lx->src;
	tok->loc.line = lx->line;
	tok->loc.col = lx->col;
	tok->loc.from = NULL;
	tok->space_before = lx->space;
	tok->from_argument = false;
	tok->text = NULL;
	tok->len = 0;
	tok->num = 0;
	for (i = 0; i < len; i++) {
		if (text[i] == '\n') {
			lx->line++;
			lx->col = 1;
		} else {
			lx->col++;
		}
	}
}

static int lex_done(struct lexer *lx, struct token *tok, int kind)
{
	tok->kind = kind;
	lx->space = false;
	return kind;
}

int lex_simple(struct lexer *lx, struct token *tok, int kind)
{
	return lex_done(lx, tok, kind);
}

static const struct {
	const char *word;
	int kind;
} keywords[] = {
	{ "probe", K_PROBE },	{ "global", K_GLOBAL },
	{ "private", K_PRIVATE }, { "function", K_FUNCTION },
	{ "if", K_IF },		{ "else", K_ELSE },
	{ "for", K_FOR },	{ "foreach", K_FOREACH },
	{ "in", K_IN },		{ "limit", K_LIMIT },
	{ "return", K_RETURN },	{ "delete", K_DELETE },
	{ "while", K_WHILE },	{ "break", K_BREAK },
	{ "continue", K_CONTINUE }, { "next", K_NEXT },
	{ "try", K_TRY },	{ "catch", K_CATCH },
	{ "string", K_STRING },	{ "long", K_LONG },
};

int lex_ident(struct lexer *lx, struct token *tok, int kind, const char *text,
	      size_t len)
{
	size_t i;

	if (kind == ARG_COUNT) {	/* "$#" or "@#", told apart later */
		tok->text = intern_n(lx->p->in, text, len);
		tok->len = len;
		return lex_done(lx, tok, kind);
	}
	if (kind == AT_IDENT) {
		text++;
		len--;
	}
	tok->text = intern_n(lx->p->in, text, len);
	tok->len = len;
	if (kind == IDENT && text[0] == '$')
		return lex_done(lx, tok, TARGET);
	if (kind == IDENT)
		for (i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++)
			if (!strcmp(keywords[i].word, tok->text))
				return lex_done(lx, tok, keywords[i].kind);
	return lex_done(lx, tok, kind);
}

static int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return 99;
}

/* Decimal, 0x hex or 0 octal; values up to 2^64-1 are accepted and wrap
 * to negative as in the reference. */
int lex_number(struct lexer *lx, struct token *tok, const char *text,
	       size_t len)
{
	unsigned base = 10;
	size_t i = 0;
	uint64_t v = 0;
	bool bad = false;

	tok->text = intern_n(lx->p->in, text, len);
	tok->len = len;
	if (len > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
		base = 16;
		i = 2;
	} else if (len > 1 && text[0] == '0') {
		base = 8;
		i = 1;
	}
	for (; i < len && !bad; i++) {
		unsigned d = (unsigned)digit_value(text[i]);

		if (d >= base || v > (UINT64_MAX - d) / base)
			bad = true;
		else
			v = v * base + d;
	}
	if (len == 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
		bad = true;
	lex_done(lx, tok, NUMBER);
	if (bad) {
		parse_error_at(lx->p, &tok->loc, tok,
			       "number invalid or out of range");
		v = 0;
	}
	tok->num = v;
	return NUMBER;
}

/* Decode C escapes. An unknown escape stands for the character itself, as
 * in the reference; a backslash-newline disappears. */
int lex_string(struct lexer *lx, struct token *tok, const char *text,
	       size_t len)
{
	char *out = arena_alloc(lx->p->arena, len + 1);
	size_t i, n = 0;

	for (i = 1; i + 1 < len; i++) {
		char c = text[i];
		unsigned v, k;

		if (c != '\\') {
			out[n++] = c;
			continue;
		}
		c = text[++i];
		switch (c) {
		case 'n': out[n++] = '\n'; break;
		case 't': out[n++] = '\t'; break;
		case 'r': out[n++] = '\r'; break;
		case 'a': out[n++] = '\a'; break;
		case 'b': out[n++] = '\b'; break;
		case 'f': out[n++] = '\f'; break;
		case 'v': out[n++] = '\v'; break;
		case '\n': break;
		case 'x':
			v = 0;
			for (k = 0; k < 2 && i + 2 < len &&
				    digit_value(text[i + 1]) < 16; k++)
				v = v * 16 + (unsigned)digit_value(text[++i]);
			out[n++] = k ? (char)v : 'x';
			break;
		case '0': case '1': case '2': case '3':
		case '4': case '5': case '6': case '7':
			v = (unsigned)(c - '0');
			for (k = 1; k < 3 && i + 2 < len && text[i + 1] >= '0' &&
				    text[i + 1] <= '7'; k++)
				v = v * 8 + (unsigned)(text[++i] - '0');
			out[n++] = (char)v;
			break;
		default:
			out[n++] = c;
			break;
		}
	}
	out[n] = '\0';
	tok->text = out;
	tok->len = n;
	return lex_done(lx, tok, STRING);
}

int lex_embedded(struct lexer *lx, struct token *tok, const char *text,
		 size_t len)
{
	tok->text = arena_strndup(lx->p->arena, text + 2, len - 4);
	tok->len = len - 4;
	return lex_done(lx, tok, EMBEDDED);
}

int lex_arg(struct lexer *lx, struct token *tok, int kind, const char *digits)
{
	tok->num = strtoull(digits, NULL, 10);
	tok->text = intern(lx->p->in, digits - 1);
	return lex_done(lx, tok, kind);
}

int lex_error(struct lexer *lx, struct token *tok, const char *msg)
{
	size_t len;
	const char *line = source_line(lx->src, tok->loc.line, &len);
	size_t off = tok->loc.col - 1, n = len > off ? len - off : 0;
	char *desc;

	if (n > 40)
		n = 40;
	desc = arena_printf(lx->p->arena, "junk '%.*s'", (int)n, line + off);
	diag_report(lx->p->diag, DIAG_LEX_ERROR, &tok->loc, desc, "%s", msg);
	return lex_done(lx, tok, LEX_ERROR);
}

int lex_eof(struct lexer *lx, struct token *tok)
{
	tok->loc.src = lx->src;
	tok->loc.line = lx->line;
	tok->loc.col = lx->col;
	tok->loc.from = NULL;
	tok->space_before = lx->space;
	tok->from_argument = false;
	tok->text = NULL;
	tok->len = 0;
	return lex_done(lx, tok, YYEOF);
}

int token_set_zero(struct token *tok)
{
	tok->kind = NUMBER;
	tok->num = 0;
	tok->text = "0";
	tok->len = 1;
	return NUMBER;
}

const char *token_kind_name(int kind)
{
	switch (kind) {
	case YYEOF: return "end of file";
	case IDENT: return "identifier";
	case TARGET: return "target variable";
	case NUMBER: return "number";
	case STRING: return "string";
	case EMBEDDED: return "embedded-code";
	case K_PROBE: return "'probe'";
	case K_GLOBAL: return "'global'";
	case K_PRIVATE: return "'private'";
	case K_FUNCTION: return "'function'";
	case K_IF: return "'if'";
	case K_ELSE: return "'else'";
	case K_FOR: return "'for'";
	case K_FOREACH: return "'foreach'";
	case K_IN: return "'in'";
	case K_LIMIT: return "'limit'";
	case K_RETURN: return "'return'";
	case K_DELETE: return "'delete'";
	case K_WHILE: return "'while'";
	case K_BREAK: return "'break'";
	case K_CONTINUE: return "'continue'";
	case K_NEXT: return "'next'";
	case K_TRY: return "'try'";
	case K_CATCH: return "'catch'";
	case K_STRING: return "'string'";
	case K_LONG: return "'long'";
	case STATS_ADD: return "'<<<'";
	case USHR: return "'>>>'";
	case SHL_ASSIGN: return "'<<='";
	case SHR_ASSIGN: return "'>>='";
	case ADD_ASSIGN: return "'+='";
	case SUB_ASSIGN: return "'-='";
	case MUL_ASSIGN: return "'*='";
	case DIV_ASSIGN: return "'/='";
	case MOD_ASSIGN: return "'%='";
	case AND_ASSIGN: return "'&='";
	case OR_ASSIGN: return "'|='";
	case XOR_ASSIGN: return "'^='";
	case CAT_ASSIGN: return "'.='";
	case EQ: return "'=='";
	case NE: return "'!='";
	case LE: return "'<='";
	case GE: return "'>='";
	case MATCH: return "'=~'";
	case NOMATCH: return "'!~'";
	case ANDAND: return "'&&'";
	case OROR: return "'||'";
	case INC: return "'++'";
	case DEC: return "'--'";
	case ARROW: return "'->'";
	case SHL: return "'<<'";
	case SHR: return "'>>'";
	case PP_OPEN: return "'%('";
	case PP_THEN: return "'%?'";
	case PP_ELSE: return "'%:'";
	case PP_CLOSE: return "'%)'";
	case AT_CAST: return "'@cast'";
	case AT_VAR: return "'@var'";
	case AT_ENTRY: return "'@entry'";
	case AT_DEFINED: return "'@defined'";
	case AT_PROBEWRITE: return "'@probewrite'";
	case AT_STATOP: return "statistic operator";
	case AT_HIST_LOG: return "'@hist_log'";
	case AT_HIST_LINEAR: return "'@hist_linear'";
	case AT_OP: return "'@' operator";
	case AT_IDENT: return "macro";
	case ARG_DOLLAR: case ARG_AT: case ARG_COUNT:
		return "script argument";
	case LEX_ERROR: return "junk";
	default:
		break;
	}
	if (kind > 0 && kind < 128) {
		static const char names[] = "-+*/%<>=!~&|^.,;:?()[]{}";
		const char *c = strchr(names, kind);

		if (c) {
			static const char *const quoted[] = {
				"'-'", "'+'", "'*'", "'/'", "'%'", "'<'", "'>'",
				"'='", "'!'", "'~'", "'&'", "'|'", "'^'", "'.'",
				"','", "';'", "':'", "'?'", "'('", "')'", "'['",
				"']'", "'{'", "'}'",
			};
			return quoted[c - names];
		}
	}
	return "token";
}

/* "text" with C escapes, cut at 60 bytes, for one diagnostic line. */
static const char *escape_for_message(struct parser *p, const char *s,
				      size_t len)
{
	char *out = arena_alloc(p->arena, 4 * 60 + 8), *o = out;
	size_t i;

	*o++ = '"';
	for (i = 0; i < len && i < 60; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\') {
			*o++ = '\\';
			*o++ = (char)c;
		} else if (c < 32 || c == 127) {
			o += sprintf(o, "\\%03o", c);
		} else {
			*o++ = (char)c;
		}
	}
	if (len > 60)
		o += sprintf(o, "...");
	*o++ = '"';
	*o = '\0';
	return out;
}

const char *token_describe(struct parser *p, const struct token *tok)
{
	const char *k;

	switch (tok->kind) {
	case YYEOF:
		return NULL;
	case IDENT:
	case TARGET:
		if (!tok->text)	/* a construct, not a token */
			return "expression";
		return arena_printf(p->arena, "identifier '%s'", tok->text);
	case NUMBER:
		return arena_printf(p->arena, "number '%s'", tok->text);
	case STRING:
		return arena_printf(p->arena, "string '%s'",
				    escape_for_message(p, tok->text, tok->len));
	case EMBEDDED:
		return "embedded-code";
	case AT_CAST: case AT_VAR: case AT_ENTRY: case AT_DEFINED:
	case AT_PROBEWRITE: case AT_STATOP: case AT_HIST_LOG:
	case AT_HIST_LINEAR: case AT_OP: case AT_IDENT:
		return arena_printf(p->arena, "operator '@%s'", tok->text);
	case ARG_DOLLAR: case ARG_AT: case ARG_COUNT:
		return arena_printf(p->arena, "script argument '%s'",
				    tok->text ? tok->text : "$#");
	case LEX_ERROR:
		return "junk";
	default:
		break;
	}
	k = token_kind_name(tok->kind);
	if (tok->kind >= K_PROBE && tok->kind <= K_LONG)
		return arena_printf(p->arena, "keyword %s", k);
	return arena_printf(p->arena, "operator %s", k);
}
