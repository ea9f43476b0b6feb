/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench-ringbuf's loader: relay_bench.bpf.c's program of one layout,
 * loaded from the skeleton in the binary, its ring buffers created,
 * attached to the raw tracepoint relay_bench_rec (or another of the same
 * TP_PROTO), read with libbpf's ring_buffer into a recording (record.h)
 * or only counted (--no-check), and its counters read back.
 */
#ifndef RB_LOADER_H
#define RB_LOADER_H

#include <linux/bpf.h>

#include "opts.h"
#include "record.h"

struct relay_bench_bpf;
struct bpf_link;
struct ring_buffer;

struct rb_loader {
	struct relay_bench_bpf *skel;
	struct bpf_program *prog;	/* the layout's program */
	struct bpf_link *link;
	int *ring_fds;			/* percpu: the ring buffers created */
	unsigned int nrings;
	struct ring_buffer *reader;
};

/* --no-check: the samples read and their bytes, nothing kept. */
struct rb_tally {
	unsigned long long samples;
	unsigned long long bytes;
};

/*
 * Each of these prints what failed, with strerror(), and returns a
 * negative errno; 0 on success.
 */
int loader_load(struct rb_loader *l, const struct rb_opts *o);
/* Attach to the raw tracepoint @tracepoint (bpf_program__attach_raw_tracepoint). */
int loader_attach(struct rb_loader *l, const char *tracepoint);
/* A reader of every ring buffer, ring i's samples to @r's file i. */
int loader_reader(struct rb_loader *l, struct rb_recorder *r);
/* A reader of every ring buffer that only counts into @t (--no-check). */
int loader_tally(struct rb_loader *l, struct rb_tally *t);
void loader_detach(struct rb_loader *l);
/* The counters of each possible CPU: *@counts (malloc'ed), *@ncpus. */
int loader_counts(struct rb_loader *l, struct rb_counts **counts,
		  unsigned int *ncpus);
int loader_prog_info(struct rb_loader *l, struct bpf_prog_info *info);
const char *loader_prog_name(const struct rb_loader *l);
void loader_close(struct rb_loader *l);

#endif /* RB_LOADER_H */
