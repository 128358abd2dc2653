// SPDX-License-Identifier: GPL-2.0-or-later
/* dwarf_index.c: the function index of a module: every out-of-line
 * function and every inlined copy, with its declaring file and line and
 * its DIE, built by one walk over the DWARF and cached on disk per
 * build-id, so matching patterns never walks DIEs again. Without a cached
 * index, a pattern with a literal start (vfs_*) on the kernel is answered
 * by a directed walk that looks at top-level names only (and for inlined
 * copies only in units declaring a matching inline function), while a
 * child process builds and caches the whole index for the next run. */
#include "elaborate/dwarf_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "session.h"
#include "util/arena.h"
#include "util/cache.h"
#include "util/intern.h"
#include "util/elf_section.h"
#include "util/kernel_info.h"
#include "util/progress.h"
#include "util/strbuf.h"

#define IDX_MAGIC "CSTAPIDX"
#define IDX_VERSION 7u
#define IDX_MAX_DEPTH 64	/* nesting of blocks and inlined copies */

/* On disk: header, entries, then the string table (NUL-terminated). */
struct idx_header {
	char magic[8];
	uint32_t version;
	uint32_t nfuncs;
	uint64_t strsize;
	uint64_t file_size;	/* of the DWARF file indexed */
	int64_t file_mtime;
};

struct idx_entry {
	uint32_t name, file;	/* string table offsets */
	uint32_t line, flags;
	uint64_t cu, die, entry;
};

struct builder {
	struct elab *e;
	struct dw_mod *m;
	struct ptrvec funcs;		/* struct dw_func * */
	struct ptrmap names;		/* DWARF string -> interned */
	/* the file names of the unit being walked, when read fast */
	void *cu;			/* its Dwarf_CU */
	Dwarf_Die cu_die;
	struct dw_files files;
	bool files_tried, have_files;	/* read when first needed */
	bool cu_opt;			/* the unit is optimised code */
	const char *empty;		/* "", interned */
	const char *filter;		/* a directed walk: only the functions
					 * this glob matches */
};

/* Does the name of @d match the directed walk's glob (every name in a
 * full walk)? Tested on the string before it is interned. */
static bool wanted(struct builder *b, Dwarf_Die *d)
{
	Dwarf_Attribute a;
	const char *s;

	if (!b->filter)
		return true;
	s = dwarf_formstring(dwarf_attr_integrate(d, DW_AT_name, &a));
	return s && !fnmatch(b->filter, s, 0);
}

/* The name of @d, interned; the names of inlined copies are the same
 * string of .debug_str over and over, so remember them by address. */
static const char *name_of(struct builder *b, Dwarf_Die *d)
{
	Dwarf_Attribute a;
	const char *s = dwarf_formstring(dwarf_attr_integrate(d, DW_AT_name, &a));
	const char *in;

	if (!s)
		return NULL;
	if ((in = ptrmap_get(&b->names, s)))
		return in;
	in = intern(b->e->in, s);
	ptrmap_put(b->e->a, &b->names, s, (void *)in);
	return in;
}

/* The declaring file as the DWARF names it: relative for Debian's
 * kernel (fs/read_write.c), absolute for most programs. From the unit's
 * table when dw_cu_files read it and the attribute is in that unit. */
static const char *decl_file(struct builder *b, Dwarf_Die *d)
{
	Dwarf_Attribute a;
	Dwarf_Word i;
	const char *f;

	if (!b->files_tried) {
		b->files_tried = true;
		b->have_files = dw_cu_files(b->e, b->m, &b->cu_die, &b->files) == 0;
	}
	if (b->have_files) {
		if (!dwarf_attr_integrate(d, DW_AT_decl_file, &a))
			return b->empty;
		if ((void *)a.cu == b->cu && dwarf_formudata(&a, &i) == 0)
			return dw_file_name(b->e, &b->files, i);
	}
	f = dwarf_decl_file(d);
	return intern(b->e->in, f ? f : "");
}

static void add(struct builder *b, Dwarf_Die *cu, Dwarf_Die *d,
		Dwarf_Die *origin, uint32_t flags, uint64_t entry)
{
	struct dw_func *f;
	const char *name = name_of(b, origin);
	Dwarf_Attribute a;
	bool inl = false;
	int line = 0;

	if (!name)
		return;
	if (dwarf_formflag(dwarf_attr_integrate(origin, DW_AT_declaration, &a),
			   &inl) == 0 && inl && !entry)
		return;		/* a declaration */
	f = arena_new_obj(b->e->a, struct dw_func);
	f->name = name;
	f->file = decl_file(b, origin);
	dwarf_decl_line(origin, &line);
	f->line = line > 0 ? (uint32_t)line : 0;
	if (dwarf_attr_integrate(origin, DW_AT_external, &a))
		flags |= DWF_EXTERNAL;
	if (dwarf_func_inline(origin))
		flags |= DWF_DECL_INLINE;
	f->flags = flags | (entry ? 0 : DWF_NOCODE) | (b->cu_opt ? DWF_OPTIMISED : 0);
	f->cu = dwarf_dieoffset(cu);
	f->die = dwarf_dieoffset(d);
	f->entry = entry;
	vec_push(b->e->a, &b->funcs, f);
}

/* The entry address of a function or inlined copy. A function gcc split
 * into parts (foo and foo.cold) has DW_AT_ranges and no low_pc: its entry
 * is the range that starts at its own symbol, else the first range. */
static uint64_t entry_of(struct builder *b, Dwarf_Die *d, const char *name)
{
	Dwarf_Addr pc = 0, base, start, end, first = 0;
	ptrdiff_t off = 0;

	if (dwarf_entrypc(d, &pc) == 0)
		return pc;
	if (dwarf_lowpc(d, &pc) == 0)
		return pc;
	while ((off = dwarf_ranges(d, off, &base, &start, &end)) > 0) {
		uint64_t so = 1;
		const char *s = name ? dw_symbol_at(b->e, b->m, start, &so) : NULL;

		if (!first)
			first = start;
		if (s && so == 0 && !strcmp(s, name))
			return start;
	}
	return first;
}

/* Is @d the out-of-line body of a function's split-off part (gcc's
 * partial inlining: foo.part.N, the rest of foo after its head)? It is
 * entered only from foo's head (its out-of-line copy or the head inlined
 * into callers), which are probed already: a probe there would fire a
 * second time for the same call. The reference does not probe it either.
 * Only concrete copies of an abstract function (DW_AT_abstract_origin)
 * can be such parts; their symbol tells. */
static bool part_clone(struct builder *b, Dwarf_Die *d)
{
	Dwarf_Attribute a;
	uint64_t off = 1, pc;
	const char *s;

	if (!dwarf_attr(d, DW_AT_abstract_origin, &a))
		return false;
	pc = entry_of(b, d, NULL);
	s = pc ? dw_symbol_at(b->e, b->m, pc, &off) : NULL;
	return s && off == 0 && strstr(s, ".part.");
}

/* Inlined copies anywhere below @d. */
static void walk_inlines(struct builder *b, Dwarf_Die *cu, Dwarf_Die *d,
			 int depth)
{
	Dwarf_Die c;

	if (depth > IDX_MAX_DEPTH || dwarf_child(d, &c) != 0)
		return;
	do {
		int tag = dwarf_tag(&c);

		if (tag == DW_TAG_inlined_subroutine) {
			Dwarf_Attribute a;
			Dwarf_Die origin;

			if (dwarf_formref_die(dwarf_attr(&c, DW_AT_abstract_origin, &a),
					      &origin) && wanted(b, &origin))
				add(b, cu, &c, &origin, DWF_INLINED, entry_of(b, &c, NULL));
			walk_inlines(b, cu, &c, depth + 1);
		} else if (tag == DW_TAG_lexical_block) {
			walk_inlines(b, cu, &c, depth + 1);
		}
	} while (dwarf_siblingof(&c, &c) == 0);
}

/* The functions of unit @cu and their inlined copies. A directed walk
 * looks into function bodies for inlined copies only when the unit
 * declares a matching inline function or imports other units (their
 * copies refer to a declaration in the same unit: no LTO kernel). */
static void walk_cu(struct builder *b, Dwarf_Die *cu)
{
	Dwarf_Die c, first;
	bool inlines = false;

	b->cu = cu->cu;
	b->cu_die = *cu;
	b->files_tried = false;
	b->have_files = false;
	b->cu_opt = dw_cu_optimised(cu);
	if (dwarf_child(cu, &c) != 0)
		return;
	first = c;
	do {
		int tag = dwarf_tag(&c);

		if (tag == DW_TAG_imported_unit)
			inlines = true;
		if (tag != DW_TAG_subprogram || !wanted(b, &c) || part_clone(b, &c))
			continue;
		add(b, cu, &c, &c, 0, entry_of(b, &c, name_of(b, &c)));
		if (!b->filter)
			walk_inlines(b, cu, &c, 0);
		else if (dwarf_func_inline(&c))
			inlines = true;
	} while (dwarf_siblingof(&c, &c) == 0);
	if (!b->filter || !inlines)
		return;
	c = first;
	do {
		if (dwarf_tag(&c) == DW_TAG_subprogram)
			walk_inlines(b, cu, &c, 0);
	} while (dwarf_siblingof(&c, &c) == 0);
}

/* Functions the ELF symbol table has and the DWARF does not (assembly,
 * startup code): probeable by name, without variables. */
static void add_symtab_only(struct builder *b)
{
	struct ptrmap named = { 0 };
	size_t i;

	for (i = 0; i < b->funcs.n; i++) {
		const struct dw_func *f = b->funcs.v[i];

		ptrmap_put(b->e->a, &named, f->name, (void *)f);
	}
	dw_load_symbols(b->e, b->m);
	for (i = 0; i < b->m->nsyms; i++) {
		const struct dw_sym *s = &b->m->syms[i];
		struct dw_func *f;

		/* foo.isra.0, foo.constprop.0, foo.part.0: clones of a function
		 * the DWARF has (the reference does not list them; it does list
		 * the foo.cold parts) */
		if (ptrmap_get(&named, s->name) || !s->addr ||
		    (strchr(s->name, '.') && !strstr(s->name, ".cold")) ||
		    (b->filter && fnmatch(b->filter, s->name, 0)))
			continue;
		f = arena_new_obj(b->e->a, struct dw_func);
		f->name = s->name;
		f->file = intern(b->e->in, "");
		f->flags = DWF_SYMTAB | DWF_EXTERNAL;
		f->entry = s->addr;
		ptrmap_put(b->e->a, &named, s->name, f);
		vec_push(b->e->a, &b->funcs, f);
	}
}

/* Sorting the index: names and files are interned, so each distinct one
 * is ranked once and the entries sorted by numbers. */
struct sort_rec {
	uint32_t name, file;		/* ranks */
	const struct dw_func *f;
};

static int cmp_rec(const void *pa, const void *pb)
{
	const struct sort_rec *x = pa, *y = pb;
	const struct dw_func *a = x->f, *b = y->f;

	if (x->name != y->name)
		return x->name < y->name ? -1 : 1;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if (a->entry != b->entry)
		return a->entry < b->entry ? -1 : 1;
	return a->die < b->die ? -1 : a->die > b->die;
}

static int cmp_strp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* @rank: each distinct string of @strs (interned) -> its rank + 1. */
static void rank_strings(struct arena *a, const char **strs, size_t n, struct ptrmap *rank)
{
	struct ptrvec keys = { 0 };
	size_t i;

	for (i = 0; i < n; i++)
		if (!ptrmap_get(rank, strs[i])) {
			ptrmap_put(a, rank, strs[i], (void *)1);
			vec_push(a, &keys, (void *)strs[i]);
		}
	if (keys.n)
		qsort(keys.v, keys.n, sizeof(*keys.v), cmp_strp);
	for (i = 0; i < keys.n; i++)
		ptrmap_put(a, rank, keys.v[i], (void *)(uintptr_t)(i + 1));
}

static void sort_funcs(struct builder *b)
{
	size_t n = b->funcs.n, i;
	const char **names = arena_alloc(b->e->a, sizeof(*names) * (n ? n : 1));
	const char **files = arena_alloc(b->e->a, sizeof(*files) * (n ? n : 1));
	struct sort_rec *recs = arena_alloc(b->e->a, sizeof(*recs) * (n ? n : 1));
	struct ptrmap nr = { 0 }, fr = { 0 };

	for (i = 0; i < n; i++) {
		const struct dw_func *f = b->funcs.v[i];

		names[i] = f->name;
		files[i] = f->file;
	}
	rank_strings(b->e->a, names, n, &nr);
	rank_strings(b->e->a, files, n, &fr);
	for (i = 0; i < n; i++) {
		const struct dw_func *f = b->funcs.v[i];

		recs[i] = (struct sort_rec){ (uint32_t)(uintptr_t)ptrmap_get(&nr, f->name),
					     (uint32_t)(uintptr_t)ptrmap_get(&fr, f->file), f };
	}
	if (n)
		qsort(recs, n, sizeof(*recs), cmp_rec);
	for (i = 0; i < n; i++)
		b->funcs.v[i] = (void *)recs[i].f;
}

/* The size of @m's .debug_info (uncompressed): how far the walk over its
 * units has come is a unit's offset in it. 0 when unknown. */
static uint64_t debug_info_size(struct dw_mod *m)
{
	Elf *elf = dwarf_getelf(m->dw);
	GElf_Shdr sh;
	Elf_Scn *scn = elf ? elf_section_named(elf, ".debug_info", &sh) : NULL;
	GElf_Chdr ch;

	if (!scn)
		return 0;
	if ((sh.sh_flags & SHF_COMPRESSED) && gelf_getchdr(scn, &ch))
		return ch.ch_size;
	return sh.sh_size;
}

#define IDX_DROP_EVERY (16u << 20)	/* of .debug_info walked: dw_drop_pages */

/* The index of @m, or with @filter the part of it @filter matches, in
 * *@out. The whole index of a kernel takes seconds: a percentage on the
 * terminal after the first one (util/progress.h). The pages of the file
 * the walk has read are given back as it goes. */
static size_t build(struct elab *e, struct dw_mod *m, const char *filter,
		    const struct dw_func **out)
{
	struct builder b = { .e = e, .m = m, .empty = intern(e->in, ""), .filter = filter };
	Dwarf_Off off = 0, next, dropped = 0;
	size_t hs, i;
	struct dw_func *arr;
	struct progress pr;

	progress_start(&pr, STDERR_FILENO,
		       arena_printf(e->a, "stap: indexing the functions of %s",
				    m->kind == DW_KERNEL ? "the kernel" : m->name),
		       filter ? 0 : debug_info_size(m), 1000);
	dw_load_symbols(e, m);
	while (dwarf_nextcu(m->dw, off, &next, &hs, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;

		if (dwarf_offdie(m->dw, off + hs, &cu))
			walk_cu(&b, &cu);
		off = next;
		progress_update(&pr, off);
		if (off - dropped >= IDX_DROP_EVERY) {
			dw_drop_pages(m);
			dropped = off;
		}
	}
	progress_end(&pr);
	dw_drop_pages(m);
	add_symtab_only(&b);
	sort_funcs(&b);
	arr = arena_alloc(e->a, sizeof(*arr) * (b.funcs.n ? b.funcs.n : 1));
	for (i = 0; i < b.funcs.n; i++)
		arr[i] = *(struct dw_func *)b.funcs.v[i];
	*out = arr;
	return b.funcs.n;
}

/* ---- the cache ---- */

static const char *cache_path(struct elab *e, struct dw_mod *m,
			      struct stat *st)
{
	const unsigned char *bits;
	GElf_Addr vaddr;
	int len = dwfl_module_build_id(m->dm, &bits, &vaddr), i;
	struct strbuf sb = STRBUF_INIT;

	if (stat(m->path, st) != 0)
		return NULL;
	if (len > 0) {
		for (i = 0; i < len; i++)
			sb_addf(&sb, "%02x", bits[i]);
	} else {
		char h[33];
		const char *k = arena_printf(e->a, "%s:%lld:%lld", m->path,
					     (long long)st->st_size,
					     (long long)st->st_mtime);

		hash_hex(k, strlen(k), "dwidx", h);
		sb_adds(&sb, h);
	}
	return arena_printf(e->a, "%s/dwarf/%s.idx", cache_dir(e->a), sb_to_arena(&sb, e->a));
}

/* Load the cached index @path of @m (the file @st). 0, or -errno (doc/
 * errors.md): -ENOENT and the like when it cannot be read, -ESTALE when it
 * is for another version of the file or of the format, -EBADMSG when it
 * is damaged. Never reported: the caller builds the index instead. */
static int load(struct elab *e, struct dw_mod *m, const char *path,
		const struct stat *st)
{
	FILE *f = fopen(path, "rb");
	struct idx_header h;
	const struct idx_entry *ents;
	const char *strs;
	struct dw_func *arr = NULL;
	char *buf = NULL;
	size_t size, i;
	long end;
	int err = 0;

	if (!f)
		return -errno;
	if (fread(&h, sizeof(h), 1, f) != 1) {
		err = -EBADMSG;
		goto out;
	}
	if (memcmp(h.magic, IDX_MAGIC, 8) || h.version != IDX_VERSION ||
	    h.file_size != (uint64_t)st->st_size ||
	    h.file_mtime != (int64_t)st->st_mtime) {
		err = -ESTALE;
		goto out;
	}
	if (fseek(f, 0, SEEK_END) || (end = ftell(f)) < 0) {
		err = -errno;
		goto out;
	}
	size = (size_t)end - sizeof(h);
	if (size != (size_t)h.nfuncs * sizeof(struct idx_entry) + h.strsize ||
	    !h.strsize) {
		err = -EBADMSG;
		goto out;
	}
	buf = malloc(size);
	if (!buf) {
		err = -ENOMEM;
		goto out;
	}
	if (fseek(f, sizeof(h), SEEK_SET) || fread(buf, size, 1, f) != 1) {
		err = -EBADMSG;
		goto out;
	}
	ents = (const struct idx_entry *)buf;
	strs = buf + (size_t)h.nfuncs * sizeof(struct idx_entry);
	if (strs[h.strsize - 1] != '\0') {
		err = -EBADMSG;
		goto out;
	}
	arr = arena_alloc(e->a, sizeof(*arr) * (h.nfuncs ? h.nfuncs : 1));
	for (i = 0; i < h.nfuncs; i++) {
		if (ents[i].name >= h.strsize || ents[i].file >= h.strsize) {
			err = -EBADMSG;
			goto out;
		}
		arr[i].name = strs + ents[i].name;
		arr[i].file = strs + ents[i].file;
		arr[i].line = ents[i].line;
		arr[i].flags = ents[i].flags;
		arr[i].cu = ents[i].cu;
		arr[i].die = ents[i].die;
		arr[i].entry = ents[i].entry;
	}
	/* the strings live on, not the entries (19 MB of the kernel's) */
	m->index_map_owned = malloc(h.strsize);
	if (!m->index_map_owned) {
		err = -ENOMEM;
		goto out;
	}
	memcpy(m->index_map_owned, strs, h.strsize);
	for (i = 0; i < h.nfuncs; i++) {
		arr[i].name = (const char *)m->index_map_owned + (arr[i].name - strs);
		arr[i].file = (const char *)m->index_map_owned + (arr[i].file - strs);
	}
	m->funcs = arr;
	m->nfuncs = h.nfuncs;
out:
	free(buf);
	fclose(f);
	return err;
}

/* Save @m's index as @path (through a temporary file beside it). 0 or
 * -errno; the cache is best effort, so callers do not report it. */
static int save(struct elab *e, struct dw_mod *m, const char *path,
		const struct stat *st)
{
	struct idx_header h = { IDX_MAGIC, IDX_VERSION, 0, 0, 0, 0 };
	struct ptrmap offs = { 0 };
	struct strbuf strs = STRBUF_INIT;
	struct idx_entry *ents;
	struct iovec iov[3];
	const char *dir;
	size_t i;
	int err = 0;

	dir = arena_printf(e->a, "%s/dwarf", cache_dir(e->a));
	err = mkdir_p(dir);
	if (err)
		return err;
	ents = calloc(m->nfuncs ? m->nfuncs : 1, sizeof(*ents));
	if (!ents)
		return -ENOMEM;
	sb_addc(&strs, '\0');
	for (i = 0; i < m->nfuncs; i++) {
		const char *ss[2] = { m->funcs[i].name, m->funcs[i].file };
		uint32_t o[2];
		int k;

		for (k = 0; k < 2; k++) {
			/* interned: one offset per pointer */
			uintptr_t v = (uintptr_t)ptrmap_get(&offs, ss[k]);

			if (!v) {
				v = strs.len + 1;	/* +1: never 0 in the map */
				sb_addn(&strs, ss[k], strlen(ss[k]) + 1);
				ptrmap_put(e->a, &offs, ss[k], (void *)v);
			}
			o[k] = (uint32_t)(v - 1);
		}
		ents[i] = (struct idx_entry){ o[0], o[1], m->funcs[i].line,
					      m->funcs[i].flags, m->funcs[i].cu,
					      m->funcs[i].die, m->funcs[i].entry };
	}
	h.nfuncs = (uint32_t)m->nfuncs;
	h.strsize = strs.len;
	h.file_size = (uint64_t)st->st_size;
	h.file_mtime = (int64_t)st->st_mtime;
	iov[0] = (struct iovec){ &h, sizeof(h) };
	iov[1] = (struct iovec){ ents, m->nfuncs * sizeof(*ents) };
	iov[2] = (struct iovec){ strs.buf, strs.len };
	err = cache_write(path, iov, 3);
	free(ents);
	sb_release(&strs);
	return err;
}

bool dw_file_matches(const char *glob, const char *file)
{
	const char *p;

	if (!glob || !*glob)
		return true;
	if (!file)
		return false;
	if (!fnmatch(glob, file, 0))
		return true;
	if (glob[0] == '/')
		return false;
	for (p = strchr(file, '/'); p; p = strchr(p + 1, '/'))
		if (!fnmatch(glob, p + 1, 0))
			return true;
	return false;
}

/* The cached index of @m, once (m->cache_tried); false when there is none
 * (or caching is off). */
static bool load_cached(struct elab *e, struct dw_mod *m)
{
	struct stat st;
	const char *path;

	if (m->cache_tried)
		return m->indexed;
	m->cache_tried = true;
	path = cache_path(e, m, &st);
	if (!path || e->sess->no_cache || load(e, m, path, &st) != 0)
		return false;
	m->indexed = true;
	return true;
}

/* Build the whole index of @m and cache it as @path (the file @st) in a
 * child process, then load it: what the walk leaves behind (libdw's state
 * of every unit, the builder's records: 200 MB for a kernel) goes with
 * the child. 0, or -errno when the index is not cached (then build it
 * here). */
static int build_in_child(struct elab *e, struct dw_mod *m, const char *path,
			  struct stat *st)
{
	pid_t pid;
	int status;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		m->nfuncs = build(e, m, NULL, &m->funcs);
		_exit(save(e, m, path, st) ? 1 : 0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return -ECHILD;
	return load(e, m, path, st);
}

/* Build the whole index and cache it. */
static void build_and_save(struct elab *e, struct dw_mod *m)
{
	struct stat st;
	const char *path = cache_path(e, m, &st);

	if (path && !e->sess->no_cache && build_in_child(e, m, path, &st) == 0) {
		m->indexed = true;
		return;
	}
	m->nfuncs = build(e, m, NULL, &m->funcs);
	m->indexed = true;
	if (path && !e->sess->no_cache)
		save(e, m, path, &st);	/* best effort */
}

/* After a directed walk: a child process builds and caches the whole
 * index, detached from our output, one at a time per index: the parent
 * takes the lock file beside the index before it forks and the child
 * keeps it (flock locks belong to the open file, which both share) until
 * it exits; a later need of the whole index in this run waits for it
 * (wait_background). A double fork: nobody has to reap the builder. */
static void build_in_background(struct elab *e, struct dw_mod *m)
{
	struct stat st;
	const char *path = cache_path(e, m, &st), *lock;
	int fd, null;
	pid_t pid;

	if (!path || e->sess->no_cache || mkdir_p(arena_printf(e->a, "%s/dwarf",
							       cache_dir(e->a))) != 0)
		return;
	lock = arena_printf(e->a, "%s.lock", path);
	fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		close(fd);	/* another run is building it */
		m->bg_lock = lock;
		return;
	}
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid > 0) {
		waitpid(pid, NULL, 0);	/* the first child exits at once */
		close(fd);
		m->bg_lock = lock;
		return;
	}
	if (pid < 0) {
		close(fd);
		return;
	}
	if (fork() != 0)
		_exit(0);
	null = open("/dev/null", O_RDWR);
	if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0)
		_exit(1);
	close(null);
	setsid();
	/* another run may have cached it meanwhile */
	if (load(e, m, path, &st) != 0)
		build_and_save(e, m);
	_exit(0);
}

/* A builder started by build_in_background (or another run's): wait for
 * it and take its index. */
static bool wait_background(struct elab *e, struct dw_mod *m)
{
	struct stat st;
	const char *path;
	int fd;

	if (!m->bg_lock)
		return false;
	fd = open(m->bg_lock, O_RDWR | O_CLOEXEC);
	m->bg_lock = NULL;
	if (fd < 0)
		return false;
	flock(fd, LOCK_EX);
	close(fd);
	path = cache_path(e, m, &st);
	if (!path || load(e, m, path, &st) != 0)
		return false;
	m->indexed = true;
	return true;
}

size_t dw_functions(struct elab *e, struct dw_mod *m,
		    const struct dw_func **out)
{
	if (!m->indexed && !load_cached(e, m) && !wait_background(e, m))
		build_and_save(e, m);
	*out = m->funcs;
	return m->nfuncs;
}

/* A glob a directed walk answers: a literal start, no '.' (compiler
 * clones of functions are told apart from symbols by their base names). */
static bool directed(const char *glob)
{
	return glob && *glob && !strchr("*?[\\", *glob) && !strchr(glob, '.');
}

#define DIRECTED_MAX 3	/* directed walks per module and run: then the index */

/* A kernel that may have been built with LTO: inlined copies may refer to
 * functions of other units, which a directed walk does not look at. */
static bool maybe_lto(struct elab *e)
{
	const char *v = kernel_config(e->ki, e->a, "CONFIG_LTO_NONE");

	return !v || strcmp(v, "y");
}

size_t dw_functions_like(struct elab *e, struct dw_mod *m, const char *glob,
			 const struct dw_func **out)
{
	struct dw_directed *d;

	if (m->indexed || m->kind != DW_KERNEL || !directed(glob) || load_cached(e, m))
		return dw_functions(e, m, out);
	for (d = m->directed; d; d = d->next)	/* vfs_read and vfs_read.return */
		if (!strcmp(d->glob, glob)) {
			*out = d->funcs;
			return d->n;
		}
	if (m->ndirected >= DIRECTED_MAX || maybe_lto(e))
		return dw_functions(e, m, out);
	d = arena_new_obj(e->a, struct dw_directed);
	d->glob = glob;
	d->n = build(e, m, glob, &d->funcs);
	d->next = m->directed;
	m->directed = d;
	if (!m->ndirected++)
		build_in_background(e, m);
	*out = d->funcs;
	return d->n;
}
