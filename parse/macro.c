// SPDX-License-Identifier: GPL-2.0-or-later
/* macro.c: the bottom preprocessor layer: @define NAME[(params)] %( body %)
 * and @NAME[(args)] expansion, over the lexer's token stream. */
#include <string.h>

#include "parse/parse_internal.h"
#include "parse/parser.h"
#include "util/arena.h"
#include "util/diag.h"
#include "util/intern.h"

#define MACRO_BUCKETS 256
#define MACRO_MAX_DEPTH 200
#define MACRO_MAX_PARAMS 64
#define MACRO_MAX_PARAMS_STR "64"
/* Tokens one file may produce by expansion: a macro that uses itself
 * twice doubles at each level and would exhaust memory long before it
 * got deep. */
#define MACRO_MAX_TOKENS (1u << 20)

struct tokvec {
	struct token *t;
	size_t n, cap;
};

struct macro {
	struct macro *next;
	const char *name;		/* interned, without '@' */
	const char **params;
	size_t nparams;
	bool has_params;
	struct tokvec body;
	struct srcloc loc;
	const struct source *file;	/* defining file */
};

struct macro_table {
	struct macro *b[MACRO_BUCKETS];
};

/* An active expansion (of a macro or a $N argument): the tokens being read. */
struct macro_frame {
	struct macro_frame *up;
	struct tokvec toks;
	size_t pos;
};

static void tv_push(struct arena *a, struct tokvec *v, const struct token *t)
{
	v->t = arena_grow(a, v->t, v->n, &v->cap, sizeof(*v->t));
	v->t[v->n++] = *t;
}

struct macro_table *macro_table_new(struct arena *a)
{
	return arena_new_obj(a, struct macro_table);
}

static unsigned bucket(const char *name)
{
	return (unsigned)(((uintptr_t)name >> 4) % MACRO_BUCKETS);
}

static struct macro *table_find(struct macro_table *t, const char *name)
{
	struct macro *m;

	if (!t)
		return NULL;
	for (m = t->b[bucket(name)]; m; m = m->next)
		if (m->name == name)
			return m;
	return NULL;
}

static struct macro *macro_find(struct parser *p, const char *name)
{
	struct macro *m = table_find(p->file_macros, name);

	return m ? m : table_find(p->library_macros, name);
}

void macro_push_source(struct parser *p, const struct source *src)
{
	p->lexer.p = p;
	p->lexer.src = src;
	p->lexer.line = 1;
	p->lexer.col = 1;
	p->lexer.space = true;
	lex_open(&p->lexer);
}

void macro_define_string(struct macro_table *t, struct arena *a,
			 const struct source *src, const char *name,
			 const char *value)
{
	struct macro *m = arena_new_obj(a, struct macro);
	struct token tok = {
		.kind = STRING,
		.text = value,
		.len = strlen(value),
		.loc = { .src = src, .line = 1, .col = 1 },
	};

	m->name = name;
	m->loc = tok.loc;
	tv_push(a, &m->body, &tok);
	m->next = t->b[bucket(name)];
	t->b[bucket(name)] = m;
}

/* Next token without macro processing: from the innermost expansion, or
 * from the lexer when no expansion is active. */
static int raw_next(struct parser *p, struct token *tok)
{
	while (p->mframe) {
		struct macro_frame *f = p->mframe;

		if (f->pos < f->toks.n) {
			*tok = f->toks.t[f->pos++];
			return tok->kind;
		}
		p->mframe = f->up;
		p->mdepth--;
	}
	if (lex_scan(p->lexer.scanner, tok) != YYEOF)
		p->lexed++;
	return tok->kind;
}

static void macro_error(struct parser *p, const struct token *tok,
			const char *fmt, const char *arg)
{
	parse_error_at(p, &tok->loc, tok, fmt, arg);
}

/* @define NAME [( a, b )] %( body %) -- the @define token is consumed.
 * Inside a branch of a conditional that is not taken the definition is
 * read but not recorded: tapsets define per-architecture variants of one
 * macro in sibling branches. */
static void macro_define(struct parser *p, const struct token *at, bool record)
{
	struct macro *m = arena_new_obj(p->arena, struct macro);
	struct macro_table *t = p->macro_file ? p->library_macros : p->file_macros;
	struct token tok;
	unsigned depth = 0;
	int kind;

	kind = raw_next(p, &tok);
	if (kind != IDENT && !(kind >= K_PROBE && kind <= K_LONG)) {
		macro_error(p, &tok, "expected macro name after @define%s", "");
		return;
	}
	m->name = tok.text;
	m->loc = at->loc;
	m->file = at->loc.src;
	kind = raw_next(p, &tok);
	if (kind == '(') {
		const char *params[MACRO_MAX_PARAMS];
		size_t n = 0;

		m->has_params = true;
		kind = raw_next(p, &tok);
		while (kind != ')') {
			size_t k;

			if (kind != IDENT) {
				macro_error(p, &tok, "expected macro parameter name%s", "");
				return;
			}
			if (n == MACRO_MAX_PARAMS) {
				macro_error(p, &tok, "too many macro parameters (at most %s)",
					    MACRO_MAX_PARAMS_STR);
				return;
			}
			for (k = 0; k < n; k++)
				if (params[k] == tok.text) {
					macro_error(p, &tok, "duplicate macro parameter '%s'",
						    tok.text);
					return;
				}
			params[n++] = tok.text;
			kind = raw_next(p, &tok);
			if (kind == ',')
				kind = raw_next(p, &tok);
			else if (kind != ')') {
				macro_error(p, &tok, "expected ',' or ')' in macro parameters%s", "");
				return;
			}
		}
		m->nparams = n;
		m->params = arena_new_array(p->arena, const char *, n ? n : 1);
		memcpy(m->params, params, n * sizeof(*params));
		kind = raw_next(p, &tok);
	}
	if (kind != PP_OPEN) {
		macro_error(p, &tok, "expected '%%(' to start the body of macro '@%s'",
			    m->name);
		return;
	}
	for (;;) {
		kind = raw_next(p, &tok);
		if (kind == YYEOF) {
			macro_error(p, &tok, "incomplete macro definition - missing '%%)' for '@%s'", m->name);
			return;
		}
		if (kind == PP_OPEN)
			depth++;
		if (kind == PP_CLOSE && depth-- == 0)
			break;
		tv_push(p->arena, &m->body, &tok);
	}
	if (!record)
		return;
	{
		struct macro *old = table_find(t, m->name);

		if (old && old->file == m->file) {
			macro_error(p, at, "attempt to redefine macro '@%s' in the same file",
				    m->name);
			return;
		}
	}
	m->next = t->b[bucket(m->name)];
	t->b[bucket(m->name)] = m;
}

/* Read "( arg, arg )" as raw token lists split at commas outside ( )
 * and [ ]; always reads through the closing parenthesis so that a wrong
 * count is one error, not a cascade. */
static bool read_args(struct parser *p, const struct macro *m,
		      const struct token *at, struct tokvec *args)
{
	struct token tok;
	unsigned depth = 0;
	size_t n = 0;
	int kind = raw_next(p, &tok);

	if (kind != '(') {
		macro_error(p, &tok, "expected '(' after macro '@%s'", m->name);
		return false;
	}
	for (;;) {
		kind = raw_next(p, &tok);
		if (kind == YYEOF) {
			macro_error(p, at, "unterminated arguments of macro '@%s'",
				    m->name);
			return false;
		}
		if (depth == 0 && (kind == ',' || kind == ')')) {
			n++;
			if (kind == ')')
				break;
			continue;
		}
		if (kind == '(' || kind == '[')
			depth++;
		if ((kind == ')' || kind == ']') && depth)
			depth--;
		if (n < m->nparams)
			tv_push(p->arena, &args[n], &tok);
	}
	/* "@m()" passes no argument to a macro without parameters. */
	if (n == 1 && m->nparams == 0 && args[0].n == 0)
		n = 0;
	if (n == m->nparams)
		return true;
	parse_error_at(p, &at->loc, at, "too %s parameters for macro '@%s' (expected %zu)",
		       n < m->nparams ? "few" : "many", m->name, m->nparams);
	return false;
}

static bool macro_expand(struct parser *p, struct macro *m,
			 const struct token *at)
{
	struct macro_frame *f;
	struct expansion *site;
	struct tokvec args[MACRO_MAX_PARAMS];
	size_t i, j;

	/* Only a runaway (recursive) expansion can nest this deep; a macro
	 * used in its own arguments, @m(@m(x)), is fine. */
	if (p->mdepth >= MACRO_MAX_DEPTH || p->macro_tokens > MACRO_MAX_TOKENS) {
		macro_error(p, at, p->mdepth >= MACRO_MAX_DEPTH ?
			    "macro expansion too deep: is '@%s' recursive?" :
			    "macro expansion too large: is '@%s' recursive?", m->name);
		/* Abandon every pending expansion: they would only repeat it. */
		p->mframe = NULL;
		p->mdepth = 0;
		return false;
	}
	memset(args, 0, sizeof(args));
	if (m->has_params && !read_args(p, m, at, args))
		return false;
	f = arena_new_obj(p->arena, struct macro_frame);
	site = arena_new_obj(p->arena, struct expansion);
	site->what = "macro";
	site->token = token_describe(p, at);
	site->site = at->loc;
	for (i = 0; i < m->body.n; i++) {
		struct token t = m->body.t[i];

		if (t.kind == AT_IDENT) {
			for (j = 0; j < m->nparams; j++)
				if (m->params[j] == t.text)
					break;
			if (j < m->nparams) {
				size_t k;

				for (k = 0; k < args[j].n; k++)
					tv_push(p->arena, &f->toks, &args[j].t[k]);
				continue;
			}
		}
		/* Body tokens remember the invocation; argument tokens keep
		 * the place they were written. */
		t.loc.from = site;
		tv_push(p->arena, &f->toks, &t);
	}
	p->macro_tokens += f->toks.n;
	/* The first expanded token takes the spacing of the invocation. */
	if (f->toks.n)
		f->toks.t[0].space_before = at->space_before;
	f->up = p->mframe;
	p->mframe = f;
	p->mdepth++;
	return true;
}

void macro_push_argument(struct parser *p, const struct token *use,
			 const char *text)
{
	struct macro_frame *f = arena_new_obj(p->arena, struct macro_frame);
	struct lexer lx = {
		.p = p,
		.src = source_from_mem(p->arena, arena_printf(p->arena, "<argument %s>", use->text), text, strlen(text)),
		.line = 1,
		.col = 1,
	};
	struct token t;
	bool first = true;

	if (p->mdepth >= MACRO_MAX_DEPTH || lex_open(&lx))
		return;
	while (lex_scan(lx.scanner, &t) != YYEOF) {
		t.loc = use->loc;
		t.space_before = first ? use->space_before : t.space_before;
		t.from_argument = true;
		first = false;
		tv_push(p->arena, &f->toks, &t);
	}
	lex_close(&lx);
	f->up = p->mframe;
	p->mframe = f;
	p->mdepth++;
}

int macro_next(struct parser *p, struct token *tok)
{
	for (;;) {
		int kind = raw_next(p, tok);
		struct macro *m;

		if (kind != AT_IDENT)
			return kind;
		if (!strcmp(tok->text, "define")) {
			struct token at = *tok;

			macro_define(p, &at, !pp_skipping(p));
			continue;
		}
		if (pp_skipping(p))
			return kind;
		m = macro_find(p, tok->text);
		if (!m)
			return kind;
		{
			struct token at = *tok;

			if (macro_expand(p, m, &at))
				continue;
			/* A failed expansion leaves a 0 in its place, so the
			 * error is not followed by a cascade. */
			return token_set_zero(tok);
		}
	}
}
