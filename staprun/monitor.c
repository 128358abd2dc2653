// SPDX-License-Identifier: GPL-2.0-or-later
/* monitor.c: staprun -M INTERVAL (doc/monitor.md). Every INTERVAL seconds
 * the module's /proc/systemtap/NAME/monitor is read and shown: on a
 * terminal as a window at the top of the screen (plain ANSI escapes: a
 * scrolling region below it carries the script's output), else as plain
 * blocks on stderr. Keys on stdin become the file's commands: c reset,
 * p pause, r resume, t N<Enter> toggle, s sort, x hide/show. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/timerfd.h>
#include <termios.h>
#include <unistd.h>

#include "staprun/staprun.h"

struct monitor {
	char path[128];
	int timer_fd;
	bool tty;		/* stdout is a terminal: the window */
	bool raw;		/* stdin was put in raw mode (restore) */
	struct termios saved;
	enum mon_sort sort;
	bool hidden;		/* x */
	int height;		/* the window's lines (0: not set up) */
	int rows;		/* the screen's, when the region was set */
	bool drawn;		/* the screen was cleared for the window */
	char prompt[64];	/* t: "toggle probe #: 12" while typed */
	size_t prompt_len;	/* 0: no prompt */
	char note[96];		/* the outcome of the last command */
	bool keys_eof;		/* stdin ended: no more keys */
};

static const char prompt_head[] = "toggle probe #: ";

static int screen_size(int *rows, int *cols)
{
	struct winsize ws;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) || !ws.ws_row || !ws.ws_col) {
		*rows = 24;
		*cols = 80;
		return -1;
	}
	*rows = ws.ws_row;
	*cols = ws.ws_col;
	return 0;
}

struct monitor *monitor_open(const char *name, unsigned int interval_s)
{
	struct itimerspec its = { .it_interval = { .tv_sec = interval_s },
				  .it_value = { .tv_nsec = 1 } };
	struct monitor *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	snprintf(m->path, sizeof(m->path), "/proc/systemtap/%s/monitor", name);
	if (access(m->path, R_OK | W_OK)) {
		fprintf(stderr, "ERROR: -M: %s: %s (build the module with stap --monitor)\n",
			m->path, strerror(errno));
		free(m);
		return NULL;
	}
	m->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (m->timer_fd < 0 || timerfd_settime(m->timer_fd, 0, &its, NULL)) {
		fprintf(stderr, "ERROR: -M: timerfd: %s\n", strerror(errno));
		if (m->timer_fd >= 0)
			close(m->timer_fd);
		free(m);
		return NULL;
	}
	m->tty = isatty(STDOUT_FILENO);
	if (isatty(STDIN_FILENO) && !tcgetattr(STDIN_FILENO, &m->saved)) {
		struct termios t = m->saved;

		t.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
		t.c_cc[VMIN] = 1;
		t.c_cc[VTIME] = 0;
		m->raw = !tcsetattr(STDIN_FILENO, TCSANOW, &t);
	}
	return m;
}

int monitor_timer_fd(const struct monitor *m)
{
	return m->timer_fd;
}

int monitor_key_fd(const struct monitor *m)
{
	return m->keys_eof ? -1 : STDIN_FILENO;
}

/* The window's scrolling region: the script's output below line @h. */
static void set_region(struct monitor *m, int h)
{
	int rows, cols;

	screen_size(&rows, &cols);
	if (h >= rows)
		h = rows - 1;
	m->rows = rows;
	if (h > 0)
		printf("\0337\033[%d;%dr\0338", h + 1, rows);
	else
		printf("\0337\033[r\0338");
	m->height = h;
}

/* Read the file: 0 and @st filled, or -1 (message in m->note). */
static int read_status(struct monitor *m, struct mon_status *st)
{
	char buf[65536];
	size_t len = 0;
	ssize_t n;
	int fd = open(m->path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		snprintf(m->note, sizeof(m->note), "cannot read the status: %s", strerror(errno));
		return -1;
	}
	while (len < sizeof(buf) - 1 && (n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += (size_t)n;
	close(fd);
	buf[len] = '\0';
	if (mon_parse(buf, st)) {
		snprintf(m->note, sizeof(m->note), "malformed status");
		return -1;
	}
	return 0;
}

static void show(struct monitor *m)
{
	struct mon_status st;
	struct mon_view v = { .sort = m->sort };
	char *text = NULL;
	size_t size = 0;
	FILE *f;
	int rows = 0, cols = 0, lines;

	if (read_status(m, &st))
		return;
	mon_sort(&st, m->sort);
	if (m->prompt_len)
		v.prompt = m->prompt;
	else if (m->note[0])
		v.prompt = m->note;
	f = open_memstream(&text, &size);
	if (!f) {
		mon_status_free(&st);
		return;
	}
	if (m->tty) {
		screen_size(&rows, &cols);
		v.width = cols;
		v.max_lines = rows / 2;
	}
	lines = mon_render(f, &st, &v);
	fclose(f);
	mon_status_free(&st);
	if (!m->tty) {
		/* not a terminal: a block on stderr per interval */
		fprintf(stderr, "%s\n", text);
	} else if (!m->hidden) {
		const char *l = text;
		int i;

		fflush(stdout);
		if (!m->drawn) {	/* first time: a clear screen */
			m->drawn = true;
			printf("\033[2J");
			set_region(m, lines);
			printf("\033[%d;1H", m->height + 1);
		} else if (m->height != lines || m->rows != rows) {
			/* resized, more lines, or shown again after x */
			set_region(m, lines);
		}
		printf("\0337");
		for (i = 1; i <= m->height && *l; i++) {
			size_t n = strcspn(l, "\n");

			printf("\033[%d;1H\033[2K%s%.*s%s", i, i == 1 ? "\033[7m" : "", (int)n, l,
			       i == 1 ? "\033[0m" : "");
			l += n + (l[n] == '\n');
		}
		printf("\0338");
		fflush(stdout);
	}
	free(text);
}

void monitor_tick(struct monitor *m)
{
	unsigned long long n;

	if (read(m->timer_fd, &n, sizeof(n)) < 0 && errno == EAGAIN)
		return;
	show(m);
}

/* Write one command to the file; the outcome in m->note. */
static void command(struct monitor *m, const char *cmd, const char *done)
{
	int fd = open(m->path, O_WRONLY | O_CLOEXEC);
	ssize_t w = -1;

	if (fd >= 0) {
		w = write(fd, cmd, strlen(cmd));
		close(fd);
	}
	if (w < 0)
		snprintf(m->note, sizeof(m->note), "%s: %s", cmd, strerror(errno));
	else
		snprintf(m->note, sizeof(m->note), "%s", done);
}

static void key(struct monitor *m, char c)
{
	if (m->prompt_len) {
		if (c >= '0' && c <= '9' && m->prompt_len < sizeof(m->prompt) - 1) {
			m->prompt[m->prompt_len++] = c;
			m->prompt[m->prompt_len] = '\0';
		} else if ((c == 127 || c == '\b') && m->prompt_len > sizeof(prompt_head) - 1) {
			m->prompt[--m->prompt_len] = '\0';
		} else if (c == '\n' || c == '\r') {
			char cmd[48];
			const char *num = m->prompt + sizeof(prompt_head) - 1;

			snprintf(cmd, sizeof(cmd), "toggle %s", num);
			m->prompt_len = 0;
			if (*num)
				command(m, cmd, "probe toggled");
		} else if (c == 27) {	/* Esc */
			m->prompt_len = 0;
		}
		return;
	}
	switch (c) {
	case 'c':
		command(m, "reset", "globals reset");
		break;
	case 'p':
		command(m, "pause", "probes paused");
		break;
	case 'r':
		command(m, "resume", "probes resumed");
		break;
	case 's':
		m->sort = (enum mon_sort)((m->sort + 1) % MON_SORT_COUNT);
		snprintf(m->note, sizeof(m->note), "sorted by %s", mon_sort_name(m->sort));
		break;
	case 't':
		m->prompt_len = strlen(prompt_head);
		memcpy(m->prompt, prompt_head, m->prompt_len + 1);
		break;
	case 'x':
		m->hidden = !m->hidden;
		if (m->tty && m->hidden) {
			set_region(m, 0);
			fflush(stdout);
		}
		break;
	default:
		return;
	}
}

void monitor_keys(struct monitor *m)
{
	char buf[64];
	ssize_t n, i;

	do {
		n = read(STDIN_FILENO, buf, sizeof(buf));
	} while (n < 0 && errno == EINTR);
	if (n <= 0) {
		if (n == 0 || errno != EAGAIN)
			m->keys_eof = true;
		return;
	}
	for (i = 0; i < n; i++)
		key(m, buf[i]);
	show(m);
}

void monitor_close(struct monitor *m)
{
	if (!m)
		return;
	if (m->tty && m->height) {	/* the whole screen scrolls again */
		printf("\0337\033[r\0338");
		fflush(stdout);
	}
	if (m->raw)
		tcsetattr(STDIN_FILENO, TCSANOW, &m->saved);
	close(m->timer_fd);
	free(m);
}
