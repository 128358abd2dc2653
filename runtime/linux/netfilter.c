// SPDX-License-Identifier: GPL-2.0-or-later
/* netfilter.c: netfilter.hook(...).pf(...) probes: one struct nf_hook_ops
 * per point, registered in every network namespace. A pernet_operations
 * registers them in the namespaces that exist when the session starts and
 * in each one created during it, and unregisters them when a namespace
 * goes away and when the session stops (the kernel allows one ops array
 * to be registered in any number of namespaces). The hook runs the
 * probe's body with the packet and the hook state at hand (CONTEXT->nf):
 * the body's $skb, $in, ... getters read them (stp_nf_var), and $verdict
 * (guru mode) sets what the hook answers. */

#include <linux/netfilter.h>
#include <linux/skbuff.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

/* A point, in the generated table stp_nf_probes[]. */
struct stp_nf_probe {
	const struct stp_probe *probe;
	int pf;				/* NFPROTO_* */
	unsigned int hooknum;		/* NF_INET_*, NF_ARP_*, NF_BR_* */
	int priority;
	bool optional;
};

/* What a hit's getters read: CONTEXT->nf. */
struct stp_nf_hit {
	struct sk_buff *skb;
	const struct nf_hook_state *state;
	unsigned int verdict;
};

enum stp_nf_var_id {
	STP_NF_HOOKNUM, STP_NF_SKB, STP_NF_IN, STP_NF_OUT, STP_NF_OKFN,
	STP_NF_VERDICT,
};

/* Per network namespace: are the hooks registered there? */
struct stp_nf_net {
	bool registered;
	int rc;				/* of nf_register_net_hooks() */
};

static struct nf_hook_ops *stp_nf_ops;
static unsigned int stp_nf_n;
static unsigned int stp_nf_net_id;
static bool stp_nf_pernet;		/* the pernet_operations are registered */
static atomic_t stp_nf_failed;		/* namespaces where registration failed */

static s64 stp_nf_var(struct stp_context *c, enum stp_nf_var_id id)
{
	const struct stp_nf_hit *h = c->nf;

	if (!h)
		return 0;
	switch (id) {
	case STP_NF_HOOKNUM:
		return h->state->hook;
	case STP_NF_SKB:
		return (s64)(unsigned long)h->skb;
	case STP_NF_IN:
		return (s64)(unsigned long)h->state->in;
	case STP_NF_OUT:
		return (s64)(unsigned long)h->state->out;
	case STP_NF_OKFN:
		return (s64)(unsigned long)h->state->okfn;
	case STP_NF_VERDICT:
		return h->verdict;
	}
	return 0;
}

static void stp_nf_set_verdict(struct stp_context *c, s64 v)
{
	if (c->nf)
		c->nf->verdict = (unsigned int)v;
}

/*
 * The verdict the body chose, made safe for nf_hook_slow(): NF_ACCEPT,
 * NF_DROP and NF_QUEUE (with their error or queue number bits) go as they
 * are. NF_STOLEN means that the hook owns the packet: nobody else would
 * free it, so the hook frees it here. Anything else (NF_REPEAT, NF_STOP,
 * other numbers), which the core would treat as stolen and leak, is
 * NF_ACCEPT.
 */
static unsigned int stp_nf_verdict(unsigned int v, struct sk_buff *skb)
{
	switch (v & NF_VERDICT_MASK) {
	case NF_ACCEPT:
	case NF_DROP:
	case NF_QUEUE:
		return v;
	case NF_STOLEN:
		kfree_skb(skb);
		return NF_STOLEN;
	default:
		return NF_ACCEPT;
	}
}

static unsigned int stp_nf_hook(void *priv, struct sk_buff *skb,
				const struct nf_hook_state *state)
{
	const struct stp_nf_probe *np = priv;
	struct stp_nf_hit hit = { .skb = skb, .state = state, .verdict = NF_ACCEPT };
	struct stp_context *c;

	if (!stp_running())
		return NF_ACCEPT;
	/* LOCAL_OUT runs in process context, preemptible under PREEMPT_RCU */
	preempt_disable();
	c = stp_enter(np->probe, MAXACTION_INTERRUPTIBLE);
	if (c) {
		c->nf = &hit;
		stp_run_body(c, np->probe);
		c->nf = NULL;
		stp_leave(c);
	}
	preempt_enable();
	return stp_nf_verdict(hit.verdict, skb);
}

static int __net_init stp_nf_net_init(struct net *net)
{
	struct stp_nf_net *s = net_generic(net, stp_nf_net_id);
	int rc;

	rc = nf_register_net_hooks(net, stp_nf_ops, stp_nf_n);
	s->registered = rc == 0;
	s->rc = rc;
	if (rc)
		atomic_inc(&stp_nf_failed);
	/* a namespace created during the session must not fail because of
	 * us: it goes without the probes (counted, reported at the end) */
	return 0;
}

static void __net_exit stp_nf_net_exit(struct net *net)
{
	struct stp_nf_net *s = net_generic(net, stp_nf_net_id);

	if (s->registered)
		nf_unregister_net_hooks(net, stp_nf_ops, stp_nf_n);
	s->registered = false;
}

static struct pernet_operations stp_nf_net_ops = {
	.init = stp_nf_net_init,
	.exit = stp_nf_net_exit,
	.id = &stp_nf_net_id,
	.size = sizeof(struct stp_nf_net),
};

static int stp_nf_start(const void *table, unsigned int n)
{
	const struct stp_nf_probe *v = table;
	unsigned int i;
	int rc;

	stp_nf_ops = kcalloc(n, sizeof(*stp_nf_ops), GFP_KERNEL);
	if (!stp_nf_ops)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		stp_nf_ops[i].hook = stp_nf_hook;
		stp_nf_ops[i].priv = (void *)&v[i];
		stp_nf_ops[i].pf = (u_int8_t)v[i].pf;
		stp_nf_ops[i].hooknum = v[i].hooknum;
		stp_nf_ops[i].priority = v[i].priority;
	}
	stp_nf_n = n;
	atomic_set(&stp_nf_failed, 0);
	/* init runs in every namespace that exists now (and rolls back all
	 * of them if one fails: it does not fail) */
	rc = register_pernet_subsys(&stp_nf_net_ops);
	stp_nf_pernet = rc == 0;
	if (!rc)	/* the initial namespace's registration */
		rc = ((struct stp_nf_net *)net_generic(&init_net, stp_nf_net_id))->rc;
	for (i = 0; i < n; i++) {
		int r = stp_registered(v[i].probe, v[i].optional, rc, "");

		if (r)
			return r;
	}
	return 0;
}

static void stp_nf_stop(void)
{
	if (stp_nf_pernet) {
		unregister_pernet_subsys(&stp_nf_net_ops);
		/* hooks that started before have finished: the ops can go */
		synchronize_net();
	}
	stp_nf_pernet = false;
	kfree(stp_nf_ops);
	stp_nf_ops = NULL;
}

static void stp_nf_report(void)
{
	int n = atomic_read(&stp_nf_failed);

	if (n)
		stp_warn("netfilter hooks could not be registered in %d network namespace%s",
			 n, n == 1 ? "" : "s");
}

static const struct stp_family stp_netfilter_family = {
	.name = "netfilter",
	.start = stp_nf_start,
	.stop = stp_nf_stop,
	.report = stp_nf_report,
};
