// SPDX-License-Identifier: GPL-2.0-or-later
/* output.c: writing the probe output: whole writes to one file, and bulk
 * mode's per-CPU records into one file per CPU. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "staprun/staprun.h"

int write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK) {
				/* a non-blocking stdout: wait until it drains */
				struct pollfd pfd = { .fd = fd, .events = POLLOUT };

				if (poll(&pfd, 1, -1) < 0 && errno != EINTR)
					return -errno;
				continue;
			}
			return -errno;
		}
		if (w == 0)
			return -EIO;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int out_file_name(const struct staprun_opts *o, unsigned int seq, char *buf,
		  size_t len)
{
	int r;

	if (seq == 0 && !o->rot_size_mb)
		r = snprintf(buf, len, "%s", o->outfile);
	else
		r = snprintf(buf, len, "%s.%u", o->outfile, seq);
	return r < 0 || (size_t)r >= len ? -1 : 0;
}

void bulk_init(struct bulk_out *b, const char *prefix)
{
	memset(b, 0, sizeof(*b));
	b->prefix = prefix;
}

int bulk_file_name(const struct bulk_out *b, unsigned int cpu, char *buf,
		   size_t len)
{
	int r;

	if (b->prefix)
		r = snprintf(buf, len, "%s_%u", b->prefix, cpu);
	else
		r = snprintf(buf, len, "stpd_cpu%u", cpu);
	return r < 0 || (size_t)r >= len ? -1 : 0;
}

/* The file of @cpu, opened (and truncated) on first use; -1 with @err. */
static int bulk_fd(struct bulk_out *b, uint32_t cpu, char *err, size_t errlen)
{
	char name[4096];

	if (cpu >= BULK_MAX_CPUS)
		return staprun_fail(err, errlen,
			    "Bulk output names CPU %u (at most %u are supported).",
			    cpu, BULK_MAX_CPUS - 1);
	if (cpu >= b->nfds) {
		unsigned int n = cpu + 1, i;
		int *fds = realloc(b->fds, n * sizeof(*fds));

		if (!fds)
			return staprun_fail(err, errlen, "Out of memory.");
		for (i = b->nfds; i < n; i++)
			fds[i] = -1;
		b->fds = fds;
		b->nfds = n;
	}
	if (b->fds[cpu] >= 0)
		return b->fds[cpu];
	if (bulk_file_name(b, cpu, name, sizeof(name)))
		return staprun_fail(err, errlen, "Output file name too long.");
	b->fds[cpu] = open(name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			   0666);
	if (b->fds[cpu] < 0)
		return staprun_fail(err, errlen, "Couldn't open output file '%s': %s",
			    name, strerror(errno));
	return b->fds[cpu];
}

int bulk_feed(struct bulk_out *b, const char *data, size_t n,
	      char *err, size_t errlen)
{
	while (n) {
		if (b->left == 0 && b->hdrlen < sizeof(b->hdr)) {
			/* collecting a header, which may arrive in pieces */
			size_t k = sizeof(b->hdr) - b->hdrlen;

			if (k > n)
				k = n;
			memcpy(b->hdr + b->hdrlen, data, k);
			b->hdrlen += (unsigned int)k;
			data += k;
			n -= k;
			if (b->hdrlen < sizeof(b->hdr))
				break;
			memcpy(&b->cpu, b->hdr, 4);
			memcpy(&b->left, b->hdr + 4, 4);
			/* the file is opened even for an empty record */
			if (bulk_fd(b, b->cpu, err, errlen) < 0)
				return -1;
			if (b->left == 0)
				b->hdrlen = 0;
			continue;
		}
		{
			size_t k = n < b->left ? n : b->left;
			int fd = bulk_fd(b, b->cpu, err, errlen);
			int r;

			if (fd < 0)
				return -1;
			r = write_all(fd, data, k);
			if (r) {
				char name[4096];

				if (bulk_file_name(b, b->cpu, name, sizeof(name)))
					name[0] = '\0';
				return staprun_fail(err, errlen,
					    "Couldn't write output file '%s': %s",
					    name, strerror(-r));
			}
			data += k;
			n -= k;
			b->left -= (uint32_t)k;
			if (b->left == 0)
				b->hdrlen = 0;
		}
	}
	return 0;
}

int bulk_pending(const struct bulk_out *b)
{
	return b->left != 0 || b->hdrlen != 0;
}

int bulk_close(struct bulk_out *b)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; i < b->nfds; i++)
		if (b->fds[i] >= 0 && close(b->fds[i]) && !ret)
			ret = -errno;
	free(b->fds);
	b->fds = NULL;
	b->nfds = 0;
	return ret;
}
