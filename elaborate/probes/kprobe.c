// SPDX-License-Identifier: GPL-2.0-or-later
/* kprobe.c: the DWARF-less kprobe family: kprobe.function("SYM") with
 * .call, .return and .return.maxactive(N), the same under
 * kprobe.module("MOD"), and kprobe.statement(ADDR).absolute (guru mode).
 * Names and wildcards are resolved against the target kernel's symbol
 * table; functions kprobes refuse are skipped with a message. */
#include "elaborate/probes/points.h"

#include <string.h>

#include "elaborate/ksyms.h"
#include "util/arena.h"
#include "util/diag.h"
#include "util/intern.h"
#include "util/kernel_info.h"

#define KRETPROBE_MAXACTIVE_MAX 4096

static int derive(struct elab *e, struct pm_ctx *c, const struct probe_point *pp);

static const struct pm_family kprobe_family = {
	.name = "kprobe", .derive = derive, .mech = MECH_kprobe,
};

const struct ksyms *pm_kernel_syms(struct elab *e, const char **why)
{
	char err[512] = "";

	if (!e->ksyms_tried) {
		struct ksyms *ks = arena_new_obj(e->a, struct ksyms);

		e->ksyms_tried = true;
		if (ksyms_load(ks, e->a, e->ki->release, e->ki->build_dir,
			       err, sizeof(err)) == 0)
			e->ksyms = ks;
		else
			e->ksyms_error = arena_printf(e->a, "%s", err[0] ? err :
						      "no kernel symbol table found");
	}
	*why = e->ksyms ? "" : e->ksyms_error;
	return e->ksyms;
}

/* A module's table, or why there is none; loaded once per name. */
struct module_syms {
	struct ksyms ks;
	const char *error;
};

const struct ksyms *pm_module_syms(struct elab *e, const char *mod,
				   const char **why)
{
	const char *key = intern(e->in, mod);
	struct module_syms *m = ptrmap_get(&e->mod_ksyms, key);
	char err[512] = "";

	if (!m) {
		m = arena_new_obj(e->a, struct module_syms);
		if (ksyms_load_module(&m->ks, e->a, e->ki->release, mod, err,
				      sizeof(err)) != 0)
			m->error = arena_printf(e->a, "%s", err[0] ? err :
						"module symbol table not found");
		ptrmap_put(e->a, &e->mod_ksyms, key, m);
	}
	*why = m->error;
	return m->error ? NULL : &m->ks;
}

struct expand {
	struct elab *e;
	struct pm_ctx *c;
	const struct probe_point *pp;
	size_t fn_comp;			/* index of the function component */
	bool wild;			/* a glob: a failing point is a warning */
	int emitted;
	int refused;
	const struct ksym *first_refused;
};

static struct elab_point *point_for(struct elab *e, struct pm_ctx *c,
				    const struct probe_point *pp, size_t fn_comp,
				    const char *name)
{
	struct probe_point *np = ast_probe_point(e->a, pp->loc);
	struct pp_component *fc = arena_new_obj(e->a, struct pp_component);
	struct elab_point *pt;
	struct kprobe_point *d;

	*np = *pp;
	memset(&np->comps, 0, sizeof(np->comps));
	vec_append(e->a, &np->comps, &pp->comps);
	*fc = *(const struct pp_component *)pp->comps.v[fn_comp];
	fc->param = ast_string(e->a, name, strlen(name), fc->param->loc);
	np->comps.v[fn_comp] = fc;
	pt = pm_point(e, c, np);
	pt->family = &kprobe_family;
	d = arena_new_obj(e->a, struct kprobe_point);
	d->symbol = name;
	d->ret = pm_has(pp, "return");
	d->maxactive = pm_param_of(pp, "maxactive") ?
		pm_param_of(pp, "maxactive")->num : -1;
	pt->data = d;
	return pt;
}

static int each_sym(const struct ksym *s, void *ctx)
{
	struct expand *x = ctx;
	struct elab_point *pt;

	if (s->refusal) {
		if (!x->refused++)
			x->first_refused = s;
		return 0;
	}
	pt = point_for(x->e, x->c, x->pp, x->fn_comp, s->name);
	kprobe_point(pt)->module = s->module;
	kprobe_point(pt)->wildcard = x->wild;
	pm_emit(x->e, x->c, pt);
	x->emitted++;
	return 0;
}

static int derive(struct elab *e, struct pm_ctx *c, const struct probe_point *pp)
{
	const struct pp_component *c1 = pp->comps.v[1];
	const struct expr *ma = pm_param_of(pp, "maxactive");
	struct expand x = { e, c, pp, 1, false, 0, 0, NULL };
	const struct ksyms *ks;
	const struct expr *fn;
	const char *why, *mod = NULL;
	bool wild;

	if (!strcmp(c1->name, "statement")) {
		struct elab_point *pt;
		struct kprobe_point *d;

		if (!pm_guru(e, c)) {
			pm_error(e, c, &c1->loc, "identifier 'statement'",
				 "absolute statement probe in unprivileged script; need stap -g");
			return -1;
		}
		pt = pm_point(e, c, pp);
		pt->family = &kprobe_family;
		pt->data = d = arena_new_obj(e->a, struct kprobe_point);
		d->addr = (uint64_t)c1->param->num;
		d->maxactive = -1;
		pm_emit(e, c, pt);
		return 1;
	}
	if (ma && (ma->num < 1 || ma->num > KRETPROBE_MAXACTIVE_MAX)) {
		pm_error(e, c, &ma->loc, elab_token(e, ma),
			 "maxactive value out of range (1, %d)",
			 KRETPROBE_MAXACTIVE_MAX);
		return -1;
	}
	if (!strcmp(c1->name, "module")) {
		mod = c1->param->str.s;
		if (strpbrk(mod, "*?[")) {
			pm_error(e, c, &c1->param->loc, elab_token(e, c1->param),
				 "kprobe.module does not take wildcards");
			return -1;
		}
		x.fn_comp = 2;
	}
	fn = ((const struct pp_component *)pp->comps.v[x.fn_comp])->param;
	wild = strpbrk(fn->str.s, "*?[") != NULL;
	x.wild = wild;
	ks = mod ? pm_module_syms(e, mod, &why) : pm_kernel_syms(e, &why);
	if (!ks) {
		if (!wild) {
			/* Without a table the name cannot be checked here; the
			 * kernel checks it when the probe is registered. */
			if (!pm_quiet(e, c))
				diag_report(e->d, DIAG_WARNING, &fn->loc,
					    elab_token(e, fn),
					    "cannot check kprobe function names: %s", why);
			{
				struct ksym *s = arena_new_obj(e->a, struct ksym);

				s->name = fn->str.s;
				s->module = mod;
				each_sym(s, &x);
			}
			return 1;
		}
		pm_error(e, c, &fn->loc, elab_token(e, fn),
			 "cannot resolve wildcard: %s", why);
		return -1;
	}
	ksyms_each_match(ks, fn->str.s, each_sym, &x);
	if (x.emitted && x.refused && !pm_quiet(e, c))
		diag_report(e->d, DIAG_WARNING, &fn->loc, elab_token(e, fn),
			    "skipped %d function%s kprobes refuse, e.g. '%s': %s",
			    x.refused, x.refused == 1 ? "" : "s",
			    x.first_refused->name, x.first_refused->refusal);
	if (x.emitted)
		return x.emitted;
	if (x.refused) {
		pm_error(e, c, &fn->loc, elab_token(e, fn),
			 "cannot probe function '%s': %s%s", x.first_refused->name,
			 x.first_refused->refusal,
			 x.refused > 1 ? arena_printf(e->a, " (and %d more refused)",
						      x.refused - 1) : "");
		return -1;
	}
	pm_error(e, c, &fn->loc, elab_token(e, fn),
		 "no match for %s function '%s' in %s",
		 mod ? mod : "kernel", fn->str.s, ks->origin);
	return -1;
}

void pm_register_kprobe(struct elab *e)
{
	static const char *const tails[] = {
		"", ".call", ".return", ".return.maxactive(n)",
	};
	size_t i;

	for (i = 0; i < sizeof(tails) / sizeof(tails[0]); i++) {
		pm_register(e, arena_printf(e->a, "kprobe.function(s)%s", tails[i]),
			    &kprobe_family);
		pm_register(e, arena_printf(e->a,
					    "kprobe.module(s).function(s)%s",
					    tails[i]), &kprobe_family);
	}
	pm_register(e, "kprobe.statement(n).absolute", &kprobe_family);
}
