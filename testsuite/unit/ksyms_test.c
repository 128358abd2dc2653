// SPDX-License-Identifier: GPL-2.0-or-later
/* ksyms_test.c: tests of elaborate/ksyms*.c, printing TAP-style lines. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "elaborate/ksyms.h"
#include "elaborate/ksyms_internal.h"
#include "util/arena.h"
#include "util/strbuf.h"

#define FIXTURES "testsuite/fixtures"
#define FAKE_MAP_ADDR(x) (0xffffffff00000000ull | (x))

struct t {
	int n, failed;
	struct arena *a;
	char tmp[64];
};

static bool ok(struct t *t, bool cond, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static bool ok(struct t *t, bool cond, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", cond ? "" : "not ", ++t->n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!cond)
		t->failed++;
	return cond;
}

static void skip(struct t *t, const char *what, const char *why)
{
	printf("ok %d - %s # SKIP %s\n", ++t->n, what, why);
}

static int collect_names(const struct ksym *s, void *ctx)
{
	struct strbuf *sb = ctx;

	if (sb->len)
		sb_addc(sb, ',');
	sb_adds(sb, s->name);
	return 0;
}

static int stop_at_second(const struct ksym *s, void *ctx)
{
	int *calls = ctx;

	(void)s;
	return ++*calls == 2 ? 42 : 0;
}

static void check_glob(struct t *t, const struct ksyms *ks, const char *pat,
		       const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	ksyms_each_match(ks, pat, collect_names, &sb);
	ok(t, !strcmp(sb_str(&sb), want), "glob %s -> %s (got %s)", pat, want,
	   sb_str(&sb));
	sb_release(&sb);
}

static void check_refusal(struct t *t, const struct ksyms *ks,
			  const char *name, const char *want)
{
	const struct ksym *s = ksyms_find(ks, name);

	ok(t, s && s->refusal == want, "%s refused: %s (got %s)", name,
	   want ? want : "no", s ? (s->refusal ? s->refusal : "no") : "absent");
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void test_fixture(struct t *t)
{
	static const char *const absent[] = {
		"__pfx_vfs_read", "init_task", "buffer.0", "linux_banner",
		"__bss_stop", "_kbl_addr_do_int3", "_stext", "_text", "_etext",
		"__entry_text_start", "__noinstr_text_end",
		"__cpuidle_text_start", "_sinittext", "nosuch",
	};
	struct ksyms ks;
	const struct ksym *s;
	char err[256] = "";
	bool sorted = true;
	size_t i;
	int r, calls = 0;

	r = ksyms_load(&ks, t->a, "6.1.0-fake-amd64", FIXTURES "/kbuild-fake",
		       err, sizeof(err));
	if (!ok(t, r == 0, "load the kbuild-fake System.map (%s)", err))
		return;
	ok(t, !strcmp(ks.origin, FIXTURES "/kbuild-fake/System.map"),
	   "origin is %s", ks.origin);
	ok(t, ks.n == 23 && ks.excluded == 18 && ks.malformed == 0,
	   "23 functions, 18 excluded, 0 malformed (got %zu, %zu, %zu)",
	   ks.n, ks.excluded, ks.malformed);
	for (i = 1; i < ks.n; i++)
		sorted &= strcmp(ks.v[i - 1].name, ks.v[i].name) < 0;
	ok(t, sorted, "sorted by name, names unique");
	s = ksyms_find(&ks, "vfs_read");
	ok(t, s && s->addr == FAKE_MAP_ADDR(0x813a1240) && s->size == 0x240 &&
	   !s->module && !s->refusal && !s->ndup, "vfs_read: address, size");
	s = ksyms_find(&ks, "do_iter_read.isra.0");
	ok(t, s && s->size == 0x940,
	   "do_iter_read.isra.0 kept, sized up to __pfx_vfs_read");
	ok(t, ksyms_find(&ks, "ksys_read.cold") != NULL, "ksys_read.cold kept");
	ok(t, ksyms_find(&ks, "arch_cpu_idle_prepare") != NULL,
	   "W symbol kept");
	s = ksyms_find(&ks, "init_once");
	ok(t, s && s->addr == FAKE_MAP_ADDR(0x810001a0) && s->ndup == 1,
	   "duplicate init_once: first address, ndup 1");
	s = ksyms_find(&ks, "_einittext");
	for (i = 0; i < sizeof(absent) / sizeof(absent[0]); i++)
		s = s ? s : ksyms_find(&ks, absent[i]);
	ok(t, !s, "no data, marker or __pfx_ symbol listed (found %s)",
	   s ? s->name : "none");
	check_glob(t, &ks, "vfs_*", "vfs_read,vfs_readv,vfs_write");
	check_glob(t, &ks, "*read*", "__x64_sys_read,do_iter_read.isra.0,"
		   "ksys_read,ksys_read.cold,vfs_read,vfs_readv");
	check_glob(t, &ks, "do_?nt3", "do_int3");
	check_glob(t, &ks, "[a-c]*",
		   "arch_cpu_idle_prepare,asm_common_interrupt");
	check_glob(t, &ks, "schedule", "schedule");
	check_glob(t, &ks, "nosuch", "");
	check_glob(t, &ks, "do_sys_open*", "do_sys_open,do_sys_openat2");
	r = ksyms_each_match(&ks, "*", stop_at_second, &calls);
	ok(t, r == 42 && calls == 2,
	   "each_match stops with the callback's value");
	check_refusal(t, &ks, "do_int3", ksym_refused_nokprobe);
	check_refusal(t, &ks, "do_int3_user", NULL);
	check_refusal(t, &ks, "exc_nmi", ksym_refused_noinstr);
	check_refusal(t, &ks, "default_idle", ksym_refused_noinstr);
	check_refusal(t, &ks, "optprobe_template_func", ksym_refused_kprobes);
	check_refusal(t, &ks, "entry_SYSCALL_64", ksym_refused_entry);
	check_refusal(t, &ks, "asm_common_interrupt", ksym_refused_irqentry);
	check_refusal(t, &ks, "__do_softirq", ksym_refused_softirq);
	check_refusal(t, &ks, "start_kernel", ksym_refused_init);
	check_refusal(t, &ks, "schedule", NULL);
	check_refusal(t, &ks, "secondary_startup_64", NULL);
}

static void test_not_found(struct t *t)
{
	struct ksyms ks;
	char err[256] = "", dir[128];
	const char *last;
	int r;

	snprintf(dir, sizeof(dir), "%s/empty", t->tmp);
	mkdir(dir, 0700);
	r = ksyms_load(&ks, t->a, "0.0.0-ksyms-test", dir, err, sizeof(err));
	ok(t, r == -ENOENT && ks.n == 0, "empty build dir: -ENOENT (%s)", err);
	last = ks.tried.n ? ks.tried.v[ks.tried.n - 1] : "";
	ok(t, ks.tried.n == 7 && !strncmp(ks.tried.v[0], dir, strlen(dir)) &&
	   !strcmp((const char *)ks.tried.v[1],
		   "/boot/System.map-0.0.0-ksyms-test") &&
	   strstr(last, "/proc/kallsyms (kernel 0.0.0-ksyms-test"),
	   "tried lists the 7 candidates (first %s, last %s)",
	   ks.tried.n ? (const char *)ks.tried.v[0] : "-", last);
	r = ksyms_load(&ks, t->a, "0.0.0-ksyms-test",
		       FIXTURES "/kbuild-placeholder", err, sizeof(err));
	ok(t, r == -ENOENT && ks.tried.n &&
	   strstr(ks.tried.v[0], "System.map (a placeholder"),
	   "Debian placeholder System.map skipped (%s)",
	   ks.tried.n ? (const char *)ks.tried.v[0] : "-");
}

/* Malformed lines, kallsyms module lines, kCFI preambles, unordered input. */
static void test_odd_map(struct t *t)
{
	struct ksyms ks;
	char dir[128], path[160], err[256] = "";
	const struct ksym *s;
	int r;

	snprintf(dir, sizeof(dir), "%s/odd", t->tmp);
	mkdir(dir, 0700);
	snprintf(path, sizeof(path), "%s/System.map", dir);
	write_file(path,
		   "ffffffff81000200 T foo\n"
		   "ffffffff81000100 T __cfi_foo\n"
		   "ffffffff81000000 T __cfi_slowpath\n"
		   "garbage\n"
		   "\n"
		   "ffffffff81000000T nospace\n"
		   "11112222333344445 T toolong\n"
		   "ffffffff81000300 T trailing junk here\n"
		   "ffffffff81000400 T\n"
		   "ffffffffc0001000 t modfn\t[ext4]\n"
		   "ffffffff81000110 T bar\r\n"
		   "ffffffff81000500 T _etext\n");
	r = ksyms_load(&ks, t->a, "0.0.0-ksyms-test", dir, err, sizeof(err));
	if (!ok(t, r == 0, "odd map loads (%s)", err))
		return;
	ok(t, ks.malformed == 5, "5 malformed lines counted (got %zu)",
	   ks.malformed);
	ok(t, ks.n == 3 && ksyms_find(&ks, "__cfi_slowpath") &&
	   !ksyms_find(&ks, "__cfi_foo") && !ksyms_find(&ks, "modfn"),
	   "__cfi_foo dropped, lone __cfi_slowpath kept, module lines ignored");
	s = ksyms_find(&ks, "foo");
	ok(t, s && s->size == 0x300, "unordered input: foo sized to _etext");
	s = ksyms_find(&ks, "bar");
	ok(t, s && s->size == 0xf0, "CRLF line read; bar sized to foo");
}

/* kallsyms module lines ("[mod]"), and hidden addresses (kptr_restrict). */
static void test_kallsyms_module(struct t *t)
{
	struct ksyms ks;
	char path[160], why[256] = "";
	const struct ksym *s;
	int r;

	snprintf(path, sizeof(path), "%s/kallsyms", t->tmp);
	write_file(path,
		   "ffffffff813a1240 T vfs_read\n"
		   "ffffffffc0a01000 t ext4_read\t[ext4]\n"
		   "ffffffffc0a00800 T ext4_fill_super\t[ext4]\n"
		   "ffffffffc0a03000 t xfs_read\t[xfs]\n"
		   "ffffffffc0a01400 t __pfx_ext4_write\t[ext4]\n"
		   "ffffffffc0a01410 t ext4_write\t[ext4]\n"
		   "ffffffffc0a09000 d _kbl_addr_ext4_read\t[ext4]\n"
		   "ffffffffc0b00000 t bpf_prog_6deef7357e7b4530\t[bpf]\n");
	memset(&ks, 0, sizeof(ks));
	r = ksyms_read_map(&ks, t->a, path, "ext4", why, sizeof(why));
	ok(t, r == 0 && ks.n == 3 && !ksyms_find(&ks, "vfs_read") &&
	   !ksyms_find(&ks, "xfs_read"), "only the [ext4] lines (%s)", why);
	s = ksyms_find(&ks, "ext4_fill_super");
	ok(t, s && s->size == 0x800 && s->module && !strcmp(s->module, "ext4"),
	   "module symbol: module name, size from unordered lines");
	s = ksyms_find(&ks, "ext4_read");
	ok(t, s && s->size == 0x400 && s->refusal == ksym_refused_nokprobe,
	   "module NOKPROBE_SYMBOL, sized up to __pfx_ext4_write");
	memset(&ks, 0, sizeof(ks));
	r = ksyms_read_map(&ks, t->a, path, NULL, why, sizeof(why));
	ok(t, r == 0 && ks.n == 1 && ksyms_find(&ks, "vfs_read"),
	   "vmlinux: no module lines, no [bpf]");
	write_file(path, "0000000000000000 T vfs_read\n"
			 "0000000000000000 t do_int3\n");
	r = ksyms_read_map(&ks, t->a, path, NULL, why, sizeof(why));
	ok(t, r == KSYMS_SKIP && strstr(why, "kptr_restrict"),
	   "hidden addresses skipped (%s)", why);
}

static const char elf_src[] =
	"#define S(x) __attribute__((section(x)))\n"
	"void normal_fn(void) {}\n"
	"S(\".kprobes.text\") void kp_fn(void) {}\n"
	"S(\".noinstr.text\") void ni_fn(void) {}\n"
	"S(\".irqentry.text\") void irq_fn(void) {}\n"
	"S(\".softirqentry.text\") void sirq_fn(void) {}\n"
	"S(\".entry.text\") void ent_fn(void) {}\n"
	"S(\".init.text\") void init_fn(void) {}\n"
	"void nokp_fn(void) {}\n"
	"static unsigned long __attribute__((used)) S(\"_kprobe_blacklist\")\n"
	"	_kbl_addr_nokp_fn = (unsigned long)nokp_fn;\n"
	"int data_obj = 1;\n"
	"asm(\".pushsection .text\\n"
	".globl __entry_text_start\\n__entry_text_start:\\n"
	".globl marked_fn\\n.type marked_fn,@function\\nmarked_fn: ret\\n"
	".size marked_fn,.-marked_fn\\n"
	".globl __entry_text_end\\n__entry_text_end:\\n"
	".type odd.isra.0,@function\\nodd.isra.0: ret\\n.size odd.isra.0,1\\n"
	".globl __pfx_normal_fn\\n.type __pfx_normal_fn,@function\\n"
	"__pfx_normal_fn: nop\\n.size __pfx_normal_fn,1\\n"
	/* instructions the kernel patches, in its tables: a static branch
	 * (2-byte nop), a static call site at +1 (5-byte nop), a BUG() */
	".type jl_fn,@function\\njl_fn: .byte 0x66,0x90\\nret\\n.size jl_fn,.-jl_fn\\n"
	".type sc_fn,@function\\nsc_fn: nop\\n.byte 0x0f,0x1f,0x44,0,0\\nret\\n.size sc_fn,.-sc_fn\\n"
	".type bug_fn,@function\\nbug_fn: ud2\\nret\\n.size bug_fn,.-bug_fn\\n"
	".popsection\\n"
	".pushsection .data\\n"
	".globl __start___jump_table\\n__start___jump_table: .long jl_fn-.\\n.long jl_fn-.\\n.quad 0\\n"
	".globl __stop___jump_table\\n__stop___jump_table:\\n"
	".globl __start_static_call_sites\\n__start_static_call_sites: .long sc_fn+1-.\\n.long 0\\n"
	".globl __stop_static_call_sites\\n__stop_static_call_sites:\\n"
	".globl __start___bug_table\\n__start___bug_table: .long bug_fn-.\\n.long 0\\n.short 0,0\\n"
	".globl __stop___bug_table\\n__stop___bug_table:\\n"
	".popsection\");\n";

/* The patched instructions of elf_src: each byte of each, and not the
 * bytes around them. */
static void check_patched(struct t *t, const struct ksyms *ks)
{
	const struct ksym *jl = ksyms_find(ks, "jl_fn"), *sc = ksyms_find(ks, "sc_fn"),
			 *bug = ksyms_find(ks, "bug_fn"), *nf = ksyms_find(ks, "normal_fn");

	if (!ok(t, jl && sc && bug && nf, "the patched functions are listed"))
		return;
	ok(t, ksyms_addr_refusal(ks, jl->addr) == ksym_refused_jump_label &&
	   ksyms_addr_refusal(ks, jl->addr + 1) == ksym_refused_jump_label &&
	   !ksyms_addr_refusal(ks, jl->addr + 2), "a 2-byte static branch is refused, not after");
	ok(t, !ksyms_addr_refusal(ks, sc->addr) &&
	   ksyms_addr_refusal(ks, sc->addr + 1) == ksym_refused_static_call_site &&
	   ksyms_addr_refusal(ks, sc->addr + 5) == ksym_refused_static_call_site &&
	   !ksyms_addr_refusal(ks, sc->addr + 6), "a static call site's 5 bytes are refused");
	ok(t, ksyms_addr_refusal(ks, bug->addr) == ksym_refused_bug &&
	   !ksyms_addr_refusal(ks, bug->addr + 1), "a BUG()'s address is refused");
	ok(t, !ksyms_addr_refusal(ks, nf->addr), "normal_fn is not");
}

static void check_elf(struct t *t, const char *path, bool linked)
{
	struct ksyms ks;
	const struct ksym *s;
	char err[256] = "";
	int r;

	r = ksyms_load_elf(&ks, t->a, path, linked ? NULL : "t-mod", err,
			   sizeof(err));
	if (!ok(t, r == 0, "ELF %s loads (%s)", path, err))
		return;
	s = ksyms_find(&ks, "normal_fn");
	ok(t, s && s->size > 0 && !s->refusal &&
	   (linked ? !s->module : !strcmp(s->module, "t_mod")),
	   "%s: normal_fn sized, module %s", path, linked ? "NULL" : "t_mod");
	ok(t, ksyms_find(&ks, "odd.isra.0") &&
	   !ksyms_find(&ks, "__pfx_normal_fn") &&
	   !ksyms_find(&ks, "data_obj") &&
	   !ksyms_find(&ks, "__entry_text_start") &&
	   !ksyms_find(&ks, "_kbl_addr_nokp_fn"),
	   "%s: .isra kept; __pfx_, data and markers dropped", path);
	check_refusal(t, &ks, "kp_fn", ksym_refused_kprobes);
	check_refusal(t, &ks, "ni_fn", ksym_refused_noinstr);
	check_refusal(t, &ks, "irq_fn", ksym_refused_irqentry);
	check_refusal(t, &ks, "sirq_fn", ksym_refused_softirq);
	check_refusal(t, &ks, "ent_fn", ksym_refused_entry);
	/* a module's init code is there while its init function runs */
	check_refusal(t, &ks, "init_fn", linked ? ksym_refused_init : NULL);
	check_refusal(t, &ks, "nokp_fn", ksym_refused_nokprobe);
	/* Markers only mean addresses in linked files. */
	check_refusal(t, &ks, "marked_fn", linked ? ksym_refused_entry : NULL);
	if (linked)
		check_patched(t, &ks);
}

static int run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int run(const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

static void test_elf(struct t *t)
{
	char src[160], obj[160], so[160], ko[160], dir[160];
	struct ksyms ks;
	const char *p;
	char err[256] = "";
	int r;

	snprintf(src, sizeof(src), "%s/t.c", t->tmp);
	snprintf(obj, sizeof(obj), "%s/t.o", t->tmp);
	snprintf(so, sizeof(so), "%s/t.so", t->tmp);
	write_file(src, elf_src);
	if (run("cc -O1 -c -o %s %s 2>/dev/null", obj, src) ||
	    run("cc -O1 -fPIC -shared -nostdlib -o %s %s 2>/dev/null", so,
		src)) {
		skip(t, "ELF loading", "cannot compile with cc");
		return;
	}
	check_elf(t, obj, false);
	check_elf(t, so, true);
	r = ksyms_load_elf(&ks, t->a, src, NULL, err, sizeof(err));
	ok(t, r == -ENOEXEC, "a C file is not ELF: -ENOEXEC (%s)", err);

	snprintf(dir, sizeof(dir), "%s/lib/kernel/fs/tmod", t->tmp);
	run("mkdir -p %s && cp %s %s/t-mod.ko", dir, obj, dir);
	snprintf(dir, sizeof(dir), "%s/lib", t->tmp);
	p = ksyms_find_module_file(t->a, dir, "t_mod");
	ok(t, p && strstr(p, "/kernel/fs/tmod/t-mod.ko"),
	   "module file found with - and _ equivalent (%s)", p ? p : "none");
	ok(t, !ksyms_find_module_file(t->a, dir, "t_mo"), "no prefix match");

	snprintf(ko, sizeof(ko), "%s/lib/kernel/fs/tmod/t-mod.ko", t->tmp);
	if (run("xz -k %s 2>/dev/null", ko)) {
		skip(t, ".ko.xz", "no xz program");
	} else {
		strcat(ko, ".xz");
		r = ksyms_load_elf(&ks, t->a, ko, "t_mod", err, sizeof(err));
#ifdef HAVE_LIBLZMA
		ok(t, r == 0 && ksyms_find(&ks, "kp_fn"), ".ko.xz read (%s)",
		   err);
#else
		ok(t, r == -ENOTSUP, ".ko.xz refused without liblzma (%s)",
		   err);
#endif
	}
	snprintf(ko, sizeof(ko), "%s/x.ko.zst", t->tmp);
	write_file(ko, "not really zstd");
	r = ksyms_load_elf(&ks, t->a, ko, "x", err, sizeof(err));
	ok(t, r == -ENOTSUP && strstr(err, "zstd"), ".ko.zst: -ENOTSUP (%s)",
	   err);
}

static void test_running(struct t *t)
{
	struct ksyms ks;
	char err[256] = "";
	const struct ksym *s;
	double ms;
	struct timespec t0, t1;
	int r;

	r = ksyms_load_module(&ks, t->a, NULL, "no-such_module_ksyms", err,
			      sizeof(err));
	ok(t, r == -ENOENT && ks.tried.n == 2, "absent module: -ENOENT (%s)",
	   err);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	r = ksyms_load(&ks, t->a, NULL, "/nonexistent-build", err, sizeof(err));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (r) {
		skip(t, "running kernel's symbols", err);
		return;
	}
	ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 +
	     (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
	printf("# running kernel: %zu functions from %s in %.1f ms\n", ks.n,
	       ks.origin, ms);
	s = ksyms_find(&ks, "vfs_read");
	ok(t, ks.n > 1000 && s && !s->refusal,
	   "running kernel: vfs_read found");
	s = ksyms_find(&ks, "entry_SYSCALL_64");
	ok(t, !s || s->refusal == ksym_refused_entry,
	   "running kernel: entry_SYSCALL_64 in .entry.text");
}

/* A 150,000-line System.map like a real one (80% functions). */
static void test_big(struct t *t)
{
	static const char types[] = "TtTtTtTtDb";
	char dir[128], path[160], err[256] = "";
	struct timespec t0, t1;
	struct ksyms ks;
	unsigned long x = 12345;
	double ms;
	FILE *f;
	int i, r;

	snprintf(dir, sizeof(dir), "%s/big", t->tmp);
	mkdir(dir, 0700);
	snprintf(path, sizeof(path), "%s/System.map", dir);
	f = fopen(path, "w");
	if (!f)
		return;
	for (i = 0; i < 150000; i++) {
		x = x * 6364136223846793005ul + 1442695040888963407ul;
		fprintf(f, "%016llx %c %s_%lx_%s\n",
			0xffffffff81000000ull + 16ull * (unsigned)i,
			types[i % 10], i % 3 ? "do" : "__x64_sys", x >> 40,
			i % 7 ? "handler" : "fn.isra.0");
	}
	fclose(f);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	r = ksyms_load(&ks, t->a, "0.0.0-ksyms-test", dir, err, sizeof(err));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 +
	     (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
	printf("# 150000-line System.map: %zu functions in %.1f ms\n", ks.n,
	       ms);
	ok(t, r == 0 && ks.n > 110000 && ms < 1000,
	   "150000-line System.map loads in %.1f ms", ms);
}

int main(void)
{
	struct t t = { 0 };

	if (access(FIXTURES "/kbuild-fake/System.map", R_OK)) {
		fprintf(stderr, "run from the top of the source tree\n");
		return 2;
	}
	snprintf(t.tmp, sizeof(t.tmp), "/tmp/ksyms_test.XXXXXX");
	if (!mkdtemp(t.tmp)) {
		perror("mkdtemp");
		return 2;
	}
	t.a = arena_new();
	test_fixture(&t);
	test_not_found(&t);
	test_odd_map(&t);
	test_kallsyms_module(&t);
	test_elf(&t);
	test_running(&t);
	test_big(&t);
	run("rm -rf %s", t.tmp);
	arena_free(t.a);
	printf("1..%d\n%d passed, %d failed\n", t.n, t.n - t.failed,
	       t.failed);
	return t.failed != 0;
}
