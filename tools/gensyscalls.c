// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gensyscalls.c: writes the system-call tapset (syscall.NAME[.return] and
 * nd_syscall.NAME[.return] aliases) from the one table of calls,
 * tapset/syscalls.tbl. The table's syntax is documented at its top and in
 * doc/tapset-syscalls.md.
 *
 * Usage: gensyscalls TABLE > tapset/syscalls.stp
 *        gensyscalls --man TABLE > tapset::syscalls.3stap
 *
 * Errors name the table line and stop with status 1: a table that does
 * not parse never yields a half-written tapset.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ITEMS	32
#define MAX_CALLS	16
#define LINE_MAX_LEN	4096

/* One variable of an alias, or one piece of its argstr. */
struct item {
	char var[64];
	char expr[512];		/* the variable's value (stap) */
	char var2[64];		/* a second variable (NAME_str, NAME_unquoted) */
	char expr2[512];
	char var3[64];
	char expr3[512];
	char fmt[16];		/* its argstr conversion, "" if none */
	char arg[512];		/* its argstr value */
};

struct side {
	struct item items[MAX_ITEMS];
	int n;
	int next_pos;		/* argument position of the next item */
};

struct entry {
	char alias[64];
	char calls[MAX_CALLS][64];
	int ncalls;
	char name[256];		/* name's value, "" for the alias name */
	struct side entry, ret;
	char argstr[LINE_MAX_LEN];	/* override, "" for the default */
	char retstr[512];
	int line;
};

struct gen {
	const char *path;
	int line;
	FILE *out;
};

static void fail(const struct gen *g, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%d: ", g->path, g->line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void copy(const struct gen *g, char *dst, size_t n, const char *src,
		 size_t len)
{
	if (len >= n)
		fail(g, "text too long: %.*s", (int)len, src);
	memcpy(dst, src, len);
	dst[len] = '\0';
}

/* Writes @src into @dst with $N (an argument) as __sc_arg(N). */
static void subst_args(const struct gen *g, char *dst, size_t n,
		       const char *src)
{
	size_t o = 0;

	for (; *src; src++) {
		const char *piece = NULL;
		char tmp[32];

		if (src[0] == '$' && src[1] >= '1' && src[1] <= '6') {
			snprintf(tmp, sizeof(tmp), "__sc_arg(%c)", src[1]);
			piece = tmp;
			src++;
		}
		if (!piece) {
			tmp[0] = *src;
			tmp[1] = '\0';
			piece = tmp;
		}
		if (o + strlen(piece) >= n)
			fail(g, "expression too long: %s", src);
		strcpy(dst + o, piece);
		o += strlen(piece);
	}
	dst[o] = '\0';
}

static void set(const struct gen *g, char *dst, size_t n, const char *fmt, ...)
{
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(dst, n, fmt, ap);
	va_end(ap);
	if (len < 0 || (size_t)len >= n)
		fail(g, "generated text too long");
}

/*
 * An argument of kind @kind at position @pos, named @var. The kinds:
 *   d   int              %d      u   unsigned int   %u
 *   ld  long             %d      lu  unsigned long  %u
 *   x   long             %#x     o   unsigned int   %#o
 *   p   user address     %p
 *   s   user string: VAR (quoted) and VAR_unquoted; argstr VAR
 *   q   user string: VAR (quoted) only
 *   S   user string: VAR (the address), VAR_str, VAR_str_unquoted
 *   dfd directory descriptor: VAR and VAR_str (AT_FDCWD); argstr VAR_str
 *   F(fn)  int decoded by tapset function fn: VAR, VAR_str; argstr VAR_str
 *   LF(fn) the same for a long
 *   f(fn)  int decoded in argstr only: VAR; argstr fn(VAR)
 *   Lf(fn) the same for a long
 * A trailing '!' keeps the item out of argstr.
 */
static void kind_item(const struct gen *g, struct item *it, const char *var,
		      int pos, const char *kind)
{
	char fn[128] = "";
	char k[32];
	const char *paren = strchr(kind, '(');
	size_t klen = paren ? (size_t)(paren - kind) : strlen(kind);
	bool quiet = false;

	copy(g, k, sizeof(k), kind, klen);
	if (paren) {
		const char *close = strchr(paren, ')');

		if (!close || close == paren + 1)
			fail(g, "bad function in kind '%s'", kind);
		copy(g, fn, sizeof(fn), paren + 1, (size_t)(close - paren - 1));
		quiet = close[1] == '!';
		if (close[1] && !quiet)
			fail(g, "junk after kind '%s'", kind);
	} else if (klen && k[klen - 1] == '!') {
		quiet = true;
		k[klen - 1] = '\0';
	}
	copy(g, it->var, sizeof(it->var), var, strlen(var));
	set(g, it->arg, sizeof(it->arg), "%s", var);
	if (!strcmp(k, "d") || !strcmp(k, "u") || !strcmp(k, "o") ||
	    !strcmp(k, "dfd") || !strcmp(k, "F") || !strcmp(k, "f"))
		set(g, it->expr, sizeof(it->expr), "%s(%d)",
		    k[0] == 'u' || k[0] == 'o' ? "__sc_uint" : "__sc_int", pos);
	else
		set(g, it->expr, sizeof(it->expr), "__sc_arg(%d)", pos);

	if (!strcmp(k, "d") || !strcmp(k, "ld")) {
		strcpy(it->fmt, "%d");
	} else if (!strcmp(k, "u") || !strcmp(k, "lu")) {
		strcpy(it->fmt, "%u");
	} else if (!strcmp(k, "x")) {
		strcpy(it->fmt, "%#x");
	} else if (!strcmp(k, "o")) {
		strcpy(it->fmt, "%#o");
	} else if (!strcmp(k, "p")) {
		strcpy(it->fmt, "%p");
	} else if (!strcmp(k, "s") || !strcmp(k, "q")) {
		set(g, it->expr, sizeof(it->expr), "user_string_quoted(__sc_arg(%d))", pos);
		if (k[0] == 's') {
			set(g, it->var2, sizeof(it->var2), "%s_unquoted", var);
			set(g, it->expr2, sizeof(it->expr2), "user_string_nofault(__sc_arg(%d))", pos);
		}
		strcpy(it->fmt, "%s");
	} else if (!strcmp(k, "S")) {
		set(g, it->var2, sizeof(it->var2), "%s_str", var);
		set(g, it->expr2, sizeof(it->expr2), "user_string_quoted(%s)", var);
		set(g, it->var3, sizeof(it->var3), "%s_str_unquoted", var);
		set(g, it->expr3, sizeof(it->expr3), "user_string_nofault(%s)", var);
		strcpy(it->fmt, "%s");
		set(g, it->arg, sizeof(it->arg), "%s_str", var);
	} else if (!strcmp(k, "dfd")) {
		set(g, it->var2, sizeof(it->var2), "%s_str", var);
		set(g, it->expr2, sizeof(it->expr2), "_sc_dfd_str(%s)", var);
		strcpy(it->fmt, "%s");
		set(g, it->arg, sizeof(it->arg), "%s_str", var);
	} else if (!strcmp(k, "F") || !strcmp(k, "LF")) {
		if (!fn[0])
			fail(g, "kind %s needs a function: %s(fn)", k, k);
		set(g, it->var2, sizeof(it->var2), "%s_str", var);
		set(g, it->expr2, sizeof(it->expr2), "%s(%s)", fn, var);
		strcpy(it->fmt, "%s");
		set(g, it->arg, sizeof(it->arg), "%s_str", var);
	} else if (!strcmp(k, "f") || !strcmp(k, "Lf")) {
		if (!fn[0])
			fail(g, "kind %s needs a function: %s(fn)", k, k);
		strcpy(it->fmt, "%s");
		set(g, it->arg, sizeof(it->arg), "%s(%s)", fn, var);
	} else {
		fail(g, "unknown kind '%s' of %s", kind, var);
	}
	if (quiet)
		it->fmt[0] = '\0';
}

static const char *skip_space(const char *p)
{
	while (*p && isspace((unsigned char)*p))
		p++;
	return p;
}

/* The end of a {...} expression starting at @p (the '{'), strings skipped. */
static const char *brace_end(const struct gen *g, const char *p)
{
	int depth = 0;
	bool str = false;

	for (; *p; p++) {
		if (str) {
			if (*p == '\\' && p[1])
				p++;
			else if (*p == '"')
				str = false;
			continue;
		}
		if (*p == '"')
			str = true;
		else if (*p == '{')
			depth++;
		else if (*p == '}' && --depth == 0)
			return p;
	}
	fail(g, "unbalanced '{'");
	return NULL;
}

/* Items of one side: NAME[@N]:KIND, _ (skip an argument), +NAME={EXPR}. */
static void parse_items(const struct gen *g, struct side *s, const char *p)
{
	for (p = skip_space(p); *p; p = skip_space(p)) {
		struct item *it;
		const char *end;
		char tok[256], var[64];
		char *colon, *at;
		int pos;

		if (s->n == MAX_ITEMS)
			fail(g, "too many items");
		it = &s->items[s->n];
		memset(it, 0, sizeof(*it));
		if (*p == '+') {
			const char *eq = strchr(p, '=');
			char raw[512];

			if (!eq || eq[1] != '{')
				fail(g, "an extra variable is +NAME={EXPR}");
			copy(g, it->var, sizeof(it->var), p + 1, (size_t)(eq - p - 1));
			end = brace_end(g, eq + 1);
			copy(g, raw, sizeof(raw), eq + 2, (size_t)(end - eq - 2));
			subst_args(g, it->expr, sizeof(it->expr), raw);
			s->n++;
			p = end + 1;
			continue;
		}
		end = p;
		while (*end && !isspace((unsigned char)*end))
			end++;
		copy(g, tok, sizeof(tok), p, (size_t)(end - p));
		p = end;
		if (!strcmp(tok, "_")) {
			s->next_pos++;
			continue;
		}
		colon = strchr(tok, ':');
		if (!colon)
			fail(g, "item '%s' is not NAME:KIND, _ or +NAME={EXPR}", tok);
		*colon = '\0';
		at = strchr(tok, '@');
		pos = s->next_pos;
		if (at) {
			*at = '\0';
			pos = atoi(at + 1);
		}
		if (pos < 1 || pos > 6)
			fail(g, "argument position of %s out of 1..6", tok);
		copy(g, var, sizeof(var), tok, strlen(tok));
		kind_item(g, it, var, pos, colon + 1);
		s->next_pos = pos + 1;
		s->n++;
	}
}

/* "ALIAS" or "ALIAS(call,call...)", then ':' and the entry items. */
static void parse_head(struct gen *g, struct entry *e, const char *p)
{
	const char *colon, *paren, *q;

	memset(e, 0, sizeof(*e));
	e->line = g->line;
	e->entry.next_pos = e->ret.next_pos = 1;
	colon = strchr(p, ':');
	if (!colon)
		fail(g, "an entry is ALIAS[(CALLS)]: ITEMS");
	paren = memchr(p, '(', (size_t)(colon - p));
	copy(g, e->alias, sizeof(e->alias), p,
	     (size_t)((paren ? paren : colon) - p));
	for (q = e->alias; *q; q++)
		if (!isalnum((unsigned char)*q) && *q != '_')
			fail(g, "bad alias name '%s'", e->alias);
	if (paren) {
		q = paren + 1;
		while (*q && *q != ')') {
			const char *c = q;

			while (*q && *q != ',' && *q != ')')
				q++;
			if (e->ncalls == MAX_CALLS)
				fail(g, "too many calls");
			copy(g, e->calls[e->ncalls++], sizeof(e->calls[0]), c,
			     (size_t)(q - c));
			if (*q == ',')
				q++;
		}
		if (*q != ')' || !e->ncalls)
			fail(g, "bad call list");
	} else {
		strcpy(e->calls[0], e->alias);
		e->ncalls = 1;
	}
	parse_items(g, &e->entry, colon + 1);
}

/* A continuation line: "KEY: TEXT". */
static void parse_more(struct gen *g, struct entry *e, const char *p)
{
	const char *colon = strchr(p, ':');
	char key[32];
	const char *rest;

	if (!colon)
		fail(g, "a continuation line is KEY: TEXT");
	copy(g, key, sizeof(key), p, (size_t)(colon - p));
	rest = skip_space(colon + 1);
	if (!strcmp(key, "argstr"))
		subst_args(g, e->argstr, sizeof(e->argstr), rest);
	else if (!strcmp(key, "return"))
		parse_items(g, &e->ret, rest);
	else if (!strcmp(key, "retstr"))
		copy(g, e->retstr, sizeof(e->retstr), rest, strlen(rest));
	else if (!strcmp(key, "name"))
		subst_args(g, e->name, sizeof(e->name), rest);
	else
		fail(g, "unknown key '%s' (argstr, return, retstr, name)", key);
}

static void emit_vars(FILE *o, const struct side *s)
{
	int i;

	for (i = 0; i < s->n; i++) {
		const struct item *it = &s->items[i];

		fprintf(o, "\t%s = %s\n", it->var, it->expr);
		if (it->var2[0])
			fprintf(o, "\t%s = %s\n", it->var2, it->expr2);
		if (it->var3[0])
			fprintf(o, "\t%s = %s\n", it->var3, it->expr3);
	}
}

static void emit_points(FILE *o, const struct entry *e, const char *suffix)
{
	int i;

	/* (NONE): no x86-64 call; "ia32:ALIAS" resolves to a point that
	 * never fires (elaborate/probes/syscall.c) */
	if (e->ncalls == 1 && !strcmp(e->calls[0], "NONE")) {
		fprintf(o, "__syscall(\"ia32:%s\")%s ?", e->alias, suffix);
		return;
	}
	for (i = 0; i < e->ncalls; i++)
		fprintf(o, "%s__syscall(\"%s\")%s ?", i ? ", " : "",
			e->calls[i], suffix);
}

static void emit_name(FILE *o, const struct entry *e)
{
	if (e->name[0])
		fprintf(o, "\tname = %s\n", e->name);
	else
		fprintf(o, "\tname = \"%s\"\n", e->alias);
}

static void emit_argstr(FILE *o, const struct entry *e)
{
	int i, n = 0;

	if (e->argstr[0]) {
		fprintf(o, "\targstr = sprintf(%s)\n", e->argstr);
		return;
	}
	fprintf(o, "\targstr = sprintf(\"");
	for (i = 0; i < e->entry.n; i++)
		if (e->entry.items[i].fmt[0])
			fprintf(o, "%s%s", n++ ? ", " : "", e->entry.items[i].fmt);
	fprintf(o, "\"");
	for (i = 0; i < e->entry.n; i++)
		if (e->entry.items[i].fmt[0])
			fprintf(o, ", %s", e->entry.items[i].arg);
	fprintf(o, ")\n");
}

static void emit(FILE *o, const struct entry *e)
{
	fprintf(o, "\n# %s (table line %d)\n", e->alias, e->line);
	fprintf(o, "probe syscall.%s = ", e->alias);
	emit_points(o, e, "");
	fprintf(o, "\n{\n");
	emit_name(o, e);
	emit_vars(o, &e->entry);
	emit_argstr(o, e);
	fprintf(o, "}\n");
	fprintf(o, "probe syscall.%s.return = ", e->alias);
	emit_points(o, e, ".return");
	fprintf(o, "\n{\n");
	emit_name(o, e);
	emit_vars(o, &e->ret);
	fprintf(o, "\tretval = __sc_ret()\n");
	fprintf(o, "\tretstr = %s\n", e->retstr[0] ? e->retstr : "return_str(1, retval)");
	fprintf(o, "}\n");
	fprintf(o, "probe nd_syscall.%s = syscall.%s ? { }\n", e->alias, e->alias);
	fprintf(o, "probe nd_syscall.%s.return = syscall.%s.return ? { }\n",
		e->alias, e->alias);
}

static void man_vars(FILE *o, const struct side *s, const char *fixed)
{
	int i;

	fprintf(o, "%s", fixed);
	for (i = 0; i < s->n; i++) {
		const struct item *it = &s->items[i];

		fprintf(o, ", %s", it->var);
		if (it->var2[0])
			fprintf(o, ", %s", it->var2);
		if (it->var3[0])
			fprintf(o, ", %s", it->var3);
	}
	fprintf(o, "\n");
}

/* One man page entry: the alias, its calls, its variables. */
static void emit_man(FILE *o, const struct entry *e)
{
	int i;

	fprintf(o, ".TP\n.B syscall.%s\n", e->alias);
	if (e->ncalls == 1 && !strcmp(e->calls[0], "NONE")) {
		fprintf(o, "(also \\fBnd_syscall.%s\\fR) no x86-64 call (a 32-bit, "
			"16-bit-uid or socketcall one): the probe builds, with "
			"these variables, but never fires", e->alias);
	} else {
		fprintf(o, "(also \\fBnd_syscall.%s\\fR) kernel call%s:", e->alias,
			e->ncalls > 1 ? "s" : "");
		for (i = 0; i < e->ncalls; i++)
			fprintf(o, " %s", e->calls[i]);
	}
	fprintf(o, ".\n.br\nentry: ");
	man_vars(o, &e->entry, "name, argstr");
	fprintf(o, ".br\nreturn: ");
	man_vars(o, &e->ret, "name, retval, retstr");
}

static void man_head(FILE *o)
{
	fprintf(o, ".\\\" GENERATED by tools/gensyscalls from tapset/syscalls.tbl; do not edit.\n"
		".TH TAPSET::SYSCALLS 3stap\n"
		".SH NAME\ntapset::syscalls \\- every system call as a probe point\n"
		".SH DESCRIPTION\n"
		"Each system call NAME of the kernel has the probe points\n"
		".BR syscall. NAME ,\n"
		".BR syscall. NAME .return\n"
		"and the same under\n"
		".BR nd_syscall. NAME ,\n"
		"needing no debuginfo.\n"
		"Entry probes set\n.I name\nand\n.I argstr\n"
		"(the arguments as strace prints them) and a variable per argument;\n"
		"return probes set\n.IR name ,\n.I retval\nand\n.I retstr\n"
		"(the value, with the errno name of an error: \\(lq-2 (ENOENT)\\(rq).\n"
		"Calls the running kernel lacks are skipped by wildcards.\n"
		".SH PROBE POINTS\n");
}

int main(int argc, char **argv)
{
	struct gen g = { .out = stdout };
	static struct entry e;
	bool have = false;
	char buf[LINE_MAX_LEN];
	FILE *in;

	bool man = argc == 3 && !strcmp(argv[1], "--man");

	if (argc != 2 && !man) {
		fprintf(stderr, "usage: gensyscalls [--man] TABLE > OUTPUT\n");
		return 2;
	}
	g.path = argv[argc - 1];
	in = fopen(g.path, "r");
	if (!in) {
		perror(g.path);
		return 1;
	}
	if (man)
		man_head(g.out);
	else
		fprintf(g.out, "// SPDX-License-Identifier: GPL-2.0-or-later\n"
		"// syscalls.stp: GENERATED by tools/gensyscalls from %s; do not edit.\n"
		"// Every system call's syscall.NAME[.return] and nd_syscall.NAME[.return]\n"
		"// alias, on the __syscall family (doc/tapset-syscalls.md).\n",
		"tapset/syscalls.tbl");
	while (fgets(buf, sizeof(buf), in)) {
		size_t len = strlen(buf);

		g.line++;
		if (len && buf[len - 1] != '\n' && !feof(in))
			fail(&g, "line too long");
		while (len && isspace((unsigned char)buf[len - 1]))
			buf[--len] = '\0';
		/* "# ==== FAMILY: what ====" starts a family: a subsection
		 * of the man page */
		if (man && !strncmp(buf, "# ==== ", 7) && strncmp(buf, "# ==== end", 10) &&
		    len > 12 && !strcmp(buf + len - 5, " ====")) {
			if (have)
				emit_man(g.out, &e);
			have = false;
			fprintf(g.out, ".SS %.*s\n", (int)(len - 12), buf + 7);
			continue;
		}
		if (!*skip_space(buf) || *skip_space(buf) == '#')
			continue;
		if (isspace((unsigned char)buf[0])) {
			if (!have)
				fail(&g, "continuation line before any entry");
			parse_more(&g, &e, skip_space(buf));
			continue;
		}
		if (have)
			(man ? emit_man : emit)(g.out, &e);
		parse_head(&g, &e, buf);
		have = true;
	}
	if (have)
		(man ? emit_man : emit)(g.out, &e);
	if (man)
		fprintf(g.out, ".SH SEE ALSO\n.BR stapprobes (3stap),\n.BR stap (1)\n");
	fclose(in);
	if (ferror(g.out) || fflush(g.out)) {
		perror("gensyscalls: write");
		return 1;
	}
	return 0;
}
