// SPDX-License-Identifier: GPL-2.0-or-later
/* pp_cond.c: evaluating the condition of %( COND %? ... %).
 *
 *   COND  := AND { '||' AND }
 *   AND   := TERM { '&&' TERM }
 *   TERM  := OPERAND ( == | != | < | <= | > | >= ) OPERAND
 *
 * OPERAND is kernel_v, kernel_vr, arch, runtime, systemtap_v,
 * systemtap_privilege, guru_mode, CONFIG_xxx, a string, a number, or a
 * script argument ($#, @#, $N, @N). Versions compare like strverscmp;
 * == and != against a string holding * ? or [ compare as a glob. */
#define _GNU_SOURCE
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "parse/parse_internal.h"
#include "parse/parser.h"
#include "session.h"
#include "util/arena.h"
#include "util/kernel_info.h"

enum operand_kind { OPND_STRING, OPND_NUMBER, OPND_VERSION, OPND_ERROR };

struct operand {
	enum operand_kind kind;
	const char *s;
	int64_t n;
	bool config;		/* a CONFIG_ value: numeric compare if it is one */
};

static bool is_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

static bool parse_int(const char *s, int64_t *out)
{
	char *end;

	if (!*s)
		return false;
	*out = strtoll(s, &end, 0);
	return *end == '\0';
}

static struct operand read_operand(struct parser *p, struct token *tok)
{
	struct operand o = { OPND_ERROR, NULL, 0, false };
	const struct session *s = p->sess;
	int kind = macro_next(p, tok);
	const char *name = tok->text;

	switch (kind) {
	case STRING:
		o.kind = OPND_STRING;
		o.s = tok->text;
		return o;
	case NUMBER:
		o.kind = OPND_NUMBER;
		o.n = (int64_t)tok->num;
		return o;
	case '-':
		if (macro_next(p, tok) == NUMBER) {
			o.kind = OPND_NUMBER;
			o.n = -(int64_t)tok->num;
			return o;
		}
		break;
	case ARG_COUNT:
		if (tok->text && tok->text[0] == '@') {
			o.kind = OPND_STRING;
			o.s = arena_printf(p->arena, "%d", s->args.n);
		} else {
			o.kind = OPND_NUMBER;
			o.n = s->args.n;
		}
		return o;
	case ARG_DOLLAR:
	case ARG_AT:
		if (tok->num >= 1 && tok->num <= (uint64_t)s->args.n) {
			o.s = s->args.v[tok->num - 1];
			if (kind == ARG_DOLLAR && parse_int(o.s, &o.n))
				o.kind = OPND_NUMBER;
			else
				o.kind = OPND_STRING;
			return o;
		}
		parse_error_at(p, &tok->loc, tok,
			       "command line argument out of range [1-%d]",
			       s->args.n);
		return o;
	case IDENT:
		if (!strcmp(name, "kernel_v")) {
			o.kind = OPND_VERSION;
			o.s = p->kinfo->version;
		} else if (!strcmp(name, "kernel_vr")) {
			o.kind = OPND_VERSION;
			o.s = p->kinfo->release;
		} else if (!strcmp(name, "systemtap_v")) {
			o.kind = OPND_VERSION;
			o.s = s->compatible ? s->compatible : STAP_COMPAT_VERSION;
		} else if (!strcmp(name, "arch")) {
			o.kind = OPND_STRING;
			o.s = s->arch;
		} else if (!strcmp(name, "runtime")) {
			o.kind = OPND_STRING;
			o.s = "kernel";
		} else if (!strcmp(name, "systemtap_privilege")) {
			o.kind = OPND_STRING;
			o.s = "stapdev";
		} else if (!strcmp(name, "guru_mode")) {
			o.kind = OPND_NUMBER;
			o.n = s->guru;
		} else if (!strncmp(name, "CONFIG_", 7)) {
			o.s = kernel_config(p->kinfo, p->arena, name);
			if (!o.s) {
				parse_error_at(p, &tok->loc, tok,
					       "cannot evaluate %s: no kernel configuration in %s (give -r RELEASE or install its headers)",
					       name, p->kinfo->build_dir);
				return o;
			}
			o.kind = OPND_STRING;
			o.config = true;
		} else {
			break;
		}
		return o;
	default:
		break;
	}
	parse_error_at(p, &tok->loc, tok,
		       "expected 'kernel_v', 'kernel_vr', 'arch', 'runtime', 'systemtap_v', 'systemtap_privilege', 'guru_mode', 'CONFIG_...', a script argument, a string or a number");
	return o;
}

static int cmp_result(int op, int c)
{
	switch (op) {
	case EQ: return c == 0;
	case NE: return c != 0;
	case '<': return c < 0;
	case LE: return c <= 0;
	case '>': return c > 0;
	case GE: return c >= 0;
	default: return 0;
	}
}

static int compare(struct parser *p, const struct token *optok, int op,
		   const struct operand *l, const struct operand *r)
{
	int64_t ln, rn;

	if (l->kind == OPND_ERROR || r->kind == OPND_ERROR)
		return -1;
	/* A CONFIG_ value against a number compares numerically. */
	if (l->config && r->kind == OPND_NUMBER) {
		if (!parse_int(l->s, &ln)) {
			parse_error_at(p, &optok->loc, optok,
				       "Config option value not a number: '%s'", l->s);
			return -1;
		}
		return cmp_result(op, (ln > r->n) - (ln < r->n));
	}
	if (l->kind == OPND_NUMBER && r->kind == OPND_NUMBER) {
		ln = l->n;
		rn = r->n;
		return cmp_result(op, (ln > rn) - (ln < rn));
	}
	if (l->kind == OPND_NUMBER || r->kind == OPND_NUMBER) {
		parse_error_at(p, &optok->loc, optok,
			       "comparison between a string and a number in a conditional");
		return -1;
	}
	if ((op == EQ || op == NE) && is_glob(r->s))
		return (fnmatch(r->s, l->s, 0) == 0) == (op == EQ);
	if (l->kind == OPND_VERSION || r->kind == OPND_VERSION)
		return cmp_result(op, strverscmp(l->s, r->s));
	return cmp_result(op, strcmp(l->s, r->s));
}

int pp_eval_condition(struct parser *p)
{
	struct token tok;
	int result = 0, and_acc = 1;
	bool error = false;

	for (;;) {
		struct operand l = read_operand(p, &tok), r;
		struct token optok;
		int op, v;

		if (l.kind == OPND_ERROR)
			goto resync;
		op = macro_next(p, &optok);
		if (op != EQ && op != NE && op != '<' && op != '>' &&
		    op != LE && op != GE) {
			parse_error_at(p, &optok.loc, &optok,
				       "expected comparison operator in conditional");
			tok = optok;
			goto resync;
		}
		r = read_operand(p, &tok);
		v = compare(p, &optok, op, &l, &r);
		if (v < 0) {
			error = true;
			v = 0;
		}
		and_acc = and_acc && v;
		op = macro_next(p, &tok);
		if (op == ANDAND)
			continue;
		result = result || and_acc;
		and_acc = 1;
		if (op == OROR)
			continue;
		if (op == PP_THEN)
			return error ? -1 : result;
		parse_error_at(p, &tok.loc, &tok,
			       "expected '%%?' marker for conditional");
		goto resync;
	}
resync:
	/* Resynchronise at the %? so the branches still pair up. */
	while (tok.kind != PP_THEN && tok.kind != YYEOF && tok.kind != PP_CLOSE)
		macro_next(p, &tok);
	return -1;
}
