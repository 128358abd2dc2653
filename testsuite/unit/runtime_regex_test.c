// SPDX-License-Identifier: GPL-2.0-or-later
/* runtime_regex_test.c: =~ end to end in user space: patterns compiled by
 * util/regex.c, matched by runtime/regex.c, each result compared with
 * glibc's POSIX regexec (REG_EXTENDED) on the same pattern and subject;
 * with captures (matched()), the extent of the match compared with
 * glibc's too, and the groups with the reference's (recorded in the VM,
 * testsuite/runok/regex_matched). */
#include <regex.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "runtime/regex_caps.h"
#include "util/arena.h"
#include "util/regex.h"

static struct stp_re_work work;
static struct stp_re_cap_work cwork;

/* Our answer: 1, 0, or -1 when the pattern does not compile. */
static int ours(struct arena *a, const char *pat, const char *s)
{
	const char *err;
	struct re_prog *p = re_compile(a, pat, strlen(pat), false, &err);

	if (!p)
		return -1;
	return stp_regex_match((const struct stp_re_inst *)p->inst, (unsigned)p->n,
			       (const u8 (*)[32])p->classes, s, &work);
}

/* With captures: 1 and the match's [*so, *eo), 0, or -1. */
static int ours_caps(struct arena *a, const char *pat, const char *s, int *so, int *eo)
{
	const char *err;
	struct re_prog *p = re_compile(a, pat, strlen(pat), true, &err);

	if (!p)
		return -1;
	if (!stp_regex_match_caps((const struct stp_re_inst *)p->inst, (unsigned)p->n,
				  (const u8 (*)[32])p->classes, 2 * ((unsigned)p->ngroups + 1),
				  s, &cwork))
		return 0;
	*so = cwork.caps[0];
	*eo = cwork.caps[1];
	return 1;
}

static int posix_extent(const char *pat, const char *s, int *so, int *eo)
{
	regmatch_t m[1];
	regex_t re;
	int r;

	if (regcomp(&re, pat, REG_EXTENDED))
		return -1;
	r = regexec(&re, s, 1, m, 0) == 0;
	regfree(&re);
	*so = (int)m[0].rm_so;
	*eo = (int)m[0].rm_eo;
	return r;
}

/* The groups of @pat on @s, as matched() gives them: "[g0] [g1] ..." or
 * "no match". */
static const char *groups(struct arena *a, const char *pat, const char *s)
{
	static char buf[1024];
	char g[MAXSTRINGLEN];
	const char *err;
	struct re_prog *p = re_compile(a, pat, strlen(pat), true, &err);
	bool m;
	s64 i;

	if (!p)
		return "bad pattern";
	m = stp_regex_match_caps((const struct stp_re_inst *)p->inst, (unsigned)p->n,
				 (const u8 (*)[32])p->classes, 2 * ((unsigned)p->ngroups + 1),
				 s, &cwork);
	buf[0] = '\0';
	for (i = 0; stp_regex_group(&cwork, m, i, g) == 0; i++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s[%s]", i ? " " : "", g);
	return m ? buf : "no match";
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
			{
				int so = -1, eo = -1, pso = -1, peo = -1;
				int oc = ours_caps(a, pats[i], subjects[j], &so, &eo);
				int pc = posix_extent(pats[i], subjects[j], &pso, &peo);

				if (oc != pc || (oc == 1 && (so != pso || eo != peo)))
					printf("  /%s/ on \"%s\": ours %d [%d,%d), POSIX %d [%d,%d)\n",
					       pats[i], subjects[j], oc, so, eo, pc, pso, peo);
				CHECK(oc == pc && (oc != 1 || (so == pso && eo == peo)));
			}
		}
	}
	/* The groups, as the reference gives them (testsuite/runok/regex_matched). */
	{
		static const char *const cases[][3] = {
			{ "([a-z]+)-([0-9]+)", "abc-123 xyz-9", "[abc-123] [abc] [123]" },
			{ "(a|ab)(c|bcd)(d*)", "abcd", "[abcd] [a] [bcd] []" },
			{ "^(x*)(y?)z", "xxyz", "[xxyz] [xx] [y]" },
			{ "^(x*)(y?)z", "xxz", "[xxz] [xx] []" },
			{ "(foo|bar)+", "zfoobarfoo", "[foobarfoo] [foo]" },
			{ "(a*)*b", "aab", "[aab] [aa]" },
			{ "((a)|(b))+", "abab", "[abab] [b] [a] [b]" },
			{ "([0-9]{2,3})([0-9]*)", "12345", "[12345] [123] [45]" },
			{ "(.*)/(.*)", "/usr/lib/x.so", "[/usr/lib/x.so] [/usr/lib] [x.so]" },
			{ "(a|b)?c", "bc", "[bc] [b]" },
			{ "(a|b)?c", "c", "[c] []" },
			{ "x(y)?(z)?", "xz", "[xz] [] [z]" },
			{ "x(y)?(z)?", "q", "no match" },
			{ "(a|ab)", "abc", "[ab] [ab]" },
			{ "(ab|a)(bc)?", "abc", "[abc] [a] [bc]" },
			{ "x*", "abc", "[]" },
			{ "(a|ab)(c|bcd)?$", "abcd", "[abcd] [a] [bcd]" },
			{ "([[:digit:]]+)[.]([^.]*)$", "v1.22.333", "[22.333] [22] [333]" },
		};
		size_t k;

		for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
			const char *got = groups(a, cases[k][0], cases[k][1]);

			if (strcmp(got, cases[k][2]))
				printf("  /%s/ on \"%s\": %s, expected %s\n", cases[k][0],
				       cases[k][1], got, cases[k][2]);
			CHECK(!strcmp(got, cases[k][2]));
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
