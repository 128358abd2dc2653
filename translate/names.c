// SPDX-License-Identifier: GPL-2.0-or-later
/* names.c: C names of script things: globals g_NAME, locals l->v_NAME in
 * the current frame, functions stp_fn_NAME_N, temporaries and labels.
 * Embedded-C functions keep their parameters' own names in the frame, as
 * their code refers to them (STAP_ARG_x, THIS->x). */
#include "translate/xl.h"
#include "util/arena.h"

const char *xl_global(struct xl *x, const struct elab_var *v)
{
	const char *n = ptrmap_get(&x->names, v);

	if (!n) {
		n = arena_printf(x->a, "g_%s", v->name);
		ptrmap_put(x->a, &x->names, v, (void *)n);
	}
	return n;
}

const char *xl_local(struct xl *x, const struct elab_var *v)
{
	if (x->fn && x->fn->embedded)
		return arena_printf(x->a, "l->%s", v->name);
	return arena_printf(x->a, "l->v_%s", v->name);
}

const char *xl_func_name(struct xl *x, const struct elab_func *f)
{
	const char *n = ptrmap_get(&x->names, f);

	if (!n) {
		n = arena_printf(x->a, "stp_fn%d_%s", x->nfunc++, f->name);
		ptrmap_put(x->a, &x->names, f, (void *)n);
	}
	return n;
}

const char *xl_frame_name_of(struct xl *x, const struct elab_func *f)
{
	return arena_printf(x->a, "%s_frame", xl_func_name(x, f));
}

const char *xl_param_field(struct xl *x, const struct elab_func *f, int i)
{
	const struct elab_var *v = f->params[i];

	return f->decl->func.code ? v->name : arena_printf(x->a, "v_%s", v->name);
}

const char *xl_new_long(struct xl *x)
{
	return arena_printf(x->a, "t%d", x->nlong++);
}

const char *xl_new_str(struct xl *x)
{
	const char *n = arena_printf(x->a, "l->__s%d", x->nstr++);

	if (x->nstr > x->maxstr)
		x->maxstr = x->nstr;
	return n;
}

const char *xl_new_label(struct xl *x, const char *what)
{
	return arena_printf(x->a, "%s%d", what, x->nlabel++);
}
