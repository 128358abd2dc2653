// SPDX-License-Identifier: GPL-2.0-or-later
/* ksyms_elf.c: function tables from ELF files (vmlinux, .ko) and of modules. */
#include "config.h"

#include "elaborate/ksyms.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#ifdef HAVE_LIBLZMA
#include <lzma.h>
#endif
#ifdef HAVE_LIBZ
#include <zlib.h>
#endif

#include "elaborate/ksyms_internal.h"
#include "util/arena.h"
#include "util/diag.h"

/* The symbols bounding the tables read from a vmlinux (ELF symbols of
 * the linker script, in its data sections). */
enum { B_KBL, B_JUMP, B_SCALL, B_BUG, B_NR };
static const char *const bound_names[B_NR][2] = {
	[B_KBL] = { "__start_kprobe_blacklist", "__stop_kprobe_blacklist" },
	[B_JUMP] = { "__start___jump_table", "__stop___jump_table" },
	[B_SCALL] = { "__start_static_call_sites", "__stop_static_call_sites" },
	[B_BUG] = { "__start___bug_table", "__stop___bug_table" },
};

/* The bytes of @elf at address @addr, @len of them, in the section that
 * holds them, or NULL. */
static const unsigned char *elf_bytes_at(Elf *elf, uint64_t addr, uint64_t len)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	Elf_Data *d;

	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    addr < sh.sh_addr || addr + len > sh.sh_addr + sh.sh_size)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf || addr - sh.sh_addr + len > d->d_size)
			return NULL;
		return (const unsigned char *)d->d_buf + (addr - sh.sh_addr);
	}
	return NULL;
}

static int32_t s32_at(const unsigned char *p)
{
	int32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* A patched instruction at @lo of @size bytes; when an endbr64 comes
 * right before it, a probe there too: kprobes move a probe at a
 * function's endbr64 past it (IBT kernels). */
static void note_patched(struct ksyms_collect *c, Elf *elf, uint64_t lo, uint64_t size,
			 const char *why)
{
	static const unsigned char endbr64[4] = { 0xf3, 0x0f, 0x1e, 0xfa };
	const unsigned char *p = lo >= 4 ? elf_bytes_at(elf, lo - 4, 4) : NULL;

	ksyms_note_reserved(c, lo, lo + size - 1, why);
	if (p && !memcmp(p, endbr64, 4))
		ksyms_note_reserved(c, lo - 4, lo - 1, why);
}

/* The kernel's tables of what it refuses to probe, from a vmlinux: the
 * addresses of the _kprobe_blacklist section (NOKPROBE_SYMBOL() and the
 * assembly's _ASM_NOKPROBE()), and the instructions it patches (struct
 * ksym_reserved): x86-64's relative jump entries (code, target: 32 bits
 * each from their own place; a key), static call sites (address, key: 32
 * bits each) and BUG() entries (address, file: 32 bits each; line,
 * flags: 16). A static branch is a 2- or 5-byte jump or nop. */
static void elf_kernel_tables(struct ksyms_collect *c, Elf *elf, Elf_Data *syms,
			      const GElf_Shdr *symsh, Elf_Data *xdata)
{
	uint64_t b[B_NR][2] = { { 0 } }, i, n;
	size_t k, nsym = symsh->sh_size / symsh->sh_entsize;
	const unsigned char *t, *ins;
	int j;

	for (k = 1; k < nsym; k++) {
		GElf_Sym sym;
		Elf32_Word xndx = 0;
		const char *name;

		if (!gelf_getsymshndx(syms, xdata, (int)k, &sym, &xndx))
			continue;
		name = elf_strptr(elf, symsh->sh_link, sym.st_name);
		if (!name || strncmp(name, "__st", 4))
			continue;
		for (j = 0; j < B_NR; j++) {
			if (!strcmp(name, bound_names[j][0]))
				b[j][0] = sym.st_value;
			else if (!strcmp(name, bound_names[j][1]))
				b[j][1] = sym.st_value;
		}
	}
	n = b[B_KBL][1] > b[B_KBL][0] ? (b[B_KBL][1] - b[B_KBL][0]) / 8 : 0;
	t = n ? elf_bytes_at(elf, b[B_KBL][0], n * 8) : NULL;
	if (t) {
		c->nkbla = (size_t)n;
		c->kbla = ksyms_xrealloc(NULL, c->nkbla * sizeof(*c->kbla));
		memcpy(c->kbla, t, c->nkbla * 8);
	}
	if (elf_getident(elf, NULL)[EI_CLASS] != ELFCLASS64 ||
	    elf_getident(elf, NULL)[EI_DATA] != ELFDATA2LSB ||
	    __BYTE_ORDER != __LITTLE_ENDIAN)
		return;		/* the layouts below are x86-64's */
	n = b[B_JUMP][1] > b[B_JUMP][0] ? (b[B_JUMP][1] - b[B_JUMP][0]) / 16 : 0;
	t = n ? elf_bytes_at(elf, b[B_JUMP][0], n * 16) : NULL;
	for (i = 0; t && i < n; i++) {
		uint64_t code = b[B_JUMP][0] + i * 16 + (uint64_t)(int64_t)s32_at(t + i * 16);

		ins = elf_bytes_at(elf, code, 1);
		if (ins)
			note_patched(c, elf, code, *ins == 0xe9 || *ins == 0x0f ? 5 : 2,
				     ksym_refused_jump_label);
	}
	n = b[B_SCALL][1] > b[B_SCALL][0] ? (b[B_SCALL][1] - b[B_SCALL][0]) / 8 : 0;
	t = n ? elf_bytes_at(elf, b[B_SCALL][0], n * 8) : NULL;
	for (i = 0; t && i < n; i++)
		note_patched(c, elf, b[B_SCALL][0] + i * 8 + (uint64_t)(int64_t)s32_at(t + i * 8), 5,
			     ksym_refused_static_call_site);
	n = b[B_BUG][1] > b[B_BUG][0] && (b[B_BUG][1] - b[B_BUG][0]) % 12 == 0 ?
	    (b[B_BUG][1] - b[B_BUG][0]) / 12 : 0;
	t = n ? elf_bytes_at(elf, b[B_BUG][0], n * 12) : NULL;
	for (i = 0; t && i < n; i++)
		note_patched(c, elf, b[B_BUG][0] + i * 12 + (uint64_t)(int64_t)s32_at(t + i * 12), 1,
			     ksym_refused_bug);
}

/* Collect the .symtab of @elf. 0 or -errno with @why set. */
static int elf_collect(struct ksyms_collect *c, Elf *elf, char *why,
		       size_t whylen)
{
	GElf_Ehdr eh;
	GElf_Shdr sh, symsh = { 0 };
	Elf_Scn *scn = NULL, *symscn = NULL;
	Elf_Data *data, *xdata = NULL;
	const char **secwhy;
	size_t shnum, shstr, i, nsym;

	if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh))
		return diag_describe(why, whylen, -ENOEXEC, "not an ELF file");
	if (elf_getshdrnum(elf, &shnum) || elf_getshdrstrndx(elf, &shstr))
		return diag_describe(why, whylen, -ENOEXEC, "%s", elf_errmsg(-1));
	/* The refusal of each section's functions, by section index. */
	secwhy = ksyms_xrealloc(NULL, (shnum ? shnum : 1) * sizeof(*secwhy));
	memset(secwhy, 0, (shnum ? shnum : 1) * sizeof(*secwhy));
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB) {
			symscn = scn;
			symsh = sh;
		} else if (sh.sh_type == SHT_SYMTAB_SHNDX) {
			xdata = elf_getdata(scn, NULL);
		}
		if (elf_ndxscn(scn) < shnum)
			secwhy[elf_ndxscn(scn)] = ksyms_section_refusal(
				elf_strptr(elf, shstr, sh.sh_name));
		/* a module's __exit code stays while it is loaded, and its
		 * __init code is there while its init function runs: the
		 * module notifier arms a module's points before that, and
		 * the kernel disarms those in init text when it frees it */
		if (elf_ndxscn(scn) < shnum && eh.e_type == ET_REL &&
		    (secwhy[elf_ndxscn(scn)] == ksym_refused_exit ||
		     secwhy[elf_ndxscn(scn)] == ksym_refused_init))
			secwhy[elf_ndxscn(scn)] = NULL;
	}
	data = symscn ? elf_getdata(symscn, NULL) : NULL;
	if (!data || !symsh.sh_entsize) {
		free(secwhy);
		return diag_describe(why, whylen, -ENOEXEC,
				  "no symbol table (.symtab): stripped?");
	}
	c->use_areas = eh.e_type != ET_REL;
	c->sized = true;
	nsym = symsh.sh_size / symsh.sh_entsize;
	for (i = 1; i < nsym; i++) {
		GElf_Sym sym;
		Elf32_Word xndx = 0;
		const char *name;
		size_t ndx;
		int type;
		bool text;

		if (!gelf_getsymshndx(data, xdata, (int)i, &sym, &xndx)) {
			c->malformed++;
			continue;
		}
		name = elf_strptr(elf, symsh.sh_link, sym.st_name);
		if (!name) {
			c->malformed++;
			continue;
		}
		if (!*name)
			continue;
		ndx = sym.st_shndx == SHN_XINDEX ? xndx : sym.st_shndx;
		type = GELF_ST_TYPE(sym.st_info);
		text = (type == STT_FUNC || type == STT_GNU_IFUNC) &&
		       ndx != SHN_UNDEF && ndx < shnum &&
		       (sym.st_shndx < SHN_LORESERVE ||
			sym.st_shndx == SHN_XINDEX);
		ksyms_note(c, name, strlen(name), sym.st_value, text,
			   sym.st_size, text ? secwhy[ndx] : NULL);
	}
	free(secwhy);
	if (eh.e_type != ET_REL)
		elf_kernel_tables(c, elf, data, &symsh, xdata);
	return 0;
}

#ifdef HAVE_LIBLZMA
static int unxz(const char *path, char **out, size_t *outlen, char *why,
		size_t whylen)
{
	lzma_stream s = LZMA_STREAM_INIT;
	char *in = NULL, *o = NULL;
	size_t inlen = 0, cap;
	lzma_ret r;
	int err;

	err = ksyms_slurp(path, &in, &inlen, why, whylen);
	if (err)
		return err;
	if (lzma_stream_decoder(&s, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK) {
		err = diag_describe(why, whylen, -ENOMEM,
				 "cannot start the xz decoder");
		goto out;
	}
	cap = 4 * inlen + 4096;
	o = ksyms_xrealloc(NULL, cap);
	s.next_in = (const uint8_t *)in;
	s.avail_in = inlen;
	s.next_out = (uint8_t *)o;
	s.avail_out = cap;
	while ((r = lzma_code(&s, LZMA_FINISH)) != LZMA_STREAM_END) {
		if (s.avail_out == 0) {
			o = ksyms_xrealloc(o, 2 * cap);
			s.next_out = (uint8_t *)o + cap;
			s.avail_out = cap;
			cap *= 2;
		} else if (r != LZMA_OK) {
			err = diag_describe(why, whylen, -EBADMSG,
					 "corrupt or truncated xz data (liblzma error %d)",
					 (int)r);
			goto out;
		}
	}
	*out = o;
	*outlen = (size_t)s.total_out;
	o = NULL;
out:
	lzma_end(&s);
	free(in);
	free(o);
	return err;
}
#endif

#ifdef HAVE_LIBZ
static int ungz(const char *path, char **out, size_t *outlen, char *why,
		size_t whylen)
{
	size_t len = 0, cap = 0;
	char *o = NULL;
	gzFile z;
	int got, e;

	errno = 0;
	z = gzopen(path, "rb");
	if (!z)
		return diag_describe(why, whylen, errno ? -errno : -ENOMEM, "%s",
				  strerror(errno ? errno : ENOMEM));
	do {
		if (cap - len < 65536) {
			cap = cap ? 2 * cap : 1 << 20;
			o = ksyms_xrealloc(o, cap);
		}
		got = gzread(z, o + len, 65536);
		if (got > 0)
			len += (size_t)got;
	} while (got > 0);
	if (got < 0) {
		diag_describe(why, whylen, -EBADMSG, "corrupt gzip data: %s",
			   gzerror(z, &e));
		gzclose(z);
		free(o);
		return -EBADMSG;
	}
	gzclose(z);
	*out = o;
	*outlen = len;
	return 0;
}
#endif

static bool has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), k = strlen(suf);

	return n >= k && !strcmp(s + n - k, suf);
}

/* Decompress @path per its name: 0 with *@out set, 1 when it is not
 * compressed, -errno with @why set. */
static int decompress(const char *path, char **out, size_t *outlen,
		      char *why, size_t whylen)
{
	(void)out;	/* unused without liblzma and zlib */
	(void)outlen;
	if (has_suffix(path, ".zst"))
		return diag_describe(why, whylen, -ENOTSUP,
				  "zstd-compressed, which stap cannot read: unzstd it and use the .ko");
	if (has_suffix(path, ".xz")) {
#ifdef HAVE_LIBLZMA
		return unxz(path, out, outlen, why, whylen);
#else
		return diag_describe(why, whylen, -ENOTSUP,
				  "xz-compressed, and stap was built without liblzma: unxz it and use the .ko");
#endif
	}
	if (has_suffix(path, ".gz")) {
#ifdef HAVE_LIBZ
		return ungz(path, out, outlen, why, whylen);
#else
		return diag_describe(why, whylen, -ENOTSUP,
				  "gzip-compressed, and stap was built without zlib: gunzip it and use the .ko");
#endif
	}
	return 1;
}

int ksyms_read_elf(struct ksyms *ks, struct arena *a, const char *path,
		   const char *module, char *why, size_t whylen)
{
	struct ksyms_collect c;
	char *buf = NULL;
	size_t len = 0;
	Elf *elf = NULL;
	int fd = -1, err;

	ksyms_collect_init(&c, a);
	err = decompress(path, &buf, &len, why, whylen);
	if (err < 0)
		goto out;
	elf_version(EV_CURRENT);
	if (!err) {
		elf = elf_memory(buf, len);
	} else {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			err = diag_describe(why, whylen, -errno, "%s",
					 strerror(errno));
			goto out;
		}
		elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	}
	if (!elf) {
		err = diag_describe(why, whylen, -ENOEXEC, "%s", elf_errmsg(-1));
		goto out;
	}
	err = elf_collect(&c, elf, why, whylen);
	if (!err)
		ksyms_finish(&c, ks, module);
out:
	elf_end(elf);
	if (fd >= 0)
		close(fd);
	free(buf);
	ksyms_collect_free(&c);
	return err;
}

static const char *canon_modname(struct arena *a, const char *mod)
{
	char *s = arena_strndup(a, mod, strlen(mod)), *p;

	for (p = s; *p; p++)
		if (*p == '-')
			*p = '_';
	return s;
}

int ksyms_load_elf(struct ksyms *ks, struct arena *a, const char *path,
		   const char *module, char *errbuf, size_t errlen)
{
	char why[256];
	int err;

	memset(ks, 0, sizeof(*ks));
	if (module)
		module = canon_modname(a, module);
	err = ksyms_read_elf(ks, a, path, module, why, sizeof(why));
	if (err)
		return diag_describe(errbuf, errlen, err, "%s: %s", path, why);
	ks->origin = arena_strndup(a, path, strlen(path));
	return 0;
}

static char *path_join(const char *dir, const char *name)
{
	size_t d = strlen(dir), n = strlen(name);
	char *p = ksyms_xrealloc(NULL, d + n + 2);

	memcpy(p, dir, d);
	p[d] = '/';
	memcpy(p + d + 1, name, n + 1);
	return p;
}

/* The length of @fname without its module suffix, 0 if it has none. */
static size_t ko_stem(const char *fname)
{
	static const char *const suffixes[] = { ".ko", ".ko.xz", ".ko.gz",
						".ko.zst" };
	size_t i;

	for (i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++)
		if (has_suffix(fname, suffixes[i]))
			return strlen(fname) - strlen(suffixes[i]);
	return 0;
}

/* Depth-first walk of the module files below @dir: @fn(@ctx, path,
 * file name, stem length) for each; stops when it returns true. */
static bool walk_ko(const char *dir, int depth,
		    bool (*fn)(void *ctx, const char *path, const char *name, size_t stem),
		    void *ctx)
{
	struct dirent *e;
	bool stop = false;
	DIR *d;

	if (depth > 16 || !(d = opendir(dir)))
		return false;
	while (!stop && (e = readdir(d))) {
		unsigned char type = e->d_type;
		struct stat st;
		size_t stem;
		char *p;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		p = path_join(dir, e->d_name);
		if (type == DT_UNKNOWN && !lstat(p, &st))
			type = S_ISDIR(st.st_mode) ? DT_DIR :
			       S_ISREG(st.st_mode) ? DT_REG : DT_LNK;
		/* a link to a file counts (links to directories are not
		 * followed: no loops) */
		if (type == DT_LNK && !stat(p, &st) && S_ISREG(st.st_mode))
			type = DT_REG;
		if (type == DT_REG && (stem = ko_stem(e->d_name)))
			stop = fn(ctx, p, e->d_name, stem);
		else if (type == DT_DIR)
			stop = walk_ko(p, depth + 1, fn, ctx);
		free(p);
	}
	closedir(d);
	return stop;
}

struct find_one {
	const char *mod;
	char *found;		/* malloc'd */
};

static bool find_one(void *ctx, const char *path, const char *name, size_t stem)
{
	struct find_one *f = ctx;

	if (!ksyms_modname_eq(name, stem, f->mod))
		return false;
	f->found = strdup(path);
	return true;
}

const char *ksyms_find_module_file(struct arena *a, const char *dir,
				   const char *mod)
{
	struct find_one f = { mod, NULL };
	const char *s;

	walk_ko(dir, 0, find_one, &f);
	s = f.found ? arena_strndup(a, f.found, strlen(f.found)) : NULL;
	free(f.found);
	return s;
}

struct find_glob {
	struct arena *a;
	const char *glob;	/* '-' as '_' */
	struct ptrvec *names, *paths;
};

static bool find_glob(void *ctx, const char *path, const char *name, size_t stem)
{
	struct find_glob *f = ctx;
	char *n = arena_strndup(f->a, name, stem), *q;

	for (q = n; *q; q++)
		if (*q == '-')
			*q = '_';
	if (!fnmatch(f->glob, n, 0)) {
		vec_push(f->a, f->names, n);
		vec_push(f->a, f->paths, arena_strndup(f->a, path, strlen(path)));
	}
	return false;
}

void ksyms_list_modules(struct arena *a, const char *dir, const char *glob,
			struct ptrvec *names, struct ptrvec *paths)
{
	struct find_glob f = { a, canon_modname(a, glob), names, paths };

	walk_ko(dir, 0, find_glob, &f);
}

int ksyms_load_module(struct ksyms *ks, struct arena *a, const char *release,
		      const char *mod, char *errbuf, size_t errlen)
{
	const char *running = NULL, *name, *dir, *path;
	struct utsname u;
	char why[256];
	int r;

	memset(ks, 0, sizeof(*ks));
	if (uname(&u) == 0)
		running = u.release;
	if (!release)
		release = running;
	if (!mod || !*mod || !release)
		return diag_describe(errbuf, errlen, -EINVAL,
				  "module '%s': no module name or kernel release",
				  mod ? mod : "");
	name = canon_modname(a, mod);
	if (running && !strcmp(running, release)) {
		r = ksyms_read_map(ks, a, "/proc/kallsyms", name, why,
				   sizeof(why));
		if (!r && ks->n) {
			ks->origin = "/proc/kallsyms";
			return 0;
		}
		if (!r)
			snprintf(why, sizeof(why), "not loaded");
		vec_push(a, &ks->tried,
			 arena_printf(a, "/proc/kallsyms (%s)", why));
	} else {
		vec_push(a, &ks->tried, arena_printf(a,
			 "/proc/kallsyms (kernel %s is not the running one)",
			 release));
	}
	dir = arena_printf(a, "/lib/modules/%s", release);
	path = ksyms_find_module_file(a, dir, mod);
	if (!path) {
		vec_push(a, &ks->tried, arena_printf(a,
			 "%s/**/%s.ko{,.xz,.gz,.zst}", dir, name));
		return diag_describe(errbuf, errlen, -ENOENT,
				  "module '%s': not loaded, and no %s.ko under %s",
				  mod, name, dir);
	}
	vec_push(a, &ks->tried, (void *)path);
	ks->v = NULL;
	ks->n = 0;
	r = ksyms_read_elf(ks, a, path, name, why, sizeof(why));
	if (r)
		return diag_describe(errbuf, errlen, r, "module '%s': %s: %s", mod,
				  path, why);
	ks->origin = path;
	return 0;
}
