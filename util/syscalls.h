/* SPDX-License-Identifier: GPL-2.0-or-later */
/* syscalls.h: the target kernel's system-call numbers, from its build
 * tree's <asm/unistd_64.h>. */
#ifndef UTIL_SYSCALLS_H
#define UTIL_SYSCALLS_H

#include <stddef.h>

struct arena;

/* The names of the x86-64 system calls of the kernel built in @build_dir,
 * indexed by number (NULL where no call has the number); *@n is the
 * highest number + 1. NULL with *@why (in @a) when the header cannot be
 * read. */
const char **syscall_table(struct arena *a, const char *build_dir, size_t *n,
			   const char **why);

#endif
