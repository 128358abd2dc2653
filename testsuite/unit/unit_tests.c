// SPDX-License-Identifier: GPL-2.0-or-later
/* unit_tests.c: unit tests of util/ (arena, interning, strbuf, format
 * strings, kernel facts, pointer maps), the tapset scanner and tree copies. Prints one line per failure and a closing
 * "N passed, N failed" line; exits non-zero on failure. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elaborate/tapset_scan.h"
#include "parse/ast.h"
#include "parse/ast_walk.h"
#include "util/arena.h"
#include "util/format.h"
#include "util/intern.h"
#include "util/kernel_info.h"
#include "util/progress.h"
#include "util/ptrmap.h"
#include "util/source.h"
#include "util/strbuf.h"
#include "testsuite/unit/check.h"


static void test_arena(void)
{
	struct arena *a = arena_new();
	char *big = arena_alloc(a, 1 << 20);
	char *s = arena_strndup(a, "hello world", 5);
	size_t i;
	int zero = 1;

	for (i = 0; i < (1u << 20); i++)
		zero &= big[i] == 0;
	CHECK(zero);
	CHECK(!strcmp(s, "hello"));
	CHECK(((uintptr_t)arena_alloc(a, 3) & 15) == 0);
	CHECK(!strcmp(arena_printf(a, "%d-%s", 42, "x"), "42-x"));
	CHECK(arena_used(a) >= (1u << 20));
	arena_free(a);
}

static void test_intern(void)
{
	struct arena *a = arena_new();
	struct interner *in = intern_new(a);
	const char *x = intern(in, "probe");
	char buf[32];
	int i, same = 1;

	CHECK(x == intern(in, "probe"));
	CHECK(x != intern(in, "probes"));
	CHECK(intern_n(in, "probe!", 5) == x);
	/* Survives growth: all earlier pointers stay unique and stable. */
	for (i = 0; i < 5000; i++) {
		snprintf(buf, sizeof(buf), "sym%d", i);
		intern(in, buf);
	}
	for (i = 0; i < 5000; i += 97) {
		snprintf(buf, sizeof(buf), "sym%d", i);
		same &= !strcmp(intern(in, buf), buf);
	}
	CHECK(same);
	CHECK(x == intern(in, "probe"));
	arena_free(a);
}

static void test_strbuf(void)
{
	struct strbuf sb = STRBUF_INIT;
	int i;

	CHECK(!strcmp(sb_str(&sb), ""));
	for (i = 0; i < 1000; i++)
		sb_addc(&sb, 'a');
	sb_addf(&sb, "%s=%d", "n", 7);
	CHECK(sb.len == 1003);
	CHECK(!strcmp(sb.buf + 1000, "n=7"));
	sb_reset(&sb);
	CHECK(sb.len == 0 && !strcmp(sb_str(&sb), ""));
	sb_release(&sb);
}

static struct fmt_spec *fmt(struct arena *a, const char *s, const char **err)
{
	size_t off;

	*err = NULL;
	return fmt_parse(a, s, strlen(s), err, &off);
}

static void test_format(void)
{
	struct arena *a = arena_new();
	const char *err;
	struct fmt_spec *f;

	f = fmt(a, "x=%-+5d %%s %*.*s%c", &err);
	CHECK(f != NULL);
	CHECK(f && f->nargs == 5);
	CHECK(f && f->n == 5);
	CHECK(f && f->pieces[0].conv == FMT_LITERAL && f->pieces[0].len == 2);
	CHECK(f && f->pieces[1].conv == FMT_SIGNED &&
	      f->pieces[1].flags == (FMT_F_LEFT | FMT_F_PLUS) &&
	      f->pieces[1].width == 5);
	CHECK(f && f->pieces[2].conv == FMT_LITERAL &&
	      !strcmp(f->pieces[2].text, " %s "));
	CHECK(f && f->pieces[3].width == FMT_STAR && f->pieces[3].precision == FMT_STAR);
	f = fmt(a, "%#08lx %X %o %u %p %b %4b %m %M %i", &err);
	CHECK(f && f->nargs == 10);
	CHECK(f && f->pieces[0].flags == (FMT_F_ALT | FMT_F_ZERO) &&
	      f->pieces[0].width == 8 && f->pieces[0].conv == FMT_HEX);
	CHECK(fmt(a, "%Ld", &err) == NULL && err);
	CHECK(fmt(a, "%f", &err) == NULL);
	CHECK(fmt(a, "tail %", &err) == NULL);
	CHECK(fmt(a, "%5", &err) == NULL);
	f = fmt(a, "", &err);
	CHECK(f && f->n == 0 && f->nargs == 0);
	CHECK(fmt_conv_takes_string(FMT_STRING) && !fmt_conv_takes_string(FMT_SIGNED));
	arena_free(a);
}

static void test_kernel_info(void)
{
	struct arena *a = arena_new();
	struct kernel_info ki;
	char dir[] = "/tmp/stap-unit-XXXXXX", path[256];
	FILE *f;

	if (!mkdtemp(dir)) {
		failed++;
		return;
	}
	snprintf(path, sizeof(path), "%s/.config", dir);
	f = fopen(path, "w");
	fputs("# comment\nCONFIG_A=y\nCONFIG_B=m\nCONFIG_N=32\nCONFIG_S=\"str\"\n# CONFIG_U is not set\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/include/config", dir);
	kernel_info_init(&ki, a, "6.1.0-99-test", dir);
	CHECK(!strcmp(ki.release, "6.1.0-99-test"));
	CHECK(!strcmp(ki.version, "6.1.0"));
	CHECK(!strcmp(kernel_config(&ki, a, "CONFIG_A"), "y"));
	CHECK(!strcmp(kernel_config(&ki, a, "CONFIG_B"), "m"));
	CHECK(!strcmp(kernel_config(&ki, a, "CONFIG_N"), "32"));
	CHECK(!strcmp(kernel_config(&ki, a, "CONFIG_S"), "\"str\""));
	CHECK(!strcmp(kernel_config(&ki, a, "CONFIG_U"), ""));
	kernel_info_init(&ki, a, "x", "/nonexistent-dir");
	CHECK(kernel_config(&ki, a, "CONFIG_A") == NULL);
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	if (system(path))
		failed++;
	arena_free(a);
}

static void test_source_lines(void)
{
	struct arena *a = arena_new();
	struct source *s = source_from_mem(a, "<t>", "one\n\nthree\nlast", 15);
	size_t len;
	const char *l;

	CHECK(s->nlines == 4);
	l = source_line(s, 1, &len);
	CHECK(len == 3 && !strncmp(l, "one", 3));
	l = source_line(s, 2, &len);
	CHECK(len == 0);
	l = source_line(s, 3, &len);
	CHECK(len == 5 && !strncmp(l, "three", 5));
	l = source_line(s, 4, &len);
	CHECK(len == 4 && !strncmp(l, "last", 4));
	source_line(s, 9, &len);
	CHECK(len == 0);
	source_line(s, 0, &len);
	CHECK(len == 0);
	arena_free(a);
}

static void test_ptrmap(void)
{
	struct arena *a = arena_new();
	struct ptrmap m = { 0 };
	static int keys[5000];
	int i, ok = 1;

	CHECK(ptrmap_get(&m, &keys[0]) == NULL);
	for (i = 0; i < 5000; i++)
		ptrmap_put(a, &m, &keys[i], &keys[(i + 1) % 5000]);
	for (i = 0; i < 5000; i++)
		ok &= ptrmap_get(&m, &keys[i]) == &keys[(i + 1) % 5000];
	CHECK(ok);
	CHECK(m.n == 5000);
	ptrmap_put(a, &m, &keys[7], NULL);
	CHECK(ptrmap_get(&m, &keys[7]) == NULL && m.n == 5000);
	arena_free(a);
}

struct scan_result {
	char names[32][32];
	int kinds[32];
	int n;
};

static void collect(void *ctx, enum tapset_scan_kind kind, const char *name,
		    size_t len)
{
	struct scan_result *r = ctx;

	if (r->n < 32 && len < 32) {
		memcpy(r->names[r->n], name, len);
		r->names[r->n][len] = 0;
		r->kinds[r->n++] = (int)kind;
	}
}

static void test_tapset_scan(void)
{
	static const char text[] =
		"// function notme() in a comment\n"
		"# global notme2\n"
		"/* probe notme3 = begin {} */\n"
		"global g1, g2[10], g3%, g4 = 5, g5 = \"s,x\"\n"
		"private global p1\n"
		"function f1:long (a:long) { global_not = 1; function_not() }\n"
		"private function f2() %{ /* function notme4() */ %}\n"
		"%( kernel_v >= \"2.6\" %? function f3() {} %: function f4() {} %)\n"
		"probe syscall.open = kernel.function(\"x\") ?, begin { }\n"
		"probe a.b, c.d += end { }\n"
		"probe begin { function_in_probe() }\n"
		"probe timer.ms(5) if (x) { }\n";
	static const char *const want[] = {
		"g1", "g2", "g3", "g4", "g5", "p1", "f1", "f2", "f3", "f4",
		"syscall", "a", "c",
	};
	static const int kinds[] = {
		TAPSET_SCAN_GLOBAL, TAPSET_SCAN_GLOBAL, TAPSET_SCAN_GLOBAL,
		TAPSET_SCAN_GLOBAL, TAPSET_SCAN_GLOBAL, TAPSET_SCAN_GLOBAL,
		TAPSET_SCAN_FUNCTION, TAPSET_SCAN_FUNCTION, TAPSET_SCAN_FUNCTION,
		TAPSET_SCAN_FUNCTION, TAPSET_SCAN_ALIAS, TAPSET_SCAN_ALIAS,
		TAPSET_SCAN_ALIAS,
	};
	struct scan_result r = { .n = 0 };
	size_t i;
	int ok;

	tapset_scan(text, sizeof(text) - 1, collect, &r);
	CHECK(r.n == (int)(sizeof(want) / sizeof(want[0])));
	for (i = 0, ok = 1; i < sizeof(want) / sizeof(want[0]) && (int)i < r.n; i++)
		ok &= !strcmp(r.names[i], want[i]) && r.kinds[i] == kinds[i];
	CHECK(ok);
	/* Truncated input ends cleanly. */
	r.n = 0;
	tapset_scan("global \"unterminated", 20, collect, &r);
	tapset_scan("%{ never closed", 15, collect, &r);
	tapset_scan("probe x", 7, collect, &r);
	CHECK(r.n == 0);
}

static void test_ast_clone(void)
{
	struct arena *a = arena_new();
	struct srcloc loc = { 0 };
	struct expr *x = ast_symbol(a, "x", loc);
	struct expr *sum = ast_binary(a, OP_ADD, x, ast_number(a, 2, loc), loc);
	struct expr *asg = ast_assign(a, OP_ASSIGN, ast_symbol(a, "y", loc), sum, loc);
	struct stmt *st = ast_stmt_expr(a, STMT_EXPR, asg, loc);
	struct ptrvec v = { 0 };
	struct stmt *blk, *copy;
	const struct stmt *cs;
	const struct expr *ce;

	vec_push(a, &v, st);
	blk = ast_block(a, &v, loc);
	copy = ast_clone_stmt(a, blk);
	CHECK(copy != blk && copy->kind == STMT_BLOCK && copy->stmts.n == 1);
	cs = copy->stmts.v[0];
	CHECK(cs != st && cs->kind == STMT_EXPR);
	ce = cs->expr;
	CHECK(ce != asg && ce->kind == EXPR_ASSIGN && ce->bin.r != sum);
	CHECK(ce->bin.r->bin.l != x && !strcmp(ce->bin.r->bin.l->name, "x"));
	CHECK(ce->bin.r->bin.r->num == 2);
	CHECK(ast_clone_stmt(a, NULL) == NULL);
	arena_free(a);
}

/* util/progress.c: the percentage line, only when asked for and only once
 * the delay has passed; erased at the end. */
static void progress_run(const char *env, unsigned int delay_ms, char *out, size_t size)
{
	static const uint64_t steps[] = { 0, 10, 10, 49, 50, 200 };
	struct progress p;
	int fd[2];
	ssize_t n;
	size_t i;

	if (env)
		setenv("CSTAP_PROGRESS", env, 1);
	else
		unsetenv("CSTAP_PROGRESS");
	if (pipe(fd) != 0) {
		out[0] = 0;
		return;
	}
	progress_start(&p, fd[1], "L", 100, delay_ms);
	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		progress_update(&p, steps[i]);
	progress_end(&p);
	close(fd[1]);
	n = read(fd[0], out, size - 1);
	out[n > 0 ? n : 0] = 0;
	close(fd[0]);
}

static void test_progress(void)
{
	char out[256];

	progress_run("1", 0, out, sizeof(out));
	CHECK(!strcmp(out, "\rL:   0%\rL:  10%\rL:  49%\rL:  50%\rL: 100%\r\033[K"));
	progress_run("1", 60000, out, sizeof(out));	/* over before the delay */
	CHECK(!strcmp(out, ""));
	progress_run("0", 0, out, sizeof(out));
	CHECK(!strcmp(out, ""));
	progress_run(NULL, 0, out, sizeof(out));	/* a pipe is no terminal */
	CHECK(!strcmp(out, ""));
	unsetenv("CSTAP_PROGRESS");
}

int main(void)
{
	test_arena();
	test_intern();
	test_strbuf();
	test_format();
	test_kernel_info();
	test_source_lines();
	test_ptrmap();
	test_tapset_scan();
	test_ast_clone();
	test_progress();
	return CHECK_SUMMARY();
}
