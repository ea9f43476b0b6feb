// SPDX-License-Identifier: GPL-2.0
/* bench-ringbuf's loader: see loader.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "loader.h"
#include "relay_bench.skel.h"

_Static_assert(sizeof(struct rb_counts) % 8 == 0,
	       "a per-CPU value is read back in 8-byte steps");

static int fail(const char *what, int err)
{
	if (err > 0)
		err = -err;
	if (!err)
		err = -EINVAL;
	fprintf(stderr, "bench-ringbuf: %s: %s\n", what, strerror(-err));
	return err;
}

/* The percpu layout's ring buffers, one per CPU, and its array of them. */
static int make_rings(struct rb_loader *l, const struct rb_opts *o)
{
	char name[BPF_OBJ_NAME_LEN];
	unsigned int i;
	int err;

	l->ring_fds = calloc(o->cpus, sizeof(*l->ring_fds));
	if (!l->ring_fds)
		return fail("allocating the ring buffers' table", ENOMEM);
	for (i = 0; i < o->cpus; i++) {
		snprintf(name, sizeof(name), "rb_cpu%u", (unsigned char)i);
		l->ring_fds[i] = bpf_map_create(BPF_MAP_TYPE_RINGBUF, name, 0, 0,
						o->size, NULL);
		if (l->ring_fds[i] < 0) {
			fprintf(stderr, "bench-ringbuf: creating ring buffer %u of %lu bytes: %s\n",
				i, o->size, strerror(errno));
			return -errno;
		}
		l->nrings++;
	}
	err = bpf_map__set_max_entries(l->skel->maps.rbs, o->cpus);
	if (err)
		return fail("setting the CPUs of the array of ring buffers", err);
	/* The template of the array's maps: one of them, the same size. */
	err = bpf_map__set_inner_map_fd(l->skel->maps.rbs, l->ring_fds[0]);
	if (err)
		return fail("setting the inner map of the array of ring buffers", err);
	return 0;
}

static int fill_rings(struct rb_loader *l)
{
	int outer = bpf_map__fd(l->skel->maps.rbs);
	__u32 i;

	for (i = 0; i < l->nrings; i++) {
		if (bpf_map_update_elem(outer, &i, &l->ring_fds[i], BPF_ANY)) {
			fprintf(stderr, "bench-ringbuf: putting ring buffer %u in the array: %s\n",
				i, strerror(errno));
			return -errno;
		}
	}
	return 0;
}

int loader_load(struct rb_loader *l, const struct rb_opts *o)
{
	struct bpf_program *other;
	int err;

	memset(l, 0, sizeof(*l));
	l->skel = relay_bench_bpf__open();
	if (!l->skel)
		return fail("opening the BPF object", errno);
	if (o->layout == RB_SHARED) {
		l->prog = l->skel->progs.on_rec_shared;
		other = l->skel->progs.on_rec_percpu;
		err = bpf_map__set_max_entries(l->skel->maps.rb, o->size);
		if (err)
			return fail("setting the ring buffer's size", err);
	} else {
		l->prog = l->skel->progs.on_rec_percpu;
		other = l->skel->progs.on_rec_shared;
		err = make_rings(l, o);
		if (err)
			return err;
	}
	err = bpf_program__set_autoload(other, false);
	if (err)
		return fail("leaving the other layout's program out", err);
	err = relay_bench_bpf__load(l->skel);
	if (err)
		return fail("loading the BPF program (the verifier's log, if any, is above)", err);
	return o->layout == RB_PERCPU ? fill_rings(l) : 0;
}

int loader_attach(struct rb_loader *l, const char *tracepoint)
{
	l->link = bpf_program__attach_raw_tracepoint(l->prog, tracepoint);
	if (!l->link) {
		int err = -errno;

		fprintf(stderr, "bench-ringbuf: attaching %s to the raw tracepoint %s (is its module loaded, with its tracepoint?): %s\n",
			bpf_program__name(l->prog), tracepoint, strerror(-err));
		return err;
	}
	return 0;
}

/* --no-check's sample callback: count, nothing else. */
static int tally_sample(void *ctx, void *data, size_t size)
{
	struct rb_tally *t = ctx;

	(void)data;
	t->samples++;
	t->bytes += size;
	return 0;
}

int loader_tally(struct rb_loader *l, struct rb_tally *t)
{
	unsigned int i;
	int err;

	if (!l->nrings) {	/* shared */
		l->reader = ring_buffer__new(bpf_map__fd(l->skel->maps.rb),
					     tally_sample, t, NULL);
		return l->reader ? 0 : fail("setting up the ring buffer's reader", errno);
	}
	for (i = 0; i < l->nrings; i++) {
		if (!i) {
			l->reader = ring_buffer__new(l->ring_fds[0], tally_sample,
						     t, NULL);
			err = l->reader ? 0 : -errno;
		} else {
			err = ring_buffer__add(l->reader, l->ring_fds[i],
					       tally_sample, t);
		}
		if (err) {
			fprintf(stderr, "bench-ringbuf: setting up the reader of ring buffer %u: %s\n",
				i, strerror(-err));
			return err;
		}
	}
	return 0;
}

int loader_reader(struct rb_loader *l, struct rb_recorder *r)
{
	unsigned int i;
	int err;

	if (!l->nrings) {	/* shared */
		l->reader = ring_buffer__new(bpf_map__fd(l->skel->maps.rb),
					     record_sample, &r->files[0], NULL);
		if (!l->reader)
			return fail("setting up the ring buffer's reader", errno);
		return 0;
	}
	for (i = 0; i < l->nrings; i++) {
		if (!i) {
			l->reader = ring_buffer__new(l->ring_fds[0], record_sample,
						     &r->files[0], NULL);
			err = l->reader ? 0 : -errno;
		} else {
			err = ring_buffer__add(l->reader, l->ring_fds[i],
					       record_sample, &r->files[i]);
		}
		if (err) {
			fprintf(stderr, "bench-ringbuf: setting up the reader of ring buffer %u: %s\n",
				i, strerror(-err));
			return err;
		}
	}
	return 0;
}

void loader_detach(struct rb_loader *l)
{
	bpf_link__destroy(l->link);
	l->link = NULL;
}

int loader_counts(struct rb_loader *l, struct rb_counts **counts,
		  unsigned int *ncpus)
{
	int n = libbpf_num_possible_cpus();
	__u32 zero = 0;

	if (n <= 0)
		return fail("counting the possible CPUs", n);
	/* A per-CPU value is rounded up to 8 bytes: struct rb_counts is. */
	*counts = calloc(n, sizeof(**counts));
	if (!*counts)
		return fail("allocating the counters", ENOMEM);
	if (bpf_map_lookup_elem(bpf_map__fd(l->skel->maps.counts), &zero, *counts)) {
		int err = -errno;

		free(*counts);
		*counts = NULL;
		return fail("reading the program's counters", err);
	}
	*ncpus = n;
	return 0;
}

int loader_prog_info(struct rb_loader *l, struct bpf_prog_info *info)
{
	__u32 len = sizeof(*info);

	memset(info, 0, sizeof(*info));
	if (bpf_obj_get_info_by_fd(bpf_program__fd(l->prog), info, &len))
		return fail("reading the program's information", errno);
	return 0;
}

const char *loader_prog_name(const struct rb_loader *l)
{
	return bpf_program__name(l->prog);
}

void loader_close(struct rb_loader *l)
{
	unsigned int i;

	ring_buffer__free(l->reader);
	bpf_link__destroy(l->link);
	relay_bench_bpf__destroy(l->skel);
	for (i = 0; i < l->nrings; i++)
		close(l->ring_fds[i]);
	free(l->ring_fds);
	memset(l, 0, sizeof(*l));
}
