/* SPDX-License-Identifier: GPL-2.0 */
/* relay-drain: shared declarations. */
#ifndef RELAY_DRAIN_H
#define RELAY_DRAIN_H

#include <stddef.h>
#include <stdint.h>

#define BENCH_MAGIC 0xbe7cU
#define MAX_WRITERS 64

/* Header of every benchmark record (bench-module/relay_bench.c). */
struct bench_rec {
	uint16_t magic;
	uint16_t cpu;
	uint32_t seq;
	uint64_t ts;
};

/* What one writer's records looked like to the drainer. */
struct writer_stats {
	uint64_t records;	/* well-formed records received */
	uint64_t gaps;		/* sequence numbers skipped */
	uint64_t backwards;	/* sequence numbers seen again or out of order */
	int64_t last_seq;	/* -1 before the first record */
};

/* Accounting of one relay file. */
struct file_stats {
	uint64_t bytes;
	uint64_t records;
	uint64_t bad;		/* records with a wrong magic or CPU */
	struct writer_stats w[MAX_WRITERS];
};

/* check.c */
void check_records(struct file_stats *fs, const unsigned char *buf,
		   size_t len, size_t rec_size);

#endif
