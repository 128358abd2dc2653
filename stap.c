// SPDX-License-Identifier: GPL-2.0-or-later
/* stap.c: the driver: options into a session, then the passes. */
#define _GNU_SOURCE	/* fopencookie */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "elaborate/dwarf.h"
#include "elaborate/elab.h"
#include "parse/parse.h"
#include "session.h"
#include "util/sgr.h"
#include "build.h"
#include "early.h"
#include "translate/translate.h"
#include "util/strbuf.h"
#include "util/arena.h"
#include "util/cache.h"
#include "util/sdt_marker.h"
#include "run_internal.h"
#include "util/diag.h"
#include "util/kernel_info.h"
#include "util/source.h"

enum {
	OPT_VP = 256,
	OPT_DUMP_PROBE_TYPES,
	OPT_DUMP_PROBE_ALIASES,
	OPT_DUMP_FUNCTIONS,
	OPT_COMPATIBLE,
	OPT_HELP,
	OPT_UNSUPPORTED,	/* recognised, implemented by a later issue */
	OPT_NO_GLOBAL_DISPLAY,
	OPT_DISABLE_CACHE,
	OPT_ALL_MODULES,
	OPT_REMOTE,
	OPT_SYSROOT,
	OPT_KBUILD,
	OPT_LDD,
	OPT_SKIP_BADVARS,
	OPT_COLOR,
	OPT_MONITOR,
};

static const struct option long_options[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ "vp", required_argument, NULL, OPT_VP },
	{ "dump-probe-types", no_argument, NULL, OPT_DUMP_PROBE_TYPES },
	{ "dump-probe-aliases", no_argument, NULL, OPT_DUMP_PROBE_ALIASES },
	{ "dump-functions", no_argument, NULL, OPT_DUMP_FUNCTIONS },
	{ "compatible", required_argument, NULL, OPT_COMPATIBLE },
	/* Known options of the reference that later work will implement. */
	{ "skip-badvars", no_argument, NULL, OPT_SKIP_BADVARS },
	{ "suppress-handler-errors", no_argument, NULL, OPT_UNSUPPORTED },
	{ "suppress-time-limits", no_argument, NULL, OPT_UNSUPPORTED },
	{ "ldd", no_argument, NULL, OPT_LDD },
	{ "all-modules", no_argument, NULL, OPT_ALL_MODULES },
	{ "disable-cache", no_argument, NULL, OPT_DISABLE_CACHE },
	{ "kbuild", no_argument, NULL, OPT_KBUILD },
	{ "poison-cache", no_argument, NULL, OPT_UNSUPPORTED },
	{ "clean-cache", no_argument, NULL, OPT_UNSUPPORTED },
	{ "privilege", required_argument, NULL, OPT_UNSUPPORTED },
	{ "unprivileged", no_argument, NULL, OPT_UNSUPPORTED },
	{ "use-server", optional_argument, NULL, OPT_UNSUPPORTED },
	{ "remote", required_argument, NULL, OPT_REMOTE },
	{ "runtime", required_argument, NULL, OPT_UNSUPPORTED },
	{ "no-global-var-display", no_argument, NULL, OPT_NO_GLOBAL_DISPLAY },
	{ "modinfo", required_argument, NULL, OPT_UNSUPPORTED },
	{ "monitor", optional_argument, NULL, OPT_MONITOR },
	{ "interactive", no_argument, NULL, OPT_UNSUPPORTED },
	{ "example", no_argument, NULL, OPT_UNSUPPORTED },
	{ "sysroot", required_argument, NULL, OPT_SYSROOT },
	{ "target-namespaces", required_argument, NULL, OPT_UNSUPPORTED },
	{ "check-version", no_argument, NULL, OPT_UNSUPPORTED },
	{ "color", optional_argument, NULL, OPT_COLOR },
	{ "colour", optional_argument, NULL, OPT_COLOR },
	{ NULL, 0, NULL, 0 },
};

static const char short_options[] = "hVp:vkgPuwWbts:I:D:B:G:R:r:a:m:o:c:x:e:E:l:L:FS:d:T:iC:";

static void usage(FILE *out)
{
	fputs(
"Usage: stap [options] FILE [ARGS ...]        Run script in file.\n"
"   or: stap [options] -                      Run script on stdin.\n"
"   or: stap [options] -e SCRIPT [ARGS ...]   Run given script.\n"
"   or: stap [options] -l PROBE               List matching probes.\n"
"   or: stap [options] -L PROBE               List matching probes and local variables.\n"
"\n"
"Options (those marked * are accepted but their pass is not yet implemented):\n"
"   --         end of translator options, script options follow\n"
"   -h --help  show this help\n"
"   -V         show version\n"
"   -p NUM     stop after pass NUM 1-5 (1 parsing and 2 elaboration are implemented)\n"
"   -v         add verbosity to all passes\n"
"   --vp {N}+  add per-pass verbosity [00000]\n"
"   -k       * keep temporary directory\n"
"   -u         unoptimized translation\n"
"   --color[=WHEN]  colour the messages: never, always, auto (a terminal)\n"
"   --skip-badvars  substitute 0 (\"\") for context variables that do not resolve\n"
"   -w         suppress warnings\n"
"   -W         turn warnings into errors\n"
"   -g         guru mode (embedded C in scripts)\n"
"   -s NUM   * buffer size in megabytes\n"
"   -I DIR     look in DIR for additional .stp/.stpm library files\n"
"   -D NM=VAL* emit macro definition into generated C code\n"
"   -G VAR=VAL set global variable to value\n"
"   -R DIR   * look in DIR for runtime\n"
"   -r DIR     cross-compile to kernel with given build tree; or else\n"
"   -r RELEASE cross-compile to kernel /lib/modules/RELEASE/build\n"
"   -a ARCH    architecture for %( arch %) conditions\n"
"   -m MODULE* set probe module name\n"
"   -o FILE  * send script output to file\n"
"   -c CMD   * start the probes, run CMD, and exit when it finishes\n"
"   -x PID   * sets target() to PID\n"
"   -d PATH    add the symbols and unwind data of a program or library\n"
"   --ldd      add those of the shared libraries the programs need\n"
"   -F         flight recorder: leave the module running (staprun -L; with -o,\n"
"              staprun -D: in the background, writing FILE)\n"
"   -S MB[,N]  with -o: output files of at most MB megabytes, the N newest kept\n"
"   -b       * bulk (percpu file) mode\n"
"   -t       * collect probe timing information\n"
"   -T SECS  * terminate the script after SECS seconds\n"
"   -e SCRIPT  run given script\n"
"   --compatible VER  systemtap_v for %( %) conditions [" STAP_COMPAT_VERSION "]\n"
"   --no-global-var-display  do not print globals written but never read at the end\n"
"   --dump-probe-types    list the probe point families\n"
"   --dump-probe-aliases  list the library's probe aliases\n"
"   --dump-functions      list the library's functions\n", out);
}

static void die_usage(const char *fmt, const char *arg)
{
	fputs("stap: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\nTry '--help' for more information.\n", stderr);
	exit(1);
}

static void not_yet(const char *what)
{
	fprintf(stderr, "stap: %s is not yet supported by this version\n", what);
	exit(1);
}

static bool valid_assignment(const char *s, bool value_required)
{
	const char *eq = strchr(s, '=');
	const char *p;

	if (!isalpha((unsigned char)s[0]) && s[0] != '_')
		return false;
	for (p = s; *p && p != eq; p++)
		if (!isalnum((unsigned char)*p) && *p != '_')
			return false;
	return eq ? true : !value_required;
}

static long parse_long(const char *s, const char *what)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 0);
	if (errno || *end || end == s)
		die_usage(what, s);
	return v;
}

static void parse_options(struct session *s, struct arena *a, int argc,
			  char **argv)
{
	int c, i, longindex = 0;

	opterr = 0;
	while ((c = getopt_long(argc, argv, short_options, long_options,
				&longindex)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			exit(0);
		case 'V':
			printf("Clean-room SystemTap translator/driver (version %s, compatible with SystemTap %s)\n",
			       STAP_VERSION, STAP_COMPAT_VERSION);
			exit(0);
		case 'p':
			s->last_pass = (int)parse_long(optarg, "Invalid pass number '%s' (should be 1-5).");
			if (s->last_pass < 1 || s->last_pass > 5)
				die_usage("Invalid pass number '%s' (should be 1-5).", optarg);
			break;
		case 'v':
			for (i = 0; i < 5; i++)
				s->verbose[i]++;
			break;
		case OPT_VP:
			if (strlen(optarg) > 5 || strspn(optarg, "0123456789") != strlen(optarg))
				die_usage("Invalid --vp argument '%s': give up to 5 digits.", optarg);
			for (i = 0; optarg[i]; i++)
				s->verbose[i] += optarg[i] - '0';
			break;
		case 'k': s->keep_tmp = true; break;
		case 'g': s->guru = true; break;
		case 'P': break;	/* prologue searching: the default */
		case 'u': s->unoptimized = true; break;
		case 'w': s->no_warnings = true; break;
		case 'W': s->warnings_as_errors = true; break;
		case 'b': s->bulk = true; break;
		case 't': s->timing = true; break;
		case 's':
			s->buffer_mb = (int)parse_long(optarg, "Invalid buffer size '%s'.");
			if (s->buffer_mb < 1 || s->buffer_mb > 4095)
				die_usage("Invalid buffer size '%s' (should be 1-4095 MB).", optarg);
			break;
		case 'I': strlist_push(a, &s->include_dirs, optarg); break;
		case 'D':
			if (!valid_assignment(optarg, false))
				die_usage("Invalid -D macro definition '%s' (use NAME or NAME=VALUE).", optarg);
			strlist_push(a, &s->defines, optarg);
			break;
		case 'B': strlist_push(a, &s->kbuild_vars, optarg); break;
		case 'G':
			if (!valid_assignment(optarg, true))
				die_usage("Invalid -G global assignment '%s' (use NAME=VALUE).", optarg);
			strlist_push(a, &s->globals, optarg);
			break;
		case 'R': s->runtime_dir = optarg; break;
		case 'r':	/* the last -r names the kernel: a tree or a release */
			if (strchr(optarg, '/')) {
				s->kernel_build_dir = optarg;
				s->kernel_release = NULL;
			} else {
				s->kernel_release = optarg;
				s->kernel_build_dir = NULL;
			}
			break;
		case 'a': s->arch = optarg; break;
		case 'm':
			if (!valid_assignment(optarg, false) || strchr(optarg, '='))
				die_usage("Invalid module name '%s' (letters, digits and _ only).", optarg);
			s->module_name = optarg;
			break;
		case 'o': s->output_file = optarg; break;
		case 'c': s->target_cmd = optarg; break;
		case 'x':
			s->target_pid = parse_long(optarg, "Invalid target process ID '%s'.");
			break;
		case 'e':
			if (s->script_text)
				die_usage("Only one script can be given with -e%s.", "");
			s->script_text = optarg;
			break;
		case 'T':
			s->timeout_s = parse_long(optarg, "Invalid timeout '%s'.");
			break;
		case 'l':
		case 'L':
			s->list_mode = c == 'l' ? LIST_PROBES : LIST_PROBES_VARS;
			s->list_pattern = optarg;
			break;
		case OPT_DUMP_PROBE_TYPES: s->dump = DUMP_PROBE_TYPES; break;
		case OPT_DUMP_PROBE_ALIASES: s->dump = DUMP_PROBE_ALIASES; break;
		case OPT_DUMP_FUNCTIONS: s->dump = DUMP_FUNCTIONS; break;
		case OPT_COMPATIBLE: s->compatible = optarg; break;
		case OPT_NO_GLOBAL_DISPLAY: s->no_global_display = true; break;
		case OPT_DISABLE_CACHE: s->no_cache = true; break;
		case OPT_KBUILD: s->kbuild = true; break;
		case OPT_SKIP_BADVARS: s->skip_badvars = true; break;
		case OPT_COLOR:
			if (sgr_when(optarg ? optarg : "always", &s->color_mode))
				die_usage("invalid argument '%s' for --color (never, always or auto)",
					  optarg);
			break;
		case OPT_MONITOR:
			s->monitor = optarg ? atoi(optarg) : 1;
			if (s->monitor < 1 || (optarg && strspn(optarg, "0123456789") != strlen(optarg)))
				die_usage("invalid argument '%s' for --monitor (seconds, 1 or more)",
					  optarg);
			break;
		case OPT_SYSROOT: s->sysroot = optarg; break;
		case OPT_REMOTE:
			if (strncmp(optarg, "qemu", 4) || (optarg[4] && optarg[4] != ':'))
				die_usage("Unsupported --remote target '%s' (only qemu[:6.1|:6.12|:RELEASE] is).", optarg);
			s->remote = optarg[4] ? optarg + 5 : "";
			break;
		case 'E': not_yet("-E (additional script)"); break;
		case 'F': s->flight_recorder = true; break;
		case 'S': s->rotate = optarg; break;
		case 'd':
			/* The kernel and its modules are symbolised at run
			 * time through the kernel's own kallsyms (%pS), which
			 * knows every loaded module: nothing to add for them.
			 * A path (or an existing file) is a program or a
			 * shared library: its symbols go into the module. */
			if (strchr(optarg, '/') || access(optarg, F_OK) == 0)
				strlist_push(a, &s->user_objs, optarg);
			break;
		case OPT_LDD: s->ldd = true; break;
		case OPT_ALL_MODULES: break;	/* as -d MODULE, for every module */
		case 'i': not_yet("-i (interactive mode)"); break;
		case 'C': not_yet("-C (colour)"); break;
		case OPT_UNSUPPORTED:
			fprintf(stderr, "stap: option '--%s' is not yet supported by this version\n",
				long_options[longindex].name);
			exit(1);
		case '?':
		default:
			if (optopt)
				fprintf(stderr, "stap: invalid option or missing argument: -%c\n", optopt);
			else
				fprintf(stderr, "stap: invalid option '%s'\n", argv[optind - 1]);
			fputs("Try '--help' for more information.\n", stderr);
			exit(1);
		}
	}
	if (s->list_mode != LIST_NONE || s->dump != DUMP_NONE) {
		s->script_name = "<listing>";
		return;
	}
	if (!s->script_text) {
		if (optind >= argc)
			die_usage("A script must be specified.%s", "");
		s->script_file = argv[optind++];
	}
	for (; optind < argc; optind++)
		strlist_push(a, &s->args, argv[optind]);
	s->script_name = s->script_text || !strcmp(s->script_file, "-") ?
		"<input>" : s->script_file;
}

/* ---- -v pass statistics ---- */

struct pass_clock {
	struct timespec real;
	struct rusage ru;
};

static void clock_start(struct pass_clock *c)
{
	clock_gettime(CLOCK_MONOTONIC, &c->real);
	getrusage(RUSAGE_SELF, &c->ru);
}

static long tv_ms(const struct timeval *a, const struct timeval *b)
{
	return (b->tv_sec - a->tv_sec) * 1000 + (b->tv_usec - a->tv_usec) / 1000;
}

/* "using Nvirt/Nres/Nshr/Ndata kb, in Nusr/Nsys/Nreal ms." */
static void print_usage_since(const struct pass_clock *c)
{
	struct timespec now;
	struct rusage ru;
	long page_kb = sysconf(_SC_PAGESIZE) / 1024;
	long vsz = 0, rss = 0, shr = 0, text = 0, lib = 0, data = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f) {
		if (fscanf(f, "%ld %ld %ld %ld %ld %ld", &vsz, &rss, &shr,
			   &text, &lib, &data) != 6)
			vsz = rss = shr = data = 0;
		fclose(f);
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	getrusage(RUSAGE_SELF, &ru);
	fprintf(stderr, "using %ldvirt/%ldres/%ldshr/%lddata kb, in %ldusr/%ldsys/%ldreal ms.\n",
		vsz * page_kb, rss * page_kb, shr * page_kb, data * page_kb,
		tv_ms(&c->ru.ru_utime, &ru.ru_utime),
		tv_ms(&c->ru.ru_stime, &ru.ru_stime),
		(long)((now.tv_sec - c->real.tv_sec) * 1000 +
		       (now.tv_nsec - c->real.tv_nsec) / 1000000));
}

/* ---- pass 1 ---- */

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Load every .stpm of @dir (sorted by name); returns how many. */
static unsigned load_macro_dir(struct parse_env *env, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	unsigned loaded = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (len < 6 || strcmp(de->d_name + len - 5, ".stpm"))
			continue;
		if (n == cap) {
			char **nn;

			cap = cap ? cap * 2 : 16;
			nn = realloc(names, cap * sizeof(*names));
			if (!nn)
				break;
			names = nn;
		}
		names[n++] = arena_printf(env->arena, "%s/%s", dir, de->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_names);
	for (i = 0; i < n; i++) {
		struct source *src = source_from_file(env->arena, names[i], names[i]);

		if (!src) {
			diag_report(env->diag, DIAG_ERROR, NULL, NULL,
				    "cannot read macro file %s: %s", names[i],
				    strerror(errno));
			continue;
		}
		src->library = true;
		parse_macro_file(env, src);
		loaded++;
	}
	free(names);
	return loaded;
}

/* The tapset search path's macro files: each DIR, DIR/linux, DIR/ARCH and
 * DIR/linux/ARCH, built-in library first, then -I directories. */
static unsigned load_macro_library(struct parse_env *env, const struct session *s)
{
	const char *sub[4];
	unsigned n = 0;
	int i, j;

	sub[0] = "";
	sub[1] = "/linux";
	sub[2] = arena_printf(env->arena, "/%s", s->arch);
	sub[3] = arena_printf(env->arena, "/linux/%s", s->arch);
	for (i = -1; i < s->include_dirs.n; i++) {
		const char *dir = i < 0 ? s->tapset_dir : s->include_dirs.v[i];

		for (j = 0; j < 4; j++)
			n += load_macro_dir(env, arena_printf(env->arena, "%s%s",
							      dir, sub[j]));
	}
	return n;
}

static int pass1(struct parse_env *env, const struct session *s,
		 struct ast_file **out)
{
	struct source *src;
	struct pass_clock clk;
	unsigned nlib;

	SDT_MARK1(stap, pass1a__start, s);
	clock_start(&clk);
	nlib = load_macro_library(env, s);
	if (s->script_text) {
		src = source_from_mem(env->arena, s->script_name, s->script_text,
				      strlen(s->script_text));
	} else {
		src = source_from_file(env->arena, s->script_name, s->script_file);
		if (!src) {
			diag_report(env->diag, DIAG_ERROR, NULL, NULL,
				    "cannot read script file '%s': %s",
				    s->script_file, strerror(errno));
			return -1;
		}
	}
	/* the library scripts are parsed as pass 2 needs them: pass1b
	 * marks the end of the user script's parse */
	SDT_MARK1(stap, pass1b__start, s);
	*out = parse_file(env, src, false);
	if (s->verbose[0]) {
		fprintf(stderr, "Pass 1: parsed user script and %u library scripts ",
			nlib);
		print_usage_since(&clk);
	}
	if (env->diag->parse_errors) {
		fprintf(stderr, "%u parse error%s.\n", env->diag->parse_errors,
			env->diag->parse_errors == 1 ? "" : "s");
	}
	if (env->diag->suppressed)
		fprintf(stderr, "Number of similar error messages suppressed: %u.\n",
			env->diag->suppressed);
	SDT_MARK1(stap, pass1__end, s);
	if (diag_errors(env->diag))
		return -1;
	return 0;
}

/* ---- pass 2 ---- */

static void report_counts(struct diag *d)
{
	if (d->suppressed)
		fprintf(stderr, "Number of similar error messages suppressed: %u.\n",
			d->suppressed);
	if (d->similar_warnings)
		fprintf(stderr, "Number of similar warning messages suppressed: %u.\n"
			"Rerun with -v to see them.\n", d->similar_warnings);
	d->similar_warnings = 0;
}

static int pass2(struct parse_env *env, const struct session *s,
		 struct ast_file *file, struct elab *e)
{
	struct pass_clock clk;
	size_t i, np = 0, nf = 0, ng = 0;
	int rc;

	SDT_MARK1(stap, pass2__start, s);
	clock_start(&clk);
	elab_init(e, env);
	rc = elab_run(e, file);
	SDT_MARK1(stap, pass2__end, s);
	if (s->verbose[1] && rc == 0) {
		for (i = 0; i < e->out.probes.n; i++) {
			const struct elab_probe *p = e->out.probes.v[i];

			if (!p->elided)
				np += p->points.n;
		}
		for (i = 0; i < e->out.func_list.n; i++)
			nf += ((const struct elab_func *)e->out.func_list.v[i])->used;
		for (i = 0; i < e->out.global_list.n; i++)
			ng += !((const struct elab_var *)e->out.global_list.v[i])->elided;
		fprintf(stderr, "Pass 2: analyzed script: %zu probe%s, %zu function%s, "
			"%zu embed%s, %zu global%s ", np, np == 1 ? "" : "s",
			nf, nf == 1 ? "" : "s", e->out.embeds.n,
			e->out.embeds.n == 1 ? "" : "s", ng, ng == 1 ? "" : "s");
		print_usage_since(&clk);
	}
	report_counts(env->diag);
	return rc;
}

/* ---- passes 3-5 ---- */

#define NAME_MARK "@@STAP_MODULE_NAME@@"

/* Replace each NAME_MARK in @text by @name. */
static char *with_name(struct arena *a, const char *text, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p;

	while ((p = strstr(text, NAME_MARK))) {
		sb_addn(&sb, text, (size_t)(p - text));
		sb_adds(&sb, name);
		text = p + strlen(NAME_MARK);
	}
	sb_adds(&sb, text);
	return sb_to_arena(&sb, a);
}

/* Pass 4's end (-p4: NAME.ko into the current directory) or pass 5, with
 * module @ko named @name (@tmp: its temporary directory, or NULL). */
static int pass45(struct parse_env *env, const struct session *s, struct kernel_info *ki,
		  struct arena *a, const char *ko, const char *name, const char *tmp)
{
	int rc;

	if (s->last_pass == 4) {
		const char *local = arena_printf(a, "%s.ko", name);
		FILE *in = fopen(ko, "rb"), *out = in ? fopen(local, "wb") : NULL;
		char chunk[65536];
		size_t n;

		while (in && out && (n = fread(chunk, 1, sizeof(chunk), in)) > 0)
			fwrite(chunk, 1, n, out);
		if (in)
			fclose(in);
		if (!out || fclose(out)) {
			diag_fail(env->diag, -EIO, NULL, "cannot copy the module to %s", local);
			rc = 1;
		} else {
			puts(local);
			rc = 0;
		}
	} else {
		SDT_MARK1(stap, pass5__start, s);
		rc = run_module(s, env->diag, a, ko, ki->release);
		SDT_MARK1(stap, pass5__end, s);
	}
	build_remove_tmp(tmp);
	return rc;
}

/* The diagnostics' stream: stderr, and a copy kept for the early cache's
 * entry (printed again on a hit). */
/* The messages go to stderr and, without --color's escape sequences
 * (ESC [ ... m / K), into the copy the early cache replays. */
static ssize_t tee_write(void *cookie, const char *buf, size_t n)
{
	size_t i = 0, j;

	while (i < n) {
		if (buf[i] == '\033' && i + 1 < n && buf[i + 1] == '[') {
			for (j = i + 2; j < n && (buf[j] == ';' || (buf[j] >= '0' && buf[j] <= '9')); j++)
				;
			i = j < n ? j + 1 : n;
			continue;
		}
		sb_addc(cookie, buf[i++]);
	}
	return (ssize_t)fwrite(buf, 1, n, stderr);
}

static bool elab_inputs(void *ctx, void (*fn)(void *arg, const char *path), void *arg)
{
	return dw_inputs(ctx, fn, arg);
}

static int pass345(struct parse_env *env, const struct session *s,
		   struct elab *e, struct kernel_info *ki, struct arena *a,
		   const char *early, const struct strbuf *diag_copy)
{
	struct pass_clock clk;
	char *buf = NULL, hash[33];
	size_t len = 0;
	const char *name, *text, *ko, *tmp;
	FILE *mem;
	int rc;

	SDT_MARK1(stap, pass3__start, s);
	clock_start(&clk);
	mem = open_memstream(&buf, &len);
	if (!mem)
		return 1;
	rc = translate(&e->out, s, NAME_MARK, mem);
	fclose(mem);
	SDT_MARK1(stap, pass3__end, s);
	report_counts(env->diag);
	if (rc) {
		free(buf);
		fputs("Pass 3: translation failed.  [man error::pass3]\n", stderr);
		return 1;
	}
	hash_hex(buf, len, "name", hash);
	name = s->module_name ? s->module_name : arena_printf(a, "stap_%.16s", hash);
	text = with_name(a, buf, name);
	free(buf);
	if (s->verbose[2]) {
		fprintf(stderr, "Pass 3: translated to C for module %s ", name);
		print_usage_since(&clk);
	}
	if (s->last_pass == 3) {
		fputs(text, stdout);
		return 0;
	}
	SDT_MARK1(stap, pass4__start, s);
	clock_start(&clk);
	rc = build_module(s, env->diag, ki, a, text, name, &ko, &tmp);
	SDT_MARK1(stap, pass4__end, s);
	if (rc < 0) {
		fputs("Pass 4: compilation failed.  [man error::pass4]\n", stderr);
		return 1;
	}
	if (s->verbose[3]) {
		fprintf(stderr, "Pass 4: compiled C into \"%s\" ", ko);
		print_usage_since(&clk);
	}
	/* an early entry for the next run: only after a run that said
	 * nothing (a hit prints nothing of passes 1-3) */
	if (early && !tmp && !diag_errors(env->diag))
		early_record(a, early, ko, name, sb_str(diag_copy), elab_inputs, e);
	return pass45(env, s, ki, a, ko, name, tmp);
}

/* -l, -L and the --dump-* options; exit status 0 iff something listed. */
static int listing(struct parse_env *env, const struct session *s,
		   struct elab *e)
{
	int n;

	load_macro_library(env, s);
	elab_init(e, env);
	tapset_index_load(e);
	if (diag_errors(env->diag))
		return 1;
	if (s->dump == DUMP_PROBE_TYPES) {
		pm_dump_types(e, stdout);
		return 0;
	}
	if (s->dump == DUMP_PROBE_ALIASES) {
		elab_print_aliases(e, stdout);
		return diag_errors(env->diag) ? 1 : 0;
	}
	if (s->dump == DUMP_FUNCTIONS) {
		elab_print_functions(e, stdout);
		return diag_errors(env->diag) ? 1 : 0;
	}
	n = pm_list(e, s->list_pattern, s->list_mode == LIST_PROBES_VARS, stdout);
	return n > 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
	struct arena *arena = arena_new();
	struct session sess;
	struct diag diag;
	struct kernel_info kinfo;
	struct parse_env env;
	struct ast_file *file = NULL;
	struct elab elab = { 0 };
	const char *early, *ko, *name, *warned;
	struct strbuf diag_copy = STRBUF_INIT;
	struct sgr sgr;
	FILE *diag_out;
	int rc = 0;

	session_init(&sess, arena);
	parse_options(&sess, arena, argc, argv);
	sess.tapset_dir = session_tapset_dir();
	sess.stap_exe = session_self_exe(arena);
	sess.staprun_exe = staprun_path(arena, sess.remote != NULL);
	SDT_MARK1(stap, pass0__start, &sess);

	diag_out = fopencookie(&diag_copy, "w", (cookie_io_functions_t){ .write = tee_write });
	if (diag_out)
		setvbuf(diag_out, NULL, _IONBF, 0);
	diag_init(&diag, diag_out ? diag_out : stderr);
	diag.no_warnings = sess.no_warnings;
	diag.warnings_are_errors = sess.warnings_as_errors;
	diag.show_origin = sess.verbose[0] >= 2;
	sgr_init(&sgr, sess.color_mode, STDERR_FILENO);
	diag.sgr = &sgr;
	sess.color_on = sgr.on;
	if (sess.remote)
		sess.fetch_debuginfo = vm_fetch_debuginfo;
	if (sess.remote && !sess.kernel_release && !sess.kernel_build_dir) {
		if (vm_release(&sess, &diag, arena, &sess.kernel_release) < 0) {
			rc = 1;
			goto out;
		}
	}
	kernel_info_init(&kinfo, arena, sess.kernel_release,
			 sess.kernel_build_dir);
	parse_env_init(&env, arena, &diag, &sess, &kinfo);
	SDT_MARK1(stap, pass0__end, &sess);

	if (sess.list_mode != LIST_NONE || sess.dump != DUMP_NONE) {
		rc = listing(&env, &sess, &elab);
		goto out;
	}
	/* the module cache, before anything is parsed (early.c) */
	early = early_key(&sess, &kinfo, arena, argc, argv);
	if (early && early_lookup(arena, early, &ko, &name, &warned) == 0) {
		fputs(warned, stderr);
		if (sess.verbose[3])
			fprintf(stderr, "Pass 4: using cached %s (before pass 1)\n", ko);
		rc = pass45(&env, &sess, &kinfo, arena, ko, name, NULL);
		goto out;
	}
	if (pass1(&env, &sess, &file) < 0) {
		fputs("Pass 1: parse failed.  [man error::pass1]\n", stderr);
		rc = 1;
		goto out;
	}
	if (sess.last_pass == 1) {
		fputs("# parse tree dump\n", stdout);
		ast_print_file(stdout, file);
		goto out;
	}
	if (pass2(&env, &sess, file, &elab) < 0) {
		fputs("Pass 2: analysis failed.  [man error::pass2]\n", stderr);
		rc = 1;
		goto out;
	}
	if (sess.last_pass == 2) {
		elab_print(&elab, stdout, sess.verbose[1] > 0);
		goto out;
	}
	rc = pass345(&env, &sess, &elab, &kinfo, arena, early, &diag_copy);
out:
	SDT_MARK1(stap, pass6__start, &sess);
	if (fflush(stdout) != 0)
		rc = 1;
	dw_close_all(&elab);	/* libdw handles, the function index images */
	diag_release(&diag);
	if (diag_out)
		fclose(diag_out);
	sb_release(&diag_copy);
	arena_free(arena);
	SDT_MARK1(stap, pass6__end, &sess);
	return rc;
}
