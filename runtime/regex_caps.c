// SPDX-License-Identifier: GPL-2.0-or-later
/* regex_caps.c: =~ with captures (a Pike VM), included in the generated
 * code of a script that calls matched() (regex_caps.h). */
#include "regex_caps.h"

#define STP_RE_UNDO 0x80000000u	/* stack entry: restore slot (bits 16-30) */

struct stp_re_best {
	bool found;
	u16 start, end;
};

/* Add thread @pc at subject position @pos with the captures in w->cur,
 * and what it reaches without consuming a byte, in priority order (depth
 * first, the preferred branch first; SAVE changes w->cur and the change
 * is undone when the walk backs out of it). A MATCH reached becomes the
 * best match when it starts earlier or, from the same start, ends later
 * than the best so far. */
static bool stp_re_add_caps(const struct stp_re_inst *prog, unsigned int n,
			    unsigned int nslots, struct stp_re_threads *set,
			    struct stp_re_cap_work *w, u32 step, unsigned int pc,
			    unsigned int pos, bool at_end, struct stp_re_best *best)
{
	const unsigned int room = 3 * STP_RE_CAP_INSTS + 2;
	unsigned int sp = 0;
	u32 e;

	w->stack[sp++] = pc;
	while (sp) {
		e = w->stack[--sp];
		if (e & STP_RE_UNDO) {
			w->cur[(e >> 16) & 0x7fff] = (u16)e;
			continue;
		}
		pc = e;
		if (pc >= n || set->gen[pc] == step)
			continue;
		set->gen[pc] = step;
		/* each position once per step, pushing at most two entries */
		if (sp + 2 > room)
			return false;
		switch (prog[pc].op) {
		case STP_RE_JMP:
			w->stack[sp++] = prog[pc].x;
			break;
		case STP_RE_SPLIT:
			w->stack[sp++] = prog[pc].y;
			w->stack[sp++] = prog[pc].x;
			break;
		case STP_RE_BOL:
			if (pos == 0)
				w->stack[sp++] = pc + 1;
			break;
		case STP_RE_EOL:
			if (at_end)
				w->stack[sp++] = pc + 1;
			break;
		case STP_RE_SAVE:
			if (prog[pc].x < nslots) {
				w->stack[sp++] = STP_RE_UNDO | ((u32)prog[pc].x << 16) |
						 w->cur[prog[pc].x];
				w->cur[prog[pc].x] = (u16)pos;
			}
			w->stack[sp++] = pc + 1;
			break;
		case STP_RE_MATCH:
			if (!best->found || w->cur[0] < best->start ||
			    (w->cur[0] == best->start && pos > best->end)) {
				best->found = true;
				best->start = w->cur[0];
				best->end = (u16)pos;
				memcpy(w->caps, w->cur, nslots * sizeof(w->cur[0]));
			}
			break;
		default:	/* consumes a byte: a thread of the next step */
			set->pc[set->n] = (u16)pc;
			memcpy(set->caps[set->n], w->cur, nslots * sizeof(w->cur[0]));
			set->n++;
		}
	}
	return true;
}

bool stp_regex_match_caps(const struct stp_re_inst *prog, unsigned int n,
			  const u8 (*classes)[32], unsigned int nslots, const char *s,
			  struct stp_re_cap_work *w)
{
	struct stp_re_threads *cur = &w->sets[0], *next = &w->sets[1], *t;
	struct stp_re_best best = { false, 0, 0 };
	u32 step = 1;
	size_t i, len;

	w->nslots = 0;
	if (!n || n > STP_RE_CAP_INSTS || nslots < 2 || nslots > STP_RE_CAP_SLOTS)
		return false;
	len = strnlen(s, MAXSTRINGLEN - 1);
	memset(w->sets[0].gen, 0, sizeof(w->sets[0].gen));
	memset(w->sets[1].gen, 0, sizeof(w->sets[1].gen));
	cur->n = 0;
	for (i = 0;; i++) {
		unsigned char ch = i < len ? (unsigned char)s[i] : '\0';
		u32 k;

		/* a match may start here while none was found (leftmost);
		 * the new thread comes after the older ones (lower priority) */
		if (!best.found) {
			memset(w->cur, 0xff, nslots * sizeof(w->cur[0]));
			if (!stp_re_add_caps(prog, n, nslots, cur, w, step, 0, (unsigned int)i,
					     ch == '\0', &best))
				return false;
		}
		if (!ch || (best.found && !cur->n))
			break;
		next->n = 0;
		step++;
		for (k = 0; k < cur->n; k++) {
			const struct stp_re_inst *in = &prog[cur->pc[k]];
			bool ok;

			/* a thread that started after the best match cannot
			 * better it */
			if (best.found && cur->caps[k][0] > best.start)
				continue;
			ok = stp_re_consumes(in, classes, ch);
			if (!ok)
				continue;
			memcpy(w->cur, cur->caps[k], nslots * sizeof(w->cur[0]));
			if (!stp_re_add_caps(prog, n, nslots, next, w, step, cur->pc[k] + 1u,
					     (unsigned int)i + 1, i + 1 >= len, &best))
				return false;
		}
		t = cur;
		cur = next;
		next = t;
	}
	if (!best.found)
		return false;
	memcpy(w->subject, s, len);
	w->subject[len] = '\0';
	w->nslots = nslots;
	return true;
}

int stp_regex_group(const struct stp_re_cap_work *w, bool matched, s64 g, char *out)
{
	u16 a, b;

	out[0] = '\0';
	if (!matched || !w->nslots)
		return -1;
	if (g < 0 || (u64)g >= w->nslots / 2)
		return -2;
	a = w->caps[2 * g];
	b = w->caps[2 * g + 1];
	if (a == STP_RE_UNSET || b == STP_RE_UNSET || b < a)
		return 0;	/* the group took no part in the match: "" */
	memcpy(out, w->subject + a, (size_t)(b - a));
	out[b - a] = '\0';
	return 0;
}
