// SPDX-License-Identifier: GPL-2.0-or-later
/* monitor_fmt.c: staprun -M's status: parsing the module's monitor file
 * (doc/monitor.md), sorting the probes, rendering the status window as
 * plain lines (monitor.c adds the terminal's escapes). No I/O but the
 * FILE it renders to: unit-tested (testsuite/unit/staprun_test.c). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "staprun.h"

void mon_status_free(struct mon_status *st)
{
	size_t i;

	for (i = 0; i < st->ng; i++) {
		free(st->g[i].name);
		free(st->g[i].value);
	}
	for (i = 0; i < st->np; i++)
		free(st->p[i].pp);
	free(st->g);
	free(st->p);
	memset(st, 0, sizeof(*st));
}

/* "global KIND NAME VALUE" (VALUE: the rest of the line, may be empty). */
static int parse_global(struct mon_status *st, const char *l)
{
	struct mon_global g = { 0 }, *v;
	int name_at = 0, name_end = 0, val_at = 0;

	if (sscanf(l, "global %15s %n%*s%n %n", g.kind, &name_at, &name_end, &val_at) < 1 ||
	    !name_end)
		return -1;
	if (!val_at)
		val_at = name_end;
	v = realloc(st->g, (st->ng + 1) * sizeof(*v));
	if (!v)
		return -1;
	st->g = v;
	g.name = strndup(l + name_at, (size_t)(name_end - name_at));
	g.value = strdup(l + val_at);
	if (!g.name || !g.value) {
		free(g.name);
		free(g.value);
		return -1;
	}
	st->g[st->ng++] = g;
	return 0;
}

/* "probe IDX STATE HITS NS MIN MAX PP" */
static int parse_probe(struct mon_status *st, const char *l)
{
	struct mon_probe p = { 0 }, *v;
	int at = 0;

	if (sscanf(l, "probe %u %7s %llu %llu %llu %llu %n", &p.idx, p.state, &p.hits, &p.ns,
		   &p.min_ns, &p.max_ns, &at) < 6 || !at || !l[at])
		return -1;
	v = realloc(st->p, (st->np + 1) * sizeof(*v));
	if (!v)
		return -1;
	st->p = v;
	p.pp = strdup(l + at);
	if (!p.pp)
		return -1;
	st->p[st->np++] = p;
	return 0;
}

int mon_parse(const char *text, struct mon_status *st)
{
	const char *l = text;
	char line[4096];

	memset(st, 0, sizeof(*st));
	while (*l) {
		size_t n = strcspn(l, "\n");
		int bad = 0;

		if (n >= sizeof(line))
			goto fail;
		memcpy(line, l, n);
		line[n] = '\0';
		l += n + (l[n] == '\n');
		if (!strncmp(line, "uptime_ms ", 10))
			bad = sscanf(line + 10, "%llu", &st->uptime_ms) != 1;
		else if (!strncmp(line, "module ", 7))
			snprintf(st->module, sizeof(st->module), "%.63s", line + 7);
		else if (!strncmp(line, "uid ", 4))
			bad = sscanf(line + 4, "%u", &st->uid) != 1;
		else if (!strncmp(line, "memory ", 7))
			bad = sscanf(line + 7, "%lld", &st->memory) != 1;
		else if (!strncmp(line, "state ", 6))
			snprintf(st->state, sizeof(st->state), "%.15s", line + 6);
		else if (!strncmp(line, "global ", 7))
			bad = parse_global(st, line);
		else if (!strncmp(line, "probe ", 6))
			bad = parse_probe(st, line);
		/* other lines: a later module's; ignored */
		if (bad)
			goto fail;
	}
	if (!st->module[0])
		goto fail;
	return 0;
fail:
	mon_status_free(st);
	return -1;
}

static const char *const sort_names[MON_SORT_COUNT] = {
	[MON_SORT_INDEX] = "index", [MON_SORT_HITS] = "hits",
	[MON_SORT_AVG] = "average time", [MON_SORT_NAME] = "probe point",
};

const char *mon_sort_name(enum mon_sort key)
{
	return sort_names[key];
}

static unsigned long long avg_ns(const struct mon_probe *p)
{
	return p->hits ? p->ns / p->hits : 0;
}

static enum mon_sort sort_key;

/* The busiest first; ties by index, so that the order is total. */
static int cmp_probe(const void *a, const void *b)
{
	const struct mon_probe *x = a, *y = b;
	unsigned long long u = 0, v = 0;
	int c = 0;

	switch (sort_key) {
	case MON_SORT_INDEX:
	case MON_SORT_COUNT:
		break;
	case MON_SORT_HITS:
		u = x->hits;
		v = y->hits;
		break;
	case MON_SORT_AVG:
		u = avg_ns(x);
		v = avg_ns(y);
		break;
	case MON_SORT_NAME:
		c = strcmp(x->pp, y->pp);
		break;
	}
	if (u != v)
		return u > v ? -1 : 1;
	if (c)
		return c;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

void mon_sort(struct mon_status *st, enum mon_sort key)
{
	sort_key = key;
	qsort(st->p, st->np, sizeof(*st->p), cmp_probe);
}

/* One line of at most @width columns (the rest cut). */
static void put_line(FILE *f, int width, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void put_line(FILE *f, int width, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	if (width > 0 && n > width)
		n = width;
	if ((size_t)n >= sizeof(buf))
		n = sizeof(buf) - 1;
	fprintf(f, "%.*s\n", n, buf);
}

static void human_bytes(char *out, size_t len, long long b)
{
	if (b >= 10LL << 20)
		snprintf(out, len, "%lld MiB", b >> 20);
	else if (b >= 10LL << 10)
		snprintf(out, len, "%lld KiB", b >> 10);
	else
		snprintf(out, len, "%lld bytes", b);
}

int mon_render(FILE *f, const struct mon_status *st, const struct mon_view *v)
{
	unsigned long long s = st->uptime_ms / 1000;
	int lines = 0, room = v->max_lines > 0 ? v->max_lines : 1 << 30;
	char mem[32], gl[1024];
	size_t i, k = 0;

	human_bytes(mem, sizeof(mem), st->memory);
	put_line(f, v->width, "uptime %llu:%02llu:%02llu  module %s  invoker uid %u  memory %s  %s",
		 s / 3600, s / 60 % 60, s % 60, st->module, st->uid, mem, st->state);
	lines++;
	gl[0] = '\0';
	for (i = 0; i < st->ng && k < sizeof(gl) - 1; i++) {
		const struct mon_global *g = &st->g[i];
		int n;

		if (!strcmp(g->kind, "string"))
			n = snprintf(gl + k, sizeof(gl) - k, "%s%s=\"%s\"", i ? "  " : "", g->name,
				     g->value);
		else if (!strcmp(g->kind, "long"))
			n = snprintf(gl + k, sizeof(gl) - k, "%s%s=%s", i ? "  " : "", g->name,
				     g->value);
		else if (!strcmp(g->kind, "stat"))
			n = snprintf(gl + k, sizeof(gl) - k, "%s%s=@count %s", i ? "  " : "",
				     g->name, g->value);
		else
			n = snprintf(gl + k, sizeof(gl) - k, "%s%s[%s]", i ? "  " : "", g->name,
				     g->value);
		if (n < 0)
			break;
		k += (size_t)n;
	}
	put_line(f, v->width, "globals: %s", st->ng ? gl : "(none)");
	lines++;
	put_line(f, v->width, "%4s %-5s %10s %10s %10s %10s  %s (sorted by %s)", "#", "state",
		 "hits", "avg ns", "min ns", "max ns", "probe", mon_sort_name(v->sort));
	lines++;
	for (i = 0; i < st->np; i++) {
		const struct mon_probe *p = &st->p[i];

		/* room for this one, the prompt, and "... more" unless last */
		if (lines + (i + 1 < st->np ? 3 : 2) > room) {
			put_line(f, v->width, "     ... %zu more", st->np - i);
			lines++;
			break;
		}
		put_line(f, v->width, "%4u %-5s %10llu %10llu %10llu %10llu  %s", p->idx, p->state,
			 p->hits, avg_ns(p), p->min_ns, p->max_ns, p->pp);
		lines++;
	}
	put_line(f, v->width, "%s", v->prompt && *v->prompt ? v->prompt
		 : "keys: c reset globals  s sort  t toggle probe  p pause  r resume  x hide");
	return lines + 1;
}
