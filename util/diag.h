/* SPDX-License-Identifier: GPL-2.0-or-later */
/* diag.h: diagnostics in SystemTap's format, collected and de-duplicated. */
#ifndef UTIL_DIAG_H
#define UTIL_DIAG_H

#include <stdbool.h>
#include <stdio.h>

#include "util/source.h"

enum diag_kind {
	DIAG_PARSE_ERROR,	/* "parse error: MSG\n        saw: TOKEN at LOC" */
	DIAG_LEX_ERROR,		/* "parse error: MSG\n         at: TOKEN at LOC" */
	DIAG_SEMANTIC_ERROR,	/* "semantic error: MSG: TOKEN at LOC" */
	DIAG_WARNING,		/* "WARNING: MSG: TOKEN at LOC" */
	DIAG_ERROR,		/* "ERROR: MSG" (no location) */
	DIAG_PLAIN,		/* "MSG", counted as an error */
};

struct sgr;

struct diag {
	FILE *out;
	unsigned parse_errors;
	unsigned semantic_errors;
	unsigned other_errors;
	unsigned warnings;
	unsigned suppressed;	/* exact duplicates dropped */
	unsigned similar_warnings;	/* warnings of a kind already shown,
					 * not printed (the caller counts them) */
	bool no_warnings;	/* -w */
	bool warnings_are_errors; /* -W */
	bool show_origin;	/* -vv: name the translator source line too */
	unsigned muted;		/* >0: reports are dropped, not counted */
	struct seen_msg **seen;	/* heap hash set for de-duplication */
	const struct sgr *sgr;	/* --color: the parts' colours, or NULL */
};

void diag_init(struct diag *d, FILE *out);
/* Free the de-duplication list. */
void diag_release(struct diag *d);

/* Report one diagnostic. @token describes the token the message is about
 * ("operator '}'", "identifier 'x'", "keyword 'if'"); NULL at end of file
 * prints "FILE EOF". @loc may be NULL for messages without a place. */
void diag_report_from(struct diag *d, const char *file, int line,
		      enum diag_kind kind, const struct srcloc *loc,
		      const char *token, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));
#define diag_report(d, ...) diag_report_from((d), __FILE__, __LINE__, __VA_ARGS__)

/*
 * Non-source errors (I/O, child processes, libelf/libdw, kbuild; the rules
 * are in doc/errors.md). A function that fails returns a negative errno;
 * the one that knows what failed either reports it here or describes it
 * for a caller that will, never both.
 *
 * diag_fail() reports: "ERROR: SUBJECT: MSG" ("ERROR: MSG" when @subject
 * is NULL), counted as an error, and returns @err (a negative errno), so
 * that a failing path reads `err = diag_fail(d, -errno, path, ...)`.
 */
int diag_fail_from(struct diag *d, const char *file, int line, int err,
		   const char *subject, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
#define diag_fail(d, ...) diag_fail_from((d), __FILE__, __LINE__, __VA_ARGS__)

/* diag_describe() describes: MSG into @buf (@len bytes, truncated; nothing
 * when @buf is NULL) for a caller that reports it, typically inside a
 * semantic error at a probe point; returns @err. */
int diag_describe(char *buf, size_t len, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static inline unsigned diag_errors(const struct diag *d)
{
	return d->parse_errors + d->semantic_errors + d->other_errors;
}

#endif
