// SPDX-License-Identifier: GPL-2.0-or-later
/* probe_tables.c: the handler (struct stp_probe stp_ppN) of every point,
 * each mechanism's table of its points (translate/probes/, in the order
 * of families.h), and the module descriptor stp_module that names them. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "elaborate/probe_match.h"
#include "session.h"
#include "translate/probes/probes.h"
#include "translate/usyms.h"
#include "util/arena.h"
#include "util/strbuf.h"

/* The symbols the module finds in loaded kernel modules at run time
 * (static variables of modules are addressed from them). */
static void kmod_table(struct xl *x, struct strbuf *out, struct strbuf *desc)
{
	size_t i;

	if (!x->r->kmod_anchors.n)
		return;
	sb_adds(out, "static struct stp_kmod stp_kmods[] = {\n");
	for (i = 0; i < x->r->kmod_anchors.n; i++) {
		const struct kmod_anchor *k = x->r->kmod_anchors.v[i];

		sb_addf(out, "\t{ %s, %s },\n", c_string(x->a, k->module, strlen(k->module)),
			c_string(x->a, k->symbol, strlen(k->symbol)));
	}
	sb_adds(out, "};\n\n");
	sb_addf(desc, "\t.kmods = stp_kmods,\n\t.nkmods = %zu,\n", x->r->kmod_anchors.n);
}

static const struct xl_mech *const mechs[MECH_COUNT] = {
#define XL_MECH_ENTRY(m) [MECH_##m] = &xl_mech_##m,
	STAP_MECHANISMS(XL_MECH_ENTRY)
#undef XL_MECH_ENTRY
};

const char *xl_point_ref(struct xl *x, const struct elab_point *pt)
{
	const char *r = ptrmap_get(&x->pp_of, pt);

	return r ? r : "NULL";
}

bool xl_point_optional(const struct elab_point *pt)
{
	return pt->marks && strchr(pt->marks, '?');
}

void xl_family_use(struct xl_tables *t, const char *family, const char *table,
		   size_t n, bool modules)
{
	sb_addf(t->uses, "\t{ &%s, %s, %zu, %s },\n", family, table, n,
		modules ? "true" : "false");
}

void xl_runtime_includes(struct xl *x, FILE *out)
{
	int m, k = 0;

	for (m = 0; m < MECH_COUNT; m++) {
		if (!x->mech_used[m] || !mechs[m] || !mechs[m]->runtime)
			continue;
		/* as runtime.h does: not every module calls every helper */
		if (!k++)
			fputs("#pragma GCC diagnostic push\n"
			      "#pragma GCC diagnostic ignored \"-Wunused-function\"\n", out);
		fprintf(out, "#include \"%s\"\n", mechs[m]->runtime);
	}
	if (k)
		fputs("#pragma GCC diagnostic pop\n", out);
}

/* The enum stp_probe_type constant of probe_type()'s name of the
 * low-level handler of @pt (runtime/linux/session.h), with the names the
 * reference gives the kinds it has (as it reports them in the VM: runok
 * funcs_ctx_pure and funcs_ctx_kprobe). Ours run timer.profile on an
 * hrtimer and system-call probes on tracepoints, and say so. */
static const char *probe_type(const struct elab_point *pt)
{
	static const struct {
		enum probe_mech mech;
		const char *type, *ret_type;
	} types[] = {
		{ MECH_seq, "STP_PT_BEGIN_END", NULL },
		{ MECH_procfs, "STP_PT_PROCFS", NULL },
		{ MECH_timer, "STP_PT_HRTIMER", NULL },	/* timer.jiffies: "timer" */
		{ MECH_kprobe, "STP_PT_KPROBE", "STP_PT_KRETPROBE" },
		{ MECH_uprobe, "STP_PT_UPROBE", "STP_PT_URETPROBE" },
		{ MECH_tracepoint, "STP_PT_KERNEL_TRACEPOINT", NULL },
		{ MECH_hwbkpt, "STP_PT_HWBKPT", NULL },
		{ MECH_syscall, "STP_PT_KERNEL_TRACEPOINT", NULL },
		{ MECH_netfilter, "STP_PT_NETFILTER", NULL },
		{ MECH_proclife, "STP_PT_UTRACE", NULL },
		{ MECH_perf, "STP_PT_PERF_EVENT", NULL },
	};
	size_t i;
	size_t n = strlen(pt->name);

	if (!pt->family)
		return "STP_PT_UNKNOWN";
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		if (types[i].mech != pt->family->mech)
			continue;
		if (types[i].ret_type && n > 7 && !strcmp(pt->name + n - 7, ".return"))
			return types[i].ret_type;
		if (types[i].mech == MECH_timer && !strncmp(pt->name, "timer.jiffies", 13))
			return "STP_PT_TIMER";
		return types[i].type;
	}
	return "STP_PT_UNKNOWN";
}

/* The handler of every point of every live probe; @bodies[i]: the C name
 * of probe i's body, @conds: of each point's condition (by index over all
 * points of all live probes, in order). They are one array, stp_pps[]
 * (one symbol, not one a point), and stp_ppN names its element N. */
static size_t point_handlers(struct xl *x, const char **bodies, const char **conds,
			     struct xl_point *refs, struct strbuf *out)
{
	struct strbuf names = STRBUF_INIT;
	size_t i, j, id = 0;

	for (i = 0; i < x->r->probes.n; i++) {
		struct elab_probe *p = x->r->probes.v[i];
		unsigned nlocks;
		const char *locks;

		if (p->elided)
			continue;
		locks = xl_locks(x, p, &nlocks);
		for (j = 0; j < p->points.n; j++, id++) {
			const struct elab_point *pt = p->points.v[j];
			const struct pm_family *f = pt->family;

			if (f && f->mech == MECH_NONE && f->unsupported)
				xl_error(x, &pt->loc, NULL, "%s: %s", f->unsupported, pt->name);
			refs[id].pt = pt;
			refs[id].id = id;
			ptrmap_put(x->a, &x->pp_of, pt, arena_printf(x->a, "stp_pp%zu", id));
			if (!id)
				sb_adds(out, "static const struct stp_probe stp_pps[] = {\n");
			sb_addf(&names, "#define stp_pp%zu (stp_pps[%zu])\n", id, id);
			sb_addf(out, "[%zu] = {\n"
				"\t.pp = %s,\n\t.pn = %s,\n\t.type = %s,\n"
				"\t.body = %s,\n\t.cond = %s,\n"
				"\t.locks = %s,\n\t.nlocks = %u,\n"
				"\t.frame_size = offsetof(struct stp_probe%zu_frame, __vars_end),\n%s},\n",
				id, c_string(x->a, pt->name, strlen(pt->name)),
				/* pn() is pp() unless the script named it otherwise */
				pt->listed && strcmp(pt->listed, pt->name) ?
				c_string(x->a, pt->listed, strlen(pt->listed)) : "NULL",
				probe_type(pt), bodies[i],
				conds[id] ? conds[id] : "NULL", locks, nlocks, i,
				x->s->monitor ? arena_printf(x->a, "\t.mon = &stp_pmon[%zu],\n", id) : "");
		}
	}
	if (id)
		sb_addf(out, "};\n\n%s\n", sb_str(&names));
	sb_release(&names);
	return id;
}

/* Each mechanism's table of its points, in the order of families.h. */
static void mech_tables(struct xl *x, const struct xl_point *refs, size_t n,
			struct xl_tables *t)
{
	struct xl_point *v = calloc(n + 1, sizeof(*v));
	size_t i, k;
	int m;

	if (!v)
		abort();
	for (m = 0; m < MECH_COUNT; m++) {
		if (!mechs[m])
			continue;
		for (i = 0, k = 0; i < n; i++)
			if (refs[i].pt->family && (int)refs[i].pt->family->mech == m)
				v[k++] = refs[i];
		if (!k)
			continue;
		x->mech_used[m] = true;
		mechs[m]->emit(x, v, k, t);
	}
	free(v);
}

/* stap --monitor: the probes in index order and the globals, for
 * runtime/linux/monitor.c. */
static void monitor_table(struct xl *x, size_t n, struct strbuf *out, struct strbuf *desc)
{
	size_t i;

	sb_adds(out, "static const struct stp_probe *const stp_mon_probes[] = {\n");
	for (i = 0; i < n; i++)
		sb_addf(out, "\t&stp_pp%zu,\n", i);
	sb_adds(out, "\tNULL\n};\n\n");
	sb_addf(out, "static const struct stp_mon_global stp_mon_globals[] = {\n%s"
		"\t{ NULL }\n};\n\n", xl_monitor_globals(x));
	sb_addf(out, "static const struct stp_monitor_desc stp_monitor = {\n"
		"\t.probes = stp_mon_probes,\n\t.mons = stp_pmon,\n\t.nprobes = %zu,\n"
		"\t.globals = stp_mon_globals,\n"
		"\t.nglobals = ARRAY_SIZE(stp_mon_globals) - 1,\n"
		"\t.init = stp_monitor_init,\n\t.free = stp_monitor_free,\n};\n\n", n);
	sb_adds(desc, "\t.monitor = &stp_monitor,\n");
}

void xl_probe_tables(struct xl *x, const char **bodies, const char **conds)
{
	struct strbuf out = STRBUF_INIT, desc = STRBUF_INIT, uses = STRBUF_INIT;
	struct xl_tables t = { &out, &desc, &uses };
	struct xl_point *refs;
	size_t i, n = 0;

	for (i = 0; i < x->r->probes.n; i++) {
		struct elab_probe *p = x->r->probes.v[i];

		if (!p->elided)
			n += p->points.n;
	}
	refs = calloc(n + 1, sizeof(*refs));
	if (!refs)
		abort();
	if (x->s->monitor)
		sb_addf(&out, "static struct stp_probe_mon stp_pmon[%zu];\n\n", n + 1);
	n = point_handlers(x, bodies, conds, refs, &out);
	if (x->s->monitor)
		monitor_table(x, n, &out, &desc);
	if (x->usym) {		/* started first: before any probe can hit */
		struct ptrvec pts = { 0 };
		size_t j;

		/* elided probes too: their programs are the script's */
		for (i = 0; i < x->r->probes.n; i++) {
			const struct elab_probe *p = x->r->probes.v[i];

			for (j = 0; j < p->points.n; j++)
				vec_push(x->a, &pts, p->points.v[j]);
		}
		xl_usym_tables(x->s, x->a, &pts, x->usym_lines, &out, &uses);
	}
	mech_tables(x, refs, n, &t);
	kmod_table(x, &out, &desc);
	free(refs);
	if (uses.len) {
		sb_addf(&out, "static const struct stp_family_use stp_families[] = {\n%s};\n\n",
			sb_str(&uses));
		sb_adds(&desc, "\t.families = stp_families,\n"
			"\t.nfamilies = ARRAY_SIZE(stp_families),\n");
	}
	if (x->re_caps)
		sb_adds(&desc, "\t.re_caps_size = sizeof(struct stp_re_cap_work),\n");
	if (n)
		sb_adds(&desc, "\t.probes = stp_pps,\n");
	sb_addf(&out, "const struct stp_module_desc stp_module = {\n"
		"\t.name = %s,\n\t.frame_size = sizeof(union stp_frames),\n"
		"\t.globals_init = stp_globals_init,\n\t.globals_free = stp_globals_free,\n%s};\n",
		c_string(x->a, x->modname, strlen(x->modname)), sb_str(&desc));
	sb_addn(x->cur, out.buf, out.len);
	sb_release(&out);
	sb_release(&desc);
	sb_release(&uses);
}
