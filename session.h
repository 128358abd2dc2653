/* SPDX-License-Identifier: GPL-2.0-or-later */
/* session.h: the options of one stap run; read-only once parsed. */
#ifndef SESSION_H
#define SESSION_H

#include <stdbool.h>

#define STAP_COMPAT_VERSION "4.8"	/* systemtap_v and --compatible default */
#define STAP_VERSION "0.1"

enum list_mode {
	LIST_NONE,
	LIST_PROBES,		/* -l */
	LIST_PROBES_VARS,	/* -L */
};

enum dump_mode {
	DUMP_NONE,
	DUMP_PROBE_TYPES,
	DUMP_PROBE_ALIASES,
	DUMP_FUNCTIONS,
};

struct strlist {
	const char **v;
	int n;
};

struct arena;

struct session {
	/* The script: exactly one of these is set. */
	const char *script_file;	/* a path, or "-" for stdin */
	const char *script_text;	/* -e */
	const char *script_name;	/* "<input>" for -e, else the path */
	struct strlist args;		/* $1.. / @1.. */

	int last_pass;			/* -p, 1..5 */
	int verbose[5];			/* -v / --vp per pass */
	bool guru;			/* -g */
	bool unoptimized;		/* -u */
	bool skip_badvars;		/* --skip-badvars */
	int monitor;			/* --monitor[=N]: staprun -M N; 0: off */
	bool flight_recorder;		/* -F: staprun -L (-D with -o) */
	const char *rotate;		/* -S SIZE[,N]: staprun -S */
	int color_mode;			/* --color: 0 never, 1 always, 2 auto */
	bool color_on;			/* ... what it came to (staprun -C) */
	bool no_warnings;		/* -w */
	bool warnings_as_errors;	/* -W */
	bool keep_tmp;			/* -k */
	bool bulk;			/* -b */
	bool timing;			/* -t */
	int buffer_mb;			/* -s */
	long timeout_s;			/* -T */
	struct strlist include_dirs;	/* -I */
	struct strlist defines;		/* -D */
	struct strlist globals;		/* -G */
	const char *module_name;	/* -m */
	const char *output_file;	/* -o */
	const char *target_cmd;		/* -c */
	long target_pid;		/* -x */
	const char *runtime_dir;	/* -R */
	const char *compatible;		/* --compatible */

	/* Target kernel (-r): release string and build tree. */
	const char *kernel_release;
	const char *kernel_build_dir;
	const char *arch;		/* uname machine, or -a */

	enum list_mode list_mode;
	const char *list_pattern;
	enum dump_mode dump;

	const char *tapset_dir;		/* the built-in tapset library */
	/* The programs whose SDT markers the stap.* and staprun.* aliases
	 * probe (tapset/linux/stap_staticmarkers.stp): this stap's own file,
	 * the staprun that pass 5 runs; the tapset names them @__stap_exe
	 * and @__staprun_exe (parse_env_init). NULL: not known. */
	const char *stap_exe;
	const char *staprun_exe;
	bool no_global_display;		/* --no-global-var-display */
	struct strlist kbuild_vars;	/* -B NAME=VALUE */
	bool no_cache;			/* --disable-cache */
	bool kbuild;			/* --kbuild (or STAP_KBUILD=1): build with
					 * make, not the recorded commands */
	const char *remote;		/* --remote qemu[:WHAT]: WHAT or "" */
	const char *sysroot;		/* --sysroot DIR: programs named by absolute
					 * paths are read from DIR/PATH */
	struct strlist user_objs;	/* -d PATH: programs and libraries whose
					 * symbols (and unwind data) the module
					 * carries (translate/usyms.c) */
	bool ldd;			/* --ldd: and those of their DT_NEEDED
					 * libraries */
	/* --remote=qemu: pass 2 calls it when the kernel's DWARF is missing
	 * (@module NULL) or a module's: fetches the -dbg package's vmlinux of
	 * @release, and @module's .ko when given; returns the root holding
	 * boot/vmlinux-RELEASE and lib/modules/RELEASE, or NULL. */
	const char *(*fetch_debuginfo)(struct arena *a, const char *release,
				       const char *module);
};

/* Defaults: -p5, the host's architecture. */
void session_init(struct session *s, struct arena *a);
/* Append @s (not copied) to @l; storage in @a. */
void strlist_push(struct arena *a, struct strlist *l, const char *s);
/* Where the built-in tapset library lives for this binary. */
const char *session_tapset_dir(void);
/* The absolute path of the running program (/proc/self/exe) in @a, or
 * NULL when it cannot be read. */
const char *session_self_exe(struct arena *a);

#endif
