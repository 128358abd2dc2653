// SPDX-License-Identifier: GPL-2.0-or-later
/* dwarf_trace_vars.c: the tracepoint special cases of target variables, in
 * one place: a kernel.trace probe's variables are the arguments of its
 * __traceiter_NAME(void *__data, ARGS...) function after __data, which
 * the runtime passes in CONTEXT->tp_args[] (runtime/linux/tracepoint.c).
 * The kernel.trace family gives its sites this kind (dw_trace_site_kind),
 * and the generic code reaches these hooks only through it. */
#include "elaborate/dwarf_vars.h"

#include <string.h>

#include "elaborate/dwarf_emit.h"
#include "util/arena.h"

static void trace_list_vars(struct elab *e, Dwarf_Die *fn, struct strbuf *out)
{
	bool first = true;
	Dwarf_Die c, t;

	if (dwarf_child(fn, &c) != 0)
		return;
	do {
		const char *n = dwv_die_name(&c);

		if (dwarf_tag(&c) != DW_TAG_formal_parameter)
			continue;
		if (!first && n)	/* the arguments after __data */
			sb_addf(out, " $%s:%s", n, dwv_die_type(&c, &t) ?
				dw_type_name(e->a, &t) : "void");
		first = false;
	} while (dwarf_siblingof(&c, &c) == 0);
}

/* Which tracepoint argument @var is (the __traceiter_ function's
 * parameters after void *__data), or -1. */
static int trace_arg_index(struct scopes *sc, Dwarf_Die *var)
{
	Dwarf_Die c;
	int i = -1;

	if (dwarf_child(&sc->v[sc->n - 2], &c) != 0)
		return -1;
	do {
		if (dwarf_tag(&c) != DW_TAG_formal_parameter)
			continue;
		if (dwarf_dieoffset(&c) == dwarf_dieoffset(var))
			return i;
		i++;
	} while (dwarf_siblingof(&c, &c) == 0);
	return -1;
}

static bool trace_locate(struct access *ac, struct scopes *sc, Dwarf_Die *var,
			 const char *name)
{
	int k = trace_arg_index(sc, var);

	if (k < 0) {
		ac->err = arena_printf(ac->e->a, "'%s' is not an argument of "
				       "this tracepoint", name);
		return false;
	}
	sb_addf(&ac->c, DWE_TP_ARG, k);
	ac->kind = DWL_VALUE;
	ac->slot = 0;
	return true;
}

static bool trace_hidden(const char *name)
{
	return !strcmp(name, "__data");
}

static const struct dw_site_kind trace_kind = {
	.list_vars = trace_list_vars,
	.locate = trace_locate,
	.hidden = trace_hidden,
	.body_head = DWE_HEAD_TRACE,
};

const struct dw_site_kind *dw_trace_site_kind(void)
{
	return &trace_kind;
}
