// SPDX-License-Identifier: GPL-2.0
/*
 * bench-verify - check the records of a relay_bench run, as relaytrace
 * recorded them
 *
 * Usage: bench-verify -i RUN_ID [-x RUN_ID,...] [-r REC_SIZE] [-d] DIR
 *
 * DIR is what `relaytrace record` or `relaytrace dump` wrote: DIR/info and
 * DIR/traceN, the bytes of each buffer in order.  Every record of run
 * RUN_ID is checked by content with relay_bench_check_rec()
 * (bench-module/uapi/relay_bench.h), the code relay_bench.ko uses for its
 * own check of a ring buffer.  A recording may hold several runs -- the
 * steps of a bisection read by one relaytrace -- : the records of the runs
 * -x names are expected there and left alone; a record of any other run
 * is stale.
 *
 * Prints the reader's lines of that header, for the guest to tag as D
 * lines: a "file" line, a "stream" line and a "writer" line for each
 * writer seen, per buffer; with -d, the "drain" line: the recording's
 * bytes and whole records (all its runs), and relaytrace's time and CPU
 * time, from DIR/info.  Exits 0, 1 if DIR cannot be read, 2 on a usage
 * error.
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

#define MAX_OTHERS	4096

static __u32 others[MAX_OTHERS];
static unsigned int n_others;

static void usage(void)
{
	fprintf(stderr, "usage: bench-verify -i RUN_ID [-x RUN_ID,...] [-r REC_SIZE] [-d] DIR\n");
	exit(2);
}

static unsigned long number(const char *opt, const char *s, char **end)
{
	unsigned long v;
	char *e;

	errno = 0;
	v = strtoul(s, &e, 0);
	if (errno || e == s || (!end && *e)) {
		fprintf(stderr, "bench-verify: %s wants a number, not '%s'\n", opt, s);
		exit(2);
	}
	if (end)
		*end = e;
	return v;
}

static int expected_other(__u32 run)
{
	unsigned int i;

	for (i = 0; i < n_others; i++)
		if (others[i] == run)
			return 1;
	return 0;
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

/* Check one buffer's bytes; counts go to @fs, whole records of any run to *@all. */
static void check_file(struct relay_bench_fstats *fs, __u32 run, const unsigned char *p,
		       size_t len, __u32 size, unsigned long long *all)
{
	size_t off;

	fs->bytes += len;
	for (off = 0; off + size <= len; off += size) {
		const struct relay_bench_rec *h = (const void *)(p + off);

		(*all)++;
		if (expected_other(RELAY_BENCH_TAG_RUN(h->tag)))
			continue;
		relay_bench_check_rec(fs, run, p + off, size);
	}
	fs->partial += len - off;
}

int main(int argc, char **argv)
{
	unsigned long long bytes = 0, all = 0;
	unsigned long run = 0, size = 64;
	struct relay_bench_fstats *fs;
	char path[4096], buf[4096], *info, *tok, *end;
	int c, drain = 0, n = 0, have_run = 0;
	const char *dir, *buffers;

	while ((c = getopt(argc, argv, "i:x:r:d")) != -1) {
		switch (c) {
		case 'i':
			run = number("-i", optarg, NULL);
			have_run = 1;
			break;
		case 'x':
			for (tok = optarg; *tok; tok = *end ? end + 1 : end) {
				if (n_others == MAX_OTHERS) {
					fprintf(stderr, "bench-verify: -x: more than %d runs\n", MAX_OTHERS);
					return 2;
				}
				others[n_others++] = number("-x", tok, &end);
				if (*end && *end != ',')
					usage();
			}
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
	if (optind != argc - 1 || !have_run)
		usage();
	if (!run || run > RELAY_BENCH_MAX_RUN || size < RELAY_BENCH_HDR_SIZE || size % 4) {
		fprintf(stderr, "bench-verify: run %lu, record size %lu: want 1..%u, a multiple of 4 of at least %d\n",
			run, size, RELAY_BENCH_MAX_RUN, RELAY_BENCH_HDR_SIZE);
		return 2;
	}
	dir = argv[optind];
	snprintf(path, sizeof(path), "%s/info", dir);
	info = slurp(path);
	buffers = info_get(info, "buffers", buf, sizeof(buf));
	if (!buffers || !*buffers) {
		fprintf(stderr, "bench-verify: %s names no buffers: not a relaytrace recording?\n", path);
		return 1;
	}
	fs = malloc(sizeof(*fs));
	if (!fs) {
		fprintf(stderr, "bench-verify: out of memory\n");
		return 1;
	}
	for (tok = strtok(buf, " "); tok; tok = strtok(NULL, " "), n++) {
		unsigned int nbuf = number("buffers=", tok, NULL), w;
		unsigned char *p = NULL;
		struct stat st;
		int fd;

		snprintf(path, sizeof(path), "%s/trace%u", dir, nbuf);
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
		memset(fs, 0, sizeof(*fs));
		check_file(fs, run, p, st.st_size, size, &all);
		if (p)
			munmap(p, st.st_size);
		bytes += st.st_size;
		printf(RELAY_BENCH_FILE_FMT, nbuf, path);
		printf(RELAY_BENCH_STREAM_FMT, RELAY_BENCH_STREAM_ARGS(nbuf, fs));
		for (w = 0; w < RELAY_BENCH_MAX_WRITERS; w++)
			if (fs->w[w].records)
				printf(RELAY_BENCH_WRITER_FMT, RELAY_BENCH_WRITER_ARGS(w, nbuf, &fs->w[w]));
	}
	if (drain)
		printf(RELAY_BENCH_DRAIN_FMT, (unsigned int)n, bytes, all,
		       (unsigned long long)(bytes - all * size),
		       info_num(info, "end_mono_ns") - info_num(info, "start_mono_ns"),
		       info_num(info, "cpu_user_ns") / 1000, info_num(info, "cpu_sys_ns") / 1000, -1);
	free(fs);
	free(info);
	return 0;
}
