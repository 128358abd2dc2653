// SPDX-License-Identifier: GPL-2.0-or-later
/* regex.c: POSIX extended regular expressions (alternation, grouping, * +
 * ? {m,n}, . [ ] with ranges, negation and [:classes:], ^ $, \ escapes)
 * parsed into a tree and emitted as a Thompson NFA program for the
 * runtime (runtime/regex.c runs it). */
#include "util/regex.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>

#include "util/arena.h"

/* Instruction codes: the same values as runtime/regex.h's enum. */
enum { OP_CHAR, OP_ANY, OP_CLASS, OP_SPLIT, OP_JMP, OP_BOL, OP_EOL, OP_MATCH, OP_SAVE };

#define MAX_INSTS 512
#define MAX_REPEAT 255

enum node_kind { N_CHAR, N_ANY, N_CLASS, N_BOL, N_EOL, N_EMPTY, N_CAT, N_ALT, N_REP,
		 N_GROUP };

struct node {
	enum node_kind kind;
	int c;			/* N_CHAR byte, N_CLASS index, N_GROUP number */
	int min, max;		/* N_REP; max -1: unbounded */
	struct node *l, *r;
};

struct re_parser {
	struct arena *a;
	const char *p, *end;
	const char *err;
	struct re_prog *prog;
	int depth;
	bool captures;		/* record where groups match (OP_SAVE) */
};

static struct node *mk(struct re_parser *ps, enum node_kind k)
{
	struct node *n = arena_alloc(ps->a, sizeof(*n));

	memset(n, 0, sizeof(*n));
	n->kind = k;
	return n;
}

static struct node *alt(struct re_parser *ps);

static int new_class(struct re_parser *ps)
{
	struct re_prog *pr = ps->prog;
	uint8_t (*v)[32] = arena_alloc(ps->a, (pr->nclasses + 1) * 32);

	if (pr->nclasses)
		memcpy(v, pr->classes, pr->nclasses * 32);
	memset(v[pr->nclasses], 0, 32);
	pr->classes = v;
	return (int)pr->nclasses++;
}

static void set_bit(uint8_t *bm, unsigned ch)
{
	bm[ch >> 3] |= (uint8_t)(1u << (ch & 7));
}

static bool named_class(const char *name, size_t n, unsigned ch)
{
	static const struct { const char *name; int (*is)(int); } v[] = {
		{ "alpha", isalpha }, { "digit", isdigit }, { "alnum", isalnum },
		{ "upper", isupper }, { "lower", islower }, { "space", isspace },
		{ "punct", ispunct }, { "print", isprint }, { "graph", isgraph },
		{ "cntrl", iscntrl }, { "xdigit", isxdigit }, { "blank", isblank },
	};
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (strlen(v[i].name) == n && !strncmp(v[i].name, name, n))
			return ch < 128 && v[i].is((int)ch);
	return false;
}

/* [...] after the '[' */
static struct node *bracket(struct re_parser *ps)
{
	struct node *n = mk(ps, N_CLASS);
	uint8_t bm[32];
	bool neg = false, first = true;
	unsigned i;

	memset(bm, 0, sizeof(bm));
	if (ps->p < ps->end && *ps->p == '^') {
		neg = true;
		ps->p++;
	}
	for (;;) {
		unsigned lo, hi;

		if (ps->p >= ps->end) {
			ps->err = "unmatched [";
			return NULL;
		}
		if (*ps->p == ']' && !first) {
			ps->p++;
			break;
		}
		first = false;
		if (ps->p + 1 < ps->end && ps->p[0] == '[' && ps->p[1] == ':') {
			const char *name = ps->p + 2, *close = name;

			while (close + 1 < ps->end && !(close[0] == ':' && close[1] == ']'))
				close++;
			if (close + 1 >= ps->end) {
				ps->err = "unterminated [: :] class";
				return NULL;
			}
			for (i = 0; i < 256; i++)
				if (named_class(name, (size_t)(close - name), i))
					set_bit(bm, i);
			ps->p = close + 2;
			continue;
		}
		if (*ps->p == '\\' && ps->p + 1 < ps->end)
			ps->p++;
		lo = (unsigned char)*ps->p++;
		hi = lo;
		if (ps->p + 1 < ps->end && *ps->p == '-' && ps->p[1] != ']') {
			ps->p++;
			if (*ps->p == '\\' && ps->p + 1 < ps->end)
				ps->p++;
			hi = (unsigned char)*ps->p++;
			if (hi < lo) {
				ps->err = "invalid range in [ ]";
				return NULL;
			}
		}
		for (i = lo; i <= hi; i++)
			set_bit(bm, i);
	}
	if (neg)
		for (i = 0; i < 32; i++)
			bm[i] = (uint8_t)~bm[i];
	bm[0] &= (uint8_t)~1u;	/* never the NUL at the end */
	n->c = new_class(ps);
	memcpy(ps->prog->classes[n->c], bm, 32);
	return n;
}

static struct node *atom(struct re_parser *ps)
{
	struct node *n;
	char ch = *ps->p++;

	switch (ch) {
	case '(': {
		struct node *g;
		int num = (int)++ps->prog->ngroups;	/* numbered by their '(' */

		if (++ps->depth > 100) {
			ps->err = "groups nested too deeply";
			return NULL;
		}
		n = alt(ps);
		ps->depth--;
		if (!n)
			return NULL;
		if (ps->p >= ps->end || *ps->p != ')') {
			ps->err = "unmatched (";
			return NULL;
		}
		ps->p++;
		if (!ps->captures)
			return n;
		g = mk(ps, N_GROUP);
		g->c = num;
		g->l = n;
		return g;
	}
	case '[':
		return bracket(ps);
	case '.':
		return mk(ps, N_ANY);
	case '^':
		return mk(ps, N_BOL);
	case '$':
		return mk(ps, N_EOL);
	case '*': case '+': case '?': case '{':
		ps->err = "repetition operator without an operand";
		return NULL;
	case '\\':
		if (ps->p >= ps->end) {
			ps->err = "trailing backslash";
			return NULL;
		}
		ch = *ps->p++;
		/* fall through */
	default:
		n = mk(ps, N_CHAR);
		n->c = (unsigned char)ch;
		return n;
	}
}

static bool number(struct re_parser *ps, int *v)
{
	if (ps->p >= ps->end || !isdigit((unsigned char)*ps->p))
		return false;
	*v = 0;
	while (ps->p < ps->end && isdigit((unsigned char)*ps->p)) {
		*v = *v * 10 + (*ps->p++ - '0');
		if (*v > MAX_REPEAT) {
			ps->err = "repetition count too large";
			return false;
		}
	}
	return true;
}

static struct node *repeat(struct re_parser *ps)
{
	struct node *n = atom(ps), *r;

	while (n && ps->p < ps->end && strchr("*+?{", *ps->p)) {
		char op = *ps->p++;

		r = mk(ps, N_REP);
		r->l = n;
		r->min = op == '+' ? 1 : 0;
		r->max = op == '?' ? 1 : -1;
		if (op == '{') {
			if (!number(ps, &r->min)) {
				ps->err = ps->err ? ps->err : "invalid { } repetition";
				return NULL;
			}
			r->max = r->min;
			if (ps->p < ps->end && *ps->p == ',') {
				ps->p++;
				r->max = -1;
				if (ps->p < ps->end && *ps->p != '}' && !number(ps, &r->max)) {
					ps->err = ps->err ? ps->err : "invalid { } repetition";
					return NULL;
				}
			}
			if (ps->p >= ps->end || *ps->p != '}' || (r->max >= 0 && r->max < r->min)) {
				ps->err = "invalid { } repetition";
				return NULL;
			}
			ps->p++;
		}
		n = r;
	}
	return n;
}

static struct node *concat(struct re_parser *ps)
{
	struct node *n = mk(ps, N_EMPTY), *c;

	while (ps->p < ps->end && *ps->p != '|' && *ps->p != ')') {
		struct node *r = repeat(ps);

		if (!r)
			return NULL;
		c = mk(ps, N_CAT);
		c->l = n;
		c->r = r;
		n = c;
	}
	return n;
}

static struct node *alt(struct re_parser *ps)
{
	struct node *n = concat(ps), *a;

	while (n && ps->p < ps->end && *ps->p == '|') {
		ps->p++;
		a = mk(ps, N_ALT);
		a->l = n;
		a->r = concat(ps);
		if (!a->r)
			return NULL;
		n = a;
	}
	return n;
}

/* ---- code ---- */

static int emit(struct re_parser *ps, int op, int c, int x, int y)
{
	struct re_prog *pr = ps->prog;

	if (pr->n >= MAX_INSTS) {
		ps->err = "regular expression too large";
		return -1;
	}
	pr->inst[pr->n].op = (uint8_t)op;
	pr->inst[pr->n].c = (uint8_t)c;
	pr->inst[pr->n].x = (uint16_t)x;
	pr->inst[pr->n].y = (uint16_t)y;
	return (int)pr->n++;
}

static bool gen(struct re_parser *ps, const struct node *n)
{
	struct re_prog *pr = ps->prog;
	int s, j, i;

	if (ps->err)
		return false;
	switch (n->kind) {
	case N_EMPTY:
		return true;
	case N_CHAR:
		return emit(ps, OP_CHAR, n->c, 0, 0) >= 0;
	case N_ANY:
		return emit(ps, OP_ANY, 0, 0, 0) >= 0;
	case N_CLASS:
		return emit(ps, OP_CLASS, 0, n->c, 0) >= 0;
	case N_BOL:
		return emit(ps, OP_BOL, 0, 0, 0) >= 0;
	case N_EOL:
		return emit(ps, OP_EOL, 0, 0, 0) >= 0;
	case N_CAT:
		return gen(ps, n->l) && gen(ps, n->r);
	case N_GROUP:	/* where group c starts and ends: slots 2c, 2c + 1 */
		return emit(ps, OP_SAVE, 0, 2 * n->c, 0) >= 0 && gen(ps, n->l) &&
		       emit(ps, OP_SAVE, 0, 2 * n->c + 1, 0) >= 0;
	case N_ALT:
		if ((s = emit(ps, OP_SPLIT, 0, 0, 0)) < 0)
			return false;
		pr->inst[s].x = (uint16_t)pr->n;
		if (!gen(ps, n->l) || (j = emit(ps, OP_JMP, 0, 0, 0)) < 0)
			return false;
		pr->inst[s].y = (uint16_t)pr->n;
		if (!gen(ps, n->r))
			return false;
		pr->inst[j].x = (uint16_t)pr->n;
		return true;
	case N_REP:
		for (i = 0; i < n->min; i++)
			if (!gen(ps, n->l))
				return false;
		if (n->max < 0) {
			if ((s = emit(ps, OP_SPLIT, 0, 0, 0)) < 0)
				return false;
			pr->inst[s].x = (uint16_t)pr->n;
			if (!gen(ps, n->l) || emit(ps, OP_JMP, 0, s, 0) < 0)
				return false;
			pr->inst[s].y = (uint16_t)pr->n;
			return true;
		}
		{
			int skip[MAX_REPEAT + 1], k = 0;

			for (i = n->min; i < n->max; i++) {
				/* each optional copy: take it, or skip it and the rest */
				if ((s = emit(ps, OP_SPLIT, 0, 0, 0)) < 0)
					return false;
				pr->inst[s].x = (uint16_t)pr->n;
				skip[k++] = s;
				if (!gen(ps, n->l))
					return false;
			}
			while (k--)
				pr->inst[skip[k]].y = (uint16_t)pr->n;
		}
		return true;
	}
	return false;
}

struct re_prog *re_compile(struct arena *a, const char *pat, size_t len,
			   bool captures, const char **err)
{
	struct re_parser ps = { a, pat, pat + len, NULL, NULL, 0, captures };
	struct node *n;

	ps.prog = arena_alloc(a, sizeof(*ps.prog));
	memset(ps.prog, 0, sizeof(*ps.prog));
	ps.prog->inst = arena_alloc(a, sizeof(*ps.prog->inst) * MAX_INSTS);
	n = alt(&ps);
	if (n && ps.p < ps.end && !ps.err)
		ps.err = "unmatched )";
	if (captures && n && !ps.err && ps.prog->ngroups > RE_MAX_GROUPS)
		ps.err = "too many groups for matched() (at most 31)";
	/* the whole match is group 0 */
	if (n && !ps.err && (!captures || emit(&ps, OP_SAVE, 0, 0, 0) >= 0) &&
	    gen(&ps, n) && (!captures || emit(&ps, OP_SAVE, 0, 1, 0) >= 0))
		emit(&ps, OP_MATCH, 0, 0, 0);
	if (ps.err || !n) {
		*err = ps.err ? ps.err : "invalid regular expression";
		return NULL;
	}
	return ps.prog;
}
