/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tp_lookup.h: kernel tracepoints found by name at start, with
 * for_each_kernel_tracepoint() (most are not exported as symbols), for
 * the mechanisms that put fixed callbacks on fixed tracepoints
 * (syscall.c, proclife.c). */
#ifndef STP_TP_LOOKUP_H
#define STP_TP_LOOKUP_H

#include <linux/string.h>
#include <linux/tracepoint.h>

struct stp_tp_want {
	const char *name;
	struct tracepoint **tp;		/* set to the tracepoint, or NULL */
};

struct stp_tp_wants {
	const struct stp_tp_want *v;
	unsigned int n;
};

static void stp_tp_lookup_one(struct tracepoint *tp, void *priv)
{
	const struct stp_tp_wants *w = priv;
	unsigned int i;

	for (i = 0; i < w->n; i++)
		if (!*w->v[i].tp && !strcmp(tp->name, w->v[i].name))
			*w->v[i].tp = tp;
}

/* Find each of the @n tracepoints of @v (NULL: the kernel has none). */
static inline void stp_tp_lookup(const struct stp_tp_want *v, unsigned int n)
{
	struct stp_tp_wants w = { v, n };
	unsigned int i;

	for (i = 0; i < n; i++)
		*v[i].tp = NULL;
	for_each_kernel_tracepoint(stp_tp_lookup_one, &w);
}

#endif
