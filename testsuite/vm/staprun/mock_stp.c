// SPDX-License-Identifier: GPL-2.0-or-later
/* mock_stp.c: a stand-in for a stap-built module that speaks staprun's
 * protocol (doc/transport.md) with scripted behaviour, so that staprun can
 * be tested in the VM on its own. Parameters:
 *   mode=0  at "start": print "target=T bufsize=B", LINES lines, greeting,
 *           then ask to exit (X 0)
 *   mode=1  at "start": the same lines, then a line every 50 ms until "stop"
 *   mode=2  at "start": an error message and X 1 (a fatal error)
 *   mode=3  never answers "stop" with D (staprun's drain timeouts)
 * "stop" prints "end", queues "M WARNING: bye" and "D STATUS" (1 after mode
 * 2). With _stp_bulk=1 output comes as [u32 cpu][u32 len][bytes] records,
 * each line as CPU (line number % 2). */
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/proc_fs.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

static unsigned int _stp_bufsize;
module_param(_stp_bufsize, uint, 0400);
static long _stp_target;
module_param(_stp_target, long, 0400);
static int _stp_bulk;
module_param(_stp_bulk, int, 0400);
static int mode;
module_param(mode, int, 0400);
static int lines;
module_param(lines, int, 0400);
static char *greeting = "hello";
module_param(greeting, charp, 0400);

#define OUT_SIZE (8 << 20)
#define CTL_SIZE 4096

static struct {
	struct mutex lock;
	wait_queue_head_t wq;
	char *out;
	size_t out_len, out_pos;
	char ctl[CTL_SIZE];
	size_t ctl_len;
	bool started, stopped, done;
	int status;
	unsigned long ticks;
	struct delayed_work tick;
	struct proc_dir_entry *dir;
	char path[80];
} m;

/* Output (lock held); dropped when full. */
static void put_out(unsigned int nr, const char *fmt, ...)
{
	char line[256];
	va_list ap;
	u32 hdr[2];
	int n;

	va_start(ap, fmt);
	n = vscnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (m.out_len + n + sizeof(hdr) > OUT_SIZE)
		return;
	if (_stp_bulk) {
		hdr[0] = nr % 2;
		hdr[1] = n;
		memcpy(m.out + m.out_len, hdr, sizeof(hdr));
		m.out_len += sizeof(hdr);
	}
	memcpy(m.out + m.out_len, line, n);
	m.out_len += n;
}

static void put_ctl(const char *line)
{
	size_t n = strlen(line);

	if (m.ctl_len + n + 1 > CTL_SIZE)
		return;
	memcpy(m.ctl + m.ctl_len, line, n);
	m.ctl[m.ctl_len + n] = '\n';
	m.ctl_len += n + 1;
}

static void tick_fn(struct work_struct *w)
{
	mutex_lock(&m.lock);
	if (!m.stopped) {
		m.ticks++;
		put_out(m.ticks, "tick %lu\n", m.ticks);
		schedule_delayed_work(&m.tick, msecs_to_jiffies(50));
	}
	mutex_unlock(&m.lock);
	wake_up_interruptible(&m.wq);
}

static int do_start(void)
{
	int i;

	if (m.started)
		return -EINVAL;
	m.started = true;
	put_out(0, "target=%ld bufsize=%u\n", _stp_target, _stp_bufsize);
	for (i = 1; i <= lines; i++)
		put_out(i, "line %d\n", i);
	put_out(1, "%s\n", greeting);
	if (mode == 0)
		put_ctl("X 0");
	if (mode == 1)
		schedule_delayed_work(&m.tick, msecs_to_jiffies(50));
	if (mode == 2) {
		put_ctl("M ERROR: mock failure near operator '/' at x.stp:3:9");
		put_ctl("X 1");
		m.status = 1;
	}
	return 0;
}

static void do_stop(void)
{
	if (m.stopped)
		return;
	m.stopped = true;
	if (mode == 3)
		return;
	put_out(0, "end\n");
	put_ctl("M WARNING: bye");
	put_ctl(m.status ? "D 1" : "D 0");
	m.done = true;
}

static ssize_t out_read(struct file *f, char __user *buf, size_t count,
			loff_t *ppos)
{
	size_t n;

	for (;;) {
		mutex_lock(&m.lock);
		n = min(count, m.out_len - m.out_pos);
		if (_stp_bulk && n) {
			/* one whole record per read */
			u32 hdr[2];

			memcpy(hdr, m.out + m.out_pos, sizeof(hdr));
			n = min(n, sizeof(hdr) + hdr[1]);
		}
		if (n) {
			if (copy_to_user(buf, m.out + m.out_pos, n)) {
				mutex_unlock(&m.lock);
				return -EFAULT;
			}
			m.out_pos += n;
			if (m.out_pos == m.out_len)
				m.out_pos = m.out_len = 0;
			mutex_unlock(&m.lock);
			return n;
		}
		if (m.done) {
			mutex_unlock(&m.lock);
			return 0;
		}
		mutex_unlock(&m.lock);
		if (f->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(m.wq, m.out_len || m.done))
			return -ERESTARTSYS;
	}
}

static __poll_t out_poll(struct file *f, poll_table *wait)
{
	poll_wait(f, &m.wq, wait);
	return m.out_len || m.done ? EPOLLIN | EPOLLRDNORM : 0;
}

static ssize_t ctl_read(struct file *f, char __user *buf, size_t count,
			loff_t *ppos)
{
	size_t n;

	for (;;) {
		mutex_lock(&m.lock);
		n = min(count, m.ctl_len);
		if (n) {
			if (copy_to_user(buf, m.ctl, n)) {
				mutex_unlock(&m.lock);
				return -EFAULT;
			}
			memmove(m.ctl, m.ctl + n, m.ctl_len - n);
			m.ctl_len -= n;
			mutex_unlock(&m.lock);
			return n;
		}
		mutex_unlock(&m.lock);
		if (f->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(m.wq, m.ctl_len))
			return -ERESTARTSYS;
	}
}

static __poll_t ctl_poll(struct file *f, poll_table *wait)
{
	poll_wait(f, &m.wq, wait);
	return m.ctl_len ? EPOLLIN | EPOLLRDNORM : 0;
}

static ssize_t ctl_write(struct file *f, const char __user *buf, size_t count,
			 loff_t *ppos)
{
	char cmd[16];
	size_t n = min(count, sizeof(cmd) - 1);
	int rc = 0;

	if (copy_from_user(cmd, buf, n))
		return -EFAULT;
	cmd[n] = '\0';
	strim(cmd);
	mutex_lock(&m.lock);
	if (!strcmp(cmd, "start"))
		rc = do_start();
	else if (!strcmp(cmd, "stop"))
		do_stop();
	else
		rc = -EINVAL;
	mutex_unlock(&m.lock);
	wake_up_interruptible(&m.wq);
	return rc ? rc : count;
}

static const struct proc_ops out_ops = {
	.proc_read = out_read,
	.proc_poll = out_poll,
	.proc_lseek = noop_llseek,
};

static const struct proc_ops ctl_ops = {
	.proc_read = ctl_read,
	.proc_write = ctl_write,
	.proc_poll = ctl_poll,
	.proc_lseek = noop_llseek,
};

static int __init mock_init(void)
{
	mutex_init(&m.lock);
	init_waitqueue_head(&m.wq);
	INIT_DELAYED_WORK(&m.tick, tick_fn);
	m.out = vmalloc(OUT_SIZE);
	if (!m.out)
		return -ENOMEM;
	proc_mkdir("systemtap", NULL);
	/* the name the module was loaded as (staprun -R renames it) */
	snprintf(m.path, sizeof(m.path), "systemtap/%s", THIS_MODULE->name);
	m.dir = proc_mkdir(m.path, NULL);
	if (!m.dir) {
		vfree(m.out);
		return -EEXIST;
	}
	if (!proc_create(".stp_out", 0400, m.dir, &out_ops) ||
	    !proc_create(".stp_ctl", 0600, m.dir, &ctl_ops)) {
		remove_proc_subtree(m.path, NULL);
		vfree(m.out);
		return -ENOMEM;
	}
	return 0;
}

static void __exit mock_exit(void)
{
	mutex_lock(&m.lock);
	m.stopped = true;
	mutex_unlock(&m.lock);
	cancel_delayed_work_sync(&m.tick);
	remove_proc_subtree(m.path, NULL);
	vfree(m.out);
}

module_init(mock_init);
module_exit(mock_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("staprun protocol mock for the VM tests");
