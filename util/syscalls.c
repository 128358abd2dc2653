// SPDX-License-Identifier: GPL-2.0-or-later
/* syscalls.c: the target kernel's system-call numbers, read from the
 * generated uapi header of its build tree (`#define __NR_openat 257`), so
 * names and numbers are the kernel's own on every kernel line. */
#include "util/syscalls.h"

#include <stdio.h>
#include <string.h>

#include "util/arena.h"

#define UNISTD_64 "arch/x86/include/generated/uapi/asm/unistd_64.h"
#define SYSCALL_MAX 1024		/* numbers at or above are ignored */

const char **syscall_table(struct arena *a, const char *build_dir, size_t *n,
			   const char **why)
{
	const char *path = arena_printf(a, "%s/" UNISTD_64, build_dir ? build_dir : ".");
	const char **v;
	char line[256], name[128];
	FILE *f = fopen(path, "r");
	long nr;

	*n = 0;
	if (!f) {
		*why = arena_printf(a, "cannot read the kernel's system-call numbers (%s)", path);
		return NULL;
	}
	v = arena_new_array(a, const char *, SYSCALL_MAX);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "#define __NR_%127s %ld", name, &nr) != 2 || nr < 0 ||
		    nr >= SYSCALL_MAX || !strcmp(name, "syscalls"))
			continue;	/* __NR_syscalls: the count (__KERNEL__ only) */
		v[nr] = arena_strndup(a, name, strlen(name));
		if ((size_t)nr + 1 > *n)
			*n = (size_t)nr + 1;
	}
	fclose(f);
	*why = NULL;
	return v;
}
