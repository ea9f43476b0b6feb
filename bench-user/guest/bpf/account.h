/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench-ringbuf's accounting: every record read from the ring buffers
 * checked by content (relay_bench_check(), bench-module/uapi/
 * relay_bench.h), once the run is over, from the recording (record.h),
 * and the sum that must hold per writer CPU:
 * attempts == consumed + refused + errors.
 */
#ifndef RB_ACCOUNT_H
#define RB_ACCOUNT_H

#include <stddef.h>
#include <stdio.h>

#include "../../../bench-module/uapi/relay_bench.h"
#include "rb_counts.h"

struct rb_account;

/* One ring buffer's stream, the ctx of account_sample(). */
struct rb_stream {
	struct rb_account *a;
	unsigned int n;			/* its number in the stream lines */
};

struct rb_account {
	__u32 run, rec_size;
	unsigned int nstreams;
	struct rb_stream *streams;	/* [nstreams] */
	struct relay_bench_fstats *fs;	/* [nstreams], what each held */
	unsigned long long samples;	/* ring buffer samples read */
	unsigned long long bytes;	/* their bytes */
};

/* Set up @a for @nstreams ring buffers; -ENOMEM or 0. */
int account_init(struct rb_account *a, __u32 run, __u32 rec_size,
		 unsigned int nstreams);
void account_free(struct rb_account *a);

/*
 * The check of one sample of a stream (ctx: its struct rb_stream), each
 * in the order it was read, as record_replay() reads the recording back
 * (a ring_buffer_sample_fn, too): one sample is one record; bytes beyond
 * rec_size are partial, as relay_bench.ko's check of its ring buffer
 * counts them.
 */
int account_sample(void *ctx, void *data, size_t size);

/* The "stream" and "writer" lines of relay_bench.h, for each stream. */
void account_print_streams(FILE *f, const struct rb_account *a);

/* What the records read say of one writer CPU, beside its counters. */
struct rb_cpu_seen {
	unsigned long long consumed;	/* its whole records, all streams */
	unsigned long long errors;	/* unsupported + faults + nomap */
	long long lost;			/* attempts not accounted for */
	unsigned int streams;		/* streams holding its records */
	long long seq_missing;		/* attempts its sequence numbers
					 * skip; -1 if in several streams */
};

/* The "bpf" line of each CPU of @counts[@ncpus]. */
void account_print_cpus(FILE *f, const struct rb_account *a,
			const struct rb_counts *counts, unsigned int ncpus);

/*
 * The "peer" line: the loss the program counted (refused + errors) of
 * each of CPUs 0..@writers-1 (@writers 0: up to the last CPU with
 * attempts), comma-separated, as the R line's peer_lost; and @cpu_us.
 */
void account_print_peer(FILE *f, const struct rb_counts *counts,
			unsigned int ncpus, unsigned int writers,
			unsigned long long cpu_us);

/*
 * The "check" line; returns 0 if every attempt counted is a whole record
 * read or a refusal or error counted, and every record read is whole and
 * in order; 1 if not.
 */
int account_check(FILE *f, const struct rb_account *a,
		  const struct rb_counts *counts, unsigned int ncpus);

#endif /* RB_ACCOUNT_H */
