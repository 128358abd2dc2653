// SPDX-License-Identifier: GPL-2.0-or-later
/* session.c: staprun's side of a running session (doc/transport.md,
 * "staprun's loop"): open the module's files, "start", then poll output,
 * control records, signals and the -T deadline until "D STATUS". */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "staprun/staprun.h"
#include "util/sdt_marker.h"
#include "util/sgr.h"

#define OUT_BUF_SIZE 65536
/* "stop" queues D before its write returns; wait this long, then give up */
#define STOP_GRACE_MS 5000
#define WARN_SEEN_MAX 4096	/* a power of two */

struct sess {
	const struct staprun_opts *o;
	const char *name;
	int out_fd, ctl_fd, sig_fd, dest_fd;
	int in_fd;		/* __stdin (input.char/input.line), or -1 */
	struct target_cmd *t;
	struct ctl_reader cr;
	struct bulk_out bulk;
	bool stop_sent;		/* "stop" written (or tried) */
	long long stop_time;	/* when, in now_ms() time */
	bool abort;		/* no "D" will come: leave the loop */
	bool done;		/* "D" seen */
	bool out_eof;		/* .stp_out gave end of file */
	bool out_broken;	/* writing the output failed: discard it */
	bool failed;		/* staprun itself failed: exit 1 */
	unsigned int out_seq;	/* -o FILE: the number of the file written */
	unsigned long long out_written;	/* bytes in it */
	int status;		/* D's */
	struct sgr sgr;		/* -C: the messages' colours */
	struct monitor *mon;	/* -M, or NULL */
	/* the warnings printed: a warning is printed once per session, as
	 * the reference's staprun does (errors every time); by 64-bit hash,
	 * at most WARN_SEEN_MAX - 1 of them, then all are printed */
	uint64_t warn_seen[WARN_SEEN_MAX];
	unsigned int nwarn_seen;
	char buf[OUT_BUF_SIZE];
};

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void msleep(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000,
			       .tv_nsec = (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Opens /proc/systemtap/NAME/FILE, waiting up to a second for it. */
static int open_proc(const char *name, const char *file, int flags)
{
	char path[128];
	int fd, i;

	snprintf(path, sizeof(path), "/proc/systemtap/%s/%s", name, file);
	for (i = 0;; i++) {
		fd = open(path, flags | O_NONBLOCK | O_CLOEXEC);
		if (fd >= 0 || i == 20 || (errno != ENOENT && errno != EINTR))
			break;
		msleep(50);
	}
	if (fd < 0)
		fprintf(stderr, "ERROR: Couldn't open '%s': %s\n", path,
			strerror(errno));
	return fd;
}

/* One command per write; the module acts on it before write returns. */
static int ctl_command(struct sess *s, const char *cmd)
{
	size_t n = strlen(cmd);
	int tries = 0;

	if (s->o->verbose)
		fprintf(stderr, "staprun: writing \"%s\"\n", cmd);
	/* the channel's messages are text commands: no type numbers */
	SDT_MARK3(staprun, send__ctlmsg, 0, cmd, n);
	for (;;) {
		ssize_t w = write(s->ctl_fd, cmd, n);

		if (w == (ssize_t)n)
			return 0;
		if (w >= 0)
			return -EIO;
		if (errno == EINTR)
			continue;
		if ((errno == EAGAIN || errno == EWOULDBLOCK) && tries++ < 50) {
			struct pollfd p = { .fd = s->ctl_fd, .events = POLLOUT };

			poll(&p, 1, 100);
			continue;
		}
		return -errno;
	}
}

static void request_stop(struct sess *s, const char *why)
{
	int r;

	if (s->stop_sent)
		return;
	s->stop_sent = true;
	if (s->o->verbose)
		fprintf(stderr, "staprun: stopping (%s)\n", why);
	r = ctl_command(s, "stop");
	/* the end probes ran inside that write: the grace period starts now */
	s->stop_time = now_ms();
	if (r) {
		fprintf(stderr, "ERROR: Couldn't stop the session: %s\n",
			strerror(-r));
		s->failed = true;
		s->abort = true;
	}
}

/* switch_file(), SIGUSR2, or -S's size reached: the output moves on to
 * the next file of -o FILE (FILE.1, FILE.2, ...; with -S N, the file N
 * before it is removed). The new file takes the old one's descriptor
 * (dup2), which the caller of run_session() closes in the end. */
static void switch_output(struct sess *s)
{
	char name[4096];
	int fd;

	if (!s->o->outfile || s->o->bulk || s->out_broken)
		return;
	if (out_file_name(s->o, s->out_seq + 1, name, sizeof(name))) {
		fprintf(stderr, "ERROR: Output file name too long.\n");
		return;
	}
	fd = open(name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0 || dup2(fd, s->dest_fd) < 0 ||
	    fcntl(s->dest_fd, F_SETFD, FD_CLOEXEC) < 0) {
		fprintf(stderr, "ERROR: Couldn't open output file '%s': %s\n", name,
			strerror(errno));
		if (fd >= 0)
			close(fd);
		return;	/* the output stays where it was */
	}
	close(fd);
	s->out_seq++;
	s->out_written = 0;
	if (s->o->rot_count && s->out_seq >= s->o->rot_count &&
	    !out_file_name(s->o, s->out_seq - (unsigned int)s->o->rot_count, name,
			   sizeof(name)))
		unlink(name);
}

/* Probe output: to the destination, or per CPU in bulk mode. */
static void emit(struct sess *s, const char *data, size_t n)
{
	char err[STP_ERRLEN];
	int r;

	if (s->out_broken)
		return;
	if (s->o->rot_size_mb && s->out_written &&
	    s->out_written + n > (unsigned long long)s->o->rot_size_mb << 20)
		switch_output(s);
	s->out_written += n;
	if (s->o->bulk) {
		if (bulk_feed(&s->bulk, data, n, err, sizeof(err)) == 0)
			return;
		fprintf(stderr, "ERROR: %s\n", err);
	} else {
		r = write_all(s->dest_fd, data, n);
		if (r == 0)
			return;
		fprintf(stderr, "ERROR: Couldn't write the output%s%s: %s\n",
			s->o->outfile ? " to " : "",
			s->o->outfile ? s->o->outfile : "", strerror(-r));
	}
	/* keep reading (the module must not block), drop what comes */
	s->out_broken = true;
	s->failed = true;
	request_stop(s, "output failed");
}

/* Reads .stp_out once. Returns the bytes read, 0 at end of file, -EAGAIN
 * when nothing is there, or another -errno. */
static ssize_t read_output(struct sess *s)
{
	ssize_t r;

	do {
		r = read(s->out_fd, s->buf, sizeof(s->buf));
	} while (r < 0 && errno == EINTR);
	if (r > 0)
		emit(s, s->buf, (size_t)r);
	else if (r == 0)
		s->out_eof = true;
	return r < 0 ? -errno : r;
}

/* system(CMD) of the script: `sh -c CMD`, waited for, so that its output
 * comes before what the script prints after it (our output so far is
 * flushed first). */
static ssize_t read_output(struct sess *s);

static void run_system(struct sess *s, const char *cmd)
{
	pid_t pid;
	int st;

	/* What the module printed before system() is in .stp_out already. */
	while (!s->out_eof && read_output(s) > 0)
		;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	if (pid < 0) {
		fprintf(stderr, "WARNING: system(\"%s\") failed: %s\n", cmd, strerror(errno));
		return;
	}
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
}

/* A message of the module, its ERROR:/WARNING: coloured with -C. */
static void print_msg(struct sess *s, const char *text)
{
	enum sgr_part part = SGR_NPARTS;
	size_t n = 0;
	char on[40];

	if (!strncmp(text, "ERROR:", 6))
		part = SGR_ERROR, n = 6;
	else if (!strncmp(text, "WARNING:", 8))
		part = SGR_WARNING, n = 8;
	if (part == SGR_NPARTS || !s->sgr.on) {
		fprintf(stderr, "%s\n", text);
		return;
	}
	fprintf(stderr, "%s%.*s%s%s\n", sgr_start(&s->sgr, part, on, sizeof(on)),
		(int)n, text, sgr_end(&s->sgr, part), text + n);
}

/* Has the warning @text been printed before? It is remembered if not.
 * (FNV-1a; 0 marks a free slot.) */
static bool warn_seen(struct sess *s, const char *text)
{
	uint64_t h = 14695981039346656037ULL;
	unsigned int i;
	const char *p;

	for (p = text; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ULL;
	h |= 1;
	for (i = (unsigned int)h & (WARN_SEEN_MAX - 1); s->warn_seen[i];
	     i = (i + 1) & (WARN_SEEN_MAX - 1))
		if (s->warn_seen[i] == h)
			return true;
	if (s->nwarn_seen < WARN_SEEN_MAX - 1) {
		s->warn_seen[i] = h;
		s->nwarn_seen++;
	}
	return false;
}

static int on_record(void *arg, const struct ctl_record *r)
{
	struct sess *s = arg;

	switch (r->kind) {
	case CTL_MSG:
		if (!strncmp(r->text, "WARNING:", 8) &&
		    (s->o->quiet_warnings || warn_seen(s, r->text)))
			break;
		print_msg(s, r->text);
		break;
	case CTL_EXIT:
		request_stop(s, "the script asked to exit");
		break;
	case CTL_SYSTEM:
		run_system(s, r->text);
		break;
	case CTL_SWITCH:
		/* what the module printed before switch_file() is in
		 * .stp_out already: it goes to the old file */
		while (!s->out_eof && read_output(s) > 0)
			;
		switch_output(s);
		break;
	case CTL_DONE:
		s->done = true;
		s->status = r->status;
		return 1;	/* nothing after D matters */
	case CTL_UNKNOWN:
		if (s->o->verbose)
			fprintf(stderr, "staprun: unknown control record \"%s\"\n",
				r->text);
		break;
	}
	return 0;
}

/* Reads .stp_ctl once and handles its records. Returns like read_output. */
static ssize_t read_ctl(struct sess *s)
{
	char buf[8192];
	ssize_t r;

	do {
		r = read(s->ctl_fd, buf, sizeof(buf));
	} while (r < 0 && errno == EINTR);
	if (r > 0)
		ctl_feed(&s->cr, buf, (size_t)r, on_record, s);
	return r < 0 ? -errno : r;
}

static void handle_signals(struct sess *s)
{
	struct signalfd_siginfo si;

	while (read(s->sig_fd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		if (si.ssi_signo == SIGUSR2) {
			switch_output(s);
			continue;
		}
		if (si.ssi_signo == SIGCHLD) {
			if (s->t->pid > 0 && target_reap(s->t))
				request_stop(s, "the -c command exited");
			continue;
		}
		if (s->stop_sent && !s->abort) {
			/* asked twice: stop waiting for the module */
			fprintf(stderr, "ERROR: Interrupted again while the session was ending; giving up on it.\n");
			s->failed = true;
			s->abort = true;
			continue;
		}
		request_stop(s, si.ssi_signo == SIGINT ? "SIGINT" :
				si.ssi_signo == SIGTERM ? "SIGTERM" : "SIGHUP");
	}
}

/* The script's input probes (input.char, input.line: procfs("__stdin")
 * .write) read staprun's stdin: forward what is there, one byte per
 * write, so that each write runs the probes for one character. At end of
 * file (or an error) forwarding ends. */
static void forward_stdin(struct sess *s)
{
	char buf[256];
	ssize_t r, i;

	do {
		r = read(STDIN_FILENO, buf, sizeof(buf));
	} while (r < 0 && errno == EINTR);
	if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return;
	if (r <= 0) {
		close(s->in_fd);
		s->in_fd = -1;
		return;
	}
	for (i = 0; i < r; i++) {
		ssize_t w;

		do {
			w = write(s->in_fd, buf + i, 1);
		} while (w < 0 && errno == EINTR);
		if (w != 1) {
			if (s->o->verbose)
				fprintf(stderr, "staprun: __stdin: %s\n",
					w < 0 ? strerror(errno) : "short write");
			close(s->in_fd);
			s->in_fd = -1;
			return;
		}
	}
}

/* The loop until D (or a failure that means no D will come). */
static void main_loop(struct sess *s)
{
	long long deadline = -1;

	if (s->o->timeout_s)
		deadline = now_ms() + (long long)s->o->timeout_s * 1000;
	while (!s->done && !s->abort) {
		struct pollfd p[6] = {
			{ .fd = s->out_eof ? -1 : s->out_fd, .events = POLLIN },
			{ .fd = s->ctl_fd, .events = POLLIN },
			{ .fd = s->sig_fd, .events = POLLIN },
			{ .fd = s->in_fd >= 0 && !s->stop_sent ? STDIN_FILENO : -1,
			  .events = POLLIN },
			{ .fd = s->mon ? monitor_timer_fd(s->mon) : -1, .events = POLLIN },
			{ .fd = s->mon ? monitor_key_fd(s->mon) : -1, .events = POLLIN },
		};
		int timeout = -1, r;
		ssize_t n;

		if (deadline >= 0 && !s->stop_sent) {
			long long left = deadline - now_ms();

			if (left <= 0) {
				request_stop(s, "-T timeout");
				continue;
			}
			timeout = left > 3600000 ? 3600000 : (int)left;
		}
		if (s->stop_sent) {
			long long left = s->stop_time + STOP_GRACE_MS - now_ms();

			timeout = left > 0 ? (int)left : 0;
		}
		r = poll(p, 6, timeout);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "ERROR: poll: %s\n", strerror(errno));
			s->failed = true;
			request_stop(s, "poll failed");
			s->abort = true;
			break;
		}
		if (p[2].revents)
			handle_signals(s);
		if (p[3].revents && s->in_fd >= 0)
			forward_stdin(s);
		if (p[4].revents)
			monitor_tick(s->mon);
		if (p[5].revents)
			monitor_keys(s->mon);
		if (p[0].revents) {
			n = read_output(s);
			if (n == 0 && s->o->verbose)
				fprintf(stderr, "staprun: output ended early\n");
			if (n < 0 && n != -EAGAIN) {
				fprintf(stderr, "ERROR: Couldn't read the module's output: %s\n",
					strerror((int)-n));
				s->out_eof = true;
				s->failed = true;
				request_stop(s, "output unreadable");
			}
		}
		if (p[1].revents) {
			n = read_ctl(s);
			if (n == 0 || (n < 0 && n != -EAGAIN)) {
				fprintf(stderr, "ERROR: The module's control channel %s: %s\n",
					n == 0 ? "ended early" : "failed",
					n == 0 ? "end of file" : strerror((int)-n));
				s->failed = true;
				s->abort = true;
			}
		}
		if (r == 0 && s->stop_sent && !s->done && !s->abort &&
		    now_ms() >= s->stop_time + STOP_GRACE_MS) {
			fprintf(stderr, "ERROR: The module did not end the session within %d seconds of \"stop\".\n",
				STOP_GRACE_MS / 1000);
			s->failed = true;
			s->abort = true;
		}
	}
}

/* After D: the rest of the output, up to end of file. */
static void drain_output(struct sess *s)
{
	int idle = 0;

	while (!s->out_eof) {
		struct pollfd p = { .fd = s->out_fd, .events = POLLIN };
		ssize_t n = read_output(s);

		if (n > 0) {
			idle = 0;
			continue;
		}
		if (n == 0)
			break;
		if (n != -EAGAIN) {
			fprintf(stderr, "ERROR: Couldn't read the module's output: %s\n",
				strerror((int)-n));
			s->failed = true;
			break;
		}
		if (++idle > 5) {
			fprintf(stderr, "WARNING: The module's output did not end; some of it may be lost.\n");
			break;
		}
		poll(&p, 1, 1000);
	}
}

/* No D will come: print what is already queued, without waiting. */
static void drain_now(struct sess *s)
{
	int i;

	for (i = 0; i < 1000 && !s->done; i++)
		if (read_ctl(s) <= 0)
			break;
	for (i = 0; i < 1000 && !s->out_eof; i++)
		if (read_output(s) <= 0)
			break;
}

int run_session(const struct staprun_opts *o, const char *name, int sigfd,
		struct target_cmd *t, int detach_fd, int dest_fd)
{
	struct sess *s;
	int r, ret;

	/* on the heap: the output buffer is big for a stack */
	s = calloc(1, sizeof(*s));
	if (!s) {
		fprintf(stderr, "ERROR: Out of memory.\n");
		target_release(t, false);
		return 1;
	}
	s->o = o;
	s->name = name;
	sgr_init(&s->sgr, o->color_mode, STDERR_FILENO);
	s->sig_fd = sigfd;
	s->dest_fd = dest_fd;
	s->t = t;
	s->ctl_fd = -1;
	s->in_fd = -1;
	bulk_init(&s->bulk, o->outfile);
	s->out_fd = open_proc(name, ".stp_out", O_RDONLY);
	if (s->out_fd >= 0)
		s->ctl_fd = open_proc(name, ".stp_ctl", O_RDWR);
	if (s->out_fd < 0 || s->ctl_fd < 0) {
		if (o->rename)
			fprintf(stderr, "Tip: the module may name its /proc directory after its original name, which -R cannot change\n");
		target_release(t, false);
		ret = o->action == ACT_ATTACH ? -1 : 1;
		goto out;
	}

	/* -A: the session runs already (staprun -L started it) */
	r = ctl_command(s, o->action == ACT_ATTACH ? "attach" : "start");
	if (r) {
		fprintf(stderr, "ERROR: Couldn't %s the session: %s\n",
			o->action == ACT_ATTACH ? "attach to" : "start", strerror(-r));
		target_release(t, false);
		if (o->action == ACT_ATTACH) {
			ret = -1;
			goto out;
		}
		/* the module may have said why */
		drain_now(s);
		ret = 1;
		goto out;
	}
	if (o->verbose)
		fprintf(stderr, "staprun: %s\n",
			o->action == ACT_ATTACH ? "attached" : "started");
	if (o->load_only) {
		/* -L: the module keeps the session when we close .stp_ctl */
		r = ctl_command(s, "detach");
		if (r) {
			fprintf(stderr, "ERROR: Couldn't detach from the session: %s\n",
				strerror(-r));
			ret = 1;	/* closing .stp_ctl stops it */
			goto out;
		}
		/* the begin probes' output and messages wait for -A */
		fprintf(stderr, "\nDisconnecting from systemtap module.\n"
			"To reconnect, type \"staprun -A %s\"\n", name);
		ret = 0;
		goto out;
	}
	/* input probes: the file exists once the session started */
	if (!o->detach) {
		char path[128];

		snprintf(path, sizeof(path), "/proc/systemtap/%s/__stdin", name);
		s->in_fd = open(path, O_WRONLY | O_CLOEXEC);
	}
	target_release(t, true);
	detach_done(detach_fd);
	if (o->monitor_s) {
		/* -M: stdin carries the monitor's keys */
		s->mon = monitor_open(name, o->monitor_s);
		if (!s->mon) {
			s->failed = true;
			request_stop(s, "-M failed");
		} else if (s->in_fd >= 0) {
			close(s->in_fd);
			s->in_fd = -1;
		}
	}

	main_loop(s);
	monitor_close(s->mon);
	s->mon = NULL;
	if (s->done)
		drain_output(s);
	else
		drain_now(s);
	if (s->o->bulk && bulk_pending(&s->bulk)) {
		fprintf(stderr, "WARNING: The last bulk record was cut short.\n");
	}
	if (o->verbose)
		fprintf(stderr, "staprun: session %s, status %d\n",
			s->done ? "ended" : "aborted", s->status);
	ret = s->failed || !s->done ? 1 : s->status;
out:
	if (bulk_close(&s->bulk) && !s->out_broken) {
		fprintf(stderr, "ERROR: Couldn't close the bulk output files.\n");
		ret = 1;
	}
	if (s->in_fd >= 0)
		close(s->in_fd);
	if (s->ctl_fd >= 0)
		close(s->ctl_fd);
	if (s->out_fd >= 0)
		close(s->out_fd);
	free(s);
	return ret;
}
