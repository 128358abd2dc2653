// SPDX-License-Identifier: GPL-2.0-or-later
/* transport.c: probe output and control messages to staprun (protocol:
 * doc/transport.md). Each CPU has a ring of records [len, seq, bytes]: a
 * handler's output is committed as whole records under the ring's lock
 * with interrupts off, never waits, and what does not fit is dropped and
 * counted (as is what an NMI handler finds the lock taken for). The
 * reader (.stp_out) copies whole records, oldest sequence number first
 * across CPUs, so output keeps the order in which handlers
 * committed it. Control records (.stp_ctl) share one small ring. A kernel
 * timer wakes readers, since waking from probe context could deadlock. */

static unsigned int _stp_bufsize = STP_BUFSIZE_DEFAULT;
module_param(_stp_bufsize, uint, 0400);
static int _stp_bulk;
module_param(_stp_bulk, int, 0400);

struct stp_rec {
	u32 len;
	u32 pad;
	u64 seq;
};

struct stp_ring {
	spinlock_t lock;
	char *buf;
	size_t size;
	u64 head, tail;			/* bytes written / read, ever */
	u64 dropped;
};

#define STP_CTL_SIZE 16384
/* Left free by every control record but the last ones of a session (the
 * count of dropped messages, D): thousands of warnings at the end (missed
 * hits of a whole-kernel script) may fill the ring, but never take the
 * room of the record staprun waits for. */
#define STP_CTL_RESERVE 1024
#define STP_BOUNCE_SIZE 65536
#define STP_WAKE_MS 20

struct stp_transport {
	struct stp_ring *rings;		/* one per possible CPU */
	struct stp_ring ctl;
	atomic64_t seq;
	wait_queue_head_t out_wq, ctl_wq;
	struct mutex read_mutex;
	char *bounce;
	struct timer_list wake_timer;
	bool timer_live;
	bool done;			/* D queued: readers see EOF when empty */
	struct proc_dir_entry *dir;
	u64 ctl_dropped;
	atomic_t ctl_open;		/* .stp_ctl has its one opener */
	atomic_t detached;		/* "detach": closing .stp_ctl leaves
					 * the session running (staprun -L) */
};

static struct stp_transport stp_tp;

struct proc_dir_entry *stp_transport_dir(void)
{
	return stp_tp.dir;
}

static int stp_ring_init(struct stp_ring *r, size_t size)
{
	spin_lock_init(&r->lock);
	r->buf = stp_vzalloc(size);
	r->size = size;
	return r->buf ? 0 : -ENOMEM;
}

static size_t stp_ring_used(const struct stp_ring *r)
{
	return (size_t)(r->head - r->tail);
}

static void stp_ring_copy_in(struct stp_ring *r, const void *src, size_t n)
{
	size_t at = (size_t)(r->head % r->size);
	size_t first = min(n, r->size - at);

	memcpy(r->buf + at, src, first);
	memcpy(r->buf, (const char *)src + first, n - first);
	r->head += n;
}

static void stp_ring_copy_out(struct stp_ring *r, void *dst, size_t n)
{
	size_t at = (size_t)(r->tail % r->size);
	size_t first = min(n, r->size - at);

	memcpy(dst, r->buf + at, first);
	memcpy((char *)dst + first, r->buf, n - first);
	r->tail += n;
}

/* Append one record, leaving @keep bytes free; false (and counted) when
 * it does not fit. */
static bool stp_ring_put(struct stp_ring *r, const char *data, size_t n, size_t keep)
{
	struct stp_rec rec = { .len = (u32)n };
	unsigned long flags;
	bool ok;

	/* In an NMI (perf probes on hardware counters) the lock may be held
	 * by the code interrupted on this CPU: no waiting there. */
	if (in_nmi()) {
		local_irq_save(flags);
		if (!spin_trylock(&r->lock)) {
			local_irq_restore(flags);
			r->dropped += n;	/* racy, as a count may be */
			return false;
		}
	} else {
		spin_lock_irqsave(&r->lock, flags);
	}
	ok = r->buf && stp_ring_used(r) + sizeof(rec) + n + keep <= r->size;
	if (ok) {
		rec.seq = (u64)atomic64_inc_return(&stp_tp.seq);
		stp_ring_copy_in(r, &rec, sizeof(rec));
		stp_ring_copy_in(r, data, n);
	} else {
		r->dropped += n;
	}
	spin_unlock_irqrestore(&r->lock, flags);
	return ok;
}

/* The next record's header, if any (caller holds the lock). */
static bool stp_ring_peek(struct stp_ring *r, struct stp_rec *rec)
{
	size_t at, first;

	if (stp_ring_used(r) < sizeof(*rec))
		return false;
	at = (size_t)(r->tail % r->size);
	first = min(sizeof(*rec), r->size - at);
	memcpy(rec, r->buf + at, first);
	memcpy((char *)rec + first, r->buf, sizeof(*rec) - first);
	return true;
}

/* Output of the current handler: called from probe context. */
static void stp_transport_write(const char *data, size_t n)
{
	struct stp_ring *r;

	if (!n || !stp_tp.rings)
		return;
	r = &stp_tp.rings[raw_smp_processor_id()];
	stp_ring_put(r, data, n, 0);
}

/* A control record "T TEXT" (TEXT's newlines become spaces, except a
 * last one: error("...\n") prints one line, as in the reference). */
static void stp_ctl_put(char type, const char *text, size_t keep)
{
	char line[STP_ERR_SIZE + 64];
	size_t n = 0;

	line[n++] = type;
	line[n++] = ' ';
	for (; *text && n < sizeof(line) - 1; text++) {
		if (*text == '\n' && !text[1])
			break;
		line[n++] = *text == '\n' ? ' ' : *text;
	}
	line[n++] = '\n';
	if (!stp_ring_put(&stp_tp.ctl, line, n, keep))
		stp_tp.ctl_dropped++;
}

void stp_ctl_send(char type, const char *text)
{
	stp_ctl_put(type, text, STP_CTL_RESERVE);
}

void stp_ctl_send_last(char type, const char *text)
{
	stp_ctl_put(type, text, 0);
}

static bool stp_out_pending(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		if (stp_ring_used(&stp_tp.rings[cpu]))
			return true;
	return false;
}

static void stp_wake_readers(void)
{
	if (stp_out_pending())
		wake_up_interruptible(&stp_tp.out_wq);
	if (stp_ring_used(&stp_tp.ctl))
		wake_up_interruptible(&stp_tp.ctl_wq);
}

static void stp_wake_timer_fn(struct timer_list *t)
{
	stp_wake_readers();
	if (READ_ONCE(stp_tp.timer_live))
		mod_timer(&stp_tp.wake_timer, jiffies + msecs_to_jiffies(STP_WAKE_MS));
}

/* Copy whole records (oldest first) into the bounce buffer: bytes. */
static size_t stp_out_gather(size_t room)
{
	size_t got = 0;

	for (;;) {
		struct stp_ring *best = NULL;
		struct stp_rec rec, best_rec = { 0 };
		unsigned long flags;
		unsigned int cpu;
		size_t hdr;

		for_each_possible_cpu(cpu) {
			struct stp_ring *r = &stp_tp.rings[cpu];

			spin_lock_irqsave(&r->lock, flags);
			if (stp_ring_peek(r, &rec) &&
			    (!best || rec.seq < best_rec.seq)) {
				best = r;
				best_rec = rec;
			}
			spin_unlock_irqrestore(&r->lock, flags);
		}
		if (!best)
			break;
		hdr = _stp_bulk ? 2 * sizeof(u32) : 0;
		if (got + hdr + best_rec.len > room)
			break;		/* records are smaller than the bounce buffer */
		spin_lock_irqsave(&best->lock, flags);
		stp_ring_copy_out(best, &rec, sizeof(rec));
		stp_ring_copy_out(best, stp_tp.bounce + got + hdr, rec.len);
		spin_unlock_irqrestore(&best->lock, flags);
		if (hdr) {
			/* -b: [u32 cpu][u32 len] before each record */
			u32 h[2] = { (u32)(best - stp_tp.rings), rec.len };

			memcpy(stp_tp.bounce + got, h, sizeof(h));
		}
		got += hdr + rec.len;
	}
	return got;
}

static ssize_t stp_out_read(struct file *f, char __user *ubuf, size_t count,
			    loff_t *ppos)
{
	size_t got;
	int rc;

	/* Whole records only: a reader must take the largest one. */
	if (count < STP_OUT_SIZE + 2 * sizeof(u32))
		return -EINVAL;
	for (;;) {
		if (mutex_lock_interruptible(&stp_tp.read_mutex))
			return -ERESTARTSYS;
		got = stp_out_gather(min_t(size_t, count, STP_BOUNCE_SIZE));
		if (got) {
			rc = copy_to_user(ubuf, stp_tp.bounce, got) ? -EFAULT : 0;
			mutex_unlock(&stp_tp.read_mutex);
			return rc ? rc : (ssize_t)got;
		}
		mutex_unlock(&stp_tp.read_mutex);
		if (READ_ONCE(stp_tp.done))
			return 0;
		if (f->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(stp_tp.out_wq,
					     stp_out_pending() || READ_ONCE(stp_tp.done)))
			return -ERESTARTSYS;
	}
}

static __poll_t stp_out_poll(struct file *f, poll_table *wait)
{
	poll_wait(f, &stp_tp.out_wq, wait);
	return stp_out_pending() || READ_ONCE(stp_tp.done) ? EPOLLIN | EPOLLRDNORM : 0;
}

/* Control records are lines: a read returns whole lines. */
static ssize_t stp_ctl_read(struct file *f, char __user *ubuf, size_t count,
			    loff_t *ppos)
{
	struct stp_ring *r = &stp_tp.ctl;
	unsigned long flags;
	size_t got = 0;
	struct stp_rec rec;

	for (;;) {
		if (mutex_lock_interruptible(&stp_tp.read_mutex))
			return -ERESTARTSYS;
		for (;;) {
			spin_lock_irqsave(&r->lock, flags);
			if (!stp_ring_peek(r, &rec) || got + rec.len > count ||
			    got + rec.len > STP_BOUNCE_SIZE) {
				spin_unlock_irqrestore(&r->lock, flags);
				break;
			}
			stp_ring_copy_out(r, &rec, sizeof(rec));
			stp_ring_copy_out(r, stp_tp.bounce + got, rec.len);
			spin_unlock_irqrestore(&r->lock, flags);
			got += rec.len;
		}
		if (got) {
			int rc = copy_to_user(ubuf, stp_tp.bounce, got) ? -EFAULT : 0;

			mutex_unlock(&stp_tp.read_mutex);
			return rc ? rc : (ssize_t)got;
		}
		mutex_unlock(&stp_tp.read_mutex);
		if (f->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(stp_tp.ctl_wq, stp_ring_used(r) > 0))
			return -ERESTARTSYS;
	}
}

static __poll_t stp_ctl_poll(struct file *f, poll_table *wait)
{
	poll_wait(f, &stp_tp.ctl_wq, wait);
	return stp_ring_used(&stp_tp.ctl) ? EPOLLIN | EPOLLRDNORM : 0;
}

static int stp_session_start(void);
static void stp_session_stop(void);
static bool stp_session_abandon(void);

static ssize_t stp_ctl_write(struct file *f, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	char cmd[16];
	size_t n = min(count, sizeof(cmd) - 1);
	int rc = 0;

	if (copy_from_user(cmd, ubuf, n))
		return -EFAULT;
	cmd[n] = '\0';
	strim(cmd);
	if (!strcmp(cmd, "start"))
		rc = stp_session_start();
	else if (!strcmp(cmd, "stop"))
		stp_session_stop();
	else if (!strcmp(cmd, "detach"))
		atomic_set(&stp_tp.detached, 1);
	else if (!strcmp(cmd, "attach"))
		atomic_set(&stp_tp.detached, 0);
	else
		rc = -EINVAL;
	return rc ? rc : (ssize_t)count;
}

/* One controller at a time: a second staprun (or a stray `cat`) that
 * opened .stp_ctl would steal the records that belong to the first. */
static int stp_ctl_open(struct inode *inode, struct file *f)
{
	if (atomic_cmpxchg(&stp_tp.ctl_open, 0, 1))
		return -EBUSY;
	return 0;
}

/* The controller went away. When it never asked for "stop" (staprun was
 * killed with SIGKILL, or crashed), stop the session here: the probes
 * are unregistered and the end probes run, so an orphaned module costs
 * the kernel nothing until someone unloads it (staprun -d NAME, rmmod).
 * Their output stays in the buffers; nobody reads it. After "detach"
 * (staprun -L, stap -F) the session goes on: output and records wait in
 * the buffers for staprun -A, which says "attach". */
static int stp_ctl_release(struct inode *inode, struct file *f)
{
	if (!READ_ONCE(stp_tp.done) && !atomic_read(&stp_tp.detached) &&
	    stp_session_abandon())
		pr_notice("%s: staprun closed the control file without stopping the session: stopped it\n",
			  THIS_MODULE->name);
	atomic_set(&stp_tp.ctl_open, 0);
	return 0;
}

/* What both files do with their records: PREFIX_read and PREFIX_poll,
 * and no seeking. */
#define STP_RECORD_FILE(prefix) \
	.proc_read = prefix##_read, .proc_poll = prefix##_poll, .proc_lseek = noop_llseek

static const struct proc_ops stp_out_ops = { STP_RECORD_FILE(stp_out) };

/* The control file also takes commands (write) and has one controller at
 * a time (open, release). */
static const struct proc_ops stp_ctl_ops = {
	STP_RECORD_FILE(stp_ctl),
	.proc_write = stp_ctl_write,
	.proc_open = stp_ctl_open,
	.proc_release = stp_ctl_release,
};

/* Does /proc/systemtap exist (made by another module)? proc_mkdir() of
 * an existing name would warn in the kernel log. */
static bool stp_proc_systemtap_exists(void)
{
	struct path p;

	if (kern_path("/proc/systemtap", LOOKUP_DIRECTORY, &p))
		return false;
	path_put(&p);
	return true;
}

/* "/proc/systemtap" is made when missing and never removed (another
 * module may use it; an empty directory costs nothing). */
static int stp_transport_init(void)
{
	char path[80];
	unsigned int cpu;
	size_t size = clamp_t(size_t, _stp_bufsize, 4096, 1UL << 30);

	init_waitqueue_head(&stp_tp.out_wq);
	init_waitqueue_head(&stp_tp.ctl_wq);
	mutex_init(&stp_tp.read_mutex);
	atomic64_set(&stp_tp.seq, 0);
	stp_tp.rings = stp_vzalloc(sizeof(*stp_tp.rings) * nr_cpu_ids);
	stp_tp.bounce = stp_vmalloc(STP_BOUNCE_SIZE);
	if (!stp_tp.rings || !stp_tp.bounce)
		return -ENOMEM;
	for_each_possible_cpu(cpu)
		if (stp_ring_init(&stp_tp.rings[cpu], size))
			return -ENOMEM;
	if (stp_ring_init(&stp_tp.ctl, STP_CTL_SIZE))
		return -ENOMEM;

	if (!stp_proc_systemtap_exists())
		proc_mkdir("systemtap", NULL);
	snprintf(path, sizeof(path), "systemtap/%s", THIS_MODULE->name);
	stp_tp.dir = STP_FAULT_PTR("transport directory", proc_mkdir(path, NULL));
	if (!stp_tp.dir)
		return -EEXIST;
	if (!STP_FAULT_PTR("transport file .stp_out",
			   proc_create(".stp_out", 0400, stp_tp.dir, &stp_out_ops)) ||
	    !STP_FAULT_PTR("transport file .stp_ctl",
			   proc_create(".stp_ctl", 0600, stp_tp.dir, &stp_ctl_ops)))
		return -ENOMEM;
	timer_setup(&stp_tp.wake_timer, stp_wake_timer_fn, 0);
	stp_tp.timer_live = true;
	mod_timer(&stp_tp.wake_timer, jiffies + msecs_to_jiffies(STP_WAKE_MS));
	return 0;
}

/* The session is over: readers get EOF once the buffers are empty. */
static void stp_transport_done(void)
{
	WRITE_ONCE(stp_tp.done, true);
	wake_up_interruptible(&stp_tp.out_wq);
	wake_up_interruptible(&stp_tp.ctl_wq);
}

/* Unloading under a running staprun (rmmod from outside): give it up to
 * two seconds to read what the end probes printed and close its files,
 * before the files go away under it. */
static void stp_transport_drain(void)
{
	int i;

	for (i = 0; i < 200 && atomic_read(&stp_tp.ctl_open); i++)
		msleep(10);
}

static u64 stp_transport_dropped(void)
{
	unsigned long flags;
	unsigned int cpu;
	u64 n = 0;

	if (!stp_tp.rings)
		return 0;
	for_each_possible_cpu(cpu) {
		struct stp_ring *r = &stp_tp.rings[cpu];

		spin_lock_irqsave(&r->lock, flags);
		n += r->dropped;
		spin_unlock_irqrestore(&r->lock, flags);
	}
	return n;
}

static void stp_transport_exit(void)
{
	unsigned int cpu;

	if (stp_tp.timer_live) {
		WRITE_ONCE(stp_tp.timer_live, false);
#ifdef STAPCONF_TIMER_DELETE_SYNC
		timer_delete_sync(&stp_tp.wake_timer);
#else
		del_timer_sync(&stp_tp.wake_timer);
#endif
	}
	if (stp_tp.dir) {
		char path[80];

		snprintf(path, sizeof(path), "systemtap/%s", THIS_MODULE->name);
		remove_proc_subtree(path, NULL);
	}
	if (stp_tp.rings) {
		for_each_possible_cpu(cpu)
			vfree(stp_tp.rings[cpu].buf);
		vfree(stp_tp.rings);
	}
	vfree(stp_tp.ctl.buf);
	vfree(stp_tp.bounce);
}
