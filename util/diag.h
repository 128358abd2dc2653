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

struct diag {
	FILE *out;
	unsigned parse_errors;
	unsigned semantic_errors;
	unsigned other_errors;
	unsigned warnings;
	unsigned suppressed;	/* exact duplicates dropped */
	bool no_warnings;	/* -w */
	bool warnings_are_errors; /* -W */
	bool show_origin;	/* -vv: name the translator source line too */
	unsigned muted;		/* >0: reports are dropped, not counted */
	struct seen_msg **seen;	/* heap hash set for de-duplication */
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

static inline unsigned diag_errors(const struct diag *d)
{
	return d->parse_errors + d->semantic_errors + d->other_errors;
}

#endif
