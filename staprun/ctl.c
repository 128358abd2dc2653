// SPDX-License-Identifier: GPL-2.0-or-later
/* ctl.c: the records of .stp_ctl ("M TEXT", "X STATUS", "D STATUS"), split
 * into lines and classified. */
#include <string.h>

#include "staprun/staprun.h"

/* A status: decimal 0-255; anything else counts as a failure (1). */
static int parse_status(const char *s)
{
	int v = 0;

	if (!*s)
		return 1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return 1;
		v = v * 10 + (*s - '0');
		if (v > 255)
			return 1;
	}
	return v;
}

void ctl_parse_line(char *line, struct ctl_record *r)
{
	size_t n = strlen(line);

	/* tolerate a CR before the newline */
	if (n && line[n - 1] == '\r')
		line[--n] = '\0';
	r->status = 0;
	r->text = line;
	r->kind = CTL_UNKNOWN;
	if (n < 2 || line[1] != ' ') {
		/* a bare "M" is an empty message */
		if (n == 1 && line[0] == 'M') {
			r->kind = CTL_MSG;
			r->text = line + 1;
		}
		return;
	}
	switch (line[0]) {
	case 'M':
		r->kind = CTL_MSG;
		r->text = line + 2;
		break;
	case 'X':
		r->kind = CTL_EXIT;
		r->status = parse_status(line + 2);
		break;
	case 'D':
		r->kind = CTL_DONE;
		r->status = parse_status(line + 2);
		break;
	case 'S':
		r->kind = CTL_SYSTEM;
		r->text = line + 2;
		break;
	case 'F':
		r->kind = CTL_SWITCH;
		break;
	default:
		break;
	}
}

int ctl_feed(struct ctl_reader *cr, const char *data, size_t n,
	     int (*cb)(void *arg, const struct ctl_record *r), void *arg)
{
	struct ctl_record rec;
	size_t i;
	int ret;

	for (i = 0; i < n; i++) {
		char c = data[i];

		if (c != '\n') {
			/* past CTL_LINE_MAX the rest of the line is dropped */
			if (cr->len < CTL_LINE_MAX)
				cr->line[cr->len++] = c ? c : ' ';
			continue;
		}
		cr->line[cr->len] = '\0';
		cr->len = 0;
		ctl_parse_line(cr->line, &rec);
		ret = cb(arg, &rec);
		if (ret)
			return ret;
	}
	return 0;
}
