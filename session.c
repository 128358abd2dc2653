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

/* This program's path in @buf (NUL-terminated, @room bytes left after
 * it for the caller to append to), or false. */
static bool self_exe(char *buf, size_t size, size_t room)
{
	ssize_t n = readlink("/proc/self/exe", buf, size - 1 - room);

	if (n <= 0)
		return false;
	buf[n] = '\0';
	return true;
}

const char *session_self_exe(struct arena *a)
{
	char exe[4096];

	return self_exe(exe, sizeof(exe), 0) ? arena_strndup(a, exe, strlen(exe)) : NULL;
}

/* $SYSTEMTAP_TAPSET, else the source tree's tapset/ when this binary
 * runs from a build tree (it has a config.status beside it), else the
 * installed library. */
const char *session_tapset_dir(void)
{
	const char *env = getenv("SYSTEMTAP_TAPSET");
	char exe[4096], *slash;

	if (env && *env)
		return env;
	if (self_exe(exe, sizeof(exe), 32)) {
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
