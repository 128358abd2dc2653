// SPDX-License-Identifier: GPL-2.0-or-later
/* dwarf_files.c: the file names of a compile unit, read from the header
 * of its line table alone. libdw's dwarf_getsrcfiles decodes the whole
 * line program to give them, which is a third of the time of indexing a
 * kernel; the function index needs only the names. Anything this reader
 * does not know (compressed or relocatable sections, string forms that
 * need other tables, DWARF older than 2 or newer than 5) makes it answer
 * false, and the caller asks libdw instead. */
#include "elaborate/dwarf_internal.h"

#include <errno.h>
#include <gelf.h>
#include <string.h>

#include "util/arena.h"
#include "util/intern.h"
#include "util/strbuf.h"

#define FT_MAX_FORMATS 16	/* entry formats of a DWARF 5 table */

struct cursor {
	const unsigned char *p, *end;
	bool bad;
};

static uint64_t rd(struct cursor *c, size_t n)
{
	uint64_t v = 0;
	size_t i;

	if (c->bad || (size_t)(c->end - c->p) < n) {
		c->bad = true;
		return 0;
	}
	for (i = 0; i < n; i++)		/* little-endian: x86-64 only */
		v |= (uint64_t)c->p[i] << (8 * i);
	c->p += n;
	return v;
}

static uint64_t uleb(struct cursor *c)
{
	uint64_t v = 0;
	unsigned int shift = 0;

	while (!c->bad) {
		uint64_t b = rd(c, 1);

		if (shift < 64)
			v |= (b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			break;
	}
	return v;
}

static const char *cstr(struct cursor *c)
{
	const char *s = (const char *)c->p;
	const unsigned char *nul;

	if (c->bad || !(nul = memchr(c->p, 0, (size_t)(c->end - c->p)))) {
		c->bad = true;
		return NULL;
	}
	c->p = nul + 1;
	return s;
}

/* A string at @off of section @d, NUL-terminated inside it. */
static const char *sec_str(const Elf_Data *d, uint64_t off)
{
	if (!d || off >= d->d_size ||
	    !memchr((const char *)d->d_buf + off, 0, d->d_size - off))
		return NULL;
	return (const char *)d->d_buf + off;
}

static void find_sections(struct dw_mod *m)
{
	Elf *elf = dwarf_getelf(m->dw);
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	size_t shstr;

	m->ft_looked = true;
	if (!elf || !gelf_getehdr(elf, &eh) || eh.e_type == ET_REL ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB ||
	    elf_getshdrstrndx(elf, &shstr) != 0)
		return;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data **slot = NULL;

		if (!gelf_getshdr(scn, &sh) ||
		    !(name = elf_strptr(elf, shstr, sh.sh_name)))
			continue;
		if (!strcmp(name, ".debug_line"))
			slot = &m->ft_line;
		else if (!strcmp(name, ".debug_line_str"))
			slot = &m->ft_line_str;
		else if (!strcmp(name, ".debug_str"))
			slot = &m->ft_str;
		if (!slot || (sh.sh_flags & SHF_COMPRESSED) || sh.sh_type == SHT_NOBITS)
			continue;
		*slot = elf_getdata(scn, NULL);
	}
}

/* One attribute of a DWARF 5 entry: a string for DW_LNCT_path, a
 * number for DW_LNCT_directory_index, skipped otherwise. */
static bool entry_value(struct dw_mod *m, struct cursor *c, uint64_t form,
			bool off64, const char **s, uint64_t *n)
{
	switch (form) {
	case DW_FORM_string: *s = cstr(c); return *s != NULL;
	case DW_FORM_line_strp: *s = sec_str(m->ft_line_str, rd(c, off64 ? 8 : 4)); return *s != NULL;
	case DW_FORM_strp: *s = sec_str(m->ft_str, rd(c, off64 ? 8 : 4)); return *s != NULL;
	case DW_FORM_udata: *n = uleb(c); return true;
	case DW_FORM_data1: *n = rd(c, 1); return true;
	case DW_FORM_data2: *n = rd(c, 2); return true;
	case DW_FORM_data4: *n = rd(c, 4); return true;
	case DW_FORM_data8: *n = rd(c, 8); return true;
	case DW_FORM_data16: rd(c, 8); rd(c, 8); return true;
	case DW_FORM_block: {
		uint64_t len = uleb(c);

		if (len > (uint64_t)(c->end - c->p))
			return false;
		c->p += len;
		return true;
	}
	default:
		return false;	/* strx and friends need .debug_str_offsets */
	}
}

/* A DWARF 5 directory or file table into @out (names, and for files
 * their directory indexes in @dirs). */
static bool table5(struct dw_mod *m, struct arena *a, struct cursor *c,
		   bool off64, const char ***out, uint64_t **dirs, size_t *n)
{
	uint64_t types[FT_MAX_FORMATS], forms[FT_MAX_FORMATS], count, i;
	size_t nfmt = (size_t)rd(c, 1), k;

	if (nfmt > FT_MAX_FORMATS)
		return false;
	for (k = 0; k < nfmt; k++) {
		types[k] = uleb(c);
		forms[k] = uleb(c);
	}
	count = uleb(c);
	if (c->bad || count > (uint64_t)(c->end - c->p))
		return false;	/* every entry takes a byte at least */
	*out = arena_alloc(a, sizeof(**out) * (count ? count : 1));
	if (dirs)
		*dirs = arena_alloc(a, sizeof(**dirs) * (count ? count : 1));
	for (i = 0; i < count; i++) {
		const char *name = NULL;
		uint64_t dir = 0;

		for (k = 0; k < nfmt; k++) {
			const char *s = NULL;
			uint64_t v = 0;

			if (!entry_value(m, c, forms[k], off64, &s, &v) || c->bad)
				return false;
			if (types[k] == DW_LNCT_path)
				name = s;
			else if (types[k] == DW_LNCT_directory_index)
				dir = v;
		}
		if (!name)
			return false;
		(*out)[i] = name;
		if (dirs)
			(*dirs)[i] = dir;
	}
	*n = (size_t)count;
	return true;
}

/* DWARF 2-4: directories, then files; index 0 is the compilation
 * directory, and file 0 is unused (libdw shows "???"). */
static bool tables4(struct arena *a, struct cursor *c, const char *comp_dir,
		    const char ***dv, size_t *nd, const char ***fv,
		    uint64_t **fdir, size_t *nf)
{
	struct ptrvec dirs = { 0 }, files = { 0 }, fdirs = { 0 };
	const char *s;

	vec_push(a, &dirs, (void *)comp_dir);
	while ((s = cstr(c)) && *s)
		vec_push(a, &dirs, (void *)s);
	vec_push(a, &files, (void *)"???");
	vec_push(a, &fdirs, (void *)0);
	while ((s = cstr(c)) && *s) {
		uint64_t d = uleb(c);

		uleb(c);	/* mtime */
		uleb(c);	/* length */
		vec_push(a, &files, (void *)s);
		vec_push(a, &fdirs, (void *)(uintptr_t)d);
	}
	if (c->bad)
		return false;
	*dv = (const char **)dirs.v;
	*nd = dirs.n;
	*fv = (const char **)files.v;
	*nf = files.n;
	*fdir = arena_alloc(a, sizeof(**fdir) * files.n);
	for (size_t i = 0; i < files.n; i++)
		(*fdir)[i] = (uintptr_t)fdirs.v[i];
	return true;
}

int dw_cu_files(struct elab *e, struct dw_mod *m, Dwarf_Die *cu, struct dw_files *out)
{
	const char **dv = NULL, **fv = NULL, *comp_dir;
	uint64_t off, len, hlen, *fdir = NULL;
	size_t nd = 0, nf = 0, i;
	struct cursor c;
	Dwarf_Attribute a;
	Dwarf_Word w;
	unsigned int ver;
	bool off64 = false, ok;

	if (!m->ft_looked)
		find_sections(m);
	if (!m->ft_line || !dwarf_attr(cu, DW_AT_stmt_list, &a) ||
	    dwarf_formudata(&a, &w) != 0)
		return -ENODATA;
	if (w >= m->ft_line->d_size)
		return -EBADMSG;
	off = w;
	c = (struct cursor){ (const unsigned char *)m->ft_line->d_buf + off,
			     (const unsigned char *)m->ft_line->d_buf + m->ft_line->d_size,
			     false };
	len = rd(&c, 4);
	if (len == 0xffffffffu) {
		off64 = true;
		len = rd(&c, 8);
	}
	if (c.bad || len > (uint64_t)(c.end - c.p))
		return -EBADMSG;
	c.end = c.p + len;
	ver = (unsigned int)rd(&c, 2);
	if (ver < 2 || ver > 5)
		return c.bad ? -EBADMSG : -ENOTSUP;
	if (ver >= 5 && (rd(&c, 1) != 8 || rd(&c, 1) != 0))
		return -ENOTSUP;	/* address and segment selector sizes */
	hlen = rd(&c, off64 ? 8 : 4);
	if (c.bad || hlen > (uint64_t)(c.end - c.p))
		return -EBADMSG;
	c.end = c.p + hlen;	/* the header only */
	rd(&c, ver >= 4 ? 5 : 4);	/* min insn, [max ops], is_stmt, base, range */
	w = rd(&c, 1);		/* opcode_base */
	if (c.bad || !w || w - 1 > (uint64_t)(c.end - c.p))
		return -EBADMSG;
	c.p += w - 1;		/* standard opcode lengths */
	if (ver >= 5) {
		ok = table5(m, e->a, &c, off64, &dv, NULL, &nd) &&
		     table5(m, e->a, &c, off64, &fv, &fdir, &nf);
	} else {
		comp_dir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &a));
		ok = tables4(e->a, &c, comp_dir, &dv, &nd, &fv, &fdir, &nf);
	}
	if (!ok || c.bad)
		return -EBADMSG;
	out->n = nf;
	out->name = arena_alloc(e->a, sizeof(*out->name) * (nf ? nf : 1));
	out->dir = arena_alloc(e->a, sizeof(*out->dir) * (nf ? nf : 1));
	out->base = fv;
	for (i = 0; i < nf; i++) {
		if (fdir[i] >= nd)
			return -EBADMSG;
		out->name[i] = NULL;	/* made on first use */
		out->dir[i] = fv[i][0] != '/' && (ver >= 5 || i) ? dv[fdir[i]] : NULL;
	}
	return 0;
}

const char *dw_file_name(struct elab *e, struct dw_files *f, size_t i)
{
	if (i >= f->n)
		return intern(e->in, "");
	if (!f->name[i]) {
		struct strbuf sb = STRBUF_INIT;

		if (f->dir[i]) {
			sb_adds(&sb, f->dir[i]);
			sb_addc(&sb, '/');
		}
		sb_adds(&sb, f->base[i]);
		f->name[i] = intern_n(e->in, sb.buf, sb.len);
		sb_release(&sb);
	}
	return f->name[i];
}
