// SPDX-License-Identifier: GPL-2.0-or-later
/* netfilter.c: the netfilter family: netfilter.hook("HOOK").pf("PF"),
 * netfilter.pf("PF").hook("HOOK"), each with an optional
 * .priority("PRIO"): a netfilter hook function registered in every network
 * namespace (runtime/linux/netfilter.c). The names are the kernel's
 * (NFPROTO_*, NF_INET_*, NF_IP6_*, NF_ARP_*, NF_BR_*, NF_IP_PRI_*,
 * NF_IP6_PRI_*); in guru mode any other text is passed to the C compiler
 * as it is. The probes' context variables are $hooknum, $skb, $in, $out,
 * $okfn and, in guru mode, $verdict (the hook's answer). */
#include "elaborate/probes/points.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "util/arena.h"

static int derive(struct elab *e, struct pm_ctx *c, const struct probe_point *pp);

/* stp_nf_var() of runtime/linux/netfilter.c reads them from the hit */
static const struct pm_ctxvar netfilter_vars[] = {
	{ .name = "$hooknum", .get = "stp_nf_var(CONTEXT, STP_NF_HOOKNUM)" },
	{ .name = "$skb", .get = "stp_nf_var(CONTEXT, STP_NF_SKB)",
	  .type = "struct sk_buff" },
	{ .name = "$in", .get = "stp_nf_var(CONTEXT, STP_NF_IN)",
	  .type = "struct net_device" },
	{ .name = "$out", .get = "stp_nf_var(CONTEXT, STP_NF_OUT)",
	  .type = "struct net_device" },
	{ .name = "$okfn", .get = "stp_nf_var(CONTEXT, STP_NF_OKFN)" },
	{ .name = "$verdict", .get = "stp_nf_var(CONTEXT, STP_NF_VERDICT)",
	  .set = "stp_nf_set_verdict(CONTEXT, STAP_ARG_value);",
	  .guru = "write to netfilter verdict requires guru mode; need stap -g" },
	{ 0 }
};

static const struct pm_family netfilter_family = {
	.name = "netfilter", .derive = derive, .mech = MECH_netfilter,
	.ctxvars = netfilter_vars,
	.ctx_readonly = "write to netfilter parameter not permitted",
};

struct nf_name {
	const char *name;
	int value;
};

static const struct nf_name pfs[] = {
	{ "NFPROTO_IPV4", 2 }, { "NFPROTO_IPV6", 10 },
	{ "NFPROTO_ARP", 3 }, { "NFPROTO_BRIDGE", 7 },
	{ 0 }
};

static const struct nf_name hooks_ipv4[] = {
	{ "NF_INET_PRE_ROUTING", 0 }, { "NF_INET_LOCAL_IN", 1 },
	{ "NF_INET_FORWARD", 2 }, { "NF_INET_LOCAL_OUT", 3 },
	{ "NF_INET_POST_ROUTING", 4 },
	{ "NF_IP_PRE_ROUTING", 0 }, { "NF_IP_LOCAL_IN", 1 },
	{ "NF_IP_FORWARD", 2 }, { "NF_IP_LOCAL_OUT", 3 },
	{ "NF_IP_POST_ROUTING", 4 },
	{ 0 }
};

static const struct nf_name hooks_ipv6[] = {
	{ "NF_IP6_PRE_ROUTING", 0 }, { "NF_IP6_LOCAL_IN", 1 },
	{ "NF_IP6_FORWARD", 2 }, { "NF_IP6_LOCAL_OUT", 3 },
	{ "NF_IP6_POST_ROUTING", 4 },
	{ 0 }
};

static const struct nf_name hooks_arp[] = {
	{ "NF_ARP_IN", 0 }, { "NF_ARP_OUT", 1 }, { "NF_ARP_FORWARD", 2 },
	{ 0 }
};

static const struct nf_name hooks_bridge[] = {
	{ "NF_BR_PRE_ROUTING", 0 }, { "NF_BR_LOCAL_IN", 1 },
	{ "NF_BR_FORWARD", 2 }, { "NF_BR_LOCAL_OUT", 3 },
	{ "NF_BR_POST_ROUTING", 4 },
	{ 0 }
};

/* <uapi/linux/netfilter_ipv4.h>, <uapi/linux/netfilter_ipv6.h>: the
 * names scripts may give (not the defragmentation and helper ones) */
static const struct nf_name prios_ipv4[] = {
	{ "NF_IP_PRI_FIRST", INT_MIN }, { "NF_IP_PRI_CONNTRACK_DEFRAG", -400 },
	{ "NF_IP_PRI_RAW", -300 }, { "NF_IP_PRI_SELINUX_FIRST", -225 },
	{ "NF_IP_PRI_CONNTRACK", -200 }, { "NF_IP_PRI_MANGLE", -150 },
	{ "NF_IP_PRI_NAT_DST", -100 }, { "NF_IP_PRI_FILTER", 0 },
	{ "NF_IP_PRI_SECURITY", 50 }, { "NF_IP_PRI_NAT_SRC", 100 },
	{ "NF_IP_PRI_SELINUX_LAST", 225 },
	{ "NF_IP_PRI_CONNTRACK_CONFIRM", INT_MAX }, { "NF_IP_PRI_LAST", INT_MAX },
	{ 0 }
};

static const struct nf_name prios_ipv6[] = {
	{ "NF_IP6_PRI_FIRST", INT_MIN }, { "NF_IP6_PRI_CONNTRACK_DEFRAG", -400 },
	{ "NF_IP6_PRI_RAW", -300 }, { "NF_IP6_PRI_SELINUX_FIRST", -225 },
	{ "NF_IP6_PRI_CONNTRACK", -200 }, { "NF_IP6_PRI_MANGLE", -150 },
	{ "NF_IP6_PRI_NAT_DST", -100 }, { "NF_IP6_PRI_FILTER", 0 },
	{ "NF_IP6_PRI_SECURITY", 50 }, { "NF_IP6_PRI_NAT_SRC", 100 },
	{ "NF_IP6_PRI_SELINUX_LAST", 225 }, { "NF_IP6_PRI_LAST", INT_MAX },
	{ 0 }
};

static const struct nf_name *lookup(const struct nf_name *v, const char *name)
{
	for (; v && v->name; v++)
		if (!strcmp(v->name, name))
			return v;
	return NULL;
}

/* C for int @v (INT_MIN is not a literal) */
static const char *c_int(struct elab *e, long v)
{
	if (v == INT_MIN)
		return "(-2147483647 - 1)";
	return arena_printf(e->a, "%ld", v);
}

/* A decimal priority, as strtol reads it (leading blanks and a sign),
 * wholly used and in the range of an int: its C, or NULL. */
static const char *number(struct elab *e, const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s || *end || errno || v < INT_MIN || v > INT_MAX)
		return NULL;
	return c_int(e, v);
}

static int derive(struct elab *e, struct pm_ctx *c, const struct probe_point *pp)
{
	const struct expr *hook = pm_param_of(pp, "hook");
	const struct expr *pf = pm_param_of(pp, "pf");
	const struct expr *prio = pm_param_of(pp, "priority");
	const struct nf_name *hooks = NULL, *prios = NULL, *n;
	struct netfilter_point *d = arena_new_obj(e->a, struct netfilter_point);
	struct elab_point *pt;
	bool guru = pm_guru(e, c);
	const char *pfnum;

	n = lookup(pfs, pf->str.s);
	if (n) {
		d->pf = c_int(e, n->value);
		hooks = n->value == 2 ? hooks_ipv4 : n->value == 10 ? hooks_ipv6 :
			n->value == 3 ? hooks_arp : hooks_bridge;
		prios = n->value == 2 ? prios_ipv4 : n->value == 10 ? prios_ipv6 : NULL;
	} else if (guru) {
		d->pf = pf->str.s;
	} else {
		pm_error(e, c, &pf->loc, elab_token(e, pf),
			 "unsupported netfilter protocol family \"%s\"; need stap -g",
			 pf->str.s);
		return -1;
	}
	pfnum = n ? d->pf : pf->str.s;
	n = lookup(hooks, hook->str.s);
	if (n) {
		d->hook = c_int(e, n->value);
	} else if (guru) {
		d->hook = hook->str.s;
	} else {
		pm_error(e, c, &hook->loc, elab_token(e, hook),
			 "unsupported netfilter hook \"%s\" for protocol family \"%s\"; "
			 "need stap -g", hook->str.s, pfnum);
		return -1;
	}
	d->priority = "0";
	if (prio) {
		n = lookup(prios, prio->str.s);
		d->priority = n ? c_int(e, n->value) : number(e, prio->str.s);
		if (!d->priority && guru) {
			d->priority = prio->str.s;
		} else if (!d->priority) {
			pm_error(e, c, &prio->loc, elab_token(e, prio),
				 "unsupported netfilter priority \"%s\" for protocol family "
				 "\"%s\"; need stap -g", prio->str.s, pfnum);
			return -1;
		}
	}
	pt = pm_point(e, c, pp);
	pt->family = &netfilter_family;
	pt->data = d;
	pm_emit(e, c, pt);
	return 1;
}

void pm_register_netfilter(struct elab *e)
{
	static const char *const specs[] = {
		"netfilter.hook(s).pf(s)", "netfilter.pf(s).hook(s)",
		"netfilter.hook(s).pf(s).priority(s)",
		"netfilter.pf(s).hook(s).priority(s)",
	};
	size_t i;

	for (i = 0; i < sizeof(specs) / sizeof(specs[0]); i++)
		pm_register(e, specs[i], &netfilter_family);
}
