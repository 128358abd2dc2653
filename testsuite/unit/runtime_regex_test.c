// SPDX-License-Identifier: GPL-2.0-or-later
/* runtime_regex_test.c: =~ end to end in user space: patterns compiled by
 * util/regex.c, matched by runtime/regex.c, each result compared with
 * glibc's POSIX regexec (REG_EXTENDED) on the same pattern and subject. */
#include <regex.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "runtime/regex.h"
#include "util/arena.h"
#include "util/regex.h"

static struct stp_re_work work;

/* Our answer: 1, 0, or -1 when the pattern does not compile. */
static int ours(struct arena *a, const char *pat, const char *s)
{
	const char *err;
	struct re_prog *p = re_compile(a, pat, strlen(pat), &err);

	if (!p)
		return -1;
	return stp_regex_match((const struct stp_re_inst *)p->inst, (unsigned)p->n,
			       (const u8 (*)[32])p->classes, s, &work);
}

static int posix(const char *pat, const char *s)
{
	regex_t re;
	int r;

	if (regcomp(&re, pat, REG_EXTENDED | REG_NOSUB))
		return -1;
	r = regexec(&re, s, 0, NULL, 0) == 0;
	regfree(&re);
	return r;
}

int main(void)
{
	static const char *const pats[] = {
		"abc", "^abc", "abc$", "^abc$", "a.c", "a*", "a+b", "ab?c", "(ab)+c",
		"a|b|c", "^(foo|bar)baz$", "[a-c]+", "[^a-c]", "[[:digit:]]{2,3}",
		"x{3}", "x{2,}", "(a|b){0,2}c", "[]x]", "[x-]", "\\.", "a\\+",
		"^$", "", "(a*)*b", "((a{0,2}){0,2}b)", "[[:alpha:]_][[:alnum:]_]*",
		"^/proc/", "sys_(read|write)$", ".*z", "(x|xy)z", "[A-Z][a-z]+ [0-9]+",
	};
	static const char *const subjects[] = {
		"", "abc", "xabcx", "ac", "abbc", "aaab", "ababc", "b", "foobaz",
		"barbaz", "foobazz", "123", "12", "xxxx", "xx", "abbac", "]", "-", ".",
		"a+", "/proc/version", "sys_read", "sys_readv", "xyz", "Hello 42",
		"_id9", "9id", "aab", "c", "zzz",
	};
	struct arena *a = arena_new();
	size_t i, j;

	for (i = 0; i < sizeof(pats) / sizeof(pats[0]); i++) {
		for (j = 0; j < sizeof(subjects) / sizeof(subjects[0]); j++) {
			int o = ours(a, pats[i], subjects[j]), p = posix(pats[i], subjects[j]);

			if (o != p)
				printf("  /%s/ on \"%s\": ours %d, POSIX %d\n", pats[i], subjects[j], o, p);
			CHECK(o == p);
		}
	}
	/* Syntax errors are refused, never a crash. */
	CHECK(ours(a, "(ab", "ab") == -1);
	CHECK(ours(a, "ab)", "ab") == -1);
	CHECK(ours(a, "[ab", "ab") == -1);
	CHECK(ours(a, "*a", "a") == -1);
	CHECK(ours(a, "a{3,1}", "a") == -1);
	CHECK(ours(a, "a\\", "a") == -1);
	CHECK(ours(a, "a{1000}", "a") == -1);
	/* Programs longer than the runtime takes are refused. */
	CHECK(ours(a, "(abcdefghij){60}", "a") == -1);
	arena_free(a);
	return CHECK_SUMMARY();
}
