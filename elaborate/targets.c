// SPDX-License-Identifier: GPL-2.0-or-later
/* targets.c: target expressions ($var, $$vars, @cast, @var, @entry,
 * @defined, $$name) lowered into calls of synthesized embedded-C
 * functions whose bodies read the probe's registers and memory (getters,
 * setters, @entry slots); called from name resolution (targets.h). */
#include "elaborate/targets.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "session.h"
#include "elaborate/dwarf.h"
#include "elaborate/elab.h"
#include "elaborate/probe_match.h"
#include "parse/ast_walk.h"
#include "parse/parse.h"
#include "util/arena.h"
#include "util/intern.h"
#include "util/source.h"

/* Target expression @x does not resolve here: it stays as it is, with
 * the message, and is an error only if it survives optimisation (types.c
 * reports it then), as the reference's: `x = $nosuch` that nothing reads,
 * a branch `if (0)` removes, a library alias's variable a script never
 * reads, do not stop the script. */
static void defer(struct elab *e, const struct expr *x, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void defer(struct elab *e, const struct expr *x, const char *fmt, ...)
{
	struct tgt_error *d = arena_new_obj(e->a, struct tgt_error);
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	d->msg = arena_strndup(e->a, msg, strlen(msg));
	d->loc = x->loc;
	d->tok = elab_token(e, x);
	ptrmap_put(e->a, &e->deferred, x, d);
}

/* The error of @ci, at the step of the path that failed when known
 * ("operator '->'"), else at @x. */
static void defer_code(struct elab *e, const struct expr *x,
		       const struct dw_code_info *ci)
{
	struct tgt_error *d;

	defer(e, x, "%s", ci->err);
	d = ptrmap_get(&e->deferred, x);
	if (ci->err_at) {
		d->loc = ci->err_at->loc;
		d->tok = ci->err_at->is_index ? "operator '['" : "operator '->'";
	}
}

const struct tgt_error *tgt_deferred(struct elab *e, const struct expr *x)
{
	return ptrmap_get(&e->deferred, x);
}

struct dw_site *tgt_site(const struct tgt_ctx *c)
{
	const struct elab_point *pt;

	if (!c->probe || c->probe->points.n != 1)
		return NULL;
	pt = c->probe->points.v[0];
	return pt->site;
}

/* N of "$argN" (1..999), or 0. */
static int sdt_arg_number(const char *name)
{
	int k = 0;
	const char *p;

	if (strncmp(name, "$arg", 4) || !name[4] || name[4] == '0')
		return 0;
	for (p = name + 4; *p; p++) {
		if (*p < '0' || *p > '9' || k > 99)
			return 0;
		k = k * 10 + (*p - '0');
	}
	return k;
}

/* Is @x one of an SDT marker's own variables ($argN, $$name, $$provider,
 * $$parms, $$vars) at site @s? */
static bool sdt_own(const struct dw_site *s, const struct expr *x)
{
	const char *n = x->target.name;

	return s && s->sdt && (sdt_arg_number(n) || !strcmp(n, "$$name") ||
			       !strcmp(n, "$$provider") || !strcmp(n, "$$parms") ||
			       !strcmp(n, "$$vars"));
}

/* Can target expression @x be read at the probe's site? */
static bool target_defined(struct elab *e, const struct tgt_ctx *c,
			   const struct expr *x)
{
	struct dw_code_info ci;

	if (sdt_own(tgt_site(c), x)) {
		int k = sdt_arg_number(x->target.name);
		const char *why;

		return !x->target.path.comps.n && !x->target.path.addr_of &&
		       (!k || dw_sdt_arg_code(e, tgt_site(c), k, &why));
	}
	return tgt_site(c) && dw_target_code(e, tgt_site(c), x, false, &ci);
}

/* An SDT marker's own variable @x (sdt_own): $$name and $$provider become
 * strings, $argN and $$parms calls of getters decoding the marker's
 * operands (dwarf_sdt.c). True when @x was rewritten. */
static bool sdt_var(struct elab *e, const struct tgt_ctx *c, struct expr *x, bool write);

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

struct elab_func *tgt_func_of_decl(struct elab *e, const struct decl *d)
{
	const struct ptrvec *v = ptrmap_get(&e->out.funcs, d->func.name);
	size_t i;

	for (i = 0; v && i < v->n; i++)
		if (((const struct elab_func *)v->v[i])->decl == d)
			return v->v[i];
	return NULL;
}

/* Replace @x by a call of a new embedded-C function with body @code:
 * its arguments are @first (if any), the non-literal indexes of @path,
 * then @value (if any). The call is left for the caller to resolve; the
 * function's declaration is returned. */
static struct decl *synth_call(struct elab *e, struct expr *x, const struct target_path *path,
			       const char *code, const struct dw_code_info *ci,
			       struct expr *first, struct expr *value, const char *what_name)
{
	struct ptrvec args = { 0 };
	struct srcloc loc = x->loc;
	int nidx = ci->nidx;
	const char **params = arena_alloc(e->a, sizeof(*params) * (size_t)(nidx + 2));
	const char *name = arena_printf(e->a, "_dwarf_%s_%u", what_name, e->tvar_seq++);
	struct elab_func *f;
	struct decl *d;
	int i, np = 0;
	size_t k;

	if (first)
		params[np++] = "pointer";
	for (i = 0; i < nidx; i++)
		params[np++] = arena_printf(e->a, "i%d", i);
	if (value)
		params[np++] = "value";
	/* a read has no effect: an unused one is dropped, as the
	 * reference drops it */
	d = synth_decl(e, name, arena_printf(e->a, "\t/* %s */%s\n%s", elab_token(e, x),
					     value ? "" : " /* pure */", code),
		       ci->is_string ? TYPE_STRING : TYPE_LONG, params, np, TYPE_LONG, loc);
	f = tgt_func_of_decl(e, d);
	if (f && !value)
		f->ret_ptype = ci->ptype;	/* t = $file; t->f_flags */
	if (first)
		vec_push(e->a, &args, first);
	for (k = 0; k < path->comps.n; k++) {
		const struct target_comp *tc = path->comps.v[k];

		if (tc->is_index && tc->index->kind != EXPR_NUMBER)
			vec_push(e->a, &args, tc->index);
	}
	if (value)
		vec_push(e->a, &args, value);
	ptrmap_put(e->a, &e->tok_of, x, (void *)elab_token(e, x));
	x->kind = EXPR_CALL;
	x->loc = loc;
	x->call.name = intern(e->in, name);
	x->call.args = args;
	return d;
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

static bool entry_expr(struct elab *e, const struct tgt_ctx *c, struct expr *x);

/* Rewrite target expression @x (or, for a write, the assignment @x whose
 * left side it is; for @entry, the @entry) into a synthesized call: true
 * when it was. */
static bool dwarf_call(struct elab *e, const struct tgt_ctx *c, struct expr *x,
		       bool write, bool entry)
{
	struct expr *t = write ? x->bin.l : entry ? x->operand : x;
	struct entry_capture *cap;
	struct dw_code_info ci;
	const char *code, *name;
	bool capture;

	if (write && (x->kind != EXPR_ASSIGN || x->bin.op != OP_ASSIGN)) {
		sym_error(e, t, "only plain assignment ('=') can write a target variable");
		return false;
	}
	if (write && !(c->fn ? c->fn->file : c->probe->file)->library && !e->sess->guru) {
		sym_error(e, t, "write to target variable not permitted; need stap -g");
		return false;
	}
	if ((entry || (tgt_site(c)->is_return && !write)) &&
	    strcmp(t->target.name, "$return") && strcmp(t->target.name, "$$return") &&
	    !c->fn && variable_index(&t->target.path)) {
		/* $a[i] at entry: i too is read at entry, by the entry
		 * handler's probe body (as @entry(EXPR) of any expression) */
		if (!entry) {
			struct expr *copy = arena_new_obj(e->a, struct expr);

			*copy = *x;
			x->kind = EXPR_ENTRY;
			x->operand = copy;
		}
		return entry_expr(e, c, x);
	}
	/* parameters in a .return probe are their values at entry */
	capture = entry || (tgt_site(c)->is_return && !write &&
			    strcmp(t->target.name, "$return") &&
			    strcmp(t->target.name, "$$return"));
	if (capture)
		code = dw_entry_capture_code(e, tgt_site(c), t, &ci);
	else
		code = dw_target_code(e, tgt_site(c), t, write, &ci);
	if (!code) {
		if (write || entry)	/* a side effect: it stays anyway */
			sym_error(e, t, "%s", ci.err);
		else
			defer_code(e, t, &ci);
		return false;
	}
	name = arena_printf(e->a, "tvar_%s_%s", write ? "set" : "get",
			    t->target.name + strspn(t->target.name, "$"));
	if (!capture) {
		synth_call(e, x, &t->target.path, code, &ci, NULL, write ? x->bin.r : NULL, name);
		return true;
	}
	/* The getter's body, and the capture, are written once the
	 * optimizer has dropped the reads nothing uses (an alias sets
	 * variables its probes need not read), so that only what stays
	 * is captured at entry: tgt_finish_entries(). */
	cap = arena_new_obj(e->a, struct entry_capture);
	cap->site = tgt_site(c);
	cap->code = code;
	cap->str = ci.is_string;
	cap->get = synth_call(e, x, &t->target.path, "", &ci, NULL, NULL, name);
	vec_push(e->a, &e->entry_captures, cap);
	return true;
}

static bool sdt_var(struct elab *e, const struct tgt_ctx *c, struct expr *x, bool write)
{
	const struct dw_site *s = tgt_site(c);
	const struct target_path *p = &x->target.path;
	const char *n = x->target.name, *why = NULL, *code;
	struct dw_code_info ci = { 0 };
	int k = sdt_arg_number(n);

	if (write) {
		sym_error(e, x, "SDT marker variables cannot be written");
		return false;
	}
	if (p->comps.n || p->addr_of || (p->pretty && k)) {
		sym_error(e, x, k ? "SDT marker arguments are numbers (long): reach "
				    "members with @cast(%s, \"TYPE\")" :
				    "%s can only be read, as a whole", n);
		return false;
	}
	if (!strcmp(n, "$$name") || !strcmp(n, "$$provider")) {
		const char *v = n[2] == 'n' ? s->sdt->name : s->sdt->provider;

		x->kind = EXPR_STRING;
		x->str.s = v;
		x->str.len = strlen(v);
		return false;
	}
	code = k ? dw_sdt_arg_code(e, s, k, &why) : dw_sdt_parms_code(e, s, &why);
	if (!code) {
		defer(e, x, "%s", why);	/* an error only if the read stays */
		return false;
	}
	ci.is_string = !k;
	synth_call(e, x, p, code, &ci, NULL, NULL,
		   k ? arena_printf(e->a, "sdt_arg%d", k) : "sdt_parms");
	return true;
}

static const struct pm_family entry_family = {
	.name = "entry", .per_point = true,
};

/* @entry(EXPR) of a script expression in a .return probe: EXPR is
 * evaluated by a probe body run at the function's entry (a point of
 * family "entry", which the kretprobe's entry handler runs) and stored in
 * a slot of the kretprobe instance; here it becomes a read of that slot.
 * The setter's argument and the getter's result have EXPR's type, known
 * only after type inference: tgt_finish_entries() writes their bodies. */
static bool entry_expr(struct elab *e, const struct tgt_ctx *c, struct expr *x)
{
	struct dw_site *s = tgt_site(c);
	struct entry_fixup *fx;
	const char *set, *get;
	struct ptrvec args = { 0 };
	struct elab_func *sf, *gf;
	struct expr *call;

	if (c->fn) {
		/* the entry handler runs the probe's code, not the function's */
		sym_error(e, x, "@entry of an expression is only valid in the .return probe "
				"itself (in a function: @entry($var), or pass the value)");
		return false;
	}
	fx = arena_new_obj(e->a, struct entry_fixup);
	set = arena_printf(e->a, "_dwarf_entry_set_%u", e->tvar_seq++);
	get = arena_printf(e->a, "_dwarf_entry_get_%u", e->tvar_seq++);
	fx->site = s;
	fx->set = synth_decl(e, set, NULL, TYPE_UNKNOWN, (const char *const[]){ "value" }, 1,
			     TYPE_UNKNOWN, x->loc);
	fx->get = synth_decl(e, get, NULL, TYPE_UNKNOWN, NULL, 0, TYPE_UNKNOWN, x->loc);
	sf = tgt_func_of_decl(e, fx->set);
	gf = tgt_func_of_decl(e, fx->get);
	if (sf && gf)
		gf->ret_as = sf->params[0];
	fx->value = sf ? sf->params[0] : NULL;
	vec_push(e->a, &e->entry_fixups, fx);
	if (!s->entry_probe) {
		const struct elab_point *rp = c->probe->points.v[0];
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
		ep->decl = c->probe->decl;
		ep->file = c->probe->file;
		ep->body = ast_block(e->a, &none, x->loc);
		vec_push(e->a, &ep->points, pt);
		vec_push(e->a, &e->out.probes, ep);	/* resolved after this one */
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
	return true;
}

void tgt_finish_entries(struct elab *e)
{
	size_t i, j;

	for (i = 0; i < e->entry_captures.n; i++) {
		struct entry_capture *cap = e->entry_captures.v[i];
		struct elab_func *f = tgt_func_of_decl(e, cap->get);

		if (!f || !f->used)	/* the read was dropped */
			continue;
		/* the same value at the same site is captured once ($file,
		 * read by several of an alias's variables) */
		for (j = 0; j < i; j++) {
			const struct entry_capture *o = e->entry_captures.v[j];

			if (o->off && o->site == cap->site && o->str == cap->str &&
			    !strcmp(o->code, cap->code))
				break;
		}
		cap->off = j < i ? ((const struct entry_capture *)e->entry_captures.v[j])->off :
			   dw_entry_capture_add(e, cap->site, cap->code, cap->str);
		cap->get->func.code = arena_printf(e->a, "%s%s", cap->get->func.code,
						   dw_entry_getter(e->a, cap->off, cap->str));
	}
	for (i = 0; i < e->entry_fixups.n; i++) {
		struct entry_fixup *fx = e->entry_fixups.v[i];
		/* a value no use gave a type (it is dropped) is a number */
		bool str = fx->value && fx->value->type == TYPE_STRING;
		const char *off = dw_entry_slot(e->a, fx->site, str);

		fx->set->func.code = dw_entry_setter(e->a, off, str);
		fx->get->func.code = dw_entry_getter(e->a, off, str);
	}
}

/* The module a @cast or @var names ("kernel", "kernel<linux/sched.h>", a
 * module name, a program path; several separated by ':', the first that
 * opens wins), or the probe's own, or the kernel. */
static struct dw_mod *named_module(struct elab *e, const struct tgt_ctx *c,
				   const char *spec, const char **why)
{
	char *copy, *tok, *save = NULL;
	struct dw_mod *m = NULL;

	if (!spec || !*spec) {
		if (tgt_site(c))
			return tgt_site(c)->mod;
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

bool tgt_cast(struct elab *e, const struct tgt_ctx *c, struct expr *x)
{
	const char *why = NULL, *code;
	struct dw_code_info ci;
	struct dw_mod *m;

	m = named_module(e, c, x->cast.module, &why);
	if (!m) {
		defer(e, x, "type definition '%s' not found in '%s': %s", x->cast.type,
		      x->cast.module ? x->cast.module : "kernel", why);
		return false;
	}
	code = dw_cast_code(e, m, x->cast.type, &x->cast.path, false, &ci);
	if (!code) {
		defer_code(e, x, &ci);
		return false;
	}
	synth_call(e, x, &x->cast.path, code, &ci, x->cast.operand, NULL, "cast_get");
	return true;
}

bool tgt_atvar(struct elab *e, const struct tgt_ctx *c, struct expr *x)
{
	const char *why = NULL, *code, *at = strchr(x->atvar.name, '@');
	const char *name = at ? arena_strndup(e->a, x->atvar.name,
					      (size_t)(at - x->atvar.name)) : x->atvar.name;
	struct dw_mod *m = named_module(e, c, x->atvar.module, &why);
	struct dw_code_info ci;

	if (!m) {
		defer(e, x, "unable to find global '%s': %s", name, why);
		return false;
	}
	code = dw_var_code(e, m, name, at ? at + 1 : NULL, &x->atvar.path, false, &ci);
	if (!code) {
		defer_code(e, x, &ci);
		return false;
	}
	synth_call(e, x, &x->atvar.path, code, &ci, NULL, NULL,
		   arena_printf(e->a, "tvar_get_%s", name));
	return true;
}

bool tgt_autocast(struct elab *e, struct expr *x, const struct dw_ptype *pt)
{
	bool write = x->kind == EXPR_ASSIGN;
	struct expr *d = write ? x->bin.l : x;
	struct dw_code_info ci;
	const char *code = dw_autocast_code(e, pt, &d->deref.path, write, &ci);
	struct elab_func *f;

	if (!code) {
		defer_code(e, d, &ci);
		return false;
	}
	synth_call(e, x, &d->deref.path, code, &ci, d->deref.operand,
		   write ? x->bin.r : NULL, write ? "autocast_set" : "autocast_get");
	f = sym_func(e, x->call.name, (int)x->call.args.n, NULL);
	if (!f)
		return false;
	ptrmap_put(e->a, &e->out.func_of, x, f);
	f->used = true;
	return true;
}

const struct dw_ptype *tgt_pragma_ptype(struct elab *e, struct elab_func *f)
{
	static const char mark[] = "/* pragma:cast:";
	const char *code = f->decl->func.code, *p, *end, *colon;
	const char *type, *module = NULL, *why = NULL;
	struct tgt_ctx none = { 0 };
	struct dw_mod *m;

	if (f->ret_ptype_tried)
		return f->ret_ptype;
	f->ret_ptype_tried = true;
	p = code ? strstr(code, mark) : NULL;
	end = p ? strstr(p, " */") : NULL;
	if (!end)
		return NULL;
	p += sizeof(mark) - 1;
	colon = memchr(p, ':', (size_t)(end - p));
	type = arena_strndup(e->a, p, (size_t)((colon ? colon : end) - p));
	if (colon)
		module = arena_strndup(e->a, colon + 1, (size_t)(end - colon - 1));
	m = named_module(e, &none, module, &why);
	f->ret_ptype = m ? dw_ptype_find(e, m, type) : NULL;
	return f->ret_ptype;
}

bool tgt_ctx_probe(const struct tgt_ctx *c)
{
	return c->probe && c->probe->ctx && !c->fn;
}

/* The context variable @x names in the probe's family, or NULL. */
static const struct pm_ctxvar *ctx_lookup(const struct tgt_ctx *c, const struct expr *x)
{
	const struct pm_ctxvar *v;

	for (v = c->probe->ctx->ctxvars; v->name; v++)
		if (!strcmp(v->name, x->target.name))
			return v;
	return NULL;
}

/* The context variable @x of the probe's family (@assign: the plain
 * assignment to it, else a read) becomes a call of a synthesized
 * embedded-C getter or setter; members are reached by @cast to the
 * variable's type. True when @x (or @assign) was rewritten. */
static bool ctx_var(struct elab *e, const struct tgt_ctx *c, struct expr *x,
		    struct expr *assign)
{
	const struct pm_ctxvar *v = ctx_lookup(c, x);
	const struct target_path path = x->target.path;
	const char *base, *name;
	struct expr *get;

	if (!v) {
		sym_error(e, x, "unsupported context variable");
		return false;
	}
	if (v->guru && !(c->probe->file && c->probe->file->library) && !e->sess->guru) {
		sym_error(e, x, "%s", v->guru);
		return false;
	}
	base = v->name + 1;
	if (assign) {
		if (!v->set || path.comps.n || path.addr_of || path.pretty) {
			sym_error(e, x, "%s", c->probe->ctx->ctx_readonly);
			return false;
		}
		name = arena_printf(e->a, "_ctx_set_%s_%u", base, e->tvar_seq++);
		synth_decl(e, name, arena_printf(e->a, "\t%s\n\tSTAP_RETVALUE = STAP_ARG_value;",
						 v->set),
			   TYPE_LONG, (const char *const[]){ "value" }, 1, TYPE_LONG, x->loc);
		get = assign->bin.r;
		assign->kind = EXPR_CALL;
		assign->call.name = intern(e->in, name);
		assign->call.args = (struct ptrvec){ 0 };
		vec_push(e->a, &assign->call.args, get);
		return true;
	}
	if ((path.comps.n || path.addr_of || path.pretty) && !v->type) {
		sym_error(e, x, "context variable '%s' is a number: it has no members",
			  v->name);
		return false;
	}
	name = arena_printf(e->a, "_ctx_get_%s_%u", base, e->tvar_seq++);
	synth_decl(e, name, arena_printf(e->a, "\tSTAP_RETVALUE = %s;", v->get),
		   TYPE_LONG, NULL, 0, TYPE_LONG, x->loc);
	get = x;
	if (path.comps.n || path.addr_of || path.pretty) {
		get = ast_expr(e->a, EXPR_CALL, x->loc);
		x->kind = EXPR_CAST;
		x->cast.operand = get;
		x->cast.type = v->type;
		x->cast.module = NULL;
		x->cast.path = path;
	}
	get->kind = EXPR_CALL;
	get->call.name = intern(e->in, name);
	get->call.args = (struct ptrvec){ 0 };
	return true;
}

bool tgt_target(struct elab *e, const struct tgt_ctx *c, struct expr *x,
		bool write)
{
	if (tgt_ctx_probe(c)) {
		if (write) {
			sym_error(e, x, "only plain assignment ('=') can write a target variable");
			return false;
		}
		return ctx_var(e, c, x, NULL);
	}
	if (c->probe && c->probe->procfs && !strcmp(x->target.name, "$value")) {
		if (x->target.path.comps.n || x->target.path.pretty ||
		    x->target.path.addr_of)
			sym_error(e, x, "procfs variable '$value' is a string; it has "
					"no members");
		else if (write && c->probe->procfs_write)
			sym_error(e, x, "procfs $value variable is read-only in a "
					"procfs write probe");
		else if (!write && !c->probe->procfs_write)
			sym_error(e, x, "procfs $value variable cannot be read in a "
					"procfs read probe");
		return false;
	}
	if (!strcmp(x->target.name, "$value") && !tgt_site(c)) {
		sym_error(e, x, "unresolved target-symbol expression ($value exists "
				"only in procfs probes)");
		return false;
	}
	if (sdt_own(tgt_site(c), x))
		return sdt_var(e, c, x, write);
	if (tgt_site(c) && tgt_site(c)->plt_name && !strcmp(x->target.name, "$$name")) {
		/* a .plt probe's function */
		const char *n = tgt_site(c)->plt_name;

		if (write || x->target.path.comps.n || x->target.path.addr_of) {
			sym_error(e, x, "$$name is the name of the .plt probe's function: a string");
			return false;
		}
		x->kind = EXPR_STRING;
		x->str.s = n;
		x->str.len = strlen(n);
		return false;
	}
	if (!tgt_site(c)) {
		static const char fn_msg[] = "unresolved target-symbol expression: a "
			"function reads target variables only when called from a probe "
			"with debuginfo context (kernel.function, .statement, "
			"kernel.trace, ...)";
		static const char probe_msg[] = "unresolved target-symbol expression "
			"(probes of this kind have no debuginfo context)";

		if (write)
			sym_error(e, x, "%s", c->fn ? fn_msg : probe_msg);
		else
			defer(e, x, "%s", c->fn ? fn_msg : probe_msg);
		return false;
	}
	return dwarf_call(e, c, x, write, false);
}

bool tgt_assign(struct elab *e, const struct tgt_ctx *c, struct expr *x)
{
	if (tgt_ctx_probe(c)) {
		if (x->bin.op != OP_ASSIGN) {
			sym_error(e, x->bin.l, "only plain assignment ('=') can write a "
					       "target variable");
			return false;
		}
		return ctx_var(e, c, x->bin.l, x);
	}
	if (sdt_own(tgt_site(c), x->bin.l))
		return sdt_var(e, c, x->bin.l, true);
	return dwarf_call(e, c, x, true, false);
}

/* @entry(EXPR) in a return probe whose points have no DWARF site but
 * whose family knows their entry points (pm_family.entry_of: system
 * calls): a probe at those entries stores EXPR in a global array by
 * thread, and the return reads and deletes it, through two functions of
 * a small library file made here. A return whose entry was not seen (it
 * began before the module started) skips the rest of the probe, as a
 * kretprobe without its entry would. Nested entries of one thread are
 * not told apart (a thread cannot nest a system call). False when some
 * point has no entry. */
static bool entry_by_thread(struct elab *e, const struct tgt_ctx *c, struct expr *x)
{
	struct elab_probe *p = c->probe, *ep;
	unsigned int k;
	const char *text;
	struct source *src;
	struct ast_file *f;
	struct ptrvec args = { 0 }, none = { 0 };
	struct expr *call;
	size_t i;

	if (c->fn || !p || !p->points.n)
		return false;
	for (i = 0; i < p->points.n; i++) {
		const struct elab_point *pt = p->points.v[i];

		if (pt->site || !pt->family || !pt->family->entry_of)
			return false;
	}
	ep = p->entry_probe;
	if (!ep) {
		ep = arena_new_obj(e->a, struct elab_probe);
		for (i = 0; i < p->points.n; i++) {
			const struct elab_point *pt = p->points.v[i];
			struct elab_point *entry = pt->family->entry_of(e, pt);

			if (!entry)
				return false;	/* not a return point */
			vec_push(e->a, &ep->points, entry);
		}
		ep->decl = p->decl;
		ep->file = p->file;
		ep->entry_helper = true;
		ep->body = ast_block(e->a, &none, x->loc);
		vec_push(e->a, &e->out.probes, ep);	/* resolved after this one */
		p->entry_probe = ep;
	}
	k = e->tvar_seq++;
	text = arena_printf(e->a,
		"global __entry_%u\n"
		"function __entry_set_%u(value) { __entry_%u[tid()] = value }\n"
		"function __entry_get_%u() {\n"
		"\tif (!([tid()] in __entry_%u)) next\n"
		"\tv = __entry_%u[tid()]; delete __entry_%u[tid()]; return v\n"
		"}\n", k, k, k, k, k, k, k);
	src = source_from_mem(e->a, "<entry>", text, strlen(text));
	f = parse_file(e->penv, src, true);
	elab_include_file(e, f);
	vec_push(e->a, &args, ast_clone_expr(e->a, x->operand));
	call = ast_expr(e->a, EXPR_CALL, x->loc);
	call->call.name = intern(e->in, arena_printf(e->a, "__entry_set_%u", k));
	call->call.args = args;
	vec_push(e->a, &ep->body->stmts, ast_stmt_expr(e->a, STMT_EXPR, call, x->loc));
	x->kind = EXPR_CALL;
	x->call.name = intern(e->in, arena_printf(e->a, "__entry_get_%u", k));
	x->call.args = (struct ptrvec){ 0 };
	return true;
}

bool tgt_entry(struct elab *e, const struct tgt_ctx *c, struct expr *x)
{
	if (!tgt_site(c) && x->operand->kind != EXPR_TARGET && entry_by_thread(e, c, x))
		return true;
	if (!tgt_site(c) || !tgt_site(c)->is_return) {
		sym_error(e, x, "@entry is only valid in .return probes");
		return false;
	}
	if (x->operand->kind != EXPR_TARGET)
		return entry_expr(e, c, x);
	return dwarf_call(e, c, x, false, true);
}

/* Does @cast(...)->path or @var(...)->path (@x) resolve: its module, its
 * type or variable, every member of its path? */
static bool typed_defined(struct elab *e, const struct tgt_ctx *c, const struct expr *x)
{
	const char *why = NULL, *at, *name;
	struct dw_code_info ci;
	struct dw_mod *m;

	if (x->kind == EXPR_CAST) {
		m = named_module(e, c, x->cast.module, &why);
		return m && dw_cast_code(e, m, x->cast.type, &x->cast.path, false, &ci);
	}
	at = strchr(x->atvar.name, '@');
	name = at ? arena_strndup(e->a, x->atvar.name, (size_t)(at - x->atvar.name))
		  : x->atvar.name;
	m = named_module(e, c, x->atvar.module, &why);
	return m && dw_var_code(e, m, name, at ? at + 1 : NULL, &x->atvar.path, false,
				&ci);
}

void tgt_fold_defined(struct elab *e, const struct tgt_ctx *c, struct expr *x)
{
	/* Only procfs' $value exists without debuginfo. */
	const struct expr *o = x->operand;
	bool def = o->kind == EXPR_TARGET && c->probe && c->probe->procfs &&
		   !strcmp(o->target.name, "$value") && !o->target.path.comps.n;

	if (o->kind == EXPR_TARGET && !def && tgt_ctx_probe(c)) {
		const struct pm_ctxvar *v = ctx_lookup(c, o);

		def = v && (v->type || (!o->target.path.comps.n && !o->target.path.addr_of &&
					!o->target.path.pretty));
	} else if (o->kind == EXPR_TARGET && !def) {
		def = target_defined(e, c, o);
	} else if (o->kind == EXPR_CAST || o->kind == EXPR_ATVAR) {
		def = typed_defined(e, c, o);
	}

	x->kind = EXPR_NUMBER;
	x->num = def;
}
