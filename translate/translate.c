// SPDX-License-Identifier: GPL-2.0-or-later
/* translate.c: pass 3's driver. The module source is, in order: the
 * limits from -D, runtime.h, the script's and tapsets' top-level embedded
 * C, then (collected while translating) globals, location strings, format
 * tables, frame structs and prototypes, then one C function per script
 * function and per probe body, then the probe tables and the module
 * descriptor the runtime starts from. */
#include <string.h>

#include "session.h"
#include "translate/translate.h"
#include "translate/xl.h"
#include "util/arena.h"
#include "util/intern.h"
#include "util/strbuf.h"

static const char *c_type(enum stap_type t)
{
	return t == TYPE_STRING ? "char %s[MAXSTRINGLEN];" : "s64 %s;";
}

/* The frame struct of a body: its variables and string temporaries. */
/* The struct of a frame's locals, into @sb. */
static void frame_struct_text(struct xl *x, const char *name, struct ptrvec *vars,
			      enum stap_type ret, bool embedded, struct strbuf *sb_out)
{
	struct strbuf sb = *sb_out;
	size_t i;
	int k;

	sb_addf(&sb, "struct %s {\n", name);
	for (i = 0; i < vars->n; i++) {
		const struct elab_var *v = vars->v[i];
		const char *field = embedded ? v->name : arena_printf(x->a, "v_%s", v->name);

		sb_adds(&sb, "\t");
		sb_addf(&sb, c_type(v->type), field);
		sb_adds(&sb, "\n");
	}
	/* what a hit or a call must zero ends here: temporaries and the
	 * return value need no clearing (a string one gets its [0] only) */
	sb_adds(&sb, "\tchar __vars_end[0];\n");
	if (ret == TYPE_LONG || ret == TYPE_STRING) {
		sb_adds(&sb, "\t");
		sb_addf(&sb, c_type(ret), "__retvalue");
		sb_adds(&sb, "\n");
	}
	for (k = 0; k < x->maxstr; k++)
		sb_addf(&sb, "\tchar __s%d[MAXSTRINGLEN];\n", k);
	sb_adds(&sb, "\tchar __unused;\n};");
	*sb_out = sb;
}

static void frame_struct(struct xl *x, const char *name, struct ptrvec *vars,
			 enum stap_type ret, bool embedded)
{
	struct strbuf sb = STRBUF_INIT;

	frame_struct_text(x, name, vars, ret, embedded, &sb);
	em_head(x, "%s", sb_str(&sb));
	sb_release(&sb);
}

static void begin_body(struct xl *x, struct xl_fn *fn, struct strbuf *body)
{
	x->fn = fn;
	x->cur = body;
	x->indent = 1;
	x->nlong = 0;
	x->nstr = 0;
	x->maxstr = 0;
	x->err_label = "out";
	x->cont_label = NULL;
}

/* Write the function around the translated @body. */
static void finish_body(struct xl *x, struct strbuf *out, const char *cname,
			const char *frame, struct strbuf *body)
{
	int i;

	sb_addf(out, "static void %s(struct stp_context *c)\n{\n", cname);
	sb_addf(out, "\tstruct %s *l = stp_frame(c);\n", frame);
	if (x->nlong) {
		sb_adds(out, "\ts64");
		for (i = 0; i < x->nlong; i++)
			sb_addf(out, "%s t%d", i ? "," : "", i);
		sb_adds(out, ";\n");
	}
	sb_adds(out, "\n\t(void)l;\n");
	sb_addn(out, body->buf, body->len);
	sb_adds(out, "out: __attribute__((unused));\n\t;\n}\n\n");
}

static void embedded_function(struct xl *x, struct elab_func *f, struct strbuf *out)
{
	const char *cname = xl_func_name(x, f), *frame = xl_frame_name_of(x, f);
	bool str = f->ret == TYPE_STRING;
	struct xl_fn fn = { frame, f, NULL, true };
	int i;

	x->fn = &fn;
	x->maxstr = 0;
	frame_struct(x, frame, &f->locals, f->ret, true);
	/* a script's own C (guru mode) may leave variables unused, as the
	 * reference's build allows; the library's is held to -Werror */
	if (!f->tapset)
		sb_adds(out, "#pragma GCC diagnostic push\n"
			"#pragma GCC diagnostic ignored \"-Wunused-variable\"\n"
			"#pragma GCC diagnostic ignored \"-Wunused-but-set-variable\"\n");
	sb_addf(out, "/* function %s (%s:%u), embedded C */\n", f->name,
		f->decl->loc.src ? f->decl->loc.src->name : "?", f->decl->loc.line);
	sb_addf(out, "static void %s(struct stp_context *c)\n{\n", cname);
	sb_addf(out, "\tstruct %s *l = stp_frame(c);\n\n\t(void)l;\n", frame);
	sb_adds(out, "#define THIS l\n#define CONTEXT c\n");
	for (i = 0; i < f->arity; i++)
		sb_addf(out, "#define STAP_ARG_%s (l->%s)\n", f->params[i]->name,
			f->params[i]->name);
	if (f->ret == TYPE_LONG || str) {
		sb_adds(out, "#define STAP_RETVALUE (l->__retvalue)\n");
		sb_addf(out, "#define STAP_RETURN(v) do { %s; goto out; } while (0)\n",
			str ? "stp_strcpy(l->__retvalue, (v))" : "l->__retvalue = (v)");
	} else {
		sb_adds(out, "#define STAP_RETURN() goto out\n");
	}
	/* an error of the function's C is reported at the function, as the
	 * reference does: "... near identifier 'kernel_string' at FILE:L:C" */
	sb_addf(out, "#define STAP_ERROR(...) do { stp_errorf(c, %s, __VA_ARGS__); goto out; } while (0)\n",
		xl_loc_at(x, f, arena_printf(x->a, "identifier '%s'", f->name), &f->decl->loc));
	sb_adds(out, "#define STAP_PRINTF(...) stp_cprintf(c, __VA_ARGS__)\n");
	sb_addf(out, "\t{\n%s\n\t}\n", f->decl->func.code);
	sb_adds(out, "\tgoto out;\nout: __attribute__((unused));\n\t;\n");
	sb_adds(out, "#undef THIS\n#undef CONTEXT\n#undef STAP_RETURN\n#undef STAP_ERROR\n#undef STAP_PRINTF\n");
	if (f->ret == TYPE_LONG || str)
		sb_adds(out, "#undef STAP_RETVALUE\n");
	for (i = 0; i < f->arity; i++)
		sb_addf(out, "#undef STAP_ARG_%s\n", f->params[i]->name);
	sb_adds(out, "}\n\n");
	if (!f->tapset)
		sb_adds(out, "#pragma GCC diagnostic pop\n\n");
}

static void script_function(struct xl *x, struct elab_func *f, struct strbuf *out)
{
	const char *frame = xl_frame_name_of(x, f);
	struct xl_fn fn = { frame, f, NULL, false };
	struct strbuf body = STRBUF_INIT;

	begin_body(x, &fn, &body);
	xl_stmt(x, f->decl->func.body);
	frame_struct(x, frame, &f->locals, f->ret, false);
	sb_addf(out, "/* function %s (%s:%u) */\n", f->name,
		f->decl->loc.src ? f->decl->loc.src->name : "?", f->decl->loc.line);
	finish_body(x, out, xl_func_name(x, f), frame, &body);
	sb_release(&body);
}

/* A probe body; returns its C name. */
/* @text with each @name not followed by a digit replaced by '@', into @out. */
static void without_name(const char *text, const char *name, struct strbuf *out)
{
	size_t n = strlen(name);
	const char *p;

	while ((p = strstr(text, name))) {
		sb_addn(out, text, (size_t)(p - text));
		if (p[n] >= '0' && p[n] <= '9')
			sb_addn(out, p, n);
		else
			sb_adds(out, "@");
		text = p + n;
	}
	sb_adds(out, text);
}

/* Probe @i's body as a C function; the C name of an earlier body when its
 * code is the same but for the names (the points of a wildcard whose body
 * reads no $variable compile to one function). */
static const char *probe_body(struct xl *x, struct elab_probe *p, size_t i,
			      struct strbuf *out)
{
	const char *cname = arena_printf(x->a, "stp_probe%zu", i);
	const char *frame = arena_printf(x->a, "stp_probe%zu_frame", i);
	struct xl_fn fn = { frame, NULL, p, false };
	struct strbuf body = STRBUF_INIT, fnc = STRBUF_INIT, st = STRBUF_INIT;
	struct strbuf key = STRBUF_INIT;
	const struct elab_point *pt = p->points.v[0];
	const char *k, *same;

	begin_body(x, &fn, &body);
	xl_stmt(x, p->body);
	frame_struct_text(x, frame, &p->locals, TYPE_UNKNOWN, false, &st);
	em_head(x, "%s", sb_str(&st));
	finish_body(x, &fnc, cname, frame, &body);
	without_name(sb_str(&st), cname, &key);
	without_name(sb_str(&fnc), cname, &key);
	k = intern(x->r->in, sb_str(&key));
	same = ptrmap_get(&x->body_of, k);
	if (same) {
		cname = same;
	} else {
		sb_addf(out, "/* probe %s%s (%s:%u) */\n", pt->name,
			p->points.n > 1 ? ", ..." : "",
			p->decl && p->decl->loc.src ? p->decl->loc.src->name : "?",
			p->decl ? p->decl->loc.line : 0);
		sb_addn(out, fnc.buf, fnc.len);
		ptrmap_put(x->a, &x->body_of, k, (void *)cname);
	}
	sb_release(&key);
	sb_release(&st);
	sb_release(&fnc);
	sb_release(&body);
	return cname;
}

/* The if() of a point: a function over the probe's frame. */
static const char *cond_fn(struct xl *x, struct elab_probe *p, size_t body,
			   const struct elab_point *pt, size_t id, struct strbuf *out)
{
	const char *cname = arena_printf(x->a, "stp_cond%zu", id);
	const char *frame = arena_printf(x->a, "stp_probe%zu_frame", body);
	struct xl_fn fn = { frame, NULL, p, false };
	struct strbuf b = STRBUF_INIT;
	const char *v;
	int i;

	begin_body(x, &fn, &b);
	v = xl_cond(x, pt->cond);
	sb_addf(out, "static bool %s(struct stp_context *c)\n{\n", cname);
	sb_addf(out, "\tstruct %s *l = stp_frame(c);\n", frame);
	for (i = 0; i < x->nlong; i++)
		sb_addf(out, "\ts64 t%d;\n", i);
	sb_adds(out, "\n\t(void)l;\n");
	sb_addn(out, b.buf, b.len);
	sb_addf(out, "\treturn %s;\nout: __attribute__((unused));\n\treturn false;\n}\n\n", v);
	sb_release(&b);
	return cname;
}

/* What scripts' embedded C may test, as with the reference: the version
 * the script is written for (--compatible, else the one we emulate) as
 * STAP_COMPAT_VERSION, compared with STAP_VERSION(MAJOR, MINOR); and the
 * kernel's LINUX_VERSION_CODE (runtime.h includes <linux/version.h>). */
static void compat_defines(const struct session *s, FILE *out)
{
	const char *v = s->compatible ? s->compatible : STAP_COMPAT_VERSION;
	unsigned int major = 0, minor = 0;

	if (sscanf(v, "%u.%u", &major, &minor) < 1)
		major = minor = 0;
	fprintf(out, "#define STAP_VERSION(a, b) (((a) << 8) + (b))\n"
		"#define STAP_COMPAT_VERSION STAP_VERSION(%u, %u)\n", major, minor);
}

void translate_defines(const struct session *s, struct strbuf *out)
{
	int i;

	for (i = 0; i < s->defines.n; i++) {
		const char *d = s->defines.v[i], *eq = strchr(d, '=');

		if (eq)
			sb_addf(out, "#define %.*s %s\n", (int)(eq - d), d, eq + 1);
		else
			sb_addf(out, "#define %s 1\n", d);
	}
}

static void preamble(struct xl *x, FILE *out)
{
	struct strbuf defs = STRBUF_INIT;

	fprintf(out, "/* Generated by stap %s from %s: module %s. */\n", STAP_VERSION,
		x->s->script_name ? x->s->script_name : "<input>", x->modname);
	translate_defines(x->s, &defs);
	fputs(sb_str(&defs), out);
	sb_release(&defs);
	compat_defines(x->s, out);
	if (x->re_caps)	/* the work of the script's largest =~ with groups */
		fprintf(out, "#define STP_RE_CAP_INSTS %zu\n"
			"#define STP_RE_CAP_SLOTS %zu\n", x->re_max_insts ? x->re_max_insts : 1,
			x->re_max_slots ? x->re_max_slots : 2);
	fputs("#include \"runtime.h\"\n", out);
	/* after runtime.h, which is precompiled without the feature tests'
	 * results (doc/build.md) */
	fputs("#include \"embedded_compat.h\"\n", out);
	if (x->re_caps)
		fputs("#include \"regex_caps.c\"\n", out);
	xl_runtime_includes(x, out);
	if (x->usym)	/* not every script calls every helper */
		fputs("#pragma GCC diagnostic push\n"
		      "#pragma GCC diagnostic ignored \"-Wunused-function\"\n"
		      "#include \"linux/usym.c\"\n"
		      "#pragma GCC diagnostic pop\n", out);
	fputc('\n', out);
}

int translate(const struct elab_result *r, const struct session *s, const char *modname,
	      FILE *out)
{
	struct xl x;
	struct strbuf code = STRBUF_INIT, tail = STRBUF_INIT, frames = STRBUF_INIT;
	const char **bodies, **conds;
	size_t i, j, id = 0, npoints = 0;

	memset(&x, 0, sizeof(x));
	x.r = r;
	x.s = s;
	x.a = r->a;
	x.modname = modname;
	xl_globals(&x);
	if (r->sc_names)	/* syscall_num() without system-call probes */
		xl_syscall_names(&x, r->sc_names, r->sc_nnames);
	for (i = 0; i < r->func_list.n; i++) {
		const struct elab_func *f = r->func_list.v[i];

		const char *src = f->file ? f->file->name : NULL;
		size_t len = src ? strlen(src) : 0;

		if (f->used && f->tapset && (!strcmp(f->name, "matched") ||
					     !strcmp(f->name, "matched_str") ||
					     !strcmp(f->name, "ngroups")))
			x.re_caps = true;
		if (f->used && f->tapset && len >= 9 && !strcmp(src + len - 9, "/usym.stp")) {
			x.usym = true;
			if (strstr(f->name, "file") || strstr(f->name, "line"))
				x.usym_lines = true;	/* usymfile, _fileline ... */
		}
	}
	sb_adds(&frames, "union stp_frames {\n");
	for (i = 0; i < r->func_list.n; i++) {
		struct elab_func *f = r->func_list.v[i];

		if (f->used)
			em_head(&x, "static void %s(struct stp_context *c);", xl_func_name(&x, f));
	}
	for (i = 0; i < r->func_list.n; i++) {
		struct elab_func *f = r->func_list.v[i];

		if (!f->used)
			continue;
		if (f->decl->func.code)
			embedded_function(&x, f, &code);
		else
			script_function(&x, f, &code);
		sb_addf(&frames, "\tstruct %s %s;\n", xl_frame_name_of(&x, f), xl_func_name(&x, f));
	}
	bodies = arena_alloc(x.a, sizeof(*bodies) * (r->probes.n + 1));
	for (i = 0; i < r->probes.n; i++) {
		struct elab_probe *p = r->probes.v[i];

		if (!p->elided) {
			npoints += p->points.n;
			bodies[i] = probe_body(&x, p, i, &code);
			sb_addf(&frames, "\tstruct stp_probe%zu_frame p%zu;\n", i, i);
		}
	}
	conds = arena_alloc(x.a, sizeof(*conds) * (npoints + 1));
	for (i = 0; i < r->probes.n; i++) {
		struct elab_probe *p = r->probes.v[i];

		if (p->elided)
			continue;
		for (j = 0; j < p->points.n; j++, id++) {
			const struct elab_point *pt = p->points.v[j];

			conds[id] = pt->cond ? cond_fn(&x, p, i, pt, id, &code) : NULL;
		}
	}
	sb_adds(&frames, "\tchar none;\n};\n");
	em_head(&x, "%s", sb_str(&frames));
	x.cur = &tail;
	xl_probe_tables(&x, bodies, conds);
	if (x.errors) {
		sb_release(&code);
		sb_release(&tail);
		sb_release(&frames);
		sb_release(&x.head);
		return -1;
	}
	preamble(&x, out);
	for (i = 0; i < r->embeds.n; i++) {
		const struct decl *d = r->embeds.v[i];

		bool lib = d->loc.src && d->loc.src->library;

		/* A library file's helpers serve all its functions; a script
		 * uses some of them. */
		fprintf(out, "/* embedded C from %s:%u */\n%s%s\n%s\n",
			d->loc.src ? d->loc.src->name : "?", d->loc.line,
			lib ? "#pragma GCC diagnostic push\n"
			      "#pragma GCC diagnostic ignored \"-Wunused-function\"\n" : "",
			d->code, lib ? "#pragma GCC diagnostic pop\n" : "");
	}
	if (r->dw_printer_code.n)
		fputs("/* the printers of $var$ and $var$$, one per type (pass 2) */\n", out);
	for (i = 0; i < r->dw_printer_code.n; i++)
		fputs(r->dw_printer_code.v[i], out);
	fputs(sb_str(&x.head), out);
	fputc('\n', out);
	fputs(sb_str(&code), out);
	fputs(sb_str(&tail), out);
	sb_release(&code);
	sb_release(&tail);
	sb_release(&frames);
	sb_release(&x.head);
	return ferror(out) ? -1 : 0;
}
