/* SPDX-License-Identifier: GPL-2.0-or-later */
/* decode.h: numbers to names, for the strace-like strings of the
 * system-call library (argstr, retstr). A table is an array of stp_sym;
 * two renderings serve every table: flags (names joined with '|', the
 * bits no entry names in hex) and enum (the name of the value, else the
 * number: in hex, in decimal when negative), as the reference's argstrs
 * print them. The tables themselves are kernel-only
 * (linux/sc_tables.h); this file is portable and unit-tested in user
 * space (testsuite/unit/runtime_decode_test.c). */
#ifndef STP_DECODE_H
#define STP_DECODE_H

#include "stp_types.h"

/* An entry matches a value v when (v & mask) == value. A plain flag has
 * mask == value; a field (the open access mode, the mmap type, the futex
 * command) has the field's mask and one of its values, possibly 0. A mask
 * of 0 is never matched by stp_flags_str (enum-only entries). */
struct stp_sym {
	int64_t value;
	int64_t mask;
	const char *name;
};

/* An entry of a flags table: the macro's value, its name as written. */
#define STP_FLAG(m) { (int64_t)(m), (int64_t)(m), #m }
/* An entry of a field: the macro's value within the field's mask. */
#define STP_FIELD(m, field) { (int64_t)(m), (int64_t)(field), #m }
/* An entry of an enum table (no mask: never a flag). */
#define STP_SYM(m) { (int64_t)(m), 0, #m }
/* A flags table's name for 0 alone (mask all ones: matches only v == 0). */
#define STP_ZERO(m) { (int64_t)(m), -1, #m }
/* The same with a name other than the macro's, where user space spells
 * the value differently from the kernel (O_ASYNC for FASYNC, R_OK for
 * MAY_READ, SO_RCVTIMEO for SO_RCVTIMEO_OLD): use sparingly. */
#define STP_NAMED(m, name) { (int64_t)(m), 0, name }
#define STP_FLAG_NAMED(m, name) { (int64_t)(m), (int64_t)(m), name }
#define STP_ZERO_NAMED(name) { 0, -1, name }

/* The names of the entries of @t matching @v, in table order, joined with
 * '|'. Each match takes its mask's bits out of play: a later entry matches
 * only if all its mask bits are still in play (so O_TMPFILE, listed before
 * O_DIRECTORY, which it includes, hides it). Bits of @v still in play at
 * the end follow as one 0x%llx; @v == 0 with no match is "0x0". Writes at
 * most @len bytes, NUL included (nothing when len == 0); returns the
 * length stored. */
size_t stp_flags_str(char *buf, size_t len, uint64_t v,
		     const struct stp_sym *t, size_t nt);

/* The name of the first entry of @t whose value is @v (masks ignored),
 * else NULL. */
const char *stp_enum_name(int64_t v, const struct stp_sym *t, size_t nt);

/* That name, else @v in hex (0x..), in decimal when negative; bounded as
 * stp_flags_str. */
size_t stp_enum_str(char *buf, size_t len, int64_t v,
		    const struct stp_sym *t, size_t nt);

#endif
