// SPDX-License-Identifier: GPL-2.0-or-later
/* probe_match.c: the builder tree of probe-point families and aliases, and
 * the matcher: literal components, '*' and '**' wildcards, parameters,
 * alias expansion (prologues, epilogues, suffixes), '?', '!' and if(). */
#include "elaborate/probe_match.h"

#include <fnmatch.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "parse/ast_walk.h"
#include "session.h"
#include "parse/parse.h"
#include "util/arena.h"
#include "util/diag.h"
#include "util/intern.h"
#include "util/similar.h"
#include "util/strbuf.h"

#define PM_MAX_ALIAS_DEPTH 64

/* One alias expansion step. */
struct pm_frame {
	struct decl *alias;
	const struct pm_frame *up;
};

struct pm_ctx {
	struct decl *decl;		/* the probe being derived */
	const struct source *file;
	const struct probe_point *top;	/* the user's point as written */
	const char *listed;		/* top point with wildcards filled */
	const struct pm_frame *frames;	/* innermost first */
	struct expr *cond;
	int quiet;			/* inside an optional point */
	const char *quiet_why;		/* the first error it kept quiet */
	int wild_suffix;		/* inside an alias a wildcard reached,
					 * with the point's suffix: a suffix
					 * that does not fit is no match, not
					 * an error */
	int errors;
	int depth;
	struct ptrmap groups;		/* derivation key -> elab_probe */
};

/* ---- the tree ---- */

static struct pm_node *kid(struct elab *e, struct pm_node *n, const char *name,
			   enum pm_param param, bool create)
{
	struct pm_node *k;
	size_t i;

	for (i = 0; i < n->kids.n; i++) {
		k = n->kids.v[i];
		if (k->name == name && k->param == param)
			return k;
	}
	if (!create)
		return NULL;
	k = arena_new_obj(e->a, struct pm_node);
	k->name = name;
	k->param = param;
	vec_push(e->a, &n->kids, k);
	return k;
}

void pm_register(struct elab *e, const char *spec, const struct pm_family *f)
{
	struct pm_node *n = e->root;
	const char *p = spec;

	while (*p) {
		size_t len = strcspn(p, ".(");
		const char *name = intern_n(e->in, p, len);
		enum pm_param param = PM_NONE;

		p += len;
		if (*p == '(') {
			param = p[1] == 's' ? PM_STR : PM_NUM;
			p += 3;
		}
		n = kid(e, n, name, param, true);
		if (*p == '.')
			p++;
	}
	n->family = f;
}

void pm_register_alias(struct elab *e, struct decl *d)
{
	size_t i, j;

	for (i = 0; i < d->probe.names.n; i++) {
		const struct probe_point *pp = d->probe.names.v[i];
		struct pm_node *n = e->root;

		for (j = 0; j < pp->comps.n; j++) {
			const struct pp_component *c = pp->comps.v[j];
			const char *tok = arena_printf(e->a, "identifier '%s'",
						       c->name);

			if (strpbrk(c->name, "*?[")) {
				diag_report(e->d, DIAG_SEMANTIC_ERROR, &c->loc, tok,
					    "invalid use of wildcard probe point "
					    "component in an alias name");
				return;
			}
			if (c->param) {
				diag_report(e->d, DIAG_SEMANTIC_ERROR, &c->loc, tok,
					    "alias component %s contains illegal "
					    "parameter", c->name);
				return;
			}

			n = kid(e, n, c->name, PM_NONE, true);
		}
		vec_push(e->a, &n->aliases, d);
	}
}

void pm_init(struct elab *e)
{
	e->root = arena_new_obj(e->a, struct pm_node);
}

/* ---- helpers for families ---- */

const char *pm_point_text(struct elab *e, const struct probe_point *pp)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	const char *s;

	if (!f)
		return "?";
	ast_print_point(f, pp);
	fclose(f);
	s = arena_strndup(e->a, buf, len);
	free(buf);
	return s;
}

static const struct pp_component *find_comp(const struct probe_point *pp,
					    const char *name)
{
	size_t i;

	for (i = 0; i < pp->comps.n; i++) {
		const struct pp_component *c = pp->comps.v[i];

		if (!strcmp(c->name, name))
			return c;
	}
	return NULL;
}

const char *pm_target_command(struct elab *e)
{
	const char *cmd = e->sess->target_cmd, *end;

	if (!cmd)
		return NULL;
	cmd += strspn(cmd, " \t");
	end = cmd + strcspn(cmd, " \t");
	return end > cmd ? arena_strndup(e->a, cmd, (size_t)(end - cmd)) : NULL;
}

const struct expr *pm_param_of(const struct probe_point *pp, const char *name)
{
	const struct pp_component *c = find_comp(pp, name);

	return c ? c->param : NULL;
}

bool pm_has(const struct probe_point *pp, const char *name)
{
	return find_comp(pp, name) != NULL;
}

bool pm_quiet(struct elab *e, struct pm_ctx *c)
{
	return e->listing || c->quiet;
}

bool pm_guru(struct elab *e, struct pm_ctx *c)
{
	return e->sess->guru || (c->file && c->file->library);
}

void pm_error(struct elab *e, struct pm_ctx *c, const struct srcloc *loc,
	      const char *token, const char *fmt, ...)
{
	const struct pm_frame *f, *stack[PM_MAX_ALIAS_DEPTH];
	const struct pp_component *c0;
	char msg[512];
	va_list ap;
	int n;

	c->errors++;
	if (e->listing || (c->quiet && c->quiet_why))
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (c->quiet) {
		c->quiet_why = arena_printf(e->a, "%s", msg);
		return;
	}
	c0 = c->top->comps.v[0];
	diag_report(e->d, DIAG_SEMANTIC_ERROR, &c0->loc,
		    arena_printf(e->a, "identifier '%s'", c0->name),
		    "while resolving probe point");
	/* The aliases it went through, outermost first. */
	for (n = 0, f = c->frames; f && n < PM_MAX_ALIAS_DEPTH; f = f->up)
		stack[n++] = f;
	while (n-- > 0) {
		const struct probe_point *name = stack[n]->alias->probe.names.v[0];
		const struct pp_component *a0 = name->comps.v[0];

		diag_report(e->d, DIAG_SEMANTIC_ERROR, &name->loc,
			    arena_printf(e->a, "identifier '%s'", a0->name),
			    "in expansion of alias %s", pm_point_text(e, name));
	}
	diag_report(e->d, DIAG_SEMANTIC_ERROR, loc, token, "%s", msg);
}

/* The chain " <- ..." printed after a derived point by -p2. */
static const char *chain_text(struct elab *e, struct pm_ctx *c)
{
	struct strbuf sb;
	const struct pm_frame *f;
	size_t i;

	sb = (struct strbuf)STRBUF_INIT;
	for (f = c->frames; f; f = f->up) {
		const struct decl *d = f->alias;

		sb_adds(&sb, " <- ");
		for (i = 0; i < d->probe.names.n; i++)
			sb_addf(&sb, "%s%s", i ? ", " : "",
				      pm_point_text(e, d->probe.names.v[i]));
		sb_adds(&sb, d->probe.epilogue ? " += " : " = ");
		for (i = 0; i < d->probe.points.n; i++)
			sb_addf(&sb, "%s%s", i ? ", " : "",
				      pm_point_text(e, d->probe.points.v[i]));
	}
	sb_adds(&sb, " <- ");
	for (i = 0; i < c->decl->probe.points.n; i++) {
		sb_addf(&sb, "%s%s", i ? "," : "",
			pm_point_text(e, c->decl->probe.points.v[i]));
	}
	return sb_to_arena(&sb, e->a);
}

struct elab_point *pm_point(struct elab *e, struct pm_ctx *c,
			    const struct probe_point *pp)
{
	struct probe_point bare = *pp;

	bare.optional = bare.sufficient = false;
	bare.cond = NULL;
	return pm_point_named(e, c, pp, pm_point_text(e, &bare));
}

struct elab_point *pm_point_named(struct elab *e, struct pm_ctx *c,
				  const struct probe_point *pp, const char *name)
{
	struct elab_point *pt = arena_new_obj(e->a, struct elab_point);

	pt->name = name;
	pt->marks = pp->sufficient ? "!" : pp->optional ? "?" : "";
	pt->cond = c->cond;
	pt->loc = c->top->loc;
	return pt;
}

/* Append the statements of @s (a block is flattened) to @v, as copies. */
static void add_body(struct elab *e, struct ptrvec *v, const struct stmt *s)
{
	if (s)
		vec_push(e->a, v, ast_clone_stmt(e->a, s));
}

/* The probe body for the current derivation: alias prologues (innermost
 * first), the probe's own body, then alias epilogues (outermost first). */
static struct elab_probe *group_for(struct elab *e, struct pm_ctx *c,
				    const struct elab_point *pt)
{
	const struct pm_frame *f, *stack[PM_MAX_ALIAS_DEPTH + 1];
	struct strbuf key;
	struct elab_probe *p;
	struct ptrvec stmts = { 0 };
	const char *k;
	int n = 0, i;

	key = (struct strbuf)STRBUF_INIT;
	sb_addf(&key, "%p", (void *)c->decl);
	for (f = c->frames; f && n < PM_MAX_ALIAS_DEPTH; f = f->up) {
		sb_addf(&key, ",%p", (void *)f->alias);
		stack[n++] = f;
	}
	sb_addf(&key, "/%d/%d", pt->family->procfs, pt->family->procfs_write);
	/* -L of a point derived directly: the body is the listing's empty
	 * one, the same for all of its points (a kernel's 340,000) */
	if (pt->family->per_point && (!e->listing || c->frames))
		sb_addf(&key, "/%p", (const void *)pt);
	if (pt->family->ctxvars)
		sb_addf(&key, "/c%p", (const void *)pt->family);
	k = intern_n(e->in, sb_str(&key), key.len);
	sb_release(&key);
	p = ptrmap_get(&c->groups, k);
	if (p)
		return p;
	p = arena_new_obj(e->a, struct elab_probe);
	p->decl = c->decl;
	p->file = c->file;
	p->procfs = pt->family->procfs;
	p->procfs_write = pt->family->procfs_write;
	if (pt->family->ctxvars)
		p->ctx = pt->family;
	for (i = 0; i < n; i++) {
		const struct decl *a = stack[i]->alias;

		if (!a->probe.epilogue)
			add_body(e, &stmts, a->probe.body);
	}
	add_body(e, &stmts, c->decl->probe.body);
	for (i = n - 1; i >= 0; i--) {
		const struct decl *a = stack[i]->alias;

		add_body(e, &stmts, a->probe.epilogue ? a->probe.body
						       : a->probe.epilogue_body);
	}
	p->body = ast_block(e->a, &stmts, c->decl->probe.body ?
				  c->decl->probe.body->loc : c->decl->loc);
	ptrmap_put(e->a, &c->groups, k, p);
	vec_push(e->a, &e->out.probes, p);
	return p;
}

bool pm_listed_as_named(const struct pm_ctx *c)
{
	return !c->listed;
}

void pm_emit(struct elab *e, struct pm_ctx *c, struct elab_point *pt)
{
	struct elab_probe *p;

	if (e->list_names) {
		/* -l: the family may still rename it (pt->listed) */
		pt->listed = c->listed ? c->listed : pt->name;
		vec_push(e->a, &e->listed_points, pt);
		return;
	}
	p = group_for(e, c, pt);
	pt->listed = c->listed ? c->listed : pt->name;
	vec_push(e->a, &p->points, pt);
	if (e->listing)
		return;		/* -L shows no chain */
	pt->chain = chain_text(e, c);
	/* a DWARF point derived directly names the resolved point, as the
	 * reference's -p2 does */
	if (!c->frames && pt->family && pt->family->per_point)
		pt->chain = arena_printf(e->a, " <- %s", pt->name);
}

/* ---- matching ---- */

struct match_step {
	struct pm_node *node;
	struct expr *param;
	struct srcloc loc;
};

struct matcher {
	struct pm_ctx *c;
	const struct probe_point *pp;	/* the point being matched */
	struct match_step path[64];
	size_t npath;
	/* The deepest failure, for the mismatch message. */
	size_t fail_i;
	struct pm_node *fail_node;
	const struct decl *empty_alias;	/* an alias that gave nothing */
	bool too_long;			/* more components than path[] */
};

static int resolve_point(struct elab *e, struct pm_ctx *c,
			 const struct probe_point *pp);

static bool param_fits(const struct pp_component *uc, enum pm_param p)
{
	if (!uc->param)
		return p == PM_NONE;
	if (uc->param->kind == EXPR_STRING)
		return p == PM_STR;
	return p == PM_NUM;
}

/* The concrete point of the matched path plus components @from.. of the
 * user's point (an alias suffix). */
static struct probe_point *concrete(struct elab *e, struct matcher *m,
				    size_t from)
{
	struct probe_point *pp = ast_probe_point(e->a, m->pp->loc);
	size_t i;

	pp->optional = m->pp->optional;
	pp->sufficient = m->pp->sufficient;
	for (i = 0; i < m->npath; i++) {
		struct pp_component *nc = arena_new_obj(e->a, struct pp_component);

		nc->name = m->path[i].node->name;
		nc->param = m->path[i].param;
		nc->loc = m->path[i].loc;
		vec_push(e->a, &pp->comps, nc);
	}
	for (i = from; i < m->pp->comps.n; i++)
		vec_push(e->a, &pp->comps, m->pp->comps.v[i]);
	return pp;
}

static int expand_aliases(struct elab *e, struct matcher *m,
			  struct pm_node *n, size_t suffix_from);

static int derive_family(struct elab *e, struct matcher *m, struct pm_node *n)
{
	struct pm_ctx *c = m->c;
	struct probe_point *pp = concrete(e, m, m->pp->comps.n);
	const char *saved = c->listed;
	int r;

	r = n->family->derive(e, c, pp);
	c->listed = saved;
	return r;
}

static int match_at(struct elab *e, struct matcher *m, struct pm_node *n,
		    size_t i);

static int descend(struct elab *e, struct matcher *m, struct pm_node *k,
		   const struct pp_component *uc, size_t i)
{
	int r;

	if (m->npath >= sizeof(m->path) / sizeof(m->path[0])) {
		m->too_long = true;
		return 0;
	}
	m->path[m->npath].node = k;
	m->path[m->npath].param = uc->param;
	m->path[m->npath].loc = uc->loc;
	m->npath++;
	r = match_at(e, m, k, i + 1);
	m->npath--;
	return r;
}

/* '**' in @uc: try every chain of descendants of @n whose dotted names
 * match the pattern. */
static int match_dstar(struct elab *e, struct matcher *m, struct pm_node *n,
		       const struct pp_component *uc, size_t i,
		       const char *prefix, int depth)
{
	size_t j;
	int total = 0;

	if (depth > 16)
		return 0;
	for (j = 0; j < n->kids.n; j++) {
		struct pm_node *k = n->kids.v[j];
		const char *text = *prefix ? arena_printf(e->a, "%s.%s", prefix,
							  k->name) : k->name;

		if (param_fits(uc, k->param) &&
		    !fnmatch(uc->name, text, 0))
			total += descend(e, m, k, uc, i);
		if (k->param == PM_NONE && k->kids.n &&
		    m->npath < sizeof(m->path) / sizeof(m->path[0])) {
			m->path[m->npath].node = k;
			m->path[m->npath].param = NULL;
			m->path[m->npath].loc = uc->loc;
			m->npath++;
			total += match_dstar(e, m, k, uc, i, text, depth + 1);
			m->npath--;
		}
	}
	return total;
}

/* Does some child of @n carry the name of @uc (a literal component)? */
static bool names_kid(const struct pm_node *n, const struct pp_component *uc)
{
	size_t j;

	for (j = 0; j < n->kids.n; j++)
		if (((const struct pm_node *)n->kids.v[j])->name == uc->name)
			return true;
	return false;
}

/* Is one of the first @i components of @pp a wildcard? */
static bool wild_before(const struct probe_point *pp, size_t i)
{
	size_t j;

	for (j = 0; j < i; j++)
		if (strpbrk(((const struct pp_component *)pp->comps.v[j])->name, "*?["))
			return true;
	return false;
}

static int match_at(struct elab *e, struct matcher *m, struct pm_node *n,
		    size_t i)
{
	const struct pp_component *uc;
	bool wild;
	size_t j;
	int total = 0, r;

	if (i == m->pp->comps.n) {
		if (n->family) {
			r = derive_family(e, m, n);
			if (r > 0)
				total += r;
		}
		if (n->aliases.n) {
			r = expand_aliases(e, m, n, i);
			if (!r && !m->empty_alias)
				m->empty_alias = n->aliases.v[0];
			total += r;
		}
		if (!n->family && !n->aliases.n && (!m->fail_node || i >= m->fail_i)) {
			m->fail_i = i;	/* the point stops short */
			m->fail_node = n;
		}
		return total;
	}
	uc = m->pp->comps.v[i];
	if (strstr(uc->name, "**"))
		return match_dstar(e, m, n, uc, i, "", 0);
	wild = strpbrk(uc->name, "*?[") != NULL;
	for (j = 0; j < n->kids.n; j++) {
		struct pm_node *k = n->kids.v[j];

		if (!param_fits(uc, k->param))
			continue;
		if (wild ? fnmatch(uc->name, k->name, 0) != 0
			 : k->name != uc->name)
			continue;
		r = descend(e, m, k, uc, i);
		total += r;
	}
	/* Alias suffix: the rest of the point attaches to the expansion,
	 * unless the next component names a child here (then the point is
	 * just wrong: timer.profile.tick(5)). An alias a wildcard reached
	 * only matches when the suffix fits its expansion: `*.a` is no error
	 * in the expansion of every alias (as the reference). */
	if (!total && n->aliases.n && i > 0 && !names_kid(n, uc)) {
		bool wild_here = wild_before(m->pp, i);

		m->c->wild_suffix += wild_here;
		total += expand_aliases(e, m, n, i);
		m->c->wild_suffix -= wild_here;
		if (wild_here && !total)
			return 0;	/* the wildcard did not match here */
	}
	if (!total && (!m->fail_node || i >= m->fail_i)) {
		m->fail_i = i;
		m->fail_node = n;
	}
	return total;
}

static struct expr *and_cond(struct elab *e, struct expr *a, struct expr *b)
{
	if (!a)
		return b;
	if (!b)
		return a;
	return ast_binary(e->a, OP_LAND, a, b, b->loc);
}

/* Resolve each point of @points (with the suffix) in the current context;
 * '!' stops at the first that resolves. */
static int resolve_list(struct elab *e, struct pm_ctx *c,
			const struct ptrvec *points, const struct probe_point *suffix,
			size_t suffix_from)
{
	int total = 0, r;
	size_t i, j;

	for (i = 0; i < points->n; i++) {
		const struct probe_point *q = points->v[i];
		struct probe_point *qq = ast_probe_point(e->a, q->loc);
		struct expr *saved = c->cond;

		*qq = *q;
		memset(&qq->comps, 0, sizeof(qq->comps));
		vec_append(e->a, &qq->comps, &q->comps);
		if (suffix)
			for (j = suffix_from; j < suffix->comps.n; j++)
				vec_push(e->a, &qq->comps, suffix->comps.v[j]);
		if (q->cond)
			c->cond = and_cond(e, ast_clone_expr(e->a, q->cond), c->cond);
		r = resolve_point(e, c, qq);
		c->cond = saved;
		if (r > 0)
			total += r;
		if (r > 0 && q->sufficient)
			break;
	}
	return total;
}

static int expand_aliases(struct elab *e, struct matcher *m,
			  struct pm_node *n, size_t suffix_from)
{
	struct pm_ctx *c = m->c;
	const struct pm_frame *saved_frames = c->frames;
	const char *saved_listed = c->listed;
	struct probe_point *named;
	size_t j;
	int total = 0;

	if (c->depth >= PM_MAX_ALIAS_DEPTH) {
		const struct pp_component *c0 = m->pp->comps.v[0];

		pm_error(e, c, &c0->loc, arena_printf(e->a, "identifier '%s'", c0->name),
			 "probe alias expansion is recursive (more than %d levels)",
			 PM_MAX_ALIAS_DEPTH);
		return 0;
	}
	named = concrete(e, m, suffix_from);
	if (!c->frames)
		c->listed = pm_point_text(e, named);
	for (j = 0; j < n->aliases.n; j++) {
		struct pm_frame f = { n->aliases.v[j], saved_frames };
		const struct pm_frame *up;

		for (up = saved_frames; up && up->alias != f.alias; up = up->up)
			;
		if (up) {
			const struct probe_point *nm = f.alias->probe.names.v[0];

			pm_error(e, c, &m->pp->loc,
				 arena_printf(e->a, "identifier '%s'",
					      ((const struct pp_component *)
					       m->pp->comps.v[0])->name),
				 "recursive loop in alias expansion of %s",
				 pm_point_text(e, nm));
			continue;
		}

		c->frames = &f;
		c->depth++;
		total += resolve_list(e, c, &f.alias->probe.points, m->pp,
				      suffix_from);
		c->depth--;
	}
	c->frames = saved_frames;
	c->listed = saved_listed;
	return total;
}

static const char *similar(struct elab *e, struct pm_node *n, const char *name)
{
	const char **names = arena_new_array(e->a, const char *, n->kids.n + 1);
	size_t i;

	for (i = 0; i < n->kids.n; i++)
		names[i] = ((struct pm_node *)n->kids.v[i])->name;
	return similar_names(e->a, name, names, n->kids.n);
}

/* @glob without its wildcards ('*', '?', '[...]'): what the names it was
 * meant to match have in common, for the suggestions of a wildcard that
 * matched nothing (`syscall.opne*`: similar to open). */
static const char *unglob(struct elab *e, const char *glob)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p, *q;

	for (p = glob; *p; p++) {
		if (*p == '*' || *p == '?')
			continue;
		if (*p == '[' && (q = strchr(p + 1, ']'))) {
			p = q;
			continue;
		}
		sb_addf(&sb, "%c", *p);
	}
	return sb_to_arena(&sb, e->a);
}

/* "a(number), b, c(string)": the children of @n (those called @name only,
 * when not NULL). */
static const char *kid_forms(struct elab *e, const struct pm_node *n,
			     const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	int k = 0;

	for (i = 0; i < n->kids.n; i++) {
		const struct pm_node *c = n->kids.v[i];

		if (name && c->name != name)
			continue;
		sb_addf(&sb, "%s%s%s", k++ ? ", " : "", c->name,
			c->param == PM_NUM ? "(number)" :
			c->param == PM_STR ? "(string)" : "");
	}
	return sb_to_arena(&sb, e->a);
}

static int resolve_point(struct elab *e, struct pm_ctx *c,
			 const struct probe_point *pp)
{
	const struct pp_component *c0 = pp->comps.v[0];
	struct matcher m = { .c = c, .pp = pp };
	bool optional = pp->optional || pp->sufficient;
	int errors = c->errors, r;

	if (e->tapsets)
		tapset_include_aliases(e, c0->name);
	if (!c->depth)
		c->quiet_why = NULL;	/* a point as the user wrote it */
	if (optional)
		c->quiet++;
	r = match_at(e, &m, e->root, 0);
	if (optional) {
		c->quiet--;
		c->errors = errors;	/* what went unsaid does not count */
	}
	if (r > 0 || optional || c->errors > errors)
		return r;
	if (c->wild_suffix)
		return 0;	/* only a mismatch: the caller says so, if need be */
	if (m.too_long) {
		pm_error(e, c, &pp->loc, "identifier", "probe point has too many "
			 "components (at most %zu)",
			 sizeof(m.path) / sizeof(m.path[0]));
	} else if (m.empty_alias) {
		const struct probe_point *nm = m.empty_alias->probe.names.v[0];

		pm_error(e, c, &pp->loc, arena_printf(e->a, "identifier '%s'",
						      ((const struct pp_component *)
						       pp->comps.v[0])->name),
			 "no match: alias %s resolves to no probe point%s%s",
			 pm_point_text(e, nm), c->quiet_why ? ": " : "",
			 c->quiet_why ? c->quiet_why : "");
	} else if (m.fail_node && m.fail_i == pp->comps.n) {
		const struct pp_component *last = pp->comps.v[pp->comps.n - 1];

		pm_error(e, c, &last->loc,
			 arena_printf(e->a, "identifier '%s'", last->name),
			 "probe point truncated (follow: %s)",
			 kid_forms(e, m.fail_node, NULL));
	} else if (m.fail_node && names_kid(m.fail_node, pp->comps.v[m.fail_i])) {
		const struct pp_component *bad = pp->comps.v[m.fail_i];

		pm_error(e, c, &bad->loc,
			 arena_printf(e->a, "identifier '%s'", bad->name),
			 "probe point mismatch: wrong parameter for '%s' "
			 "(forms: %s)", bad->name,
			 kid_forms(e, m.fail_node, bad->name));
	} else if (m.fail_node && m.fail_i > 0 &&
		   (m.fail_node->family || m.fail_node->aliases.n)) {
		const struct pp_component *bad = pp->comps.v[m.fail_i];

		pm_error(e, c, &bad->loc,
			 arena_printf(e->a, "identifier '%s'", bad->name),
			 "invalid suffix for probe%s",
			 similar(e, m.fail_node, bad->name));
	} else {
		const struct pp_component *bad = pp->comps.v[m.fail_i];
		bool wild = strpbrk(bad->name, "*?[") != NULL;
		const char *like = wild ? unglob(e, bad->name) : bad->name;

		pm_error(e, c, &bad->loc,
			 arena_printf(e->a, "identifier '%s'", bad->name),
			 "probe point mismatch%s%s",
			 wild ? ": didn't find any wildcard matches" : "",
			 m.fail_node && *like ? similar(e, m.fail_node, like) : "");
	}
	return 0;
}

void pm_derive(struct elab *e, struct decl *d, const struct source *file)
{
	struct pm_ctx c = { 0 };
	size_t i;

	c.decl = d;
	c.file = file;
	for (i = 0; i < d->probe.points.n; i++) {
		const struct probe_point *pp = d->probe.points.v[i];
		int r;

		c.top = pp;
		c.listed = NULL;
		c.cond = pp->cond ? ast_clone_expr(e->a, pp->cond) : NULL;
		r = resolve_point(e, &c, pp);
		if (r > 0 && pp->sufficient)
			break;
	}
}
