/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ksyms.h: function symbol tables of a kernel and its modules, for kprobes.
 * Implemented by ksyms.c (tables, System.map, kallsyms, lookup) and
 * ksyms_elf.c (ELF files, modules). */
#ifndef ELABORATE_KSYMS_H
#define ELABORATE_KSYMS_H

#include <stddef.h>
#include <stdint.h>

#include "util/vec.h"

struct arena;

/*
 * What the table holds. Only function symbols: types t, T and W of
 * System.map and /proc/kallsyms, STT_FUNC and STT_GNU_IFUNC of an ELF
 * .symtab. Names with a '.' suffix (foo.cold, foo.isra.0, foo.constprop.0,
 * foo.part.0) are distinct symbols and are kept under their full name.
 *
 * Excluded (counted in ksyms.excluded), because none of them is the entry
 * of a function a kprobe could sensibly be put on:
 *   - __pfx_NAME: the 16 bytes of padding that 6.2+ kernels
 *     (CONFIG_CALL_PADDING) put before each function; a label, not code;
 *   - __cfi_NAME when NAME is in the table too: the kCFI preamble
 *     (CONFIG_CFI_CLANG), same story (a lone __cfi_X is a real function of
 *     older clang-CFI kernels, e.g. __cfi_slowpath, and is kept);
 *   - section bounds the linker script defines as text symbols: _text,
 *     _stext, _etext, _sinittext, _einittext, __indirect_thunk_start/_end
 *     and every __*_text_start / __*_text_end (__entry_text_start,
 *     __kprobes_text_end, __sched_text_start, ...). __start_X and __stop_X
 *     are NOT excluded: kernels have real functions so named (__stop_tty).
 * The excluded symbols still serve as address boundaries when sizes are
 * derived from a System.map or kallsyms (see ksym.size).
 *
 * Refusals mirror the kernel's register_kprobe() checks (kernel/kprobes.c,
 * arch/x86/kernel/kprobes/core.c): the NOKPROBE_SYMBOL() blacklist, seen as
 * a _kbl_addr_NAME symbol (data, so only in System.map, an ELF .symtab, or
 * kallsyms with CONFIG_KALLSYMS_ALL); the areas between the
 * __kprobes_text, __noinstr_text (which covers .cpuidle.text on 6.x),
 * __entry_text, __irqentry_text and __softirqentry_text start/end symbols;
 * the init text (_sinittext.._einittext), which is freed after boot so
 * kprobes reject it as "not kernel text", and the rest of the init memory
 * (__init_begin..__init_end: the vmlinux's .exit.text, the __exit code of
 * built-in drivers, discarded with it); the static call trampolines
 * (__static_call_text_start/end: static_call_text_reserved() refuses
 * them). In an ELF file the section a
 * function is defined in (.kprobes.text, .noinstr.text, .entry.text,
 * .irqentry.text, .softirqentry.text, .init.text, and .exit.text of a
 * vmlinux: a module keeps its own) says the same directly;
 * that is the only rule for relocatable objects (.ko), whose addresses
 * are section offsets.
 */
struct ksym {
	const char *name;	/* arena-owned */
	uint64_t addr;		/* in ET_REL (.ko) files: offset in section */
	uint64_t size;		/* ELF: st_size; System.map, kallsyms: distance
				 * to the next higher text symbol; 0: unknown */
	const char *module;	/* NULL for vmlinux, else the name with '_' */
	const char *refusal;	/* NULL, or why kprobes refuse it, a static
				 * string completing "cannot probe NAME: " */
	unsigned ndup;		/* further symbols of this name (statics of
				 * several files); addr is the lowest */
};

/* Instructions the kernel patches, where it refuses a kprobe whatever
 * the function: a static branch (jump_label_text_reserved()), a static
 * call site (static_call_text_reserved()), a BUG()'s ud2 (find_bug()). */
struct ksym_reserved {
	uint64_t lo, hi;	/* the instruction's first and last byte */
	const char *why;	/* a static string completing "cannot probe NAME: " */
};

struct ksyms {
	struct ksym *v;		/* sorted by name (strcmp), names unique */
	size_t n;
	struct ksym_reserved *rsv;	/* sorted by lo, from a vmlinux's ELF */
	size_t nrsv;
	struct ksym_reserved areas[8];	/* the text areas kprobes refuse, by
					 * address (a name's lowest copy can
					 * be elsewhere), when known */
	size_t nareas;
	const char *origin;	/* path the table came from, for messages */
	struct ptrvec tried;	/* const char *: the paths looked at, in order:
				 * "PATH" if absent, else "PATH (why unused)" */
	size_t malformed;	/* lines or entries skipped as unreadable */
	size_t excluded;	/* function symbols dropped (see above) */
};

/* Refusal reasons (compare by pointer or by text). */
extern const char ksym_refused_nokprobe[];	/* NOKPROBE_SYMBOL */
extern const char ksym_refused_kprobes[];	/* .kprobes.text */
extern const char ksym_refused_noinstr[];	/* .noinstr.text */
extern const char ksym_refused_entry[];		/* .entry.text */
extern const char ksym_refused_irqentry[];	/* .irqentry.text */
extern const char ksym_refused_softirq[];	/* .softirqentry.text */
extern const char ksym_refused_init[];		/* .init.text */
extern const char ksym_refused_static_call[];	/* .static_call.text */
extern const char ksym_refused_exit[];		/* vmlinux's .exit.text */
extern const char ksym_refused_jump_label[];	/* a static branch */
extern const char ksym_refused_static_call_site[];	/* a static call */
extern const char ksym_refused_bug[];		/* BUG() */

/* Why kprobes refuse address @addr of the kernel (in a refused text
 * area, or a patched instruction: struct ksym_reserved), or NULL. */
const char *ksyms_addr_refusal(const struct ksyms *ks, uint64_t addr);

/*
 * Load the function symbols of kernel @release (NULL: the running one) into
 * @ks, storage in @a. @build_dir is the -r DIR tree (NULL:
 * /lib/modules/REL/build). Sources, the first usable one wins:
 *   BUILD/System.map, /boot/System.map-REL,
 *   /usr/lib/debug/boot/vmlinux-REL, /usr/lib/debug/lib/modules/REL/vmlinux,
 *   /boot/vmlinux-REL, BUILD/vmlinux,
 *   /proc/kallsyms (only when REL is the running kernel).
 * Skipped, with the reason in @ks->tried: Debian's placeholder System.map
 * ("The real System.map is in the linux-image-...-dbg package"), files
 * without any function symbol, kallsyms whose addresses are hidden
 * (kptr_restrict), ELF files without .symtab.
 * Returns 0; -ENOENT when nothing usable was found (@errbuf says so, and
 * @ks->tried lists the candidates); else the -errno of the first source
 * that failed to read (e.g. -EACCES: /boot/System.map-* is mode 0600 on
 * Debian), @errbuf describing it. Never prints, never exits.
 */
int ksyms_load(struct ksyms *ks, struct arena *a, const char *release,
	       const char *build_dir, char *errbuf, size_t errlen);

/*
 * Load the function symbols of module @mod ("ext4"; '-' and '_' are the
 * same, as for the kernel) of kernel @release (NULL: running): from the
 * "[mod]" entries of /proc/kallsyms when @release runs and the module is
 * loaded, else from the ELF .symtab of the first MOD.ko, .ko.xz or .ko.gz
 * found under /lib/modules/REL/ (symbolic links are not followed).
 * Every symbol's module is @mod spelt with '_'. Returns as ksyms_load();
 * -ENOTSUP with a message for compression this build cannot read (zstd
 * always; xz without liblzma, gzip without zlib: HAVE_LIBLZMA, HAVE_LIBZ).
 */
int ksyms_load_module(struct ksyms *ks, struct arena *a, const char *release,
		      const char *mod, char *errbuf, size_t errlen);

/*
 * Load the .symtab of the ELF file @path (vmlinux, a .ko, any object;
 * .xz/.gz/.zst-compressed per the file name as for ksyms_load_module()),
 * giving each symbol module @module (NULL for vmlinux). Returns 0,
 * -ENOENT/-EACCES/... when it cannot be opened, -ENOEXEC when it is not
 * ELF or has no .symtab, -ENOTSUP for unreadable compression; @errbuf
 * describes failures. @ks->origin is @path on success.
 */
int ksyms_load_elf(struct ksyms *ks, struct arena *a, const char *path,
		   const char *module, char *errbuf, size_t errlen);

/*
 * Path (in @a) of the first regular file under @dir named MOD.ko,
 * MOD.ko.xz, MOD.ko.gz or MOD.ko.zst, '-' and '_' equivalent in MOD;
 * directories are searched recursively without following symbolic
 * links. NULL when there is none or @dir cannot be read.
 */
const char *ksyms_find_module_file(struct arena *a, const char *dir,
				   const char *mod);
/* Append to @names the names of the module files below @dir matching
 * @glob, canonical ('_' for '-' in both), and their paths to @paths;
 * unsorted, maybe repeated. */
void ksyms_list_modules(struct arena *a, const char *dir, const char *glob,
			struct ptrvec *names, struct ptrvec *paths);

/* The symbol named @name (binary search), NULL if absent. */
const struct ksym *ksyms_find(const struct ksyms *ks, const char *name);

/*
 * Call @fn for each symbol whose name matches the shell glob @pattern
 * (fnmatch(3) without FNM_PATHNAME), in name order. Only the names
 * sharing the pattern's literal prefix are tried; a pattern without
 * wildcard characters is one binary search. Stops and returns @fn's value
 * when it is non-zero; returns 0 otherwise.
 */
int ksyms_each_match(const struct ksyms *ks, const char *pattern,
		     int (*fn)(const struct ksym *s, void *ctx), void *ctx);

#endif
