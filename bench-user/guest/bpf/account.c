// SPDX-License-Identifier: GPL-2.0
/*
 * bench-ringbuf's accounting: the records read, checked by content with
 * the code bench-verify and relay_bench.ko use, and the program's
 * per-CPU counters, checked against them.
 */
#include <errno.h>
#include <stdlib.h>

#include "account.h"

int account_init(struct rb_account *a, __u32 run, __u32 rec_size,
		 unsigned int nstreams)
{
	unsigned int i;

	a->run = run;
	a->rec_size = rec_size;
	a->nstreams = nstreams;
	a->samples = a->bytes = 0;
	a->fs = calloc(nstreams, sizeof(*a->fs));
	a->streams = calloc(nstreams, sizeof(*a->streams));
	if (!a->fs || !a->streams) {
		account_free(a);
		return -ENOMEM;
	}
	for (i = 0; i < nstreams; i++) {
		a->streams[i].a = a;
		a->streams[i].n = i;
	}
	return 0;
}

void account_free(struct rb_account *a)
{
	free(a->fs);
	free(a->streams);
	a->fs = NULL;
	a->streams = NULL;
}

int account_sample(void *ctx, void *data, size_t size)
{
	struct rb_stream *s = ctx;
	struct rb_account *a = s->a;
	struct relay_bench_fstats *fs = &a->fs[s->n];

	a->samples++;
	a->bytes += size;
	/* As relay_bench.ko's bench_check_rb() takes an event. */
	relay_bench_check(fs, a->run, data, size < a->rec_size ? size : a->rec_size,
			  a->rec_size);
	if (size > a->rec_size)
		fs->partial += size - a->rec_size;
	fs->bytes += size > a->rec_size ? size - a->rec_size : 0;
	return 0;
}

void account_print_streams(FILE *f, const struct rb_account *a)
{
	unsigned int s, w;

	for (s = 0; s < a->nstreams; s++) {
		const struct relay_bench_fstats *fs = &a->fs[s];

		fprintf(f, RELAY_BENCH_STREAM_FMT, RELAY_BENCH_STREAM_ARGS(s, fs));
		for (w = 0; w < RELAY_BENCH_MAX_WRITERS; w++)
			if (fs->w[w].records)
				fprintf(f, RELAY_BENCH_WRITER_FMT,
					RELAY_BENCH_WRITER_ARGS(w, s, &fs->w[w]));
	}
}

/*
 * What the streams hold of writer @cpu: its whole records (all streams),
 * the streams that hold any, and, if one does, the attempts its records'
 * sequence numbers say are missing out of @attempts: before the first,
 * between them, after the last.
 */
static void writer_seen(const struct rb_account *a, unsigned int cpu,
			unsigned long long attempts, unsigned long long *records,
			unsigned int *nstreams, long long *missing)
{
	const struct relay_bench_wstats *one = NULL;
	unsigned int s;

	*records = 0;
	*nstreams = 0;
	for (s = 0; cpu < RELAY_BENCH_MAX_WRITERS && s < a->nstreams; s++) {
		const struct relay_bench_wstats *w = &a->fs[s].w[cpu];

		if (!w->records)
			continue;
		*records += w->records;
		(*nstreams)++;
		one = w;
	}
	if (*nstreams > 1)
		*missing = -1;	/* sequence numbers of one stream say nothing */
	else if (!one)
		*missing = attempts;
	else
		*missing = (long long)one->first_seq + one->seq_gaps +
			   ((long long)attempts - 1 - one->last_seq);
}

/* What writer @cpu's counters and records say; 1 if they disagree. */
static int cpu_seen(const struct rb_account *a, unsigned int cpu,
		    const struct rb_counts *c, struct rb_cpu_seen *cs)
{
	cs->errors = c->unsupported + c->faults + c->nomap;
	writer_seen(a, cpu, c->attempts, &cs->consumed, &cs->streams,
		    &cs->seq_missing);
	cs->lost = (long long)c->attempts -
		   (long long)(cs->consumed + c->refused + cs->errors);
	return cs->lost || (cs->seq_missing >= 0 &&
			    (unsigned long long)cs->seq_missing != c->refused + cs->errors);
}

void account_print_cpus(FILE *f, const struct rb_account *a,
			const struct rb_counts *counts, unsigned int ncpus)
{
	unsigned int cpu;

	for (cpu = 0; cpu < ncpus; cpu++) {
		const struct rb_counts *c = &counts[cpu];
		struct rb_cpu_seen cs;

		cpu_seen(a, cpu, c, &cs);
		fprintf(f, "bpf cpu=%u attempts=%llu refused=%llu unsupported=%llu faults=%llu nomap=%llu consumed=%llu lost=%lld streams=%u seq_missing=%lld\n",
			cpu, (unsigned long long)c->attempts,
			(unsigned long long)c->refused,
			(unsigned long long)c->unsupported,
			(unsigned long long)c->faults,
			(unsigned long long)c->nomap, cs.consumed, cs.lost,
			cs.streams, cs.seq_missing);
	}
}

void account_print_peer(FILE *f, const struct rb_counts *counts,
			unsigned int ncpus, unsigned int writers,
			unsigned long long cpu_us)
{
	unsigned int cpu;

	if (!writers) {
		for (cpu = 0; cpu < ncpus; cpu++)
			if (counts[cpu].attempts)
				writers = cpu + 1;
		if (!writers)
			writers = 1;
	}
	fputs("peer lost=", f);
	for (cpu = 0; cpu < writers; cpu++) {
		unsigned long long lost = 0;

		if (cpu < ncpus)
			lost = counts[cpu].refused + counts[cpu].unsupported +
			       counts[cpu].faults + counts[cpu].nomap;
		fprintf(f, "%s%llu", cpu ? "," : "", lost);
	}
	fprintf(f, " cpu_us=%llu\n", cpu_us);
}

int account_check(FILE *f, const struct rb_account *a,
		  const struct rb_counts *counts, unsigned int ncpus)
{
	unsigned long long attempts = 0, consumed = 0, refused = 0, errors = 0;
	unsigned long long torn = 0, stale = 0, bad = 0, partial = 0, back = 0;
	unsigned int cpu, s, w;
	int fail = 0;

	for (cpu = 0; cpu < ncpus; cpu++) {
		struct rb_cpu_seen cs;

		fail |= cpu_seen(a, cpu, &counts[cpu], &cs);
		attempts += counts[cpu].attempts;
		refused += counts[cpu].refused;
		errors += cs.errors;
	}
	for (s = 0; s < a->nstreams; s++) {
		const struct relay_bench_fstats *fs = &a->fs[s];

		consumed += fs->records;
		torn += fs->torn;
		stale += fs->stale;
		bad += fs->bad;
		partial += fs->partial;
		for (w = 0; w < RELAY_BENCH_MAX_WRITERS; w++) {
			back += fs->w[w].backwards;
			/* A writer CPU the counters do not cover: unaccounted. */
			if (w >= ncpus && fs->w[w].records)
				fail = 1;
		}
	}
	if (attempts != consumed + refused + errors || torn || stale || bad ||
	    partial || back || a->samples != consumed)
		fail = 1;
	fprintf(f, "check attempts=%llu consumed=%llu refused=%llu errors=%llu lost=%lld samples=%llu torn=%llu stale=%llu bad=%llu partial=%llu backwards=%llu result=%s\n",
		attempts, consumed, refused, errors,
		(long long)attempts - (long long)(consumed + refused + errors),
		a->samples, torn, stale, bad, partial, back, fail ? "fail" : "ok");
	return fail;
}
