// SPDX-License-Identifier: GPL-2.0-or-later
/* dwarf.c: the DWARF probe families: kernel.function/statement,
 * module(M).function/statement and process(P)[.library(L)].function/
 * statement, with .call, .return[.maxactive(N)], .inline, .exported,
 * .label(L), numeric addresses and .absolute. Patterns are
 * FUNC[@FILE][:LINE|:A-B|:*|+OFF], matched against the module's function
 * index (elaborate/dwarf_index.c). */
#include "elaborate/probes/points.h"

#include <fnmatch.h>
#include <glob.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "elaborate/dwarf.h"
#include "elaborate/ksyms.h"
#include "session.h"
#include "util/arena.h"
#include "util/diag.h"
#include "util/intern.h"
#include "util/strbuf.h"
#include "util/vec.h"

#define KRETPROBE_MAXACTIVE_MAX 4096
#define NEAREST_MAX_LINES 100000	/* lines one .nearest range looks at */
#define NEAREST_WINDOW 5	/* .nearest looks this many lines each way (the reference's reach) */

static int derive(struct elab *e, struct pm_ctx *c, const struct probe_point *pp);
struct want;
static void match_marks(struct want *w, const char *prov, const char *name);

static const struct pm_family kernel_family = {
	.name = "kernel", .derive = derive, .mech = MECH_kprobe, .per_point = true,
};
static const struct pm_family module_family = {
	.name = "module", .derive = derive, .mech = MECH_kprobe, .per_point = true,
};
static const struct pm_family process_family = {
	.name = "process", .derive = derive, .mech = MECH_uprobe, .per_point = true,
};

enum line_kind { LINE_NONE, LINE_RANGE, LINE_ALL, LINE_REL };

/* A parsed FUNC[@FILE][:LINES|+OFF]. */
struct pattern {
	const char *func;
	const char *file;	/* NULL: any; else a glob matched as a suffix */
	enum line_kind lk;
	long lo, hi;		/* LINE_RANGE: lo..hi; LINE_REL: lo */
};

/* What one derivation is looking for. */
struct want {
	struct elab *e;
	struct pm_ctx *c;
	const struct probe_point *pp;
	const struct pm_family *fam;
	struct dw_mod *m;
	size_t taken;		/* functions taken (TAKE_DROP_EVERY) */
	/* listing: the mechanism data all points share (pass 3 alone reads
	 * them), and the last point's text (a function's copies, adjacent
	 * in the index, share it) and whether a point of it was emitted */
	struct kprobe_point *listing_kp;
	const char *last_text;
	bool last_emitted;
	size_t fn_comp;		/* the function/statement component */
	const char *prefix;	/* 'kernel', 'module("ext4")', ... */
	struct pattern pat;
	bool statement, is_return, call, inline_, exported, nearest;
	const char *label;	/* .label(L) pattern */
	const char *mark;	/* .mark(M) pattern */
	const char *prog_prefix;	/* 'process("PROG")' of a .library point */
	const char *provider;	/* .provider(P) pattern, or NULL */
	int64_t maxactive;
	bool wildcard;		/* a glob (module, function, file) or a line
				 * range: a point that fails to register is
				 * a warning */
	int emitted, refused;
	const char *first_refused, *refusal;
	struct ptrmap stmt_seen;	/* "FUNC@ADDR" of statements placed */
	/* statements by line with a FUNC glob: the lines found in every
	 * copy matched, then given to each copy containing them */
	struct line_set *found;
	struct ptrvec copies;
};

static bool parse_num(const char *s, long *out)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (end == s || v < 0 || v > INT_MAX)
		return false;
	*out = v;
	return *end == '\0' || *end == '-' || *end == ',';
}

static int parse_pattern(struct elab *e, const char *s, struct pattern *p)
{
	const char *at = strchr(s, '@'), *sep, *func_end;

	memset(p, 0, sizeof(*p));
	sep = strpbrk(at ? at : s, ":+");
	func_end = at ? at : sep ? sep : s + strlen(s);
	p->func = arena_strndup(e->a, s, (size_t)(func_end - s));
	if (at)
		p->file = arena_strndup(e->a, at + 1,
					(size_t)((sep ? sep : at + strlen(at)) - at - 1));
	if (!sep)
		return 0;
	if (*sep == '+') {
		p->lk = LINE_REL;
		return parse_num(sep + 1, &p->lo) && !strchr(sep + 1, '-') ? 0 : -1;
	}
	if (!strcmp(sep + 1, "*")) {
		p->lk = LINE_ALL;
		return 0;
	}
	p->lk = LINE_RANGE;
	if (!parse_num(sep + 1, &p->lo))
		return -1;
	p->hi = p->lo;
	sep = strchr(sep + 1, '-');
	if (sep && (!parse_num(sep + 1, &p->hi) || strchr(sep + 1, '-') ||
		    p->hi < p->lo))
		return -1;
	return 0;
}

static const char *quote(struct elab *e, const char *s)
{
	return arena_printf(e->a, "\"%s\"", s);
}

/* A point named @text (the canonical form) for @w's probe. */
static struct elab_point *new_point(struct want *w, const char *text)
{
	struct elab_point *pt = pm_point_named(w->e, w->c, w->pp, text);

	pt->family = w->fam;
	if (w->fam->mech == MECH_kprobe) {
		struct kprobe_point *d = w->listing_kp;

		if (d)
			memset(d, 0, sizeof(*d));
		else
			d = arena_new_obj(w->e->a, struct kprobe_point);
		if (w->e->listing)
			w->listing_kp = d;

		d->ret = w->is_return;
		d->maxactive = w->maxactive;
		d->wildcard = w->wildcard;
		pt->data = d;
	} else if (w->fam->mech == MECH_uprobe) {
		struct uprobe_point *d = arena_new_obj(w->e->a, struct uprobe_point);

		d->ret = w->is_return;
		pt->data = d;
	}
	return pt;
}

/* Name and place the kprobe of a point at DWARF address @pc. */
static bool place(struct want *w, struct elab_point *pt, uint64_t pc)
{
	uint64_t off = 0;
	const char *sym = dw_symbol_at(w->e, w->m, pc, &off);
	const struct ksyms *ks;
	const struct ksym *k;
	const char *why;

	if (dw_mod_kind(w->m) == DW_USER) {
		struct uprobe_point *d = uprobe_point(pt);

		if (dw_file_offset(w->m, pc, &d->offset)) {
			if (!w->refused++) {
				w->first_refused = sym ? sym : dw_mod_name(w->m);
				w->refusal = "the address is in no loadable segment of the file";
			}
			return false;
		}
		d->path = dw_mod_name(w->m);
		/* as the reference names them: a program linked at fixed
		 * addresses from its first segment, else from 0 */
		pt->comment = dw_exec_base(w->m, &off) ?
			arena_printf(w->e->a, "pc=.absolute+0x%llx", (unsigned long long)(pc - off)) :
			arena_printf(w->e->a, "pc=.dynamic+0x%llx", (unsigned long long)pc);
		return true;
	}
	if (!sym)
		return false;
	ks = dw_mod_kind(w->m) == DW_KERNEL ? pm_kernel_syms(w->e, &why)
					    : pm_module_syms(w->e, dw_mod_name(w->m), &why);
	k = ks ? ksyms_find(ks, sym) : NULL;
	why = k ? k->refusal : NULL;
	if (!why && ks && dw_mod_kind(w->m) == DW_KERNEL)
		why = ksyms_addr_refusal(ks, pc);	/* a patched instruction */
	if (why) {
		if (!w->refused++) {
			w->first_refused = sym;
			w->refusal = why;
		}
		return false;
	}
	kprobe_point(pt)->symbol = sym;
	kprobe_point(pt)->module = dw_mod_kind(w->m) == DW_KMODULE ? dw_mod_name(w->m) : NULL;
	if (dw_mod_kind(w->m) == DW_KMODULE) {
		const char *sec = dw_kmod_section_at(w->m, pc, NULL);

		kprobe_point(pt)->module_init = sec && !strcmp(sec, ".init.text");
	}
	if (w->e->listing)
		;			/* -l and -L show no comment */
	else if (dw_mod_kind(w->m) == DW_KERNEL && dw_symbol_addr(w->e, w->m, "_stext"))
		pt->comment = arena_printf(w->e->a, "pc=_stext+0x%llx", (unsigned long long)
					   (pc - dw_symbol_addr(w->e, w->m, "_stext")));
	else
		pt->comment = arena_printf(w->e->a, "pc=%s+0x%llx", sym,
					   (unsigned long long)off);
	kprobe_point(pt)->offset = off;
	if (dw_mod_kind(w->m) == DW_KERNEL) {
		uint64_t site = dw_ftrace_site(w->e, w->m, pc);
		uint64_t jif = dw_symbol_addr(w->e, w->m, "jiffies");

		if (site && jif)
			kprobe_point(pt)->fsite_jiffies = (int64_t)(site - jif);
		if (jif)
			kprobe_point(pt)->addr_jiffies = (int64_t)(pc - jif);
	}
	return true;
}

static void emit(struct want *w, struct elab_point *pt, const struct dw_func *f,
		 uint64_t pc)
{
	struct dw_site *s;

	if (w->e->list_names) {
		/* -l: the name is all there is to a point */
		pm_emit(w->e, w->c, pt);
		w->emitted++;
		return;
	}
	w->last_emitted = true;
	s = arena_new_obj(w->e->a, struct dw_site);
	s->mod = w->m;
	s->fn = f;
	s->pc = pc;
	s->is_return = w->is_return;
	s->is_statement = w->statement;
	pt->site = s;
	pm_emit(w->e, w->c, pt);
	w->emitted++;
}

static const char *suffix(struct want *w)
{
	if (w->is_return)
		return w->maxactive > 0 ?
			arena_printf(w->e->a, ".return.maxactive(%lld)",
				     (long long)w->maxactive) : ".return";
	return w->call ? ".call" : w->inline_ ? ".inline" :
	       w->exported ? ".exported" : "";
}

/* "name@file:line", or the bare name of a symbol-table-only function. */
static const char *fn_text(struct want *w, const struct dw_func *f)
{
	if (f->flags & DWF_SYMTAB)
		return f->name;
	return arena_printf(w->e->a, "%s@%s:%u", f->name, f->file, f->line);
}

struct line_set {
	long *line;
	uint64_t *addr;
	size_t n, cap;
};

static int collect_line(long line, uint64_t addr, void *ctx)
{
	struct line_set *ls = ctx;

	if (ls->n == ls->cap) {
		size_t cap = ls->cap ? ls->cap * 2 : 64;
		long *nl = realloc(ls->line, cap * sizeof(*nl));
		uint64_t *na = nl ? realloc(ls->addr, cap * sizeof(*na)) : NULL;

		if (nl)
			ls->line = nl;
		if (!nl || !na)
			return 1;	/* out of memory: what we have */
		ls->addr = na;
		ls->cap = cap;
	}
	ls->line[ls->n] = line;
	ls->addr[ls->n++] = addr;
	return 0;
}

struct line_ctx {
	struct want *w;
	const struct dw_func *f;
	int lines;		/* statements found */
};

static int each_line(long line, uint64_t addr, void *ctx)
{
	struct line_ctx *l = ctx;
	struct want *w = l->w;
	const char *text;
	struct elab_point *pt;

	if (w->found)
		return collect_line(line, addr, w->found);
	if (w->statement) {
		/* two copies of a function at one address (an inlined
		 * function called twice, one call optimised away): one
		 * probe, as the reference has it */
		const char *key = intern(w->e->in, arena_printf(w->e->a, "%s@%llx",
						l->f->name, (unsigned long long)addr));

		if (ptrmap_get(&w->stmt_seen, key))
			return 0;
		ptrmap_put(w->e->a, &w->stmt_seen, key, (void *)key);
	}
	l->lines++;
	/* a .function with a line is named after the function */
	text = w->statement ?
		arena_printf(w->e->a, "%s.statement(\"%s@%s:%ld\")", w->prefix,
			     l->f->name, l->f->file, line) :
		arena_printf(w->e->a, "%s.function(\"%s\")%s", w->prefix,
			     fn_text(w, l->f), suffix(w));
	pt = new_point(w, text);

	if (place(w, pt, addr)) {
		emit(w, pt, l->f, addr);
		if (w->nearest && w->statement) {	/* named with the line found */
			pt->listed = arena_printf(w->e->a, "%s.nearest", pt->listed);
			if (pt->chain && !strcmp(pt->chain, arena_printf(w->e->a, " <- %s", text)))
				pt->chain = arena_printf(w->e->a, "%s.nearest", pt->chain);
		}
	}
	return 0;
}

static int each_label(const char *name, int line, uint64_t addr, void *ctx)
{
	struct line_ctx *l = ctx;
	struct want *w = l->w;
	const char *text = arena_printf(w->e->a, "%s.function(\"%s\").label(\"%s\")",
					w->prefix, fn_text(w, l->f), name);
	struct elab_point *pt = new_point(w, text);

	(void)line;
	if (place(w, pt, addr))
		emit(w, pt, l->f, addr);
	return 0;
}

/* statement("f@file:N[-M]").nearest: each line N..M, or the nearest line
 * of the function with code within NEAREST_WINDOW lines (the later one of
 * two as near), as the reference does; each line probed once. */
static void take_nearest(struct want *w, const struct dw_func *f, long lo, long hi,
			 struct line_ctx *lc)
{
	struct line_set ls = { 0 };
	long want, last = -1;
	size_t k = 0, pick;

	dw_each_line(w->e, w->m, f, 0, -1, DW_LINES_FROM_DECL, collect_line, &ls);	/* in line order */
	for (want = lo; ls.n && want <= hi && want - lo < NEAREST_MAX_LINES; want++) {
		while (k + 1 < ls.n && ls.line[k + 1] <= want)
			k++;
		/* ls.line[k] <= want < ls.line[k + 1], or past either end */
		pick = k;
		if (ls.line[k] < want && k + 1 < ls.n &&
		    ls.line[k + 1] - want <= want - ls.line[k])
			pick = k + 1;
		if (ls.line[pick] == last || labs(ls.line[pick] - want) > NEAREST_WINDOW)
			continue;
		last = ls.line[pick];
		each_line(last, ls.addr[pick], lc);
	}
	free(ls.line);
	free(ls.addr);
}

/* Which lines of a function's copy a point with lines takes, as the
 * reference does (doc/dwarf.md, "Statements by line"). */
static unsigned int line_rule(const struct want *w)
{
	if (!w->statement)
		return DW_LINES_FROM_DECL;
	if (w->pat.lk == LINE_ALL)
		return DW_LINES_FROM_ENTRY | DW_LINES_DEDUP | DW_LINES_STOP;
	return DW_LINES_DEDUP;
}

/* .exported: for the kernel and its modules, a __ksymtab_ entry; for a
 * program or library, external linkage (as the reference has it, every
 * function only the symbol table knows counts too). */
static bool exported(struct want *w, const struct dw_func *f)
{
	if (dw_mod_kind(w->m) == DW_USER)
		return f->flags & DWF_EXTERNAL;
	return dw_symbol_addr(w->e, w->m, arena_printf(w->e->a, "__ksymtab_%s",
						 f->name)) != 0;
}

/* One index entry matched by name and file. */
static void take(struct want *w, const struct dw_func *f)
{
	bool inl = f->flags & DWF_INLINED, seen = w->e->list_names && pm_listed_as_named(w->c);
	struct strbuf tb = STRBUF_INIT;
	const char *text;
	struct line_ctx lc = { w, f, 0 };
	struct elab_point *pt;
	uint64_t pc;

	if (f->flags & DWF_NOCODE)
		return;
	/* foo.cold: the cold part of foo, which the compiler moved away (the
	 * kernel's symbol table has it, DWARF has it as a range of foo): no
	 * function entry to probe */
	if ((f->flags & DWF_SYMTAB) && dw_mod_kind(w->m) != DW_USER && strstr(f->name, ".cold"))
		return;
	/* __pfx_foo: the padding before foo that kernels built with call
	 * padding (6.2+, Debian's 6.12) name in the symbol table, no code */
	if ((f->flags & DWF_SYMTAB) && dw_mod_kind(w->m) != DW_USER &&
	    !strncmp(f->name, "__pfx_", 6))
		return;
	if ((f->flags & DWF_SYMTAB) && (w->label || w->statement || w->pat.lk != LINE_NONE))
		return;
	/* statements by line take the inlined copies too (doc/dwarf.md) */
	if (inl && (w->call || w->is_return || w->exported ||
		    (w->statement && (w->pat.lk == LINE_NONE || w->nearest))))
		return;
	if (!inl && w->inline_)
		return;
	if (w->exported && !exported(w, f))
		return;
	if (w->label) {
		dw_each_label(w->m, f, w->label, each_label, &lc);
		return;
	}
	if (w->statement || w->pat.lk != LINE_NONE) {
		long lo = w->pat.lo, hi = w->pat.hi;

		if (w->pat.lk == LINE_ALL || w->pat.lk == LINE_NONE) {
			lo = 0;
			hi = -1;
		} else if (w->pat.lk == LINE_REL) {
			lo = hi = (long)f->line + w->pat.lo;
		}
		if (!w->statement && (w->pat.lk == LINE_ALL ||
				      (w->pat.lk == LINE_RANGE && lo != hi))) {
			/* the reference probes the function itself here */
			w->pat.lk = LINE_NONE;
			take(w, f);
			w->pat.lk = lo != hi ? LINE_RANGE : LINE_ALL;
			return;
		}
		if (w->statement && w->pat.lk == LINE_NONE) {
			/* statement("f"): the function's entry statement */
			pc = dw_probe_entry(w->m, f);
			each_line(dw_line_of(w->m, pc, NULL), pc, &lc);
			return;
		}
		if (w->found)
			vec_push(w->e->a, &w->copies, (void *)f);
		if (w->nearest && w->statement && w->pat.lk != LINE_ALL)
			take_nearest(w, f, lo, hi, &lc);
		else
			dw_each_line(w->e, w->m, f, lo, hi, line_rule(w), each_line, &lc);
		return;
	}
	if (f->flags & DWF_SYMTAB)
		sb_addf(&tb, "%s.function(\"%s\")%s", w->prefix, f->name, suffix(w));
	else
		sb_addf(&tb, "%s.function(\"%s@%s:%u\")%s", w->prefix, f->name, f->file,
			f->line, suffix(w));
	if (seen) {
		/* -l lists a name once: of a function's copies (an inlined
		 * function has hundreds) the first that can be probed will do */
		text = intern_n(w->e->in, tb.buf, tb.len);
		sb_release(&tb);
		if (ptrmap_get(&w->e->listed_seen, text))
			return;
	} else if (w->e->listing && w->last_text && !strcmp(w->last_text, sb_str(&tb))) {
		sb_release(&tb);
		/* -L: of the inlined copies listed under a name only the
		 * first counts, and none when an out-of-line copy is there
		 * (listing.c group_line): with a point of this name emitted,
		 * another inlined copy changes nothing */
		if (inl && w->last_emitted)
			return;
		text = w->last_text;
	} else {
		text = sb_to_arena(&tb, w->e->a);
		w->last_text = text;
		w->last_emitted = false;
	}
	pc = dw_probe_entry(w->m, f);
	pt = new_point(w, text);
	if (w->is_return && dw_mod_kind(w->m) == DW_USER && f->entry) {
		/* a uretprobe takes over the return address: at the
		 * function's first instruction; values at entry are read
		 * where the DWARF places the parameters (past the prologue
		 * of code not optimised), by an entry uprobe there */
		uint64_t capture;

		if (!place(w, pt, f->entry))
			return;
		if (dw_file_offset(w->m, pc, &capture))
			capture = uprobe_point(pt)->offset;
		uprobe_point(pt)->capture_offset = capture;
		emit(w, pt, f, pc);
		if (pt->site)
			pt->site->entry_cfa = dw_cfa_code(w->e, pt->site, &pt->site->entry_cfa_err);
		return;
	}
	if (!place(w, pt, pc))
		return;
	emit(w, pt, f, pc);
	if (seen)
		ptrmap_put(w->e->a, &w->e->listed_seen, text, pt);
}

/* function(ADDR) / statement(ADDR): the function containing it. */
static int by_address(struct want *w, uint64_t addr, const struct srcloc *loc,
		      const char *token)
{
	const struct dw_func *fs, *best = NULL;
	size_t n = dw_functions(w->e, w->m, &fs), i;

	for (i = 0; i < n; i++) {
		const struct dw_func *f = &fs[i];

		if ((f->flags & (DWF_INLINED | DWF_NOCODE)) || f->entry > addr)
			continue;
		if (!best || f->entry > best->entry)
			best = f;
	}
	if (!best || (!w->statement && best->entry != addr &&
		      !dw_symbol_at(w->e, w->m, addr, &(uint64_t){ 0 }))) {
		pm_error(w->e, w->c, loc, token, "no function found at address 0x%llx",
			 (unsigned long long)addr);
		return -1;
	}
	if (w->statement) {
		if (!dw_is_statement(w->m, addr)) {
			pm_error(w->e, w->c, loc, token,
				 "address 0x%llx does not start a statement (not in "
				 "the line table); use .absolute in guru mode",
				 (unsigned long long)addr);
			return -1;
		}
		{
			/* named by the address as written */
			struct elab_point *pt = new_point(w, arena_printf(w->e->a,
				"%s.statement(0x%llx)", w->prefix, (unsigned long long)addr));

			if (place(w, pt, addr))
				emit(w, pt, best, addr);
		}
		return w->emitted;
	}
	take(w, best);
	return w->emitted;
}

static int check_maxactive(struct want *w)
{
	const struct expr *ma = pm_param_of(w->pp, "maxactive");

	w->maxactive = -1;
	if (!ma)
		return 0;
	if (ma->num < 1 || ma->num > KRETPROBE_MAXACTIVE_MAX) {
		pm_error(w->e, w->c, &ma->loc, elab_token(w->e, ma),
			 "maxactive value out of range (1, %d)", KRETPROBE_MAXACTIVE_MAX);
		return -1;
	}
	w->maxactive = ma->num;
	return 0;
}

/* The program process(...) names: PATH, /proc/PID/exe for a PID, and for
 * a bare process the target's (the program of -c COMMAND, found in $PATH
 * as the shell would, or /proc/PID/exe of -x PID), as the reference fills
 * it in (stapprobes(3stap)). NULL after an error. */
static const char *process_name(struct want *w, const struct pp_component *c0)
{
	struct elab *e = w->e;
	const char *name;

	if (c0->param && c0->param->kind == EXPR_NUMBER)
		return arena_printf(e->a, "/proc/%lld/exe", (long long)c0->param->num);
	if (c0->param)
		return c0->param->str.s;
	name = pm_target_command(e);
	if (!name && e->sess->target_pid)
		name = arena_printf(e->a, "/proc/%ld/exe", e->sess->target_pid);
	if (!name)
		pm_error(e, w->c, &c0->loc, "identifier 'process'",
			 "unspecified process probe is invalid without a -c COMMAND or -x PID");
	return name;
}

/* The module the point names, opened; NULL after an error. */
static struct dw_mod *open_module(struct want *w, const struct pp_component *c0,
				  const struct pp_component *c1)
{
	const char *why = NULL, *name;
	struct dw_mod *m;

	if (!strcmp(c0->name, "kernel")) {
		w->fam = &kernel_family;
		w->prefix = "kernel";
		m = dw_open(w->e, DW_KERNEL, NULL, &why);
	} else if (!strcmp(c0->name, "module")) {
		name = c0->param->str.s;
		w->fam = &module_family;
		w->prefix = arena_printf(w->e->a, "module(%s)", quote(w->e, name));
		m = dw_open(w->e, DW_KMODULE, name, &why);
	} else {
		const struct pp_component *lib = !strcmp(c1->name, "library") ? c1 : NULL;

		w->fam = &process_family;
		name = process_name(w, c0);
		if (!name)
			return NULL;
		m = NULL;
		if (lib && !strchr(lib->param->str.s, '/')) {
			/* a library name: where the program's dynamic linker finds it */
			const char *pm = NULL, *found;
			struct dw_mod *prog = dw_open(w->e, DW_USER, name, &pm);

			if (prog && (found = dw_find_library(w->e, prog, lib->param->str.s)))
				m = dw_open(w->e, DW_USER, found, &why);
		}
		if (!m)
			m = dw_open(w->e, DW_USER, lib ? lib->param->str.s : name, &why);
		if (m && lib) {
			const char *pm = NULL;
			struct dw_mod *prog = dw_open(w->e, DW_USER, name, &pm);

			w->prog_prefix = arena_printf(w->e->a, "process(%s)",
						      quote(w->e, prog ? dw_mod_name(prog) : name));
			w->prefix = arena_printf(w->e->a, "%s.library(%s)", w->prog_prefix,
						 quote(w->e, dw_mod_name(m)));
		} else if (m) {
			w->prefix = arena_printf(w->e->a, "process(%s)",
						 quote(w->e, dw_mod_name(m)));
		}
	}
	if (!m)
		pm_error(w->e, w->c, &c0->loc, arena_printf(w->e->a, "identifier '%s'",
							    c0->name), "%s", why);
	return m;
}

static void bad_pattern(struct want *w, const struct pp_component *fc)
{
	pm_error(w->e, w->c, &fc->param->loc, elab_token(w->e, fc->param),
		 "invalid line number specification in '%s' (expected "
		 ":N, :N-M, :* or +N)", fc->param->str.s);
}

struct found_line {
	long line;
	uint64_t addr;
};

static int cmp_found_addr(const void *a, const void *b)
{
	const struct found_line *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* The first of @f (sorted by address) at or after @addr. */
static size_t found_from(const struct found_line *f, size_t n, uint64_t addr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int cmp_found(const void *a, const void *b)
{
	const struct found_line *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* statement("GLOB@FILE:LINES"): the reference finds the lines of each
 * copy matched as for one function, then probes each line's address in
 * every matched copy that contains it (named after that copy's function):
 * file_open_root's line 1112 at the address found in the copy of
 * build_open_how inlined into it. Each copy's lines in line order. */
static void give_found(struct want *w, struct line_set *ls)
{
	struct found_line *by_addr, *mine;
	size_t i, j, k;

	if (!ls->n)
		return;
	by_addr = calloc(ls->n, sizeof(*by_addr));
	mine = calloc(ls->n, sizeof(*mine));
	if (!by_addr || !mine)
		goto out;
	for (i = 0; i < ls->n; i++)
		by_addr[i] = (struct found_line){ ls->line[i], ls->addr[i] };
	qsort(by_addr, ls->n, sizeof(*by_addr), cmp_found_addr);
	for (i = 0; i < w->copies.n; i++) {
		const struct dw_func *g = w->copies.v[i];
		struct line_ctx lc = { w, g, 0 };
		uint64_t lo[DW_RANGES_MAX], hi[DW_RANGES_MAX];
		size_t nr = dw_func_ranges(w->m, g, lo, hi, DW_RANGES_MAX), r;

		for (r = 0, k = 0; r < nr; r++)
			for (j = found_from(by_addr, ls->n, lo[r]);
			     j < ls->n && by_addr[j].addr < hi[r]; j++)
				mine[k++] = by_addr[j];
		qsort(mine, k, sizeof(*mine), cmp_found);
		for (j = 0; j < k; j++)
			if (!j || mine[j].line != mine[j - 1].line ||
			    mine[j].addr != mine[j - 1].addr)
				each_line(mine[j].line, mine[j].addr, &lc);
	}
out:
	free(by_addr);
	free(mine);
}

#define TAKE_DROP_EVERY 16384	/* functions taken: dw_mod_drop_pages */

/* Take every function of w->m the pattern matches. Placing one may have
 * libdw read the headers of every unit before its own (a function of a
 * unit not optimised): the pages read are given back now and then. */
static void match_functions(struct want *w)
{
	const struct dw_func *fs;
	size_t n = dw_functions_like(w->e, w->m, w->pat.func, &fs), i;
	struct line_set ls = { 0 };
	bool glob = w->statement && !w->nearest && w->pat.lk != LINE_NONE &&
		    strpbrk(w->pat.func, "*?[");

	if (glob) {
		w->found = &ls;
		w->copies.n = 0;
	}
	for (i = 0; i < n; i++) {
		const struct dw_func *f = &fs[i];

		if (fnmatch(w->pat.func, f->name, 0) || !dw_file_matches(w->pat.file, f->file))
			continue;
		take(w, f);
		if (!(++w->taken % TAKE_DROP_EVERY))
			dw_mod_drop_pages(w->m);
	}
	if (w->taken >= TAKE_DROP_EVERY)
		dw_mod_drop_pages(w->m);
	if (glob) {
		w->found = NULL;
		give_found(w, &ls);
		free(ls.line);
		free(ls.addr);
	}
}

/* Take what the point names in w->m: its functions, or its markers. */
static void match(struct want *w)
{
	if (w->mark)
		match_marks(w, w->provider, w->mark);
	else
		match_functions(w);
}

/* After matching: the warning for points kprobes refuse, and the error
 * when nothing matched in @where. */
static int report(struct want *w, const struct pp_component *fc, const char *where)
{
	struct elab *e = w->e;
	const char *why;

	if (w->emitted && w->refused && !pm_quiet(e, w->c))
		diag_report(e->d, DIAG_WARNING, &fc->param->loc, elab_token(e, fc->param),
			    "skipped %d probe point%s kprobes refuse, e.g. in '%s': %s",
			    w->refused, w->refused == 1 ? "" : "s", w->first_refused,
			    w->refusal);
	if (w->emitted)
		return w->emitted;
	why = w->refused ? arena_printf(e->a, "cannot probe '%s': %s", w->first_refused,
					w->refusal) :
	      w->mark ? arena_printf(e->a, "no match for %s%s.mark(%s) in %s%s", w->prefix,
				     w->provider ? arena_printf(e->a, ".provider(%s)",
								quote(e, w->provider)) : "",
				     quote(e, w->mark), where, !w->m ? "" :
				     dw_sdt_markers(e, w->m, &(const struct dw_sdt *){ 0 }) ?
				     " (no SDT marker of that name)" :
				     " (it has no SDT markers: no .note.stapsdt section)") :
	      arena_printf(e->a, "no match for %s %s '%s' in %s%s", w->prefix,
			   w->statement ? "statement" : w->label ? "label" : "function",
			   fc->param->str.s, where,
			   w->m && !dw_mod_has_dwarf(w->m) ?
			   " (it has no DWARF debuginfo, only its symbol table was "
			   "searched; install its debug symbols, the -dbgsym/-dbg "
			   "package, or rebuild it with -g)" : "");
	pm_error(e, w->c, &fc->param->loc, elab_token(e, fc->param), "%s", why);
	return -1;
}

/* What module("GLOB") and library("GLOB") points check first: an address
 * names a place in one @what, and the pattern must parse. */
static int glob_start(struct want *w, const struct pp_component *fc, const char *what,
		      const char *glob)
{
	if (fc->param->kind == EXPR_NUMBER) {
		pm_error(w->e, w->c, &fc->param->loc, elab_token(w->e, fc->param),
			 "a probe address needs one %s, not %s(\"%s\")", what, what, glob);
		return -1;
	}
	if (parse_pattern(w->e, fc->param->str.s, &w->pat)) {
		bad_pattern(w, fc);
		return -1;
	}
	return 0;
}

/* module("GLOB"): every module of the release whose name matches, as the
 * reference does; modules without debuginfo are left out. */
static int derive_modules(struct want *w, const struct pp_component *c0,
			  const struct pp_component *fc)
{
	struct elab *e = w->e;
	const char *glob = c0->param->str.s, *why = NULL, **names;
	size_t n, i;

	if (glob_start(w, fc, "module", glob))
		return -1;
	n = dw_kmodule_names(e, glob, &names);
	w->wildcard = true;
	for (i = 0; i < n; i++) {
		w->fam = &module_family;
		w->prefix = arena_printf(e->a, "module(%s)", quote(e, names[i]));
		w->m = dw_open(e, DW_KMODULE, names[i], &why);
		if (w->m)
			match_functions(w);
	}
	w->prefix = arena_printf(e->a, "module(%s)", quote(e, glob));
	return report(w, fc, n ? arena_printf(e->a, "the %zu modules matching '%s'", n, glob) :
			     arena_printf(e->a, "any module (none matches '%s')", glob));
}

/* process("GLOB"): every regular file the path pattern matches (sorted,
 * each once by its real path), as the reference expands it; files that
 * are not programs with debuginfo are left out. */
static int derive_processes(struct want *w, const struct pp_component *c0,
			    const struct pp_component *fc)
{
	struct elab *e = w->e;
	const char *pattern = c0->param->str.s, *why = NULL;
	struct ptrmap seen = { 0 };
	char real[PATH_MAX];
	size_t i, n = 0;
	glob_t g = { 0 };
	int grc;

	if (glob_start(w, fc, "process", pattern))
		return -1;
	grc = glob(pattern, 0, NULL, &g);
	for (i = 0; grc == 0 && i < g.gl_pathc; i++) {
		struct stat st;
		const char *key;

		if (stat(g.gl_pathv[i], &st) || !S_ISREG(st.st_mode) ||
		    !realpath(g.gl_pathv[i], real))
			continue;
		key = intern(e->in, real);
		if (ptrmap_get(&seen, key))
			continue;
		ptrmap_put(e->a, &seen, key, (void *)key);
		n++;
		w->fam = &process_family;
		w->m = dw_open(e, DW_USER, key, &why);
		if (!w->m)
			continue;
		w->prefix = arena_printf(e->a, "process(%s)", quote(e, dw_mod_name(w->m)));
		match(w);
	}
	globfree(&g);
	w->prefix = arena_printf(e->a, "process(%s)", quote(e, pattern));
	return report(w, fc, n ? arena_printf(e->a, "the %zu files matching '%s'", n, pattern) :
			     arena_printf(e->a, "any file (none matches '%s')", pattern));
}

/* The program a process(...) point names, opened (NULL after an error). */
static struct dw_mod *open_program(struct want *w, const struct pp_component *c0)
{
	const char *why = NULL, *name = process_name(w, c0);
	struct dw_mod *m = name ? dw_open(w->e, DW_USER, name, &why) : NULL;

	if (!name)
		return NULL;
	if (!m)
		pm_error(w->e, w->c, &c0->loc, "identifier 'process'", "%s", why);
	return m;
}

/* Each library the program of @c0 needs whose name matches @glob, opened
 * as w->m under its own prefix and given to @fn (with @pat); then
 * w->prefix names the pattern and *@where what was searched, for a
 * no-match message. The number of libraries, or -1 when the program is
 * not found (reported). */
static long each_library(struct want *w, const struct pp_component *c0, const char *glob,
			 void (*fn)(struct want *w, const char *pat), const char *pat,
			 const char **where)
{
	struct elab *e = w->e;
	struct dw_mod *prog = open_program(w, c0);
	const char *why = NULL, **libs;
	size_t n, i;

	if (!prog)
		return -1;
	n = dw_needed_libs(e, prog, glob, &libs);
	w->fam = &process_family;
	w->prog_prefix = arena_printf(e->a, "process(%s)", quote(e, dw_mod_name(prog)));
	for (i = 0; i < n; i++) {
		w->prefix = arena_printf(e->a, "%s.library(%s)", w->prog_prefix,
					 quote(e, libs[i]));
		w->m = dw_open(e, DW_USER, libs[i], &why);
		if (w->m)
			fn(w, pat);
	}
	w->prefix = arena_printf(e->a, "%s.library(%s)", w->prog_prefix, quote(e, glob));
	*where = n ? arena_printf(e->a, "the %zu libraries of %s matching '%s'",
				  n, dw_mod_name(prog), glob) :
		     arena_printf(e->a, "%s (no library it needs matches '%s')",
				  dw_mod_name(prog), glob);
	return (long)n;
}

static void match_library(struct want *w, const char *pat)
{
	(void)pat;
	match(w);
}

/* process(P).library("GLOB"): each library P needs whose name matches. */
static int derive_libraries(struct want *w, const struct pp_component *c0,
			    const struct pp_component *c1, const struct pp_component *fc)
{
	const char *where;

	if (glob_start(w, fc, "library", c1->param->str.s) ||
	    each_library(w, c0, c1->param->str.s, match_library, NULL, &where) < 0)
		return -1;
	return report(w, fc, where);
}

/* process(P)[.library(L)][.provider("PGLOB")].mark("GLOB"): the SDT
 * markers of the file matching, each a statement probe at its address (the
 * reference names them so) and listed as a mark; a marker's semaphore is
 * raised while the probe is attached. */
static void match_marks(struct want *w, const char *prov, const char *name)
{
	struct elab *e = w->e;
	const struct dw_sdt *v;
	size_t n = dw_sdt_markers(e, w->m, &v), i;
	/* a library's markers are named after the library's file, listed
	 * under the program, as the reference does */
	const char *name_prefix = arena_printf(e->a, "process(%s)", quote(e, dw_mod_name(w->m)));
	const char *list_prefix = w->prefix;

	for (i = 0; i < n; i++) {
		struct elab_point *pt;

		if ((prov && fnmatch(prov, v[i].provider, 0)) || fnmatch(name, v[i].name, 0))
			continue;
		pt = new_point(w, arena_printf(e->a, "%s.statement(0x%llx)", name_prefix,
					       (unsigned long long)v[i].pc));
		if (!place(w, pt, v[i].pc))
			continue;
		if (v[i].sem && dw_file_offset(w->m, v[i].sem, &uprobe_point(pt)->sem_offset)) {
			if (!w->refused++) {
				w->first_refused = v[i].name;
				w->refusal = "its semaphore is in no loadable segment of the file";
			}
			continue;
		}
		w->statement = true;	/* the site sees the scope's locals too */
		emit(w, pt, dw_func_at(e, w->m, v[i].pc), v[i].pc);
		w->statement = false;
		if (pt->site)
			pt->site->sdt = &v[i];
		/* named through an alias (stap.pass0): listed as the alias */
		if (pm_listed_as_named(w->c))
			pt->listed = prov ? arena_printf(e->a, "%s.provider(%s).mark(%s)",
							 list_prefix, quote(e, v[i].provider),
							 quote(e, v[i].name)) :
					    arena_printf(e->a, "%s.mark(%s)", list_prefix,
							 quote(e, v[i].name));
		if (w->prog_prefix)
			pt->chain = arena_printf(e->a, " <- %s.statement(0x%llx)", list_prefix,
						 (unsigned long long)v[i].pc);
	}
}

/* process(P)[.library(L)].plt("GLOB"): the PLT stubs of the calls to
 * functions matching, each a statement probe at its stub (the reference
 * names it so); $$name is the function's name. */
/* The PLT entries of w->m whose names match @pat, as statement probes
 * listed as .plt(NAME) under w->prefix. */
static void plt_points(struct want *w, const char *pat)
{
	struct elab *e = w->e;
	const struct dw_plt *v;
	size_t n, i;

	n = dw_plt_entries(e, w->m, &v);
	for (i = 0; i < n; i++) {
		const char *text = arena_printf(e->a, "%s.statement(0x%llx)%s", w->prefix,
						(unsigned long long)v[i].addr,
						w->is_return ? ".return" : "");
		struct elab_point *pt;

		if (fnmatch(pat, v[i].name, 0))
			continue;
		pt = new_point(w, text);
		if (!place(w, pt, v[i].addr))
			continue;
		emit(w, pt, NULL, v[i].addr);
		if (pt->site)
			pt->site->plt_name = v[i].name;
		pt->listed = arena_printf(e->a, "%s.plt(%s)%s", w->prefix, quote(e, v[i].name),
					  w->is_return ? ".return" : "");
	}
}

/* [process(P)|process][.library(L)].plt[("GLOB")][.return]: without a
 * pattern every PLT entry; a library pattern takes each library the
 * program needs that matches it. */
static int derive_plt(struct want *w, const struct pp_component *c0,
		      const struct pp_component *c1, const struct pp_component *fc)
{
	struct elab *e = w->e;
	const char *pat = fc->param ? fc->param->str.s : "*", *where;

	w->fam = &process_family;
	w->wildcard |= strpbrk(pat, "*?[") != NULL;
	if (w->fn_comp == 2 && strpbrk(c1->param->str.s, "*?[")) {
		if (each_library(w, c0, c1->param->str.s, plt_points, pat, &where) < 0)
			return -1;
	} else {
		w->m = w->fn_comp == 2 ? open_module(w, c0, c1) : open_program(w, c0);
		if (!w->m)
			return -1;
		if (w->fn_comp != 2)
			w->prefix = arena_printf(e->a, "process(%s)", quote(e, dw_mod_name(w->m)));
		plt_points(w, pat);
		where = dw_mod_path(w->m);
	}
	if (w->emitted)
		return w->emitted;
	if (fc->param)
		pm_error(e, w->c, &fc->param->loc, elab_token(e, fc->param),
			 "no match for %s.plt(%s) in %s", w->prefix, quote(e, pat), where);
	else
		pm_error(e, w->c, &fc->loc, "identifier 'plt'", "no match for %s.plt in %s",
			 w->prefix, where);
	return -1;
}

static int derive(struct elab *e, struct pm_ctx *c, const struct probe_point *pp)
{
	const struct pp_component *c0 = pp->comps.v[0], *c1 = pp->comps.v[1], *fc;
	struct want w = { 0 };

	w.e = e;
	w.c = c;
	w.pp = pp;
	w.fn_comp = 1;
	if (!strcmp(c1->name, "library"))
		w.fn_comp = 2;
	fc = pp->comps.v[w.fn_comp];
	if (!strcmp(fc->name, "provider")) {
		w.provider = fc->param->str.s;
		fc = pp->comps.v[w.fn_comp + 1];
	}
	if (!strcmp(fc->name, "mark"))
		w.mark = fc->param->str.s;
	w.statement = !strcmp(fc->name, "statement");
	w.is_return = pm_has(pp, "return");
	w.call = pm_has(pp, "call");
	w.inline_ = pm_has(pp, "inline");
	w.exported = pm_has(pp, "exported");
	w.nearest = pm_has(pp, "nearest");
	w.label = pm_param_of(pp, "label") ? pm_param_of(pp, "label")->str.s : NULL;
	if (check_maxactive(&w))
		return -1;
	if (pm_has(pp, "absolute")) {
		struct elab_point *pt;

		if (!pm_guru(e, c)) {
			pm_error(e, c, &fc->loc, "identifier 'absolute'",
				 "absolute statement probe in unprivileged script; need stap -g");
			return -1;
		}
		pt = pm_point(e, c, pp);
		pt->family = !strcmp(c0->name, "process") ? &process_family
							  : &kernel_family;
		if (pt->family->mech == MECH_kprobe) {
			struct kprobe_point *d = arena_new_obj(e->a, struct kprobe_point);

			d->addr = (uint64_t)fc->param->num;
			d->maxactive = -1;
			pt->data = d;
		} else {
			/* the address is the program's link-time one: a
			 * uprobe at its offset in the file */
			struct uprobe_point *d = arena_new_obj(e->a, struct uprobe_point);
			struct dw_mod *m = w.fn_comp == 2 ? open_module(&w, c0, c1)
							   : open_program(&w, c0);

			if (!m)
				return -1;
			if (dw_file_offset(m, (uint64_t)fc->param->num, &d->offset)) {
				pm_error(e, c, &fc->param->loc, elab_token(e, fc->param),
					 "address 0x%llx is in no loadable segment of %s",
					 (unsigned long long)fc->param->num, dw_mod_path(m));
				return -1;
			}
			d->path = dw_mod_name(m);
			pt->data = d;
		}
		pm_emit(e, c, pt);
		return 1;
	}
	if (!strcmp(c0->name, "module") && strpbrk(c0->param->str.s, "*?["))
		return derive_modules(&w, c0, fc);
	if (!strcmp(fc->name, "plt"))
		return derive_plt(&w, c0, c1, fc);
	if (w.fn_comp == 2 && strpbrk(c1->param->str.s, "*?["))
		return derive_libraries(&w, c0, c1, fc);
	if (w.fn_comp == 1 && !strcmp(c0->name, "process") && c0->param &&
	    c0->param->kind == EXPR_STRING && strpbrk(c0->param->str.s, "*?["))
		return derive_processes(&w, c0, fc);
	w.m = open_module(&w, c0, c1);
	if (!w.m)
		return -1;
	if (w.mark) {
		match(&w);
		return report(&w, fc, dw_mod_path(w.m));
	}
	if (fc->param->kind == EXPR_NUMBER)
		return by_address(&w, (uint64_t)fc->param->num, &fc->param->loc,
				  elab_token(e, fc->param));
	if (parse_pattern(e, fc->param->str.s, &w.pat)) {
		bad_pattern(&w, fc);
		return -1;
	}
	w.wildcard |= strpbrk(w.pat.func, "*?[") || (w.pat.file && strpbrk(w.pat.file, "*?[")) ||
		      w.pat.lk == LINE_ALL || (w.pat.lk == LINE_RANGE && w.pat.hi > w.pat.lo);
	match_functions(&w);
	return report(&w, fc, dw_mod_path(w.m));
}

void pm_register_dwarf(struct elab *e)
{
	static const char *const fn_tails[] = {
		"", ".call", ".return", ".return.maxactive(n)", ".inline",
		".exported", ".label(s)",
	};
	static const char *const heads[] = {
		"kernel", "module(s)", "process(s)", "process(n)",
		"process(s).library(s)", "process", "process.library(s)",
	};
	size_t h, t;

	for (h = 0; h < sizeof(heads) / sizeof(heads[0]); h++) {
		const struct pm_family *f = !strncmp(heads[h], "kernel", 6) ? &kernel_family :
					    !strncmp(heads[h], "module", 6) ? &module_family :
					    &process_family;

		for (t = 0; t < sizeof(fn_tails) / sizeof(fn_tails[0]); t++)
			pm_register(e, arena_printf(e->a, "%s.function(s)%s", heads[h],
						    fn_tails[t]), f);
		pm_register(e, arena_printf(e->a, "%s.function(n)", heads[h]), f);
		pm_register(e, arena_printf(e->a, "%s.function(n).return", heads[h]), f);
		pm_register(e, arena_printf(e->a, "%s.statement(s)", heads[h]), f);
		pm_register(e, arena_printf(e->a, "%s.statement(s).nearest", heads[h]), f);
		if (f == &process_family) {
			pm_register(e, arena_printf(e->a, "%s.mark(s)", heads[h]), f);
			pm_register(e, arena_printf(e->a, "%s.provider(s).mark(s)", heads[h]), f);
			pm_register(e, arena_printf(e->a, "%s.plt(s)", heads[h]), f);
			pm_register(e, arena_printf(e->a, "%s.plt(s).return", heads[h]), f);
			pm_register(e, arena_printf(e->a, "%s.plt", heads[h]), f);
			pm_register(e, arena_printf(e->a, "%s.plt.return", heads[h]), f);
		}
		pm_register(e, arena_printf(e->a, "%s.statement(n)", heads[h]), f);
		pm_register(e, arena_printf(e->a, "%s.statement(n).absolute", heads[h]), f);
	}
}
