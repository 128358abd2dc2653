/* SPDX-License-Identifier: GPL-2.0-or-later */
/* staprun.h: staprun's options and the interfaces between its files. */
#ifndef STAPRUN_STAPRUN_H
#define STAPRUN_STAPRUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>


/* Format a message into @err (@errlen bytes); returns -1. */
int staprun_fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The kernel's MODULE_NAME_LEN on 64-bit targets, terminating NUL included. */
#define STP_MODNAME_MAX 56

/* Size of the buffers that carry error messages back to main(). */
#define STP_ERRLEN 512

enum staprun_action {
	ACT_RUN,
	ACT_HELP,
	ACT_VERSION,
	ACT_DELETE,			/* -d NAME: unload a left-over module */
	ACT_ATTACH,			/* -A NAME: stream a -L module's output */
};

/* The command line, as parsed by opts_parse(); the strings point into argv. */
struct staprun_opts {
	enum staprun_action action;
	int verbose;			/* -v, repeatable */
	bool quiet_warnings;		/* -w: drop "WARNING:" messages */
	const char *outfile;		/* -o FILE */
	unsigned long rot_size_mb;	/* -S MB[,N]: rotate at MB (0: never) */
	unsigned long rot_count;	/* ... keeping the N newest (0: all) */
	const char *command;		/* -c CMD */
	pid_t target;			/* -x PID (0: none) */
	bool detach;			/* -D */
	bool load_only;			/* -L: start, then leave it running */
	int color_mode;			/* -C WHEN: 0 never, 1 always, 2 auto */
	bool bulk;			/* -b */
	unsigned int bufsize_mb;	/* -s MB (0: the module's default) */
	bool rename;			/* -R */
	unsigned int timeout_s;		/* -T SECONDS (0: none) */
	unsigned int monitor_s;		/* -M INTERVAL (0: no monitor) */
	const char *module;		/* MODULE(.ko) */
	char *const *modargs;		/* NAME=VALUE ... */
	int nmodargs;
};

/* options.c */

/*
 * opts_parse - parse staprun's command line into @o (zeroed first).
 * Returns 0, or -1 with a message (no "ERROR: " prefix) in @err; the caller
 * then prints it with the usage text. Uses getopt(3), restarted each call.
 */
int opts_parse(struct staprun_opts *o, int argc, char *const argv[],
	       char *err, size_t errlen);
/* opts_usage - the usage text, one string. */
const char *opts_usage(void);

/* params.c */

/*
 * params_check_modarg - check one NAME=VALUE module option: NAME is
 * [A-Za-z_][A-Za-z0-9_]*, VALUE has no white space. Returns 0 or -1 with @err.
 */
int params_check_modarg(const char *arg, char *err, size_t errlen);
/*
 * params_check_module - check @n NAME=VALUE options against the module's
 * own parameters (.modinfo parmtype): NAME must be one (the kernel only
 * warns about an unknown one and loads the module anyway), and the VALUE
 * of a number must be one. Returns 0 or -1 with @err.
 */
struct mod_image;
int params_check_module(const struct mod_image *img, char *const *args, int n,
			char *err, size_t errlen);
/*
 * params_build - the module parameter string of doc/transport.md for @o,
 * with @target as _stp_target (0: none). Returns a malloc'd string the
 * caller frees, or NULL with @err set (bad option, out of memory).
 */
char *params_build(const struct staprun_opts *o, pid_t target,
		   char *err, size_t errlen);
/*
 * params_module_path - the file for the MODULE argument @arg: @arg itself
 * when it holds a '/', ends in ".ko" or names an existing file, else
 * /lib/modules/RELEASE/systemtap/ARG.ko. Returns 0, or -1 when @len is short.
 */
int params_module_path(const char *arg, char *buf, size_t len);

/* ctl.c: the records read from .stp_ctl. */

enum ctl_kind {
	CTL_MSG,	/* M TEXT */
	CTL_EXIT,	/* X STATUS */
	CTL_DONE,	/* D STATUS */
	CTL_SYSTEM,	/* S COMMAND: system() */
	CTL_SWITCH,	/* F: switch_file() */
	CTL_UNKNOWN,	/* anything else (text holds the line) */
};

struct ctl_record {
	enum ctl_kind kind;
	int status;		/* X, D: 0-255 (a malformed status reads as 1) */
	const char *text;	/* M: the message; UNKNOWN: the line */
};

/* Longest record kept; the rest of a longer line is dropped. */
#define CTL_LINE_MAX 4096

/* Splits the byte stream of .stp_ctl into lines. Zero-initialise. */
struct ctl_reader {
	char line[CTL_LINE_MAX + 1];
	size_t len;
};

/* ctl_parse_line - classify one record (no newline) in place. */
void ctl_parse_line(char *line, struct ctl_record *r);
/*
 * ctl_feed - pass @n bytes read from .stp_ctl; @cb is called with each
 * complete record in order. A non-zero return of @cb stops the feed and is
 * returned (the remaining bytes are dropped); otherwise returns 0.
 */
int ctl_feed(struct ctl_reader *cr, const char *data, size_t n,
	     int (*cb)(void *arg, const struct ctl_record *r), void *arg);

/* output.c */

/*
 * write_all - write all @n bytes to @fd, retrying after EINTR, partial
 * writes and EAGAIN (waiting for POLLOUT). Returns 0 or -errno.
 */
int write_all(int fd, const void *buf, size_t n);

/* Bulk mode: demultiplexes [u32 cpu][u32 len][bytes] records of .stp_out. */
#define BULK_MAX_CPUS 8192

struct bulk_out {
	const char *prefix;	/* files are PREFIX_CPU, or stpd_cpuCPU */
	int *fds;		/* per CPU, -1 until opened */
	unsigned int nfds;
	unsigned char hdr[8];	/* header bytes collected so far */
	unsigned int hdrlen;
	uint32_t cpu;		/* current record */
	uint32_t left;		/* payload bytes still to come */
};

/* bulk_init - @prefix is the -o FILE (NULL: "stpd_cpu" without '_'). */
void bulk_init(struct bulk_out *b, const char *prefix);
/*
 * bulk_feed - pass @n bytes of .stp_out; records may be split anywhere.
 * Returns 0, or -1 with @err set (bad CPU number, a file that cannot be
 * opened or written).
 */
int bulk_feed(struct bulk_out *b, const char *data, size_t n,
	      char *err, size_t errlen);
/* out_file_name - the name of output file number @seq of -o FILE into
 * @buf: FILE for the first without -S, else FILE.SEQ; -1 if too long. */
int out_file_name(const struct staprun_opts *o, unsigned int seq, char *buf,
		  size_t len);
/* bulk_file_name - the output file of @cpu into @buf; -1 if too long. */
int bulk_file_name(const struct bulk_out *b, unsigned int cpu, char *buf,
		   size_t len);
/* bulk_pending - non-zero when a record was cut short. */
int bulk_pending(const struct bulk_out *b);
/* bulk_close - close every file; returns 0 or -errno of a failed close. */
int bulk_close(struct bulk_out *b);

/* modelf.c: the few things staprun needs from a module's ELF image. */

struct mod_image {
	unsigned char *data;	/* the whole file */
	size_t size;
};

/*
 * modelf_read - read the module file open on @fd into @img (malloc'd; free
 * with modelf_free). Returns 0 or -errno (-EFBIG beyond 1 GiB, -EINVAL for
 * something other than a regular file).
 */
int modelf_read(int fd, struct mod_image *img);
void modelf_free(struct mod_image *img);
/*
 * modelf_name - the module's name from its .gnu.linkonce.this_module
 * (struct module) or .modinfo "name=". Returns 0 or -1 (not a module).
 */
int modelf_name(const struct mod_image *img, char name[STP_MODNAME_MAX]);
/*
 * modelf_modinfo - the value of .modinfo's first "KEY=" entry, a
 * NUL-terminated string inside the image, or NULL.
 */
const char *modelf_modinfo(const struct mod_image *img, const char *key);
/*
 * modelf_param_type - the type of module parameter @name from .modinfo's
 * "parmtype=NAME:TYPE" ("long", "string", "uint", ...) copied into @buf,
 * or NULL when the module has no such parameter.
 */
const char *modelf_param_type(const struct mod_image *img, const char *name,
			      char *buf, size_t len);
/*
 * modelf_rename - rename the module in the image to @name (at most
 * STP_MODNAME_MAX - 1 characters): struct module's name and .modinfo's
 * "name=" (overwritten when it fits, else blanked, as the kernel then uses
 * struct module's). Returns 0 or -1 with @err set.
 */
int modelf_rename(struct mod_image *img, const char *name, char *err,
		  size_t errlen);

/* load.c */

/*
 * load_module - insert the module file open on @fd (or @img when it is
 * non-NULL: a renamed copy, -R) with @params. Returns 0 or -errno, having
 * printed "ERROR: Couldn't insert module ..." and a hint.
 */
int load_module(int fd, const struct mod_image *img, const char *path,
		const char *name, const char *params, const char *vermagic);
/* load_hint - advice for an errno of module insertion, or NULL. */
const char *load_hint(int err);
/*
 * unload_module - delete_module(@name, O_NONBLOCK), retried a few times
 * while the kernel says busy. Returns 0 or -errno, having printed an error.
 */
int unload_module(const char *name, int verbose);
/* attach_name - ARG ("NAME", "NAME.ko", "dir/NAME.ko") of -A to the name of
 * a loaded stap module in @name; -1 after a message when it is none. */
int attach_name(const char *arg, char name[STP_MODNAME_MAX]);
/*
 * delete_modules - staprun -d ARG: unload the stap module ARG (a name, or
 * a path to NAME.ko; '-' read as '_'), or with ARG "*" every loaded module
 * that has a /proc/systemtap/NAME directory. Only modules with that
 * directory (ours) are unloaded. Returns staprun's exit status.
 */
int delete_modules(const char *arg, int verbose);

/* target.c: the -c command. */

struct target_cmd {
	pid_t pid;		/* 0: none, or already reaped */
	int go_fd;		/* write end of the pipe the child waits on */
	int status;		/* wait status once reaped */
};

/*
 * target_spawn - fork a child that waits until target_release() and then
 * runs `/bin/sh -c @cmd` with the signal mask @mask restored. Returns 0 or
 * -errno.
 */
int target_spawn(struct target_cmd *t, const char *cmd, const void *mask);
/* target_release - let the child exec (@go) or make it exit 127 (!@go). */
void target_release(struct target_cmd *t, bool go);
/* target_reap - non-blocking waitpid; returns 1 when the child has exited. */
int target_reap(struct target_cmd *t);
/* target_end - SIGTERM a child still running at the end and reap it. */
void target_end(struct target_cmd *t);

/* daemon.c: -D. */

/*
 * detach_prepare - fork; the parent waits until the child calls
 * detach_done() and exits 0 (or with the child's status if it ended first);
 * only the child returns. Returns 0 or -errno (no fork happened).
 */
int detach_prepare(int *notify_fd);
/* detach_done - in the child: start a new session, stdio to /dev/null,
 * tell the parent to exit. */
void detach_done(int notify_fd);

/* session.c */

/*
 * run_session - after the module @name is loaded: open its files, start
 * (then release the -c command @t and finish -D's detaching on @detach_fd,
 * -1 without -D), stream the output to @dest_fd (not in bulk mode) until
 * the session ends. @sigfd is a signalfd for SIGINT, SIGTERM, SIGHUP and
 * SIGCHLD. Returns the exit status: the script's (D STATUS), or 1 if
 * staprun failed.
 */
int run_session(const struct staprun_opts *o, const char *name, int sigfd,
		struct target_cmd *t, int detach_fd, int dest_fd);

/* monitor_fmt.c: the monitor file's status (doc/monitor.md). */
struct mon_global {
	char kind[16];		/* long, string, array, stat, statarray */
	char *name, *value;	/* value: a number, the text, an entry count */
};
struct mon_probe {
	unsigned int idx;
	char state[8];		/* on, off, fixed (begin/end/error) */
	unsigned long long hits, ns, min_ns, max_ns;
	char *pp;
};
struct mon_status {
	unsigned long long uptime_ms;
	char module[64];
	unsigned int uid;
	long long memory;	/* bytes the runtime allocated */
	char state[16];		/* running, stopped */
	struct mon_global *g;
	size_t ng;
	struct mon_probe *p;
	size_t np;
};
enum mon_sort { MON_SORT_INDEX, MON_SORT_HITS, MON_SORT_AVG, MON_SORT_NAME, MON_SORT_COUNT };
/* How to render: @width columns (0: no limit), at most @max_lines lines
 * (0: no limit; the probes are cut, "... N more"), @prompt instead of the
 * keys' line when set. */
struct mon_view {
	int width, max_lines;
	enum mon_sort sort;
	const char *prompt;
};
/* mon_parse - @text (the file's contents) into @st. Returns 0, or -1 for
 * a malformed line or no "module" line (@st then empty). Free with
 * mon_status_free. */
int mon_parse(const char *text, struct mon_status *st);
void mon_status_free(struct mon_status *st);
/* mon_sort - order the probes by @key (hits and time: most first; ties
 * by index). */
void mon_sort(struct mon_status *st, enum mon_sort key);
const char *mon_sort_name(enum mon_sort key);
/* mon_render - the status window as plain lines. Returns their number. */
int mon_render(FILE *f, const struct mon_status *st, const struct mon_view *v);

/* monitor.c: -M's loop side. */
struct monitor;
/*
 * monitor_open - for module @name: opens its monitor file; when stdout is
 * a terminal, puts stdin in raw mode and reserves the status window at the
 * top of the screen. Returns NULL with a message on stderr (no monitor
 * file: the module was not built with stap --monitor).
 */
struct monitor *monitor_open(const char *name, unsigned int interval_s);
/* The fds to poll: the interval's timer and the keys (stdin, or -1). */
int monitor_timer_fd(const struct monitor *m);
int monitor_key_fd(const struct monitor *m);
/* monitor_tick - the timer fired: read the status and show it. */
void monitor_tick(struct monitor *m);
/* monitor_keys - stdin is readable: read and act on the keys. */
void monitor_keys(struct monitor *m);
/* monitor_close - the terminal back as it was; frees @m (NULL: no-op). */
void monitor_close(struct monitor *m);

#endif
