// SPDX-License-Identifier: GPL-2.0-or-later
/* remote_files.c: what the VM of --remote=qemu needs besides the module:
 * the programs and libraries the module probes, the -c program, and the
 * dynamic loader and libraries each of them loads, copied to the same
 * paths in the guest (doc/remote.md). */
#define _GNU_SOURCE
#include "config.h"

#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run_internal.h"
#include "util/arena.h"
#include "util/elf_section.h"
#include "util/strbuf.h"
#include "util/vec.h"

void sb_add_shquoted(struct strbuf *sb, const char *s)
{
	sb_addc(sb, '\'');
	for (; *s; s++)
		if (*s == '\'')
			sb_adds(sb, "'\\''");
		else
			sb_addc(sb, *s);
	sb_addc(sb, '\'');
}

/* Adds regular file @path to @out unless it is there already. */
static void add_file(struct arena *a, struct ptrvec *out, const char *path)
{
	struct stat st;
	size_t i;

	if (!path || path[0] != '/' || stat(path, &st) || !S_ISREG(st.st_mode))
		return;
	for (i = 0; i < out->n; i++)
		if (!strcmp(out->v[i], path))
			return;
	vec_push(a, out, arena_strndup(a, path, strlen(path)));
}

/* The paths in @ko's .stp_userfiles section (translate/probes/uprobe.c). */
static void module_files(struct arena *a, const char *ko, struct ptrvec *out)
{
	int fd = open(ko, O_RDONLY | O_CLOEXEC);
	Elf *elf;
	Elf_Scn *scn;
	Elf_Data *d = NULL;
	GElf_Shdr sh;
	size_t off;

	if (fd < 0)
		return;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	scn = elf ? elf_section_named(elf, ".stp_userfiles", &sh) : NULL;
	if (scn)
		d = elf_getdata(scn, NULL);
	for (off = 0; d && d->d_buf && off < d->d_size;) {
		const char *p = (const char *)d->d_buf + off;
		size_t len = strnlen(p, d->d_size - off);

		if (off + len < d->d_size)
			add_file(a, out, p);
		off += len + 1;
	}
	elf_end(elf);
	close(fd);
}

/* The loader and libraries of @path, as the host's ldd lists them. */
static void library_files(struct arena *a, const char *path, struct ptrvec *out)
{
	struct strbuf cmd = STRBUF_INIT;
	char line[PATH_MAX + 64];
	FILE *f;

	sb_adds(&cmd, "ldd ");
	sb_add_shquoted(&cmd, path);
	sb_adds(&cmd, " 2>/dev/null");
	f = popen(sb_str(&cmd), "r");
	sb_release(&cmd);
	if (!f)
		return;
	/* "\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x...)",
	 * "\t/lib64/ld-linux-x86-64.so.2 (0x...)" */
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, "=> ");

		p = p ? p + 3 : line + strspn(line, " \t");
		if (*p != '/')
			continue;
		p[strcspn(p, " \t\n")] = '\0';
		add_file(a, out, p);
	}
	pclose(f);
}

void remote_user_files(struct arena *a, const char *ko, const char *target_cmd,
		       struct ptrvec *out)
{
	size_t i, n;

	module_files(a, ko, out);
	/* the -c program when it names a path (a bare name is the guest's) */
	if (target_cmd) {
		const char *w = target_cmd + strspn(target_cmd, " \t");
		char *word = arena_strndup(a, w, strcspn(w, " \t;&|<>")), real[PATH_MAX];

		if (strchr(word, '/') && realpath(word, real))
			add_file(a, out, real);
	}
	for (i = 0, n = out->n; i < n; i++)
		library_files(a, out->v[i], out);
}
