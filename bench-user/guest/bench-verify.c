// SPDX-License-Identifier: GPL-2.0
/*
 * bench-verify - check the records of a relay_bench run, as relaytrace
 * recorded them
 *
 * Usage: bench-verify -i RUN_ID[,RUN_ID...] [-x RUN_ID,...] [-r REC_SIZE] [-d] DIR
 *
 * DIR is what `relaytrace record` or `relaytrace dump` wrote: DIR/info and
 * DIR/traceN, the bytes of each buffer in order.  Every record of the runs
 * -i names is checked by content with relay_bench_check_rec()
 * (bench-module/uapi/relay_bench.h), the code relay_bench.ko uses for its
 * own check of a ring buffer, each run apart, in one pass.  A recording
 * may hold several runs -- the steps of a bisection read by one
 * relaytrace --: those -i names are checked, those -x names are expected
 * there and left alone, and a record of any other run is stale.
 *
 * Prints, per run checked, the reader's lines of that header, for the
 * guest to tag as D lines: a "file" line, a "stream" line and a "writer"
 * line for each writer seen, per buffer; with -d, the "drain" line: the
 * recording's bytes and whole records (all its runs), and relaytrace's
 * time and CPU time, from DIR/info.  With several runs, a line "run ID"
 * begins each run's lines.  Exits 0, 1 if DIR cannot be read, 2 on a
 * usage error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../bench-module/uapi/relay_bench.h"

#define MAX_RUNS	4096

static __u32 runs[MAX_RUNS], others[MAX_RUNS];
static unsigned int n_runs, n_others;

static void usage(void)
{
	fprintf(stderr, "usage: bench-verify -i RUN_ID[,RUN_ID...] [-x RUN_ID,...] [-r REC_SIZE] [-d] DIR\n");
	exit(2);
}

static unsigned long number(const char *opt, const char *s, char **end)
{
	unsigned long v;
	char *e;

	errno = 0;
	v = strtoul(s, &e, 10);
	if (errno || e == s || (!end && *e)) {
		fprintf(stderr, "bench-verify: %s wants a number, not '%s'\n", opt, s);
		exit(2);
	}
	if (end)
		*end = e;
	return v;
}

/* The index of @run in @list, or -1. */
static int find(const __u32 *list, unsigned int n, __u32 run)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (list[i] == run)
			return i;
	return -1;
}

/* Parse a comma-separated list of run identifiers into @list. */
static unsigned int parse_runs(const char *opt, char *arg, __u32 *list)
{
	unsigned int n = 0;
	char *tok, *end;

	for (tok = arg; *tok; tok = *end ? end + 1 : end) {
		unsigned long v;

		if (n == MAX_RUNS) {
			fprintf(stderr, "bench-verify: %s: more than %d runs\n", opt, MAX_RUNS);
			exit(2);
		}
		v = number(opt, tok, &end);
		if ((*end && *end != ',') || !v || v > RELAY_BENCH_MAX_RUN) {
			fprintf(stderr, "bench-verify: %s: '%s' is not a list of run identifiers 1..%u\n",
				opt, arg, RELAY_BENCH_MAX_RUN);
			exit(2);
		}
		list[n++] = v;
	}
	return n;
}

/* A value of DIR/info ("key=value" lines), or NULL. */
static const char *info_get(const char *info, const char *key, char *buf, size_t size)
{
	size_t klen = strlen(key);
	const char *p = info;

	while (p && *p) {
		if (!strncmp(p, key, klen) && p[klen] == '=') {
			size_t n = strcspn(p + klen + 1, "\n");

			if (n >= size)
				n = size - 1;
			memcpy(buf, p + klen + 1, n);
			buf[n] = '\0';
			return buf;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

static unsigned long long info_num(const char *info, const char *key)
{
	char buf[32];

	return info_get(info, key, buf, sizeof(buf)) ? strtoull(buf, NULL, 10) : 0;
}

/* Read a whole small file; NULL with a message if it cannot be. */
static char *slurp(const char *path)
{
	char *buf = malloc(1 << 16);
	ssize_t n;
	int fd;

	if (!buf) {
		fprintf(stderr, "bench-verify: out of memory\n");
		exit(1);
	}
	fd = open(path, O_RDONLY);
	if (fd < 0 || (n = read(fd, buf, (1 << 16) - 1)) < 0) {
		fprintf(stderr, "bench-verify: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	close(fd);
	buf[n] = '\0';
	return buf;
}

/*
 * Check one buffer's bytes: each record goes to the counts of its run, in
 * @fs[] (runs[i]'s in fs[i]); one of no run named is stale to all of
 * them.  Whole records of any run are counted in *@all.
 */
static void check_file(struct relay_bench_fstats *fs, const unsigned char *p,
		       size_t len, __u32 size, unsigned long long *all)
{
	unsigned int i;
	size_t off;

	for (i = 0; i < n_runs; i++)
		fs[i].bytes += len;
	for (off = 0; off + size <= len; off += size) {
		const struct relay_bench_rec *h = (const void *)(p + off);
		__u32 run = RELAY_BENCH_TAG_RUN(h->tag);
		int r;

		(*all)++;
		r = find(runs, n_runs, run);
		if (r >= 0)
			relay_bench_check_rec(&fs[r], run, p + off, size);
		else if (find(others, n_others, run) < 0)
			for (i = 0; i < n_runs; i++)
				relay_bench_check_rec(&fs[i], runs[i], p + off, size);
	}
	for (i = 0; i < n_runs; i++)
		fs[i].partial += len - off;
}

int main(int argc, char **argv)
{
	unsigned long long bytes = 0, all = 0, elapsed, utime, stime;
	unsigned long size = 64;
	char path[4096], buf[4096], *info, *tok;
	struct relay_bench_fstats *fs;
	unsigned int nbufs = 0, i, b, w, bufs[1024];
	const char *dir, *buffers;
	int c, drain = 0;

	while ((c = getopt(argc, argv, "i:x:r:d")) != -1) {
		switch (c) {
		case 'i':
			n_runs = parse_runs("-i", optarg, runs);
			break;
		case 'x':
			n_others = parse_runs("-x", optarg, others);
			break;
		case 'r':
			size = number("-r", optarg, NULL);
			break;
		case 'd':
			drain = 1;
			break;
		default:
			usage();
		}
	}
	if (optind != argc - 1 || !n_runs)
		usage();
	if (size < RELAY_BENCH_HDR_SIZE || size % 4) {
		fprintf(stderr, "bench-verify: record size %lu: want a multiple of 4 of at least %d\n",
			size, RELAY_BENCH_HDR_SIZE);
		return 2;
	}
	for (i = 0; i < n_runs; i++) {
		if (find(others, n_others, runs[i]) >= 0) {
			fprintf(stderr, "bench-verify: run %u is both checked (-i) and left alone (-x)\n",
				runs[i]);
			return 2;
		}
	}
	dir = argv[optind];
	snprintf(path, sizeof(path), "%s/info", dir);
	info = slurp(path);
	buffers = info_get(info, "buffers", buf, sizeof(buf));
	if (!buffers || !*buffers) {
		fprintf(stderr, "bench-verify: %s names no buffers: not a relaytrace recording?\n", path);
		return 1;
	}
	for (tok = strtok(buf, " "); tok && nbufs < 1024; tok = strtok(NULL, " "))
		bufs[nbufs++] = number("buffers=", tok, NULL);
	/* Per buffer, per run. */
	fs = calloc((size_t)nbufs * n_runs, sizeof(*fs));
	if (!fs) {
		fprintf(stderr, "bench-verify: out of memory\n");
		return 1;
	}
	for (b = 0; b < nbufs; b++) {
		unsigned char *p = NULL;
		struct stat st;
		int fd;

		snprintf(path, sizeof(path), "%s/trace%u", dir, bufs[b]);
		fd = open(path, O_RDONLY);
		if (fd < 0 || fstat(fd, &st)) {
			fprintf(stderr, "bench-verify: %s: %s\n", path, strerror(errno));
			return 1;
		}
		if (st.st_size) {
			p = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
			if (p == MAP_FAILED) {
				fprintf(stderr, "bench-verify: mmap %s: %s\n", path, strerror(errno));
				return 1;
			}
		}
		close(fd);
		check_file(&fs[(size_t)b * n_runs], p, st.st_size, size, &all);
		if (p)
			munmap(p, st.st_size);
		bytes += st.st_size;
	}
	elapsed = info_num(info, "end_mono_ns") - info_num(info, "start_mono_ns");
	utime = info_num(info, "cpu_user_ns") / 1000;
	stime = info_num(info, "cpu_sys_ns") / 1000;
	for (i = 0; i < n_runs; i++) {
		if (n_runs > 1)
			printf("run %u\n", runs[i]);
		for (b = 0; b < nbufs; b++) {
			struct relay_bench_fstats *f = &fs[(size_t)b * n_runs + i];

			printf(RELAY_BENCH_FILE_FMT, bufs[b], path);
			printf(RELAY_BENCH_STREAM_FMT, RELAY_BENCH_STREAM_ARGS(bufs[b], f));
			for (w = 0; w < RELAY_BENCH_MAX_WRITERS; w++)
				if (f->w[w].records)
					printf(RELAY_BENCH_WRITER_FMT,
					       RELAY_BENCH_WRITER_ARGS(w, bufs[b], &f->w[w]));
		}
		if (drain)
			printf(RELAY_BENCH_DRAIN_FMT, nbufs, bytes, all,
			       (unsigned long long)(bytes - all * size), elapsed, utime, stime, -1);
	}
	free(fs);
	free(info);
	return 0;
}
