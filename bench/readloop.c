// SPDX-License-Identifier: GPL-2.0-or-later
/* bench/readloop.c: the guest workload of bench/probe-overhead and bench/output-rate.
 * `readloop N [FILE]` reads FILE (default /dev/zero) one byte at a time, N times (N read()
 * calls, so N calls of vfs_read), and prints the elapsed CLOCK_MONOTONIC time in ns.
 * Built static (the guest has no libc). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *path = argc > 2 ? argv[2] : "/dev/zero";
	long n = argc > 1 ? atol(argv[1]) : 0, i;
	struct timespec a, b;
	char c;
	int fd;

	if (n <= 0) {
		fprintf(stderr, "usage: readloop N [FILE]\n");
		return 2;
	}
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < n; i++)
		if (read(fd, &c, 1) != 1) {
			perror("read");
			return 1;
		}
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%lld\n", (long long)(b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec));
	return 0;
}
