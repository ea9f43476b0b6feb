// SPDX-License-Identifier: GPL-2.0
/*
 * fake-trace - write the files of a stopped relay_bench trace, with one
 * fault injected, for the checker's tests
 *
 * Usage: fake-trace -o DIR [-m percpu|global] [-f] [-w WRITERS] [-n RECORDS]
 *                   [-s SIZE] [-F FAULT]
 *
 * Writes DIR/trace0..traceN and DIR/info, as relaytrace records a
 * relay_bench run of WRITERS writers of RECORDS records each, and prints
 * on stdout the results the module would report, as KEY=VALUE words of
 * an R line.  The records are built with the layout
 * of bench-module/uapi/relay_bench.h, as the module builds them.
 *
 * FAULT is one of:
 *   none       nothing wrong
 *   hole       one stored record missing from the stream
 *   truncated  the last record of a file cut in half
 *   reorder    two records of a writer swapped
 *   payload    one record's payload zeroed
 *   torn       one record's header with the payload of the next
 *   stale      a record of another run among the others
 *   phantom    one write the writer counted as refused was stored, and
 *              a later stored record is missing: the counts still agree
 *   newest     (flight) the newest record of writer 0 missing
 *   split      (per-CPU, 2 or more writers) one record of writer 0
 *              stored in writer 1's file
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../bench-module/uapi/relay_bench.h"

#define RUN	4242
#define MAXW	8

struct stream {
	unsigned char *buf;
	size_t len, cap;
};

static unsigned int size = 64;

static void die(const char *what)
{
	fprintf(stderr, "fake-trace: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void put(struct stream *s, const void *rec)
{
	if (s->len + size > s->cap) {
		s->cap = s->cap ? s->cap * 2 : 65536;
		s->buf = realloc(s->buf, s->cap);
		if (!s->buf)
			die("realloc");
	}
	memcpy(s->buf + s->len, rec, size);
	s->len += size;
}

/* Build record @seq of writer @cpu, @ok successful writes before it. */
static void build(unsigned char *rec, unsigned int run, unsigned int cpu,
		  unsigned int seq, unsigned int ok)
{
	struct relay_bench_rec *h = (struct relay_bench_rec *)rec;
	__u32 *word = (__u32 *)(rec + RELAY_BENCH_HDR_SIZE);
	__u32 mix;

	h->tag = RELAY_BENCH_TAG(run, cpu);
	h->seq = seq;
	h->ok = ok;
	h->ts = 1000 + seq * 10;
	mix = relay_bench_mix(h);
	for (unsigned int i = 0; i < (size - RELAY_BENCH_HDR_SIZE) / 4; i++)
		word[i] = mix;
}

static void write_file(const char *dir, const char *name, const void *buf,
		       size_t len)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, buf, len) != (ssize_t)len || close(fd))
		die(path);
}

static void list(const char *key, const unsigned long *v, int n)
{
	printf(" %s=", key);
	for (int i = 0; i < n; i++)
		printf("%s%lu", i ? "," : "", v[i]);
}

int main(int argc, char **argv)
{
	const char *dir = NULL, *fault = "none", *mode = "percpu";
	unsigned long att[MAXW], ok[MAXW], failed[MAXW], last_ts[MAXW];
	struct stream st[MAXW] = { { 0 } };
	unsigned char rec[1024], next[1024];
	int writers = 2, nrec = 200, flight = 0, c, nfiles;
	char name[32];

	while ((c = getopt(argc, argv, "o:m:fw:n:s:F:")) != -1) {
		switch (c) {
		case 'o': dir = optarg; break;
		case 'm': mode = optarg; break;
		case 'f': flight = 1; break;
		case 'w': writers = atoi(optarg); break;
		case 'n': nrec = atoi(optarg); break;
		case 's': size = atoi(optarg); break;
		case 'F': fault = optarg; break;
		default: return 2;
		}
	}
	if (!dir || writers < 1 || writers > MAXW || nrec < 10 ||
	    size < RELAY_BENCH_HDR_SIZE || size > sizeof(rec) || size % 4) {
		fprintf(stderr, "usage: fake-trace -o DIR [-m percpu|global] [-f] [-w 1..8] [-n RECORDS>=10] [-s SIZE] [-F FAULT]\n");
		return 2;
	}
	nfiles = strcmp(mode, "global") ? writers : 1;

	for (int w = 0; w < writers; w++) {
		struct stream *s = &st[strcmp(mode, "global") ? w : 0];
		unsigned int okc = 0, seq;

		att[w] = nrec;
		failed[w] = 0;
		for (seq = 0; seq < (unsigned int)nrec; seq++) {
			int refused = 0, stored = 1;

			if (w == 0 && !strcmp(fault, "phantom")) {
				/* Counted as refused, yet stored; one lost later. */
				if (seq == 40)
					refused = 1;
				if (seq == 120)
					stored = 0;
			}
			build(rec, RUN, w, seq, okc);
			if (stored) {
				if (w == 0 && seq == 50 && !strcmp(fault, "hole"))
					;
				else if (w == 0 && seq == 100 && nfiles > 1 && !strcmp(fault, "split"))
					put(&st[1], rec);
				else if (w == 0 && seq == 60 && !strcmp(fault, "payload"))
					memset(rec + RELAY_BENCH_HDR_SIZE, 0, size - RELAY_BENCH_HDR_SIZE), put(s, rec);
				else if (w == 0 && seq == 70 && !strcmp(fault, "torn")) {
					build(next, RUN, w, seq + 1, okc + 1);
					memcpy(rec + RELAY_BENCH_HDR_SIZE, next + RELAY_BENCH_HDR_SIZE,
					       size - RELAY_BENCH_HDR_SIZE);
					put(s, rec);
				} else if (!(w == 0 && seq == (unsigned int)nrec - 1 && !strcmp(fault, "newest")))
					put(s, rec);
			}
			if (w == 0 && seq == 80 && !strcmp(fault, "stale")) {
				build(next, RUN + 1, w, seq, okc);
				put(s, next);
			}
			if (refused) {
				failed[w]++;
			} else {
				okc++;
				last_ts[w] = 1000 + seq * 10;
			}
		}
		ok[w] = okc;
	}
	if (!strcmp(fault, "reorder")) {
		/* Swap writer 0's records 90 and 91: writer 0 comes first. */
		unsigned char *a = st[0].buf + 90 * (size_t)size;
		unsigned char *b = a + size;

		memcpy(rec, a, size);
		memcpy(a, b, size);
		memcpy(b, rec, size);
	}
	if (!strcmp(fault, "truncated"))
		st[0].len -= size / 2;

	for (int f = 0; f < nfiles; f++) {
		snprintf(name, sizeof(name), "trace%d", f);
		write_file(dir, name, st[f].buf, st[f].len);
	}
	{
		char info[512];
		int n = snprintf(info, sizeof(info), "trace=relay_bench/run\nbuffers=");

		for (int f = 0; f < nfiles; f++)
			n += snprintf(info + n, sizeof(info) - n, "%s%d", f ? " " : "", f);
		n += snprintf(info + n, sizeof(info) - n,
			      "\nstart_mono_ns=1000\nend_mono_ns=2001000\ncpu_user_ns=3000000\n"
			      "cpu_sys_ns=1000000\nend=stopped\n");
		write_file(dir, "info", info, n);
	}

	/* A flight buffer big enough for every record of its stream. */
	printf("mode=%s flight=%d writers=%d rec_size=%u subbuf_size=%u n_subbufs=%d run_id=%d",
	       mode, flight, writers, size, size * 64,
	       2 + nrec * (nfiles == 1 ? writers : 1) / 64, RUN);
	list("attempted", att, writers);
	list("ok", ok, writers);
	list("refused", failed, writers);
	printf(" ns=");
	for (int w = 0; w < writers; w++)
		printf("%s1000000", w ? "," : "");
	list("last_ts", last_ts, writers);
	for (int w = 1; w < writers; w++)
		failed[0] += failed[w];
	printf(" trace_dropped=%lu trace_refused=0 hist=\n", failed[0]);
	return 0;
}
