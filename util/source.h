/* SPDX-License-Identifier: GPL-2.0-or-later */
/* source.h: script texts and positions within them. */
#ifndef UTIL_SOURCE_H
#define UTIL_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

struct arena;

struct source {
	const char *name;	/* "<input>", a path, or "<argument N>" */
	const char *text;	/* NUL-terminated; may contain NULs before len */
	size_t len;
	bool library;		/* a tapset file: embedded C allowed */
	const size_t *line_start;	/* offset of each line (index 0 = line 1) */
	unsigned nlines;
};

struct expansion;

struct srcloc {
	const struct source *src;
	unsigned line;		/* 1-based; 0 when unknown */
	unsigned col;		/* 1-based */
	const struct expansion *from;	/* macro (later: alias) that produced it */
};

/* Where a construct was expanded: "in expansion of WHAT: TOKEN at SITE". */
struct expansion {
	const char *what;	/* "macro" */
	const char *token;	/* "operator '@m'" */
	struct srcloc site;	/* may itself have been expanded */
};

/* A source whose text is @len bytes at @text (copied into @a). */
struct source *source_from_mem(struct arena *a, const char *name,
			       const char *text, size_t len);

/* Read @path into a new source; NULL with errno set on failure. */
struct source *source_from_file(struct arena *a, const char *name,
				const char *path);

/* The text of line @line of @src, without its newline, in @*len. */
const char *source_line(const struct source *src, unsigned line, size_t *len);

#endif
