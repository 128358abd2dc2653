/* SPDX-License-Identifier: GPL-2.0-or-later */
/* regex_caps.h: =~ with captures, for matched().
 * A program compiled with captures (STP_RE_SAVE) run as a Pike VM: each
 * thread carries where the groups it went through started and ended.
 * The match is the leftmost one, of the longest extent from there; among
 * the ways to match that extent, the groups are those of the first in
 * the order of the pattern's preferences (an alternative's left side,
 * greedy repetition), as the reference's: "(a|ab)(c|bcd)(d*)" on "abcd"
 * gives a, bcd, "". Still linear: each program position at most once per
 * subject byte. The translator sizes the work for the script's own
 * programs (STP_RE_CAP_INSTS instructions, STP_RE_CAP_SLOTS slots) and
 * includes regex_caps.c in the generated code when the script calls
 * matched(): the sizes are the script's, so this is never part of the
 * runtime compiled apart (runtime.c). Each context's work is allocated
 * with the contexts (stp_module.re_caps_size bytes). */
#ifndef STP_REGEX_CAPS_H
#define STP_REGEX_CAPS_H

#include "regex.h"

#ifndef MAXSTRINGLEN
#define MAXSTRINGLEN 512
#endif
#ifndef STP_RE_CAP_INSTS
#define STP_RE_CAP_INSTS STP_RE_MAX_INSTS
#endif
#ifndef STP_RE_CAP_SLOTS
#define STP_RE_CAP_SLOTS 64
#endif
#define STP_RE_UNSET 0xffff	/* a slot no SAVE wrote */

struct stp_re_threads {
	u32 n;
	u16 pc[STP_RE_CAP_INSTS];
	u32 gen[STP_RE_CAP_INSTS];
	u16 caps[STP_RE_CAP_INSTS][STP_RE_CAP_SLOTS];
};

struct stp_re_cap_work {
	struct stp_re_threads sets[2];
	u16 cur[STP_RE_CAP_SLOTS];		/* the thread being expanded */
	u32 stack[3 * STP_RE_CAP_INSTS + 2];	/* positions, and undo entries */
	/* the last successful match, for matched() */
	char subject[MAXSTRINGLEN];
	u16 caps[STP_RE_CAP_SLOTS];
	unsigned int nslots;
};

/* The match of @prog (@n instructions, @nslots capture slots: 2 x (groups
 * + 1)) in @s: true, with the subject and the slots kept in @w for
 * stp_regex_group(); false when there is none. */
bool stp_regex_match_caps(const struct stp_re_inst *prog, unsigned int n,
			  const u8 (*classes)[32], unsigned int nslots, const char *s,
			  struct stp_re_cap_work *w);
/* Group @g of the last match kept in @w (@matched: the last =~ of the
 * probe matched) into @out (MAXSTRINGLEN): 0 ("" for a group that took no
 * part in the match), -1 when the last =~ did not match, -2 when the
 * pattern has no group @g. */
int stp_regex_group(const struct stp_re_cap_work *w, bool matched, s64 g, char *out);

/* The context's capture work. */
#define stp_re_caps(c) ((struct stp_re_cap_work *)(c)->re_caps)

#endif
