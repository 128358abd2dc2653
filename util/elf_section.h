/* SPDX-License-Identifier: GPL-2.0-or-later */
/* elf_section.h: ELF sections found by name (libelf). */
#ifndef UTIL_ELF_SECTION_H
#define UTIL_ELF_SECTION_H

#include <gelf.h>

/* The first section of @elf named @name, its header in *@sh; NULL when
 * there is none. */
Elf_Scn *elf_section_named(Elf *elf, const char *name, GElf_Shdr *sh);

#endif
