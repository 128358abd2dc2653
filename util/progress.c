// SPDX-License-Identifier: GPL-2.0-or-later
/* progress.c: see progress.h. */
#include "util/progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool wanted(int fd)
{
	const char *env = getenv("CSTAP_PROGRESS");

	if (env && !strcmp(env, "1"))
		return true;
	if (env && !strcmp(env, "0"))
		return false;
	return isatty(fd);
}

static int64_t elapsed_ms(const struct progress *p)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return ((int64_t)now.tv_sec - p->start.tv_sec) * 1000 +
	       ((int64_t)now.tv_nsec - p->start.tv_nsec) / 1000000;
}

static void put(const struct progress *p, const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(p->fd, s, n);

		if (w <= 0)
			return;	/* a progress line is not worth an error */
		s += w;
		n -= (size_t)w;
	}
}

void progress_start(struct progress *p, int fd, const char *label, uint64_t total,
		    unsigned int delay_ms)
{
	memset(p, 0, sizeof(*p));
	p->fd = fd;
	p->label = label;
	p->total = total;
	p->delay_ms = delay_ms;
	p->shown = -1;
	p->on = total && wanted(fd);
	clock_gettime(CLOCK_MONOTONIC, &p->start);
}

void progress_update(struct progress *p, uint64_t done)
{
	char line[256];
	int pct, n;

	if (!p->on)
		return;
	pct = done >= p->total ? 100 : (int)(done * 100 / p->total);
	if (pct == p->shown || (p->shown < 0 && elapsed_ms(p) < (int64_t)p->delay_ms))
		return;
	n = snprintf(line, sizeof(line), "\r%s: %3d%%", p->label, pct);
	if (n > 0)
		put(p, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
	p->shown = pct;
}

void progress_end(struct progress *p)
{
	if (p->on && p->shown >= 0)
		put(p, "\r\033[K", 4);
	p->on = false;
}
