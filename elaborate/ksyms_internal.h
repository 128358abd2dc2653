/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ksyms_internal.h: what ksyms.c and ksyms_elf.c share. */
#ifndef ELABORATE_KSYMS_INTERNAL_H
#define ELABORATE_KSYMS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "elaborate/ksyms.h"

/* A loader's "present but not usable" result (its why says why). */
#define KSYMS_SKIP 1

/* Checked in this order: 6.x puts .irqentry.text inside .entry.text, and
 * the narrower area is the better reason. */
enum ksyms_area {
	KSYMS_AREA_KPROBES,
	KSYMS_AREA_NOINSTR,
	KSYMS_AREA_IRQENTRY,
	KSYMS_AREA_SOFTIRQ,
	KSYMS_AREA_ENTRY,
	KSYMS_AREA_INIT,
	KSYMS_AREA_STATIC_CALL,
	KSYMS_AREA_INITMEM,
	KSYMS_AREA_NR
};

/* One function symbol as read, before sorting and de-duplication. */
struct ksyms_raw {
	uint64_t key[2];	/* first 16 bytes of the name, big-endian and
				 * zero-padded: sorting compares these first */
	const char *name;	/* NULL: excluded, kept only as a boundary */
	uint64_t addr;
	uint64_t size;
	const char *refusal;	/* from the ELF section, or NULL */
};

/* Everything one source yields. v and kbl are malloc'd (ksyms_collect_free),
 * names live in the arena. */
struct ksyms_collect {
	struct arena *a;
	struct ksyms_raw *v;
	size_t n, cap;
	const char **kbl;	/* names marked NOKPROBE_SYMBOL */
	size_t nkbl, kblcap;
	uint64_t *kbla;		/* addresses in the _kprobe_blacklist
				 * section: NOKPROBE_SYMBOL() and the
				 * assembly's _ASM_NOKPROBE(), which
				 * leaves no _kbl_addr_ symbol */
	size_t nkbla;
	struct ksym_reserved *rsv;	/* patched instructions (ksyms.h) */
	size_t nrsv, rsvcap;
	uint64_t lo[KSYMS_AREA_NR], hi[KSYMS_AREA_NR];
	unsigned char have[KSYMS_AREA_NR];	/* bit 0: start, 1: end seen */
	bool use_areas;		/* false for ET_REL (addresses are offsets) */
	bool sized;		/* sizes came with the symbols (ELF) */
	bool unordered;		/* text addresses went down somewhere */
	bool placeholder;	/* Debian's "The real System.map is in ..." */
	uint64_t addr_or;	/* all text addresses or'ed: 0 when hidden */
	size_t malformed, excluded;
};

void ksyms_collect_init(struct ksyms_collect *c, struct arena *a);
void ksyms_collect_free(struct ksyms_collect *c);

/* Take in one symbol @name[0..len) of any type; @text says whether it is
 * a function. Area bounds and _kbl_addr_ names are noted whatever @text. */
void ksyms_note(struct ksyms_collect *c, const char *name, size_t len,
		uint64_t addr, bool text, uint64_t size, const char *refusal);

/* Sort, de-duplicate and judge what @c holds, into @ks (arena memory):
 * sets v, n, malformed, excluded; leaves origin and tried alone. */
void ksyms_finish(struct ksyms_collect *c, struct ksyms *ks,
		  const char *module);

/* Note a patched instruction [@lo, @hi] (struct ksym_reserved). */
void ksyms_note_reserved(struct ksyms_collect *c, uint64_t lo, uint64_t hi, const char *why);

/* The refusal for functions of ELF section @name (NULL-safe), or NULL. */
const char *ksyms_section_refusal(const char *name);

/* Whether module names @s[0..n) and @mod are the same, '-' and '_' being
 * the same character (as for the kernel). */
bool ksyms_modname_eq(const char *s, size_t n, const char *mod);

/* realloc that aborts on out-of-memory, like arena_alloc. */
void *ksyms_xrealloc(void *p, size_t n);

/* The whole of @path in malloc'd memory with a NUL after its @*len bytes.
 * 0, or -errno with @why set. */
int ksyms_slurp(const char *path, char **out, size_t *len, char *why,
		size_t whylen);

/* Load the System.map or kallsyms @path into @ks: vmlinux lines when
 * @want_mod is NULL, else the "[want_mod]" lines (module @want_mod).
 * 0, KSYMS_SKIP (placeholder, hidden addresses) or -errno; @why set. */
int ksyms_read_map(struct ksyms *ks, struct arena *a, const char *path,
		   const char *want_mod, char *why, size_t whylen);

/* Load the ELF .symtab of @path (maybe compressed) into @ks, with module
 * @module. 0 or -errno (-ENOEXEC: not ELF, no .symtab); @why set. */
int ksyms_read_elf(struct ksyms *ks, struct arena *a, const char *path,
		   const char *module, char *why, size_t whylen);

#endif
