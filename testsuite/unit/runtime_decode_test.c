// SPDX-License-Identifier: GPL-2.0-or-later
/* runtime_decode_test.c: the flags and enum renderings of runtime/decode.c
 * in user space, over small tables shaped like the kernel's (x86-64
 * values written out: the real tables, runtime/linux/sc_tables.h, need
 * the kernel's headers). Prints "N passed, N failed". */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "runtime/decode.h"

#define N(t) (sizeof(t) / sizeof((t)[0]))

/* open(2)'s flags: the access mode as a field, O_TMPFILE (which includes
 * O_DIRECTORY) before O_DIRECTORY. */
static const struct stp_sym open_t[] = {
	{ 0, 3, "O_RDONLY" },
	{ 1, 3, "O_WRONLY" },
	{ 2, 3, "O_RDWR" },
	{ 0100, 0100, "O_CREAT" },
	{ 01000, 01000, "O_TRUNC" },
	{ 02000000, 02000000, "O_CLOEXEC" },
	{ 020200000, 020200000, "O_TMPFILE" },
	{ 0200000, 0200000, "O_DIRECTORY" },
};

/* Plain flags, no entry for 0. */
static const struct stp_sym prot_t[] = {
	STP_FLAG(1), STP_FLAG(2), STP_FLAG(4),
};

/* A field whose 0 value has no name, and an enum-only entry. */
static const struct stp_sym map_t[] = {
	{ 1, 0xf, "MAP_SHARED" },
	{ 2, 0xf, "MAP_PRIVATE" },
	{ 3, 0xf, "MAP_SHARED_VALIDATE" },
	{ 0x20, 0x20, "MAP_ANONYMOUS" },
	{ 0x40, 0, "NEVER_A_FLAG" },
};

static const struct stp_sym sig_t[] = {
	{ 1, 0, "SIGHUP" },
	{ 9, 0, "SIGKILL" },
	{ -100, 0, "AT_FDCWD" },
	{ 9, 0, "SIGKILL_TWICE" },
};

static char buf[256];

static const char *flags(uint64_t v, const struct stp_sym *t, size_t nt)
{
	size_t n = stp_flags_str(buf, sizeof(buf), v, t, nt);

	return n == strlen(buf) ? buf : "(bad length)";
}

static const char *enums(int64_t v, const struct stp_sym *t, size_t nt)
{
	size_t n = stp_enum_str(buf, sizeof(buf), v, t, nt);

	return n == strlen(buf) ? buf : "(bad length)";
}

#define FLAGS(v, t, want) CHECK(strcmp(flags((v), (t), N(t)), (want)) == 0)
#define ENUM(v, t, want) CHECK(strcmp(enums((v), (t), N(t)), (want)) == 0)

static void test_flags(void)
{
	FLAGS(0, open_t, "O_RDONLY");
	FLAGS(1, open_t, "O_WRONLY");
	FLAGS(2, open_t, "O_RDWR");
	FLAGS(3, open_t, "0x3");		/* no entry for the field's 3 */
	FLAGS(01101, open_t, "O_WRONLY|O_CREAT|O_TRUNC");
	FLAGS(02000000, open_t, "O_RDONLY|O_CLOEXEC");
	FLAGS(020200002, open_t, "O_RDWR|O_TMPFILE");
	FLAGS(0200000, open_t, "O_RDONLY|O_DIRECTORY");
	FLAGS(020000000, open_t, "O_RDONLY|0x400000");	/* __O_TMPFILE alone */
	FLAGS(0x40000041, open_t, "O_WRONLY|O_CREAT|0x40000000");
	FLAGS(0x8000000000000003ull, open_t, "0x8000000000000003");
	FLAGS(0, prot_t, "0x0");
	FLAGS(5, prot_t, "1|4");	/* STP_FLAG names the macro as written */
	FLAGS(8, prot_t, "0x8");
	FLAGS(0xf, prot_t, "1|2|4|0x8");
	FLAGS(~0ull, prot_t, "1|2|4|0xfffffffffffffff8");
	FLAGS(0, map_t, "0x0");
	FLAGS(0x22, map_t, "MAP_PRIVATE|MAP_ANONYMOUS");
	FLAGS(0x23, map_t, "MAP_SHARED_VALIDATE|MAP_ANONYMOUS");
	FLAGS(0x24, map_t, "MAP_ANONYMOUS|0x4");	/* field value 4 unnamed */
	FLAGS(0x40, map_t, "0x40");			/* mask 0: never a flag */
	FLAGS(0, sig_t, "0x0");
	FLAGS(1, sig_t, "0x1");
	FLAGS(5, open_t, "O_WRONLY|0x4");
	CHECK(stp_flags_str(buf, sizeof(buf), 0x41, open_t, 0) == 4 &&
	      strcmp(buf, "0x41") == 0);		/* empty table */
}

static void test_enum(void)
{
	ENUM(1, sig_t, "SIGHUP");
	ENUM(9, sig_t, "SIGKILL");			/* first of two */
	ENUM(-100, sig_t, "AT_FDCWD");
	ENUM(0, sig_t, "0x0");
	ENUM(-5, sig_t, "-5");
	ENUM(64, sig_t, "0x40");
	ENUM(INT64_MIN, sig_t, "-9223372036854775808");
	ENUM(INT64_MAX, sig_t, "0x7fffffffffffffff");
	ENUM(2, open_t, "O_RDWR");			/* masks ignored */
	CHECK(stp_enum_name(9, sig_t, N(sig_t)) == sig_t[1].name);
	CHECK(stp_enum_name(2, sig_t, N(sig_t)) == NULL);
	CHECK(stp_enum_name(1, sig_t, 0) == NULL);
}

/* Every length from 0 to the whole string: the stored text is the prefix
 * that fits, NUL-terminated, and nothing is written past len. */
static void check_cuts(bool is_flags, int64_t v, const struct stp_sym *t, size_t nt)
{
	char full[256], cut[300];
	size_t whole, len, i;

	whole = is_flags ? stp_flags_str(full, sizeof(full), (uint64_t)v, t, nt)
			 : stp_enum_str(full, sizeof(full), v, t, nt);
	for (len = 0; len <= whole + 2; len++) {
		size_t n, want = len ? (len - 1 < whole ? len - 1 : whole) : 0;
		bool ok = true;

		memset(cut, '#', sizeof(cut));
		n = is_flags ? stp_flags_str(cut, len, (uint64_t)v, t, nt)
			     : stp_enum_str(cut, len, v, t, nt);
		if (n != want)
			ok = false;
		if (len && (memcmp(cut, full, want) != 0 || cut[want] != '\0'))
			ok = false;
		for (i = len; i < sizeof(cut); i++)
			if (cut[i] != '#')
				ok = false;
		CHECK(ok);
	}
	/* len 0 writes nothing at all, even through NULL */
	CHECK((is_flags ? stp_flags_str(NULL, 0, (uint64_t)v, t, nt)
			: stp_enum_str(NULL, 0, v, t, nt)) == 0);
}

static void test_truncation(void)
{
	check_cuts(true, 0x40000041, open_t, N(open_t));
	check_cuts(true, 020200002, open_t, N(open_t));
	check_cuts(true, -1, prot_t, N(prot_t));
	check_cuts(true, 0, prot_t, N(prot_t));
	check_cuts(true, 0, open_t, N(open_t));
	check_cuts(false, 9, sig_t, N(sig_t));
	check_cuts(false, INT64_MIN, sig_t, N(sig_t));
	check_cuts(false, 12345, sig_t, N(sig_t));
}

/* A table long enough to overflow the buffer: the output is cut, never
 * overrun. */
static void test_long(void)
{
	static struct stp_sym many[64];
	static char names[64][40];
	char small[100];
	size_t i, n;

	for (i = 0; i < 64; i++) {
		snprintf(names[i], sizeof(names[i]), "A_RATHER_LONG_FLAG_NAME_%zu", i);
		many[i].value = many[i].mask = (int64_t)(1ull << i);
		many[i].name = names[i];
	}
	n = stp_flags_str(buf, sizeof(buf), ~0ull, many, 64);
	CHECK(n == sizeof(buf) - 1 && strlen(buf) == n);
	CHECK(strncmp(buf, "A_RATHER_LONG_FLAG_NAME_0|A_RATHER_LONG_FLAG_NAME_1|", 52) == 0);
	n = stp_flags_str(small, sizeof(small), ~0ull, many, 64);
	CHECK(n == 99 && strlen(small) == 99);
	check_cuts(true, (int64_t)0xf0f0, many, 64);
}

int main(void)
{
	test_flags();
	test_enum();
	test_truncation();
	test_long();
	return CHECK_SUMMARY();
}
