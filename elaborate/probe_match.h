/* SPDX-License-Identifier: GPL-2.0-or-later */
/* probe_match.h: the probe-point builder tree shared by the matcher, the
 * alias expander and the families in elaborate/probes/. */
#ifndef ELABORATE_PROBE_MATCH_H
#define ELABORATE_PROBE_MATCH_H

#include "elaborate/elab.h"
#include "families.h"

enum pm_param { PM_NONE, PM_NUM, PM_STR };

struct pm_ctx;

/* A context variable a family defines in its probes ($skb in netfilter
 * probes): read, and when @set written, by embedded C over CONTEXT that
 * pass 2 synthesizes (elaborate/targets.c). */
struct pm_ctxvar {
	const char *name;	/* "$skb"; NULL ends a table */
	const char *get;	/* C expression of its value (s64) */
	const char *set;	/* C statement storing STAP_ARG_value, or NULL */
	const char *type;	/* what -> and [] reach through ("struct
				 * sk_buff", by @cast), or NULL */
	const char *guru;	/* reads and writes need guru mode: the
				 * message without it; or NULL */
};

/* A built-in family. derive() gets a point whose components matched one
 * of the family's registered specs (names literal, parameters the user's)
 * and emits zero or more elab_points with pm_emit(); it reports bad
 * parameters with pm_error() and returns the number emitted, or -1 after
 * an error. */
struct pm_family {
	const char *name;
	int (*derive)(struct elab *e, struct pm_ctx *c,
		      const struct probe_point *pp);
	enum probe_mech mech;	/* what arms its points: their data is
				 * elaborate/probes/points.h's of it */
	const char *unsupported;	/* MECH_NONE: why pass 3 refuses its
					 * points (NULL: they are run by
					 * another point's mechanism) */
	bool procfs;		/* $value is defined in its probes */
	bool procfs_write;	/* ... and is what was written */
	bool per_point;		/* each point gets its own copy of the body
				 * ($vars differ between points) */
	const struct pm_ctxvar *ctxvars;	/* its probes' $variables, or
						 * NULL */
	const char *ctx_readonly;	/* the message for a write to one
					 * without .set */
	const char *listed_vars;	/* what -L shows of its variables
					 * (" $x:long ..."), or NULL */
	/* For a return point without DWARF: the matching entry point (a new
	 * point), where @entry(EXPR) is evaluated; NULL when @pt is not a
	 * return point. Families without it have no @entry (but DWARF's). */
	struct elab_point *(*entry_of)(struct elab *e, const struct elab_point *pt);
};

/* One node of the tree: a component name and its parameter kind. */
struct pm_node {
	const char *name;		/* interned */
	enum pm_param param;
	struct ptrvec kids;		/* struct pm_node * */
	const struct pm_family *family;	/* a complete built-in point */
	struct ptrvec aliases;		/* struct decl * (DECL_ALIAS) */
};

/* Register @spec ("timer.ms(n).randomize(n)"; (n) number, (s) string)
 * as a point of @f. */
void pm_register(struct elab *e, const char *spec, const struct pm_family *f);
/* Register the alias names of @d (a DECL_ALIAS) in the tree. */
void pm_register_alias(struct elab *e, struct decl *d);

/* A new point for @pp (named after it) inheriting the derivation. */
struct elab_point *pm_point(struct elab *e, struct pm_ctx *c,
			    const struct probe_point *pp);
/* The same, named @name (the canonical text of the concrete point), for
 * families that name each point they derive. */
struct elab_point *pm_point_named(struct elab *e, struct pm_ctx *c,
				  const struct probe_point *pp, const char *name);
/* Does -l list the points derived in @c under their own names (not an
 * alias's)? */
bool pm_listed_as_named(const struct pm_ctx *c);
void pm_emit(struct elab *e, struct pm_ctx *c, struct elab_point *pt);
/* Report an error about the point being resolved (with its chain). */
void pm_error(struct elab *e, struct pm_ctx *c, const struct srcloc *loc,
	      const char *token, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* The program of -c COMMAND (its first word, as given), or NULL. */
const char *pm_target_command(struct elab *e);
/* The literal parameter of component @name of @pp, or NULL. */
const struct expr *pm_param_of(const struct probe_point *pp, const char *name);
/* Does @pp have a component called @name? */
bool pm_has(const struct probe_point *pp, const char *name);
/* Are messages about this resolution suppressed (optional point, -l)? */
bool pm_quiet(struct elab *e, struct pm_ctx *c);
/* Is this resolution in guru mode (-g, or a tapset alias)? */
bool pm_guru(struct elab *e, struct pm_ctx *c);
/* Text of a probe point: "timer.ms(100)". */
const char *pm_point_text(struct elab *e, const struct probe_point *pp);

/* The kernel's function symbols (loaded once), or NULL with *@why. */
const struct ksyms *pm_kernel_syms(struct elab *e, const char **why);
/* Module @mod's, likewise. */
const struct ksyms *pm_module_syms(struct elab *e, const char *mod,
				   const char **why);

/* Make @pt an `end` point of sequence 0 (for probes pass 2 adds itself). */
void pm_set_end(struct elab *e, struct elab_point *pt);

/* Family registration: pm_register_FAMILY() of elaborate/probes/FAMILY.c
 * for each family of families.h. */
#define PM_REGISTER_DECL(f) void pm_register_##f(struct elab *e);
STAP_FAMILIES(PM_REGISTER_DECL)
#undef PM_REGISTER_DECL

#endif
