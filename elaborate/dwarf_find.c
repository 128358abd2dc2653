// SPDX-License-Identifier: GPL-2.0-or-later
/* dwarf_find.c: finding and opening debuginfo (the kernel's vmlinux, a
 * module's .ko, a user program or library) with libdwfl, and the ELF
 * symbols that name probe addresses. */
#include "elaborate/dwarf_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "elaborate/ksyms.h"
#include "session.h"
#include "util/arena.h"
#include "util/elf_section.h"
#include "util/intern.h"
#include "util/kernel_info.h"
#include "util/strbuf.h"

static bool is_file(const char *p)
{
	struct stat st;

	return p && stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* The debuginfo roots: SYSTEMTAP_DEBUGINFO_PATH's absolute directories
 * (its elfutils-style '+', '.debug' and relative entries do not name
 * roots), else /usr/lib/debug. */
static void debug_roots(struct arena *a, struct ptrvec *out)
{
	const char *env = getenv("SYSTEMTAP_DEBUGINFO_PATH");
	char *copy, *tok, *save = NULL;

	if (env && *env) {
		copy = arena_strndup(a, env, strlen(env));
		for (tok = strtok_r(copy, ":", &save); tok;
		     tok = strtok_r(NULL, ":", &save))
			if (tok[0] == '/')
				vec_push(a, out, tok);
	}
	if (!out->n)
		vec_push(a, out, (void *)"/usr/lib/debug");
}

static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	/* NULL: libdwfl's default path, ":.debug:/usr/lib/debug" */
	.debuginfo_path = NULL,
};

/* Open @path as a module of a new Dwfl. 0, or -errno with *@why set
 * (doc/errors.md): -ENOMEM (libdwfl could not start), -ENOEXEC (not an
 * ELF file libdwfl can read), -ENODATA (no DWARF in it). */
static int open_file(struct elab *e, struct dw_mod *m, const char *path,
		     const char **why)
{
	Dwarf_Addr bias;
	int err;

	m->dwfl = dwfl_begin(&offline_callbacks);
	if (!m->dwfl) {
		*why = arena_printf(e->a, "libdwfl: %s", dwfl_errmsg(-1));
		return -ENOMEM;
	}
	dwfl_report_begin(m->dwfl);
	m->dm = dwfl_report_offline(m->dwfl, m->name, path, -1);
	dwfl_report_end(m->dwfl, NULL, NULL);
	if (!m->dm) {
		*why = arena_printf(e->a, "cannot read '%s': %s", path,
				    dwfl_errmsg(-1));
		err = -ENOEXEC;
		goto fail;
	}
	m->dw = dwfl_module_getdwarf(m->dm, &bias);
	if (!m->dw && m->kind == DW_USER && dwfl_module_getelf(m->dm, &bias) &&
	    dwfl_module_getsymtab(m->dm) > 0) {
		/* a program or library without debuginfo: its functions are
		 * those of its symbol table (.symtab, else .dynsym), without
		 * variables, as the reference has them */
		m->bias = bias;
		m->path = arena_strndup(e->a, path, strlen(path));
		return 0;
	}
	if (!m->dw) {
		*why = arena_printf(e->a, "'%s' has no DWARF debuginfo", path);
		err = -ENODATA;
		goto fail;
	}
	m->bias = bias;
	m->path = arena_strndup(e->a, path, strlen(path));
	return 0;
fail:
	dwfl_end(m->dwfl);
	m->dwfl = NULL;
	m->dm = NULL;
	return err;
}

/* The running kernel's build-id (when @release is the host's). */
static size_t host_kernel_build_id(const char *release, unsigned char *id,
				   size_t max)
{
	struct utsname u;
	unsigned char buf[4096];
	ssize_t n;
	size_t off = 0;
	int fd;

	if (uname(&u) != 0 || strcmp(u.release, release))
		return 0;
	fd = open("/sys/kernel/notes", O_RDONLY);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	while (n > 0 && off + 12 <= (size_t)n) {
		uint32_t namesz, descsz, type;

		memcpy(&namesz, buf + off, 4);
		memcpy(&descsz, buf + off + 4, 4);
		memcpy(&type, buf + off + 8, 4);
		off += 12;
		if (off + ((namesz + 3) & ~3u) + descsz > (size_t)n)
			break;
		if (type == 3 && namesz == 4 && !memcmp(buf + off, "GNU", 4) &&
		    descsz <= max) {
			memcpy(id, buf + off + 4, descsz);
			return descsz;
		}
		off += ((namesz + 3) & ~3u) + ((descsz + 3) & ~3u);
	}
	return 0;
}

static bool build_id_matches(struct dw_mod *m, const unsigned char *want,
			     size_t n)
{
	const unsigned char *bits;
	GElf_Addr vaddr;
	int len;

	if (!n)
		return true;
	len = dwfl_module_build_id(m->dm, &bits, &vaddr);
	return len <= 0 || ((size_t)len == n && !memcmp(bits, want, n));
}

static const char *debug_package_hint(struct elab *e, const char *release)
{
	return arena_printf(e->a, "install the Debian package "
			    "linux-image-%s-dbg (apt-get install linux-image-%s-dbg), "
			    "or set SYSTEMTAP_DEBUGINFO_PATH to the directory that "
			    "holds boot/vmlinux-%s", release, release, release);
}

/* The kernel's vmlinux. 0, or -ENOENT with *@why listing the places
 * looked at and the last reason a candidate was refused. */
static int open_kernel(struct elab *e, struct dw_mod *m, const char **why)
{
	const char *rel = e->ki->release;
	struct ptrvec roots = { 0 }, cands = { 0 };
	unsigned char id[64];
	size_t idn = host_kernel_build_id(rel, id, sizeof(id)), i;
	struct strbuf tried = STRBUF_INIT;
	const char *last = NULL;

	debug_roots(e->a, &roots);
	for (i = 0; i < roots.n; i++) {
		vec_push(e->a, &cands, arena_printf(e->a, "%s/boot/vmlinux-%s",
						     (char *)roots.v[i], rel));
		vec_push(e->a, &cands, arena_printf(e->a, "%s/lib/modules/%s/vmlinux",
						     (char *)roots.v[i], rel));
	}
	vec_push(e->a, &cands, arena_printf(e->a, "/boot/vmlinux-%s", rel));
	if (e->ki->build_dir)
		vec_push(e->a, &cands, arena_printf(e->a, "%s/vmlinux",
						     e->ki->build_dir));
	for (i = 0; i < cands.n; i++) {
		const char *p = cands.v[i];

		sb_addf(&tried, "%s%s", i ? ", " : "", p);
		if (!is_file(p))
			continue;
		if (open_file(e, m, p, &last) != 0)
			continue;
		if (!build_id_matches(m, id, idn)) {
			last = arena_printf(e->a, "'%s' is not the running kernel's "
					    "(build-id differs)", p);
			dwfl_end(m->dwfl);
			m->dwfl = NULL;
			continue;
		}
		sb_release(&tried);
		return 0;
	}
	/* --remote=qemu: the VM's kernel's,
	 * fetched on first use */
	if (e->sess->fetch_debuginfo) {
		const char *root = e->sess->fetch_debuginfo(e->a, rel, NULL);
		const char *p = root ? arena_printf(e->a, "%s/boot/vmlinux-%s", root, rel) : NULL;

		if (p && is_file(p) && open_file(e, m, p, &last) == 0) {
			sb_release(&tried);
			return 0;
		}
	}
	*why = arena_printf(e->a, "missing kernel debuginfo for %s (looked for %s%s%s); %s",
			    rel, sb_str(&tried), last ? "; " : "", last ? last : "",
			    debug_package_hint(e, rel));
	sb_release(&tried);
	return -ENOENT;
}

/* Where kernel modules of the release are looked for, in order: the
 * debuginfo roots' lib/modules/REL, /lib/modules/REL, then the build tree
 * (-r DIR: where the reference looks for them). */
static void kmodule_dirs(struct elab *e, struct ptrvec *dirs)
{
	const char *rel = e->ki->release;
	struct ptrvec roots = { 0 };
	size_t i;

	debug_roots(e->a, &roots);
	for (i = 0; i < roots.n; i++)
		vec_push(e->a, dirs, arena_printf(e->a, "%s/lib/modules/%s",
						  (char *)roots.v[i], rel));
	vec_push(e->a, dirs, arena_printf(e->a, "/lib/modules/%s", rel));
	if (e->ki->build_dir)
		vec_push(e->a, dirs, (void *)e->ki->build_dir);
}

/* Module @mod's .ko. 0, or -ENOENT with *@why set. */
static int open_kmodule(struct elab *e, struct dw_mod *m, const char *mod,
			const char **why)
{
	const char *rel = e->ki->release;
	struct ptrvec dirs = { 0 };
	const char *last = NULL, *p;
	size_t i;

	/* a module dw_kmodule_names listed: its file is known */
	p = ptrmap_get(&e->kmod_paths, intern(e->in, mod));
	if (p && open_file(e, m, p, &last) == 0)
		return 0;
	kmodule_dirs(e, &dirs);
	for (i = 0; i < dirs.n; i++) {
		p = ksyms_find_module_file(e->a, dirs.v[i], mod);
		if (p && open_file(e, m, p, &last) == 0)
			return 0;
	}
	/* --remote=qemu: the module's .ko from the -dbg package, on first use
	 * (a name, not a pattern: those match only what is there) */
	if (e->sess->fetch_debuginfo && !strpbrk(mod, "*?[")) {
		const char *root = e->sess->fetch_debuginfo(e->a, rel, mod);

		p = root ? ksyms_find_module_file(e->a, arena_printf(e->a, "%s/lib/modules/%s",
								     root, rel), mod) : NULL;
		if (p && open_file(e, m, p, &last) == 0)
			return 0;
	}
	*why = arena_printf(e->a, "missing debuginfo for module '%s' of %s%s%s; %s",
			    mod, rel, last ? ": " : "", last ? last : "",
			    debug_package_hint(e, rel));
	return -ENOENT;
}

size_t dw_kmodule_names(struct elab *e, const char *glob, const char ***out)
{
	struct ptrvec dirs = { 0 }, names = { 0 }, paths = { 0 };
	size_t i;

	kmodule_dirs(e, &dirs);
	for (i = 0; i < dirs.n; i++)
		ksyms_list_modules(e->a, dirs.v[i], glob, &names, &paths);
	for (i = 0; i < names.n; i++) {	/* the first directory's file wins */
		const char *key = intern(e->in, names.v[i]);

		if (!ptrmap_get(&e->kmod_paths, key))
			ptrmap_put(e->a, &e->kmod_paths, key, paths.v[i]);
	}
	*out = (const char **)names.v;
	return vec_sort_unique_str(&names);
}

/* A program named without '/' is searched in $PATH, as a shell would. */
static const char *find_program(struct elab *e, const char *name)
{
	const char *path = getenv("PATH");
	char *copy, *tok, *save = NULL;

	if (strchr(name, '/') || !path)
		return name;
	copy = arena_strndup(e->a, path, strlen(path));
	for (tok = strtok_r(copy, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		const char *p = arena_printf(e->a, "%s/%s", *tok ? tok : ".", name);

		if (is_file(p) && access(p, X_OK) == 0)
			return p;
	}
	return name;
}

const char *dw_user_path(struct elab *e, const char *name, const char **real,
			 const char **why)
{
	const char *p = find_program(e, name), *root = e->sess->sysroot;
	char rp[PATH_MAX], rroot[PATH_MAX];
	size_t rlen = 0;

	/* --sysroot DIR: an absolute path names DIR/PATH on this machine and
	 * PATH on the target, which is how probes name it */
	if (root && name[0] == '/' && realpath(root, rroot)) {
		rlen = strlen(rroot);
		p = arena_printf(e->a, "%s%s", rroot, name);
	}
	if (!realpath(p, rp) || !is_file(rp) ||
	    (rlen && (strncmp(rp, rroot, rlen) || rp[rlen] != '/'))) {
		*why = arena_printf(e->a, "cannot find executable '%s'%s%s", name,
				    strchr(name, '/') ? "" : " in $PATH",
				    rlen ? arena_printf(e->a, " in sysroot %s", root) : "");
		return NULL;
	}
	if (real)
		*real = arena_strndup(e->a, rp, strlen(rp));
	return arena_strndup(e->a, rp + rlen, strlen(rp + rlen));
}

/* Program or library @name ($PATH searched). 0, or -ENOENT (not found)
 * or open_file()'s -errno, with *@why set. */
static int open_user(struct elab *e, struct dw_mod *m, const char *name,
		     const char **why)
{
	const char *real, *target = dw_user_path(e, name, &real, why);
	int err;

	if (!target)
		return -ENOENT;
	m->name = target;
	err = open_file(e, m, real, why);
	if (err)
		*why = arena_printf(e->a, "%s; install its debug symbols (the "
				    "-dbgsym/-dbg package) or rebuild it with -g",
				    *why);
	return err;
}

struct dw_mod *dw_open(struct elab *e, enum dw_mod_kind kind,
		       const char *name, const char **why)
{
	const char *key;
	struct dw_mod *m;
	int err;

	/* the kernel names modules with '_' (snd-hda-intel is snd_hda_intel) */
	if (kind == DW_KMODULE && name && strchr(name, '-')) {
		char *n = arena_strndup(e->a, name, strlen(name)), *p;

		for (p = n; *p; p++)
			if (*p == '-')
				*p = '_';
		name = n;
	}
	key = intern(e->in, arena_printf(e->a, "%d:%s", (int)kind, name ? name : ""));
	m = ptrmap_get(&e->dw_mods, key);

	if (m) {
		*why = m->error;
		return m->error ? NULL : m;
	}
	m = arena_new_obj(e->a, struct dw_mod);
	m->kind = kind;
	m->name = kind == DW_KERNEL ? "kernel" : name;
	if (kind == DW_KERNEL)
		err = open_kernel(e, m, &m->error);
	else if (kind == DW_KMODULE)
		err = open_kmodule(e, m, name, &m->error);
	else
		err = open_user(e, m, name, &m->error);
	ptrmap_put(e->a, &e->dw_mods, key, m);
	vec_push(e->a, &e->dw_list, m);
	if (err) {
		*why = m->error;
		return NULL;
	}
	m->error = NULL;
	*why = NULL;
	return m;
}

void dw_close_all(struct elab *e)
{
	size_t i;

	for (i = 0; i < e->dw_list.n; i++) {
		struct dw_mod *m = e->dw_list.v[i];

		if (m->dwfl)
			dwfl_end(m->dwfl);
		m->dwfl = NULL;
		m->dw = NULL;
		free(m->index_map_owned);
		m->index_map_owned = NULL;
	}
}

bool dw_inputs(struct elab *e, void (*fn)(void *arg, const char *path), void *arg)
{
	size_t i;

	for (i = 0; i < e->dw_list.n; i++) {
		const struct dw_mod *m = e->dw_list.v[i];

		if (m->error)
			return false;
		if (m->path)
			fn(arg, m->path);
		if (m->kind == DW_USER && m->name && m->name[0] == '/')
			fn(arg, m->name);
	}
	return true;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_sym(const void *a, const void *b)
{
	const struct dw_sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The symbol table, once (later calls return at once): functions sorted
 * by address (libdwfl's own lookup scans every symbol), every symbol by
 * name, the names several symbols have. */
void dw_load_symbols(struct elab *e, struct dw_mod *m)
{
	int i, n;
	size_t k = 0;

	if (m->syms_loaded)
		return;
	m->syms_loaded = true;
	n = dwfl_module_getsymtab(m->dm);
	if (n <= 0)
		return;
	m->syms = arena_alloc(e->a, sizeof(*m->syms) * (size_t)n);
	intern_reserve(e->in, (size_t)n);	/* a kernel has 150,000 to 300,000 */
	ptrmap_reserve(e->a, &m->sym_by_name, (size_t)n);
	for (i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		const char *s = dwfl_module_getsym_info(m->dm, i, &sym, &addr,
							NULL, NULL, NULL);

		if (!s || !*s)
			continue;
		s = intern(e->in, s);
		if (!ptrmap_get(&m->sym_by_name, s))
			ptrmap_put(e->a, &m->sym_by_name, s,
				   (void *)(uintptr_t)(addr - m->bias + 1));
		else
			ptrmap_put(e->a, &m->sym_dup, s, (void *)1);
		if (GELF_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_shndx == SHN_UNDEF)
			continue;
		m->syms[k++] = (struct dw_sym){ s, addr - m->bias, sym.st_size };
	}
	qsort(m->syms, k, sizeof(*m->syms), cmp_sym);
	m->nsyms = k;
}

const char *dw_symbol_at(struct elab *e, struct dw_mod *m, uint64_t pc,
			 uint64_t *offset)
{
	size_t lo = 0, hi;
	const struct dw_sym *best = NULL;

	if (!m->syms_loaded)
		dw_load_symbols(e, m);
	hi = m->nsyms;
	while (lo < hi) {	/* the last symbol starting at or below pc */
		size_t mid = lo + (hi - lo) / 2;

		if (m->syms[mid].addr <= pc) {
			best = &m->syms[mid];
			lo = mid + 1;
		} else {
			hi = mid;
		}
	}
	/* among symbols at the same address, prefer one whose size covers pc */
	if (!best || (best->size && pc >= best->addr + best->size))
		return NULL;
	*offset = pc - best->addr;
	return best->name;
}

uint64_t dw_symbol_addr(struct elab *e, struct dw_mod *m, const char *name)
{
	uintptr_t v;

	if (!m->syms_loaded)
		dw_load_symbols(e, m);
	v = (uintptr_t)ptrmap_get(&m->sym_by_name, intern(e->in, name));
	return v ? (uint64_t)v - 1 : 0;
}

/* The ftrace call sites of the kernel: the addresses between
 * __start_mcount_loc and __stop_mcount_loc (the table ftrace reads at
 * boot, in .init.data of the vmlinux), sorted. */
static void load_fsites(struct elab *e, struct dw_mod *m)
{
	uint64_t lo = dw_symbol_addr(e, m, "__start_mcount_loc");
	uint64_t hi = dw_symbol_addr(e, m, "__stop_mcount_loc");
	GElf_Addr elf_bias = 0;
	Elf *elf = m->dm ? dwfl_module_getelf(m->dm, &elf_bias) : NULL;
	Elf_Scn *scn = NULL;
	size_t n, i;

	m->fsites_loaded = true;
	if (!elf || !lo || hi <= lo || (hi - lo) % 8 || (hi - lo) / 8 > (1u << 24))
		return;
	lo += m->bias - elf_bias;
	hi += m->bias - elf_bias;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    lo < sh.sh_addr || hi > sh.sh_addr + sh.sh_size)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf || d->d_size < sh.sh_size)
			return;
		n = (hi - lo) / 8;
		m->fsites = arena_alloc(e->a, n * sizeof(*m->fsites));
		for (i = 0; i < n; i++) {
			uint64_t v;

			memcpy(&v, (const char *)d->d_buf + (lo - sh.sh_addr) + i * 8, 8);
			m->fsites[i] = v - (m->bias - elf_bias);
		}
		qsort(m->fsites, n, sizeof(*m->fsites), cmp_u64);
		m->nfsites = n;
		return;
	}
}

uint64_t dw_ftrace_site(struct elab *e, struct dw_mod *m, uint64_t pc)
{
	size_t lo = 0, hi;

	if (m->kind != DW_KERNEL)
		return 0;
	if (!m->fsites_loaded)
		load_fsites(e, m);
	hi = m->nfsites;
	while (lo < hi) {	/* the first site at or above pc */
		size_t mid = lo + (hi - lo) / 2;

		if (m->fsites[mid] < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < m->nfsites && m->fsites[lo] == pc)
		return pc;
	/* an IBT kernel: the call follows the endbr64 at a function's start */
	if (lo < m->nfsites && m->fsites[lo] == pc + 4) {
		uint64_t off = 1;

		if (dw_symbol_at(e, m, pc, &off) && off == 0)
			return pc + 4;
	}
	return 0;
}

bool dw_symbol_unique(struct elab *e, struct dw_mod *m, const char *name)
{
	if (!m->syms_loaded)
		dw_load_symbols(e, m);
	name = intern(e->in, name);
	return ptrmap_get(&m->sym_by_name, name) && !ptrmap_get(&m->sym_dup, name);
}

const char *dw_mod_path(const struct dw_mod *m)
{
	return m->path;
}

const char *dw_mod_name(const struct dw_mod *m)
{
	return m->name;
}

enum dw_mod_kind dw_mod_kind(const struct dw_mod *m)
{
	return m->kind;
}

/* The offset in @m's file of DWARF address @pc: from the program header
 * of the PT_LOAD segment whose file image holds it (uprobes are placed
 * by inode and file offset). */
int dw_file_offset(struct dw_mod *m, uint64_t pc, uint64_t *off)
{
	Dwarf_Addr elf_bias = 0;
	Elf *elf = m->dm ? dwfl_module_getelf(m->dm, &elf_bias) : NULL;
	uint64_t vaddr = pc + m->bias - elf_bias;
	size_t n = 0, i;

	if (!elf || elf_getphdrnum(elf, &n))
		return -ENOEXEC;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (vaddr >= ph.p_vaddr && vaddr < ph.p_vaddr + ph.p_filesz) {
			*off = vaddr - ph.p_vaddr + ph.p_offset;
			return 0;
		}
	}
	return -ERANGE;
}

bool dw_exec_base(struct dw_mod *m, uint64_t *base)
{
	Dwarf_Addr elf_bias = 0;
	Elf *elf = m->dm ? dwfl_module_getelf(m->dm, &elf_bias) : NULL;
	GElf_Ehdr eh;
	size_t n = 0, i;

	if (!elf || !gelf_getehdr(elf, &eh) || eh.e_type != ET_EXEC || elf_getphdrnum(elf, &n))
		return false;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD) {
			*base = ph.p_vaddr - m->bias + elf_bias;
			return true;
		}
	}
	return false;
}

bool dw_mod_has_dwarf(const struct dw_mod *m)
{
	return m->dw != NULL;
}

/* ---- giving the file's pages back ---- */

/* The bounds of the mapping that holds @p, when it is a private mapping
 * of a file none of whose pages was written (no anonymous page in
 * /proc/self/smaps): dropping its pages loses nothing. */
static bool clean_file_mapping(const void *p, uintptr_t *lo, uintptr_t *hi)
{
	FILE *f = fopen("/proc/self/smaps", "re");
	uintptr_t at = (uintptr_t)p;
	unsigned long long kb;
	char line[512];
	bool in = false, ok = false;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, e, ino;
		char perms[8];

		if (sscanf(line, "%llx-%llx %7s %*s %*s %llu", &s, &e, perms, &ino) == 4) {
			if (in)
				break;
			in = s <= at && at < e && ino && perms[3] == 'p';
			*lo = (uintptr_t)s;
			*hi = (uintptr_t)e;
		} else if (in && sscanf(line, "Anonymous: %llu kB", &kb) == 1) {
			ok = kb == 0;
			break;
		}
	}
	fclose(f);
	return ok;
}

/* ELF data in the host's byte order: libelf converts none of it (in
 * place, in a writable private mapping) */
#define NATIVE_ELFDATA (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB)

void dw_drop_pages(struct dw_mod *m)
{
	Elf *elf = m->dw && !m->keep_pages ? dwarf_getelf(m->dw) : NULL;
	GElf_Ehdr eh;
	GElf_Shdr sh;
	Elf_Scn *scn;
	Elf_Data *d;

	if (!elf)
		return;
	if (!m->pages_hi) {
		/* once: the mapping, if it may be dropped */
		m->keep_pages = true;
		if (!gelf_getehdr(elf, &eh) || eh.e_type == ET_REL ||
		    eh.e_ident[EI_DATA] != NATIVE_ELFDATA ||
		    !(scn = elf_section_named(elf, ".debug_info", &sh)) ||
		    (sh.sh_flags & SHF_COMPRESSED) || !(d = elf_getdata(scn, NULL)) ||
		    !d->d_buf || !clean_file_mapping(d->d_buf, &m->pages_lo, &m->pages_hi))
			return;
		m->keep_pages = false;
	}
	if (madvise((void *)m->pages_lo, m->pages_hi - m->pages_lo, MADV_DONTNEED) != 0)
		m->keep_pages = true;
}

void dw_mod_drop_pages(struct dw_mod *m)
{
	dw_drop_pages(m);
}
