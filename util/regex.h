/* SPDX-License-Identifier: GPL-2.0-or-later */
/* regex.h: compiling the POSIX extended regular expressions of =~ into the
 * runtime's NFA program (runtime/regex.h) at translation time. */
#ifndef UTIL_REGEX_H
#define UTIL_REGEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct arena;

struct re_inst {
	uint8_t op;		/* enum stp_re_op of runtime/regex.h */
	uint8_t c;
	uint16_t x, y;
};

struct re_prog {
	struct re_inst *inst;
	size_t n;
	uint8_t (*classes)[32];
	size_t nclasses;
	size_t ngroups;		/* parenthesised groups */
};

#define RE_MAX_GROUPS 31	/* with @captures: slots 2..63 */

/* Compile @len bytes at @pat; NULL with *@err set on a syntax error or a
 * program longer than the runtime takes. With @captures, the program
 * records where the match and each group start and end (OP_SAVE of slots
 * 0 and 1 around the whole, 2N and 2N + 1 around group N), for matched(). */
struct re_prog *re_compile(struct arena *a, const char *pat, size_t len,
			   bool captures, const char **err);

#endif
