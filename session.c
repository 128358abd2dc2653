// SPDX-License-Identifier: GPL-2.0-or-later
/* session.c: defaults and small helpers for struct session. */
#include "session.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "util/arena.h"

void session_init(struct session *s, struct arena *a)
{
	struct utsname u;

	memset(s, 0, sizeof(*s));
	s->last_pass = 5;
	s->target_pid = 0;
	s->color_mode = 2;	/* --color: auto */
	if (uname(&u) == 0)
		s->arch = arena_strndup(a, u.machine, strlen(u.machine));
	else
		s->arch = "x86_64";
}

void strlist_push(struct arena *a, struct strlist *l, const char *s)
{
	const char **nv = arena_new_array(a, const char *, (size_t)l->n + 1);

	if (l->n)
		memcpy(nv, l->v, (size_t)l->n * sizeof(*nv));
	nv[l->n++] = s;
	l->v = nv;
}

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *session_self_exe(struct arena *a)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return NULL;
	return arena_strndup(a, exe, (size_t)n);
}

/* $SYSTEMTAP_TAPSET, else the source tree's tapset/ when this binary
 * runs from a build tree (it has a config.status beside it), else the
 * installed library. */
const char *session_tapset_dir(void)
{
	const char *env = getenv("SYSTEMTAP_TAPSET");
	char exe[4096], *slash;
	ssize_t n;

	if (env && *env)
		return env;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 32);
	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			struct stat st;

			strcpy(slash, "/config.status");
			if (stat(exe, &st) == 0 && is_dir(TAPSET_SOURCE_DIR))
				return TAPSET_SOURCE_DIR;
		}
	}
	return TAPSET_INSTALL_DIR;
}
