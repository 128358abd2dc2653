// SPDX-License-Identifier: GPL-2.0-or-later
/* session.c: the life of a session. Module init allocates and creates the
 * transport files; staprun's "start" runs the begin probes and registers
 * the others; exit(), a fatal error or staprun's "stop" ends it: probes are
 * unregistered, then the end probes run (the error probes instead after a
 * fatal error), the summary warnings are queued and staprun is told the
 * exit status (doc/transport.md). */

struct stp_session stp_sess = {
	.state = ATOMIC_INIT(STP_LOADED),
};

atomic_long_t stp_mem_bytes;		/* fault.h: what the runtime allocated */
struct stp_mon_stat __percpu *stp_mon_stats;	/* monitor.h */

long _stp_target;
module_param(_stp_target, long, 0400);
long _stp_pid;		/* staprun's pid: stp_pid() */
module_param(_stp_pid, long, 0400);
/* The local time zone as staprun saw it at start: seconds west of UTC and
 * its abbreviation (tz_gmtoff(), tz_name(); the kernel has no zone). */
long _stp_tz_gmtoff;
module_param(_stp_tz_gmtoff, long, 0400);
char _stp_tz_name[16] = "UTC";
module_param_string(_stp_tz_name, _stp_tz_name, sizeof(_stp_tz_name), 0400);

#ifdef STP_FAULT_INJECT
/* Fault injection (fault.h): the point numbered _stp_fault_at fails; 0
 * (the default) none. Module exit logs how many points were reached, the
 * N a sweep goes up to. */
static unsigned int _stp_fault_at;
module_param(_stp_fault_at, uint, 0400);
static atomic_t stp_fault_seen = ATOMIC_INIT(0);

bool stp_fault(const char *what, const char *func, int line)
{
	unsigned int n = (unsigned int)atomic_inc_return(&stp_fault_seen);

	if (n != READ_ONCE(_stp_fault_at))
		return false;
	pr_info("%s: fault injection: point %u fails: %s in %s (line %d)\n",
		stp_module.name, n, what, func, line);
	return true;
}

static void stp_fault_report(void)
{
	pr_info("%s: fault injection: %u points reached\n", stp_module.name,
		(unsigned int)atomic_read(&stp_fault_seen));
}
#else
static void stp_fault_report(void)
{
}
#endif

void stp_ctl_printf(const char *fmt, ...)
{
	char text[STP_ERR_SIZE + 48];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	stp_ctl_send('M', text);
}

void stp_warn(const char *fmt, ...)
{
	struct va_format vaf;
	va_list ap;

	va_start(ap, fmt);
	vaf.fmt = fmt;
	vaf.va = &ap;
	stp_ctl_printf("WARNING: %pV", &vaf);
	va_end(ap);
}

/* What registering a point of @probe gave (@rc): 0 to go on (it is
 * registered, or it is optional and the failure is a warning), else @rc
 * after the error message (@why: more about it, or ""). */
int stp_registered(const struct stp_probe *probe, bool optional, int rc,
		   const char *why)
{
	if (rc == 0)
		return 0;
	if (optional) {
		stp_warn("probe %s registration error (rc %d)", probe->pp, rc);
		return 0;
	}
	stp_ctl_printf("ERROR: probe %s registration error (rc %d)%s", probe->pp, rc, why);
	return rc;
}

static void stp_request_exit_status(int status)
{
	if (atomic_cmpxchg(&stp_sess.exit_requested, 0, 1) == 0)
		stp_ctl_send('X', status ? "1" : "0");
}

void stp_request_exit(void)
{
	stp_request_exit_status(0);
}

const char *stp_probe_type_name(unsigned int type)
{
	static const char *const names[STP_PT_COUNT] = {
		[STP_PT_UNKNOWN] = "unknown",
		[STP_PT_BEGIN_END] = "begin_end",
		[STP_PT_PROCFS] = "procfs",
		[STP_PT_HRTIMER] = "hrtimer",
		[STP_PT_TIMER] = "timer",
		[STP_PT_KPROBE] = "kprobe",
		[STP_PT_KRETPROBE] = "kretprobe",
		[STP_PT_UPROBE] = "uprobe",
		[STP_PT_URETPROBE] = "uretprobe",
		[STP_PT_KERNEL_TRACEPOINT] = "kernel_tracepoint",
		[STP_PT_HWBKPT] = "hwbkpt",
		[STP_PT_NETFILTER] = "netfilter",
		[STP_PT_UTRACE] = "utrace",
		[STP_PT_PERF_EVENT] = "perf_event",
	};

	return type < STP_PT_COUNT ? names[type] : names[STP_PT_UNKNOWN];
}

void stp_skipped(void)
{
	if (atomic_inc_return(&stp_sess.skipped) == MAXSKIPPED + 1) {
		stp_ctl_printf("ERROR: Skipped too many probes, check MAXSKIPPED or try again with stap -t for more details.");
		atomic_set(&stp_sess.fatal, 1);
		stp_request_exit_status(1);
	}
}

/* A handler ended with an error: report it; past MAXERRORS the session
 * ends (error probes run, end probes do not). */
void stp_session_error_count(struct stp_context *c)
{
	int n = atomic_inc_return(&stp_sess.errors);

	if (c->error_loc)
		stp_ctl_printf("ERROR: %s near %s", c->last_error, c->error_loc);
	else
		stp_ctl_printf("ERROR: %s", c->last_error);
	if (n > MAXERRORS) {
		atomic_set(&stp_sess.fatal, 1);
		stp_request_exit_status(1);
	}
}

/* Run sequence probes (begin, end, error) in order, in process context.
 * Once exit() was asked for, no further begin probe runs (as in the
 * reference, not even one of the same sequence number); after a fatal
 * error no more run at all. */
void stp_run_seq(const struct stp_seq_probe *v, unsigned int n, bool begin)
{
	unsigned int i;
	bool exited = false;

	for (i = 0; i < n; i++) {
		if (atomic_read(&stp_sess.fatal) && v != stp_module.error)
			return;
		if (begin && exited)
			return;
		preempt_disable();
		stp_run_probe(v[i].probe, NULL, MAXACTION_INTERRUPTIBLE);
		preempt_enable();
		if (begin && atomic_read(&stp_sess.exit_requested))
			exited = true;
	}
}

/* Start each family in order; stop at the first that fails, saying which
 * (after its own message naming the point, when it had one). */
static int stp_families_start(void)
{
	const struct stp_family_use *u = stp_module.families;
	unsigned int i;
	int rc;

	for (i = 0; i < stp_module.nfamilies; i++) {
		rc = u[i].family->start(u[i].table, u[i].n);
		if (rc) {
			stp_ctl_printf("ERROR: probe registration failed: %s probes (%d)",
				       u[i].family->name, rc);
			return rc;
		}
	}
	return 0;
}

static void stp_families_started(void)
{
	unsigned int i;

	for (i = 0; i < stp_module.nfamilies; i++)
		if (stp_module.families[i].family->started)
			stp_module.families[i].family->started();
}

/* Stop every family, in the reverse order. */
static void stp_families_stop(void)
{
	unsigned int i = stp_module.nfamilies;

	while (i--)
		stp_module.families[i].family->stop();
}

static void stp_families_report(void)
{
	unsigned int i;

	for (i = 0; i < stp_module.nfamilies; i++)
		if (stp_module.families[i].family->report)
			stp_module.families[i].family->report();
}

static void stp_families_release(void)
{
	unsigned int i;

	for (i = 0; i < stp_module.nfamilies; i++)
		if (stp_module.families[i].family->release)
			stp_module.families[i].family->release();
}

static int stp_session_start(void)
{
	int rc;

	mutex_lock(&stp_sess.ctl_mutex);
	if (atomic_read(&stp_sess.state) != STP_LOADED) {
		mutex_unlock(&stp_sess.ctl_mutex);
		return -EINVAL;
	}
	atomic_set(&stp_sess.state, STP_STARTING);
	STP_TIMING("session start");
	rc = stp_kmods_start();
	if (rc) {
		stp_ctl_printf("ERROR: cannot follow kernel modules (%d)", rc);
		atomic_set(&stp_sess.fatal, 1);
		stp_request_exit_status(1);
	}
	stp_run_seq(stp_module.begin, stp_module.nbegin, true);
	/* handlers run only once every point is registered: a timer does
	 * not tick while thousands of kprobes are still being armed */
	STP_TIMING("begin probes run");
	rc = stp_families_start();
	STP_TIMING("families started");
	atomic_set(&stp_sess.state, STP_RUNNING);
	if (rc) {
		atomic_set(&stp_sess.fatal, 1);
		stp_request_exit_status(1);
	} else {
		stp_families_started();
	}
	mutex_unlock(&stp_sess.ctl_mutex);
	return 0;
}

static void stp_unregister_all(void)
{
	STP_TIMING("session stop");
	stp_families_stop();
	synchronize_rcu();	/* handlers that saw RUNNING have finished */
	STP_TIMING("families stopped");
	stp_families_report();
}

static void stp_session_stop(void)
{
	int errors, skipped;
	u64 dropped;

	mutex_lock(&stp_sess.ctl_mutex);
	if (atomic_read(&stp_sess.state) >= STP_STOPPING) {
		mutex_unlock(&stp_sess.ctl_mutex);
		return;
	}
	atomic_set(&stp_sess.state, STP_STOPPING);
	stp_unregister_all();
	if (!atomic_read(&stp_sess.fatal))
		stp_run_seq(stp_module.end, stp_module.nend, false);
	if (atomic_read(&stp_sess.fatal))
		stp_run_seq(stp_module.error, stp_module.nerror, false);
	stp_kmods_stop();
	errors = atomic_read(&stp_sess.errors);
	skipped = atomic_read(&stp_sess.skipped);
	dropped = stp_transport_dropped();
	if (dropped)
		stp_warn("%llu bytes of output dropped; try stap -s to increase the buffer size",
			 (unsigned long long)dropped);
	if (errors || skipped)
		stp_warn("Number of errors: %d, skipped probes: %d", errors, skipped);
	if (stp_tp.ctl_dropped) {
		char text[64];

		snprintf(text, sizeof(text), "WARNING: %llu messages dropped",
			 (unsigned long long)stp_tp.ctl_dropped);
		stp_ctl_send_last('M', text);
	}
	stp_ctl_send_last('D', errors || atomic_read(&stp_sess.fatal) ? "1" : "0");
	atomic_set(&stp_sess.state, STP_STOPPED);
	mutex_unlock(&stp_sess.ctl_mutex);
	stp_transport_done();
}

/* The controller closed .stp_ctl without "stop" (transport.c): stop a
 * started session; a session never started has nothing armed. True when
 * this stopped it. */
static bool stp_session_abandon(void)
{
	int st = atomic_read(&stp_sess.state);

	if (st == STP_LOADED || st >= STP_STOPPING)
		return false;
	stp_session_stop();
	return true;
}

static void stp_module_cleanup(void)
{
	stp_families_release();
	stp_transport_exit();
	if (stp_module.monitor)
		stp_module.monitor->free();
	if (stp_module.globals_free)
		stp_module.globals_free();
	stp_contexts_free();
}

static int __init stp_module_init(void)
{
	const char *what = "the per-CPU contexts";
	int rc;

	mutex_init(&stp_sess.ctl_mutex);
	STP_TIMING("module init");
	rc = stp_contexts_init();
	if (!rc && stp_module.globals_init) {
		what = "the globals";
		rc = stp_module.globals_init();
	}
	if (!rc) {
		what = "the transport (buffers, /proc/systemtap files)";
		rc = stp_transport_init();
	}
	if (!rc && stp_module.monitor) {
		what = "the monitor (stap --monitor)";
		rc = stp_module.monitor->init();
	}
	STP_TIMING("module init done");
	if (rc) {
		pr_err("%s: initialisation failed: cannot set up %s (%d)\n", stp_module.name,
		       what, rc);
		stp_module_cleanup();
		stp_fault_report();
	}
	return rc;
}

static void __exit stp_module_exit(void)
{
	/* staprun died without "stop": end the session here. */
	if (atomic_read(&stp_sess.state) == STP_LOADED)
		atomic_set(&stp_sess.state, STP_STOPPED);
	stp_session_stop();
	stp_transport_drain();
	stp_module_cleanup();
	stp_fault_report();
}

module_init(stp_module_init);
module_exit(stp_module_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("SystemTap-compatible probe module");
