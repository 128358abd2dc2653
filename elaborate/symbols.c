// SPDX-License-Identifier: GPL-2.0-or-later
/* symbols.c: name resolution: locals of each probe and function body,
 * globals, functions by name and arity, with the tapset library searched on
 * demand; the structural rules of pass 2 (lvalues, arrays are global,
 * $value only in procfs probes, break/continue inside loops, ...). */
#include "elaborate/elab.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "session.h"
#include "elaborate/dwarf.h"
#include "elaborate/probe_match.h"
#include "parse/ast_walk.h"
#include "util/arena.h"
#include "util/diag.h"
#include "util/intern.h"
#include "util/similar.h"
#include "util/source.h"

struct scope {
	struct ptrvec *locals;		/* struct elab_var * */
	struct elab_func *fn;		/* NULL in probes */
	struct elab_probe *probe;	/* NULL in functions */
	int loops;			/* enclosing loops */
	bool cond;			/* a probe condition: globals only */
};

static void err(struct elab *e, const struct expr *x, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void err(struct elab *e, const struct expr *x, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	diag_report(e->d, DIAG_SEMANTIC_ERROR, &x->loc, elab_token(e, x), "%s", msg);
}

/* ---- lookups ---- */

static bool visible(const struct source *owner, bool private_,
		    const struct source *from)
{
	return !private_ || owner == from;
}

static struct elab_var *find_global(struct elab *e, const char *name,
				    const struct source *file)
{
	struct ptrvec *v = ptrmap_get(&e->globals, name);
	size_t i;

	for (i = 0; v && i < v->n; i++) {
		struct elab_var *g = v->v[i];

		if (visible(g->file, g->decl && g->decl->private_, file))
			return g;
	}
	return NULL;
}

struct elab_var *sym_global(struct elab *e, const char *name,
			    const struct source *file)
{
	struct elab_var *g = find_global(e, name, file);

	if (!g && tapset_include_global(e, name))
		g = find_global(e, name, file);
	return g;
}

static struct elab_func *find_func(struct elab *e, const char *name, int arity,
				   const struct source *file, bool *other_arity)
{
	struct ptrvec *v = ptrmap_get(&e->funcs, name);
	size_t i;

	for (i = 0; v && i < v->n; i++) {
		struct elab_func *f = v->v[i];

		if (!visible(f->file, f->decl->private_, file))
			continue;
		if (f->arity == arity)
			return f;
		if (other_arity)
			*other_arity = true;
	}
	return NULL;
}

struct elab_func *sym_func(struct elab *e, const char *name, int arity,
			   const struct source *file)
{
	struct elab_func *f = find_func(e, name, arity, file, NULL);

	if (!f && tapset_include_function(e, name))
		f = find_func(e, name, arity, file, NULL);
	return f;
}

static struct elab_var *new_local(struct elab *e, struct scope *sc,
				  const char *name, const struct expr *x)
{
	struct elab_var *v = arena_new_obj(e->a, struct elab_var);

	v->name = name;
	v->scope = VAR_LOCAL;
	v->arity = 0;
	v->hist = -1;
	v->loc = x->loc;
	v->file = x->loc.src;
	vec_push(e->a, sc->locals, v);
	return v;
}

static struct elab_var *find_local(struct scope *sc, const char *name)
{
	size_t i;

	for (i = 0; i < sc->locals->n; i++) {
		struct elab_var *v = sc->locals->v[i];

		if (v->name == name)
			return v;
	}
	return NULL;
}

/* ---- the walk ---- */

static void res_expr(struct elab *e, struct scope *sc, struct expr *x);
static void res_target(struct elab *e, struct scope *sc, struct expr *x,
		       bool write);
static void res_stmt(struct elab *e, struct scope *sc, struct stmt *s);

static void res_list(struct elab *e, struct scope *sc, struct ptrvec *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		res_expr(e, sc, l->v[i]);
}

/* An index list: '*' allowed when @wild. */
static void res_keys(struct elab *e, struct scope *sc, struct ptrvec *l,
		     bool wild)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		struct expr *k = l->v[i];

		if (k->kind == EXPR_WILDCARD && wild)
			continue;
		res_expr(e, sc, k);
	}
}

/* A scalar name: local, else a visible global, else a new local. */
static struct elab_var *res_scalar(struct elab *e, struct scope *sc,
				   struct expr *x)
{
	struct elab_var *v = find_local(sc, x->name);

	if (!v)
		v = sym_global(e, x->name, x->loc.src);
	if (!v && sc->cond) {
		err(e, x, "probe condition must not reference undeclared global");
		return NULL;
	}
	if (!v)
		v = new_local(e, sc, x->name, x);
	ptrmap_put(e->a, &e->var_of, x, v);
	return v;
}

/* The array named by @x (an EXPR_SYMBOL) with @arity indexes. */
static struct elab_var *res_array(struct elab *e, struct scope *sc,
				  struct expr *x, int arity)
{
	struct elab_var *v;

	(void)sc;	/* a local of the same name does not hide a global array */

	v = sym_global(e, x->name, x->loc.src);
	if (!v) {
		err(e, x, "unresolved arity-%d global array %s, missing global declaration?",
		    arity, x->name);
		return NULL;
	}
	ptrmap_put(e->a, &e->var_of, x, v);
	return v;
}

/* The base of an index, `in`, foreach or delete: a global array, or a
 * histogram of a statistic. */
static void res_array_base(struct elab *e, struct scope *sc, struct expr *b,
			   int arity)
{
	if (b->kind == EXPR_SYMBOL)
		res_array(e, sc, b, arity);
	else if (b->kind == EXPR_HIST)
		res_expr(e, sc, b);
	else
		err(e, b, "expected an array");
}

static bool is_lvalue(const struct expr *x)
{
	if (x->kind == EXPR_SYMBOL || x->kind == EXPR_TARGET)
		return true;
	return x->kind == EXPR_INDEX && x->index.base->kind == EXPR_SYMBOL;
}

static void mark_written(struct elab *e, struct expr *x)
{
	struct expr *base = x->kind == EXPR_INDEX ? x->index.base : x;
	struct elab_var *v = ptrmap_get(&e->var_of, base);

	if (v)
		v->written = true;
}

static void res_lvalue(struct elab *e, struct scope *sc, struct expr *x,
		       const char *what)
{
	if (!is_lvalue(x)) {
		err(e, x, "Expecting lvalue for %s", what);
		res_expr(e, sc, x);
		return;
	}
	if (x->kind == EXPR_SYMBOL) {
		if (sc->cond) {
			err(e, x, "probe condition cannot change a variable");
			return;
		}
		res_scalar(e, sc, x);
	} else if (x->kind == EXPR_INDEX) {
		res_array(e, sc, x->index.base, (int)x->index.idx.n);
		res_keys(e, sc, &x->index.idx, false);
	} else {
		res_target(e, sc, x, true);
	}
	mark_written(e, x);
}

static void res_call(struct elab *e, struct scope *sc, struct expr *x);

/* Is @c an @defined(...) test (possibly negated), which pass 2 folds to a
 * constant? */
static bool defined_test(const struct expr *c)
{
	while (c && c->kind == EXPR_UNARY && c->un.op == OP_NOT)
		c = c->un.e;
	return c && c->kind == EXPR_DEFINED;
}

/* The value of such a test once resolved (the @defined became 0 or 1). */
static bool defined_value(const struct expr *c)
{
	bool neg = false;

	while (c->kind == EXPR_UNARY && c->un.op == OP_NOT) {
		neg = !neg;
		c = c->un.e;
	}
	return (c->kind == EXPR_NUMBER && c->num) != neg;
}

/* The DWARF site of the probe being resolved (a DWARF point's body is
 * its own), or NULL. */
static const struct dw_site *probe_site(const struct scope *sc)
{
	const struct elab_point *pt;

	if (!sc->probe || sc->probe->points.n != 1)
		return NULL;
	pt = sc->probe->points.v[0];
	return pt->site;
}

/* Can target expression @x be read at the probe's site? */
static bool target_defined(struct elab *e, const struct scope *sc,
			   const struct expr *x)
{
	const char *why;
	int nidx;
	bool str;

	return probe_site(sc) &&
	       dw_target_code(e, probe_site(sc), x, false, &nidx, &str, &why);
}

/* A new embedded-C function @name (in a library file of its own, so
 * embedded C is allowed) with body @code, return type @ret and the @np
 * long parameters @params. */
static struct decl *synth_decl(struct elab *e, const char *name, const char *code,
			       enum stap_type ret, const char *const *params, int np,
			       enum stap_type ptype, struct srcloc loc)
{
	struct ast_file *f = arena_new_obj(e->a, struct ast_file);
	struct decl *d = arena_new_obj(e->a, struct decl);
	struct source *src = source_from_mem(e->a, "<dwarf>", "", 0);
	int i;

	src->library = true;
	f->src = src;
	d->kind = DECL_FUNCTION;
	d->loc = loc;
	d->func.name = intern(e->in, name);
	d->func.ret = ret;
	d->func.code = code;
	for (i = 0; i < np; i++) {
		struct param *p = arena_new_obj(e->a, struct param);

		p->name = intern(e->in, params[i]);
		p->type = ptype;
		p->loc = loc;
		vec_push(e->a, &d->func.params, p);
	}
	vec_push(e->a, &f->decls, d);
	elab_include_file(e, f);
	return d;
}

/* The function a synthesized declaration @d added. */
static struct elab_func *func_of_decl(struct elab *e, const struct decl *d)
{
	const struct ptrvec *v = ptrmap_get(&e->funcs, d->func.name);
	size_t i;

	for (i = 0; v && i < v->n; i++)
		if (((const struct elab_func *)v->v[i])->decl == d)
			return v->v[i];
	return NULL;
}

/* Replace @x by a call of a new embedded-C function with body @code:
 * its arguments are @first (if any), the non-literal indexes of @path,
 * then @value (if any). */
static void synth_call(struct elab *e, struct scope *sc, struct expr *x,
		       const struct target_path *path, const char *code,
		       int nidx, bool str, struct expr *first, struct expr *value,
		       const char *what_name)
{
	struct ptrvec args = { 0 };
	struct srcloc loc = x->loc;
	const char **params = arena_alloc(e->a, sizeof(*params) * (size_t)(nidx + 2));
	const char *name = arena_printf(e->a, "_dwarf_%s_%u", what_name, e->tvar_seq++);
	int i, np = 0;
	size_t k;

	if (first)
		params[np++] = "pointer";
	for (i = 0; i < nidx; i++)
		params[np++] = arena_printf(e->a, "i%d", i);
	if (value)
		params[np++] = "value";
	synth_decl(e, name, arena_printf(e->a, "\t/* %s */\n%s", elab_token(e, x), code),
		   str ? TYPE_STRING : TYPE_LONG, params, np, TYPE_LONG, loc);
	if (first)
		vec_push(e->a, &args, first);
	for (k = 0; k < path->comps.n; k++) {
		const struct target_comp *tc = path->comps.v[k];

		if (tc->is_index && tc->index->kind != EXPR_NUMBER)
			vec_push(e->a, &args, tc->index);
	}
	if (value)
		vec_push(e->a, &args, value);
	x->kind = EXPR_CALL;
	x->loc = loc;
	x->call.name = intern(e->in, name);
	x->call.args = args;
	res_call(e, sc, x);
}

/* Does @path index an array by something other than a literal? */
static bool variable_index(const struct target_path *path)
{
	size_t k;

	for (k = 0; k < path->comps.n; k++) {
		const struct target_comp *tc = path->comps.v[k];

		if (tc->is_index && tc->index->kind != EXPR_NUMBER)
			return true;
	}
	return false;
}

static void entry_expr(struct elab *e, struct scope *sc, struct expr *x);

/* Rewrite target expression @x (or, for a write, the assignment @x whose
 * left side it is; for @entry, the @entry) into a synthesized call. */
static void dwarf_call(struct elab *e, struct scope *sc, struct expr *x,
		       bool write, bool entry)
{
	struct expr *t = write ? x->bin.l : entry ? x->operand : x;
	const char *why = NULL, *code;
	bool str;
	int nidx;

	if (write && (x->kind != EXPR_ASSIGN || x->bin.op != OP_ASSIGN)) {
		err(e, t, "only plain assignment ('=') can write a target variable");
		return;
	}
	if (write && !(sc->fn ? sc->fn->file : sc->probe->file)->library && !e->sess->guru) {
		err(e, t, "write to target variable not permitted; need stap -g");
		return;
	}
	if ((entry || (probe_site(sc)->is_return && !write)) &&
	    strcmp(t->target.name, "$return") && strcmp(t->target.name, "$$return") &&
	    !sc->fn && variable_index(&t->target.path)) {
		/* $a[i] at entry: i too is read at entry, by the entry
		 * handler's probe body (as @entry(EXPR) of any expression) */
		if (!entry) {
			struct expr *copy = arena_new_obj(e->a, struct expr);

			*copy = *x;
			x->kind = EXPR_ENTRY;
			x->operand = copy;
		}
		entry_expr(e, sc, x);
		return;
	}
	if (entry || (probe_site(sc)->is_return && !write &&
		      strcmp(t->target.name, "$return") &&
		      strcmp(t->target.name, "$$return"))) {
		/* parameters in a .return probe are their values at entry */
		code = dw_entry_capture(e, (struct dw_site *)probe_site(sc), t, &str, &why);
		nidx = 0;
	} else {
		code = dw_target_code(e, probe_site(sc), t, write, &nidx, &str, &why);
	}
	if (!code) {
		err(e, t, "%s", why);
		return;
	}
	synth_call(e, sc, x, &t->target.path, code, nidx, str, NULL,
		   write ? x->bin.r : NULL,
		   arena_printf(e->a, "tvar_%s_%s", write ? "set" : "get",
				t->target.name + strspn(t->target.name, "$")));
}

static const struct pm_family entry_family = {
	.name = "entry", .per_point = true,
};

/* @entry(EXPR) of a script expression in a .return probe: EXPR is
 * evaluated by a probe body run at the function's entry (a point of
 * family "entry", which the kretprobe's entry handler runs) and stored in
 * a slot of the kretprobe instance; here it becomes a read of that slot.
 * The setter's argument and the getter's result have EXPR's type, known
 * only after type inference: sym_finish_entries() writes their bodies. */
static void entry_expr(struct elab *e, struct scope *sc, struct expr *x)
{
	struct dw_site *s = (struct dw_site *)probe_site(sc);
	struct entry_fixup *fx;
	const char *set, *get;
	struct ptrvec args = { 0 };
	struct elab_func *sf, *gf;
	struct expr *call;

	if (sc->fn) {
		/* the entry handler runs the probe's code, not the function's */
		err(e, x, "@entry of an expression is only valid in the .return probe "
			  "itself (in a function: @entry($var), or pass the value)");
		return;
	}
	fx = arena_new_obj(e->a, struct entry_fixup);
	set = arena_printf(e->a, "_dwarf_entry_set_%u", e->tvar_seq++);
	get = arena_printf(e->a, "_dwarf_entry_get_%u", e->tvar_seq++);
	fx->site = s;
	fx->set = synth_decl(e, set, NULL, TYPE_UNKNOWN, (const char *const[]){ "value" }, 1,
			     TYPE_UNKNOWN, x->loc);
	fx->get = synth_decl(e, get, NULL, TYPE_UNKNOWN, NULL, 0, TYPE_UNKNOWN, x->loc);
	sf = func_of_decl(e, fx->set);
	gf = func_of_decl(e, fx->get);
	if (sf && gf)
		gf->ret_as = sf->params[0];
	fx->value = sf ? sf->params[0] : NULL;
	vec_push(e->a, &e->entry_fixups, fx);
	if (!s->entry_probe) {
		const struct elab_point *rp = sc->probe->points.v[0];
		struct elab_probe *ep = arena_new_obj(e->a, struct elab_probe);
		struct elab_point *pt = arena_new_obj(e->a, struct elab_point);
		struct dw_site *es = arena_new_obj(e->a, struct dw_site);
		struct ptrvec none = { 0 };

		*es = *s;
		es->is_return = false;
		es->entry_probe = NULL;
		*pt = *rp;
		pt->family = &entry_family;
		pt->site = es;
		pt->name = arena_printf(e->a, "%s (entry)", rp->name);
		ep->decl = sc->probe->decl;
		ep->file = sc->probe->file;
		ep->body = ast_block(e->a, &none, x->loc);
		vec_push(e->a, &ep->points, pt);
		vec_push(e->a, &e->probes, ep);	/* resolved after this one */
		s->entry_probe = ep;
	}
	vec_push(e->a, &args, ast_clone_expr(e->a, x->operand));
	call = ast_expr(e->a, EXPR_CALL, x->loc);
	call->call.name = intern(e->in, set);
	call->call.args = args;
	vec_push(e->a, &s->entry_probe->body->stmts, ast_stmt_expr(e->a, STMT_EXPR, call, x->loc));
	x->kind = EXPR_CALL;
	x->call.name = intern(e->in, get);
	x->call.args = (struct ptrvec){ 0 };
	res_call(e, sc, x);
}

void sym_finish_entries(struct elab *e)
{
	size_t i;

	for (i = 0; i < e->entry_fixups.n; i++) {
		struct entry_fixup *fx = e->entry_fixups.v[i];
		/* a value no use gave a type (it is dropped) is a number */
		bool str = fx->value && fx->value->type == TYPE_STRING;
		const char *off = dw_entry_slot(e->a, fx->site, str);

		fx->set->func.code = str ?
			arena_printf(e->a, "\tif (CONTEXT->ri)\n\t\tstp_entry_str("
				     "(char *)((u64 *)CONTEXT->ri->data + %s), STAP_ARG_value);\n", off) :
			arena_printf(e->a, "\tif (CONTEXT->ri)\n\t\t((u64 *)CONTEXT->ri->data)[%s]"
				     " = (u64)STAP_ARG_value;\n", off);
		fx->get->func.code = arena_printf(e->a,
			"\tif (!CONTEXT->ri)\n\t\tSTAP_ERROR(\"no entry values in this context\");\n"
			"\tSTAP_RETURN(%s((u64 *)CONTEXT->ri->data + %s));\n",
			str ? "(const char *)" : "(s64)*", off);
	}
}

/* The module a @cast or @var names ("kernel", "kernel<linux/sched.h>", a
 * module name, a program path; several separated by ':', the first that
 * opens wins), or the probe's own, or the kernel. */
static struct dw_mod *named_module(struct elab *e, const struct scope *sc,
				   const char *spec, const char **why)
{
	char *copy, *tok, *save = NULL;
	struct dw_mod *m = NULL;

	if (!spec || !*spec) {
		if (probe_site(sc))
			return probe_site(sc)->mod;
		return dw_open(e, DW_KERNEL, NULL, why);
	}
	copy = arena_strndup(e->a, spec, strlen(spec));
	for (tok = strtok_r(copy, ":", &save); tok && !m; tok = strtok_r(NULL, ":", &save)) {
		if (!strncmp(tok, "kernel", 6) && (!tok[6] || tok[6] == '<'))
			m = dw_open(e, DW_KERNEL, NULL, why);
		else if (strchr(tok, '/'))
			m = dw_open(e, DW_USER, tok, why);
		else
			m = dw_open(e, DW_KMODULE, tok, why);
	}
	return m;
}

static void res_cast(struct elab *e, struct scope *sc, struct expr *x)
{
	const char *why = NULL, *code;
	struct dw_mod *m;
	bool str;
	int nidx;

	res_expr(e, sc, x->cast.operand);
	m = named_module(e, sc, x->cast.module, &why);
	if (!m) {
		err(e, x, "type definition '%s' not found in '%s': %s", x->cast.type,
		    x->cast.module ? x->cast.module : "kernel", why);
		return;
	}
	code = dw_cast_code(e, m, x->cast.type, &x->cast.path, false, &nidx, &str, &why);
	if (!code) {
		err(e, x, "%s", why);
		return;
	}
	synth_call(e, sc, x, &x->cast.path, code, nidx, str, x->cast.operand, NULL,
		   "cast_get");
}

static void res_atvar(struct elab *e, struct scope *sc, struct expr *x)
{
	const char *why = NULL, *code, *at = strchr(x->atvar.name, '@');
	const char *name = at ? arena_strndup(e->a, x->atvar.name,
					      (size_t)(at - x->atvar.name)) : x->atvar.name;
	struct dw_mod *m = named_module(e, sc, x->atvar.module, &why);
	bool str;
	int nidx;

	if (!m) {
		err(e, x, "unable to find global '%s': %s", name, why);
		return;
	}
	code = dw_var_code(e, m, name, at ? at + 1 : NULL, &x->atvar.path, false,
			   &nidx, &str, &why);
	if (!code) {
		err(e, x, "%s", why);
		return;
	}
	synth_call(e, sc, x, &x->atvar.path, code, nidx, str, NULL, NULL,
		   arena_printf(e->a, "tvar_get_%s", name));
}

static void res_target(struct elab *e, struct scope *sc, struct expr *x,
		       bool write)
{
	if (sc->probe && sc->probe->procfs && !strcmp(x->target.name, "$value")) {
		if (x->target.path.comps.n || x->target.path.pretty ||
		    x->target.path.addr_of)
			err(e, x, "procfs variable '$value' is a string; it has "
				  "no members");
		else if (write && sc->probe->procfs_write)
			err(e, x, "procfs $value variable is read-only in a "
				  "procfs write probe");
		else if (!write && !sc->probe->procfs_write)
			err(e, x, "procfs $value variable cannot be read in a "
				  "procfs read probe");
		return;
	}
	if (!strcmp(x->target.name, "$value") && !probe_site(sc)) {
		err(e, x, "unresolved target-symbol expression ($value exists "
			  "only in procfs probes)");
		return;
	}
	if (probe_site(sc) && probe_site(sc)->plt_name && !strcmp(x->target.name, "$$name")) {
		/* a .plt probe's function */
		const char *n = probe_site(sc)->plt_name;

		if (write || x->target.path.comps.n || x->target.path.addr_of) {
			err(e, x, "$$name is the name of the .plt probe's function: a string");
			return;
		}
		x->kind = EXPR_STRING;
		x->str.s = n;
		x->str.len = strlen(n);
		return;
	}
	if (!probe_site(sc)) {
		if (sc->fn)
			err(e, x, "unresolved target-symbol expression: a function reads "
				  "target variables only when called from a probe with "
				  "debuginfo context (kernel.function, .statement, "
				  "kernel.trace, ...)");
		else
			err(e, x, "unresolved target-symbol expression (probes of this "
				  "kind have no debuginfo context)");
		return;
	}
	dwarf_call(e, sc, x, write, false);
}

/* @f and the other overloads of its name and arity are needed. */
static void mark_used(struct elab *e, struct elab_func *f)
{
	struct ptrvec *v = ptrmap_get(&e->funcs, f->name);
	size_t i;

	for (i = 0; v && i < v->n; i++) {
		struct elab_func *o = v->v[i];

		if ((o == f || o->first == f || (f->first && o == f->first)) &&
		    !o->used) {
			o->used = true;
			vec_push(e->a, &e->pending, o);
		}
	}
}

/* " (similar: ...)" among the session's and the library's functions. */
static const char *similar_function(struct elab *e, const char *name)
{
	struct ptrvec names = { 0 };

	ptrmap_keys(e->a, &e->funcs, &names);
	tapset_function_names(e, &names);
	return similar_names(e->a, name, (const char *const *)names.v, names.n);
}

/* ---- $var in functions: a clone per probe ----
 *
 * A function whose body, or the body of a function it calls, reads
 * target variables ($var, @entry($var), @defined($var)) is resolved in the
 * DWARF context of the probe that calls it: each such probe gets a clone
 * of it (and of the callees that need one), as the reference does. */

struct site_walk {
	struct ast_visitor v;
	struct elab *e;
	const struct source *src;	/* the walked function's file */
	bool direct;			/* a target expression seen */
	struct ptrvec *callees;		/* struct elab_func * */
};

static bool site_expr(struct ast_visitor *v, struct expr *x)
{
	struct site_walk *w = (struct site_walk *)v;
	struct elab_func *g;

	if (x->kind == EXPR_TARGET || x->kind == EXPR_ENTRY ||
	    (x->kind == EXPR_DEFINED && x->operand->kind == EXPR_TARGET))
		w->direct = true;
	if (x->kind == EXPR_CALL) {
		g = sym_func(w->e, x->call.name, (int)x->call.args.n, w->src);
		if (g)
			vec_push(w->e->a, w->callees, g);
	}
	return !w->direct;
}

/* Does @f, or any function it calls (transitively), read target
 * variables? */
static bool needs_site(struct elab *e, struct elab_func *f)
{
	struct ptrvec todo = { 0 };
	struct ptrmap seen = { 0 };
	bool need = false;

	if (ptrmap_get(&e->fn_site_known, f))
		return ptrmap_get(&e->fn_need_site, f) != NULL;
	vec_push(e->a, &todo, f);
	ptrmap_put(e->a, &seen, f, f);
	while (todo.n && !need) {
		struct elab_func *g = todo.v[--todo.n];
		struct ptrvec callees = { 0 };
		struct site_walk w = { .v.expr = site_expr, .e = e, .src = g->file,
				       .callees = &callees };
		size_t i;

		ast_walk_stmt(&w.v, g->decl->func.body);
		need = w.direct;
		for (i = 0; i < callees.n; i++)
			if (!ptrmap_get(&seen, callees.v[i])) {
				ptrmap_put(e->a, &seen, callees.v[i], callees.v[i]);
				vec_push(e->a, &todo, callees.v[i]);
			}
	}
	ptrmap_put(e->a, &e->fn_site_known, f, f);
	if (need)
		ptrmap_put(e->a, &e->fn_need_site, f, f);
	return need;
}

/* @f's clone for the probe of @sc, made on first use (a recursive call in
 * the clone finds the clone itself). Overloads of @f (the first of its
 * name and arity) are cloned with it, under one new name, in order. */
static struct elab_func *site_clone(struct elab *e, struct scope *sc, struct elab_func *f)
{
	const struct ptrvec *v = ptrmap_get(&e->funcs, f->name);
	const char *key = intern(e->in, arena_printf(e->a, "%p/%p", (void *)sc->probe,
						     (void *)f));
	struct elab_func *c = ptrmap_get(&e->fn_clones, key);
	const char *name;
	struct decl *first = NULL;
	size_t i;

	if (c)
		return c;
	name = intern(e->in, arena_printf(e->a, "__clone_%u_of_%s", e->tvar_seq++, f->name));
	for (i = 0; v && i < v->n; i++) {
		struct elab_func *o = v->v[i];
		struct ast_file *file;
		struct decl *d;

		if (o != f && o->first != f)
			continue;
		d = arena_new_obj(e->a, struct decl);
		*d = *o->decl;
		d->func.name = name;
		d->func.body = ast_clone_stmt(e->a, o->decl->func.body);
		file = arena_new_obj(e->a, struct ast_file);
		file->src = o->file;
		vec_push(e->a, &file->decls, d);
		elab_include_file(e, file);
		if (o == f)
			first = d;
		c = func_of_decl(e, d);
		if (c)
			c->site = sc->probe;
	}
	c = first ? func_of_decl(e, first) : NULL;
	if (c)
		ptrmap_put(e->a, &e->fn_clones, key, c);
	return c;
}

static void res_call(struct elab *e, struct scope *sc, struct expr *x)
{
	int arity = (int)x->call.args.n;
	bool other = false;
	struct elab_func *f;

	res_list(e, sc, &x->call.args);
	if (sc->cond) {
		err(e, x, "probe condition must not reference function");
		return;
	}
	f = sym_func(e, x->call.name, arity, x->loc.src);
	if (!f) {
		find_func(e, x->call.name, arity, x->loc.src, &other);
		if (other)
			err(e, x, "unresolved function call: no function '%s' "
				  "takes %d argument%s", x->call.name, arity,
			    arity == 1 ? "" : "s");
		else
			err(e, x, "unresolved function %s%s", x->call.name,
			    similar_function(e, x->call.name));
		return;
	}
	if (probe_site(sc) && needs_site(e, f)) {
		f = site_clone(e, sc, f);
		if (!f)
			return;
		x->call.name = f->name;
	}
	ptrmap_put(e->a, &e->func_of, x, f);
	mark_used(e, f);
}

static void res_expr(struct elab *e, struct scope *sc, struct expr *x)
{
	if (!x)
		return;
	switch (x->kind) {
	case EXPR_NUMBER:
	case EXPR_STRING:
	case EXPR_EMBEDDED:
		break;
	case EXPR_SYMBOL: {
		struct elab_var *v = res_scalar(e, sc, x);

		if (v)
			v->read = true;
		break;
	}
	case EXPR_WILDCARD:
		err(e, x, "wildcard not allowed in array index (only in "
			  "'in', 'delete' and 'foreach')");
		break;
	case EXPR_INDEX:
		if (x->index.base->kind == EXPR_SYMBOL) {
			struct elab_var *v = res_array(e, sc, x->index.base,
						       (int)x->index.idx.n);

			if (v)
				v->read = true;
		} else {
			res_expr(e, sc, x->index.base);
		}
		res_keys(e, sc, &x->index.idx, false);
		break;
	case EXPR_CALL:
		res_call(e, sc, x);
		break;
	case EXPR_PRINT:
		res_expr(e, sc, x->print.fmt);
		res_list(e, sc, &x->print.args);
		break;
	case EXPR_BINARY:
		res_expr(e, sc, x->bin.l);
		res_expr(e, sc, x->bin.r);
		break;
	case EXPR_ASSIGN:
		if (x->bin.l->kind == EXPR_TARGET && probe_site(sc)) {
			dwarf_call(e, sc, x, true, false);
			break;
		}
		res_expr(e, sc, x->bin.r);
		if (x->bin.op != OP_ASSIGN && is_lvalue(x->bin.l) &&
		    x->bin.op != OP_STATS_ADD && x->bin.l->kind != EXPR_TARGET)
			res_expr(e, sc, x->bin.l);	/* read, then written */
		res_lvalue(e, sc, x->bin.l,
			   x->bin.op == OP_STATS_ADD ? "'<<<'" : "assignment");
		break;
	case EXPR_UNARY:
		if (x->un.op == OP_ADDR) {
			err(e, x, "'&' applies only to $target variables and "
				  "@cast/@var expressions");
			break;
		}
		res_expr(e, sc, x->un.e);
		break;
	case EXPR_CREMENT:
		if (is_lvalue(x->un.e))
			res_expr(e, sc, x->un.e);
		res_lvalue(e, sc, x->un.e, "'++'/'--'");
		break;
	case EXPR_TERNARY:
		if (defined_test(x->tern.c)) {
			/* @defined(...) ? A : B: only the chosen one is resolved,
			 * so B may name what does not exist here */
			struct expr *keep;

			res_expr(e, sc, x->tern.c);
			keep = defined_value(x->tern.c) ? x->tern.t : x->tern.f;
			*x = *keep;	/* side tables are keyed by node: resolve x */
			res_expr(e, sc, x);
			break;
		}
		res_expr(e, sc, x->tern.c);
		res_expr(e, sc, x->tern.t);
		res_expr(e, sc, x->tern.f);
		break;
	case EXPR_IN: {
		struct elab_var *v;

		res_keys(e, sc, &x->in.idx, true);
		res_array_base(e, sc, x->in.array, (int)x->in.idx.n);
		/* a membership test reads the array (no automatic display) */
		v = ptrmap_get(&e->var_of, x->in.array);
		if (v)
			v->read = true;
		break;
	}
	case EXPR_TARGET:
		res_target(e, sc, x, false);
		break;
	case EXPR_ENTRY:
		if (!probe_site(sc) || !probe_site(sc)->is_return) {
			err(e, x, "@entry is only valid in .return probes");
			break;
		}
		if (x->operand->kind != EXPR_TARGET) {
			entry_expr(e, sc, x);
			break;
		}
		dwarf_call(e, sc, x, false, true);
		break;
	case EXPR_CAST:
		res_cast(e, sc, x);
		break;
	case EXPR_ATVAR:
		res_atvar(e, sc, x);
		break;
	case EXPR_DEREF:
		err(e, x, "'->' on a value that is not a target variable is not "
			  "supported yet");
		break;
	case EXPR_DEFINED: {
		/* Only procfs' $value exists without debuginfo. */
		const struct expr *o = x->operand;
		bool def = o->kind == EXPR_TARGET && sc->probe && sc->probe->procfs &&
			   !strcmp(o->target.name, "$value") && !o->target.path.comps.n;

		if (o->kind == EXPR_TARGET && !def)
			def = target_defined(e, sc, o);

		x->kind = EXPR_NUMBER;
		x->num = def;
		break;
	}
	case EXPR_PROBEWRITE: {
		struct elab_var *v = find_local(sc, x->name);

		if (!v)
			err(e, x, "@probewrite of '%s', which is not a local of "
				  "this probe", x->name);
		else
			ptrmap_put(e->a, &e->var_of, x, v);
		break;
	}
	case EXPR_STAT:
		if (x->stat.args.n) {
			struct expr *o = x->stat.args.v[0];

			if (o->kind == EXPR_SYMBOL) {
				struct elab_var *v = res_scalar(e, sc, o);

				if (v)
					v->read = true;
			} else {
				res_expr(e, sc, o);
			}
		}
		{
			size_t i;

			for (i = 1; i < x->stat.args.n; i++)
				res_expr(e, sc, x->stat.args.v[i]);
		}
		break;
	case EXPR_HIST:
		if (x->hist.operand->kind == EXPR_SYMBOL) {
			struct elab_var *v = res_scalar(e, sc, x->hist.operand);

			if (v)
				v->read = true;
		} else {
			res_expr(e, sc, x->hist.operand);
		}
		res_list(e, sc, &x->hist.params);
		{
			size_t i;

			for (i = 0; i < x->hist.params.n; i++)
				if (((struct expr *)x->hist.params.v[i])->kind !=
				    EXPR_NUMBER)
					err(e, x->hist.params.v[i],
					    "@hist_linear bounds and bucket width "
					    "must be number literals");
		}
		break;
	case EXPR_ATOP:
		res_list(e, sc, &x->atop.args);
		break;
	}
}

static void res_stmt(struct elab *e, struct scope *sc, struct stmt *s)
{
	size_t i;

	if (!s)
		return;
	switch (s->kind) {
	case STMT_BLOCK:
		for (i = 0; i < s->stmts.n; i++)
			res_stmt(e, sc, s->stmts.v[i]);
		break;
	case STMT_NULL:
		break;
	case STMT_NEXT:
		if (sc->fn)
			sc->fn->has_next = true;
		break;
	case STMT_BREAK:
	case STMT_CONTINUE:
		if (!sc->loops)
			diag_report(e->d, DIAG_SEMANTIC_ERROR, &s->loc,
				    s->kind == STMT_BREAK ? "keyword 'break'"
							  : "keyword 'continue'",
				    "%s outside a loop",
				    s->kind == STMT_BREAK ? "break" : "continue");
		break;
	case STMT_EXPR:
		res_expr(e, sc, s->expr);
		break;
	case STMT_RETURN:
		if (!sc->fn)
			diag_report(e->d, DIAG_SEMANTIC_ERROR, &s->loc,
				    "keyword 'return'",
				    "return is only allowed in functions");
		res_expr(e, sc, s->expr);
		break;
	case STMT_DELETE: {
		struct expr *x = s->expr;

		if (x->kind == EXPR_SYMBOL) {
			struct elab_var *v = res_scalar(e, sc, x);

			if (v)
				v->deleted = true;
		} else if (x->kind == EXPR_INDEX &&
			   x->index.base->kind == EXPR_SYMBOL) {
			struct elab_var *v = res_array(e, sc, x->index.base,
						       (int)x->index.idx.n);

			res_keys(e, sc, &x->index.idx, true);
			if (v)
				v->deleted = true;
		} else {
			err(e, x, "invalid operand of delete expression (a "
				  "variable, an array or an array element)");
		}
		break;
	}
	case STMT_IF:
		if (defined_test(s->if_.cond)) {
			/* if (@defined(...)): the branch not taken is dropped */
			struct ptrvec none = { 0 };

			res_expr(e, sc, s->if_.cond);
			if (defined_value(s->if_.cond)) {
				s->if_.els = NULL;
				res_stmt(e, sc, s->if_.then);
			} else {
				s->if_.then = ast_block(e->a, &none, s->loc);
				res_stmt(e, sc, s->if_.els);
			}
			break;
		}
		res_expr(e, sc, s->if_.cond);
		res_stmt(e, sc, s->if_.then);
		res_stmt(e, sc, s->if_.els);
		break;
	case STMT_WHILE:
	case STMT_FOR:
		res_expr(e, sc, s->loop.init);
		res_expr(e, sc, s->loop.cond);
		res_expr(e, sc, s->loop.incr);
		sc->loops++;
		res_stmt(e, sc, s->loop.body);
		sc->loops--;
		break;
	case STMT_FOREACH: {
		struct foreach_stmt *fe = s->fe;
		struct expr *arr = fe->array;

		if (arr->kind == EXPR_INDEX) {
			res_array_base(e, sc, arr->index.base,
				       (int)arr->index.idx.n);
			res_keys(e, sc, &arr->index.idx, true);
		} else {
			res_array_base(e, sc, arr, (int)fe->keys.n);
		}
		if (arr->kind == EXPR_SYMBOL || arr->kind == EXPR_INDEX) {
			struct expr *b = arr->kind == EXPR_INDEX ? arr->index.base : arr;
			struct elab_var *v = ptrmap_get(&e->var_of, b);

			if (v)
				v->read = true;
		}
		for (i = 0; i < fe->keys.n; i++) {
			struct elab_var *v = res_scalar(e, sc, fe->keys.v[i]);

			if (v)
				v->written = true;
		}
		if (fe->value) {
			struct elab_var *v = res_scalar(e, sc, fe->value);

			if (v)
				v->written = true;
		}
		res_expr(e, sc, fe->limit);
		sc->loops++;
		res_stmt(e, sc, fe->body);
		sc->loops--;
		break;
	}
	case STMT_TRY:
		res_stmt(e, sc, s->try_.body);
		if (s->try_.var) {
			struct elab_var *v = res_scalar(e, sc, s->try_.var);

			if (v)
				v->written = true;
		}
		res_stmt(e, sc, s->try_.handler);
		break;
	}
}

void sym_resolve_probe(struct elab *e, struct elab_probe *p)
{
	struct scope sc = { .locals = &p->locals, .probe = p };

	res_stmt(e, &sc, p->body);
}

static void resolve_func(struct elab *e, struct elab_func *f)
{
	struct scope sc = { .locals = &f->locals, .fn = f, .probe = f->site };

	f->resolved = true;
	if (f->decl->func.body)
		res_stmt(e, &sc, f->decl->func.body);
}

void sym_resolve_pending(struct elab *e)
{
	size_t i;

	for (i = 0; i < e->pending.n; i++) {
		struct elab_func *f = e->pending.v[i];

		if (!f->resolved)
			resolve_func(e, f);
	}
}

void sym_resolve_cond(struct elab *e, struct expr *cond)
{
	struct ptrvec none = { 0 };
	struct scope sc = { .locals = &none, .cond = true };

	res_expr(e, &sc, cond);
}
