// SPDX-License-Identifier: GPL-2.0-or-later
/* elaborate.c: the pass 2 driver: include the user script, derive its
 * probes (pulling tapset files in on demand), resolve names, infer types
 * and optimise. */
#include "elaborate/elab.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "elaborate/probe_match.h"
#include "elaborate/targets.h"
#include "parse/parse.h"
#include "session.h"
#include "util/arena.h"
#include "util/diag.h"
#include "util/intern.h"

void elab_init(struct elab *e, struct parse_env *penv)
{
	memset(e, 0, sizeof(*e));
	e->a = penv->arena;
	e->in = penv->in;
	e->d = penv->diag;
	e->sess = penv->sess;
	e->ki = penv->kinfo;
	e->out.a = e->a;
	e->out.in = e->in;
	e->out.d = e->d;
	e->penv = penv;
	pm_init(e);
	/* the families of families.h register their points */
#define PM_REGISTER_CALL(f) pm_register_##f(e);
	STAP_FAMILIES(PM_REGISTER_CALL)
#undef PM_REGISTER_CALL
}

/* Derive the probes of the files included since *@done (deriving may
 * include more, for aliases). */
static void derive_new(struct elab *e, size_t *done)
{
	size_t i;

	for (; *done < e->files.n; (*done)++) {
		struct ast_file *f = e->files.v[*done];

		for (i = 0; i < f->decls.n; i++) {
			struct decl *d = f->decls.v[i];

			if (d->kind == DECL_PROBE)
				pm_derive(e, d, f->src);
		}
	}
}

/* -G NAME=VALUE: the global must exist in the script; a value that reads
 * as a number makes (or must fit) a long, anything else a string. */
static void apply_G(struct elab *e, const struct source *user, bool check)
{
	int i;

	for (i = 0; i < e->sess->globals.n; i++) {
		const char *arg = e->sess->globals.v[i], *eq = strchr(arg, '=');
		const char *name = intern_n(e->in, arg, eq ? (size_t)(eq - arg) : strlen(arg));
		struct elab_var *v = sym_global(e, name, user);
		enum stap_type ty = TYPE_STRING;
		char *end;

		if (eq && eq[1]) {
			errno = 0;
			(void)strtoll(eq + 1, &end, 0);
			if (!*end && !errno)
				ty = TYPE_LONG;
		}
		if (!v || v->file != user) {
			if (check)
				diag_report(e->d, DIAG_SEMANTIC_ERROR, NULL, NULL,
					    "-G %s: the script has no global "
					    "variable '%s'", arg, name);
			continue;
		}
		if (!check) {
			/* Set at load time; its type only if nothing else
			 * decides it (types.c). */
			v->written = true;
			v->g_type = ty;
			continue;
		}
		if (v->arity > 0 || v->type == TYPE_STATS)
			diag_report(e->d, DIAG_SEMANTIC_ERROR, NULL, NULL,
				    "-G %s: '%s' is not a scalar", arg, name);
		else if (v->type == TYPE_LONG && ty != TYPE_LONG)
			diag_report(e->d, DIAG_SEMANTIC_ERROR, NULL, NULL,
				    "-G %s: '%s' is a long, and '%s' is not a "
				    "number", arg, name, eq ? eq + 1 : "");
	}
}

int elab_run(struct elab *e, struct ast_file *user)
{
	size_t i, done = 0, fdone = 0;

	tapset_index_load(e);
	if (diag_errors(e->d))
		return -1;
	elab_include_file(e, user);
	/* Resolving bodies may include library files with probes of their
	 * own: alternate until both are done. */
	for (;;) {
		derive_new(e, &fdone);
		if (done == e->out.probes.n)
			break;
		for (; done < e->out.probes.n; done++) {
			struct elab_probe *p = e->out.probes.v[done];

			for (i = 0; i < p->points.n; i++) {
				struct elab_point *pt = p->points.v[i];

				if (pt->cond)
					sym_resolve_cond(e, pt->cond);
			}
			sym_resolve_probe(e, p);
			sym_resolve_pending(e);
		}
	}
	if (diag_errors(e->d))
		return -1;
	if (!e->out.probes.n) {
		diag_report(e->d, DIAG_SEMANTIC_ERROR, NULL, NULL, "no probes found");
		return -1;
	}
	/* Optimise before inferring types, as the reference does: code that is
	 * elided (dead stores, if (0) blocks) is not type-checked. */
	if (!e->sess->unoptimized)
		opt_run(e);
	if (diag_errors(e->d))
		return -1;
	apply_G(e, user->src, false);
	type_infer(e);
	apply_G(e, user->src, true);
	if (diag_errors(e->d))
		return -1;
	tgt_finish_entries(e);
	elab_global_display(e);
	return 0;
}
