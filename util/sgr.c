// SPDX-License-Identifier: GPL-2.0-or-later
/* sgr.c: colours of error messages (util/sgr.h). */
#include "util/sgr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const part_names[SGR_NPARTS] = {
	[SGR_ERROR] = "error", [SGR_WARNING] = "warning", [SGR_SOURCE] = "source",
	[SGR_CARET] = "caret", [SGR_TOKEN] = "token",
};

static const char *const defaults[SGR_NPARTS] = {
	[SGR_ERROR] = "01;31", [SGR_WARNING] = "00;33", [SGR_SOURCE] = "00;34",
	[SGR_CARET] = "01", [SGR_TOKEN] = "01",
};

int sgr_when(const char *when, int *mode)
{
	if (!when || !strcmp(when, "auto"))
		*mode = 2;
	else if (!strcmp(when, "always"))
		*mode = 1;
	else if (!strcmp(when, "never"))
		*mode = 0;
	else
		return -1;
	return 0;
}

/* "key=val:key=val..." into @c; false when it is empty or invalid. */
static bool parse_env(struct sgr *c, const char *env)
{
	const char *p = env;

	if (!*env)
		return false;
	while (*p) {
		const char *eq = strchr(p, '='), *end;
		size_t klen, vlen, i;
		int k = -1;

		if (!eq)
			return false;
		end = eq + 1 + strcspn(eq + 1, ":");
		klen = (size_t)(eq - p);
		vlen = (size_t)(end - eq - 1);
		for (i = 0; i < SGR_NPARTS; i++)
			if (strlen(part_names[i]) == klen && !strncmp(p, part_names[i], klen))
				k = (int)i;
		if (k < 0 || vlen >= sizeof(c->code[0]) ||
		    strspn(eq + 1, "0123456789;") < vlen)
			return false;
		memcpy(c->code[k], eq + 1, vlen);
		c->code[k][vlen] = '\0';
		p = *end ? end + 1 : end;
	}
	return true;
}

void sgr_init(struct sgr *c, int mode, int fd)
{
	const char *env = getenv("SYSTEMTAP_COLORS");
	int i;

	memset(c, 0, sizeof(*c));
	c->on = mode == 1 || (mode == 2 && isatty(fd));
	if (!c->on)
		return;
	if (!env) {
		for (i = 0; i < SGR_NPARTS; i++)
			strcpy(c->code[i], defaults[i]);
		return;
	}
	if (!parse_env(c, env))
		c->on = false;
}

const char *sgr_start(const struct sgr *c, enum sgr_part part, char *buf, unsigned len)
{
	if (!c || !c->on || !c->code[part][0])
		return "";
	snprintf(buf, len, "\033[%sm\033[K", c->code[part]);
	return buf;
}

const char *sgr_end(const struct sgr *c, enum sgr_part part)
{
	if (!c || !c->on || !c->code[part][0])
		return "";
	return "\033[m\033[K";
}
