/* SPDX-License-Identifier: GPL-2.0-or-later */
/* progress.h: a percentage on the terminal while a long step runs (the
 * DWARF function index of a kernel, ...). Shown on @fd only when it is a
 * terminal (CSTAP_PROGRESS=1 forces it on, CSTAP_PROGRESS=0 off), and only
 * once the step has run for @delay_ms, so quick steps print nothing. */
#ifndef UTIL_PROGRESS_H
#define UTIL_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

struct progress {
	int fd;
	const char *label;
	uint64_t total;
	unsigned int delay_ms;
	struct timespec start;
	int shown;		/* the percentage on the line, -1 for none */
	bool on;
};

/* Starts @p: "@label: NN%" of @total units on @fd. */
void progress_start(struct progress *p, int fd, const char *label, uint64_t total,
		    unsigned int delay_ms);
/* @done units of the total are done: the line is rewritten when the
 * percentage changes. */
void progress_update(struct progress *p, uint64_t done);
/* The step is over: the line, if one was shown, is erased. */
void progress_end(struct progress *p);

#endif
