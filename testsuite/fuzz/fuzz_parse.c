// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz_parse.c: libFuzzer target for pass 1 (preprocessor, lexer, grammar,
 * printer) and, for inputs that parse, pass 2 (elaboration). Build with 'make fuzz-parse' in a tree configured with
 * CC=clang CFLAGS=-fsanitize=fuzzer-no-link --enable-sanitizers. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "elaborate/dwarf.h"
#include "elaborate/elab.h"
#include "parse/parse.h"
#include "session.h"
#include "util/arena.h"
#include "util/diag.h"
#include "util/kernel_info.h"
#include "util/source.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *devnull;
	static const char *args[] = { "5", "kernel.function(\"x\")", "a b" };
	struct arena *a = arena_new();
	struct session sess;
	struct diag diag;
	struct kernel_info kinfo;
	struct parse_env env;
	struct source *src;
	struct ast_file *f;
	struct elab e;

	if (!devnull)
		devnull = fopen("/dev/null", "w");
	session_init(&sess, a);
	sess.guru = size && (data[0] & 1);
	sess.args.v = args;
	sess.args.n = 3;
	sess.tapset_dir = "/nonexistent";
	diag_init(&diag, devnull);
	kernel_info_init(&kinfo, a, "6.1.0-fuzz", "/nonexistent");
	parse_env_init(&env, a, &diag, &sess, &kinfo);
	src = source_from_mem(a, "<fuzz>", (const char *)data, size);
	f = parse_file(&env, src, false);
	if (!diag_errors(&diag)) {
		ast_print_file(devnull, f);
		sess.unoptimized = size > 1 && (data[1] & 1);
		elab_init(&e, &env);
		if (elab_run(&e, f) == 0)
			elab_print(&e, devnull, true);
		dw_close_all(&e);	/* libdw handles opened for process(...) points */
	}
	diag_release(&diag);
	arena_free(a);
	return 0;
}
