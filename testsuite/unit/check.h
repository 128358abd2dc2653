/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check.h: the counters and CHECK() of the C unit tests; each program ends
 * with CHECK_SUMMARY(), printing "N passed, N failed" for testsuite/run. */
#ifndef TESTSUITE_UNIT_CHECK_H
#define TESTSUITE_UNIT_CHECK_H

#include <stdio.h>

static int passed, failed;

#define CHECK(cond)							\
	do {								\
		if (cond) {						\
			passed++;					\
		} else {						\
			failed++;					\
			printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); \
		}							\
	} while (0)

#define CHECK_SUMMARY()							\
	(printf("%d passed, %d failed\n", passed, failed), failed ? 1 : 0)

#endif
