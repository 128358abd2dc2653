// SPDX-License-Identifier: GPL-2.0-or-later
/* build_parts_test.c: tests of build_parts.c (which runtime parts a module
 * calls) on a small runtime written into a scratch directory: five parts,
 * calls between them, names in comments, strings, prototypes, static
 * functions and #defines, a nested #if in a part's block, and a family
 * file the generated file includes. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build_parts.h"
#include "testsuite/unit/check.h"
#include "util/arena.h"

static const char *const files[][2] = {
	{ "runtime.c",
	  "#include \"runtime.h\"\n"
	  "#if STP_ALL_PARTS || defined(STP_PART_core)\n#include \"core.c\"\n#endif\n"
	  "#if STP_ALL_PARTS || defined(STP_PART_alpha)\n#ifdef STP_SOMETHING\n#endif\n"
	  "#include \"alpha.c\"\n#endif\n"
	  "#if STP_ALL_PARTS || defined(STP_PART_beta)\n#include \"beta.c\"\n#endif\n"
	  "#if STP_ALL_PARTS || defined(STP_PART_gamma)\n#include \"gamma.c\"\n#endif\n"
	  "#if STP_ALL_PARTS || defined(STP_PART_delta)\n#include \"delta.c\"\n#endif\n" },
	/* a prototype in a header defines nothing; an inline's body uses */
	{ "runtime.h", "int alpha_fn(void);\nint gamma_fn(void);\n"
		       "static inline int helper(void)\n{\n\treturn 0;\n}\n" },
	/* gamma_fn only in a comment and a string */
	{ "core.c", "/* gamma_fn() is not called */\n"
		    "int core_fn(void)\n{\n\treturn sizeof(\"gamma_fn\");\n}\n" },
	/* alpha calls beta; declares delta_fn without a body; alpha_local
	 * is static */
	{ "alpha.c", "#include \"alpha.h\"\nint delta_fn(void);\n"
		     "static int alpha_local(void)\n{\n\treturn 0;\n}\n"
		     "int alpha_fn(void)\n{\n\treturn beta_fn() + alpha_local();\n}\n" },
	{ "alpha.h", "int beta_fn(void);\n" },
	{ "beta.c", "int beta_var = 3;\nint beta_fn(void)\n{\n\treturn beta_var;\n}\n" },
	{ "gamma.c", "int gamma_fn(void)\n{\n\treturn 2;\n}\n" },
	{ "delta.c", "int delta_fn(void)\n{\n\treturn 4;\n}\n" },
	/* a family runtime the generated file includes */
	{ "fam.c", "static int fam(void)\n{\n\treturn delta_fn();\n}\n" },
};

enum { CORE = 1, ALPHA = 2, BETA = 4, GAMMA = 8, DELTA = 16 };

static uint64_t needed(struct arena *a, const char *rt, const char *c_text, int *n)
{
	const char **parts;
	uint64_t need;

	*n = rt_parts(a, rt, c_text, &parts, &need);
	return need;
}

int main(void)
{
	char dir[] = "/tmp/stp_parts_XXXXXX", path[256];
	struct arena *a = arena_new();
	const char **parts;
	uint64_t need;
	size_t i;
	int n;

	if (!mkdtemp(dir))
		return 2;
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s", dir, files[i][0]);
		f = fopen(path, "w");
		if (!f)
			return 2;
		fputs(files[i][1], f);
		fclose(f);
	}
	n = rt_parts(a, dir, NULL, &parts, &need);
	CHECK(n == 5);
	CHECK(n == 5 && !strcmp(parts[0], "core") && !strcmp(parts[1], "alpha") &&
	      !strcmp(parts[4], "delta"));
	CHECK(need == 31);	/* without a generated file: every part */
	/* a call of alpha: alpha and what it calls (beta), not what it only
	 * declares (delta) */
	CHECK(needed(a, dir, "void f(void)\n{\n\talpha_fn();\n}\n", &n) == (CORE | ALPHA | BETA));
	/* nothing called: the core only (names outside braces are not uses;
	 * a static function is no part's) */
	CHECK(needed(a, dir, "int alpha_fn(void);\n", &n) == CORE);
	CHECK(needed(a, dir, "void h(void)\n{\n\talpha_local();\n}\n", &n) == CORE);
	/* a #define is a use */
	CHECK(needed(a, dir, "#define USE gamma_fn\n", &n) == (CORE | GAMMA));
	/* a variable, read in a function */
	CHECK(needed(a, dir, "void g(void)\n{\n\tint y = beta_var;\n}\n", &n) == (CORE | BETA));
	/* a file the generated file includes */
	CHECK(needed(a, dir, "#include \"fam.c\"\n", &n) == (CORE | DELTA));
	/* no runtime.c: no parts */
	CHECK(rt_parts(a, "/nonexistent", "x", &parts, &need) == 0 && need == 0);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i][0]);
		unlink(path);
	}
	rmdir(dir);
	arena_free(a);
	return CHECK_SUMMARY();
}
