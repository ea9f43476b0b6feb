// SPDX-License-Identifier: GPL-2.0
/*
 * bench-verify - check the records of a relay_bench run, as relaytrace
 * recorded them
 *
 * Usage: bench-verify -i RUN_ID[,RUN_ID...] [-x RUN_ID,...] [-r REC_SIZE] [-d] DIR
 *        bench-verify -i RUN_ID[,RUN_ID...] [-x RUN_ID,...] [-r REC_SIZE] [-d]
 *                     [-c ELAPSED_NS,UTIME_US,STIME_US] --text FILE|-
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
 *
 * --text reads instead the text a peer's tool prints of the module's
 * tracepoint, relay_bench:relay_bench_rec ("len=%u data=%s", the data as
 * __print_hex() spells it): `trace-cmd report` or `perf script
 * --show-lost-events`, or of LTTng's probe of it (bench-module/lttng/):
 * `babeltrace2` with its warnings, from FILE or (-) standard input.  Each
 * event line is one record of the stream of its CPU ("[003]", the last
 * such field before "len="; babeltrace2's "cpu_id = 3"), its bytes the
 * hex after "data=" (babeltrace2's "data = [ [0] = 0x1, ... ]", each
 * index in turn), checked against len=
 * and then exactly as a relay file's (a record longer than REC_SIZE is
 * checked on its first REC_SIZE bytes, the rest counted partial, as
 * relay_bench.ko checks its ring buffer).  The loss markers the tools
 * print are counted, with the counts they carry, on the stream of the CPU
 * they name:
 *
 *   CPU:N [C EVENTS DROPPED]    trace-cmd report: a sub-buffer the kernel
 *   CPU:N [EVENTS DROPPED]      flagged for missed events, with the count
 *                               (or without, when the page had no room)
 *   CPU:N [LOST C EVENTS]       the kernel's own text (trace, trace_pipe)
 *   ... [NNN] ... PERF_RECORD_LOST lost C
 *                               perf script --show-lost-events: a
 *                               PERF_RECORD_LOST of that CPU's buffer
 *   ... PERF_RECORD_LOST_SAMPLES lost C    (the same, of the kernel's
 *                               discarded samples)
 *   WARNING: Tracer discarded C event[s] ... within stream "DIR/CHAN_N" ...
 *                               babeltrace2: the events a packet's header
 *                               says its CPU's buffer discarded (N: LTTng
 *                               names a CPU's stream file CHANNEL_CPU)
 *   WARNING: Tracer discarded C packet[s] ... within stream "DIR/CHAN_N"
 *   WARNING: Tracer may have discarded events|packets ...
 *                               babeltrace2: whole packets missing, or a
 *                               loss it cannot count: no count
 *
 * Lines of neither kind are unparsed, but for trace-cmd report's header
 * ("cpus=N", "version = V") and blank lines.  It prints the stream and
 * writer lines of each CPU seen (no file line: a ring buffer), the drain
 * line with -d (streams, bytes decoded; the consumer's elapsed time and
 * CPU time from -c, which the tool's text does not carry), and, once,
 * after every run's lines, a "text" line per stream and one of all
 * (stream=-1): lines read, event lines, lines unparsed (the total only),
 * event lines whose hex does not match len= (badlen: cut short, odd or
 * foreign characters; their bytes are still checked), event lines that
 * repeat the bytes of their stream's event before (dups: a record the tool
 * printed twice, backwards to the check), loss markers, the events they
 * count lost, and the markers that carry no count.
 */
#define _GNU_SOURCE	/* memmem() */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
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
	fprintf(stderr, "usage: bench-verify -i RUN_ID[,RUN_ID...] [-x RUN_ID,...] [-r REC_SIZE] [-d] DIR\n"
		"       bench-verify -i RUN_ID[,RUN_ID...] [-x RUN_ID,...] [-r REC_SIZE] [-d]\n"
		"                    [-c ELAPSED_NS,UTIME_US,STIME_US] --text FILE|-\n");
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

/*
 * --text: the text of trace-cmd report, perf script or babeltrace2, line
 * by line, in a buffer of fixed size (a line longer than it is unparsed);
 * no allocation but a stream's counts, when its CPU is first seen.
 */
#define TEXT_BUF	(4 << 20)
#define TEXT_LINE_MAX	(256 << 10)
#define MAX_STREAMS	1024

struct text_counts {
	unsigned long long lines, events, unparsed, badlen, dups, markers, lost, lost_unknown;
};

struct text_stream {
	struct text_counts c;
	struct relay_bench_fstats *fs;	/* one per run checked */
	__u64 last_hash;		/* of the stream's event before: a repeat is a dup */
	size_t last_len;
};

static struct text_stream *streams[MAX_STREAMS];
static struct text_counts text_all;
static unsigned char text_rec[TEXT_LINE_MAX / 2];
static signed char hexval[256];

/* The stream of @cpu, made when first seen; NULL for no CPU in range. */
static struct text_stream *text_stream(long cpu)
{
	struct text_stream *st;

	if (cpu < 0 || cpu >= MAX_STREAMS)
		return NULL;
	st = streams[cpu];
	if (!st) {
		st = calloc(1, sizeof(*st));
		if (st)
			st->fs = calloc(n_runs, sizeof(*st->fs));
		if (!st || !st->fs) {
			fprintf(stderr, "bench-verify: out of memory\n");
			exit(1);
		}
		streams[cpu] = st;
	}
	return st;
}

/* The last "[digits]" in [@s, @end), as a number, or -1. */
static long text_cpu(const char *s, const char *end)
{
	const char *p, *close = NULL;

	for (p = end; p > s; ) {
		if (*--p == ']') {
			close = p;
		} else if (*p == '[' && close && close > p + 1) {
			const char *d;
			long v = 0;

			for (d = p + 1; d < close && *d >= '0' && *d <= '9' && v < MAX_STREAMS; d++)
				v = v * 10 + (*d - '0');
			if (d == close)
				return v;
			close = NULL;
		} else if (close && (*p < '0' || *p > '9')) {
			close = NULL;
		}
	}
	return -1;
}

/* The number at @p (digits), or -1 if there is none. */
static long long text_num(const char *p)
{
	long long v = 0;

	if (*p < '0' || *p > '9')
		return -1;
	while (*p >= '0' && *p <= '9' && v < 100000000000000000LL)
		v = v * 10 + (*p++ - '0');
	return v;
}

/* A loss marker of the stream of @cpu (-1: none named) counting @n (-1: unknown). */
static void text_marker(long cpu, long long n)
{
	struct text_stream *st = text_stream(cpu);
	struct text_counts *c[2] = { &text_all, st ? &st->c : NULL };
	unsigned int i;

	for (i = 0; i < 2 && c[i]; i++) {
		if (i)
			c[i]->lines++;
		c[i]->markers++;
		if (n >= 0)
			c[i]->lost += n;
		else
			c[i]->lost_unknown++;
	}
}

/*
 * The CPU of the stream a babeltrace2 warning names, from the name LTTng
 * gives a CPU's stream file, CHANNEL_CPU: "... within stream
 * \"/path/kernel/c0_3\" ..."; -1 if none.
 */
static long bt_stream_cpu(const char *s, size_t n)
{
	const char *p = memmem(s, n, "within stream \"", 15), *q;

	if (!p)
		return -1;
	p += 15;
	q = memchr(p, '"', n - (p - s));
	if (!q)
		return -1;
	for (p = q; p > s && p[-1] >= '0' && p[-1] <= '9'; p--)
		;
	if (p == q || p[-1] != '_')
		return -1;
	return text_num(p);
}

/* A loss marker, if @s is one: 1, else 0. */
static int text_loss_line(const char *s, size_t n)
{
	const char *p, *q;

	/* trace-cmd report: "CPU:N [C EVENTS DROPPED]", "CPU:N [EVENTS DROPPED]" */
	p = memmem(s, n, "EVENTS DROPPED]", 15);
	if (p) {
		const char *cpu = memmem(s, p - s, "CPU:", 4);

		for (q = p; q > s && q[-1] != '['; q--)
			;
		if (!cpu || q == s)
			return 0;
		text_marker(text_num(cpu + 4), text_num(q));
		return 1;
	}
	/* The kernel's trace file: "CPU:N [LOST C EVENTS]" */
	p = memmem(s, n, "[LOST ", 6);
	if (p && memmem(p, n - (p - s), " EVENTS]", 8)) {
		q = memmem(s, p - s, "CPU:", 4);
		text_marker(q ? text_num(q + 4) : -1, text_num(p + 6));
		return 1;
	}
	/* perf script --show-lost-events: "... [CPU] ...: PERF_RECORD_LOST lost C" */
	p = memmem(s, n, "PERF_RECORD_LOST", 16);
	if (p) {
		q = memmem(p, n - (p - s), " lost ", 6);
		text_marker(text_cpu(s, p), q ? text_num(q + 6) : -1);
		return 1;
	}
	/*
	 * babeltrace2 (its warnings, on stderr): "WARNING: Tracer discarded C
	 * event[s] between [...] ... within stream "DIR/CHANNEL_N" ...";
	 * "Tracer discarded C packet[s]" (whole packets: their events not
	 * counted) and "Tracer may have discarded events|packets" (no count).
	 */
	p = memmem(s, n, "Tracer discarded ", 17);
	if (p) {
		long long c = text_num(p + 17);

		for (q = p + 17; *q >= '0' && *q <= '9'; q++)
			;
		if (c >= 0 && !strncmp(q, " event", 6)) {
			text_marker(bt_stream_cpu(s, n), c);
			return 1;
		}
		if (c >= 0 && !strncmp(q, " packet", 7)) {
			text_marker(bt_stream_cpu(s, n), -1);
			return 1;
		}
	}
	if (memmem(s, n, "Tracer may have discarded ", 26)) {
		text_marker(bt_stream_cpu(s, n), -1);
		return 1;
	}
	return 0;
}

/* trace-cmd report's header lines ("[NAME: ]cpus=N", "version = V"). */
static int text_header_line(const char *s, size_t n)
{
	const char *p = memmem(s, n, "cpus=", 5);

	if (p && text_num(p + 5) >= 0 && (p == s || p[-1] == ' ') && !memchr(s, '[', n))
		return 1;
	return !strncmp(s, "version = ", 10);
}

/*
 * An event line of babeltrace2's text (the pretty sink): "[TIME] (+DELTA)
 * HOST relay_bench_rec: { cpu_id = N }, { len = L, _data_length = L,
 * data = [ [0] = 0x1, [1] = 0x5, ... ] }", @data at "data = [".  Its
 * bytes into text_rec; 1 if they are not as its indexes say.
 */
static int bt_bytes(const char *data, size_t *got)
{
	const char *p = data + 8;

	while ((p = strstr(p, "[")) != NULL) {
		long long idx = text_num(p + 1);

		if (idx < 0)
			break;
		for (p++; *p >= '0' && *p <= '9'; p++)
			;
		if (strncmp(p, "] = 0x", 6) || (unsigned long long)idx != *got || *got == sizeof(text_rec))
			return 1;
		p += 6;
		if (hexval[(unsigned char)p[0]] < 0)
			return 1;
		text_rec[*got] = 0;
		while (hexval[(unsigned char)*p] >= 0) {
			if (text_rec[*got] >> 4)
				return 1;
			text_rec[*got] = text_rec[*got] << 4 | hexval[(unsigned char)*p++];
		}
		(*got)++;
		/* ", [i] = ..." or the array's end, " ]" */
		if (strncmp(p, ", [", 3) && strncmp(p, " ]", 2))
			return 1;
	}
	/* Ended at a "[" that opens no element: not babeltrace2's array. */
	return p != NULL;
}

/* One line of text, NUL-terminated at @n. */
static void text_line(char *s, size_t n, __u32 size, unsigned long long *all)
{
	const char *data, *len, *p;
	struct text_stream *st;
	long long want;
	size_t got = 0, i;
	__u64 hash;
	int bad = 0;
	long cpu;

	text_all.lines++;
	if (n && s[n - 1] == '\r')
		s[--n] = '\0';
	data = memmem(s, n, "data = [", 8);
	if (data) {
		/* babeltrace2 */
		p = memmem(s, data - s, "cpu_id = ", 9);
		len = memmem(s, data - s, "{ len = ", 8);
		cpu = p ? text_num(p + 9) : -1;
		want = len ? text_num(len + 8) : -1;
		st = text_stream(cpu);
		if (!st || want < 0) {
			text_all.unparsed++;
			return;
		}
		bad = bt_bytes(data, &got);
		goto parsed;
	}
	data = memmem(s, n, "data=", 5);
	if (!data) {
		if (!text_loss_line(s, n) && n && strspn(s, " \t") != n && !text_header_line(s, n))
			text_all.unparsed++;
		return;
	}
	len = memmem(s, data - s, "len=", 4);
	cpu = len ? text_cpu(s, len) : -1;
	want = len ? text_num(len + 4) : -1;
	st = text_stream(cpu);
	if (!st || want < 0) {
		text_all.unparsed++;
		return;
	}
	/* Pairs of hex digits, as __print_hex() spells them: "0a 1b ..." */
	for (p = data + 5; *p; ) {
		int hi = hexval[(unsigned char)p[0]], lo;

		if (*p == ' ') {
			p++;
			continue;
		}
		lo = hi >= 0 ? hexval[(unsigned char)p[1]] : -1;
		if (lo < 0 || got == sizeof(text_rec)) {
			bad = 1;
			break;
		}
		text_rec[got++] = hi << 4 | lo;
		p += 2;
	}
parsed:
	st->c.lines++;
	st->c.events++;
	text_all.events++;
	if (bad || (unsigned long long)want != got) {
		st->c.badlen++;
		text_all.badlen++;
	}
	for (hash = 0xcbf29ce484222325ULL, i = 0; i < got; i++)	/* FNV-1a */
		hash = (hash ^ text_rec[i]) * 0x100000001b3ULL;
	if (st->c.events > 1 && hash == st->last_hash && got == st->last_len) {
		st->c.dups++;
		text_all.dups++;
	}
	st->last_hash = hash;
	st->last_len = got;
	if (got <= size) {
		check_file(st->fs, text_rec, got, size, all);
		return;
	}
	/* Longer than a record: its first REC_SIZE bytes, the rest partial. */
	check_file(st->fs, text_rec, size, size, all);
	for (i = 0; i < n_runs; i++) {
		st->fs[i].bytes += got - size;
		st->fs[i].partial += got - size;
	}
}

static void text_print(int stream, const struct text_counts *c)
{
	printf(RELAY_BENCH_TEXT_FMT, stream, c->lines, c->events, c->unparsed, c->badlen,
	       c->dups, c->markers, c->lost, c->lost_unknown);
}

/* --text: check the records of the tool's text in @path ("-": stdin). */
static int text_main(const char *path, __u32 size, int drain, const unsigned long long *times)
{
	unsigned long long all = 0, bytes = 0;
	unsigned int i, b, w, nstreams = 0;
	size_t have = 0, off;
	int fd = 0, skip = 0;
	char *buf;

	for (i = 0; i < 256; i++)
		hexval[i] = i >= '0' && i <= '9' ? (int)i - '0' :
			    i >= 'a' && i <= 'f' ? (int)i - 'a' + 10 :
			    i >= 'A' && i <= 'F' ? (int)i - 'A' + 10 : -1;
	if (strcmp(path, "-")) {
		fd = open(path, O_RDONLY);
		if (fd < 0) {
			fprintf(stderr, "bench-verify: %s: %s\n", path, strerror(errno));
			return 1;
		}
	}
	buf = malloc(TEXT_BUF + 1);
	if (!buf) {
		fprintf(stderr, "bench-verify: out of memory\n");
		return 1;
	}
	for (;;) {
		ssize_t r = read(fd, buf + have, TEXT_BUF - have);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			fprintf(stderr, "bench-verify: %s: %s\n", path, strerror(errno));
			return 1;
		}
		have += r;
		off = 0;
		for (;;) {
			char *nl = memchr(buf + off, '\n', have - off);
			size_t n;

			if (!nl && (r > 0 || off == have))
				break;
			n = nl ? (size_t)(nl - (buf + off)) : have - off;	/* at EOF: the last line */
			buf[off + n] = '\0';
			if (skip) {		/* the rest of a line too long */
				skip = 0;
			} else if (n >= TEXT_LINE_MAX) {
				text_all.lines++;
				text_all.unparsed++;
			} else {
				text_line(buf + off, n, size, &all);
			}
			off += n + (nl != NULL);
		}
		if (r == 0)
			break;
		memmove(buf, buf + off, have - off);
		have -= off;
		if (have == TEXT_BUF) {		/* a line longer than the buffer */
			if (!skip) {
				text_all.lines++;
				text_all.unparsed++;
			}
			skip = 1;
			have = 0;
		}
	}
	if (fd)
		close(fd);
	free(buf);

	for (b = 0; b < MAX_STREAMS; b++) {
		if (streams[b]) {
			nstreams++;
			bytes += streams[b]->fs[0].bytes;
		}
	}
	for (i = 0; i < n_runs; i++) {
		if (n_runs > 1)
			printf("run %u\n", runs[i]);
		for (b = 0; b < MAX_STREAMS; b++) {
			struct relay_bench_fstats *f;

			if (!streams[b])
				continue;
			f = &streams[b]->fs[i];
			printf(RELAY_BENCH_STREAM_FMT, RELAY_BENCH_STREAM_ARGS(b, f));
			for (w = 0; w < RELAY_BENCH_MAX_WRITERS; w++)
				if (f->w[w].records)
					printf(RELAY_BENCH_WRITER_FMT,
					       RELAY_BENCH_WRITER_ARGS(w, b, &f->w[w]));
		}
		if (drain)
			printf(RELAY_BENCH_DRAIN_FMT, nstreams, bytes, all,
			       (unsigned long long)(bytes - all * size), times[0], times[1], times[2], -1,
			       -1LL);
	}
	for (b = 0; b < MAX_STREAMS; b++) {
		if (streams[b]) {
			text_print(b, &streams[b]->c);
			free(streams[b]->fs);
			free(streams[b]);
		}
	}
	text_print(-1, &text_all);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long long bytes = 0, all = 0, elapsed, utime, stime;
	unsigned long size = 64;
	char path[4096], buf[4096], *info, *tok;
	struct relay_bench_fstats *fs;
	unsigned int nbufs = 0, i, b, w, bufs[1024];
	const char *dir, *buffers;
	static const struct option longopts[] = {
		{ "text", no_argument, NULL, 'T' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long long times[3] = { 0, 0, 0 };
	int c, drain = 0, text = 0;

	while ((c = getopt_long(argc, argv, "i:x:r:dc:", longopts, NULL)) != -1) {
		switch (c) {
		case 'T':
			text = 1;
			break;
		case 'c': {
			char *end = optarg;

			for (i = 0; i < 3; i++) {
				times[i] = number("-c", end, &end);
				if (*end != (i < 2 ? ',' : '\0')) {
					fprintf(stderr, "bench-verify: -c wants ELAPSED_NS,UTIME_US,STIME_US, not '%s'\n",
						optarg);
					exit(2);
				}
				end++;
			}
			break;
		}
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
	if (text)
		return text_main(argv[optind], size, drain, times);
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
			       (unsigned long long)(bytes - all * size), elapsed, utime, stime, -1,
			       info_get(info, "syscalls", buf, sizeof(buf)) ?
			       (long long)info_num(info, "syscalls") : -1LL);
	}
	free(fs);
	free(info);
	return 0;
}
