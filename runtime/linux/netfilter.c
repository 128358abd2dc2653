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
#include <linux/netfilter_arp.h>
#include <linux/netfilter_bridge.h>
#include <linux/netfilter_ipv4.h>
#include <linux/netfilter_ipv6.h>
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

/* How much of the data_str budget a byte takes: what its octal escape
 * would (the reference cuts the text where those would fill a string). */
static size_t stp_nf_cost(unsigned char ch)
{
	if (ch == '"' || ch == '\\')
		return 2;
	return ch >= 32 && ch < 127 ? 1 : 4;
}

/*
 * data_hex (@hex) or data_str of the packet of the hit in @c (when @skbaddr
 * is that packet) into @dst (MAXSTRINGLEN): its bytes, the linear part then
 * each page fragment, as hex digits cut at MAXSTRINGLEN - 1 of them; or
 * each part escaped in double quotes (NUL as \0, a valid UTF-8 sequence as
 * \uXXXX, other unprintable bytes as \ooo), up to the bytes whose octal
 * escapes would fill a string (no "..." mark), as the reference shows
 * them. Bytes are copied with skb_copy_bits() into the per-CPU scratch
 * buffer; every loop is bounded by the string's size.
 */
static void stp_nf_data(struct stp_context *c, u64 skbaddr, char *dst, bool hex)
{
	static const char digits[] = "0123456789abcdef";
	struct sk_buff *skb = c->nf ? c->nf->skb : NULL;
	char *raw = stp_scratch(), e[STP_ESCAPE_MAX];
	size_t at = 0, cost = 0, seglen, n, i, k, used;
	unsigned int seg, nsegs, off = 0;

	dst[0] = '\0';
	if (!skb || (unsigned long)skbaddr != (unsigned long)skb)
		return;
	nsegs = 1 + skb_shinfo(skb)->nr_frags;
	for (seg = 0; seg < nsegs && off < skb->len; seg++) {
		seglen = seg ? skb_frag_size(&skb_shinfo(skb)->frags[seg - 1])
			     : skb_headlen(skb);
		n = min_t(size_t, seglen, MAXSTRINGLEN - 1);
		n = min_t(size_t, n, skb->len - off);
		if (!n)
			continue;
		if (skb_copy_bits(skb, off, raw, n))
			break;
		raw[n] = '\0';
		off += seglen;
		if (hex) {
			for (i = 0; i < n && at < MAXSTRINGLEN - 1; i++) {
				dst[at++] = digits[(unsigned char)raw[i] >> 4];
				if (at < MAXSTRINGLEN - 1)
					dst[at++] = digits[raw[i] & 0xf];
			}
			dst[at] = '\0';
			if (at >= MAXSTRINGLEN - 1)
				return;
			continue;
		}
		if (at + 2 > MAXSTRINGLEN - 1 || cost >= MAXSTRINGLEN - 1)
			break;
		dst[at++] = '"';
		for (i = 0; i < n; i += used) {
			if (raw[i]) {
				k = stp_escape_next(e, raw + i, &used);
			} else {
				memcpy(e, "\\0", 2);
				k = 2;
				used = 1;
			}
			for (seglen = 0; seglen < used; seglen++)
				cost += stp_nf_cost((unsigned char)raw[i + seglen]);
			if (cost > MAXSTRINGLEN - 1 || at + k + 1 > MAXSTRINGLEN - 1)
				break;
			memcpy(dst + at, e, k);
			at += k;
		}
		dst[at++] = '"';
		dst[at] = '\0';
		if (i < n)
			return;
	}
}

static int __net_init stp_nf_net_init(struct net *net)
{
	struct stp_nf_net *s = net_generic(net, stp_nf_net_id);
	int rc;

	rc = STP_FAULT_RC("netfilter hooks", nf_register_net_hooks(net, stp_nf_ops, stp_nf_n));
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

	stp_nf_ops = stp_kcalloc(n, sizeof(*stp_nf_ops), GFP_KERNEL);
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
	rc = STP_FAULT_RC("netfilter pernet operations", register_pernet_subsys(&stp_nf_net_ops));
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
