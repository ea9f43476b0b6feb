// SPDX-License-Identifier: GPL-2.0
/*
 * relay-drain: one thread per relay file.
 *
 * While the trace runs, read only whole sub-buffers, and only once poll()
 * says one is complete: relay's read(2) also returns the sub-buffer being
 * written, up to a reserved record whose copy may not have finished.
 * After the trace stopped (trace_stop() waited for writers and flushed),
 * read everything left.  Every record read is checked by content with
 * relay_bench_check() (bench-module/uapi/relay_bench.h).
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reader.h"

static int sink(struct reader *r, const unsigned char *buf, size_t n)
{
	relay_bench_check(&r->stats, r->run, buf, n, r->rec_size);
	if (r->out_fd >= 0 && write(r->out_fd, buf, n) != (ssize_t)n) {
		fprintf(stderr, "relay-drain: write to the copy of %s failed: %s\n",
			r->path, strerror(errno));
		return -1;
	}
	return 0;
}

static ssize_t read_some(struct reader *r, unsigned char *buf, size_t len)
{
	ssize_t n = read(r->fd, buf, len);

	if (n < 0)
		fprintf(stderr, "relay-drain: read %s: %s\n", r->path,
			strerror(errno));
	return n;
}

void *reader_main(void *arg)
{
	struct reader *r = arg;
	size_t bufsz = r->subbuf_size * 16;
	unsigned char *buf = malloc(bufsz);
	struct pollfd pfd = { .fd = r->fd, .events = POLLIN };
	ssize_t n = 0;

	if (!buf) {
		fprintf(stderr, "relay-drain: %s: out of memory\n", r->path);
		r->error = 1;
		return NULL;
	}
	while (!__atomic_load_n(r->stop, __ATOMIC_ACQUIRE)) {
		int p;

		if (r->after_stop || __atomic_load_n(r->hold, __ATOMIC_ACQUIRE)) {
			usleep(10000);
			continue;
		}
		p = poll(&pfd, 1, 20);
		if (p < 0 && errno != EINTR) {
			fprintf(stderr, "relay-drain: poll %s: %s\n", r->path,
				strerror(errno));
			r->error = 1;
			break;
		}
		if (p <= 0 || !(pfd.revents & POLLIN))
			continue;
		n = read_some(r, buf, r->subbuf_size);
		if (n < 0 || (n > 0 && sink(r, buf, n))) {
			r->error = 1;
			break;
		}
		if (r->sleep_us)
			usleep(r->sleep_us);
	}
	/* Final drain: the writers are done and the buffers flushed. */
	while (!r->error && (n = read_some(r, buf, bufsz)) > 0)
		if (sink(r, buf, n))
			r->error = 1;
	if (n < 0)
		r->error = 1;
	free(buf);
	return NULL;
}
