// SPDX-License-Identifier: GPL-2.0-or-later
/* options.c: staprun's command line into struct staprun_opts. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "staprun/staprun.h"
#include "util/sgr.h"

static const char usage_text[] =
"Usage: staprun [-v] [-w] [-o FILE [-S MB[,N]]] [-c CMD | -x PID] [-D | -L]\n"
"               [-C WHEN] [-b] [-s MB] [-R] [-T SECONDS] [-M INTERVAL] MODULE [NAME=VALUE ...]\n"
"       staprun [-v] [-w] [-o FILE [-S MB[,N]]] [-b] [-T SECONDS] -A NAME\n"
"       staprun -d NAME\n"
"Load a module built by stap, stream its output, unload it when the script\n"
"ends, on SIGINT/SIGTERM/SIGHUP, or when CMD exits.\n"
"\n"
"  -v          more messages about what staprun does (repeatable)\n"
"  -w          do not show the script's warnings\n"
"  -o FILE     write the output to FILE instead of stdout; switch_file()\n"
"              and SIGUSR2 move it on to FILE.1, FILE.2, ...\n"
"  -S MB[,N]   with -o: files FILE.0, FILE.1, ... of at most MB megabytes\n"
"              each, the N newest kept\n"
"  -c CMD      run CMD once the probes are started (directly when it is\n"
"              simple words, else with /bin/sh -c); end the session when\n"
"              it exits; target() is its pid\n"
"  -x PID      target() returns PID\n"
"  -D          detach: run in the background once started (needs -o)\n"
"  -L          load and start the module, then exit and leave it running\n"
"              (flight recorder: its output waits in the module's buffers)\n"
"  -C WHEN     colour the messages' ERROR:/WARNING: (never, always, auto:\n"
"              when stderr is a terminal; SYSTEMTAP_COLORS as for stap)\n"
"  -A NAME     attach to the module NAME that -L left running: stream its\n"
"              output; the session ends (and NAME is unloaded) as usual\n"
"  -b          bulk mode: one output file per CPU (FILE_CPU, or stpd_cpuCPU)\n"
"  -s MB       output buffer per CPU, 1-4095 MB (default: the module's)\n"
"  -R          load a renamed copy (NAME_PID), so that the module may\n"
"              already be loaded\n"
"  -T SECONDS  end the session after SECONDS seconds\n"
"  -M INTERVAL monitor mode: the status of a module built with stap --monitor,\n"
"              refreshed every INTERVAL seconds; keys c s t p r x (staprun(8))\n"
"  -d NAME     unload the module NAME (or NAME.ko) that a killed staprun\n"
"              left loaded; '*' (quoted): every such module\n"
"  -V          print the version and exit\n"
"  -h          print this help and exit\n"
"\n"
"MODULE is a path to NAME.ko, or a NAME looked up as\n"
"/lib/modules/`uname -r`/systemtap/NAME.ko. NAME=VALUE sets a script global\n"
"(a number, or a string without white space).\n";

const char *opts_usage(void)
{
	return usage_text;
}

int staprun_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* A decimal number in [lo, hi]; no sign, no trailing text. */
static int parse_uint(const char *s, unsigned long lo, unsigned long hi,
		      unsigned long *out)
{
	unsigned long v;
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

int opts_parse(struct staprun_opts *o, int argc, char *const argv[],
	       char *err, size_t errlen)
{
	unsigned long v;
	int c, i;

	memset(o, 0, sizeof(*o));
	o->color_mode = 2;
	if (argc < 1)
		return staprun_fail(err, errlen, "Need a module name or path to load.");
	/* '+': stop at MODULE, so that its options are never taken for ours;
	 * ':' first: report a missing argument as ':' rather than '?'. */
	optind = 0;
	opterr = 0;
	while ((c = getopt(argc, argv, "+:vwo:S:c:x:DLA:C:bRs:T:M:d:Vh")) != -1) {
		switch (c) {
		case 'v':
			o->verbose++;
			break;
		case 'w':
			o->quiet_warnings = true;
			break;
		case 'o':
			if (!*optarg)
				return staprun_fail(err, errlen, "Empty output file name for '-o'.");
			o->outfile = optarg;
			break;
		case 'S': {
			char *comma = strchr(optarg, ',');

			if (comma)
				*comma = '\0';
			if (parse_uint(optarg, 1, 1048576, &v) ||
			    (comma && parse_uint(comma + 1, 1, INT_MAX, &o->rot_count)))
				return staprun_fail(err, errlen,
					    "Invalid output file size '%s' (should be MB[,N]: "
					    "1-1048576 MB, N files).", optarg);
			o->rot_size_mb = v;
			break;
		}
		case 'c':
			if (!*optarg)
				return staprun_fail(err, errlen, "Empty command for '-c'.");
			o->command = optarg;
			break;
		case 'x':
			if (parse_uint(optarg, 1, INT_MAX, &v))
				return staprun_fail(err, errlen,
					    "Invalid target process id '%s' (should be a positive number).",
					    optarg);
			o->target = (pid_t)v;
			break;
		case 'D':
			o->detach = true;
			break;
		case 'L':
			o->load_only = true;
			break;
		case 'C':
			if (sgr_when(optarg, &o->color_mode))
				return staprun_fail(err, errlen,
					    "Invalid option '%s' for -C (should be never, always or auto).",
					    optarg);
			break;
		case 'A':
			if (!*optarg)
				return staprun_fail(err, errlen, "Empty module name for '-A'.");
			o->action = ACT_ATTACH;
			o->module = optarg;
			break;
		case 'b':
			o->bulk = true;
			break;
		case 'R':
			o->rename = true;
			break;
		case 's':
			if (parse_uint(optarg, 1, 4095, &v))
				return staprun_fail(err, errlen,
					    "Invalid buffer size '%s' (should be 1-4095 MB).",
					    optarg);
			o->bufsize_mb = (unsigned int)v;
			break;
		case 'T':
			if (parse_uint(optarg, 1, INT_MAX / 1000, &v))
				return staprun_fail(err, errlen,
					    "Invalid timeout '%s' (should be a number of seconds, 1-%d).",
					    optarg, INT_MAX / 1000);
			o->timeout_s = (unsigned int)v;
			break;
		case 'M':
			if (parse_uint(optarg, 1, 86400, &v))
				return staprun_fail(err, errlen,
					    "Invalid monitor interval '%s' (should be 1-86400 seconds).",
					    optarg);
			o->monitor_s = (unsigned int)v;
			break;
		case 'd':
			if (!*optarg)
				return staprun_fail(err, errlen, "Empty module name for '-d'.");
			o->action = ACT_DELETE;
			o->module = optarg;
			return 0;
		case 'V':
			o->action = ACT_VERSION;
			return 0;
		case 'h':
			o->action = ACT_HELP;
			return 0;
		case ':':
			return staprun_fail(err, errlen, "Option '-%c' needs an argument.",
				    optopt);
		default:
			/* "--help": getopt reports '-' at the start of the word */
			if (optopt == '-')
				return staprun_fail(err, errlen,
					    "Invalid option '--' (staprun has no long options).");
			if (optopt > ' ' && optopt < 127)
				return staprun_fail(err, errlen, "Invalid option '-%c'.", optopt);
			return staprun_fail(err, errlen, "Invalid option character 0x%02x.",
				    (unsigned int)(unsigned char)optopt);
		}
	}
	if (o->command && o->target)
		return staprun_fail(err, errlen, "You can't give both '-c' and '-x'.");
	if (o->rot_size_mb && (!o->outfile || o->bulk))
		return staprun_fail(err, errlen,
			    "'-S' needs '-o FILE' (and no '-b').");
	if (o->action == ACT_ATTACH) {
		if (o->command || o->target || o->load_only || o->detach || o->rename ||
		    o->bufsize_mb)
			return staprun_fail(err, errlen,
				    "'-A' attaches to a running session: no '-c', '-x', "
				    "'-L', '-D', '-R' or '-s'.");
		if (optind < argc)
			return staprun_fail(err, errlen,
				    "'-A NAME' takes no module file or arguments.");
		return 0;
	}
	if (o->monitor_s && (o->load_only || o->detach))
		return staprun_fail(err, errlen,
			    "'-M' shows the session while staprun runs it: no '-L' or '-D'.");
	if (o->load_only && (o->detach || o->command || o->outfile || o->timeout_s))
		return staprun_fail(err, errlen,
			    "'-L' leaves the session running with nobody reading it: "
			    "no '-D', '-c', '-o' or '-T' (give '-o' to 'staprun -A').");
	if (o->detach && !o->outfile)
		return staprun_fail(err, errlen,
			    "'-D' needs '-o FILE': a detached session has no terminal for its output.");
	if (optind >= argc)
		return staprun_fail(err, errlen, "Need a module name or path to load.");
	o->module = argv[optind];
	if (!*o->module)
		return staprun_fail(err, errlen, "Empty module name.");
	o->modargs = argv + optind + 1;
	o->nmodargs = argc - optind - 1;
	for (i = 0; i < o->nmodargs; i++)
		if (params_check_modarg(o->modargs[i], err, errlen))
			return -1;
	return 0;
}
