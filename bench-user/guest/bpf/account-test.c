// SPDX-License-Identifier: GPL-2.0
/*
 * account-test - the host's check of bench-ringbuf's recording and
 * accounting (record.c, account.c): records built as relay_bench.ko's
 * writers build them, fed to record_sample() as the ring buffers would,
 * written to a recording in a directory under $TMPDIR (or /tmp) through
 * buffers smaller than a few records, read back by record_replay() into
 * account_sample(), and checked with the program's counters as they
 * would be; whole runs must pass, and each kind of damage -- a torn
 * record, a stale one, a duplicate, a short or long sample, a record
 * lost with no refusal counted, a refusal counted for a record that
 * arrived -- must fail the check, with the count that says why; a
 * recording cut short must fail to be read back.
 *
 * Prints one "ok NAME" or "FAIL NAME: ..." line per case; exits 1 if
 * any failed.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "account.h"
#include "record.h"

#define RUN	4242
#define SIZE	64
#define WRITERS	2
#define ATTEMPTS 100
#define BUF	100	/* a file's buffer: not a whole number of records */

/* One writer's record @seq, as relay_bench.c's bench_writer_fn() makes it. */
static void make_rec(void *buf, __u32 run, unsigned int cpu, __u32 seq,
		     __u32 ok, __u32 size)
{
	struct relay_bench_rec *h = buf;
	__u32 *word = (__u32 *)(h + 1), i, mix;

	h->tag = RELAY_BENCH_TAG(run, cpu);
	h->seq = seq;
	h->ok = ok;
	h->ts = 1000 + seq * 10;
	mix = relay_bench_mix(h);
	for (i = 0; i < (size - RELAY_BENCH_HDR_SIZE) / 4; i++)
		word[i] = mix;
}

/* What can go wrong with one record, and where. */
enum damage { NONE, TORN, STALE, DUP, SHORT, LONG, LOST, REFUSED_TOO,
	      FOREIGN_CPU, CUT };

struct scenario {
	const char *name;
	unsigned int streams;	/* 1: shared; WRITERS: percpu */
	enum damage damage;
	const char *expect;	/* a word the check line must hold */
	int want_fail;		/* 1: the check fails; -1: the read back */
	size_t buf;		/* the files' buffers; 0: BUF */
};

/* The recording's files and directory, gone. */
static void remove_recording(const char *dir, unsigned int nfiles)
{
	char path[4096];
	unsigned int i;

	for (i = 0; i <= nfiles; i++) {
		int len = i < nfiles ? snprintf(path, sizeof(path), "%s/ring%u", dir, i) :
				       snprintf(path, sizeof(path), "%s/odd", dir);

		if (len > 0 && (size_t)len < sizeof(path))
			unlink(path);
	}
	rmdir(dir);
}

/* One sample: to the recording, and straight to the check (@direct). */
static void feed(const char *name, struct rb_file *f, struct rb_stream *direct,
		 void *rec, size_t size)
{
	if (record_sample(f, rec, size)) {
		printf("FAIL %s: record_sample\n", name);
		exit(1);
	}
	account_sample(direct, rec, size);
}

/* The lines of @a's check, in *@out (malloc'ed); account_check()'s value. */
static int check_lines(const struct rb_account *a, const struct rb_counts *counts,
		       char **out)
{
	size_t outlen = 0;
	FILE *f = open_memstream(out, &outlen);
	int bad;

	if (!f) {
		perror("open_memstream");
		exit(1);
	}
	account_print_cpus(f, a, counts, WRITERS);
	account_print_streams(f, a);
	account_print_peer(f, counts, WRITERS, 0, 0);
	bad = account_check(f, a, counts, WRITERS);
	fclose(f);
	return bad;
}

/*
 * Run one scenario: each writer makes ATTEMPTS attempts; writer 1's
 * attempts 40..49 are refused (counted, no record); the damage is done
 * to writer 0's record 20.  Returns 0 if the check said what it should,
 * and said the same of the recording read back as of the samples
 * checked as they came (as bench-ringbuf did before it recorded them).
 */
static int run_scenario(const struct scenario *sc)
{
	struct rb_counts counts[WRITERS + 1];
	struct rb_account a, direct;
	struct rb_recorder r;
	unsigned char rec[2 * SIZE];
	char dir[1024];
	const char *tmp = getenv("TMPDIR");
	char *out = NULL, *want = NULL;
	unsigned int seq, cpu;
	__u32 okc[WRITERS] = { 0 };
	int bad, ret = 0;

	memset(counts, 0, sizeof(counts));
	snprintf(dir, sizeof(dir), "%s/account-test.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		perror(dir);
		exit(1);
	}
	if (account_init(&a, RUN, SIZE, sc->streams) ||
	    account_init(&direct, RUN, SIZE, sc->streams) ||
	    record_open(&r, dir, SIZE, sc->streams, sc->buf ? sc->buf : BUF)) {
		printf("FAIL %s: account_init or record_open\n", sc->name);
		exit(1);
	}
	for (seq = 0; seq < ATTEMPTS; seq++) {
		for (cpu = 0; cpu < WRITERS; cpu++) {
			struct rb_file *s = &r.files[sc->streams == 1 ? 0 : cpu];
			struct rb_stream *d = &direct.streams[sc->streams == 1 ? 0 : cpu];
			__u32 size = SIZE;

			counts[cpu].attempts++;
			if (cpu == 1 && seq >= 40 && seq < 50) {
				counts[cpu].refused++;
				continue;
			}
			make_rec(rec, RUN, cpu, seq, okc[cpu]++, SIZE);
			if (cpu == 0 && seq == 20) {
				switch (sc->damage) {
				case TORN:
					rec[SIZE - 1] ^= 1;
					break;
				case STALE:
					make_rec(rec, RUN + 1, cpu, seq, okc[cpu] - 1, SIZE);
					break;
				case DUP:
					feed(sc->name, s, d, rec, size);
					break;
				case SHORT:
					size = SIZE - 4;
					break;
				case LONG:	/* more than a buffer, too */
					memset(rec + SIZE, 0xa5, SIZE);
					size = 2 * SIZE;
					break;
				case LOST:
					continue;
				case REFUSED_TOO:
					counts[cpu].refused++;
					break;
				case FOREIGN_CPU:
					/* A writer the counters have no CPU for. */
					make_rec(rec, RUN, WRITERS, 0, 0, SIZE);
					break;
				case NONE:
				case CUT:
					break;
				}
			}
			feed(sc->name, s, d, rec, size);
		}
	}
	if (record_close(&r)) {
		printf("FAIL %s: record_close\n", sc->name);
		exit(1);
	}
	if (sc->damage == CUT) {	/* the last record of ring 0, cut short */
		char path[sizeof(dir) + 16];
		int len = snprintf(path, sizeof(path), "%s/ring0", dir);

		if (len < 0 || (size_t)len >= sizeof(path) ||
		    truncate(path, r.files[0].bytes - 10)) {
			perror(path);
			exit(1);
		}
	}
	bad = record_replay(&r, &a);
	remove_recording(dir, sc->streams);
	record_free(&r);
	if (bad || sc->want_fail < 0) {
		if (bad && sc->want_fail < 0) {
			printf("ok %s: record_replay returned %d\n", sc->name, bad);
		} else {
			printf("FAIL %s: record_replay returned %d\n", sc->name, bad);
			ret = 1;
		}
		account_free(&a);
		account_free(&direct);
		return ret;
	}
	bad = check_lines(&a, counts, &out);
	check_lines(&direct, counts, &want);
	if (bad != sc->want_fail || !strstr(out, sc->expect)) {
		printf("FAIL %s: account_check returned %d, wanted %d and \"%s\"; it printed:\n%s",
		       sc->name, bad, sc->want_fail, sc->expect, out);
		ret = 1;
	} else if (strcmp(out, want)) {
		printf("FAIL %s: the recording read back checks as\n%sthe samples as they came as\n%s",
		       sc->name, out, want);
		ret = 1;
	} else {
		printf("ok %s: %s", sc->name, strstr(out, "check "));
	}
	free(out);
	free(want);
	account_free(&a);
	account_free(&direct);
	return ret;
}

int main(void)
{
	static const struct scenario sc[] = {
		{ "shared-whole", 1, NONE, "lost=0 samples=190 torn=0", 0, 0 },
		{ "percpu-whole", WRITERS, NONE, "seq_missing=10", 0, 0 },
		{ "peer-line", 1, NONE, "peer lost=0,10 cpu_us=0", 0, 0 },
		{ "torn-payload", 1, TORN, "torn=1", 1, 0 },
		{ "torn-payload-percpu", WRITERS, TORN, "torn=1", 1, 0 },
		{ "stale-run", 1, STALE, "stale=1", 1, 0 },
		{ "duplicate", 1, DUP, "backwards=1", 1, 0 },
		{ "short-sample", 1, SHORT, "partial=60", 1, 0 },
		{ "short-sample-percpu", WRITERS, SHORT, "stream n=0 bytes=6396 records=99 stale=0 zero=0 torn=0 bad=0 partial=60", 1, 0 },
		{ "long-sample", 1, LONG, "partial=64", 1, 0 },
		{ "long-sample-percpu", WRITERS, LONG, "stream n=0 bytes=6464 records=100 stale=0 zero=0 torn=0 bad=0 partial=64", 1, 0 },
		{ "big-buffer", WRITERS, NONE, "lost=0 samples=190 torn=0", 0, 1 << 20 },
		{ "recording-cut", 1, CUT, "", -1, 0 },
		{ "recording-cut-percpu", WRITERS, CUT, "", -1, 0 },
		{ "lost-uncounted", 1, LOST, "bpf cpu=0 attempts=100 refused=0 unsupported=0 faults=0 nomap=0 consumed=99 lost=1", 1, 0 },
		{ "refused-but-read", WRITERS, REFUSED_TOO, "lost=-1", 1, 0 },
		{ "writer-without-cpu", 1, FOREIGN_CPU, "writer cpu=2 stream=0 records=1", 1, 0 },
	};
	unsigned int i;
	int fails = 0;

	for (i = 0; i < sizeof(sc) / sizeof(sc[0]); i++)
		fails += run_scenario(&sc[i]);
	printf("%d of %zu cases failed\n", fails, sizeof(sc) / sizeof(sc[0]));
	return fails ? 1 : 0;
}
