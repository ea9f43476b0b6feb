// SPDX-License-Identifier: GPL-2.0
/*
 * bench-ringbuf - the BPF ring buffer peer of relay_trace in relay_bench
 *
 * Usage: bench-ringbuf --rec-size N --run RUN_ID [--layout shared|percpu]
 *          [--size BYTES] [--cpus N] [--writers N] [--consume|--no-consume]
 *          [--duration MS|--until-signal] [--poll-ms MS] [--reader-cpu N]
 *          [--record DIR] [--record-buf BYTES] [--out FILE] [--verbose]
 *          [--tracepoint NAME]
 *        bench-ringbuf --no-check [--tracepoint NAME] [--layout ...]
 *          [--size ...] [--consume|--no-consume] [--duration MS|--until-signal]
 *          [--out FILE]
 *
 * Loads relay_bench.bpf.c's program (embedded, a libbpf skeleton) on the
 * raw tracepoint relay_bench_rec of relay_bench.ko: --layout shared, one
 * ring buffer of --size bytes (a power of two, at least a page; default
 * 128k) for all CPUs; --layout percpu, one of --size bytes for each of
 * CPUs 0 .. --cpus - 1 (default: the CPUs online).  --rec-size is the
 * module's rec_size (the program reserves 16, 32, ..., 4096 bytes),
 * --run its run_id.  Once attached, it prints the "attached" line (and
 * flushes it: the writers may start), then reads the ring buffers with
 * ring_buffer__poll() (--consume, the default; --poll-ms, default 100,
 * is the longest it waits at once), or does not read them at all
 * (--no-consume: the cost of a writer with nothing reading, refusals
 * once full), until SIGINT or SIGTERM (--until-signal, the default) or
 * --duration MS.  Then it detaches the program and reads what the ring
 * buffers still hold.  What it reads it only records, as relaytrace,
 * trace-cmd record and perf record do: each sample appended, as it is,
 * to the file of its ring buffer in --record DIR (default
 * /tmp/bench-ringbuf; DIR/ring0 .. ringN-1, and DIR/odd, the samples
 * not of --rec-size bytes: record.h), through a buffer of --record-buf
 * BYTES (default 1m, 4k..1g) per file, written with write(2).  Once the
 * recording is written out and closed, it takes the consumer's time and
 * CPU time and prints them (the "record" line); only then does it read
 * the recording back, check every record by content with
 * relay_bench_check() (bench-module/uapi/relay_bench.h), and print the
 * results.  --reader-cpu pins it to a CPU; --verbose shows libbpf's
 * debug messages.
 *
 * --tracepoint NAME attaches the program to the raw tracepoint NAME
 * instead (bpf_program__attach_raw_tracepoint()), one of the same
 * TP_PROTO(const void *rec, u32 len): relay_cost.ko's relay_cost_rec,
 * whose records are not relay_bench records of a run.  --no-check
 * (without --run or --rec-size) then only counts: it records nothing,
 * and reads what the ring buffers hold only to count the samples and
 * their bytes; it prints the "prog" line and the "tally" lines below
 * instead of the record, bpf, stream, writer, drain, peer and check
 * lines.
 *
 * Its lines, to --out FILE or standard output, each a kind then
 * key=value words:
 *
 *   M bpf_jit_enable=V bpf_jit_harden=V
 *        the guest's conditions (/proc/sys/net/core/; "none" if absent),
 *        before "attached"
 *   attached layout=shared|percpu rings=N size=BYTES rec_size=N run=ID
 *            consume=0|1 prog=NAME tracepoint=NAME
 *        the program is attached: start the writers (--no-check: rec_size
 *        and run 0)
 * and once the run is over, the consumer's figures, before the check:
 *   record dir=DIR files=N bytes=N samples=N odd=N elapsed_ns=N
 *          utime_us=N stime_us=N
 *        the recording: its ring files, the bytes and samples written
 *        to them, the samples not of --rec-size bytes; the consumer's
 *        time and CPU time from attach to the recording closed, as the
 *        drain line has them
 * then, the recording checked:
 *   prog name=NAME id=N jited=0|1 xlated_len=N jited_len=N
 *        verified_insns=N run_cnt=N run_time_ns=N recursion_misses=N
 *        the kernel's bpf_prog_info (run_cnt and run_time_ns count only
 *        with sysctl kernel.bpf_stats_enabled=1; recursion_misses are
 *        events the kernel did not run the program for)
 *   bpf cpu=N attempts=N refused=N unsupported=N faults=N nomap=N
 *       consumed=N lost=N streams=N seq_missing=N
 *        one per possible CPU: the program's counters on that CPU (events
 *        seen; reservations refused, the ring buffer full; sizes it has
 *        no reserve for; failed copies; percpu, CPUs with no ring
 *        buffer), the whole records of writer N read (consumed), lost =
 *        attempts - consumed - refused - unsupported - faults - nomap,
 *        the streams holding writer N's records, and the attempts their
 *        sequence numbers say are missing (-1 if in several streams)
 *   stream n=...  writer cpu=... stream=...  drain files=...
 *        relay_bench.h's reader lines, as bench-verify prints them (no
 *        "file" line: a ring buffer is no file): one stream per ring
 *        buffer (shared: stream 0; percpu: stream N is CPU N's), a
 *        writer line for each writer it holds records of, and the drain
 *        line: ring buffers, bytes and records read, bytes not of a
 *        whole record, and the reader's time and CPU time from attach
 *        to the end of the drain, its recording written out and closed
 *        (not the check's: the record line's), cpu= --reader-cpu or -1
 *   peer lost=L0,L1,... cpu_us=N
 *        for the R line of a peer (peer_lost, peer_cpu_us): per writer
 *        CPU, 0 .. --writers - 1 (default: up to the last CPU with
 *        attempts), the attempts the program counted lost (refused +
 *        unsupported + faults + nomap); the reader's CPU time (the drain
 *        line's utime_us + stime_us)
 *   check attempts=N consumed=N refused=N errors=N lost=N samples=N
 *         torn=N stale=N bad=N partial=N backwards=N result=ok|fail
 *        the totals; ok if every attempt is a whole record read or
 *        counted refused or in error, no record is torn, stale, foreign,
 *        partial or out of order, and, per writer, the sequence numbers
 *        missing are the refusals and errors counted
 * or, with --no-check, once the program is detached and the ring buffers
 * read:
 *   tally cpu=N attempts=N refused=N unsupported=N faults=N nomap=N
 *        one per possible CPU: the program's counters on that CPU
 *   tally attempts=N consumed=N bytes=N refused=N unsupported=N faults=N
 *         nomap=N lost=N result=ok|fail
 *        the totals: the samples read (consumed) and their bytes, lost =
 *        attempts - consumed - refused - unsupported - faults - nomap; ok
 *        if every attempt was read, none refused or in error
 *
 * Exits 0, 3 if the check (or --no-check's tally) failed, 1 if anything else did (messages on
 * standard error name what, and why), 2 on a usage error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "account.h"
#include "loader.h"
#include "opts.h"
#include "record.h"

static volatile sig_atomic_t stop;
static int verbose;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int libbpf_msg(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_DEBUG && !verbose)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static unsigned long long tv_us(const struct timeval *tv)
{
	return tv->tv_sec * 1000000ULL + tv->tv_usec;
}

/* A sysctl's value, its first word, or "none". */
static const char *sysctl(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");

	if (!f || !fgets(buf, size, f))
		snprintf(buf, size, "none");
	if (f)
		fclose(f);
	buf[strcspn(buf, " \t\n")] = '\0';
	return buf;
}

static int setup_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: poll returns EINTR */
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGINT, &sa, NULL) || sigaction(SIGTERM, &sa, NULL)) {
		fprintf(stderr, "bench-ringbuf: sigaction: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "bench-ringbuf: pinning to CPU %d: %s\n", cpu, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Until a signal or the deadline: read the ring buffers into @r's
 * recording (@consume) or only wait.  0, or -1 with a message (@r's, if
 * writing it failed).
 */
static int run(struct ring_buffer *reader, const struct rb_recorder *r,
	       int consume, int poll_ms, unsigned long long deadline)
{
	while (!stop && (!deadline || now_ns() < deadline)) {
		int n;

		if (!consume) {
			usleep(poll_ms * 1000);
			continue;
		}
		n = ring_buffer__poll(reader, poll_ms);
		if (n < 0 && n != -EINTR) {
			if (!r->err)
				fprintf(stderr, "bench-ringbuf: reading the ring buffers: %s\n",
					strerror(-n));
			return -1;
		}
	}
	return 0;
}

/* What the ring buffers still hold, once the program is detached. */
static int drain(struct ring_buffer *reader, const struct rb_recorder *r)
{
	int n;

	while ((n = ring_buffer__consume(reader)) > 0)
		;
	if (n < 0) {
		if (!r->err)
			fprintf(stderr, "bench-ringbuf: draining the ring buffers: %s\n",
				strerror(-n));
		return -1;
	}
	return 0;
}

static void print_prog(FILE *out, struct rb_loader *l)
{
	struct bpf_prog_info info;

	if (loader_prog_info(l, &info))
		return;
	fprintf(out, "prog name=%s id=%u jited=%d xlated_len=%u jited_len=%u verified_insns=%u run_cnt=%llu run_time_ns=%llu recursion_misses=%llu\n",
		loader_prog_name(l), info.id, info.jited_prog_len > 0,
		info.xlated_prog_len, info.jited_prog_len, info.verified_insns,
		(unsigned long long)info.run_cnt,
		(unsigned long long)info.run_time_ns,
		(unsigned long long)info.recursion_misses);
}

/* The consumer's time and CPU time, attach .. recording closed. */
struct rb_times {
	unsigned long long elapsed_ns, utime_us, stime_us;
};

/* The "record" line: the consumer's figures, before any check. */
static void print_record(FILE *out, const struct rb_recorder *r,
			 const struct rb_times *t)
{
	unsigned long long bytes = 0, samples = 0;
	unsigned int i;

	for (i = 0; i < r->nfiles; i++) {
		bytes += r->files[i].bytes;
		samples += r->files[i].samples;
	}
	fprintf(out, "record dir=%s files=%u bytes=%llu samples=%llu odd=%llu elapsed_ns=%llu utime_us=%llu stime_us=%llu\n",
		r->dir, r->nfiles, bytes, samples, r->odd.samples,
		t->elapsed_ns, t->utime_us, t->stime_us);
}

/*
 * The results, once the recording is checked into @a; 0, 3 if the check
 * failed, or 1.
 */
static int report(FILE *out, struct rb_loader *l, const struct rb_account *a,
		  const struct rb_opts *o, const struct rb_times *t)
{
	struct rb_counts *counts;
	unsigned int ncpus;
	int bad;

	if (loader_counts(l, &counts, &ncpus))
		return 1;
	print_prog(out, l);
	account_print_cpus(out, a, counts, ncpus);
	account_print_streams(out, a);
	fprintf(out, RELAY_BENCH_DRAIN_FMT, o->layout == RB_SHARED ? 1 : o->cpus,
		a->bytes, a->samples, a->bytes - a->samples * o->rec_size,
		t->elapsed_ns, t->utime_us, t->stime_us, o->reader_cpu, -1LL);
	account_print_peer(out, counts, ncpus, o->writers,
			   t->utime_us + t->stime_us);
	bad = account_check(out, a, counts, ncpus);
	free(counts);
	return bad ? 3 : 0;
}

/*
 * --no-check's results: the program's counters and what was read; 0, 3
 * if an attempt was not read whole (refused, in error or lost), or 1.
 */
static int report_tally(FILE *out, struct rb_loader *l, const struct rb_tally *t)
{
	unsigned long long att = 0, ref = 0, uns = 0, flt = 0, nom = 0, lost;
	struct rb_counts *counts;
	unsigned int ncpus, i;

	if (loader_counts(l, &counts, &ncpus))
		return 1;
	print_prog(out, l);
	for (i = 0; i < ncpus; i++) {
		const struct rb_counts *c = &counts[i];

		fprintf(out, "tally cpu=%u attempts=%llu refused=%llu unsupported=%llu faults=%llu nomap=%llu\n",
			i, (unsigned long long)c->attempts,
			(unsigned long long)c->refused,
			(unsigned long long)c->unsupported,
			(unsigned long long)c->faults,
			(unsigned long long)c->nomap);
		att += c->attempts;
		ref += c->refused;
		uns += c->unsupported;
		flt += c->faults;
		nom += c->nomap;
	}
	free(counts);
	lost = att - t->samples - ref - uns - flt - nom;
	fprintf(out, "tally attempts=%llu consumed=%llu bytes=%llu refused=%llu unsupported=%llu faults=%llu nomap=%llu lost=%lld result=%s\n",
		att, t->samples, t->bytes, ref, uns, flt, nom, (long long)lost,
		t->samples == att ? "ok" : "fail");
	return t->samples == att ? 0 : 3;
}

int main(int argc, char **argv)
{
	struct rb_loader l = { 0 };
	struct rb_account a = { 0 };
	struct rb_recorder r = { .odd.fd = -1 };
	struct rb_tally tally = { 0 };
	unsigned long long t0;
	struct rb_times t;
	struct rb_opts o;
	struct rusage ru0, ru1;
	char jit[32], harden[32];
	FILE *out = stdout;
	unsigned int nstreams;
	int ret = 1;

	opts_parse(&o, argc, argv);
	verbose = o.verbose;
	nstreams = o.layout == RB_SHARED ? 1 : o.cpus;
	libbpf_set_print(libbpf_msg);
	if (o.out && !(out = fopen(o.out, "w"))) {
		fprintf(stderr, "bench-ringbuf: %s: %s\n", o.out, strerror(errno));
		return 1;
	}
	if (setup_signals() || (o.reader_cpu >= 0 && pin(o.reader_cpu)))
		goto out;
	if (!o.no_check && account_init(&a, o.run, o.rec_size, nstreams)) {
		fprintf(stderr, "bench-ringbuf: allocating the accounting: %s\n", strerror(ENOMEM));
		goto out;
	}
	/* The files are there, empty, before the writers may start. */
	if (!o.no_check &&
	    record_open(&r, o.record, o.rec_size, nstreams, o.record_buf))
		goto out;
	if (loader_load(&l, &o) ||
	    (o.no_check ? loader_tally(&l, &tally) : loader_reader(&l, &r)) ||
	    loader_attach(&l, o.tracepoint))
		goto out;
	t0 = now_ns();
	getrusage(RUSAGE_SELF, &ru0);
	fprintf(out, "M bpf_jit_enable=%s bpf_jit_harden=%s\n",
		sysctl("/proc/sys/net/core/bpf_jit_enable", jit, sizeof(jit)),
		sysctl("/proc/sys/net/core/bpf_jit_harden", harden, sizeof(harden)));
	fprintf(out, "attached layout=%s rings=%u size=%lu rec_size=%u run=%u consume=%d prog=%s tracepoint=%s\n",
		o.layout == RB_SHARED ? "shared" : "percpu", nstreams, o.size,
		o.rec_size, o.run, o.consume, loader_prog_name(&l), o.tracepoint);
	fflush(out);
	if (run(l.reader, &r, o.consume, o.poll_ms,
		o.duration_ms ? t0 + o.duration_ms * 1000000ULL : 0))
		goto out;
	loader_detach(&l);
	if (o.no_check) {
		if (!drain(l.reader, &r))
			ret = report_tally(out, &l, &tally);
		goto out;
	}
	if (drain(l.reader, &r) || record_close(&r))
		goto out;
	/*
	 * The consumer's figures: now, with every sample read, written out
	 * and its file closed, and before the recording is read back and
	 * checked.  getrusage(RUSAGE_SELF) here less ru0 (taken just after
	 * attach) is the CPU time of the consumer alone: the process is one
	 * thread (libbpf starts none), and nothing of the check has run
	 * yet -- record_replay() and every relay_bench_check() come after
	 * this, and their CPU time is in no line.
	 */
	t.elapsed_ns = now_ns() - t0;
	getrusage(RUSAGE_SELF, &ru1);
	t.utime_us = tv_us(&ru1.ru_utime) - tv_us(&ru0.ru_utime);
	t.stime_us = tv_us(&ru1.ru_stime) - tv_us(&ru0.ru_stime);
	print_record(out, &r, &t);
	fflush(out);
	if (record_replay(&r, &a))
		goto out;
	ret = report(out, &l, &a, &o, &t);
out:
	loader_close(&l);
	record_free(&r);
	account_free(&a);
	if (out != stdout && fclose(out)) {
		fprintf(stderr, "bench-ringbuf: %s: %s\n", o.out, strerror(errno));
		ret = 1;
	}
	return ret;
}
