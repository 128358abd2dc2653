/* SPDX-License-Identifier: GPL-2.0-or-later */
/* softfloat.h: IEEE-754 binary64 arithmetic on bit patterns, in integer
 * C, for the floating-point tapset functions (tapset/floatingpoint.stp):
 * a probe handler must not touch the FPU. A double travels through the
 * script language as the long holding its 64 bits.
 *
 * Results are correctly rounded (round to nearest, ties to even), with
 * subnormals, signed zeros and infinities. NaNs: an operation on a NaN
 * returns the first NaN operand made quiet; an invalid operation (0 * inf,
 * inf - inf, 0 / 0, sqrt of a negative, remainder by 0 or of an infinity)
 * returns the default NaN 0x7ff8000000000000, as the reference's functions
 * were observed to do. No exception flags are kept.
 *
 * Portable: compiled in the kernel (a part of runtime.c) and in user
 * space, where testsuite/unit/runtime_softfloat_test.c checks it against
 * the host's FPU and libm. Every loop is bounded; nothing allocates. */
#ifndef STP_SOFTFLOAT_H
#define STP_SOFTFLOAT_H

#include "stp_types.h"

#define STP_F64_DEFAULT_NAN 0x7ff8000000000000ULL

u64 stp_f64_add(u64 a, u64 b);
u64 stp_f64_sub(u64 a, u64 b);
u64 stp_f64_mul(u64 a, u64 b);
u64 stp_f64_div(u64 a, u64 b);
/* The IEEE remainder: a - n * b, n the integer nearest a / b (ties to
 * even); exact. */
u64 stp_f64_rem(u64 a, u64 b);
u64 stp_f64_sqrt(u64 a);
/* Comparisons: 0 when either operand is a NaN; -0 == +0. */
int stp_f64_eq(u64 a, u64 b);
int stp_f64_lt(u64 a, u64 b);
int stp_f64_le(u64 a, u64 b);

/* Rounding modes of stp_f64_to_i64 (fp_to_long's roundingMode). Any
 * other value truncates, as the reference does with 5 and 6. */
enum {
	STP_ROUND_NEAR_EVEN = 0,
	STP_ROUND_MIN_MAG = 1,
	STP_ROUND_MIN = 2,
	STP_ROUND_MAX = 3,
	STP_ROUND_NEAR_MAX_MAG = 4,
};
/* Out of range saturates (the largest or the smallest long); a NaN
 * gives 0, as the reference's fp_to_long does. */
s64 stp_f64_to_i64(u64 a, int mode);
u64 stp_i64_to_f64(s64 v);
u64 stp_f32_to_f64(u32 a);

/* A decimal number, [+-]digits[.digits][(e|E)[+-]digits], every part
 * optional ("" is 0, "-" is -0, "1e" is 1), to the nearest double.
 * Correctly rounded from the first 40 significant digits, the rest
 * counting only as "more than that". Returns 0, or -EINVAL for any
 * other text (spaces, "inf", "nan", "0x10"). */
int stp_str_to_f64(const char *s, u64 *out);

/* The decimal text of a, rounded to nearest (ties away from zero) at
 * precision digits after the point (at least 1, at most
 * STP_F64_MAX_PRECISION): "3.14", "-0.50"; "inf", "-inf", "nan".
 * Writes at most size bytes, NUL included; returns the length. */
#define STP_F64_MAX_PRECISION 100
size_t stp_f64_to_str(u64 a, int precision, char *buf, size_t size);

#endif
