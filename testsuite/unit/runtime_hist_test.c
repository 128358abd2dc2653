// SPDX-License-Identifier: GPL-2.0-or-later
/* runtime_hist_test.c: histogram printing (runtime/hist.c) against the
 * reference's exact output recorded in testsuite/observed/hist_*.out: each
 * case rebuilds one data set of those scripts and compares our text with
 * the block printed after its "== NAME" line. Run from the source tree's
 * top. Prints "N passed, N failed". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/hist.h"
#include "testsuite/unit/check.h"


struct run {
	s64 value;
	int times;
};

struct hcase {
	const char *file;	/* testsuite/observed/FILE.out */
	const char *header;	/* the println before the histogram */
	int elision;
	u8 hist;
	s64 lo, hi, step;
	struct run runs[12];	/* ended by times == 0 */
};

#define LOG STP_HIST_LOG, 0, 0, 0
#define LIN(a, b, c) STP_HIST_LINEAR, a, b, c

static const struct hcase cases[] = {
	{ "hist_edges", "== a (-1,0,99,100,105,109,110,111) hist_linear(0,100,10)", 2,
	  LIN(0, 100, 10), { { -1, 1 }, { 0, 1 }, { 99, 1 }, { 100, 1 }, { 105, 1 },
			     { 109, 1 }, { 110, 1 }, { 111, 1 } } },
	{ "hist_edges", "== b (9,10,11,12,13) hist_linear(0,10,3)", 2, LIN(0, 10, 3),
	  { { 9, 1 }, { 10, 1 }, { 11, 1 }, { 12, 1 }, { 13, 1 } } },
	{ "hist_edges", "== c (-4,-3,-2,7,8,15,16) hist_log", 2, LOG,
	  { { -4, 1 }, { -3, 1 }, { -2, 1 }, { 7, 1 }, { 8, 1 }, { 15, 1 }, { 16, 1 } } },
	{ "hist_edges", "== d counts 60,59,31,30,29,1 hist_log", 2, LOG,
	  { { 1, 60 }, { 2, 59 }, { 4, 31 }, { 8, 30 }, { 16, 29 }, { 32, 1 } } },
	{ "hist_edges", "== e counts 51,50,49 hist_log", 2, LOG,
	  { { 1, 51 }, { 2, 50 }, { 4, 49 } } },
	{ "hist_edges", "== f counts 50,12345 hist_log", 2, LOG,
	  { { 1, 50 }, { 2, 12345 } } },
	{ "hist_log", "== wide (0,1,10,100,1000,1e6,1e12)", 2, LOG,
	  { { 0, 1 }, { 1, 1 }, { 10, 1 }, { 100, 1 }, { 1000, 1 }, { 1000000, 1 },
	    { 1000000000000LL, 1 } } },
	{ "hist_log", "== neg (-1,-5,-100,3,0)", 2, LOG,
	  { { -1, 1 }, { -5, 1 }, { -100, 1 }, { 3, 1 }, { 0, 1 } } },
	{ "hist_log", "== zero (0)", 2, LOG, { { 0, 1 } } },
	{ "hist_log", "== huge (INT64_MAX, INT64_MIN, 1)", 2, LOG,
	  { { INT64_MAX, 1 }, { INT64_MIN, 1 }, { 1, 1 } } },
	{ "hist_log", "== many (300x5, 1x64, 20x1000)", 2, LOG,
	  { { 5, 300 }, { 64, 1 }, { 1000, 20 } } },
	{ "hist_linear", "== b (-5,0,50,100,150,1000) hist_linear(0,100,10)", 2,
	  LIN(0, 100, 10), { { -5, 1 }, { 0, 1 }, { 50, 1 }, { 100, 1 }, { 150, 1 },
			     { 1000, 1 } } },
	{ "hist_linear", "== c (-50,-25,-1,0,1,49) hist_linear(-50,50,10)", 2,
	  LIN(-50, 50, 10), { { -50, 1 }, { -25, 1 }, { -1, 1 }, { 0, 1 }, { 1, 1 },
			      { 49, 1 } } },
	{ "hist_linear", "== e (500x3,1x7,10x9) hist_linear(0,10,1)", 2, LIN(0, 10, 1),
	  { { 3, 500 }, { 7, 1 }, { 9, 10 } } },
	{ "hist_linear", "== f (123456789,1e9) hist_linear(0,1000000000,100000000)", 2,
	  LIN(0, 1000000000, 100000000), { { 123456789, 1 }, { 1000000000, 1 } } },
	{ "hist_misc", "== a (-8,-3) hist_log", 2, LOG, { { -8, 1 }, { -3, 1 } } },
	{ "hist_misc", "== b (-1) hist_log", 2, LOG, { { -1, 1 } } },
	{ "hist_misc", "== c (-5) hist_linear(0,100,10)", 2, LIN(0, 100, 10), { { -5, 1 } } },
	{ "hist_misc", "== d (500) hist_linear(0,100,10)", 2, LIN(0, 100, 10), { { 500, 1 } } },
	{ "hist_misc", "== e (-95,-10,-1) hist_linear(-100,-10,10)", 2,
	  LIN(-100, -10, 10), { { -95, 1 }, { -10, 1 }, { -1, 1 } } },
	{ "hist_elision0", "== gap (1, 1<<20) hist_log", 0, LOG, { { 1, 1 }, { 1048576, 1 } } },
	{ "hist_elision0", "== d (0,1000) hist_linear(0,1000,10)", 0, LIN(0, 1000, 10),
	  { { 0, 1 }, { 1000, 1 } } },
	{ "hist_elision0", "== wide (0,1e6) hist_log", 0, LOG, { { 0, 1 }, { 1000000, 1 } } },
	{ "hist_elision1", "== gap (1, 1<<20) hist_log", 1, LOG, { { 1, 1 }, { 1048576, 1 } } },
	{ "hist_elision1", "== d (0,500,1000) hist_linear(0,1000,10)", 1,
	  LIN(0, 1000, 10), { { 0, 1 }, { 500, 1 }, { 1000, 1 } } },
	{ "hist_elision3", "== gap (64, 1<<20) hist_log", 3, LOG, { { 64, 1 }, { 1048576, 1 } } },
	{ "hist_elision3", "== d (200,500,580) hist_linear(0,1000,10)", 3,
	  LIN(0, 1000, 10), { { 200, 1 }, { 500, 1 }, { 580, 1 } } },
};

/* The block after @header in FILE.out, up to the next "== " line. */
static char *expected(const char *file, const char *header)
{
	char path[256], line[4096];
	static char block[65536];
	size_t len = 0;
	bool in = false;
	FILE *f;

	snprintf(path, sizeof(path), "testsuite/observed/%s.out", file);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	block[0] = 0;
	while (fgets(line, sizeof(line), f)) {
		if (in && !strncmp(line, "== ", 3))
			break;
		if (in && len + strlen(line) < sizeof(block)) {
			strcpy(block + len, line);
			len += strlen(line);
		}
		if (!in && !strncmp(line, header, strlen(header)) &&
		    line[strlen(header)] == '\n')
			in = true;
	}
	fclose(f);
	return in ? block : NULL;
}

int main(void)
{
	size_t k;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		const struct hcase *c = &cases[k];
		struct stp_stat_desc d = { .hist = c->hist, .lo = c->lo, .hi = c->hi,
					   .step = c->step };
		struct stp_stat *s;
		static char out[65536];
		const char *want;
		int i, r, t;

		stp_stat_desc_init(&d);
		s = calloc(1, stp_stat_size(&d));
		for (i = 0; c->runs[i].times; i++)
			for (t = 0; t < c->runs[i].times; t++)
				stp_stat_add(s, &d, c->runs[i].value);
		r = stp_hist_format(out, sizeof(out), s, &d, c->elision);
		want = expected(c->file, c->header);
		if (want && r >= 0 && !strcmp(out, want)) {
			passed++;
		} else {
			failed++;
			printf("FAIL %s \"%s\" (elision %d): %s\n--- want\n%s--- got\n%s",
			       c->file, c->header, c->elision,
			       want ? "differs" : "no such block", want ? want : "",
			       r >= 0 ? out : "(error)\n");
		}
		free(s);
	}
	{
		/* an empty aggregate is the caller's error */
		struct stp_stat_desc d = { .hist = STP_HIST_LOG };
		struct stp_stat *s;
		char buf[64];

		stp_stat_desc_init(&d);
		s = calloc(1, stp_stat_size(&d));
		if (stp_hist_format(buf, sizeof(buf), s, &d, 2) == -ENODATA)
			passed++;
		else
			failed++, printf("FAIL empty aggregate not reported\n");
		/* a tiny buffer is cut, never overrun */
		stp_stat_add(s, &d, 5);
		if (stp_hist_format(buf, 10, s, &d, 2) == 9 && buf[9] == '\0')
			passed++;
		else
			failed++, printf("FAIL output not cut at the buffer\n");
		free(s);
	}
	return CHECK_SUMMARY();
}
