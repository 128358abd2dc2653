// SPDX-License-Identifier: GPL-2.0-or-later
/* regex.c: =~ by Thompson NFA simulation: the set of program positions
 * alive after each byte of the subject, each position at most once, so
 * the work is bounded by length(subject) x length(program). */
#include "regex.h"

/* Add @pc and what it reaches without consuming a byte (explicit stack). */
static bool stp_re_add(const struct stp_re_inst *prog, unsigned int n,
		       struct stp_re_set *set, u16 *stack, u32 step, unsigned int pc,
		       bool at_start, bool at_end)
{
	const unsigned int room = 2 * STP_RE_MAX_INSTS + 2;
	unsigned int sp = 0;

	stack[sp++] = (u16)pc;
	while (sp) {
		pc = stack[--sp];
		if (pc >= n || set->gen[pc] == step)
			continue;
		set->gen[pc] = step;
		/* Each position is expanded once per step, pushing at most
		 * two: the stack holds 2n + 2. */
		if (sp + 2 > room)
			return false;
		switch (prog[pc].op) {
		case STP_RE_JMP:
			stack[sp++] = prog[pc].x;
			break;
		case STP_RE_SPLIT:
			stack[sp++] = prog[pc].y;
			stack[sp++] = prog[pc].x;
			break;
		case STP_RE_BOL:
			if (at_start)
				stack[sp++] = (u16)(pc + 1);
			break;
		case STP_RE_EOL:
			if (at_end)
				stack[sp++] = (u16)(pc + 1);
			break;
		case STP_RE_MATCH:
			return true;
		case STP_RE_SAVE:
			stack[sp++] = (u16)(pc + 1);
			break;
		default:
			set->pc[set->n++] = (u16)pc;
		}
	}
	return false;
}

bool stp_regex_match(const struct stp_re_inst *prog, unsigned int n,
		     const u8 (*classes)[32], const char *s, struct stp_re_work *w)
{
	struct stp_re_set *cur = &w->sets[0], *next = &w->sets[1], *t;
	u32 step = 1;
	size_t i;

	if (!n || n > STP_RE_MAX_INSTS)
		return false;
	memset(w->sets[0].gen, 0, sizeof(w->sets[0].gen));
	memset(w->sets[1].gen, 0, sizeof(w->sets[1].gen));
	cur->n = 0;
	for (i = 0;; i++) {
		unsigned char ch = (unsigned char)s[i];
		u32 k;

		/* A match may start at every position (unanchored search). */
		if (stp_re_add(prog, n, cur, w->stack, step, 0, i == 0, ch == '\0'))
			return true;
		if (!ch)
			return false;
		next->n = 0;
		step++;
		for (k = 0; k < cur->n; k++) {
			const struct stp_re_inst *in = &prog[cur->pc[k]];
			bool ok;

			ok = stp_re_consumes(in, classes, ch);
			if (ok && stp_re_add(prog, n, next, w->stack, step, cur->pc[k] + 1u,
					     false, s[i + 1] == '\0'))
				return true;
		}
		t = cur;
		cur = next;
		next = t;
	}
}
