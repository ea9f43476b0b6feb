/* SPDX-License-Identifier: GPL-2.0 */
/* bench-ringbuf's command line. */
#ifndef RB_OPTS_H
#define RB_OPTS_H

#include <linux/types.h>

#define RB_RECORD_DIR	"/tmp/bench-ringbuf"	/* --record's default */
#define RB_TRACEPOINT	"relay_bench_rec"	/* --tracepoint's default */

enum rb_layout { RB_SHARED, RB_PERCPU };

struct rb_opts {
	enum rb_layout layout;
	unsigned long size;		/* bytes per ring buffer */
	unsigned int cpus;		/* percpu: ring buffers, CPUs 0..cpus-1 */
	unsigned int writers;		/* the peer line's CPUs; 0: those seen */
	__u32 rec_size;
	__u32 run;
	int consume;			/* read while the writers write */
	unsigned long duration_ms;	/* 0: until SIGINT or SIGTERM */
	int poll_ms;			/* ring_buffer__poll() timeout */
	int reader_cpu;			/* -1: not pinned */
	const char *record;		/* the recording's directory */
	unsigned long record_buf;	/* the write buffer of each file */
	const char *out;		/* NULL: standard output */
	int verbose;			/* libbpf's debug messages */
	const char *tracepoint;		/* the raw tracepoint to attach to */
	int no_check;			/* count only: no recording, no check */
};

/* Parse the command line into @o; exits 2 with a message on an error. */
void opts_parse(struct rb_opts *o, int argc, char **argv);

#endif /* RB_OPTS_H */
