/* SPDX-License-Identifier: GPL-2.0-or-later */
/* regex.h: the script language's =~ (POSIX extended regular expressions),
 * run as a Thompson NFA simulation over a program the translator compiled
 * (util/regex.c): time linear in the subject, no recursion, no allocation. */
#ifndef STP_REGEX_H
#define STP_REGEX_H

#include "stp_types.h"

enum stp_re_op {
	STP_RE_CHAR,		/* byte c */
	STP_RE_ANY,		/* any byte but NUL */
	STP_RE_CLASS,		/* byte in class x */
	STP_RE_SPLIT,		/* continue at x and at y */
	STP_RE_JMP,		/* continue at x */
	STP_RE_BOL,		/* at the start */
	STP_RE_EOL,		/* at the end */
	STP_RE_MATCH,
	STP_RE_SAVE,		/* the position into capture slot x */
};

#define STP_RE_MAX_INSTS 512	/* the translator refuses longer programs */

struct stp_re_inst {
	u8 op;			/* enum stp_re_op */
	u8 c;
	u16 x, y;
};

/* Working memory of one match (about 7 KB: kept in the per-CPU
 * context, not on the kernel stack). */
struct stp_re_set {
	u16 pc[STP_RE_MAX_INSTS];
	u32 n;
	u32 gen[STP_RE_MAX_INSTS];	/* last step that added each position */
};

struct stp_re_work {
	struct stp_re_set sets[2];
	u16 stack[2 * STP_RE_MAX_INSTS + 2];
};

/* Does instruction @in take the subject byte @ch (CHAR, ANY, CLASS)? */
static inline bool stp_re_consumes(const struct stp_re_inst *in, const u8 (*classes)[32],
				   unsigned char ch)
{
	switch (in->op) {
	case STP_RE_CHAR:
		return ch == in->c;
	case STP_RE_ANY:
		return true;
	case STP_RE_CLASS:
		return classes[in->x][ch >> 3] & (1u << (ch & 7));
	default:
		return false;
	}
}

/* Does @s contain a match of @prog (@n instructions; classes are 32-byte
 * bitmaps)? */
bool stp_regex_match(const struct stp_re_inst *prog, unsigned int n,
		     const u8 (*classes)[32], const char *s, struct stp_re_work *w);

#endif
