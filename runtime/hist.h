/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hist.h: the text of a histogram, as print(@hist_log(s)) shows it. */
#ifndef STP_HIST_H
#define STP_HIST_H

#include "stat.h"

#ifndef HIST_ELISION
#define HIST_ELISION 2		/* empty buckets shown around a full one */
#endif

/* Format the histogram of @s (merged over CPUs) into @buf of @size bytes,
 * NUL-terminated, cut at size - 1. @elision is HIST_ELISION. Returns the
 * bytes stored, -ENODATA for an empty aggregate (the caller reports
 * "empty aggregate"), or -EINVAL when @d has no histogram. */
int stp_hist_format(char *buf, size_t size, const struct stp_stat *s,
		    const struct stp_stat_desc *d, int elision);

#endif
