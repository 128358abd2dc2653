// SPDX-License-Identifier: GPL-2.0-or-later
/* procfs.c: the procfs family: files under /proc/systemtap/MODULE/ whose
 * .read probes set $value (the file's content) and whose .write probes
 * receive what was written in $value; .maxsize(N) sizes the read buffer,
 * .umask(N) the file mode. */
#include "elaborate/probes/points.h"

#include <string.h>

#include "util/arena.h"
#include "util/intern.h"

static int derive(struct elab *e, struct pm_ctx *c, const struct probe_point *pp);

static const struct pm_family procfs_read_family = {
	.name = "procfs", .derive = derive, .mech = MECH_procfs, .procfs = true,
};
static const struct pm_family procfs_write_family = {
	.name = "procfs", .derive = derive, .mech = MECH_procfs, .procfs = true,
	.procfs_write = true,
};

/* Why @path cannot name a file under /proc/systemtap/MODULE, or NULL. */
static const char *bad_path(const char *path)
{
	const char *p = path;

	if (!*path)
		return "procfs path cannot be empty";
	if (*path == '/')
		return "procfs path cannot start with a '/'";
	if (path[strlen(path) - 1] == '/')
		return "procfs path cannot end with a '/'";
	while (*p) {
		size_t len = strcspn(p, "/");

		if (!len)
			return "procfs path component cannot be empty";
		if ((len == 1 && p[0] == '.') ||
		    (len == 2 && p[0] == '.' && p[1] == '.'))
			return "procfs path cannot be relative (and contain '.' or '..')";
		p += len;
		if (*p == '/')
			p++;
	}
	return NULL;
}

static int derive(struct elab *e, struct pm_ctx *c, const struct probe_point *pp)
{
	const struct pp_component *c0 = pp->comps.v[0];
	const struct expr *maxsize = pm_param_of(pp, "maxsize");
	const struct expr *umask = pm_param_of(pp, "umask");
	struct elab_point *pt = pm_point(e, c, pp);
	struct procfs_point *d = arena_new_obj(e->a, struct procfs_point);
	const char *why;

	d->write = pm_has(pp, "write");
	pt->family = d->write ? &procfs_write_family : &procfs_read_family;
	pt->data = d;
	d->path = c0->param ? c0->param->str.s : "command";
	if (c0->param && (strlen(d->path) != c0->param->str.len ||
			  (why = bad_path(d->path)))) {
		if (strlen(d->path) != c0->param->str.len)
			why = "procfs path cannot contain a NUL character";
		pm_error(e, c, &c0->param->loc, elab_token(e, c0->param), "%s", why);
		return -1;
	}
	if (maxsize && maxsize->num <= 0) {
		pm_error(e, c, &maxsize->loc, elab_token(e, maxsize),
			 "maxsize must be greater than 0");
		return -1;
	}
	if (!d->write) {
		const char *key = intern(e->in, d->path);

		if (ptrmap_get(&e->procfs_reads, key)) {
			pm_error(e, c, &c0->loc, "identifier 'procfs'",
				 "only one read procfs probe can exist for procfs "
				 "path \"%s\"", d->path);
			return -1;
		}
		ptrmap_put(e->a, &e->procfs_reads, key, pt);
	}
	d->maxsize = maxsize ? maxsize->num : 0;
	d->umask = umask ? umask->num : -1;
	pm_emit(e, c, pt);
	return 1;
}

void pm_register_procfs(struct elab *e)
{
	static const char *const tails[] = {
		"read", "read.maxsize(n)", "umask(n).read",
		"umask(n).read.maxsize(n)", "umask(n).write", "write",
	};
	size_t i;

	for (i = 0; i < sizeof(tails) / sizeof(tails[0]); i++) {
		const struct pm_family *f = strstr(tails[i], "write") ?
					    &procfs_write_family : &procfs_read_family;

		pm_register(e, arena_printf(e->a, "procfs.%s", tails[i]), f);
		pm_register(e, arena_printf(e->a, "procfs(s).%s", tails[i]), f);
	}
}
