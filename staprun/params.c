// SPDX-License-Identifier: GPL-2.0-or-later
/* params.c: module names and paths, and the module parameter string
 * (doc/transport.md, "Loading"). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "staprun/staprun.h"

static bool is_ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_ident(char c)
{
	return is_ident_start(c) || (c >= '0' && c <= '9');
}

/* Characters the kernel's parameter parser would take as a separator. */
static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' ||
	       c == '\r';
}

int params_check_modarg(const char *arg, char *err, size_t errlen)
{
	const char *eq = strchr(arg, '=');
	const char *p;

	if (!eq)
		return staprun_fail(err, errlen,
			    "Invalid module option '%s' (use NAME=VALUE).", arg);
	if (eq == arg || !is_ident_start(arg[0]))
		return staprun_fail(err, errlen,
			    "Invalid module option '%s': NAME must be an identifier.",
			    arg);
	for (p = arg; p < eq; p++)
		if (!is_ident(*p))
			return staprun_fail(err, errlen,
				    "Invalid module option '%s': NAME must be an identifier.",
				    arg);
	for (p = eq + 1; *p; p++)
		if (is_space(*p))
			return staprun_fail(err, errlen,
				    "Invalid module option '%s': VALUE cannot hold white space.",
				    arg);
	return 0;
}

/* Appends to a growing string; returns -1 when out of memory. */
static int append(char **s, size_t *len, size_t *cap, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int append(char **s, size_t *len, size_t *cap, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		size_t room = *cap - *len;

		va_start(ap, fmt);
		n = vsnprintf(*s + *len, room, fmt, ap);
		va_end(ap);
		if (n < 0)
			return -1;
		if ((size_t)n < room) {
			*len += (size_t)n;
			return 0;
		}
		{
			size_t ncap = *cap * 2 + (size_t)n;
			char *ns = realloc(*s, ncap);

			if (!ns)
				return -1;
			*s = ns;
			*cap = ncap;
		}
	}
}

/* The local time zone now, for tz_gmtoff() and tz_name(): seconds west
 * of UTC (daylight saving time included) and the zone's abbreviation,
 * kept to the characters a module parameter can carry ("UTC" when the
 * zone is unknown). */
static void local_tz(long *west, char *name, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;
	size_t n = 0;
	const char *z;

	*west = 0;
	z = "UTC";
	if (localtime_r(&now, &tm)) {
		*west = -tm.tm_gmtoff;
		if (tm.tm_zone && tm.tm_zone[0])
			z = tm.tm_zone;
	}
	for (; z[n] && n + 1 < len; n++)
		name[n] = is_ident(z[n]) || z[n] == '+' || z[n] == '-' ? z[n] : '_';
	name[n] = '\0';
}

char *params_build(const struct staprun_opts *o, pid_t target,
		   char *err, size_t errlen)
{
	size_t len = 0, cap = 128;
	char *s = malloc(cap);
	char tzname[16];
	long west;
	int i, r = 0;

	if (!s) {
		staprun_fail(err, errlen, "Out of memory.");
		return NULL;
	}
	s[0] = '\0';
	/* a separator before each parameter but the first */
#define SEP (len ? " " : "")
	if (o->bufsize_mb)
		r |= append(&s, &len, &cap, "%s_stp_bufsize=%llu", SEP,
			    (unsigned long long)o->bufsize_mb * 1048576ULL);
	if (target > 0)
		r |= append(&s, &len, &cap, "%s_stp_target=%ld", SEP,
			    (long)target);
	if (o->bulk)
		r |= append(&s, &len, &cap, "%s_stp_bulk=1", SEP);
	/* stp_pid(): this process, where begin and end probes run. */
	r |= append(&s, &len, &cap, "%s_stp_pid=%ld", SEP, (long)getpid());
	local_tz(&west, tzname, sizeof(tzname));
	r |= append(&s, &len, &cap, "%s_stp_tz_gmtoff=%ld _stp_tz_name=%s", SEP,
		    west, tzname);
	for (i = 0; i < o->nmodargs && !r; i++) {
		if (params_check_modarg(o->modargs[i], err, errlen)) {
			free(s);
			return NULL;
		}
		r |= append(&s, &len, &cap, "%s%s", SEP, o->modargs[i]);
	}
#undef SEP
	if (r) {
		free(s);
		staprun_fail(err, errlen, "Out of memory.");
		return NULL;
	}
	return s;
}

int params_module_path(const char *arg, char *buf, size_t len)
{
	struct utsname u;
	size_t n = strlen(arg);
	int r;

	/* a path, a file name with its .ko, or a file that is there: as
	 * given */
	if (strchr(arg, '/') || (n > 3 && strcmp(arg + n - 3, ".ko") == 0) ||
	    access(arg, F_OK) == 0) {
		r = snprintf(buf, len, "%s", arg);
		return r < 0 || (size_t)r >= len ? -1 : 0;
	}
	if (uname(&u))
		return -1;
	r = snprintf(buf, len, "/lib/modules/%s/systemtap/%s.ko", u.release,
		     arg);
	return r < 0 || (size_t)r >= len ? -1 : 0;
}

/* Would the kernel's kstrtol(VALUE, 0) take @v: [+-]digits, 0x hex, 0 octal? */
static bool kernel_long(const char *v)
{
	char *end;

	if (*v == '+' || *v == '-')
		v++;
	if (!*v || *v == '+' || *v == '-' || is_space(*v))
		return false;
	errno = 0;
	(void)strtoull(v, &end, 0);
	return !errno && !*end;
}

/* The kernel's integer parameter types (a script's numeric globals are
 * "long"); strings ("string", "charp"), bools and the rest are left to
 * the kernel. */
static bool numeric_type(const char *t)
{
	static const char *const num[] = { "byte", "short", "ushort", "int", "uint", "long",
					   "ulong", "llong", "ullong", "hexint" };
	size_t i;

	for (i = 0; i < sizeof(num) / sizeof(num[0]); i++)
		if (!strcmp(t, num[i]))
			return true;
	return false;
}

int params_check_module(const struct mod_image *img, char *const *args, int n,
			char *err, size_t errlen)
{
	char type[32];
	int i;

	for (i = 0; i < n; i++) {
		const char *eq = strchr(args[i], '=');
		char name[STP_MODNAME_MAX + 64];

		if (!eq || (size_t)(eq - args[i]) >= sizeof(name))
			return staprun_fail(err, errlen, "Invalid module option '%s'.", args[i]);
		memcpy(name, args[i], (size_t)(eq - args[i]));
		name[eq - args[i]] = '\0';
		if (!modelf_param_type(img, name, type, sizeof(type)))
			return staprun_fail(err, errlen,
				    "The module has no global '%s' to set (from '%s'): "
				    "only the script's own globals can be given.",
				    name, args[i]);
		if (numeric_type(type) && !kernel_long(eq + 1))
			return staprun_fail(err, errlen,
				    "Invalid value '%.64s%s' for global '%s': it is a number.",
				    eq + 1, strlen(eq + 1) > 64 ? "..." : "", name);
	}
	return 0;
}
