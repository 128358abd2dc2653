// SPDX-License-Identifier: GPL-2.0-or-later
/* build_parts.c: the runtime's parts and which of them a module calls.
 *
 * runtime.c lists the parts, each an `#if ... defined(STP_PART_NAME)`
 * block of #include lines. Pass 4 compiles a part the first time a module
 * of a kernel tree calls it (doc/build.md), so it has to know which parts
 * a module calls before anything is compiled. It reads the sources: a
 * part is needed when it defines a name that the generated file, the
 * runtime files it includes, or another needed part uses. The reading is
 * a tokenizer, not a parser, and errs on the side of more: a "definition"
 * is a name at file scope in a .c file, outside a static, extern or
 * typedef declaration, followed by `=`, `;`, `[` or `,`, or by `(` and
 * then a function body; a "use" is any name inside braces, after `=` at
 * file scope, or in a #define. A name used only elsewhere (a static
 * initializer without braces, say) is missed; the build then fails to
 * link and links every part (build.c).
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "build_parts.h"
#include "util/arena.h"
#include "util/intern.h"
#include "util/ptrmap.h"
#include "util/strbuf.h"
#include "util/vec.h"

/* the mask of the parts defining a name is kept as a ptrmap value */
_Static_assert(sizeof(uintptr_t) * 8 >= RT_PARTS_MAX, "a parts mask must fit a pointer");

/* What one file defines, uses and includes ("..." only). */
struct scan {
	struct ptrvec defs;	/* interned names */
	struct ptrvec uses;	/* interned names, each once */
	struct ptrvec incs;	/* the included paths, as written */
};

struct reader {
	struct arena *a;
	struct interner *in;
	const char *rt;
	struct ptrmap files;	/* interned path -> struct scan */
};

static bool is_id0(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_id(char c)
{
	return is_id0(c) || (c >= '0' && c <= '9');
}

/* C's words that come before `(`, `;` or `,` at file scope without naming
 * what is defined (a function pointer's type, an attribute). */
static bool is_keyword(const char *s, size_t l)
{
	static const char *const kw[] = {
		"void", "int", "char", "long", "short", "unsigned", "signed", "const",
		"volatile", "struct", "union", "enum", "sizeof", "typeof", "__typeof__",
		"__attribute__", "asm", "__asm__", "inline", "__inline", "bool", "_Bool",
		"float", "double", "register", "restrict", "__restrict",
	};
	size_t i;

	for (i = 0; i < sizeof(kw) / sizeof(kw[0]); i++)
		if (strlen(kw[i]) == l && !strncmp(kw[i], s, l))
			return true;
	return false;
}

static void add_use(struct reader *r, struct ptrmap *seen, struct scan *sc, const char *name)
{
	if (ptrmap_get(seen, name))
		return;
	ptrmap_put(r->a, seen, name, (void *)name);
	vec_push(r->a, &sc->uses, (void *)name);
}

/* A preprocessor line from @p (its '#'): an #include "X" is recorded, the
 * names of a #define are uses. The end of the line (continuations
 * followed). */
static const char *scan_directive(struct reader *r, struct ptrmap *seen, struct scan *sc,
				  const char *p)
{
	const char *end = p, *q;
	bool define;

	for (;;) {
		end += strcspn(end, "\n");
		if (end > p && end[-1] == '\\' && *end) {
			end++;
			continue;
		}
		break;
	}
	q = p + 1 + strspn(p + 1, " \t");
	define = !strncmp(q, "define", 6);
	if (!strncmp(q, "include", 7)) {
		q += 7 + strspn(q + 7, " \t");
		if (*q == '"') {
			const char *e = memchr(q + 1, '"', (size_t)(end - q - 1));

			if (e)
				vec_push(r->a, &sc->incs, arena_strndup(r->a, q + 1, (size_t)(e - q - 1)));
		}
	} else if (define) {
		q += 6;
		while (q < end) {
			if (is_id0(*q)) {
				const char *s = q;

				while (q < end && is_id(*q))
					q++;
				add_use(r, seen, sc, intern_n(r->in, s, (size_t)(q - s)));
			} else {
				q++;
			}
		}
	}
	return end;
}

/* Read @text into @sc (see the top of the file); its definitions only with
 * @defs (a .c file: a header's are declarations and static inlines). */
static void scan_text(struct reader *r, const char *text, bool defs, struct scan *sc)
{
	struct ptrmap seen = { NULL, 0, 0 };
	const char *p = text, *pending = NULL, *func = NULL;
	int brace = 0, paren = 0;
	bool bol = true, skip = false, init = false;

	while (*p) {
		char c = *p;

		if (c == '\n') {
			bol = true;
			p++;
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			p++;
			continue;
		}
		if (c == '#' && bol) {
			p = scan_directive(r, &seen, sc, p);
			continue;
		}
		bol = false;
		if (c == '/' && p[1] == '*') {
			const char *e = strstr(p + 2, "*/");

			p = e ? e + 2 : p + strlen(p);
			continue;
		}
		if (c == '/' && p[1] == '/') {
			p += strcspn(p, "\n");
			continue;
		}
		if (c == '"' || c == '\'') {
			for (p++; *p && *p != c && *p != '\n'; p++)
				if (*p == '\\' && p[1])
					p++;
			if (*p == c)
				p++;
			continue;
		}
		if (is_id0(c)) {
			const char *s = p, *name;
			size_t l;

			while (is_id(*p))
				p++;
			l = (size_t)(p - s);
			name = intern_n(r->in, s, l);
			if (brace > 0 || init) {
				add_use(r, &seen, sc, name);
				continue;
			}
			if ((l == 6 && (!strncmp(s, "static", 6) || !strncmp(s, "extern", 6))) ||
			    (l == 7 && !strncmp(s, "typedef", 7)))
				skip = true;
			pending = skip || paren || is_keyword(s, l) ? NULL : name;
			continue;
		}
		if (c >= '0' && c <= '9') {
			while (is_id(*p) || *p == '.')
				p++;
			continue;
		}
		/* punctuation */
		if (pending && brace == 0 && paren == 0) {
			if (c == '(')
				func = pending;	/* a definition if a body follows */
			else if (defs && (c == '=' || c == ';' || c == '[' || c == ','))
				vec_push(r->a, &sc->defs, (void *)pending);
		}
		pending = NULL;
		switch (c) {
		case '{':
			if (brace == 0 && paren == 0 && func && defs)
				vec_push(r->a, &sc->defs, (void *)func);
			func = NULL;
			brace++;
			break;
		case '}':
			if (brace > 0 && --brace == 0 && paren == 0) {
				/* the end of a function body: a new item */
				skip = init = false;
			}
			break;
		case '(':
		case '[':
			if (brace == 0)
				paren++;
			break;
		case ')':
		case ']':
			if (brace == 0 && paren > 0)
				paren--;
			break;
		case '=':
			if (brace == 0 && paren == 0)
				init = true;
			break;
		case ';':
			if (brace == 0 && paren == 0) {
				skip = init = false;
				func = NULL;	/* a declaration */
			}
			break;
		default:
			break;
		}
		p++;
	}
}

/* The scan of the file @path (read once), or NULL when it cannot be read. */
static struct scan *scan_file(struct reader *r, const char *path)
{
	const char *key = intern(r->in, path);
	struct strbuf text = STRBUF_INIT;
	struct scan *sc = ptrmap_get(&r->files, key);

	if (sc)
		return sc;
	if (sb_read_file(&text, path)) {
		sb_release(&text);
		return NULL;
	}
	sc = arena_new_obj(r->a, struct scan);
	memset(sc, 0, sizeof(*sc));
	scan_text(r, sb_str(&text), strlen(path) > 2 && !strcmp(path + strlen(path) - 2, ".c"),
		  sc);
	sb_release(&text);
	ptrmap_put(r->a, &r->files, key, sc);
	return sc;
}

/* Where #include "@inc" of a file in @dir is found: beside it, else under
 * the runtime (-I); NULL when neither (a kernel header, say). */
static const char *resolve(struct reader *r, const char *dir, const char *inc)
{
	const char *p = arena_printf(r->a, "%s/%s", dir, inc);

	if (access(p, R_OK) == 0)
		return p;
	p = arena_printf(r->a, "%s/%s", r->rt, inc);
	return access(p, R_OK) == 0 ? p : NULL;
}

static const char *dir_of(struct reader *r, const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? arena_strndup(r->a, path, (size_t)(s - path)) : ".";
}

/* Add @sc and the files it includes (each once: @done) to @out. */
static void closure(struct reader *r, struct scan *sc, const char *dir, struct ptrmap *done,
		    struct ptrvec *out)
{
	size_t i;

	if (ptrmap_get(done, sc))
		return;
	ptrmap_put(r->a, done, sc, sc);
	vec_push(r->a, out, sc);
	for (i = 0; i < sc->incs.n; i++) {
		const char *path = resolve(r, dir, sc->incs.v[i]);
		struct scan *inc = path ? scan_file(r, path) : NULL;

		if (inc)
			closure(r, inc, dir_of(r, path), done, out);
	}
}

int rt_parts(struct arena *a, const char *rt, const char *c_text, const char ***parts,
	     uint64_t *needed)
{
	static const char tok[] = "defined(STP_PART_";
	struct reader r = { a, intern_new(a), rt, { NULL, 0, 0 } };
	struct ptrvec files[RT_PARTS_MAX], work = { NULL, 0, 0 };
	struct ptrmap defs = { NULL, 0, 0 }, done = { NULL, 0, 0 };
	struct strbuf src = STRBUF_INIT;
	struct scan gen;
	const char *line, **v = NULL;
	size_t cap = 0, i, j;
	uint64_t need = 0;
	int n = 0, cur = -1, k, depth = 0, part_depth = -1;

	*needed = 0;
	if (sb_read_file(&src, arena_printf(a, "%s/runtime.c", rt))) {
		sb_release(&src);
		*parts = NULL;
		return 0;
	}
	for (line = sb_str(&src); *line; line += strcspn(line, "\n"), line += *line == '\n') {
		const char *p = strstr(line, tok), *nl = line + strcspn(line, "\n");

		if (!strncmp(line, "#if", 3))
			depth++;
		if (!strncmp(line, "#if", 3) && p && p < nl && n < RT_PARTS_MAX) {
			size_t l;

			p += sizeof(tok) - 1;
			l = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
			if (!l || p[l] != ')')
				continue;
			v = arena_grow(a, v, (size_t)n, &cap, sizeof(*v));
			v[n] = arena_printf(a, "%.*s", (int)l, p);
			memset(&files[n], 0, sizeof(files[n]));
			cur = n++;
			part_depth = depth;
		} else if (!strncmp(line, "#endif", 6)) {
			if (depth == part_depth)
				cur = -1;
			depth--;
		} else if (cur >= 0 && !strncmp(line, "#include \"", 10)) {
			const char *q = line + 10, *e = memchr(q, '"', (size_t)(nl - q));
			const char *path = e ? resolve(&r, rt, arena_strndup(a, q, (size_t)(e - q)))
					     : NULL;
			struct scan *sc = path ? scan_file(&r, path) : NULL;
			struct ptrmap seen = { NULL, 0, 0 };

			if (sc)
				closure(&r, sc, dir_of(&r, path), &seen, &files[cur]);
		}
	}
	sb_release(&src);
	*parts = v;
	if (!c_text) {
		*needed = n >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1;
		return n;
	}
	/* which parts define each name */
	for (k = 0; k < n; k++)
		for (i = 0; i < files[k].n; i++) {
			struct scan *sc = files[k].v[i];

			for (j = 0; j < sc->defs.n; j++) {
				uintptr_t m = (uintptr_t)ptrmap_get(&defs, sc->defs.v[j]);

				ptrmap_put(a, &defs, sc->defs.v[j],
					   (void *)(m | ((uintptr_t)1 << k)));
			}
		}
	/* from the generated file (and what it includes) over the parts */
	memset(&gen, 0, sizeof(gen));
	scan_text(&r, c_text, false, &gen);
	closure(&r, &gen, rt, &done, &work);
	for (k = 0; k < n; k++)
		if (!strcmp(v[k], "core")) {
			need |= (uint64_t)1 << k;
			vec_append(a, &work, &files[k]);
		}
	for (i = 0; i < work.n; i++) {
		struct scan *sc = work.v[i];

		for (j = 0; j < sc->uses.n; j++) {
			uint64_t m = (uintptr_t)ptrmap_get(&defs, sc->uses.v[j]) & ~need;

			for (k = 0; m && k < n; k++)
				if (m & ((uint64_t)1 << k)) {
					need |= (uint64_t)1 << k;
					m &= ~((uint64_t)1 << k);
					vec_append(a, &work, &files[k]);
				}
		}
	}
	*needed = need;
	return n;
}
