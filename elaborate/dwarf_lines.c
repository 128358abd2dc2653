// SPDX-License-Identifier: GPL-2.0-or-later
/* dwarf_lines.c: line tables: where an entry probe goes (past the
 * prologue of unoptimised code), statement boundaries of a function's
 * lines, labels, and the source line of an address. */
#include "elaborate/dwarf_internal.h"

#include <fnmatch.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/arena.h"

#define LINES_MAX_DEPTH 64

/* Was @cu compiled with optimisation (an -O other than -O0 in its
 * DW_AT_producer)? Without a producer, assume so: no prologue skip. */
bool dw_cu_optimised(Dwarf_Die *cu)
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

	/* optimised code (the kernel's) is probed at the entry: the index
	 * knows it of the unit, so no DIE is read (-l of every kernel
	 * function then touches none of them; a function only the symbol
	 * table has, no unit, would have libdw read every unit's header) */
	if ((f->flags & (DWF_INLINED | DWF_OPTIMISED | DWF_SYMTAB)) || !f->entry ||
	    !dw_die(m, f->cu, &cu) || dw_cu_optimised(&cu) || !dw_die(m, f->die, &d) ||
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
	bool taken;		/* a lower line has the address: not probed */
};

static int cmp_hit(const void *a, const void *b)
{
	const struct line_hit *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The index of the first row at or after @pc (the rows are sorted by
 * address, rows at one address in the table's order). */
static size_t first_row(Dwarf_Lines *lines, size_t n, uint64_t pc)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		Dwarf_Addr addr = 0;

		dwarf_lineaddr(dwarf_onesrcline(lines, mid), &addr);
		if (addr < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The line an address lookup gives for @pc (the last row at @pc, as
 * libdw's dwarf_getsrc_die): that line if the row is of @file, LONG_MAX
 * if it is of another file, @none if no row is at @pc. */
static long line_at(Dwarf_Lines *lines, size_t n, const char *file, uint64_t pc,
		    long none)
{
	Dwarf_Line *last = NULL;
	Dwarf_Addr addr;
	const char *src;
	size_t i;
	int line = 0;

	for (i = first_row(lines, n, pc); i < n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);

		if (!l || dwarf_lineaddr(l, &addr) || addr != pc)
			break;
		last = l;
	}
	if (!last || dwarf_lineno(last, &line) || line <= 0)
		return none;
	src = dwarf_linesrc(last, NULL, NULL);
	if (!src || (file && strcmp(src, file)))
		return LONG_MAX;
	return line;
}

static bool has_line(const struct line_hit *h, size_t n, long line)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (h[mid].line == line)
			return true;
		if (h[mid].line < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* The lines of one file that have rows in one unit, sorted, distinct:
 * made once per unit and file (m->file_lines, keyed by the unit). */
struct file_lines {
	const char *file;
	long *line;
	size_t n;
	struct file_lines *next;
};

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return x < y ? -1 : x > y;
}

static const struct file_lines *lines_of(struct elab *e, struct dw_mod *m,
					 uint64_t cu_off, Dwarf_Lines *lines,
					 size_t n, const char *file)
{
	const void *key = (const void *)(uintptr_t)(cu_off + 1);
	struct file_lines *fl = ptrmap_get(&m->file_lines, key), *head = fl;
	size_t i, k = 0;

	for (; fl; fl = fl->next)
		if (fl->file == file || !strcmp(fl->file, file))
			return fl;
	fl = arena_new_obj(e->a, struct file_lines);
	fl->file = arena_strndup(e->a, file, strlen(file));
	fl->line = arena_alloc(e->a, (n ? n : 1) * sizeof(*fl->line));
	for (i = 0; i < n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		const char *src = l ? dwarf_linesrc(l, NULL, NULL) : NULL;
		int line = 0;

		if (src && !strcmp(src, file) && !dwarf_lineno(l, &line) && line > 0)
			fl->line[k++] = line;
	}
	qsort(fl->line, k, sizeof(*fl->line), cmp_long);
	for (i = 0; i < k; i++)
		if (!fl->n || fl->line[fl->n - 1] != fl->line[i])
			fl->line[fl->n++] = fl->line[i];
	fl->next = head;
	ptrmap_put(e->a, &m->file_lines, key, fl);
	return fl;
}

/* FUNC:* ends before the first line from @from on that has rows in the
 * file but none in the copy (@h, @nh: the copy's lines, sorted,
 * distinct), the next function's usually, as the reference's walk does. */
static long first_missing(const struct file_lines *fl, const struct line_hit *h,
			  size_t nh, long from)
{
	size_t i;

	for (i = 0; i < fl->n; i++)
		if (fl->line[i] >= from && !has_line(h, nh, fl->line[i]))
			return fl->line[i];
	return LONG_MAX;
}

int dw_each_line(struct elab *e, struct dw_mod *m, const struct dw_func *f,
		 long lo, long hi, unsigned int how,
		 int (*fn)(long line, uint64_t addr, void *ctx), void *ctx)
{
	Dwarf_Die cu, d;
	Dwarf_Lines *lines;
	struct line_hit *hits = NULL;
	size_t n, i, j, k = 0, cap = 0;
	const char *file;
	Dwarf_Addr base, start, end;
	ptrdiff_t off = 0;
	long stop = LONG_MAX;
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
	if (!file)
		return 0;
	if (how & DW_LINES_FROM_DECL)
		lo = lo > (long)f->line ? lo : (long)f->line;
	if (how & DW_LINES_FROM_ENTRY) {
		/* from the line of the copy's entry address on */
		long first = f->entry ? line_at(lines, n, file, f->entry, f->line) :
			     (long)f->line;

		lo = lo > first ? lo : first;
	}
	/* the rows in the copy's address ranges */
	while ((off = dwarf_ranges(&d, off, &base, &start, &end)) > 0) {
		for (i = first_row(lines, n, start); i < n; i++) {
			Dwarf_Line *l = dwarf_onesrcline(lines, i);
			Dwarf_Addr addr;
			const char *src;
			int line = 0;

			if (!l || dwarf_lineaddr(l, &addr) || addr >= end)
				break;
			if (dwarf_lineno(l, &line) || line <= 0 || line < lo ||
			    (hi >= 0 && line > hi))
				continue;
			src = dwarf_linesrc(l, NULL, NULL);
			if (!src || strcmp(src, file))
				continue;
			if (k == cap) {
				struct line_hit *nh;

				cap = cap ? cap * 2 : 64;
				nh = realloc(hits, cap * sizeof(*hits));
				if (!nh) {
					free(hits);
					return 0;
				}
				hits = nh;
			}
			hits[k++] = (struct line_hit){ line, addr, false };
		}
	}
	if (k)
		qsort(hits, k, sizeof(*hits), cmp_hit);
	/* the line's first address only: hits[j] are the lines kept */
	for (i = 0, j = 0; i < k; i++) {
		size_t t;

		if (j && hits[i].line == hits[j - 1].line)
			continue;
		if (how & DW_LINES_DEDUP) {
			/* an address a lower line has already */
			for (t = 0; t < j; t++)
				if (!hits[t].taken && hits[t].addr == hits[i].addr)
					hits[i].taken = true;
		}
		/* a taken line is not probed at another of its rows either
		 * (as the reference does) */
		hits[j++] = hits[i];
	}
	if ((how & DW_LINES_STOP) && j)
		stop = first_missing(lines_of(e, m, f->cu, lines, n, file), hits, j, lo);
	for (i = 0; i < j && hits[i].line < stop; i++) {
		if (hits[i].taken)
			continue;
		count++;
		if (fn(hits[i].line, hits[i].addr, ctx))
			break;
	}
	free(hits);
	return count;
}

size_t dw_func_ranges(struct dw_mod *m, const struct dw_func *f, uint64_t *lo,
		      uint64_t *hi, size_t max)
{
	Dwarf_Die cu, d;
	Dwarf_Addr base, start, end;
	ptrdiff_t off = 0;
	size_t n = 0;

	if (!die_of(m, f, &cu, &d))
		return 0;
	while (n < max && (off = dwarf_ranges(&d, off, &base, &start, &end)) > 0) {
		lo[n] = start;
		hi[n++] = end;
	}
	return n;
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
