// SPDX-License-Identifier: GPL-2.0-or-later
/* usyms.c: the user-space symbol tables of the module (runtime/linux/usym.c),
 * written when the script calls a user-space symbol or backtrace function
 * (tapset/ucontext.stp). The objects are the programs and libraries of the
 * script's process(...) points, each -d PATH, and with --ldd the shared
 * libraries they need (DT_NEEDED, searched like the dynamic loader does).
 * For each: its PT_LOAD segments (to turn a mapped address into a link-time
 * one), its function and object symbols sorted by address (.symtab, else
 * .dynsym), its line table (DWARF .debug_line, for usymfileline), its
 * GNU build-id, and its .eh_frame call-frame information reduced to sorted
 * rows "from this address on, CFA = REG + OFF; the return address and the
 * caller's %rbp are at CFA + N" (the x86-64 rules the unwinder follows). */
#include "translate/usyms.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elaborate/probes/points.h"
#include "session.h"
#include "util/arena.h"
#include "util/elf_section.h"
#include "util/strbuf.h"

#define USYM_MAX_OBJS 64		/* objects of one module */
#define USYM_MAX_DEPTH 16		/* DT_NEEDED nesting for --ldd */

/* DWARF register numbers of x86-64 the unwinder knows. */
#define DW_X86_64_RBP 6
#define DW_X86_64_RSP 7
#define DW_X86_64_RA 16

struct usym { uint64_t addr, size; size_t name, idx; bool func; };
struct uline { uint64_t addr; size_t file; unsigned int line; };
struct ucfi { uint64_t addr; int64_t cfa_off; int ra_off, bp_off; int cfa_reg; };

/* One object on its way into the module. */
struct uobj {
	const char *target;		/* as the target names it */
	const char *host;		/* where this machine reads it */
	struct strbuf strs;		/* names and file names, NUL-separated */
	struct usym *syms; size_t nsyms, csyms;
	struct uline *lines; size_t nlines, clines;
	struct ucfi *cfi; size_t ncfi, ccfi;
	uint64_t seg[16][3];		/* PT_LOAD: offset, vaddr, memsz */
	uint64_t seg_filesz[16];
	unsigned int nsegs;
	uint64_t base;			/* lowest PT_LOAD vaddr, page-aligned */
	uint64_t end;			/* highest PT_LOAD file end, page-aligned */
	char buildid[2 * 64 + 1];
	bool dyn;			/* ET_DYN: loaded at a bias */
	bool ok;
};

struct ucollect {
	const struct session *s;
	struct arena *a;
	struct uobj objs[USYM_MAX_OBJS];
	unsigned int n;
	const char *root;		/* the sysroot's real path, or NULL */
	bool lines;			/* the script wants source lines */
	int errors;
};

static void *grow(void *v, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return v;
	*cap = *cap ? *cap * 2 : 256;
	if (*cap < need)
		*cap = need;
	v = realloc(v, *cap * size);
	if (!v)
		abort();
	return v;
}

static size_t add_str(struct uobj *o, const char *s)
{
	size_t at = o->strs.len;

	sb_addn(&o->strs, s, strlen(s) + 1);
	return at;
}

static void warn(struct ucollect *c, const char *fmt, const char *a1, const char *a2)
{
	if (c->s->no_warnings)
		return;
	fputs("WARNING: ", stderr);
	fprintf(stderr, fmt, a1, a2);
	fputc('\n', stderr);
}

/* ---- symbols ---- */

static int sym_cmp(const void *a, const void *b)
{
	const struct usym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* in symbol-table order: the last one is kept, as the reference does */
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static bool read_symtab(struct uobj *o, Elf *elf, Elf_Scn *scn, GElf_Shdr *sh)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t i, n;

	if (!d || !sh->sh_entsize)
		return false;
	n = sh->sh_size / sh->sh_entsize;
	for (i = 1; i < n; i++) {
		GElf_Sym sym;
		const char *name;
		int t;

		if (!gelf_getsym(d, (int)i, &sym))
			continue;
		t = GELF_ST_TYPE(sym.st_info);
		if ((t != STT_FUNC && t != STT_OBJECT && t != STT_GNU_IFUNC) ||
		    sym.st_shndx == SHN_UNDEF || !sym.st_value)
			continue;
		name = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		o->syms = grow(o->syms, &o->csyms, o->nsyms + 1, sizeof(*o->syms));
		o->syms[o->nsyms].addr = sym.st_value;
		o->syms[o->nsyms].size = sym.st_size;
		o->syms[o->nsyms].name = add_str(o, name);
		o->syms[o->nsyms].func = t != STT_OBJECT;
		o->syms[o->nsyms].idx = o->nsyms;
		o->nsyms++;
	}
	return true;
}

/* The symbols of @elf's .symtab, else (@dynsym) of its .dynsym; false
 * when it has no .symtab. */
static bool read_syms(struct uobj *o, Elf *elf, bool dynsym)
{
	Elf_Scn *scn = NULL, *dyn = NULL;
	GElf_Shdr sh, dsh;
	size_t i, k;
	bool got = false;

	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB)
			got |= read_symtab(o, elf, scn, &sh);
		else if (sh.sh_type == SHT_DYNSYM) {
			dyn = scn;
			dsh = sh;
		}
	}
	if (!got && !dynsym)
		return false;
	if (!got && dyn)
		read_symtab(o, elf, dyn, &dsh);
	qsort(o->syms, o->nsyms, sizeof(*o->syms), sym_cmp);
	for (i = 0, k = 0; i < o->nsyms; i++)	/* one symbol per address */
		if (k && o->syms[k - 1].addr == o->syms[i].addr)
			o->syms[k - 1] = o->syms[i];
		else
			o->syms[k++] = o->syms[i];
	o->nsyms = k;
	return got;
}

/* ---- segments and build-id ---- */

static void read_phdrs(struct uobj *o, Elf *elf)
{
	GElf_Ehdr eh;
	size_t i, n;

	if (!gelf_getehdr(elf, &eh) || elf_getphdrnum(elf, &n))
		return;
	o->dyn = eh.e_type == ET_DYN;
	o->base = UINT64_MAX;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph))
			continue;
		if (ph.p_type == PT_LOAD && o->nsegs < 16) {
			o->seg[o->nsegs][0] = ph.p_offset;
			o->seg[o->nsegs][1] = ph.p_vaddr;
			o->seg[o->nsegs][2] = ph.p_memsz;
			o->seg_filesz[o->nsegs] = ph.p_filesz;
			o->nsegs++;
			if ((ph.p_vaddr & ~(uint64_t)0xfff) < o->base)
				o->base = ph.p_vaddr & ~(uint64_t)0xfff;
			/* the file-backed part, as the reference's module size */
			if (((ph.p_vaddr + ph.p_filesz + 0xfff) & ~(uint64_t)0xfff) > o->end)
				o->end = (ph.p_vaddr + ph.p_filesz + 0xfff) & ~(uint64_t)0xfff;
		}
		if (ph.p_type == PT_NOTE) {
			Elf_Data *d = elf_getdata_rawchunk(elf, ph.p_offset, ph.p_filesz,
							   ELF_T_NHDR);
			size_t off = 0, noff, doff;
			GElf_Nhdr nh;

			while (d && (off = gelf_getnote(d, off, &nh, &noff, &doff)) > 0) {
				const unsigned char *p = (const unsigned char *)d->d_buf + doff;
				size_t j;

				if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
				    memcmp((const char *)d->d_buf + noff, "GNU", 4) ||
				    nh.n_descsz > 64)
					continue;
				for (j = 0; j < nh.n_descsz; j++)
					sprintf(o->buildid + 2 * j, "%02x", p[j]);
			}
		}
	}
	if (o->base == UINT64_MAX)
		o->base = 0;
}

/* ---- lines ---- */

static int line_cmp(const void *a, const void *b)
{
	const struct uline *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return (x->line != 0) - (y->line != 0);	/* an end before a start */
}

static void read_lines(struct uobj *o, int fd)
{
	Dwarf *dw = dwarf_begin(fd, DWARF_C_READ);
	Dwarf_Off off = 0, next;
	size_t hsize;
	struct { const char *name; size_t at; } *files = NULL;
	size_t nfiles = 0, cfiles = 0, i, k;

	if (!dw)
		return;
	while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;
		Dwarf_Lines *ls;
		size_t n;

		if (dwarf_offdie(dw, off + hsize, &cu) && dwarf_getsrclines(&cu, &ls, &n) == 0) {
			for (i = 0; i < n; i++) {
				Dwarf_Line *l = dwarf_onesrcline(ls, i);
				Dwarf_Addr addr;
				int line = 0;
				bool end = false;
				const char *f;
				size_t j;

				if (!l || dwarf_lineaddr(l, &addr) || dwarf_lineendsequence(l, &end))
					continue;
				if (!end && dwarf_lineno(l, &line))
					continue;
				f = end ? NULL : dwarf_linesrc(l, NULL, NULL);
				if (!end && (!f || line <= 0))
					continue;
				if (addr < o->base || addr - o->base > UINT32_MAX)
					continue;	/* not in the object's segments */
				o->lines = grow(o->lines, &o->clines, o->nlines + 1,
						sizeof(*o->lines));
				o->lines[o->nlines].addr = addr;
				o->lines[o->nlines].line = end ? 0 : (unsigned int)line;
				o->lines[o->nlines].file = 0;
				if (f) {
					for (j = 0; j < nfiles && strcmp(files[j].name, f); j++)
						;
					if (j == nfiles) {
						files = grow(files, &cfiles, nfiles + 1, sizeof(*files));
						files[j].name = f;
						files[j].at = add_str(o, f);
						nfiles++;
					}
					o->lines[o->nlines].file = files[j].at;
				}
				o->nlines++;
			}
		}
		off = next;
	}
	free(files);
	qsort(o->lines, o->nlines, sizeof(*o->lines), line_cmp);
	/* one row per address (the last), and none that repeats the line
	 * before it */
	for (i = 0, k = 0; i < o->nlines; i++) {
		if (k && o->lines[k - 1].addr == o->lines[i].addr)
			o->lines[k - 1] = o->lines[i];
		else if (!k || o->lines[k - 1].line != o->lines[i].line ||
			 o->lines[k - 1].file != o->lines[i].file)
			o->lines[k++] = o->lines[i];
		if (k > 1 && o->lines[k - 2].line == o->lines[k - 1].line &&
		    o->lines[k - 2].file == o->lines[k - 1].file)
			k--;
	}
	o->nlines = k;
	dwarf_end(dw);
}

/* ---- call-frame information ---- */

/* A register's rule as "saved at CFA + *off"; 1 same value, 0 saved,
 * -1 undefined, -2 anything else. */
static int reg_rule(Dwarf_Frame *f, int reg, int *off)
{
	Dwarf_Op mem[3], *ops = NULL;
	size_t n = 0;

	if (dwarf_frame_register(f, reg, mem, &ops, &n))
		return -2;
	if (!n)
		return ops ? -1 : 1;
	if (ops[0].atom != DW_OP_call_frame_cfa)
		return -2;
	if (n == 1) {
		*off = 0;
		return 0;
	}
	/* libdw writes offset(N) as DW_OP_plus_uconst N, N negative too */
	if (n == 2 && ops[1].atom == DW_OP_plus_uconst &&
	    (int64_t)ops[1].number > -0x8000 && (int64_t)ops[1].number < 0x8000) {
		*off = (int)(int64_t)ops[1].number;
		return 0;
	}
	if (n == 3 && ops[1].atom == DW_OP_consts && ops[2].atom == DW_OP_plus &&
	    (int64_t)ops[1].number > -0x8000 && (int64_t)ops[1].number < 0x8000) {
		*off = (int)(int64_t)ops[1].number;
		return 0;
	}
	return -2;
}

/* The row for @f into *@r: cfa_reg -1 where the unwinder cannot follow. */
static void cfi_row(Dwarf_Frame *f, struct ucfi *r)
{
	Dwarf_Op *ops;
	size_t n;
	int rule, off = 0;

	r->cfa_reg = -1;
	r->ra_off = 0;
	r->bp_off = 0;
	if (dwarf_frame_cfa(f, &ops, &n) || n != 1)
		return;
	if (ops[0].atom == DW_OP_bregx) {
		r->cfa_reg = (int)ops[0].number;
		r->cfa_off = (int64_t)ops[0].number2;
	} else if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
		r->cfa_reg = ops[0].atom - DW_OP_breg0;
		r->cfa_off = (int64_t)ops[0].number;
	} else {
		return;
	}
	if (r->cfa_reg > DW_X86_64_RA || r->cfa_off > INT32_MAX || r->cfa_off < INT32_MIN) {
		r->cfa_reg = -1;
		return;
	}
	rule = reg_rule(f, DW_X86_64_RA, &off);
	if (rule == -1) {		/* the outermost frame */
		r->cfa_reg = -2;
		return;
	}
	if (rule != 0) {
		r->cfa_reg = -1;
		return;
	}
	r->ra_off = off;
	rule = reg_rule(f, DW_X86_64_RBP, &off);
	r->bp_off = rule == 0 ? off : rule == 1 ? 0 : 1;	/* 1: lost */
}

static bool same_rule(const struct ucfi *a, const struct ucfi *b)
{
	return a->cfa_reg == b->cfa_reg && a->cfa_off == b->cfa_off &&
	       a->ra_off == b->ra_off && a->bp_off == b->bp_off;
}

static void add_row(struct uobj *o, const struct ucfi *r)
{
	if (o->ncfi && same_rule(&o->cfi[o->ncfi - 1], r))
		return;
	o->cfi = grow(o->cfi, &o->ccfi, o->ncfi + 1, sizeof(*o->cfi));
	o->cfi[o->ncfi++] = *r;
}

/* Rows over [@start, @end): each row of .eh_frame that applies there,
 * and a "no information" row at the first address without any. */
static void cfi_range(struct uobj *o, Dwarf_CFI *cfi, uint64_t start, uint64_t end)
{
	uint64_t a = start;
	unsigned int guard = 0;

	while (a < end && guard++ < 100000) {
		Dwarf_Frame *f = NULL;
		Dwarf_Addr s, e;
		struct ucfi r = { .addr = a, .cfa_reg = -1 };

		if (dwarf_cfi_addrframe(cfi, a, &f) || dwarf_frame_info(f, &s, &e, NULL) < 0 ||
		    e <= a) {
			free(f);
			add_row(o, &r);
			return;		/* the next symbol starts again */
		}
		cfi_row(f, &r);
		free(f);
		add_row(o, &r);
		a = e;
	}
}

/* The start addresses of the FDEs, from .eh_frame_hdr's sorted search
 * table (the encodings every x86-64 linker writes: a udata4 count and
 * datarel sdata4 pairs); false without one. */
static bool fde_starts(Elf *elf, uint64_t **out, size_t *n)
{
	GElf_Shdr sh;
	Elf_Scn *scn = elf_section_named(elf, ".eh_frame_hdr", &sh);
	Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;
	const unsigned char *p;
	uint32_t count, i;
	size_t at;

	if (!d || d->d_size < 12)
		return false;
	p = d->d_buf;
	if (p[0] != 1 || p[2] != 0x03 || p[3] != 0x3b)
		return false;
	at = (p[1] & 0x0f) == 0x03 || (p[1] & 0x0f) == 0x0b ? 8 : 0;
	if (!at)
		return false;
	memcpy(&count, p + at, 4);
	at += 4;
	if (d->d_size < at + (size_t)count * 8)
		return false;
	*out = calloc(count + 1, sizeof(**out));
	if (!*out)
		abort();
	for (i = 0; i < count; i++) {
		int32_t loc;

		memcpy(&loc, p + at + (size_t)i * 8, 4);
		(*out)[i] = sh.sh_addr + (int64_t)loc;
	}
	*n = count;
	return true;
}

/* The .eh_frame rows of the object: over each FDE from its start (in
 * .eh_frame_hdr's table, else at each function symbol) to where the next
 * starts or its own information ends. */
static void read_cfi(struct uobj *o, Elf *elf)
{
	Dwarf_CFI *cfi = dwarf_getcfi_elf(elf);
	struct ucfi *rows;
	uint64_t *starts = NULL, covered = 0;
	size_t i, k, n = 0;

	if (!cfi)
		return;
	if (fde_starts(elf, &starts, &n)) {
		for (i = 0; i < n; i++) {
			uint64_t end = i + 1 < n ? starts[i + 1] : starts[i] + (1u << 24);

			cfi_range(o, cfi, starts[i], end);
		}
		free(starts);
	} else {
		for (i = 0; i < o->nsyms; i++) {
			uint64_t end = o->syms[i].addr + (o->syms[i].size ? o->syms[i].size : 1);

			if (!o->syms[i].func || o->syms[i].addr < covered)
				continue;	/* data, or inside a longer function */
			if (i + 1 < o->nsyms && end > o->syms[i + 1].addr)
				end = o->syms[i + 1].addr;
			cfi_range(o, cfi, o->syms[i].addr, end);
			covered = end;
			if (o->ncfi && o->cfi[o->ncfi - 1].cfa_reg != -1) {
				struct ucfi r = { .addr = end, .cfa_reg = -1 };

				add_row(o, &r);
			}
		}
	}
	dwarf_cfi_end(cfi);
	/* in address order already; at one address the last row with
	 * information wins, and equal neighbours merge */
	rows = o->cfi;
	for (i = 0, k = 0; i < o->ncfi; i++) {
		if (k && rows[k - 1].addr == rows[i].addr) {
			if (rows[i].cfa_reg != -1 || rows[k - 1].cfa_reg == -1)
				rows[k - 1] = rows[i];
			if (k > 1 && same_rule(&rows[k - 2], &rows[k - 1]))
				k--;
		} else if (!k || !same_rule(&rows[k - 1], &rows[i])) {
			rows[k++] = rows[i];
		}
	}
	o->ncfi = k;
}

/* ---- objects ---- */

static bool read_obj(struct ucollect *c, struct uobj *o)
{
	int fd = open(o->host, O_RDONLY | O_CLOEXEC), dfd = -1;
	Elf *elf, *delf = NULL;

	if (fd < 0) {
		warn(c, "missing unwind/symbol data for module '%s'%s", o->target, "");
		return false;
	}
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		warn(c, "missing unwind/symbol data for module '%s'%s", o->target,
		     " (not an ELF file)");
		if (elf)
			elf_end(elf);
		close(fd);
		return false;
	}
	add_str(o, "");
	read_phdrs(o, elf);
	/* a separate debuginfo file by build-id (Debian's -dbg/-dbgsym
	 * packages): its .symtab and line table, where the object has none */
	if (o->buildid[0]) {
		const char *dbg = arena_printf(c->a, "%s/usr/lib/debug/.build-id/%.2s/%s.debug",
					       c->root ? c->root : "", o->buildid,
					       o->buildid + 2);

		dfd = open(dbg, O_RDONLY | O_CLOEXEC);
		if (dfd >= 0)
			delf = elf_begin(dfd, ELF_C_READ_MMAP, NULL);
	}
	if (!read_syms(o, elf, false) && !(delf && read_syms(o, delf, false)))
		read_syms(o, elf, true);
	if (c->lines) {
		read_lines(o, fd);
		if (!o->nlines && dfd >= 0)
			read_lines(o, dfd);
	}
	read_cfi(o, elf);
	if (delf)
		elf_end(delf);
	if (dfd >= 0)
		close(dfd);
	elf_end(elf);
	close(fd);
	return true;
}

/* The host's name of target path @target, or NULL. */
static const char *host_path(struct ucollect *c, const char *target)
{
	const char *p = c->root && target[0] == '/' ?
		arena_printf(c->a, "%s%s", c->root, target) : target;

	return access(p, R_OK) == 0 ? p : NULL;
}

/* @name looked up in $PATH on this machine, or NULL. */
static const char *find_in_path(struct ucollect *c, const char *name)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL;

	if (!path)
		return NULL;
	copy = arena_strndup(c->a, path, strlen(path));
	for (dir = strtok_r(copy, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		const char *p = arena_printf(c->a, "%s/%s", *dir ? dir : ".", name);

		if (access(p, X_OK) == 0)
			return p;
	}
	return NULL;
}

/* Add the object the target names @target (read from @host); the target
 * name is the real path (the kernel's name of the mapped file). */
static struct uobj *add_obj(struct ucollect *c, const char *target, const char *host)
{
	char rp[PATH_MAX];
	size_t rlen = c->root ? strlen(c->root) : 0;
	unsigned int i;
	struct uobj *o;

	if (realpath(host, rp)) {
		host = arena_strndup(c->a, rp, strlen(rp));
		if (!rlen)
			target = host;
		else if (!strncmp(rp, c->root, rlen) && rp[rlen] == '/')
			target = host + rlen;
	}
	for (i = 0; i < c->n; i++)
		if (!strcmp(c->objs[i].host, host))
			return NULL;
	if (c->n == USYM_MAX_OBJS) {
		warn(c, "too many objects for symbol tables: '%s' left out%s", target, "");
		return NULL;
	}
	o = &c->objs[c->n];
	memset(o, 0, sizeof(*o));
	o->target = target;
	o->host = host;
	o->ok = read_obj(c, o);
	if (!o->ok) {
		sb_release(&o->strs);
		return NULL;
	}
	c->n++;
	return o;
}

/* --ldd: DT_NEEDED of @o, each found in its DT_RUNPATH/DT_RPATH ($ORIGIN
 * expanded), then the default directories, and its own needs in turn. */
static void add_needed(struct ucollect *c, const char *host, const char *target, int depth)
{
	static const char *const dirs[] = {
		"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64",
		"/usr/lib64", "/lib", "/usr/lib",
	};
	int fd = open(host, O_RDONLY | O_CLOEXEC);
	Elf *elf;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	const char *needed[64], *runpath = NULL;
	size_t nneeded = 0, i, j;
	char origin[PATH_MAX];

	if (fd < 0 || depth > USYM_MAX_DEPTH) {
		if (fd >= 0)
			close(fd);
		return;
	}
	snprintf(origin, sizeof(origin), "%s", target);
	if (strrchr(origin, '/'))
		*strrchr(origin, '/') = '\0';
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	while (elf && (scn = elf_nextscn(elf, scn))) {
		Elf_Data *d;
		size_t k, n;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC || !sh.sh_entsize)
			continue;
		d = elf_getdata(scn, NULL);
		n = sh.sh_size / sh.sh_entsize;
		for (k = 0; d && k < n; k++) {
			GElf_Dyn dyn;
			const char *s;

			if (!gelf_getdyn(d, (int)k, &dyn))
				continue;
			if (dyn.d_tag != DT_NEEDED && dyn.d_tag != DT_RUNPATH &&
			    dyn.d_tag != DT_RPATH)
				continue;
			s = elf_strptr(elf, sh.sh_link, dyn.d_un.d_val);
			if (!s)
				continue;
			s = arena_strndup(c->a, s, strlen(s));
			if (dyn.d_tag == DT_NEEDED) {
				if (nneeded < 64)
					needed[nneeded++] = s;
			} else {
				runpath = s;
			}
		}
	}
	if (elf)
		elf_end(elf);
	close(fd);
	for (i = 0; i < nneeded; i++) {
		const char *t = NULL, *h = NULL;
		struct uobj *o;

		if (strchr(needed[i], '/')) {
			t = needed[i];
			h = host_path(c, t);
		}
		if (!h && runpath) {
			char *copy = arena_strndup(c->a, runpath, strlen(runpath)), *save = NULL;
			const char *dir;

			for (dir = strtok_r(copy, ":", &save); dir && !h;
			     dir = strtok_r(NULL, ":", &save)) {
				if (!strncmp(dir, "$ORIGIN", 7))
					dir = arena_printf(c->a, "%s%s", origin, dir + 7);
				t = arena_printf(c->a, "%s/%s", dir, needed[i]);
				h = host_path(c, t);
			}
		}
		for (j = 0; !h && j < sizeof(dirs) / sizeof(dirs[0]); j++) {
			t = arena_printf(c->a, "%s/%s", dirs[j], needed[i]);
			h = host_path(c, t);
		}
		if (!h) {
			warn(c, "--ldd: cannot find '%s' needed by '%s'", needed[i], target);
			continue;
		}
		o = add_obj(c, t, h);
		if (o)
			add_needed(c, o->host, o->target, depth + 1);
	}
}

/* ---- output ---- */

static void emit_obj(struct strbuf *out, const struct uobj *o, unsigned int i,
		     struct arena *a)
{
	size_t k, at;

	(void)a;
	sb_addf(out, "/* %s: %zu symbols, %zu lines, %zu unwind rows */\n", o->target,
		o->nsyms, o->nlines, o->ncfi);
	sb_addf(out, "static const struct stp_useg stp_usegs%u[] = {\n", i);
	for (k = 0; k < o->nsegs; k++)
		sb_addf(out, "\t{ 0x%" PRIx64 "ULL, 0x%" PRIx64 "ULL, 0x%" PRIx64 "ULL },\n",
			o->seg[k][0], o->seg[k][1], o->seg[k][2]);
	sb_adds(out, "};\n");
	if (o->nsyms) {
		sb_addf(out, "static const struct stp_usym stp_usyms%u[] = {\n", i);
		for (k = 0; k < o->nsyms; k++)
			sb_addf(out, "{0x%" PRIx64 ",0x%" PRIx64 ",%zu},\n", o->syms[k].addr,
				o->syms[k].size, o->syms[k].name);
		sb_adds(out, "};\n");
	}
	if (o->nlines) {
		/* rows of three little-endian u32 (address less the base, file,
		 * line) in a string literal: gcc reads a large one several
		 * times faster than the same data as initialisers */
		sb_addf(out, "static const char stp_ulines%u[] =\n", i);
		for (k = 0; k < o->nlines; k++) {
			uint32_t v[3] = { (uint32_t)(o->lines[k].addr - o->base),
					  (uint32_t)o->lines[k].file, o->lines[k].line };
			int j, b;

			sb_addc(out, '"');
			for (j = 0; j < 3; j++)
				for (b = 0; b < 4; b++)
					sb_addf(out, "\\x%02x", (v[j] >> (8 * b)) & 0xff);
			sb_adds(out, "\"\n");
		}
		sb_adds(out, "\t;\n");
	}
	if (o->ncfi) {
		sb_addf(out, "static const struct stp_ucfi stp_ucfis%u[] = {\n", i);
		for (k = 0; k < o->ncfi; k++)
			sb_addf(out, "{0x%" PRIx64 ",%" PRId64 ",%d,%d,%d},\n",
				o->cfi[k].addr - o->base, o->cfi[k].cfa_off, o->cfi[k].ra_off,
				o->cfi[k].bp_off, o->cfi[k].cfa_reg);
		sb_adds(out, "};\n");
	}
	/* the strings: one literal per name, NUL-separated */
	sb_addf(out, "static const char stp_ustrs%u[] =\n", i);
	for (at = 0; at < o->strs.len;) {
		const char *s = o->strs.buf + at;
		size_t n = strlen(s);

		sb_adds(out, "\t\"");
		for (k = 0; k < n; k++) {
			unsigned char ch = (unsigned char)s[k];

			if (ch == '"' || ch == '\\')
				sb_addf(out, "\\%c", ch);
			else if (ch < 32 || ch >= 127)
				sb_addf(out, "\\%03o", ch);
			else
				sb_addc(out, (char)ch);
		}
		sb_adds(out, "\\0\"\n");
		at += n + 1;
	}
	sb_adds(out, "\t;\n\n");
}

void xl_usym_tables(const struct session *s, struct arena *a, const struct ptrvec *points,
		    bool lines, struct strbuf *out, struct strbuf *uses)
{
	struct ucollect *c = calloc(1, sizeof(*c));
	char rroot[PATH_MAX];
	unsigned int i, nprobed;
	int k;

	if (!c)
		abort();
	c->s = s;
	c->a = a;
	c->lines = lines;
	if (s->sysroot && realpath(s->sysroot, rroot))
		c->root = arena_strndup(a, rroot, strlen(rroot));
	elf_version(EV_CURRENT);
	/* the probed programs and libraries */
	for (i = 0; i < points->n; i++) {
		const struct elab_point *pt = points->v[i];
		const char *t = NULL, *h;

		if (!pt->family)
			continue;
		if (pt->family->mech == MECH_uprobe)
			t = uprobe_point(pt)->path;
		else if (pt->family->mech == MECH_proclife)
			t = proclife_point(pt)->path;
		if (!t || !(h = host_path(c, t)))
			continue;
		add_obj(c, t, h);
	}
	/* the program of -c CMD (its first word, an absolute path or found
	 * in $PATH on this machine) */
	if (s->target_cmd) {
		const char *cmd = s->target_cmd, *h;
		size_t n;

		while (*cmd == ' ' || *cmd == '\t')
			cmd++;
		n = strcspn(cmd, " \t");
		if (n) {
			const char *t = arena_strndup(a, cmd, n);

			if (!strchr(t, '/'))
				t = find_in_path(c, t);
			if (t && (h = host_path(c, t)))
				add_obj(c, t, h);
		}
	}
	nprobed = c->n;
	/* -d PATH */
	for (k = 0; k < s->user_objs.n; k++) {
		const char *t = s->user_objs.v[k], *h = host_path(c, t);

		if (!h) {	/* as the reference: a warning, the session goes on */
			warn(c, "missing unwind/symbol data for module '%s'%s", t, "");
			continue;
		}
		add_obj(c, t, h);
	}
	if (s->ldd)
		for (i = 0; i < c->n && i < USYM_MAX_OBJS; i++)
			add_needed(c, c->objs[i].host, c->objs[i].target, 0);
	(void)nprobed;
	for (i = 0; i < c->n; i++) {
		const struct uobj *o = &c->objs[i];

		if (s->verbose[2])
			fprintf(stderr, "Pass 3: symbols of %s: %zu symbols, %zu line rows, "
				"%zu unwind rows\n", o->target, o->nsyms, o->nlines, o->ncfi);
		emit_obj(out, o, i, a);
	}
	sb_adds(out, "static const struct stp_uobj stp_uobjs[] = {\n");
	for (i = 0; i < c->n; i++) {
		const struct uobj *o = &c->objs[i];
		const char *name = o->target;

		sb_adds(out, "\t{ .path = ");
		sb_adds(out, "\"");
		for (; *name; name++) {
			if (*name == '"' || *name == '\\')
				sb_addc(out, '\\');
			sb_addc(out, *name);
		}
		sb_addf(out, "\", .buildid = \"%s\", .dyn = %s, .base = 0x%" PRIx64 "ULL,\n"
			"\t  .size = 0x%" PRIx64 "ULL, .segs = stp_usegs%u, .nsegs = %u,\n"
			"\t  .strs = stp_ustrs%u,\n", o->buildid, o->dyn ? "true" : "false",
			o->base, o->end > o->base ? o->end - o->base : 0, i, o->nsegs, i);
		if (o->nsyms)
			sb_addf(out, "\t  .syms = stp_usyms%u, .nsyms = %zu,\n", i, o->nsyms);
		if (o->nlines)
			sb_addf(out, "\t  .lines = stp_ulines%u, .nlines = %zu,\n", i, o->nlines);
		if (o->ncfi)
			sb_addf(out, "\t  .cfi = stp_ucfis%u, .ncfi = %zu,\n", i, o->ncfi);
		sb_adds(out, "\t},\n");
	}
	if (!c->n)
		sb_adds(out, "\t{ .path = NULL },\n");
	sb_adds(out, "};\n\n");
	sb_addf(uses, "\t{ &stp_usym_family, stp_uobjs, %u, false },\n", c->n);
	for (i = 0; i < c->n; i++) {
		struct uobj *o = &c->objs[i];

		sb_release(&o->strs);
		free(o->syms);
		free(o->lines);
		free(o->cfi);
	}
	free(c);
}
