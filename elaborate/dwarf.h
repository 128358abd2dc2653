/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dwarf.h: pass 2's view of DWARF debuginfo: finding it, the function
 * index, line tables, and target variables turned into C. Only
 * elaborate/dwarf*.c include libdw; nothing here exposes its types. */
#ifndef ELABORATE_DWARF_H
#define ELABORATE_DWARF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct arena;
struct elab;
struct strbuf;
struct expr;
struct target_path;
struct target_comp;

/* One ELF file with its debuginfo (vmlinux, a .ko, a user program or
 * library), opened once per elaboration and owned by the DWARF cache. */
struct dw_mod;

enum dw_mod_kind { DW_KERNEL, DW_KMODULE, DW_USER };

/* One function of the index: an out-of-line function, or one inlined
 * copy of one (DWF_INLINED). */
struct dw_func {
	const char *name;
	const char *file;	/* declaring file, as listings show it */
	uint32_t line;		/* declaration line */
	uint32_t flags;
	uint64_t cu;		/* DIE offsets: the compile unit, and the */
	uint64_t die;		/* subprogram or inlined_subroutine */
	uint64_t entry;		/* lowest/entry address, 0 if none */
};

#define DWF_INLINED	0x1	/* an inlined copy */
#define DWF_DECL_INLINE	0x2	/* declared inline */
#define DWF_EXTERNAL	0x4	/* DW_AT_external */
#define DWF_NOCODE	0x8	/* abstract or declaration: no address */
#define DWF_SYMTAB	0x10	/* only in the ELF symbol table: no DWARF */
#define DWF_OPTIMISED	0x20	/* its unit was compiled with -O: probed at
				 * its entry, no DIE read to place it */

/* A kernel tracepoint: SYSTEM:NAME, its arguments those of @fn
 * (__traceiter_NAME) after the first. */
struct dw_trace {
	const char *system;
	const char *name;
	const struct dw_func *fn;
	int nargs;
};

/* How the target variables of a kind of site differ from a code
 * location's (registers and memory at pc): chosen by the family that
 * makes the site; its hooks are in dwarf_vars.h. */
struct dw_site_kind;

/* The kind of kernel.trace sites: the variables are the tracepoint's
 * arguments, in CONTEXT->tp_args[] (dwarf_trace_vars.c). */
const struct dw_site_kind *dw_trace_site_kind(void);

/* An SDT marker of a program or library (<sys/sdt.h>: a .note.stapsdt
 * ELF note), its addresses adjusted by .stapsdt.base (prelink). */
struct dw_sdt {
	const char *provider;
	const char *name;
	const char *args;		/* the operands: "-4@%edi 8@-16(%rbp) 8@$5" */
	int nargs;
	uint64_t pc;			/* DWARF address of its nop */
	uint64_t sem;			/* DWARF address of its semaphore, or 0 */
};

/* Where one probe is: what its target variables are resolved against. */
struct dw_site {
	struct dw_mod *mod;
	const struct dw_func *fn;	/* the function (or inlined copy) */
	uint64_t pc;			/* DWARF address of the probe */
	bool is_return;			/* a .return probe: $return exists */
	bool is_statement;		/* a statement probe */
	bool capture;			/* compiling the capture of values at a
					 * .return's entry (dw_entry_capture_code) */
	const struct dw_site_kind *kind;	/* how its variables differ from a
						 * code location's, or NULL */
	const char *plt_name;		/* a .plt point: its function ($$name) */
	const struct dw_sdt *sdt;	/* a .mark point: its marker ($argN,
					 * $$name, $$provider, $$parms) */
	/* .return probes: values captured at the function's entry
	 * (@entry(...), and parameters read in the return probe) */
	const char *entry_code;		/* C run at entry, filling slots[] */
	unsigned entry_slots;		/* u64 slots (C and probe body) */
	unsigned entry_strs;		/* string slots, STP_STR_SLOTS u64 each */
	/* @entry(EXPR) of script expressions: a probe body run at entry
	 * (its one point, family "entry") storing into the slots */
	struct elab_probe *entry_probe;
	/* a process .return point: the body returning the frame address at
	 * pc (dw_cfa_code), which pairs its returns with their entries, or
	 * NULL with entry_cfa_err saying why */
	const char *entry_cfa, *entry_cfa_err;
};

/* ---- dwarf_find.c ---- */
/* The kernel (@mod NULL) or kernel module @mod of the session's release,
 * or a user program/library @path (DW_USER). NULL with *@why saying what
 * is missing and where to get it, for the caller's semantic error
 * (doc/errors.md: the describe form). Opened once and cached, failures
 * too. */
struct dw_mod *dw_open(struct elab *e, enum dw_mod_kind kind,
		       const char *name, const char **why);
/* The file user program @name names, $PATH searched and the sysroot
 * applied, as the target machine names it (its real path there), or NULL
 * with *@why; *@real (if not NULL) gets its real path on this machine. */
const char *dw_user_path(struct elab *e, const char *name, const char **real,
			 const char **why);
/* Give back the pages of @m's file read so far (they count in our RSS;
 * they are read again from the file when needed): after many points. */
void dw_mod_drop_pages(struct dw_mod *m);
/* ---- dwarf_dyn.c ---- */
/* The libraries program @m needs (DT_NEEDED) whose names match @glob,
 * each found as the dynamic linker would (DT_RPATH/DT_RUNPATH with
 * $ORIGIN, LD_LIBRARY_PATH, the default directories): real paths, sorted,
 * each once; names not found are left out. */
size_t dw_needed_libs(struct elab *e, struct dw_mod *m, const char *glob,
		      const char ***out);
/* A library named without '/', found for program @m that way; NULL if not. */
const char *dw_find_library(struct elab *e, struct dw_mod *m, const char *name);
/* A PLT entry of a program: the function it calls and its stub. */
struct dw_plt {
	const char *name;
	uint64_t addr;			/* DWARF (link-time) address */
};
/* The PLT entries of @m in relocation order (none: 0). */
size_t dw_plt_entries(struct elab *e, struct dw_mod *m, const struct dw_plt **out);

/* The kernel modules of the session's release whose names match @glob
 * ('-' and '_' alike), from the debuginfo trees and /lib/modules: sorted,
 * each once. */
size_t dw_kmodule_names(struct elab *e, const char *glob, const char ***out);
/* Name a probe address: the ELF symbol containing @pc and the offset in
 * it. NULL when no symbol covers it. */
const char *dw_symbol_at(struct elab *e, struct dw_mod *m, uint64_t pc,
			 uint64_t *offset);
/* The offset in @m's file (a program or library) of DWARF address @pc,
 * from its PT_LOAD program headers: 0, or -ERANGE when no segment's file
 * image holds it (-ENOEXEC: no ELF). */
int dw_file_offset(struct dw_mod *m, uint64_t pc, uint64_t *off);
/* Is @m a program linked at fixed addresses (ET_EXEC)? Then *@base is
 * the DWARF address of its first loadable segment. */
bool dw_exec_base(struct dw_mod *m, uint64_t *base);
/* DWARF address of ELF symbol @name (0 if none). */
uint64_t dw_symbol_addr(struct elab *e, struct dw_mod *m, const char *name);
/* The ftrace call site (the fentry call the kernel patches) of the
 * function entry at @pc of the kernel @m: @pc itself, or @pc + 4 past an
 * endbr64 (IBT kernels); 0 when @pc is no function entry with one (not in
 * the vmlinux's __mcount_loc table, or no such table). */
uint64_t dw_ftrace_site(struct elab *e, struct dw_mod *m, uint64_t pc);
/* The run-time address of link-time address @addr of @m (a static
 * variable, a watched symbol), as C (dwarf_static.c); NULL with *@err
 * saying why there is none. */
const char *dw_static_addr(struct elab *e, struct dw_mod *m, uint64_t addr,
			   const char **err);
/* The section of link-time address @addr of kernel module @m (".text",
 * ".init.text" ...), its index in *@shndx unless NULL; NULL if in none. */
const char *dw_kmod_section_at(struct dw_mod *m, uint64_t addr, uint32_t *shndx);
/* The module's path, and its name as probes show it ("kernel", "ext4",
 * "/usr/bin/ls"). */
const char *dw_mod_path(const struct dw_mod *m);
const char *dw_mod_name(const struct dw_mod *m);
enum dw_mod_kind dw_mod_kind(const struct dw_mod *m);
/* Has @m DWARF (else, a program or library, only its symbol table)? */
bool dw_mod_has_dwarf(const struct dw_mod *m);
/* Release the libdw handles of every module opened by @e. */
void dw_close_all(struct elab *e);
/* The files pass 2 read DWARF or symbols from (each opened module's
 * debuginfo file, and a user program's own path), @fn called for each:
 * what an early cache entry (early.c) checks. false when a module could
 * not be opened (then the result depends on what is missing). */
bool dw_inputs(struct elab *e, void (*fn)(void *arg, const char *path), void *arg);

/* ---- dwarf_sdt.c ---- */
/* The SDT markers of @m (a program or library) in note order (none: 0). */
size_t dw_sdt_markers(struct elab *e, struct dw_mod *m, const struct dw_sdt **out);
/* The function (out-of-line copy) of @m whose code holds @pc, or NULL. */
const struct dw_func *dw_func_at(struct elab *e, struct dw_mod *m, uint64_t pc);
/* The getter body of $argN (1-based @n) of marker site @s: the operand
 * decoded into a read of registers, user memory or a constant, sized and
 * signed as the note says. NULL with @err. */
const char *dw_sdt_arg_code(struct elab *e, const struct dw_site *s, int n,
			    const char **err);
/* The getter body of $$parms (and $$vars) of marker site @s:
 * "$arg1=0x.. $arg2=0x..". NULL with @err. */
const char *dw_sdt_parms_code(struct elab *e, const struct dw_site *s, const char **err);

/* ---- dwarf_index.c ---- */
/* The module's functions, sorted by name, file, line and address, from
 * the on-disk cache (per build-id) or built now. */
size_t dw_functions(struct elab *e, struct dw_mod *m,
		    const struct dw_func **out);
/* The functions of @m whose names @glob may match: the whole index, or
 * without a cached index on the kernel, for a glob with a literal start,
 * only (a superset of) those it matches, from a directed walk (a child
 * process then caches the whole index). */
size_t dw_functions_like(struct elab *e, struct dw_mod *m, const char *glob,
			 const struct dw_func **out);

/* ---- dwarf_trace.c ---- */
/* The module's tracepoints, sorted by system and name. */
size_t dw_tracepoints(struct elab *e, struct dw_mod *m,
		      const struct dw_trace **out);

/* ---- dwarf_lines.c ---- */
/* Where an entry probe on @f goes: its entry address, moved past the
 * prologue when its compile unit was not optimised (as the reference
 * does). */
uint64_t dw_probe_entry(struct dw_mod *m, const struct dw_func *f);
/* Statement boundaries: for each line of @f's file in [lo, hi] (hi < 0:
 * every line) that has a line-table row inside @f (an out-of-line copy
 * or an inlined one), the line's lowest address there (rows not marked
 * is_stmt count too, as for the reference). @how narrows it:
 * DW_LINES_FROM_DECL leaves out lines before @f's declaration;
 * DW_LINES_FROM_ENTRY (statement FUNC:*) those before the line of the
 * copy's entry address (none when that row is of another file);
 * DW_LINES_STOP those from the first line of the file that has rows but
 * none in @f; DW_LINES_DEDUP a line whose lowest address a lower line
 * has. Calls @fn(line, addr, ctx) in line order; returns how many. */
#define DW_LINES_FROM_DECL	0x1
#define DW_LINES_FROM_ENTRY	0x2
#define DW_LINES_DEDUP		0x4
#define DW_LINES_STOP		0x8
int dw_each_line(struct elab *e, struct dw_mod *m, const struct dw_func *f,
		 long lo, long hi, unsigned int how,
		 int (*fn)(long line, uint64_t addr, void *ctx), void *ctx);
/* The address ranges of @f (a copy), at most @max, into @lo[i]..@hi[i]
 * (@hi excluded); returns how many. */
#define DW_RANGES_MAX 64
size_t dw_func_ranges(struct dw_mod *m, const struct dw_func *f, uint64_t *lo,
		      uint64_t *hi, size_t max);
/* Does a line-table row start at @pc? */
bool dw_is_statement(struct dw_mod *m, uint64_t pc);
/* Source line of @pc (0 if unknown). */
int dw_line_of(struct dw_mod *m, uint64_t pc, const char **file);
/* Labels of @f matching glob @pat: calls @fn(name, line, addr, ctx). */
int dw_each_label(struct dw_mod *m, const struct dw_func *f, const char *pat,
		  int (*fn)(const char *name, int line, uint64_t addr,
			    void *ctx), void *ctx);

/* ---- dwarf_scope.c ---- */
/* " $a:int $b:struct foo*" for -L: the variables in scope at @s. */
void dw_list_vars(struct elab *e, const struct dw_site *s, struct strbuf *out);

/* ---- dwarf_access.c ---- */
/* A value's DWARF type, for the typed pointers of the language
 * (`t = $file; t->f_flags`): the value is the address of an object of
 * this type (a pointer's target, `&...`, an array). Opaque; allocated in
 * the session arena. */
struct dw_ptype;

/* What compiling a target expression gives besides its C body. */
struct dw_code_info {
	int nidx;			/* array indexes that are not literals:
					 * arguments STAP_ARG_i0, i1... */
	bool is_string;			/* it returns a string ($$vars, $var$) */
	const char *err;		/* why there is no body */
	const struct target_comp *err_at;	/* the step of the path that
					 * failed, or NULL (the whole) */
	const struct dw_ptype *ptype;	/* the value's type when it is an
					 * address (see above), or NULL */
};

/* The C body of an embedded-C function returning target expression @x
 * ($var, $$vars..., @var, @cast) at @s, or NULL with @ci->err set (the
 * reference's kind of message) when it cannot be read there. @write: the
 * body assigns STAP_ARG_value instead. */
const char *dw_target_code(struct elab *e, const struct dw_site *s,
			   const struct expr *x, bool write, struct dw_code_info *ci);
/* The body of a C function of `struct pt_regs *stp_regs` (STP_DW_REGS)
 * returning the canonical frame address at @s's pc (the stack pointer
 * before the call that entered the function: where it is again once the
 * function has returned), from the module's CFI; NULL with @err. */
const char *dw_cfa_code(struct elab *e, const struct dw_site *s, const char **err);
/* @cast(pointer, "TYPE", ...)PATH in module @m: the getter body, whose
 * first argument is STAP_ARG_pointer (then the indexes, as above). */
const char *dw_cast_code(struct elab *e, struct dw_mod *m, const char *type,
			 const struct target_path *p, bool write,
			 struct dw_code_info *ci);
/* @var("NAME[@FILE]")PATH: a global variable of @m, from the first
 * compile unit (matching the FILE glob) that defines it. */
const char *dw_var_code(struct elab *e, struct dw_mod *m, const char *name,
			const char *file, const struct target_path *p, bool write,
			struct dw_code_info *ci);
/* PATH on a value of type @t (`t->f_path->dentry` where t holds a
 * `struct file *`): as dw_cast_code(), the first argument the value. */
const char *dw_autocast_code(struct elab *e, const struct dw_ptype *t,
			     const struct target_path *p, bool write,
			     struct dw_code_info *ci);
/* The type named @type in @m (as @cast finds it) as a value's type: a
 * pointer to it. NULL when there is none. */
const struct dw_ptype *dw_ptype_find(struct elab *e, struct dw_mod *m,
				     const char *type);
/* Are @a and @b the same type (the same module, the same name)? */
bool dw_ptype_same(struct elab *e, const struct dw_ptype *a,
		   const struct dw_ptype *b);
/* FILE globs match a whole path or a trailing part of it after a '/'
 * (dwarf_index.c). */
bool dw_file_matches(const char *glob, const char *file);

/* ---- dwarf_pretty.c: entry values ---- */
/* A new slot of @s's entry data for a number or a string: the C
 * expression of its offset in u64 units from the data's start. */
const char *dw_entry_slot(struct arena *a, struct dw_site *s, bool str);
/* The body of a getter returning the number or string (@str) in the entry
 * slot at offset @off, and of a setter storing its argument STAP_ARG_value
 * there (run at entry). Allocated in @a. */
const char *dw_entry_getter(struct arena *a, const char *off, bool str);
const char *dw_entry_setter(struct arena *a, const char *off, bool str);
/* In a .return probe: the C computing @x at the function's entry (as
 * dw_target_code() at the entry; @ci->is_string says which slot it
 * needs), or NULL with @ci->err. No slot is taken: dw_entry_capture_add()
 * does that once the read is known to stay (tgt_finish_entries). */
const char *dw_entry_capture_code(struct elab *e, const struct dw_site *s,
				  const struct expr *x, struct dw_code_info *ci);
/* Run @code (from dw_entry_capture_code) at @s's entry, storing its value
 * in a new number or string (@str) slot: the slot's offset, for
 * dw_entry_getter(). */
const char *dw_entry_capture_add(struct elab *e, struct dw_site *s, const char *code, bool str);

#endif
