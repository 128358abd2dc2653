// SPDX-License-Identifier: GPL-2.0-or-later
/* dwarf_lines.c: line tables: where an entry probe goes (past the
 * prologue of unoptimised code), statement boundaries of a function's
 * lines, labels, and the source line of an address. */
#include "elaborate/dwarf_internal.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "util/arena.h"

#define LINES_MAX_DEPTH 64

/* Was @cu compiled with optimisation (an -O other than -O0 in its
 * DW_AT_producer)? Without a producer, assume so: no prologue skip. */
static bool cu_optimised(Dwarf_Die *cu)
{
	Dwarf_Attribute a;
	const char *p = dwarf_formstring(dwarf_attr(cu, DW_AT_producer, &a));
	bool opt = false;

	if (!p)
		return true;
	for (; (p = strstr(p, " -O")); p += 3)
		opt = p[3] != '0';	/* the last -O wins */
	return opt;
}

static bool die_of(struct dw_mod *m, const struct dw_func *f, Dwarf_Die *cu,
		   Dwarf_Die *d)
{
	return dw_die(m, f->cu, cu) && dw_die(m, f->die, d);
}

uint64_t dw_probe_entry(struct dw_mod *m, const struct dw_func *f)
{
	Dwarf_Die cu, d;
	Dwarf_Lines *lines;
	size_t n, i;
	int first_line = -1;
	uint64_t best = 0, next = 0;

	/* the unit first: optimised code (the kernel's) is probed at the
	 * entry, and its function's DIE is not read (-l of every kernel
	 * function then touches none of them) */
	if ((f->flags & DWF_INLINED) || !f->entry || !dw_die(m, f->cu, &cu) ||
	    cu_optimised(&cu) || !dw_die(m, f->die, &d) ||
	    dwarf_getsrclines(&cu, &lines, &n) != 0)
		return f->entry;
	for (i = 0; i < n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Addr addr;
		bool stmt = false, pe = false;
		int line = 0;

		if (!l || dwarf_lineaddr(l, &addr) || dwarf_lineno(l, &line))
			continue;
		if (addr == f->entry && first_line < 0)
			first_line = line;
		if (addr <= f->entry || dwarf_haspc(&d, addr) != 1)
			continue;
		dwarf_linebeginstatement(l, &stmt);
		dwarf_lineprologueend(l, &pe);
		if (pe)
			return addr;
		if (stmt && line != first_line && (!best || addr < best))
			best = addr;
		if (stmt && (!next || addr < next))
			next = addr;
	}
	/* a function on one line (`int f(int x) { return x * 2; }`): its
	 * second row, where the reference (and gdb) end the prologue */
	return best ? best : next ? next : f->entry;
}

struct line_hit {
	long line;
	uint64_t addr;
};

static int cmp_hit(const void *a, const void *b)
{
	const struct line_hit *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

int dw_each_line(struct dw_mod *m, const struct dw_func *f, long lo, long hi,
		 int (*fn)(long line, uint64_t addr, void *ctx), void *ctx)
{
	Dwarf_Die cu, d;
	Dwarf_Lines *lines;
	struct line_hit *hits;
	size_t n, i, k = 0;
	const char *file;
	int count = 0;

	if (!die_of(m, f, &cu, &d) || dwarf_getsrclines(&cu, &lines, &n) != 0)
		return 0;
	file = dwarf_decl_file(&d);
	if (dwarf_tag(&d) == DW_TAG_inlined_subroutine) {
		Dwarf_Attribute a;
		Dwarf_Die o;

		if (dwarf_formref_die(dwarf_attr(&d, DW_AT_abstract_origin, &a), &o))
			file = dwarf_decl_file(&o);
	}
	hits = calloc(n ? n : 1, sizeof(*hits));
	if (!hits)
		return 0;
	for (i = 0; i < n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Addr addr;
		const char *src;
		int line = 0;

		if (!l || dwarf_lineaddr(l, &addr) || dwarf_lineno(l, &line) ||
		    line <= 0)
			continue;
		src = dwarf_linesrc(l, NULL, NULL);
		if (!src || (file && strcmp(src, file)) ||
		    line < lo || (hi >= 0 && line > hi) || line < (long)f->line ||
		    dwarf_haspc(&d, addr) != 1)
			continue;
		hits[k++] = (struct line_hit){ line, addr };
	}
	if (k)
		qsort(hits, k, sizeof(*hits), cmp_hit);
	for (i = 0; i < k; i++) {
		if (i && hits[i].line == hits[i - 1].line)
			continue;	/* the line's first address only */
		count++;
		if (fn(hits[i].line, hits[i].addr, ctx))
			break;
	}
	free(hits);
	return count;
}

bool dw_is_statement(struct dw_mod *m, uint64_t pc)
{
	Dwarf_Addr bias;
	Dwarf_Die *cu = dwfl_module_addrdie(m->dm, pc + m->bias, &bias);
	Dwarf_Lines *lines;
	size_t n, i;

	if (!cu || dwarf_getsrclines(cu, &lines, &n) != 0)
		return false;
	for (i = 0; i < n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Addr addr;

		if (l && !dwarf_lineaddr(l, &addr) && addr == pc)
			return true;
	}
	return false;
}

int dw_line_of(struct dw_mod *m, uint64_t pc, const char **file)
{
	Dwfl_Line *l = dwfl_module_getsrc(m->dm, pc + m->bias);
	int line = 0;
	const char *src;

	if (!l)
		return 0;
	src = dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL);
	if (file)
		*file = src;
	return line;
}

static int labels_in(struct dw_mod *m, Dwarf_Die *d, const char *pat,
		     int (*fn)(const char *, int, uint64_t, void *), void *ctx,
		     int depth)
{
	Dwarf_Die c;
	int n = 0;

	if (depth > LINES_MAX_DEPTH || dwarf_child(d, &c) != 0)
		return 0;
	do {
		int tag = dwarf_tag(&c);
		const char *name = dwarf_diename(&c);
		Dwarf_Addr pc;
		int line = 0;

		if (tag == DW_TAG_label && name && !fnmatch(pat, name, 0) &&
		    dwarf_lowpc(&c, &pc) == 0) {
			dwarf_decl_line(&c, &line);
			n++;
			if (fn(name, line, pc, ctx))
				return n;
		} else if (tag == DW_TAG_lexical_block) {
			n += labels_in(m, &c, pat, fn, ctx, depth + 1);
		}
	} while (dwarf_siblingof(&c, &c) == 0);
	return n;
}

int dw_each_label(struct dw_mod *m, const struct dw_func *f, const char *pat,
		  int (*fn)(const char *name, int line, uint64_t addr,
			    void *ctx), void *ctx)
{
	Dwarf_Die cu, d;

	if (!die_of(m, f, &cu, &d))
		return 0;
	return labels_in(m, &d, pat, fn, ctx, 0);
}
