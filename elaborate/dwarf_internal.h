/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dwarf_internal.h: what the elaborate/dwarf*.c files share; the only
 * header that includes libdw. */
#ifndef ELABORATE_DWARF_INTERNAL_H
#define ELABORATE_DWARF_INTERNAL_H

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

#include "elaborate/dwarf.h"
#include "elaborate/elab.h"

struct dw_mod {
	enum dw_mod_kind kind;
	const char *name;		/* "kernel", module name, or real path */
	const char *path;		/* the file with the DWARF */
	const char *error;		/* why it could not be opened */
	Dwfl *dwfl;
	Dwfl_Module *dm;
	Dwarf *dw;
	Dwarf_Addr bias;		/* DWARF address + bias = Dwfl address */
	/* the function index (dwarf_index.c) */
	const struct dw_func *funcs;
	size_t nfuncs;
	bool indexed;
	bool cache_tried;		/* the cached index was looked for */
	struct dw_directed *directed;	/* patterns directed walks answered */
	unsigned ndirected;
	const char *bg_lock;		/* a builder of the index holds this */
	void *index_map_owned;		/* the cached index's strings (malloc), or NULL */
	/* tracepoints (dwarf_trace.c) */
	const struct dw_trace *traces;
	size_t ntraces;
	bool traces_done;
	/* SDT markers (dwarf_sdt.c) */
	const struct dw_sdt *sdts;
	size_t nsdts;
	bool sdts_done;
	/* the ELF symbol table (dwarf_find.c) */
	bool syms_loaded;
	struct dw_sym *syms;		/* functions, by address */
	size_t nsyms;
	struct ptrmap sym_by_name;	/* interned name -> address + 1 */
	struct ptrmap sym_dup;		/* interned names of several symbols */
	/* raw sections for dw_cu_files (dwarf_files.c) */
	bool ft_looked;
	Elf_Data *ft_line, *ft_line_str, *ft_str;
	/* definitions of declared structs (dw_type_complete) */
	struct ptrmap complete;
	/* the lines of a file with rows in a unit (dwarf_lines.c) */
	struct ptrmap file_lines;
	/* the kernel's ftrace call sites, sorted (dw_ftrace_site) */
	bool fsites_loaded;
	uint64_t *fsites;
	size_t nfsites;
	/* its file's pages may not be dropped (dw_drop_pages), else the
	 * mapping that holds them once known */
	bool keep_pages;
	uintptr_t pages_lo, pages_hi;
	size_t sites_listed;		/* by dw_list_vars */
};

/* The answer of a directed walk (dwarf_index.c). */
struct dw_directed {
	const char *glob;
	const struct dw_func *funcs;
	size_t n;
	struct dw_directed *next;
};

struct dw_sym {
	const char *name;
	uint64_t addr;			/* DWARF address */
	uint64_t size;
};

/* Load the ELF symbol table into @m (once). */
void dw_load_symbols(struct elab *e, struct dw_mod *m);
/* Does exactly one symbol of @m have the name @name? */
bool dw_symbol_unique(struct elab *e, struct dw_mod *m, const char *name);

/* The DIE at @off of @m (false if none). */
static inline bool dw_die(struct dw_mod *m, uint64_t off, Dwarf_Die *out)
{
	return dwarf_offdie(m->dw, off, out) != NULL;
}

/* ---- dwarf_files.c ---- */
/* The file table of a compile unit, indexed as DW_AT_decl_file indexes
 * it; each name is joined and interned on first use (dw_file_name). */
struct dw_files {
	size_t n;
	const char **name;		/* interned, or NULL until asked for */
	const char **dir;		/* the directory to put before base, or NULL */
	const char **base;		/* the entry's own name */
};
/* The file table of compile unit @cu from its line-table header. 0, or
 * -errno when this reader cannot tell (then ask libdw): -ENODATA (no line
 * table), -ENOTSUP (a version or layout it does not read), -EBADMSG. */
int dw_cu_files(struct elab *e, struct dw_mod *m, Dwarf_Die *cu, struct dw_files *out);
/* File @i of @f ("" past the end). */
const char *dw_file_name(struct elab *e, struct dw_files *f, size_t i);

/* Was @cu compiled with optimisation (an -O other than -O0 in its
 * DW_AT_producer; true without one)? Its functions are probed at their
 * entry (dwarf_lines.c). */
bool dw_cu_optimised(Dwarf_Die *cu);

/* Give back the pages of @m's DWARF file that reading it mapped into our
 * memory (dwarf_find.c): they count in our RSS until then, and a walk
 * over the whole .debug_info touches all of it. Only done when the file
 * is a private file mapping with no page of it written when first asked
 * (/proc/self/smaps; never for ET_REL, whose sections libdwfl relocates
 * in place, nor for a foreign byte order; nothing writes the others): the pages come back from the
 * file when read again. Callers drop every few MB of progress. */
void dw_drop_pages(struct dw_mod *m);

/* ---- dwarf_types.c ---- */
/* The C-like name of type DIE @t ("struct file*", "char const*",
 * "unsigned int", "int[4]"), as -L shows it. */
const char *dw_type_name(struct arena *a, Dwarf_Die *t);
/* The same, appended to @sb. */
void dw_type_name_into(struct strbuf *sb, Dwarf_Die *t);
/* Strip typedefs and cv-qualifiers. */
bool dw_type_strip(Dwarf_Die *t, Dwarf_Die *out);
/* A named type of @m: "struct task_struct", "union x", "enum y", or a
 * bare name (typedef, base type, struct, union or enum); its first
 * complete definition. */
bool dw_find_type(struct dw_mod *m, const char *spec, Dwarf_Die *out);

/* A value's type (dwarf.h): the object at the address the value holds. */
struct dw_ptype {
	struct dw_mod *m;
	Dwarf_Die die;		/* the object's type, unstripped */
};
/* When @t is only a declaration of a struct, union or class (a pointer's
 * target in a unit that never saw its body): its first definition in @m
 * (cached). False when @t is complete or nothing defines it. */
bool dw_type_complete(struct elab *e, struct dw_mod *m, Dwarf_Die *t, Dwarf_Die *out);


#endif
