// SPDX-License-Identifier: GPL-2.0-or-later
/* softfloat.c: IEEE-754 binary64 in integer C (see softfloat.h).
 *
 * Finite nonzero operands are unpacked into a 53-bit significand m (bit
 * 52 set, subnormals normalized) and a biased exponent e, the value being
 * m * 2^(e - 1075). Results go through round_pack(), which takes a 64-bit
 * significand whose bits below the result's precision are round bits,
 * bit 0 "sticky" (set when anything nonzero was shifted out), so one
 * rounding step gives the correctly rounded result. */
#include "softfloat.h"

#define SIGN_BIT 0x8000000000000000ULL
#define EXP_MASK 0x7ff0000000000000ULL
#define FRAC_MASK 0x000fffffffffffffULL
#define QUIET_BIT 0x0008000000000000ULL
#define INF_BITS EXP_MASK
#define I64_MAX ((s64)0x7fffffffffffffffLL)
#define I64_MIN (-I64_MAX - 1)

typedef unsigned __int128 u128;

static inline int f_sign(u64 a) { return (int)(a >> 63); }
static inline int f_exp(u64 a) { return (int)((a >> 52) & 0x7ff); }
static inline u64 f_frac(u64 a) { return a & FRAC_MASK; }
static inline int is_nan(u64 a) { return (a & ~SIGN_BIT) > INF_BITS; }
static inline int is_inf(u64 a) { return (a & ~SIGN_BIT) == INF_BITS; }
static inline int is_zero(u64 a) { return (a & ~SIGN_BIT) == 0; }

/* The NaN an operation on NaNs returns: the first NaN operand, quiet. */
static u64 nan2(u64 a, u64 b)
{
	return (is_nan(a) ? a : b) | QUIET_BIT;
}

static inline int clz64(u64 v)
{
	return v ? __builtin_clzll(v) : 64;
}

/* v >> n, with bit 0 set when any 1 bit was shifted out. */
static u64 shift_right_jam(u64 v, int n)
{
	if (n <= 0)
		return v;
	if (n >= 64)
		return v != 0;
	return (v >> n) | ((v << (64 - n)) != 0);
}

/* A finite nonzero operand: m with bit 52 set, e biased (<= 0 possible
 * for subnormals after normalization). */
static void unpack(u64 a, u64 *m, int *e)
{
	int ex = f_exp(a);
	u64 f = f_frac(a);

	if (ex) {
		*m = f | (1ULL << 52);
		*e = ex;
	} else {
		int sh = clz64(f) - 11;

		*m = f << sh;
		*e = 1 - sh;
	}
}

/* The double nearest to sig * 2^(e - 1085), sig's top bit at 62 (bit 63
 * clear), rounded to nearest even. */
static u64 round_pack(int sign, int e, u64 sig)
{
	u64 s = (u64)sign << 63, rbits, r;

	if (e >= 0x7ff)
		return s | INF_BITS;
	if (e <= 0) {
		sig = shift_right_jam(sig, 1 - e);
		e = 0;
	}
	rbits = sig & 0x3ff;
	sig = (sig + 0x200) >> 10;
	if (rbits == 0x200)
		sig &= ~1ULL;
	if (!sig)
		return s;
	if (!e)
		return s | sig;	/* a carry into bit 52 makes it normal */
	r = ((u64)(e - 1) << 52) + sig;
	if (r >= INF_BITS)
		return s | INF_BITS;
	return s | r;
}

/* The same for any nonzero sig (value sig * 2^(e - 1085)). */
static u64 norm_round_pack(int sign, int e, u64 sig)
{
	int sh;

	if (!sig)
		return (u64)sign << 63;
	sh = clz64(sig) - 1;
	if (sh < 0)
		return round_pack(sign, e + 1, shift_right_jam(sig, 1));
	return round_pack(sign, e - sh, sig << sh);
}

/* |a| + |b| or |a| - |b| with the sign given, both finite nonzero. */
static u64 add_mags(u64 a, u64 b, int sub)
{
	u64 ma, mb, r;
	int ea, eb, sign = f_sign(a);

	unpack(a, &ma, &ea);
	unpack(b, &mb, &eb);
	/* Bit 52 to bit 61: nine guard bits, room for a carry. */
	ma <<= 9;
	mb <<= 9;
	if (ea < eb || (ea == eb && ma < mb)) {
		u64 tm = ma;
		int te = ea;

		ma = mb;
		mb = tm;
		ea = eb;
		eb = te;
		if (sub)
			sign ^= 1;
	}
	mb = shift_right_jam(mb, ea - eb);
	if (sub) {
		r = ma - mb;
		if (!r)
			return 0;	/* x - x is +0 when rounding to nearest */
	} else {
		r = ma + mb;
	}
	return norm_round_pack(sign, ea + 1, r);
}

u64 stp_f64_add(u64 a, u64 b)
{
	int sub = f_sign(a) != f_sign(b);

	if (is_nan(a) || is_nan(b))
		return nan2(a, b);
	if (is_inf(a)) {
		if (is_inf(b) && sub)
			return STP_F64_DEFAULT_NAN;
		return a;
	}
	if (is_inf(b))
		return b;
	if (is_zero(a)) {
		if (is_zero(b))
			return (a & b & SIGN_BIT);
		return b;
	}
	if (is_zero(b))
		return a;
	return add_mags(a, b, sub);
}

u64 stp_f64_sub(u64 a, u64 b)
{
	if (is_nan(a) || is_nan(b))
		return nan2(a, b);
	return stp_f64_add(a, b ^ SIGN_BIT);
}

u64 stp_f64_mul(u64 a, u64 b)
{
	int sign = f_sign(a) ^ f_sign(b), ea, eb;
	u64 ma, mb, sig;
	u128 p;

	if (is_nan(a) || is_nan(b))
		return nan2(a, b);
	if (is_inf(a) || is_inf(b)) {
		if (is_zero(a) || is_zero(b))
			return STP_F64_DEFAULT_NAN;
		return ((u64)sign << 63) | INF_BITS;
	}
	if (is_zero(a) || is_zero(b))
		return (u64)sign << 63;
	unpack(a, &ma, &ea);
	unpack(b, &mb, &eb);
	p = (u128)ma * mb;	/* bit 104 or 105 */
	sig = (u64)(p >> 42) | (((u64)p & ((1ULL << 42) - 1)) != 0);
	return norm_round_pack(sign, ea + eb - 1023, sig);
}

u64 stp_f64_div(u64 a, u64 b)
{
	int sign = f_sign(a) ^ f_sign(b), ea, eb, e, i;
	u64 ma, mb, q = 0;

	if (is_nan(a) || is_nan(b))
		return nan2(a, b);
	if (is_inf(a)) {
		if (is_inf(b))
			return STP_F64_DEFAULT_NAN;
		return ((u64)sign << 63) | INF_BITS;
	}
	if (is_inf(b))
		return (u64)sign << 63;
	if (is_zero(b)) {
		if (is_zero(a))
			return STP_F64_DEFAULT_NAN;
		return ((u64)sign << 63) | INF_BITS;
	}
	if (is_zero(a))
		return (u64)sign << 63;
	unpack(a, &ma, &ea);
	unpack(b, &mb, &eb);
	e = ea - eb + 1023;
	if (ma < mb) {
		ma <<= 1;
		e--;
	}
	/* 63 quotient bits by long division: the first is 1 (bit 62). */
	for (i = 0; i < 63; i++) {
		q <<= 1;
		if (ma >= mb) {
			ma -= mb;
			q |= 1;
		}
		ma <<= 1;
	}
	return round_pack(sign, e, q | (ma != 0));
}

u64 stp_f64_sqrt(u64 a)
{
	u128 op, res = 0, one = (u128)1 << 126;
	u64 m;
	int e, ex, i;

	if (is_nan(a))
		return a | QUIET_BIT;
	if (is_zero(a))
		return a;
	if (f_sign(a))
		return STP_F64_DEFAULT_NAN;
	if (is_inf(a))
		return a;
	unpack(a, &m, &e);
	ex = e - 1075;		/* a = m * 2^ex */
	if (ex & 1) {
		m <<= 1;
		ex--;
	}
	/* sqrt(m * 2^72) has 63 bits: bit 62 set. */
	op = (u128)m << 72;
	for (i = 0; i < 64 && one > op; i++)
		one >>= 2;
	for (i = 0; i < 64 && one; i++) {
		if (op >= res + one) {
			op -= res + one;
			res = (res >> 1) + one;
		} else {
			res >>= 1;
		}
		one >>= 2;
	}
	/* a's root is res * 2^((ex - 72) / 2) = res * 2^(e - 1085). */
	return round_pack(0, (ex - 72) / 2 + 1085, (u64)res | (op != 0));
}

u64 stp_f64_rem(u64 a, u64 b)
{
	u64 ma, mb, r;
	int ea, eb, sign = f_sign(a), qlast, base, i;

	if (is_nan(a) || is_nan(b))
		return nan2(a, b);
	if (is_inf(a) || is_zero(b))
		return STP_F64_DEFAULT_NAN;
	if (is_inf(b) || is_zero(a))
		return a;
	unpack(a, &ma, &ea);
	unpack(b, &mb, &eb);
	if (ea < eb - 1)
		return a;	/* |a| < |b| / 2 */
	if (ea < eb) {
		mb <<= 1;	/* b = 2mb * 2^(ea - 1075) */
		base = ea;
		r = ma;
		qlast = 0;
	} else {
		base = eb;
		r = ma % mb;
		qlast = (int)((ma / mb) & 1);
		/* Bounded by the exponent range (at most 2098 steps). */
		for (i = 0; i < ea - eb && i < 4096; i++) {
			r <<= 1;
			qlast = r >= mb;
			if (qlast)
				r -= mb;
		}
	}
	/* a = Q * b + r * 2^(base - 1075), 0 <= r < mb. */
	if (2 * r > mb || (2 * r == mb && qlast)) {
		r = mb - r;
		sign ^= 1;
	}
	if (!r)
		return (u64)f_sign(a) << 63;
	return norm_round_pack(sign, base + 10, r);
}

int stp_f64_eq(u64 a, u64 b)
{
	if (is_nan(a) || is_nan(b))
		return 0;
	return a == b || (is_zero(a) && is_zero(b));
}

int stp_f64_lt(u64 a, u64 b)
{
	int sa = f_sign(a), sb = f_sign(b);

	if (is_nan(a) || is_nan(b))
		return 0;
	if (sa != sb)
		return sa && !(is_zero(a) && is_zero(b));
	return a != b && (sa ^ (a < b));
}

int stp_f64_le(u64 a, u64 b)
{
	int sa = f_sign(a), sb = f_sign(b);

	if (is_nan(a) || is_nan(b))
		return 0;
	if (sa != sb)
		return sa || (is_zero(a) && is_zero(b));
	return a == b || (sa ^ (a < b));
}

s64 stp_f64_to_i64(u64 a, int mode)
{
	int sign = f_sign(a), e, sh, up = 0;
	u64 m, i, frac, half;

	if (is_nan(a))
		return 0;
	if (is_zero(a))
		return 0;
	if (is_inf(a) || f_exp(a) >= 1023 + 63)
		return sign ? I64_MIN : I64_MAX;
	unpack(a, &m, &e);
	sh = 1075 - e;		/* a = m / 2^sh */
	if (sh <= 0)
		return sign ? -(s64)(m << -sh) : (s64)(m << -sh);
	if (sh >= 64) {
		i = 0;
		frac = 1;	/* nonzero, below one half */
		half = 2;
	} else {
		i = m >> sh;
		frac = m & ((1ULL << sh) - 1);
		half = 1ULL << (sh - 1);
	}
	if (frac) {
		switch (mode) {
		case STP_ROUND_NEAR_EVEN:
			up = frac > half || (frac == half && (i & 1));
			break;
		case STP_ROUND_NEAR_MAX_MAG:
			up = frac >= half;
			break;
		case STP_ROUND_MIN:
			up = sign;
			break;
		case STP_ROUND_MAX:
			up = !sign;
			break;
		default:
			up = 0;
		}
	}
	i += up;
	if (sign)
		return i > (u64)I64_MAX ? I64_MIN : -(s64)i;
	return i > (u64)I64_MAX ? I64_MAX : (s64)i;
}

u64 stp_i64_to_f64(s64 v)
{
	u64 mag = v < 0 ? -(u64)v : (u64)v;

	return norm_round_pack(v < 0, 1085, mag);
}

u64 stp_f32_to_f64(u32 a)
{
	u64 s = (u64)(a >> 31) << 63;
	int ex = (a >> 23) & 0xff;
	u64 f = a & 0x7fffff;

	if (ex == 0xff) {
		if (f)
			return s | INF_BITS | QUIET_BIT | (f << 29);
		return s | INF_BITS;
	}
	if (!ex) {
		int sh;

		if (!f)
			return s;
		sh = clz64(f) - 40;	/* bit 23 */
		f <<= sh;
		ex = 1 - sh;
		f &= 0x7fffff;
	}
	return s | ((u64)(ex - 127 + 1023) << 52) | (f << 29);
}

/* Big unsigned integers for the decimal conversions: little-endian
 * 32-bit limbs, of a fixed size that bounds every value they hold
 * (at most 2^1400 or so). */
#define BIG_LIMBS 48

struct big {
	int n;			/* limbs in use, no leading zero limb */
	u32 l[BIG_LIMBS];
};

static void big_set(struct big *b, u64 v)
{
	b->n = 0;
	while (v) {
		b->l[b->n++] = (u32)v;
		v >>= 32;
	}
}

/* b = b * m + add; saturates at the size (never reached in use). */
static void big_muladd(struct big *b, u32 m, u32 add)
{
	u64 carry = add;
	int i;

	for (i = 0; i < b->n; i++) {
		u64 t = (u64)b->l[i] * m + carry;

		b->l[i] = (u32)t;
		carry = t >> 32;
	}
	if (carry && b->n < BIG_LIMBS)
		b->l[b->n++] = (u32)carry;
}

static void big_mulpow10(struct big *b, int k)
{
	for (; k >= 9; k -= 9)
		big_muladd(b, 1000000000u, 0);
	for (; k > 0; k--)
		big_muladd(b, 10, 0);
}

static int big_bits(const struct big *b)
{
	if (!b->n)
		return 0;
	return 32 * (b->n - 1) + 32 - __builtin_clz(b->l[b->n - 1]);
}

static void big_trim(struct big *b)
{
	while (b->n && !b->l[b->n - 1])
		b->n--;
}

static void big_shl(struct big *b, int s)
{
	int w = s / 32, r = s % 32, i, n;

	if (!b->n || s <= 0)
		return;
	n = b->n + w + 1;
	if (n > BIG_LIMBS)
		n = BIG_LIMBS;
	for (i = n - 1; i >= 0; i--) {
		u64 hi = i - w >= 0 && i - w < b->n ? b->l[i - w] : 0;
		u64 lo = i - w - 1 >= 0 && i - w - 1 < b->n ? b->l[i - w - 1] : 0;

		b->l[i] = r ? (u32)((hi << r) | (lo >> (32 - r))) : (u32)hi;
	}
	b->n = n;
	big_trim(b);
}

/* b >>= s; returns whether a 1 bit was shifted out. */
static int big_shr(struct big *b, int s)
{
	int w = s / 32, r = s % 32, i, lost = 0;

	if (s <= 0)
		return 0;
	for (i = 0; i < w && i < b->n; i++)
		lost |= b->l[i] != 0;
	if (w >= b->n) {
		b->n = 0;
		return lost;
	}
	if (r)
		lost |= (b->l[w] & ((1u << r) - 1)) != 0;
	for (i = 0; i < b->n - w; i++) {
		u64 lo = b->l[i + w];
		u64 hi = i + w + 1 < b->n ? b->l[i + w + 1] : 0;

		b->l[i] = r ? (u32)((lo >> r) | (hi << (32 - r))) : (u32)lo;
	}
	b->n -= w;
	big_trim(b);
	return lost;
}

static int big_cmp(const struct big *a, const struct big *b)
{
	int i;

	if (a->n != b->n)
		return a->n < b->n ? -1 : 1;
	for (i = a->n - 1; i >= 0; i--)
		if (a->l[i] != b->l[i])
			return a->l[i] < b->l[i] ? -1 : 1;
	return 0;
}

/* a -= b, a >= b. */
static void big_sub(struct big *a, const struct big *b)
{
	s64 borrow = 0;
	int i;

	for (i = 0; i < a->n; i++) {
		s64 t = (s64)a->l[i] - (i < b->n ? b->l[i] : 0) - borrow;

		borrow = t < 0;
		a->l[i] = (u32)(t + (borrow ? (1LL << 32) : 0));
	}
	big_trim(a);
}

/* b /= d (small); returns the remainder. */
static u32 big_divsmall(struct big *b, u32 d)
{
	u64 rem = 0;
	int i;

	for (i = b->n - 1; i >= 0; i--) {
		u64 t = (rem << 32) | b->l[i];

		b->l[i] = (u32)(t / d);
		rem = t % d;
	}
	big_trim(b);
	return (u32)rem;
}

/* The top 64 bits of b (its top bit at 63) and whether any bit below
 * them is set; *shift gets how far b was shifted right (or left). */
static u64 big_top64(struct big *b, int *shift)
{
	int bits = big_bits(b), lost;
	u64 v = 0;

	*shift = bits - 64;
	if (*shift > 0)
		lost = big_shr(b, *shift);
	else
		lost = 0, big_shl(b, -*shift);
	if (b->n > 0)
		v = b->l[0];
	if (b->n > 1)
		v |= (u64)b->l[1] << 32;
	return v | lost;
}

#define MAX_DIGITS 40

int stp_str_to_f64(const char *s, u64 *out)
{
	int sign = 0, nd = 0, dexp = 0, sticky = 0, seen_nonzero = 0;
	int esign = 0, eval = 0, shift;
	struct big num, den;
	u64 sig;

	if (*s == '+' || *s == '-')
		sign = *s++ == '-';
	big_set(&num, 0);
	/* The significant digits: at most MAX_DIGITS kept; dexp counts the
	 * powers of ten the kept digits are short of (or past) the value. */
	for (; *s >= '0' && *s <= '9'; s++) {
		if (*s != '0' || seen_nonzero) {
			seen_nonzero = 1;
			if (nd < MAX_DIGITS) {
				big_muladd(&num, 10, (u32)(*s - '0'));
				nd++;
			} else {
				sticky |= *s != '0';
				dexp++;
			}
		}
	}
	if (*s == '.') {
		for (s++; *s >= '0' && *s <= '9'; s++) {
			if (*s != '0' || seen_nonzero) {
				seen_nonzero = 1;
				if (nd < MAX_DIGITS) {
					big_muladd(&num, 10, (u32)(*s - '0'));
					nd++;
					dexp--;
				} else {
					sticky |= *s != '0';
				}
			} else {
				dexp--;
			}
		}
	}
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			esign = *s++ == '-';
		for (; *s >= '0' && *s <= '9'; s++)
			if (eval < 100000)
				eval = eval * 10 + (*s - '0');
	}
	if (*s)
		return -EINVAL;
	if (!num.n) {
		*out = (u64)sign << 63;
		return 0;
	}
	dexp += esign ? -eval : eval;
	/* The value is num * 10^dexp, num < 10^nd. */
	if (nd + dexp > 310) {
		*out = ((u64)sign << 63) | INF_BITS;
		return 0;
	}
	if (nd + dexp < -324) {
		*out = (u64)sign << 63;
		return 0;
	}
	if (dexp >= 0) {
		big_mulpow10(&num, dexp);
		sig = big_top64(&num, &shift);
		/* value = sig * 2^shift = sig * 2^(e - 1085) */
		*out = norm_round_pack(sign, 1085 + shift, sig | sticky);
		return 0;
	}
	/* num / 10^-dexp, by long division to 64 quotient bits. */
	{
		int t, i;
		u64 q = 0;
		struct big d2;

		big_set(&den, 1);
		big_mulpow10(&den, -dexp);
		t = big_bits(&den) - big_bits(&num) + 63;
		if (t >= 0)
			big_shl(&num, t);
		else
			big_shl(&den, -t);
		/* num / den is in [2^62, 2^64). */
		d2 = den;
		big_shl(&d2, 63);
		for (i = 63; i >= 0; i--) {
			if (big_cmp(&num, &d2) >= 0) {
				big_sub(&num, &d2);
				q |= 1ULL << i;
			}
			big_shr(&d2, 1);
		}
		sticky |= num.n != 0;
		*out = norm_round_pack(sign, 1085 - t, q | sticky);
	}
	return 0;
}

size_t stp_f64_to_str(u64 a, int precision, char *buf, size_t size)
{
	char digits[448];	/* 309 + 100 digits, and a last group */
	int nd = 0, ex, sign = f_sign(a), i, p = precision;
	size_t len = 0;
	struct big n;
	u64 m;

	if (is_nan(a))
		return stp_strlcpy(buf, "nan", size);
	if (is_inf(a))
		return stp_strlcpy(buf, sign ? "-inf" : "inf", size);
	if (p < 1)
		p = 1;
	if (p > STP_F64_MAX_PRECISION)
		p = STP_F64_MAX_PRECISION;
	/* n = round(|a| * 10^p), |a| = m * 2^ex. */
	if (is_zero(a)) {
		big_set(&n, 0);
	} else {
		int e;

		unpack(a, &m, &e);
		ex = e - 1075;
		big_set(&n, m);
		big_mulpow10(&n, p);
		if (ex >= 0) {
			big_shl(&n, ex);
		} else {
			/* Round the shifted-out bits: to nearest, ties away from
			 * zero, as the reference rounds them. */
			struct big half, low;
			int c, nb = -ex;

			low = n;
			big_shr(&n, nb);
			/* low = the bits shifted out: low - (n << nb) */
			{
				struct big hi = n;

				big_shl(&hi, nb);
				big_sub(&low, &hi);
			}
			big_set(&half, 1);
			big_shl(&half, nb - 1);
			c = big_cmp(&low, &half);
			if (c >= 0)
				big_muladd(&n, 1, 1);
		}
	}
	/* The decimal digits of n, least significant first. */
	while (n.n && nd < (int)sizeof(digits) - 9) {
		u32 r = big_divsmall(&n, 1000000000u);

		for (i = 0; i < 9; i++) {
			digits[nd++] = (char)('0' + r % 10);
			r /= 10;
		}
	}
	while (nd > 0 && digits[nd - 1] == '0')
		nd--;
	while (nd < p + 1)
		digits[nd++] = '0';
	/* sign, integer digits, '.', p fraction digits */
	if (sign) {
		if (len + 1 < size)
			buf[len] = '-';
		len++;
	}
	for (i = nd - 1; i >= 0; i--) {
		if (i == p - 1) {
			if (len + 1 < size)
				buf[len] = '.';
			len++;
		}
		if (len + 1 < size)
			buf[len] = digits[i];
		len++;
	}
	if (size)
		buf[len < size ? len : size - 1] = '\0';
	return len;
}
