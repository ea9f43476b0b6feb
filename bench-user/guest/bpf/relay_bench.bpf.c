// SPDX-License-Identifier: GPL-2.0
/*
 * relay_bench.bpf.c - the BPF ring buffer peer of relay_trace
 *
 * Attached to the raw tracepoint relay_bench_rec of relay_bench.ko
 * (TP_PROTO(const void *rec, u32 len)): on each event, reserves len bytes
 * in a BPF ring buffer, copies the record there with
 * bpf_probe_read_kernel() and submits it.  Two programs, one per layout;
 * the loader (bench-ringbuf) loads one:
 *
 *   on_rec_shared  one ring buffer for all CPUs ("rb"), as users deploy it
 *   on_rec_percpu  one ring buffer per CPU ("rbs", an array of maps
 *                  indexed by the CPU), like relay_trace's per-CPU buffers
 *
 * Each counts, per CPU (struct rb_counts in "counts"): the events it saw,
 * the reservations refused (ring full), the sizes it cannot reserve,
 * failed copies, and CPUs with no ring buffer.  No BTF of the kernel is
 * needed: no CO-RE, no tp_btf.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "rb_counts.h"

char LICENSE[] SEC("license") = "GPL";

struct ringbuf {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);	/* the loader sets the size */
};

/* The shared layout's ring buffer. */
struct ringbuf rb SEC(".maps");

/* The percpu layout's: the loader creates one per CPU and fills this. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 1);		/* the loader sets the CPUs */
	__type(key, __u32);
	__array(values, struct ringbuf);
} rbs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct rb_counts);
} counts SEC(".maps");

/* Reserve @size (a constant in each caller), copy @rec there, submit. */
static __always_inline void put(void *ring, const void *rec, __u32 size,
				struct rb_counts *c)
{
	void *p = bpf_ringbuf_reserve(ring, size, 0);

	if (!p) {
		c->refused++;
		return;
	}
	if (bpf_probe_read_kernel(p, size, rec)) {
		bpf_ringbuf_discard(p, BPF_RB_NO_WAKEUP);
		c->faults++;
		return;
	}
	bpf_ringbuf_submit(p, 0);
}

static __always_inline int on_rec(void *ring, __u64 *ctx, struct rb_counts *c)
{
	const void *rec = (const void *)ctx[0];
	__u32 len = ctx[1];

	switch (len) {
#define RB_CASE(n) case n: put(ring, rec, n, c); break;
	RB_SIZES(RB_CASE)
#undef RB_CASE
	default:
		c->unsupported++;
	}
	return 0;
}

static __always_inline struct rb_counts *my_counts(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&counts, &zero);
}

SEC("raw_tp/relay_bench_rec")
int on_rec_shared(__u64 *ctx)
{
	struct rb_counts *c = my_counts();

	if (!c)
		return 0;
	c->attempts++;
	return on_rec(&rb, ctx, c);
}

SEC("raw_tp/relay_bench_rec")
int on_rec_percpu(__u64 *ctx)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct rb_counts *c = my_counts();
	void *ring;

	if (!c)
		return 0;
	c->attempts++;
	ring = bpf_map_lookup_elem(&rbs, &cpu);
	if (!ring) {
		c->nomap++;
		return 0;
	}
	return on_rec(ring, ctx, c);
}
