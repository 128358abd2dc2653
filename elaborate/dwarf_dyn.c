// SPDX-License-Identifier: GPL-2.0-or-later
/* dwarf_dyn.c: what a program's dynamic linking says: the libraries it
 * needs (DT_NEEDED), found where the dynamic linker would find them, and
 * its PLT entries, for process(P).library("GLOB") and process(P).plt(). */
#include "elaborate/dwarf_internal.h"

#include <fnmatch.h>
#include <gelf.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/arena.h"
#include "util/elf_section.h"
#include "util/intern.h"

#define PLT_ENTRY 16		/* bytes of an x86-64 PLT entry */
#define DYN_MAX_ENTRIES 4096	/* .dynamic entries looked at */

/* The directories the dynamic linker searches after the program's own
 * (Debian's multiarch layout first). */
static const char *const default_dirs[] = {
	"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/usr/lib64",
	"/lib", "/usr/lib", "/usr/local/lib",
};

static Elf *main_elf(struct dw_mod *m)
{
	GElf_Addr bias;

	return m->dm ? dwfl_module_getelf(m->dm, &bias) : NULL;
}

/* The section of @elf with type @type (the first), and its header. */
static Elf_Scn *section_of_type(Elf *elf, GElf_Word type, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, sh) && sh->sh_type == type)
			return scn;
	return NULL;
}

struct dyn_info {
	struct ptrvec needed;		/* const char * */
	const char *rpath, *runpath;
};

static void read_dynamic(struct elab *e, Elf *elf, struct dyn_info *di)
{
	GElf_Shdr sh;
	Elf_Scn *scn = section_of_type(elf, SHT_DYNAMIC, &sh);
	Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;
	size_t i, n;

	if (!d || !sh.sh_entsize)
		return;
	n = sh.sh_size / sh.sh_entsize;
	for (i = 0; i < n && i < DYN_MAX_ENTRIES; i++) {
		GElf_Dyn dyn;
		const char *s;

		if (!gelf_getdyn(d, (int)i, &dyn) || dyn.d_tag == DT_NULL)
			break;
		if (dyn.d_tag != DT_NEEDED && dyn.d_tag != DT_RPATH && dyn.d_tag != DT_RUNPATH)
			continue;
		s = elf_strptr(elf, sh.sh_link, dyn.d_un.d_val);
		if (!s)
			continue;
		s = intern(e->in, s);
		if (dyn.d_tag == DT_NEEDED)
			vec_push(e->a, &di->needed, (void *)s);
		else if (dyn.d_tag == DT_RPATH)
			di->rpath = s;
		else
			di->runpath = s;
	}
}

/* @list (colon-separated, $ORIGIN for @origin) searched for @name. */
static const char *search(struct elab *e, const char *list, const char *origin,
			  const char *name)
{
	char *copy, *tok, *save = NULL;

	if (!list)
		return NULL;
	copy = arena_strndup(e->a, list, strlen(list));
	for (tok = strtok_r(copy, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		const char *dir = tok, *p;
		struct stat st;

		if (!strncmp(tok, "$ORIGIN", 7))
			dir = arena_printf(e->a, "%s%s", origin, tok + 7);
		else if (!strncmp(tok, "${ORIGIN}", 9))
			dir = arena_printf(e->a, "%s%s", origin, tok + 9);
		p = arena_printf(e->a, "%s/%s", *dir ? dir : ".", name);
		if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
			return p;
	}
	return NULL;
}

/* @name as the dynamic linker finds it for a program in @origin with
 * @di's search paths: DT_RPATH (when there is no DT_RUNPATH),
 * LD_LIBRARY_PATH, DT_RUNPATH, the default directories. */
static const char *resolve(struct elab *e, const struct dyn_info *di,
			   const char *origin, const char *name)
{
	const char *p = NULL;
	char real[PATH_MAX];
	size_t i;

	if (strchr(name, '/'))
		p = name;
	if (!p && !di->runpath)
		p = search(e, di->rpath, origin, name);
	if (!p)
		p = search(e, getenv("LD_LIBRARY_PATH"), origin, name);
	if (!p)
		p = search(e, di->runpath, origin, name);
	for (i = 0; !p && i < sizeof(default_dirs) / sizeof(default_dirs[0]); i++)
		p = search(e, default_dirs[i], origin, name);
	if (!p || !realpath(p, real))
		return NULL;
	return intern(e->in, real);
}

static const char *origin_of(struct elab *e, struct dw_mod *m)
{
	const char *slash = strrchr(m->name, '/');

	return slash ? arena_strndup(e->a, m->name, (size_t)(slash - m->name)) : ".";
}

size_t dw_needed_libs(struct elab *e, struct dw_mod *m, const char *glob,
		      const char ***out)
{
	struct dyn_info di = { 0 };
	struct ptrvec libs = { 0 };
	const char *origin = origin_of(e, m);
	Elf *elf = main_elf(m);
	size_t i;

	if (elf)
		read_dynamic(e, elf, &di);
	for (i = 0; i < di.needed.n; i++) {
		const char *name = di.needed.v[i], *p;

		if (fnmatch(glob, name, 0) || !(p = resolve(e, &di, origin, name)))
			continue;
		vec_push(e->a, &libs, (void *)p);
	}
	*out = (const char **)libs.v;
	return vec_sort_unique_str(&libs);
}

const char *dw_find_library(struct elab *e, struct dw_mod *m, const char *name)
{
	struct dyn_info di = { 0 };
	Elf *elf = main_elf(m);

	if (elf)
		read_dynamic(e, elf, &di);
	return resolve(e, &di, origin_of(e, m), name);
}

size_t dw_plt_entries(struct elab *e, struct dw_mod *m, const struct dw_plt **out)
{
	Elf *elf = main_elf(m);
	GElf_Shdr rsh, plt, symsh;
	Elf_Scn *rel, *sec, *syms;
	Elf_Data *rd, *sd;
	struct dw_plt *v;
	uint64_t base;
	size_t i, n, k = 0;

	*out = NULL;
	if (!elf || !(rel = elf_section_named(elf, ".rela.plt", &rsh)) || !rsh.sh_entsize ||
	    !(rd = elf_getdata(rel, NULL)) ||
	    !(syms = elf_getscn(elf, rsh.sh_link)) || !gelf_getshdr(syms, &symsh) ||
	    !(sd = elf_getdata(syms, NULL)))
		return 0;
	/* with IBT the stubs are in .plt.sec, one per entry; else .plt after
	 * its first (resolver) entry */
	if ((sec = elf_section_named(elf, ".plt.sec", &plt)))
		base = plt.sh_addr;
	else if ((sec = elf_section_named(elf, ".plt", &plt)))
		base = plt.sh_addr + PLT_ENTRY;
	else
		return 0;
	n = rsh.sh_size / rsh.sh_entsize;
	v = arena_alloc(e->a, sizeof(*v) * (n ? n : 1));
	for (i = 0; i < n; i++) {
		GElf_Rela r;
		GElf_Sym sym;
		const char *name;

		if (!gelf_getrela(rd, (int)i, &r) || GELF_R_TYPE(r.r_info) != R_X86_64_JUMP_SLOT ||
		    !gelf_getsym(sd, (int)GELF_R_SYM(r.r_info), &sym) ||
		    !(name = elf_strptr(elf, symsh.sh_link, sym.st_name)) || !*name)
			continue;
		v[k].name = intern(e->in, name);
		v[k++].addr = base + PLT_ENTRY * i;
	}
	*out = v;
	return k;
}
