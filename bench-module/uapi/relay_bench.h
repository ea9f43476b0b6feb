/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The records relay_bench.ko writes and the checks every reader of them
 * makes: the one definition of the record layout, included by the module
 * (bench-module/relay_bench.c), the drainer (bench-user/guest/) and the
 * test tools (tests/host/), as blktrace's struct blk_io_trace is shared by
 * the kernel and blktrace(8).
 *
 * A record is a 16-byte header followed by (size - 16) / 4 payload words,
 * each equal to relay_bench_mix() of the header, so that a reader can tell
 * a record written whole from a torn, truncated, stale or foreign one
 * without knowing anything but the run identifier.
 */
#ifndef _UAPI_RELAY_BENCH_H
#define _UAPI_RELAY_BENCH_H

#include <linux/types.h>

#define RELAY_BENCH_HDR_SIZE	16
#define RELAY_BENCH_MAX_WRITERS	64	/* writers are CPUs 0 .. writers-1 */
#define RELAY_BENCH_MAX_RUN	0xffffffU	/* run identifiers are 24 bits */

struct relay_bench_rec {
	__u32 tag;	/* RELAY_BENCH_TAG(run identifier, writer CPU) */
	__u32 seq;	/* the writer's write attempts before this one */
	__u32 ok;	/* the writer's successful writes before this one */
	__u32 ts;	/* ns since the run's start (runs last < 4.29 s) */
};

_Static_assert(sizeof(struct relay_bench_rec) == RELAY_BENCH_HDR_SIZE,
	       "struct relay_bench_rec is the 16-byte record header");

/*
 * Per-write latency: one write in 2^sample_shift is timed alone into a
 * histogram of RELAY_BENCH_HIST_BUCKETS buckets: 0-15 ns one each, then
 * four per power of two, so that a bucket spans at most a quarter of its
 * lower bound; 2^32 ns and more go to the last.  The report's inverse
 * (bench-user/report/latency.py) is checked against this by make test.
 */
#define RELAY_BENCH_HIST_BUCKETS	128

static inline __u32 relay_bench_hist_bucket(__u64 ns)
{
	unsigned int e;

	if (ns < 16)
		return ns;
	e = 63 - __builtin_clzll(ns);
	if (e > 31)
		return RELAY_BENCH_HIST_BUCKETS - 1;
	return 16 + (e - 4) * 4 + ((ns >> (e - 2)) & 3);
}

#define RELAY_BENCH_TAG(run, cpu)	(((__u32)(run) << 8) | ((cpu) & 0xffU))
#define RELAY_BENCH_TAG_RUN(tag)	((tag) >> 8)
#define RELAY_BENCH_TAG_CPU(tag)	((tag) & 0xffU)

/* The value of every payload word of a record: a hash of its header. */
static inline __u32 relay_bench_mix(const struct relay_bench_rec *h)
{
	__u32 x = h->tag ^ (h->seq * 0x9e3779b1U) ^ (h->ok * 0x85ebca77U) ^
		  (h->ts * 0xc2b2ae3dU);

	x ^= x >> 16;
	x *= 0x7feb352dU;
	x ^= x >> 15;
	return x;
}

/* What a reader saw of one writer's records in one stream. */
struct relay_bench_wstats {
	__u64 records;		/* records of this run, whole */
	__u64 seq_gaps;		/* attempts skipped between records: refusals */
	__u64 ok_gaps;		/* successful writes missing between records */
	__u64 ok_dups;		/* records whose success count did not advance */
	__u64 backwards;	/* records older than the one before them */
	__u64 ts_back;		/* timestamps earlier than the one before */
	__u32 first_seq, last_seq;
	__u32 first_ok, last_ok;
	__u32 first_ts, last_ts;
};

/* What a reader saw in one stream (one relay file, one ring buffer CPU). */
struct relay_bench_fstats {
	__u64 bytes;
	__u64 records;		/* records of this run, whole */
	__u64 stale;		/* whole records of another run */
	__u64 zero;		/* records of zeros: bytes no writer wrote */
	__u64 torn;		/* payload not derived from the header */
	__u64 bad;		/* header of no writer of this run */
	__u64 partial;		/* bytes that do not make a whole record */
	struct relay_bench_wstats w[RELAY_BENCH_MAX_WRITERS];
};

/* Is the record at @rec, @size bytes, all zeros? */
static inline int relay_bench_zero(const void *rec, __u32 size)
{
	const __u32 *word = (const __u32 *)rec;
	__u32 i;

	for (i = 0; i < size / 4; i++)
		if (word[i])
			return 0;
	return 1;
}

/*
 * Check one record of @run and account for it in @fs.  A record of zeros
 * is counted as such: run identifiers start at 1, and relay zeroes its
 * buffers when it allocates them, so it is bytes no writer wrote.  A
 * record of another run is counted as stale, one whose payload does not
 * match its header as torn, one whose writer is out of range as bad; only
 * whole records of this run reach the per-writer accounting, in stream
 * order.
 */
static inline void relay_bench_check_rec(struct relay_bench_fstats *fs,
					 __u32 run, const void *rec,
					 __u32 size)
{
	const struct relay_bench_rec *h = (const struct relay_bench_rec *)rec;
	const __u32 *word = (const __u32 *)((const char *)rec +
					    RELAY_BENCH_HDR_SIZE);
	__u32 mix = relay_bench_mix(h), cpu, i;
	struct relay_bench_wstats *w;

	if (!h->tag && relay_bench_zero(rec, size)) {
		fs->zero++;
		return;
	}
	if (RELAY_BENCH_TAG_RUN(h->tag) != run) {
		fs->stale++;
		return;
	}
	cpu = RELAY_BENCH_TAG_CPU(h->tag);
	if (cpu >= RELAY_BENCH_MAX_WRITERS) {
		fs->bad++;
		return;
	}
	for (i = 0; i < (size - RELAY_BENCH_HDR_SIZE) / 4; i++) {
		if (word[i] != mix) {
			fs->torn++;
			return;
		}
	}
	fs->records++;
	w = &fs->w[cpu];
	if (w->records) {
		if (h->seq <= w->last_seq || h->ok < w->last_ok) {
			w->backwards++;
			return;
		}
		w->seq_gaps += h->seq - w->last_seq - 1;
		if (h->ok == w->last_ok)
			w->ok_dups++;
		else
			w->ok_gaps += h->ok - w->last_ok - 1;
		if (h->ts < w->last_ts)
			w->ts_back++;
	} else {
		w->first_seq = h->seq;
		w->first_ok = h->ok;
		w->first_ts = h->ts;
	}
	w->records++;
	w->last_seq = h->seq;
	w->last_ok = h->ok;
	w->last_ts = h->ts;
}

/* Check a stream of @len bytes of records of @size bytes each. */
static inline void relay_bench_check(struct relay_bench_fstats *fs, __u32 run,
				     const void *buf, __u64 len, __u32 size)
{
	__u64 off;

	fs->bytes += len;
	for (off = 0; off + size <= len; off += size)
		relay_bench_check_rec(fs, run, (const char *)buf + off, size);
	fs->partial += len - off;
}

/*
 * The lines a reader prints, D lines once the guest tags them (format:
 * bench-user/report/runfmt.py, which reads each line's keys from the
 * format strings below): for each stream it read, a "file" line naming
 * it (a relay file; none for a ring buffer), a "stream" line, and a
 * "writer" line for each writer it saw records of; once, a "drain" line
 * with the reader's totals, its own CPU time and the system calls it made
 * (syscalls: -1 where not counted).  The same from
 * relay-drain, from whatever replaces it, and (stream and writer) from
 * relay_bench.ko's own check of the ftrace ring buffer.
 */
#define RELAY_BENCH_FILE_FMT	"file n=%u path=%s\n"

#define RELAY_BENCH_DRAIN_FMT \
	"drain files=%u bytes=%llu records=%llu bad=%llu elapsed_ns=%llu " \
	"utime_us=%llu stime_us=%llu cpu=%d syscalls=%lld\n"

#define RELAY_BENCH_WRITER_FMT \
	"writer cpu=%u stream=%u records=%llu seq_gaps=%llu ok_gaps=%llu " \
	"ok_dups=%llu backwards=%llu ts_back=%llu first_seq=%u last_seq=%u " \
	"first_ok=%u last_ok=%u first_ts=%u last_ts=%u\n"
#define RELAY_BENCH_WRITER_ARGS(cpu, stream, w) \
	(cpu), (stream), (unsigned long long)(w)->records, \
	(unsigned long long)(w)->seq_gaps, (unsigned long long)(w)->ok_gaps, \
	(unsigned long long)(w)->ok_dups, (unsigned long long)(w)->backwards, \
	(unsigned long long)(w)->ts_back, (w)->first_seq, (w)->last_seq, \
	(w)->first_ok, (w)->last_ok, (w)->first_ts, (w)->last_ts

#define RELAY_BENCH_STREAM_FMT \
	"stream n=%u bytes=%llu records=%llu stale=%llu zero=%llu torn=%llu " \
	"bad=%llu partial=%llu\n"
#define RELAY_BENCH_STREAM_ARGS(stream, fs) \
	(stream), (unsigned long long)(fs)->bytes, \
	(unsigned long long)(fs)->records, (unsigned long long)(fs)->stale, \
	(unsigned long long)(fs)->zero, \
	(unsigned long long)(fs)->torn, (unsigned long long)(fs)->bad, \
	(unsigned long long)(fs)->partial

/*
 * What bench-verify --text read of a tool's text of the tracepoint
 * (trace-cmd report, perf script): per stream (a CPU), and once for all
 * (stream=-1): lines, event lines, lines it could not parse (all only),
 * event lines whose hex disagrees with len=, event lines that repeat the
 * bytes of the stream's event before (a record the tool delivered twice,
 * which relay_bench_check_rec() counts as backwards), the tool's loss
 * markers, the events they count lost, and the markers without a count.
 */
#define RELAY_BENCH_TEXT_FMT \
	"text stream=%d lines=%llu events=%llu unparsed=%llu badlen=%llu " \
	"dups=%llu markers=%llu lost=%llu lost_unknown=%llu\n"

#endif /* _UAPI_RELAY_BENCH_H */
