// SPDX-License-Identifier: GPL-2.0
/*
 * relay-drain - drain and check the relay files of a relay_bench trace
 *
 * Usage: relay-drain -i RUN_ID [-r REC_SIZE] [-o PREFIX] [-R READY_FILE]
 *                    [-t SEC] [-s USEC] [-c CPU] [-a] [-w] TRACE_DIR
 *
 * Opens TRACE_DIR/trace0..traceN, one thread each, reads with poll() +
 * read() until TRACE_DIR/state reads "stopped", drains what is left, and
 * checks every record of run RUN_ID by content (relay_bench_check()).
 * Prints key=value lines: a "stream" line per file, a "writer" line per
 * writer seen in it, and a "drain" total with the drainer's own CPU time.
 * With -o PREFIX, what is read from traceN goes to the file PREFIXN.
 * READY_FILE is created once every file is open.  -t SEC (default 600)
 * bounds the drain: past it, waiting for the trace to stop (or for -w's
 * drops) fails.
 * -s USEC sleeps that long after each read (a slow reader, on purpose);
 * -w reads nothing until TRACE_DIR/dropped reads more than 0, then reads
 *    as without it: the buffers overflow before the first read, whatever
 *    the speed of the writers (fails if the trace stops with none dropped);
 * -c CPU runs every reader thread on that CPU;
 * -a reads nothing until the trace has stopped (flight-recorder dumps).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "reader.h"

static void usage(void)
{
	fprintf(stderr, "usage: relay-drain -i RUN_ID [-r REC_SIZE] [-o PREFIX] "
		"[-R READY_FILE] [-t SEC] [-s USEC] [-c CPU] [-a] [-w] TRACE_DIR\n");
	exit(2);
}

static char *path_join(const char *dir, const char *name)
{
	size_t len = strlen(dir) + strlen(name) + 2;
	char *p = malloc(len);

	if (!p) {
		fprintf(stderr, "relay-drain: out of memory\n");
		exit(1);
	}
	snprintf(p, len, "%s/%s", dir, name);
	return p;
}

/* Read a small control file into buf; 0 or -errno. */
static int read_ctl(const char *dir, const char *name, char *buf, size_t len)
{
	char *p = path_join(dir, name);
	int fd = open(p, O_RDONLY);
	int err = 0;

	if (fd < 0) {
		err = -errno;
	} else {
		ssize_t n = read(fd, buf, len - 1);

		if (n < 0)
			err = -errno;
		else
			buf[n] = '\0';
		close(fd);
	}
	free(p);
	return err;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

/*
 * Wait until DIR/dropped reads more than 0 (-w): 0, or -1 with a message
 * if the trace stopped without dropping anything or @deadline passed.
 */
static int wait_dropped(const char *dir, uint64_t deadline, long timeout)
{
	char state[64], buf[64];

	for (;;) {
		/* state first: once stopped, dropped no longer changes. */
		int err = read_ctl(dir, "state", state, sizeof(state));

		if (err) {
			fprintf(stderr, "relay-drain: %s/state: %s\n", dir,
				strerror(-err));
			return -1;
		}
		err = read_ctl(dir, "dropped", buf, sizeof(buf));
		if (err) {
			fprintf(stderr, "relay-drain: %s/dropped: %s\n", dir,
				strerror(-err));
			return -1;
		}
		if (strtoul(buf, NULL, 10) > 0)
			return 0;
		if (!strcmp(state, "stopped\n")) {
			fprintf(stderr, "relay-drain: -w: the trace stopped with"
				" %s/dropped still 0\n", dir);
			return -1;
		}
		if (now_ns() > deadline) {
			fprintf(stderr, "relay-drain: -w: %s/dropped still 0"
				" after %ld s\n", dir, timeout);
			return -1;
		}
		usleep(1000);
	}
}

static int open_readers(const char *dir, struct reader **out,
			const struct reader *proto)
{
	struct reader *rs = NULL;
	int n = 0;

	for (;;) {
		char name[32];
		struct reader *tmp;
		char *p;
		int fd;

		snprintf(name, sizeof(name), "trace%d", n);
		p = path_join(dir, name);
		fd = open(p, O_RDONLY);
		if (fd < 0) {
			if (errno == ENOENT && n > 0) {
				free(p);
				break;
			}
			fprintf(stderr, "relay-drain: cannot open %s: %s\n", p,
				strerror(errno));
			exit(1);
		}
		tmp = realloc(rs, (n + 1) * sizeof(*rs));
		if (!tmp) {
			fprintf(stderr, "relay-drain: out of memory\n");
			exit(1);
		}
		rs = tmp;
		memset(&rs[n], 0, sizeof(rs[n]));
		rs[n] = *proto;
		rs[n].path = p;
		rs[n].fd = fd;
		n++;
	}
	*out = rs;
	return n;
}

static void report(struct reader *rs, int n, uint64_t elapsed, int cpu)
{
	uint64_t bytes = 0, records = 0, bad = 0;
	struct rusage ru;

	for (unsigned int i = 0; i < (unsigned int)n; i++) {
		struct relay_bench_fstats *fs = &rs[i].stats;

		printf(RELAY_BENCH_FILE_FMT, i, rs[i].path);
		printf(RELAY_BENCH_STREAM_FMT, RELAY_BENCH_STREAM_ARGS(i, fs));
		for (unsigned int w = 0; w < RELAY_BENCH_MAX_WRITERS; w++)
			if (fs->w[w].records)
				printf(RELAY_BENCH_WRITER_FMT,
				       RELAY_BENCH_WRITER_ARGS(w, i, &fs->w[w]));
		bytes += fs->bytes;
		records += fs->records;
		bad += fs->stale + fs->torn + fs->bad + (fs->partial != 0);
	}
	getrusage(RUSAGE_SELF, &ru);
	printf(RELAY_BENCH_DRAIN_FMT, (unsigned int)n,
	       (unsigned long long)bytes, (unsigned long long)records,
	       (unsigned long long)bad, (unsigned long long)elapsed,
	       (unsigned long long)(ru.ru_utime.tv_sec * 1000000L + ru.ru_utime.tv_usec),
	       (unsigned long long)(ru.ru_stime.tv_sec * 1000000L + ru.ru_stime.tv_usec),
	       cpu);
}

/* Run the calling thread, and the threads it creates, on @cpu. */
static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "relay-drain: cannot run on CPU %d: %s\n", cpu,
			strerror(errno));
		exit(1);
	}
}

static unsigned long number(const char *opt, const char *s)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || !*s || *end) {
		fprintf(stderr, "relay-drain: %s wants a number, not '%s'\n",
			opt, s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	const char *out = NULL, *ready = NULL, *dir;
	size_t rec_size = 64, subbuf_size;
	struct reader *rs, proto = { 0 };
	pthread_t *th;
	int c, n, err, stop = 0, hold = 0, failed = 0, cpu = -1, have_run = 0;
	long timeout = 600;
	uint64_t start, deadline;
	char buf[64];

	while ((c = getopt(argc, argv, "i:r:o:R:t:s:c:aw")) != -1) {
		switch (c) {
		case 'i':
			proto.run = number("-i", optarg);
			have_run = 1;
			break;
		case 's': proto.sleep_us = number("-s", optarg); break;
		case 'a': proto.after_stop = 1; break;
		case 'w': hold = 1; break;
		case 'r': rec_size = number("-r", optarg); break;
		case 'c': cpu = number("-c", optarg); break;
		case 'o': out = optarg; break;
		case 'R': ready = optarg; break;
		case 't': timeout = number("-t", optarg); break;
		default: usage();
		}
	}
	if (optind != argc - 1 || !have_run)
		usage();
	if (rec_size < RELAY_BENCH_HDR_SIZE || rec_size % 4) {
		fprintf(stderr, "relay-drain: record size %zu: want a multiple of 4, at least %d\n",
			rec_size, RELAY_BENCH_HDR_SIZE);
		return 2;
	}
	if (proto.run == 0 || proto.run > RELAY_BENCH_MAX_RUN) {
		fprintf(stderr, "relay-drain: run identifier %u: want 1..%u\n",
			proto.run, RELAY_BENCH_MAX_RUN);
		return 2;
	}
	dir = argv[optind];
	if (cpu >= 0)
		pin(cpu);

	err = read_ctl(dir, "sub_size", buf, sizeof(buf));
	if (err) {
		fprintf(stderr, "relay-drain: %s is not a readable trace "
			"(%s/sub_size: %s)\n", dir, dir, strerror(-err));
		return 1;
	}
	subbuf_size = strtoul(buf, NULL, 10);
	if (!subbuf_size || subbuf_size % rec_size) {
		fprintf(stderr, "relay-drain: sub-buffer size %zu is not a "
			"multiple of the record size %zu\n", subbuf_size,
			rec_size);
		return 1;
	}
	proto.out_fd = -1;
	proto.rec_size = rec_size;
	proto.subbuf_size = subbuf_size;
	proto.stop = &stop;
	proto.hold = &hold;
	n = open_readers(dir, &rs, &proto);
	for (int i = 0; out && i < n; i++) {
		char name[32], *p;

		snprintf(name, sizeof(name), "%d", i);
		p = malloc(strlen(out) + strlen(name) + 1);
		if (!p) {
			fprintf(stderr, "relay-drain: out of memory\n");
			return 1;
		}
		strcpy(p, out);
		strcat(p, name);
		rs[i].out_fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (rs[i].out_fd < 0) {
			fprintf(stderr, "relay-drain: cannot create %s: %s\n",
				p, strerror(errno));
			return 1;
		}
		free(p);
	}
	th = calloc(n, sizeof(*th));
	if (!th) {
		fprintf(stderr, "relay-drain: out of memory\n");
		return 1;
	}
	start = now_ns();
	for (int i = 0; i < n; i++) {
		err = pthread_create(&th[i], NULL, reader_main, &rs[i]);
		if (err) {
			fprintf(stderr, "relay-drain: pthread_create: %s\n",
				strerror(err));
			return 1;
		}
	}
	if (ready) {
		int fd = open(ready, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd < 0) {
			fprintf(stderr, "relay-drain: cannot create %s: %s\n",
				ready, strerror(errno));
			return 1;
		}
		close(fd);
	}

	deadline = start + (uint64_t)timeout * 1000000000u;
	if (hold) {
		failed = wait_dropped(dir, deadline, timeout) != 0;
		__atomic_store_n(&hold, 0, __ATOMIC_RELEASE);
	}
	while (!failed) {
		err = read_ctl(dir, "state", buf, sizeof(buf));
		if (err) {
			fprintf(stderr, "relay-drain: %s/state: %s\n", dir,
				strerror(-err));
			failed = 1;
			break;
		}
		if (!strcmp(buf, "stopped\n"))
			break;
		if (now_ns() > deadline) {
			fprintf(stderr, "relay-drain: trace did not stop within"
				" %ld s\n", timeout);
			failed = 1;
			break;
		}
		usleep(10000);
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < n; i++) {
		pthread_join(th[i], NULL);
		failed |= rs[i].error;
	}
	report(rs, n, now_ns() - start, cpu);
	return failed;
}
