// SPDX-License-Identifier: GPL-2.0-or-later
/* ksyms.c: kernel function tables: building, System.map, kallsyms, lookup. */
#include "config.h"

#include "elaborate/ksyms.h"

#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "elaborate/ksyms_internal.h"
#include "util/arena.h"
#include "util/diag.h"

const char ksym_refused_nokprobe[] =
	"it is in the kprobes blacklist (NOKPROBE_SYMBOL)";
const char ksym_refused_kprobes[] = "it is in .kprobes.text";
const char ksym_refused_noinstr[] = "it is in .noinstr.text";
const char ksym_refused_entry[] = "it is in .entry.text";
const char ksym_refused_irqentry[] = "it is in .irqentry.text";
const char ksym_refused_softirq[] = "it is in .softirqentry.text";
const char ksym_refused_init[] = "it is in .init.text, freed after boot";
const char ksym_refused_static_call[] =
	"it is a static call trampoline (kprobes refuse .static_call.text)";
const char ksym_refused_exit[] =
	"it is in .exit.text of built-in code, discarded at boot";
const char ksym_refused_jump_label[] =
	"it starts at a static branch the kernel patches (jump_label_text_reserved)";
const char ksym_refused_static_call_site[] =
	"it starts at a static call site the kernel patches (static_call_text_reserved)";
const char ksym_refused_bug[] = "it starts at a BUG() (find_bug)";

/* The text areas kprobes refuse: bounding symbols, ELF section, reason. */
static const struct area_def {
	const char *start, *end, *section, *why;
} areas[KSYMS_AREA_NR] = {
	[KSYMS_AREA_KPROBES] = { "__kprobes_text_start", "__kprobes_text_end",
				 ".kprobes.text", ksym_refused_kprobes },
	[KSYMS_AREA_NOINSTR] = { "__noinstr_text_start", "__noinstr_text_end",
				 ".noinstr.text", ksym_refused_noinstr },
	[KSYMS_AREA_IRQENTRY] = { "__irqentry_text_start",
				  "__irqentry_text_end",
				  ".irqentry.text", ksym_refused_irqentry },
	[KSYMS_AREA_SOFTIRQ] = { "__softirqentry_text_start",
				 "__softirqentry_text_end",
				 ".softirqentry.text", ksym_refused_softirq },
	[KSYMS_AREA_ENTRY] = { "__entry_text_start", "__entry_text_end",
			       ".entry.text", ksym_refused_entry },
	[KSYMS_AREA_INIT] = { "_sinittext", "_einittext", ".init.text",
			      ksym_refused_init },
	/* static_call_text_reserved(): -EBUSY */
	[KSYMS_AREA_STATIC_CALL] = { "__static_call_text_start", "__static_call_text_end",
				     ".static_call.text", ksym_refused_static_call },
	/* the rest of the init memory the kernel frees after boot: in the
	 * vmlinux, .exit.text (a module keeps its own, ksyms_elf.c) */
	[KSYMS_AREA_INITMEM] = { "__init_begin", "__init_end", ".exit.text",
				 ksym_refused_exit },
};

void *ksyms_xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fputs("stap: out of memory\n", stderr);
		abort();
	}
	return p;
}

int ksyms_slurp(const char *path, char **out, size_t *outlen, char *why,
		size_t whylen)
{
	size_t len = 0, cap = 0;
	char *buf = NULL;
	ssize_t got = 0;
	int fd, err = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return diag_describe(why, whylen, -errno, "%s", strerror(errno));
	do {
		if (cap - len < 2) {
			cap = cap ? 2 * cap : 1 << 20;
			buf = ksyms_xrealloc(buf, cap);
		}
		got = read(fd, buf + len, cap - len - 1);
		if (got > 0)
			len += (size_t)got;
		else if (got < 0 && errno != EINTR)
			err = diag_describe(why, whylen, -errno, "%s",
					 strerror(errno));
	} while (!err && got != 0);
	close(fd);
	if (err) {
		free(buf);
		return err;
	}
	buf[len] = '\0';
	*out = buf;
	*outlen = len;
	return 0;
}

static inline bool ends_with(const char *s, size_t n, const char *suf)
{
	size_t k = strlen(suf);

	return n >= k && !memcmp(s + n - k, suf, k);
}

static inline bool equals(const char *s, size_t n, const char *lit)
{
	return strlen(lit) == n && !memcmp(s, lit, n);
}

/* Section bounds and padding labels that are not functions (ksyms.h). */
static bool is_excluded(const char *s, size_t n)
{
	static const char *const bounds[] = {
		"_text", "_stext", "_etext", "_sinittext", "_einittext",
		"__indirect_thunk_start", "__indirect_thunk_end",
	};
	size_t i;

	if (s[0] != '_')
		return false;
	if (n > 6 && !memcmp(s, "__pfx_", 6))
		return true;
	if (!ends_with(s, n, "text") && !ends_with(s, n, "_start") &&
	    !ends_with(s, n, "_end"))
		return false;
	for (i = 0; i < sizeof(bounds) / sizeof(bounds[0]); i++)
		if (equals(s, n, bounds[i]))
			return true;
	return n > 2 && s[1] == '_' &&
	       (ends_with(s, n, "_text_start") || ends_with(s, n, "_text_end"));
}

void ksyms_collect_init(struct ksyms_collect *c, struct arena *a)
{
	memset(c, 0, sizeof(*c));
	c->a = a;
	c->use_areas = true;
}

static int cmp_u64_ksyms(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

void ksyms_collect_free(struct ksyms_collect *c)
{
	free(c->v);
	free(c->kbl);
	free(c->kbla);
	free(c->rsv);
	c->v = NULL;
	c->kbl = NULL;
	c->kbla = NULL;
	c->rsv = NULL;
}

void ksyms_note_reserved(struct ksyms_collect *c, uint64_t lo, uint64_t hi, const char *why)
{
	if (c->nrsv == c->rsvcap) {
		c->rsvcap = c->rsvcap ? 2 * c->rsvcap : 1024;
		c->rsv = ksyms_xrealloc(c->rsv, c->rsvcap * sizeof(*c->rsv));
	}
	c->rsv[c->nrsv].lo = lo;
	c->rsv[c->nrsv].hi = hi;
	c->rsv[c->nrsv++].why = why;
}

static int cmp_reserved(const void *a, const void *b)
{
	const struct ksym_reserved *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

const char *ksyms_addr_refusal(const struct ksyms *ks, uint64_t addr)
{
	size_t lo = 0, hi = ks->nrsv, i;

	for (i = 0; i < ks->nareas; i++)
		if (addr >= ks->areas[i].lo && addr <= ks->areas[i].hi)
			return ks->areas[i].why;

	/* the last entry starting at or before @addr; instructions do not
	 * overlap, so it is the only candidate */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ks->rsv[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && addr <= ks->rsv[lo - 1].hi ? ks->rsv[lo - 1].why : NULL;
}

/* Note @name if it bounds a refused area. */
static void note_bound(struct ksyms_collect *c, const char *name, size_t len,
		       uint64_t addr)
{
	int i;

	if (!ends_with(name, len, "text_start") &&
	    !ends_with(name, len, "text_end") &&
	    !ends_with(name, len, "inittext") &&
	    !equals(name, len, "__init_begin") && !equals(name, len, "__init_end"))
		return;
	for (i = 0; i < KSYMS_AREA_NR; i++) {
		if (equals(name, len, areas[i].start)) {
			c->lo[i] = addr;
			c->have[i] |= 1;
		} else if (equals(name, len, areas[i].end)) {
			c->hi[i] = addr;
			c->have[i] |= 2;
		}
	}
}

void ksyms_note(struct ksyms_collect *c, const char *name, size_t len,
		uint64_t addr, bool text, uint64_t size, const char *refusal)
{
	char head[16];
	struct ksyms_raw *r;
	uint64_t w;

	if (name[0] == '_' && len > 10 && !memcmp(name, "_kbl_addr_", 10)) {
		if (c->nkbl == c->kblcap) {
			c->kblcap = c->kblcap ? 2 * c->kblcap : 64;
			c->kbl = ksyms_xrealloc(c->kbl,
						c->kblcap * sizeof(*c->kbl));
		}
		c->kbl[c->nkbl++] = arena_strndup(c->a, name + 10, len - 10);
		return;
	}
	if (name[0] == '_')
		note_bound(c, name, len, addr);
	if (!text)
		return;
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 4096;
		c->v = ksyms_xrealloc(c->v, c->cap * sizeof(*c->v));
	}
	if (c->n && addr < c->v[c->n - 1].addr)
		c->unordered = true;
	c->addr_or |= addr;
	r = &c->v[c->n++];
	r->name = NULL;
	if (is_excluded(name, len))
		c->excluded++;
	else
		r->name = arena_strndup(c->a, name, len);
	memset(head, 0, sizeof(head));
	memcpy(head, name, len < 16 ? len : 16);
	memcpy(&w, head, 8);
	r->key[0] = be64toh(w);
	memcpy(&w, head + 8, 8);
	r->key[1] = be64toh(w);
	r->addr = addr;
	r->size = size;
	r->refusal = refusal;
}

static int cmp_raw_addr(const void *x, const void *y)
{
	const struct ksyms_raw *p = x, *q = y;

	return p->addr < q->addr ? -1 : p->addr > q->addr;
}

/* strcmp() order of the names, from the keys first. */
static inline int raw_name_cmp(const struct ksyms_raw *p,
			       const struct ksyms_raw *q)
{
	if (p->key[0] != q->key[0])
		return p->key[0] < q->key[0] ? -1 : 1;
	if (p->key[1] != q->key[1])
		return p->key[1] < q->key[1] ? -1 : 1;
	/* Equal keys: both names end in the first 16 bytes, or neither does. */
	return (p->key[1] & 0xff) ? strcmp(p->name + 16, q->name + 16) : 0;
}

static inline bool raw_less(const struct ksyms_raw *p,
			    const struct ksyms_raw *q)
{
	int d = raw_name_cmp(p, q);

	return d ? d < 0 : p->addr < q->addr;
}

static int cmp_raw_name(const void *x, const void *y)
{
	return raw_less(x, y) ? -1 : raw_less(y, x);
}

static void raw_swap(struct ksyms_raw *p, struct ksyms_raw *q)
{
	struct ksyms_raw t = *p;

	*p = *q;
	*q = t;
}

/* Sort by (name, addr): a quicksort with the comparison inlined, about
 * twice as fast as qsort() on 150,000 symbols; qsort() takes over past
 * @depth levels so that the worst case stays n log n. */
static void sort_by_name(struct ksyms_raw *v, size_t n, int depth)
{
	struct ksyms_raw pivot;
	ptrdiff_t i, j;
	size_t k;

	while (n > 16) {
		if (depth-- == 0) {
			qsort(v, n, sizeof(*v), cmp_raw_name);
			return;
		}
		k = n / 2;
		if (raw_less(&v[k], &v[0]))
			raw_swap(&v[k], &v[0]);
		if (raw_less(&v[n - 1], &v[k])) {
			raw_swap(&v[n - 1], &v[k]);
			if (raw_less(&v[k], &v[0]))
				raw_swap(&v[k], &v[0]);
		}
		pivot = v[k];
		for (i = -1, j = (ptrdiff_t)n;;) {
			while (raw_less(&v[++i], &pivot))
				;
			while (raw_less(&pivot, &v[--j]))
				;
			if (i >= j)
				break;
			raw_swap(&v[i], &v[j]);
		}
		k = (size_t)j + 1;	/* [0, k) <= pivot <= [k, n) */
		if (k < n - k) {
			sort_by_name(v, k, depth);
			v += k;
			n -= k;
		} else {
			sort_by_name(v + k, n - k, depth);
			n = k;
		}
	}
	for (k = 1; k < n; k++) {
		pivot = v[k];
		for (i = (ptrdiff_t)k; i > 0 && raw_less(&pivot, &v[i - 1]);
		     i--)
			v[i] = v[i - 1];
		v[i] = pivot;
	}
}

/* Sizes as the distance to the next higher text address (maps only). */
static void derive_sizes(struct ksyms_collect *c)
{
	uint64_t cur = 0, next = 0;
	bool in = false, has_next = false;
	size_t i;

	if (c->unordered)
		qsort(c->v, c->n, sizeof(*c->v), cmp_raw_addr);
	for (i = c->n; i-- > 0;) {
		if (!in || c->v[i].addr != cur) {
			if (in) {
				next = cur;
				has_next = true;
			}
			cur = c->v[i].addr;
			in = true;
		}
		c->v[i].size = has_next ? next - cur : 0;
	}
}

static const char *area_refusal(const struct ksyms_collect *c, uint64_t addr)
{
	int i;

	if (!c->use_areas)
		return NULL;
	for (i = 0; i < KSYMS_AREA_NR; i++)
		if (c->have[i] == 3 && addr >= c->lo[i] && addr < c->hi[i])
			return areas[i].why;
	return NULL;
}

const char *ksyms_section_refusal(const char *name)
{
	int i;

	for (i = 0; name && i < KSYMS_AREA_NR; i++)
		if (!strcmp(name, areas[i].section))
			return areas[i].why;
	return NULL;
}

static int cmp_key_raw(const void *key, const void *e)
{
	return strcmp(key, ((const struct ksyms_raw *)e)->name);
}

static int cmp_key_ksym(const void *key, const void *e)
{
	return strcmp(key, ((const struct ksym *)e)->name);
}

/* kCFI preamble __cfi_NAME of a function NAME of the table (sorted @c).
 * The key test keeps the names of other symbols out of the cache. */
static bool is_cfi_preamble(const struct ksyms_collect *c,
			    const struct ksyms_raw *r)
{
	return r->key[0] >> 16 == 0x5f5f6366695full && r->name[6] &&
	       bsearch(r->name + 6, c->v, c->n, sizeof(*c->v), cmp_key_raw);
}

void ksyms_finish(struct ksyms_collect *c, struct ksyms *ks, const char *module)
{
	size_t i, j, k;

	if (!c->sized)
		derive_sizes(c);
	for (i = j = 0; i < c->n; i++)
		if (c->v[i].name)
			c->v[j++] = c->v[i];
	c->n = j;
	sort_by_name(c->v, c->n, 64);
	ks->v = arena_new_array(c->a, struct ksym, c->n ? c->n : 1);
	ks->n = 0;
	for (i = 0; i < c->n; i = k) {
		const struct ksyms_raw *r = &c->v[i];
		struct ksym *s;

		for (k = i + 1; k < c->n && !raw_name_cmp(&c->v[k], r); k++)
			;
		if (is_cfi_preamble(c, r)) {
			c->excluded += k - i;
			continue;
		}
		s = &ks->v[ks->n++];
		s->name = r->name;
		s->addr = r->addr;
		s->size = r->size;
		s->module = module;
		s->refusal = r->refusal ? r->refusal : area_refusal(c, r->addr);
		s->ndup = (unsigned)(k - i - 1);
	}
	for (i = 0; i < c->nkbl; i++) {
		struct ksym *s = bsearch(c->kbl[i], ks->v, ks->n,
					 sizeof(*ks->v), cmp_key_ksym);

		if (s)
			s->refusal = ksym_refused_nokprobe;
	}
	if (c->nkbla) {
		qsort(c->kbla, c->nkbla, sizeof(*c->kbla), cmp_u64_ksyms);
		for (i = 0; i < ks->n; i++)
			if (!ks->v[i].refusal && bsearch(&ks->v[i].addr, c->kbla, c->nkbla,
							 sizeof(*c->kbla), cmp_u64_ksyms))
				ks->v[i].refusal = ksym_refused_nokprobe;
	}
	ks->nareas = 0;
	ks->rsv = NULL;
	ks->nrsv = 0;
	for (i = 0; c->use_areas && i < KSYMS_AREA_NR; i++) {
		if (c->have[i] != 3 || c->hi[i] <= c->lo[i] ||
		    ks->nareas == sizeof(ks->areas) / sizeof(ks->areas[0]))
			continue;
		ks->areas[ks->nareas].lo = c->lo[i];
		ks->areas[ks->nareas].hi = c->hi[i] - 1;
		ks->areas[ks->nareas++].why = areas[i].why;
	}
	if (c->nrsv) {
		qsort(c->rsv, c->nrsv, sizeof(*c->rsv), cmp_reserved);
		ks->rsv = arena_new_array(c->a, struct ksym_reserved, c->nrsv);
		memcpy(ks->rsv, c->rsv, c->nrsv * sizeof(*c->rsv));
		ks->nrsv = c->nrsv;
	}
	ks->malformed = c->malformed;
	ks->excluded = c->excluded;
}

static bool is_blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

/* Value + 1 of each hexadecimal digit, 0 for other bytes. */
static const unsigned char hex1[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
	['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

bool ksyms_modname_eq(const char *s, size_t n, const char *mod)
{
	size_t i;

	for (i = 0; i < n; i++) {
		char x = s[i] == '-' ? '_' : s[i];
		char y = mod[i] == '-' ? '_' : mod[i];

		if (!mod[i] || x != y)
			return false;
	}
	return !mod[n];
}

struct map_line {
	uint64_t addr;
	char type;
	const char *name, *mod;
	size_t nlen, mlen;
};

/* "ADDR TYPE NAME" or kallsyms' "ADDR TYPE NAME\t[MODULE]": 0 or -1. */
static int parse_line(const char *p, struct map_line *l)
{
	unsigned char d;
	int digits = 0;

	l->addr = 0;
	for (; (d = hex1[(unsigned char)*p]); p++, digits++)
		l->addr = l->addr << 4 | (uint64_t)(d - 1);
	if (!digits || digits > 16 || (*p != ' ' && *p != '\t'))
		return -1;
	while (*p == ' ' || *p == '\t')
		p++;
	l->type = *p++;
	if (!((l->type >= 'a' && l->type <= 'z') ||
	      (l->type >= 'A' && l->type <= 'Z')) || (*p != ' ' && *p != '\t'))
		return -1;
	while (*p == ' ' || *p == '\t')
		p++;
	for (l->name = p; *p && !is_blank(*p); p++)
		;
	l->nlen = (size_t)(p - l->name);
	while (is_blank(*p))
		p++;
	l->mod = NULL;
	l->mlen = 0;
	if (*p == '[') {
		for (l->mod = ++p; *p && *p != ']'; p++)
			;
		l->mlen = (size_t)(p - l->mod);
		if (*p++ != ']' || !l->mlen)
			return -1;
		while (is_blank(*p))
			p++;
	}
	return l->nlen && !*p ? 0 : -1;
}

/* Collect the lines of map text @buf (NUL-terminated, modified). */
static void parse_map(struct ksyms_collect *c, char *buf, size_t len,
		      const char *want_mod)
{
	char *p, *nl, *end = buf + len;
	struct map_line l;
	bool text;

	for (p = buf; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		*nl = '\0';
		if (parse_line(p, &l)) {
			if (strstr(p, "The real System.map"))
				c->placeholder = true;
			else if (p[strspn(p, " \t\r")])
				c->malformed++;
			continue;
		}
		if (want_mod ? !l.mod ||
			       !ksyms_modname_eq(l.mod, l.mlen, want_mod) :
			       l.mod != NULL)
			continue;
		text = l.type == 't' || l.type == 'T' || l.type == 'W';
		ksyms_note(c, l.name, l.nlen, l.addr, text, 0, NULL);
	}
}

int ksyms_read_map(struct ksyms *ks, struct arena *a, const char *path,
		   const char *want_mod, char *why, size_t whylen)
{
	struct ksyms_collect c;
	size_t len;
	char *buf;
	int err;

	err = ksyms_slurp(path, &buf, &len, why, whylen);
	if (err)
		return err;
	ksyms_collect_init(&c, a);
	parse_map(&c, buf, len, want_mod);
	free(buf);
	if (c.placeholder)
		err = diag_describe(why, whylen, KSYMS_SKIP,
				 "a placeholder: the real System.map is in the -dbg package");
	else if (c.n && !c.addr_or)
		err = diag_describe(why, whylen, KSYMS_SKIP,
				 "addresses hidden by kptr_restrict: run as root");
	else
		ksyms_finish(&c, ks, want_mod);
	ksyms_collect_free(&c);
	return err;
}

enum src_kind { SRC_MAP, SRC_ELF, SRC_KALLSYMS };

int ksyms_load(struct ksyms *ks, struct arena *a, const char *release,
	       const char *build_dir, char *errbuf, size_t errlen)
{
	struct {
		enum src_kind kind;
		const char *path;
	} src[8];
	const char *running = NULL, *given = getenv("SYSTEMTAP_KALLSYMS");
	struct utsname u;
	int i, r, first = 0, nsrc = 7;

	memset(ks, 0, sizeof(*ks));
	if (uname(&u) == 0)
		running = u.release;
	if (!release)
		release = running;
	if (!release)
		return diag_describe(errbuf, errlen, -ENOENT,
				  "cannot tell the kernel release");
	if (!build_dir)
		build_dir = arena_printf(a, "/lib/modules/%s/build", release);
	src[0].path = arena_printf(a, "%s/System.map", build_dir);
	src[1].path = arena_printf(a, "/boot/System.map-%s", release);
	src[2].path = arena_printf(a, "/usr/lib/debug/boot/vmlinux-%s",
				   release);
	src[3].path = arena_printf(a, "/usr/lib/debug/lib/modules/%s/vmlinux",
				   release);
	src[4].path = arena_printf(a, "/boot/vmlinux-%s", release);
	src[5].path = arena_printf(a, "%s/vmlinux", build_dir);
	src[6].path = "/proc/kallsyms";
	src[0].kind = src[1].kind = SRC_MAP;
	src[2].kind = src[3].kind = src[4].kind = src[5].kind = SRC_ELF;
	src[6].kind = SRC_KALLSYMS;
	/* $SYSTEMTAP_KALLSYMS: a copy of the target's /proc/kallsyms (stap
	 * --remote=qemu sets it to the test VM's), tried first. */
	if (given && *given) {
		memmove(src + 1, src, sizeof(src[0]) * 7);
		src[0].path = given;
		src[0].kind = SRC_MAP;
		nsrc = 8;
	}
	for (i = 0; i < nsrc; i++) {
		const char *path = src[i].path;
		char why[256];

		if (src[i].kind == SRC_KALLSYMS &&
		    (!running || strcmp(running, release))) {
			vec_push(a, &ks->tried, arena_printf(a,
				 "%s (kernel %s is not the running one)",
				 path, release));
			continue;
		}
		if (access(path, F_OK) &&
		    (errno == ENOENT || errno == ENOTDIR)) {
			vec_push(a, &ks->tried, (void *)path);
			continue;
		}
		why[0] = '\0';
		if (src[i].kind == SRC_ELF)
			r = ksyms_read_elf(ks, a, path, NULL, why, sizeof(why));
		else
			r = ksyms_read_map(ks, a, path, NULL, why, sizeof(why));
		if (!r && ks->n) {
			ks->origin = path;
			return 0;
		}
		if (!r)
			snprintf(why, sizeof(why), "no function symbols");
		vec_push(a, &ks->tried, arena_printf(a, "%s (%s)", path, why));
		if (r < 0 && r != -ENOEXEC && !first)
			first = diag_describe(errbuf, errlen, r, "%s: %s", path,
					   why);
	}
	ks->v = NULL;
	ks->n = 0;
	ks->malformed = ks->excluded = 0;
	if (first)
		return first;
	return diag_describe(errbuf, errlen, -ENOENT,
			  "no symbol table (System.map, vmlinux or kallsyms) found for kernel %s",
			  release);
}

const struct ksym *ksyms_find(const struct ksyms *ks, const char *name)
{
	if (!ks->n)
		return NULL;
	return bsearch(name, ks->v, ks->n, sizeof(*ks->v), cmp_key_ksym);
}

int ksyms_each_match(const struct ksyms *ks, const char *pattern,
		     int (*fn)(const struct ksym *s, void *ctx), void *ctx)
{
	size_t plen = strcspn(pattern, "*?[\\"), lo = 0, hi = ks->n, mid;
	int r;

	if (!pattern[plen]) {
		const struct ksym *s = ksyms_find(ks, pattern);

		return s ? fn(s, ctx) : 0;
	}
	/* The names with the literal prefix form one run of the table. */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (strncmp(ks->v[mid].name, pattern, plen) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < ks->n && !strncmp(ks->v[lo].name, pattern, plen); lo++) {
		if (fnmatch(pattern, ks->v[lo].name, 0))
			continue;
		r = fn(&ks->v[lo], ctx);
		if (r)
			return r;
	}
	return 0;
}
