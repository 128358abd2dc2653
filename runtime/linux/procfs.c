// SPDX-License-Identifier: GPL-2.0-or-later
/* procfs.c: procfs("PATH").read / .write probes: files under
 * /proc/systemtap/MODULE/. A read runs the .read probe once per open file
 * (at offset 0) into the file's buffer, which $value fills; a write passes
 * the written text to the .write probe as $value. Buffers are allocated
 * at registration, one per file, under a mutex. */

/* A file, in the generated table stp_procfs[]. A script may have several
 * .write probes on one file (input.char and input.line are both
 * procfs("__stdin").write): each runs, in script order, on each write. */
struct stp_procfs_probe {
	const struct stp_probe *read;	/* may be NULL */
	const struct stp_probe *const *writes;	/* nwrites of them */
	unsigned int nwrites;
	const char *path;		/* under /proc/systemtap/MODULE */
	umode_t umode;
	size_t maxsize;			/* read buffer */
};

struct stp_procfs_state {
	const struct stp_procfs_probe *d;
	struct mutex lock;
	char *buf;
	size_t len;
	bool created;			/* its file exists (stop removes it) */
};

static struct stp_procfs_state *stp_pfs;
static unsigned int stp_pfs_n;

#ifndef STP_PROCFS_BUFSIZE
#define STP_PROCFS_BUFSIZE MAXSTRINGLEN
#endif

/* $value: the text written (.write) or to be read (.read). */
static const char *stp_procfs_value(struct stp_context *c)
{
	return c->procfs_buf ? c->procfs_buf : "";
}

/* $value = s, or $value .= s. */
static void stp_procfs_set(struct stp_context *c, const char *s, bool append)
{
	size_t n;

	if (!c->procfs_buf)
		return;
	n = append ? strnlen(c->procfs_buf, c->procfs_size - 1) : 0;
	while (n < c->procfs_size - 1 && *s)
		c->procfs_buf[n++] = *s++;
	c->procfs_buf[n] = '\0';
}

/* Run @p with $value in @s->buf (process context). */
static void stp_procfs_run(struct stp_procfs_state *s, const struct stp_probe *p)
{
	struct stp_context *c;

	preempt_disable();
	c = stp_enter(p, MAXACTION_INTERRUPTIBLE);
	if (c) {
		c->procfs_buf = s->buf;
		c->procfs_size = s->d->maxsize;
		c->procfs_len = s->len;
		stp_run_body(c, p);
		s->len = strnlen(s->buf, s->d->maxsize - 1);
		stp_leave(c);
	}
	preempt_enable();
}

static ssize_t stp_procfs_read(struct file *f, char __user *ubuf, size_t count,
			       loff_t *ppos)
{
	struct stp_procfs_state *s = pde_data(file_inode(f));
	ssize_t rc;

	if (!s->d->read)
		return -EINVAL;
	mutex_lock(&s->lock);
	if (*ppos == 0) {
		s->buf[0] = '\0';
		s->len = 0;
		if (stp_running())
			stp_procfs_run(s, s->d->read);
	}
	rc = simple_read_from_buffer(ubuf, count, ppos, s->buf, s->len);
	mutex_unlock(&s->lock);
	return rc;
}

static ssize_t stp_procfs_write(struct file *f, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	struct stp_procfs_state *s = pde_data(file_inode(f));
	unsigned int i;
	size_t n;

	if (!s->d->nwrites)
		return -EINVAL;
	mutex_lock(&s->lock);
	n = min(count, s->d->maxsize - 1);
	/* each probe gets the text as written ($value is writable) */
	for (i = 0; i < s->d->nwrites; i++) {
		if (copy_from_user(s->buf, ubuf, n)) {
			mutex_unlock(&s->lock);
			return -EFAULT;
		}
		s->buf[n] = '\0';
		s->len = n;
		if (stp_running())
			stp_procfs_run(s, s->d->writes[i]);
	}
	mutex_unlock(&s->lock);
	return (ssize_t)count;
}

static const struct proc_ops stp_procfs_ops = {
	.proc_read = stp_procfs_read,
	.proc_write = stp_procfs_write,
	.proc_lseek = default_llseek,
};

/* Did an earlier procfs probe (index below @i) make directory @sub (@n
 * bytes) already? proc_mkdir() of an existing name WARNs in the kernel
 * log ("already registered"), so each directory is made once. */
static bool stp_procfs_dir_made(unsigned int i, const char *sub, size_t n)
{
	unsigned int j;

	for (j = 0; j < i; j++) {
		const char *p = stp_pfs[j].d->path;

		if (!strncmp(p, sub, n) && p[n] == '/')
			return true;
	}
	return false;
}

static int stp_procfs_start(const void *table, unsigned int n)
{
	const struct stp_procfs_probe *v = table;
	unsigned int i;

	stp_pfs_n = n;
	stp_pfs = stp_vzalloc(sizeof(*stp_pfs) * n);
	if (!stp_pfs)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct stp_procfs_state *s = &stp_pfs[i];
		const char *path = v[i].path;
		char sub[128];
		const char *slash;

		s->d = &v[i];
		mutex_init(&s->lock);
		s->buf = stp_vzalloc(s->d->maxsize);
		if (!s->buf)
			return -ENOMEM;
		/* Parent directories first ("a/b/c" needs "a" and "a/b"). */
		for (slash = strchr(path, '/'); slash; slash = strchr(slash + 1, '/')) {
			size_t n = min_t(size_t, (size_t)(slash - path), sizeof(sub) - 1);

			memcpy(sub, path, n);
			sub[n] = '\0';
			if (!stp_procfs_dir_made(i, sub, n))
				proc_mkdir(sub, stp_transport_dir());
		}
		if (!STP_FAULT_PTR("procfs entry", proc_create_data(path, s->d->umode, stp_transport_dir(),
								 &stp_procfs_ops, s)))
			return -ENOMEM;
		s->created = true;
	}
	return 0;
}

/* The files go with the module's directory (transport.c); the buffers
 * go here, once no reader can be inside. */
static void stp_procfs_stop(void)
{
	unsigned int i;
	char path[160];

	if (!stp_pfs)
		return;
	for (i = 0; i < stp_pfs_n; i++) {
		if (!stp_pfs[i].created)
			continue;	/* a start that failed before it */
		snprintf(path, sizeof(path), "%s", stp_pfs[i].d->path);
		remove_proc_entry(path, stp_transport_dir());
	}
}

static void stp_procfs_release(void)
{
	unsigned int i;

	if (!stp_pfs)
		return;
	for (i = 0; i < stp_pfs_n; i++)
		vfree(stp_pfs[i].buf);
	vfree(stp_pfs);
	stp_pfs = NULL;
}

static const struct stp_family stp_procfs_family = {
	.name = "procfs",
	.start = stp_procfs_start,
	.stop = stp_procfs_stop,
	.release = stp_procfs_release,
};
