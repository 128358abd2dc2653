// SPDX-License-Identifier: GPL-2.0-or-later
/* monitor.c: stap --monitor's module side (doc/monitor.md). The file
 * /proc/systemtap/MODULE/monitor gives the session's status as text lines
 * and takes one command per write (pause, resume, toggle N, reset); staprun
 * -M renders the status and turns keys into commands. A paused probe stays
 * registered (armed): its handler returns before claiming the context and
 * is not counted as a hit. begin, end and error probes are never paused. */
#include <linux/seq_file.h>

static struct {
	u64 loaded_ns;			/* ktime_get_ns() at load */
	unsigned int uid;		/* who loaded the module */
	char **strings;			/* string globals' initial values */
} stp_mon;

static const char *const stp_mon_kinds[] = {
	[STP_MG_LONG] = "long", [STP_MG_STRING] = "string", [STP_MG_ARRAY] = "array",
	[STP_MG_STAT] = "stat", [STP_MG_PMAP] = "statarray",
};

/* The value column of global @g (its lock held). */
static void stp_mon_show_global(struct seq_file *m, const struct stp_mon_global *g)
{
	const char *s;

	switch (g->kind) {
	case STP_MG_LONG:
		seq_printf(m, "%lld", *(s64 *)g->var);
		break;
	case STP_MG_STRING:
		for (s = g->var; *s; s++)
			seq_putc(m, *s == '\n' ? ' ' : *s);
		break;
	case STP_MG_ARRAY:
		seq_printf(m, "%u", stp_map_size(((struct stp_array *)g->var)->m));
		break;
	case STP_MG_STAT:
		seq_printf(m, "%lld", (long long)stp_pstat_get(g->var)->count);
		break;
	case STP_MG_PMAP:
		seq_printf(m, "%u", stp_map_size(stp_pmap_agg(g->var)));
		break;
	}
}

/* Reading a statistic merges the CPUs' parts: that takes the write lock. */
static bool stp_mon_writes(const struct stp_mon_global *g)
{
	return g->kind == STP_MG_STAT || g->kind == STP_MG_PMAP;
}

static int stp_mon_show(struct seq_file *m, void *unused)
{
	const struct stp_monitor_desc *d = stp_module.monitor;
	unsigned int i, cpu;
	unsigned long flags;

	seq_printf(m, "uptime_ms %llu\n", (ktime_get_ns() - stp_mon.loaded_ns) / NSEC_PER_MSEC);
	seq_printf(m, "module %s\n", THIS_MODULE->name);
	seq_printf(m, "uid %u\n", stp_mon.uid);
	seq_printf(m, "memory %ld\n", atomic_long_read(&stp_mem_bytes));
	seq_printf(m, "state %s\n", stp_running() ? "running" : "stopped");
	for (i = 0; i < d->nglobals; i++) {
		const struct stp_mon_global *g = &d->globals[i];

		seq_printf(m, "global %s %s ", stp_mon_kinds[g->kind], g->name);
		if (stp_mon_writes(g)) {
			write_lock_irqsave(g->lock, flags);
			stp_mon_show_global(m, g);
			write_unlock_irqrestore(g->lock, flags);
		} else {
			read_lock_irqsave(g->lock, flags);
			stp_mon_show_global(m, g);
			read_unlock_irqrestore(g->lock, flags);
		}
		seq_putc(m, '\n');
	}
	for (i = 0; i < d->nprobes; i++) {
		struct stp_mon_stat sum = { 0 };
		const struct stp_probe_mon *pm = &d->mons[i];

		for_each_possible_cpu(cpu) {
			const struct stp_mon_stat *s = per_cpu_ptr(stp_mon_stats, cpu) + i;
			u64 hits = READ_ONCE(s->hits);

			if (!hits)
				continue;
			if (!sum.hits || s->min_ns < sum.min_ns)
				sum.min_ns = s->min_ns;
			if (s->max_ns > sum.max_ns)
				sum.max_ns = s->max_ns;
			sum.hits += hits;
			sum.ns += s->ns;
		}
		seq_printf(m, "probe %u %s %llu %llu %llu %llu %s\n", i,
			   pm->fixed ? "fixed" : READ_ONCE(pm->paused) ? "off" : "on",
			   sum.hits, sum.ns, sum.min_ns, sum.max_ns, d->probes[i]->pp);
	}
	return 0;
}

static int stp_mon_open(struct inode *inode, struct file *f)
{
	return single_open(f, stp_mon_show, NULL);
}

/* "c": every global back to its initial value (arrays and statistics
 * emptied), each under its write lock. */
static void stp_mon_reset(void)
{
	const struct stp_monitor_desc *d = stp_module.monitor;
	unsigned long flags;
	unsigned int i;

	for (i = 0; i < d->nglobals; i++) {
		const struct stp_mon_global *g = &d->globals[i];

		write_lock_irqsave(g->lock, flags);
		switch (g->kind) {
		case STP_MG_LONG:
			*(s64 *)g->var = *g->init;
			break;
		case STP_MG_STRING:
			strscpy(g->var, stp_mon.strings[i], MAXSTRINGLEN);
			break;
		case STP_MG_ARRAY:
			stp_map_clear(((struct stp_array *)g->var)->m);
			break;
		case STP_MG_STAT:
			stp_pstat_clear(g->var);
			break;
		case STP_MG_PMAP:
			stp_pmap_clear(g->var);
			break;
		}
		write_unlock_irqrestore(g->lock, flags);
	}
}

/* One command per write: "pause", "resume", "toggle N", "reset". */
static ssize_t stp_mon_write(struct file *f, const char __user *ubuf, size_t count,
			     loff_t *ppos)
{
	const struct stp_monitor_desc *d = stp_module.monitor;
	char buf[32];
	unsigned int i, n;
	size_t len = min(count, sizeof(buf) - 1);

	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	strim(buf);
	if (!strcmp(buf, "pause") || !strcmp(buf, "resume")) {
		for (i = 0; i < d->nprobes; i++)
			if (!d->mons[i].fixed)
				WRITE_ONCE(d->mons[i].paused, buf[0] == 'p');
	} else if (!strncmp(buf, "toggle ", 7)) {
		if (kstrtouint(buf + 7, 10, &n) || n >= d->nprobes || d->mons[n].fixed)
			return -EINVAL;
		WRITE_ONCE(d->mons[n].paused, !d->mons[n].paused);
	} else if (!strcmp(buf, "reset")) {
		stp_mon_reset();
	} else {
		return -EINVAL;
	}
	return (ssize_t)count;
}

static const struct proc_ops stp_mon_ops = {
	.proc_open = stp_mon_open,
	.proc_read = seq_read,
	.proc_lseek = seq_lseek,
	.proc_release = single_release,
	.proc_write = stp_mon_write,
};

int stp_monitor_init(void)
{
	const struct stp_monitor_desc *d = stp_module.monitor;
	unsigned int i;

	stp_mon.loaded_ns = ktime_get_ns();
	stp_mon.uid = from_kuid(&init_user_ns, current_uid());
	stp_mon_stats = __alloc_percpu(sizeof(struct stp_mon_stat) * (d->nprobes + 1),
				       __alignof__(struct stp_mon_stat));
	stp_mon.strings = stp_kcalloc(d->nglobals + 1, sizeof(char *), GFP_KERNEL);
	if (!stp_mon_stats || !stp_mon.strings)
		return -ENOMEM;
	for (i = 0; i < d->nglobals; i++) {
		if (d->globals[i].kind != STP_MG_STRING)
			continue;
		stp_mon.strings[i] = stp_vmalloc(MAXSTRINGLEN);
		if (!stp_mon.strings[i])
			return -ENOMEM;
		strscpy(stp_mon.strings[i], d->globals[i].var, MAXSTRINGLEN);
	}
	for (i = 0; i < d->nprobes; i++)
		d->mons[i].fixed = d->probes[i]->type == STP_PT_BEGIN_END;
	if (!STP_FAULT_PTR("monitor file",
			   proc_create("monitor", 0600, stp_transport_dir(), &stp_mon_ops)))
		return -ENOMEM;
	return 0;
}

void stp_monitor_free(void)
{
	unsigned int i;

	if (stp_mon.strings) {
		for (i = 0; i < stp_module.monitor->nglobals; i++)
			vfree(stp_mon.strings[i]);
		kfree(stp_mon.strings);
		stp_mon.strings = NULL;
	}
	free_percpu(stp_mon_stats);
	stp_mon_stats = NULL;
}
