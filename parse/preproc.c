// SPDX-License-Identifier: GPL-2.0-or-later
/* preproc.c: the upper preprocessor layer: %( COND %? A %: B %) selection,
 * script arguments ($1, @1, $#, @#) and the mapping of @-operators to
 * grammar tokens. Macros are expanded below this layer (only in branches
 * being taken, where @define is recorded too); a $N argument becomes a
 * token frame of the macro layer, so its tokens come back through here. */
#include <string.h>

#include "parse/parse_internal.h"
#include "parse/parser.h"
#include "session.h"
#include "util/arena.h"
#include "util/diag.h"
#include "util/intern.h"

/* The @-operators of the language; min/max count the arguments of the
 * generic AT_OP ones (the others have their own grammar rules). */
static const struct at_operator at_operators[] = {
	{ "cast", AT_CAST, 0, 0 },	{ "var", AT_VAR, 0, 0 },
	{ "entry", AT_ENTRY, 0, 0 },	{ "defined", AT_DEFINED, 0, 0 },
	{ "probewrite", AT_PROBEWRITE, 0, 0 },
	{ "count", AT_STATOP, 0, 0 },	{ "sum", AT_STATOP, 0, 0 },
	{ "min", AT_STATOP, 0, 0 },	{ "max", AT_STATOP, 0, 0 },
	{ "avg", AT_STATOP, 0, 0 },	{ "variance", AT_STATOP, 0, 0 },
	{ "hist_log", AT_HIST_LOG, 0, 0 },
	{ "hist_linear", AT_HIST_LINEAR, 0, 0 },
	{ "const", AT_OP, 1, 1 },	{ "kderef", AT_OP, 2, 2 },
	{ "uderef", AT_OP, 2, 2 },	{ "kregister", AT_OP, 1, 1 },
	{ "uregister", AT_OP, 1, 1 },	{ "perf", AT_OP, 1, 1 },
	{ "errno", AT_OP, 0, 0 },
};

const struct at_operator *at_operator_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(at_operators) / sizeof(at_operators[0]); i++)
		if (!strcmp(at_operators[i].name, name))
			return &at_operators[i];
	return NULL;
}

bool pp_skipping(const struct parser *p)
{
	return p->ncond && !p->conds[p->ncond - 1].taking;
}

static void cond_push(struct parser *p, const struct token *open, bool taking,
		      bool parent_skipping)
{
	struct cond_frame *f;

	p->conds = arena_grow(p->arena, p->conds, p->ncond, &p->cond_cap,
			      sizeof(*p->conds));
	f = &p->conds[p->ncond++];
	f->loc = open->loc;
	f->taking = taking;
	f->seen_else = false;
	f->parent_skipping = parent_skipping;
}

static const char *script_arg(struct parser *p, const struct token *tok)
{
	const struct strlist *args = &p->sess->args;

	if (tok->num < 1 || tok->num > (uint64_t)args->n) {
		parse_error_at(p, &tok->loc, tok,
			       "command line argument out of range [1-%d]",
			       args->n);
		return NULL;
	}
	return args->v[tok->num - 1];
}

/* Final mapping of a token that will reach the grammar. Returns 0 when
 * the token was replaced by an argument's tokens or dropped. */
static int finish_token(struct parser *p, struct token *tok)
{
	const struct at_operator *op;
	const char *arg;

	switch (tok->kind) {
	case ARG_DOLLAR:
		if (tok->from_argument)
			goto nested;
		arg = script_arg(p, tok);
		if (arg) {
			macro_push_argument(p, tok, arg);
			return 0;
		}
		/* Stand in a 0 so one missing argument gives one error. */
		return token_set_zero(tok);
	case ARG_AT:
		if (tok->from_argument)
			goto nested;
		arg = script_arg(p, tok);
		tok->kind = STRING;
		tok->text = arg ? arg : "";
		tok->len = strlen(tok->text);
		return STRING;
	case ARG_COUNT: {
		/* $# is a number, @# the same count as a string. */
		bool as_string = tok->text && tok->text[0] == '@';

		if (tok->from_argument)
			goto nested;
		tok->num = (uint64_t)p->sess->args.n;
		tok->text = arena_printf(p->arena, "%d", p->sess->args.n);
		tok->len = strlen(tok->text);
		return tok->kind = as_string ? STRING : NUMBER;
	}
	case AT_IDENT:
		op = at_operator_find(tok->text);
		if (op)
			return tok->kind = op->kind;
		parse_error_at(p, &tok->loc, tok,
			       "unknown macro or operator '@%s'", tok->text);
		return 0;
	case PP_THEN:
		parse_error_at(p, &tok->loc, tok,
			       "incomplete conditional - missing '%%('");
		return 0;
	default:
		return tok->kind;
	}
nested:
	parse_error_at(p, &tok->loc, tok,
		       "invalid nested substitution of command line arguments");
	return 0;
}

static int pp_next_token(struct parser *p, struct token *tok);

int pp_next(struct parser *p, struct token *tok)
{
	int kind = pp_next_token(p, tok);

	if (kind != YYEOF)
		p->parsed++;
	return kind;
}

static int pp_next_token(struct parser *p, struct token *tok)
{
	for (;;) {
		int kind;

		kind = macro_next(p, tok);
		switch (kind) {
		case PP_OPEN:
			if (pp_skipping(p)) {
				cond_push(p, tok, false, true);
			} else {
				struct token open = *tok;
				int r = pp_eval_condition(p);

				cond_push(p, &open, r == 1, false);
			}
			continue;
		case PP_ELSE:
			if (!p->ncond) {
				parse_error_at(p, &tok->loc, tok,
					       "incomplete conditional - missing '%%('");
				continue;
			}
			if (p->conds[p->ncond - 1].seen_else) {
				parse_error_at(p, &tok->loc, tok,
					       "invalid conditional - duplicate '%%:'");
				continue;
			}
			p->conds[p->ncond - 1].seen_else = true;
			if (!p->conds[p->ncond - 1].parent_skipping)
				p->conds[p->ncond - 1].taking =
					!p->conds[p->ncond - 1].taking;
			continue;
		case PP_CLOSE:
			if (!p->ncond) {
				parse_error_at(p, &tok->loc, tok,
					       "incomplete conditional - missing '%%('");
				continue;
			}
			p->ncond--;
			continue;
		case YYEOF:
			if (p->ncond) {
				struct token open = { .kind = PP_OPEN,
						      .loc = p->conds[0].loc };

				parse_error_at(p, &open.loc, &open,
					       "incomplete conditional at end of file");
				p->ncond = 0;
			}
			return kind;
		default:
			break;
		}
		if (pp_skipping(p))
			continue;
		kind = finish_token(p, tok);
		if (kind)
			return kind;
	}
}
