// SPDX-License-Identifier: GPL-2.0-or-later
/* runtime_format_test.c: the runtime's printf (runtime/format.c), built in
 * user space, against the outputs observed from the reference SystemTap
 * (feature inventory A-OUT-02..08) and its bounds. Prints a line per
 * failure and "N passed, N failed". */
#include <stdio.h>
#include <string.h>

#include "runtime/format.h"
#include "util/arena.h"
#include "util/format.h"
#include "testsuite/unit/check.h"


/* Pieces for @fmt, from the translator's own parser (as pass 3 will emit
 * them). */
static unsigned int pieces(struct arena *a, const char *fmt,
			   struct stp_fmt_piece *out, unsigned int max)
{
	const char *err;
	size_t off, i;
	struct fmt_spec *spec = fmt_parse(a, fmt, strlen(fmt), &err, &off);

	if (!spec)
		return 0;
	for (i = 0; i < spec->n && i < max; i++) {
		const struct fmt_piece *p = &spec->pieces[i];
		static const unsigned char conv[] = {
			[FMT_LITERAL] = STP_CONV_TEXT,
			[FMT_SIGNED] = STP_CONV_SIGNED,
			[FMT_UNSIGNED] = STP_CONV_UNSIGNED,
			[FMT_OCTAL] = STP_CONV_OCTAL,
			[FMT_HEX] = STP_CONV_HEX,
			[FMT_HEX_UPPER] = STP_CONV_HEX_UPPER,
			[FMT_CHAR] = STP_CONV_CHAR,
			[FMT_STRING] = STP_CONV_STRING,
			[FMT_POINTER] = STP_CONV_POINTER,
			[FMT_BINARY] = STP_CONV_BINARY,
			[FMT_MEMORY] = STP_CONV_MEMORY,
			[FMT_MEMORY_HEX] = STP_CONV_MEMORY_HEX,
		};

		out[i].conv = conv[p->conv];
		out[i].flags = (unsigned char)p->flags;	/* same bit values */
		out[i].width = (short)p->width;
		out[i].precision = (short)p->precision;
		out[i].text = p->text;
		out[i].len = (unsigned short)p->len;
	}
	return (unsigned int)i;
}

static int read_mem(void *dst, u64 addr, size_t len)
{
	if (!addr)
		return -EFAULT;
	memcpy(dst, (const void *)(uintptr_t)addr, len);
	return 0;
}

static void check(struct arena *a, size_t size, const char *fmt,
		  const union stp_arg *args, const char *want, size_t want_len)
{
	struct stp_fmt_piece p[32];
	char buf[256];
	unsigned int n = pieces(a, fmt, p, 32);
	int r;

	memset(buf, 'Z', sizeof(buf));
	r = stp_format(buf, size, p, n, args, read_mem);
	if (r >= 0 && (size_t)r == want_len && !memcmp(buf, want, want_len) &&
	    buf[r] == '\0' && (size >= sizeof(buf) || buf[size] == 'Z')) {
		passed++;
		return;
	}
	failed++;
	printf("FAIL format \"%s\": got %d \"%.*s\", want \"%s\"\n", fmt, r,
	       r > 0 ? r : 0, buf, want);
}

#define L(x) { .n = (x) }
#define S(x) { .s = (x) }
#define CHECK_FMT(fmt, want, ...)						\
	do {								\
		const union stp_arg args_[] = { __VA_ARGS__ };		\
		check(a, 256, fmt, args_, want, sizeof(want) - 1);	\
	} while (0)

int main(void)
{
	struct arena *a = arena_new();
	static const char mem[] = "Hi\001";

	CHECK_FMT("%d %i %u", "-5 7 18446744073709551615", L(-5), L(7), L(-1));
	CHECK_FMT("%x %X %o", "ffffffffffffffff FF 10", L(-1), L(255), L(8));
	CHECK_FMT("%p %p", "0x1234 0x0", L(0x1234), L(0));
	CHECK_FMT("[%5d][%-5d][%05d][%+d][% d]", "[   42][42   ][00042][+42][ 42]",
	      L(42), L(42), L(42), L(42), L(42));
	CHECK_FMT("%#x %#o %#X %#x", "0xff 010 0XFF 0x0", L(255), L(8), L(255), L(0));
	CHECK_FMT("%.3d|%.2s|%.0d|", "005|ab|0|", L(5), S("abc"), L(0));
	CHECK_FMT("%*d", "     7", L(6), L(7));
	CHECK_FMT("%-*d|", "7     |", L(6), L(7));
	CHECK_FMT("%.*s|", "ab|", L(2), S("abcdef"));
	CHECK_FMT("%c%c", "B*", L(0x142), L(42));
	CHECK_FMT("%#c %#c %#c", "\\000 \\t *", L(0), L(9), L(42));
	CHECK_FMT("%1b%1b%1b", "Hi!", L(72), L(105), L(33));
	CHECK_FMT("%5s|%-5s|", "   ab|ab   |", S("ab"), S("ab"));
	CHECK_FMT("%d", "-9223372036854775808", L(INT64_MIN));
	CHECK_FMT("%+05d|%-+5d|", "+0042|+42  |", L(42), L(42));
	CHECK_FMT("%ld %lx", "3 f", L(3), L(15));
	/* observed from the reference (testsuite/observed/printf_flags) */
	CHECK_FMT("[%010.3d] [%.3d] [%.0d] [%08.3x] [%-010d]",
	      "[0000000007] [007] [0] [000000ff] [7         ]",
	      L(7), L(7), L(0), L(255), L(7));
	CHECK_FMT("[%-5o] [%#5o] [%o] [%#o] [%#.3o] [%#05o] [%#o]",
	      "[10   ] [  010] [10] [010] [0010] [00010] [00]",
	      L(8), L(8), L(8), L(8), L(8), L(8), L(0));
	CHECK_FMT("[%p] [%20p] [%-20p] [%p] [%p] [%020p] [%#p]",
	      "[0x1234] [              0x1234] [0x1234              ] [0x0] "
	      "[0xffffffffffffffff] [0x000000000000001234] [0x1234]",
	      L(0x1234), L(0x1234), L(0x1234), L(0), L(-1), L(0x1234), L(0x1234));
	CHECK_FMT("[%*.*s] [%*d] [%*d] [%-*d] [%.*s] [%*s]",
	      "[      ab] [     5] [5] [5     ] [abc] [abcdef]",
	      L(8), L(2), S("abcdef"), L(6), L(5), L(-6), L(5), L(6), L(5),
	      L(3), S("abcdef"), L(3), S("abcdef"));
	CHECK_FMT("[%.5d] [%+.5d] [%8.5d] [%-8.5d] [%.5x] [%#.5x]",
	      "[-00042] [+00042] [   00042] [00042   ] [000ff] [0x000ff]",
	      L(-42), L(42), L(42), L(42), L(255), L(255));
	CHECK_FMT("[%+u] [% u] [%5u] [%-5u] [%05u] [%+x] [% x]",
	      "[5] [5] [    5] [5    ] [00005] [ff] [ff]",
	      L(5), L(5), L(5), L(5), L(5), L(255), L(255));
	CHECK_FMT("[%5c] [%-5c] [%c] [%05c]", "[    A] [A    ] [B] [    C]",
	      L(65), L(65), L(66), L(67));
	CHECK_FMT("%#c%#c%#c%#c", "\\n\\'\"\\\\", L(10), L(39), L(34), L(92));
	/* Several flags in one conversion work as in C (the reference takes
	 * only one: doc/differences.md). */
	CHECK_FMT("[%+05d] [%-+5d] [%#010x] [% 05d]", "[+0042] [+42  ] [0x000000ff] [ 0042]",
	      L(42), L(42), L(255), L(42));
	CHECK_FMT("100%% %s", "100% done", S("done"));
	CHECK_FMT("%.2m|%.3M", "Hi|486901", L((s64)(uintptr_t)mem), L((s64)(uintptr_t)mem));
	{
		/* %2b / %4b / %8b: host byte order (little-endian here) */
		const union stp_arg args[] = { L(0x4142), L(0x41424344) };

		check(a, 256, "%2b%4b", args, "BADCBA", 6);
	}
	{
		/* Bounded: the output is cut at size - 1 and NUL-terminated. */
		const union stp_arg args[] = { L(123456), S("abcdef") };

		check(a, 5, "%d%s", args, "1234", 4);
		check(a, 1, "%d%s", args, "", 0);
		/* The padding shrinks to the room left, the value stays
		 * (the reference's printf_long observation). */
		check(a, 8, "%1000d", args, " 123456", 7);
	}
	{
		/* %m of an unreadable address is an error, not a crash. */
		struct stp_fmt_piece p[4];
		unsigned int n = pieces(a, "%.4m", p, 4);
		const union stp_arg args[] = { L(0) };
		char buf[16];

		if (stp_format(buf, sizeof(buf), p, n, args, read_mem) == -EFAULT)
			passed++;
		else
			failed++, printf("FAIL %%m of address 0 did not fail\n");
	}
	arena_free(a);
	return CHECK_SUMMARY();
}
