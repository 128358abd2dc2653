// SPDX-License-Identifier: GPL-2.0-or-later
/* dwarf_trace_vars.c: the tracepoint special cases of target variables, in
 * one place: a kernel.trace probe's variables are the arguments of its
 * __traceiter_NAME(void *__data, ARGS...) function after __data, which
 * the runtime passes in CONTEXT->tp_args[] (runtime/linux/tracepoint.c). */
#include "elaborate/dwarf_vars.h"

#include <string.h>

#include "elaborate/dwarf_emit.h"
#include "util/arena.h"

void dwv_trace_list_args(struct elab *e, Dwarf_Die *fn, struct strbuf *out)
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

bool dwv_trace_locate(struct access *ac, struct scopes *sc, Dwarf_Die *var,
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

bool dwv_trace_hidden(const struct dw_site *s, const char *name)
{
	return s->is_trace && !strcmp(name, "__data");
}

const char *dwv_body_head(const struct dw_site *s)
{
	return s->is_trace ? DWE_HEAD_TRACE : DWE_HEAD_REGS;
}
