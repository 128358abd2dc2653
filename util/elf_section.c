// SPDX-License-Identifier: GPL-2.0-or-later
/* elf_section.c: ELF sections found by name (libelf). */
#include "util/elf_section.h"

#include <string.h>

Elf_Scn *elf_section_named(Elf *elf, const char *name, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;
	size_t shstr;

	if (elf_getshdrstrndx(elf, &shstr) != 0)
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *n;

		if (gelf_getshdr(scn, sh) && (n = elf_strptr(elf, shstr, sh->sh_name)) &&
		    !strcmp(n, name))
			return scn;
	}
	return NULL;
}
