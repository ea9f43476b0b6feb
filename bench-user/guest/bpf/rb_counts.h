/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What relay_bench.bpf.c and bench-ringbuf share: the program's per-CPU
 * counters and the record sizes it can reserve.
 */
#ifndef RB_COUNTS_H
#define RB_COUNTS_H

#include <linux/types.h>

/* One CPU's counts, in the program's BPF_MAP_TYPE_PERCPU_ARRAY "counts". */
struct rb_counts {
	__u64 attempts;		/* events the program saw on this CPU */
	__u64 refused;		/* bpf_ringbuf_reserve() failed: ring full */
	__u64 unsupported;	/* a record size the program cannot reserve */
	__u64 faults;		/* bpf_probe_read_kernel() failed: discarded */
	__u64 nomap;		/* percpu layout: no ring buffer for this CPU */
};

/*
 * bpf_ringbuf_reserve() wants a size the verifier knows, so the program
 * has one reserve per size it supports, these: the powers of two from a
 * bare header (16 bytes) to a page.  X(size) for each.
 */
#define RB_SIZES(X) X(16) X(32) X(64) X(128) X(256) X(512) X(1024) X(2048) X(4096)

#endif /* RB_COUNTS_H */
