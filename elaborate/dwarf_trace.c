// SPDX-License-Identifier: GPL-2.0-or-later
/* dwarf_trace.c: the kernel's tracepoints, found in its DWARF: each
 * TRACE_EVENT/DECLARE_TRACE has a function __traceiter_NAME(void *__data,
 * ARGS...) whose parameters are the tracepoint's arguments with their
 * types; its subsystem is the TRACE_SYSTEM of the compile unit that
 * created it, which holds a str__SYSTEM__trace_system_name array. */
#include "elaborate/dwarf_internal.h"

#include <stdlib.h>
#include <string.h>

#include "util/arena.h"
#include "util/intern.h"

#define ITER_PREFIX "__traceiter_"
#define SYS_PREFIX "str__"
#define SYS_SUFFIX "__trace_system_name"

/* The systems whose name arrays compile unit @cu defines. */
static int cu_systems(struct elab *e, Dwarf_Die *cu, const char **out, int max)
{
	size_t pl = strlen(SYS_PREFIX), sl = strlen(SYS_SUFFIX);
	Dwarf_Die c;
	int n = 0;

	if (dwarf_child(cu, &c) != 0)
		return 0;
	do {
		const char *name = dwarf_diename(&c);
		size_t len;

		if (dwarf_tag(&c) != DW_TAG_variable || !name)
			continue;
		len = strlen(name);
		if (len > pl + sl && !strncmp(name, SYS_PREFIX, pl) &&
		    !strcmp(name + len - sl, SYS_SUFFIX) && n < max)
			out[n++] = intern_n(e->in, name + pl, len - pl - sl);
	} while (dwarf_siblingof(&c, &c) == 0);
	return n;
}

/* Of several systems in one unit, the one named like the header that
 * declares the tracepoint (include/trace/events/sched.h: sched). */
static const char *pick_system(const char *const *sys, int n, const char *file)
{
	const char *base = file ? strrchr(file, '/') : NULL;
	int i;

	base = base ? base + 1 : file;
	for (i = 0; base && i < n; i++) {
		size_t l = strlen(sys[i]);

		if (!strncmp(base, sys[i], l) && !strcmp(base + l, ".h"))
			return sys[i];
	}
	return n ? sys[0] : NULL;
}

/* The tracepoint's arguments: the parameters after void *__data. */
static int count_args(struct dw_mod *m, const struct dw_func *f)
{
	Dwarf_Die d, c;
	int n = 0;

	if (!dw_die(m, f->die, &d) || dwarf_child(&d, &c) != 0)
		return 0;
	do {
		if (dwarf_tag(&c) == DW_TAG_formal_parameter)
			n++;
	} while (dwarf_siblingof(&c, &c) == 0);
	return n > 0 ? n - 1 : 0;
}

static int cmp_trace(const void *a, const void *b)
{
	const struct dw_trace *x = a, *y = b;
	int r = strcmp(x->system, y->system);

	return r ? r : strcmp(x->name, y->name);
}

size_t dw_tracepoints(struct elab *e, struct dw_mod *m,
		      const struct dw_trace **out)
{
	const struct dw_func *fs;
	size_t n, i, k = 0, pl = strlen(ITER_PREFIX);
	struct dw_trace *v;

	if (m->traces_done) {
		*out = m->traces;
		return m->ntraces;
	}
	n = dw_functions(e, m, &fs);
	v = arena_alloc(e->a, sizeof(*v) * (n ? n : 1));
	for (i = 0; i < n; i++) {
		const struct dw_func *f = &fs[i];
		const char *sys[16];
		Dwarf_Die cu;
		int ns;

		if (strncmp(f->name, ITER_PREFIX, pl) || (f->flags & (DWF_INLINED |
								   DWF_SYMTAB)))
			continue;
		if (k && !strcmp(v[k - 1].name, f->name + pl))
			continue;	/* one per name */
		if (!dw_die(m, f->cu, &cu))
			continue;
		ns = cu_systems(e, &cu, sys, 16);
		if (!ns)
			continue;	/* DECLARE_TRACE only: no event, no system */
		v[k].name = f->name + pl;
		v[k].system = pick_system(sys, ns, f->file);
		v[k].fn = f;
		v[k].nargs = count_args(m, f);
		k++;
	}
	if (k)
		qsort(v, k, sizeof(*v), cmp_trace);
	m->traces = v;
	m->ntraces = k;
	m->traces_done = true;
	*out = v;
	return k;
}
