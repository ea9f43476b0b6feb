// SPDX-License-Identifier: GPL-2.0
/*
 * relay_bench - measure the relay_trace write path, and check every record
 *
 * What the writers write through is a variant (mode=), one entry of
 * bench_variants[] below: one trace, /sys/kernel/tracing/relay/relay_bench/run/,
 * per-CPU or global (mode=percpu, mode=global), flight or not (flight=);
 * or, as peers in the same boot, an ftrace ring buffer called directly
 * (mode=ftrace: per-CPU, overwrite, ring_buffer_lock_reserve() +
 * ring_buffer_unlock_commit()), or the module's tracepoint
 * (mode=event: relay_bench:relay_bench_rec, relay_bench_trace.h), which
 * records whatever user space attached to it: an ftrace instance, a BPF
 * program, perf, LTTng; or nothing (mode=none: the floor, everything but
 * the write).  A variant is its setup and teardown, its start and stop,
 * its write loop and its loss counters, as a benchmark of
 * tools/testing/selftests/bpf/bench.h is; adding one is adding an entry.
 *
 * Writing 1 to /sys/module/relay_bench/parameters/run runs one kthread
 * bound to each of CPUs 0..writers-1, released together, each writing
 * records of rec_size bytes for duration_ms: as fast as it can, or at
 * rate= records per second, or (stop_on_drop=1) until its first write is
 * refused.  It then stops the trace (unless keep_running=1: a reader
 * then reads the runs that follow, with other rates and run_ids written
 * to those parameters, as one recording) and returns; the results are in
 * the read-only res_* parameters, one value per writer, and the trace's
 * counters as they grew during the run.
 *
 * Every record is a struct relay_bench_rec (uapi/relay_bench.h): the run
 * identifier and the writer's CPU, its count of attempts and of
 * successful writes before this one, a timestamp, and a payload derived
 * from all of them, so that a reader can check each record by content.
 * One write in 2^sample_shift is timed alone, into a log-scale histogram
 * of per-write latency (res_hist).
 *
 * A tracepoint returns nothing: in mode=event the module counts attempts
 * only (res_ok and res_failed stay 0), and what was recorded or lost
 * comes from the counters of the system attached to it.
 *
 * In mode=ftrace no user-space reader can see the ring buffer, so the
 * module checks it itself after the run, with the same code bench-verify
 * uses (relay_bench_check_rec()), and publishes the same lines in
 * res_check.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/random.h>
#include <linux/relay_trace.h>
#include <linux/ring_buffer.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/trace_clock.h>

#include "uapi/relay_bench.h"

#define CREATE_TRACE_POINTS
#include "relay_bench_trace.h"

#define BENCH_MAX_W		RELAY_BENCH_MAX_WRITERS
#define BENCH_BATCH		64	/* writes between clock and stop checks */
#define BENCH_MAX_BURST		1024	/* writes at once when rate-limited */
#define BENCH_MAX_MS		4000	/* record timestamps are 32-bit ns */
#define BENCH_HIST		RELAY_BENCH_HIST_BUCKETS

static char *mode = "percpu";
module_param(mode, charp, 0444);
MODULE_PARM_DESC(mode, "a variant: percpu, global, ftrace (ring buffer), event (the tracepoint) or none (the floor)");

static bool flight;
module_param(flight, bool, 0444);
MODULE_PARM_DESC(flight, "flight-recorder mode (overwrite); mode=ftrace needs it");

static uint writers = 1;
module_param(writers, uint, 0444);
MODULE_PARM_DESC(writers, "writer kthreads, on CPUs 0..writers-1");

static uint rec_size = 64;
module_param(rec_size, uint, 0444);
MODULE_PARM_DESC(rec_size, "record size in bytes: 16 or more, a multiple of 4");

static uint subbuf_size = 16384;
module_param(subbuf_size, uint, 0444);
MODULE_PARM_DESC(subbuf_size, "sub-buffer size, a multiple of rec_size");

static uint n_subbufs = 8;
module_param(n_subbufs, uint, 0444);
MODULE_PARM_DESC(n_subbufs, "sub-buffers per buffer (mode=ftrace: its size in sub-buffers)");

static uint duration_ms = 500;
module_param(duration_ms, uint, 0444);
MODULE_PARM_DESC(duration_ms, "how long each writer writes, at most 4000");

static ulong rate;
module_param(rate, ulong, 0644);
MODULE_PARM_DESC(rate, "records per second per writer (0: as fast as it can); may change between runs");

static bool stop_on_drop;
module_param(stop_on_drop, bool, 0444);
MODULE_PARM_DESC(stop_on_drop, "end a writer's run at its first refused write");

static uint run_id;
module_param(run_id, uint, 0644);
MODULE_PARM_DESC(run_id, "run identifier in every record, 1..2^24-1 (0: random); may change between runs");

static bool keep_running;
module_param(keep_running, bool, 0444);
MODULE_PARM_DESC(keep_running, "leave the trace running after a run, for the next (stop it through its state file)");

static uint sample_shift = 4;
module_param(sample_shift, uint, 0444);
MODULE_PARM_DESC(sample_shift, "time one write in 2^sample_shift (at most 20)");

static ulong res_attempted[BENCH_MAX_W], res_ok[BENCH_MAX_W];
static ulong res_failed[BENCH_MAX_W], res_ns[BENCH_MAX_W];
static ulong res_last_ts[BENCH_MAX_W];
static uint n_res;
module_param_array(res_attempted, ulong, &n_res, 0444);
module_param_array(res_ok, ulong, &n_res, 0444);
module_param_array(res_failed, ulong, &n_res, 0444);
module_param_array(res_ns, ulong, &n_res, 0444);
module_param_array(res_last_ts, ulong, &n_res, 0444);
MODULE_PARM_DESC(res_attempted, "per writer: writes attempted");
MODULE_PARM_DESC(res_ok, "per writer: successful writes");
MODULE_PARM_DESC(res_failed, "per writer: writes refused");
MODULE_PARM_DESC(res_ns, "per writer: ns from the run's start to its last write");
MODULE_PARM_DESC(res_last_ts, "per writer: timestamp of its last successful write");

static ulong res_hist[BENCH_HIST];
static uint n_hist = BENCH_HIST;
module_param_array(res_hist, ulong, &n_hist, 0444);
MODULE_PARM_DESC(res_hist, "timed writes per latency bucket, all writers");

static ulong res_dropped, res_refused;
module_param(res_dropped, ulong, 0444);
MODULE_PARM_DESC(res_dropped, "what the trace's dropped counter grew by during the run");
module_param(res_refused, ulong, 0444);
MODULE_PARM_DESC(res_refused, "what the trace's refused counter grew by during the run");

static char res_check[8192];
module_param_string(res_check, res_check, sizeof(res_check), 0444);
MODULE_PARM_DESC(res_check, "mode=ftrace: the module's check of the ring buffer");

/* What one writer did in one run. */
struct bench_result {
	u64 attempted;
	u64 ok;
	u64 failed;
	u64 ns;
	u64 last_ts;
	u64 hist[BENCH_HIST];
};

struct bench_writer {
	unsigned int cpu;
	struct completion done;
	struct bench_result res;
	struct relay_bench_rec *rec;
};

/*
 * A variant: what the writers write through.  @batch writes @n records
 * (bench_loop() with the variant's write inlined: one indirect call per
 * batch, none per write) and returns false at a refused write with
 * stop_on_drop; @setup allocates at module load, @start and @stop bracket
 * each run, @counters reads the variant's own loss counters, @check
 * checks what it stored, when no user-space reader can.
 */
struct bench_variant {
	const char *name;
	int flight;		/* BENCH_FLIGHT_*: which flight= it takes */
	unsigned int max_rec;	/* the largest rec_size it takes (0: any) */
	int (*setup)(u32 flags);
	void (*teardown)(void);
	int (*start)(void);
	void (*stop)(void);
	bool (*batch)(struct bench_writer *w, u64 n);
	void (*counters)(long *dropped, long *refused);
	void (*check)(void);
};

enum { BENCH_FLIGHT_ANY, BENCH_FLIGHT_ONLY, BENCH_FLIGHT_NEVER };

/* What a write returns when it has no result of its own (a tracepoint). */
#define BENCH_NO_RESULT	1

static const struct bench_variant *variant;
static struct relay_trace *trace;
static struct trace_buffer *rb;
static struct bench_writer *bw;
static atomic_t ready;
static u64 run_start;
/* The variant's loss counters when the run started. */
static long dropped0, refused0;
static DECLARE_COMPLETION(go);
static DEFINE_MUTEX(run_lock);

/*
 * The ring buffer's commit: it lost its event argument in 6.3, and the
 * Makefile defines RB_COMMIT_BUFFER_ONLY for the kernels that have that.
 */
static inline void bench_rb_commit(struct ring_buffer_event *ev)
{
#ifdef RB_COMMIT_BUFFER_ONLY
	ring_buffer_unlock_commit(rb);
#else
	ring_buffer_unlock_commit(rb, ev);
#endif
}

/*
 * The write loop of every variant: @n records, each built, written with
 * @write (a constant at each call site, so inlined) and counted.  Returns
 * false if a refused write ends the run (stop_on_drop).
 */
static __always_inline bool bench_loop(struct bench_writer *w, u64 n,
				       int (*write)(const void *rec))
{
	struct bench_result *res = &w->res;
	struct relay_bench_rec *h = w->rec;
	u32 *payload = (u32 *)(h + 1);
	u32 nwords = (rec_size - RELAY_BENCH_HDR_SIZE) / 4;
	u64 sample_mask = (1ULL << sample_shift) - 1;
	u64 start = READ_ONCE(run_start);
	u64 i, t;
	int ret;

	for (i = 0; i < n; i++) {
		h->seq = res->attempted;
		h->ok = res->ok;
		t = trace_clock_local();
		h->ts = t > start ? t - start : 0;
		memset32(payload, relay_bench_mix(h), nwords);
		if (!(res->attempted & sample_mask)) {
			t = trace_clock_local();
			ret = write(h);
			res->hist[relay_bench_hist_bucket(trace_clock_local() - t)]++;
		} else {
			ret = write(h);
		}
		res->attempted++;
		if (likely(!ret)) {
			res->ok++;
			res->last_ts = h->ts;
		} else if (ret != BENCH_NO_RESULT) {
			res->failed++;
			if (stop_on_drop)
				return false;
		}
	}
	return true;
}

/* mode=percpu, mode=global: relay_trace. */
static __always_inline int trace_variant_write(const void *rec)
{
	return relay_trace_write(trace, rec, rec_size);
}

static bool trace_variant_batch(struct bench_writer *w, u64 n)
{
	return bench_loop(w, n, trace_variant_write);
}

static int trace_variant_setup(u32 flags)
{
	trace = relay_trace_setup("relay_bench", "run", subbuf_size, n_subbufs, flags);
	if (!trace) {
		pr_err("relay_trace_setup failed\n");
		return -ENOMEM;
	}
	return 0;
}

static int percpu_setup(u32 flags)
{
	return trace_variant_setup(flags);
}

static int global_setup(u32 flags)
{
	return trace_variant_setup(flags | RELAY_TRACE_GLOBAL_CHANNEL);
}

static void trace_variant_teardown(void)
{
	relay_trace_cleanup(trace);
	trace = NULL;
}

static int trace_variant_start(void)
{
	/* The stress tests start and stop the trace from user space too. */
	int ret = relay_trace_start(trace);

	return ret == -EBUSY ? 0 : ret;
}

static void trace_variant_stop(void)
{
	if (!keep_running)
		relay_trace_stop(trace);
}

static void trace_variant_counters(long *dropped, long *refused)
{
	*dropped = atomic_long_read(&trace->dropped);
	*refused = atomic_long_read(&trace->refused);
}

/* mode=ftrace: the ftrace ring buffer, called directly. */
static __always_inline int rb_variant_write(const void *rec)
{
	struct ring_buffer_event *ev;

	ev = ring_buffer_lock_reserve(rb, rec_size);
	if (!ev)
		return -ENOSPC;
	memcpy(ring_buffer_event_data(ev), rec, rec_size);
	bench_rb_commit(ev);
	return 0;
}

static bool rb_variant_batch(struct bench_writer *w, u64 n)
{
	return bench_loop(w, n, rb_variant_write);
}

static int rb_variant_setup(u32 flags)
{
	rb = ring_buffer_alloc((unsigned long)subbuf_size * n_subbufs,
			       RB_FL_OVERWRITE);
	if (!rb) {
		pr_err("ring_buffer_alloc failed\n");
		return -ENOMEM;
	}
	return 0;
}

static void rb_variant_teardown(void)
{
	if (rb)
		ring_buffer_free(rb);
	rb = NULL;
}

static int rb_variant_start(void)
{
	ring_buffer_reset(rb);
	ring_buffer_record_on(rb);
	return 0;
}

static void rb_variant_stop(void)
{
	ring_buffer_record_off(rb);
}

static void rb_variant_check(void);

/*
 * mode=event: the tracepoint.  Whatever is attached to it records; when
 * nothing is, this is the cost of a disabled tracepoint.
 */
static __always_inline int event_variant_write(const void *rec)
{
	trace_relay_bench_rec(rec, rec_size);
	return BENCH_NO_RESULT;
}

static bool event_variant_batch(struct bench_writer *w, u64 n)
{
	return bench_loop(w, n, event_variant_write);
}

/* mode=none: everything but the write. */
static __always_inline int none_variant_write(const void *rec)
{
	barrier();
	return 0;
}

static bool none_variant_batch(struct bench_writer *w, u64 n)
{
	return bench_loop(w, n, none_variant_write);
}

static const struct bench_variant bench_variants[] = {
	{
		.name = "percpu", .flight = BENCH_FLIGHT_ANY,
		.setup = percpu_setup, .teardown = trace_variant_teardown,
		.start = trace_variant_start, .stop = trace_variant_stop,
		.batch = trace_variant_batch,
		.counters = trace_variant_counters,
	}, {
		.name = "global", .flight = BENCH_FLIGHT_ANY,
		.setup = global_setup, .teardown = trace_variant_teardown,
		.start = trace_variant_start, .stop = trace_variant_stop,
		.batch = trace_variant_batch,
		.counters = trace_variant_counters,
	}, {
		.name = "ftrace", .flight = BENCH_FLIGHT_ONLY,
		.setup = rb_variant_setup, .teardown = rb_variant_teardown,
		.start = rb_variant_start, .stop = rb_variant_stop,
		.batch = rb_variant_batch, .check = rb_variant_check,
	}, {
		/*
		 * What records the tracepoint does not all take more: perf
		 * warns above PERF_MAX_TRACE_SIZE, ftrace refuses an event
		 * larger than a page uncounted, the BPF peer reserves at most
		 * 4 KiB, and trace's hex of it is cut short.
		 */
		.name = "event", .flight = BENCH_FLIGHT_NEVER, .max_rec = 1024,
		.batch = event_variant_batch,
	}, {
		.name = "none", .flight = BENCH_FLIGHT_NEVER,
		.batch = none_variant_batch,
	},
};

/* Sleep until @until (trace_clock_local() time), if it is far enough. */
static void bench_sleep_until(u64 now, u64 until)
{
	u64 us = (until - now) / NSEC_PER_USEC;

	if (until <= now)
		return;
	if (us >= 20)
		usleep_range(us, us + 50);
	else
		cond_resched();
}

static int bench_writer_fn(void *data)
{
	struct bench_writer *w = data;
	struct bench_result *res = &w->res;
	u64 start, deadline, now, n;

	w->rec->tag = RELAY_BENCH_TAG(run_id, w->cpu);
	atomic_inc(&ready);
	wait_for_completion(&go);

	start = READ_ONCE(run_start);
	deadline = start + (u64)duration_ms * NSEC_PER_MSEC;
	for (;;) {
		now = trace_clock_local();
		if (now >= deadline || kthread_should_stop())
			break;
		n = BENCH_BATCH;
		if (rate) {
			u64 due = div64_u64((now - start) * rate, NSEC_PER_SEC);

			if (due <= res->attempted) {
				bench_sleep_until(now, start +
					div64_u64((res->attempted + 1) * NSEC_PER_SEC,
						  rate));
				continue;
			}
			n = min_t(u64, due - res->attempted, BENCH_MAX_BURST);
		}
		if (!variant->batch(w, n))
			goto out;
		cond_resched();
	}
out:
	res->ns = trace_clock_local() - start;
	complete(&w->done);

	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	return 0;
}

/*
 * Check the ring buffer's records, oldest first, one stream per CPU, with
 * the code bench-verify uses for relay files; print its lines to res_check.
 */
static void rb_variant_check(void)
{
	struct relay_bench_fstats *fs;
	struct ring_buffer_event *ev;
	unsigned int i, cpu, len = 0;

	res_check[0] = '\0';
	fs = kzalloc(sizeof(*fs), GFP_KERNEL);
	if (!fs) {
		scnprintf(res_check, sizeof(res_check), "error no memory\n");
		return;
	}
	for (cpu = 0; cpu < writers; cpu++) {
		memset(fs, 0, sizeof(*fs));
		while ((ev = ring_buffer_consume(rb, cpu, NULL, NULL))) {
			u32 n = ring_buffer_event_length(ev);

			relay_bench_check(fs, run_id, ring_buffer_event_data(ev),
					  min(n, rec_size), rec_size);
			if (n != rec_size)
				fs->partial += n > rec_size ? n - rec_size : 0;
			cond_resched();
		}
		len += scnprintf(res_check + len, sizeof(res_check) - len,
				 RELAY_BENCH_STREAM_FMT,
				 RELAY_BENCH_STREAM_ARGS(cpu, fs));
		for (i = 0; i < RELAY_BENCH_MAX_WRITERS; i++)
			if (fs->w[i].records)
				len += scnprintf(res_check + len,
						 sizeof(res_check) - len,
						 RELAY_BENCH_WRITER_FMT,
						 RELAY_BENCH_WRITER_ARGS(i, cpu,
									 &fs->w[i]));
	}
	kfree(fs);
}

static void bench_collect(void)
{
	unsigned int i, b;

	memset(res_hist, 0, sizeof(res_hist));
	for (i = 0; i < writers; i++) {
		struct bench_result *r = &bw[i].res;

		res_attempted[i] = r->attempted;
		res_ok[i] = r->ok;
		res_failed[i] = r->failed;
		res_ns[i] = r->ns;
		res_last_ts[i] = r->last_ts;
		for (b = 0; b < BENCH_HIST; b++)
			res_hist[b] += r->hist[b];
	}
	n_res = writers;
	res_dropped = 0;
	res_refused = 0;
	if (variant->counters) {
		long dropped, refused;

		variant->counters(&dropped, &refused);
		res_dropped = dropped - dropped0;
		res_refused = refused - refused0;
	}
	if (variant->check)
		variant->check();
}

static int bench_run(void)
{
	struct task_struct *tasks[BENCH_MAX_W] = { NULL };
	unsigned int i;
	int ret = 0;

	if (!run_id || run_id > RELAY_BENCH_MAX_RUN) {
		pr_err("run_id=%u: want 1..%u\n", run_id, RELAY_BENCH_MAX_RUN);
		return -EINVAL;
	}
	for (i = 0; i < writers; i++) {
		memset(&bw[i].res, 0, sizeof(bw[i].res));
		init_completion(&bw[i].done);
	}
	atomic_set(&ready, 0);
	reinit_completion(&go);

	if (variant->counters)
		variant->counters(&dropped0, &refused0);
	if (variant->start) {
		ret = variant->start();
		if (ret)
			return ret;
	}

	for (i = 0; i < writers; i++) {
		tasks[i] = kthread_create_on_cpu(bench_writer_fn, &bw[i], i,
						 "relay_bench/%u");
		if (IS_ERR(tasks[i])) {
			ret = PTR_ERR(tasks[i]);
			tasks[i] = NULL;
			break;
		}
		wake_up_process(tasks[i]);
	}
	while (!ret && atomic_read(&ready) < writers)
		usleep_range(100, 200);
	WRITE_ONCE(run_start, trace_clock_local());
	complete_all(&go);
	for (i = 0; i < writers && tasks[i]; i++)
		wait_for_completion(&bw[i].done);

	if (variant->stop)
		variant->stop();
	for (i = 0; i < writers; i++)
		if (tasks[i])
			kthread_stop(tasks[i]);
	if (!ret)
		bench_collect();
	return ret;
}

static int run_set(const char *val, const struct kernel_param *kp)
{
	int ret;

	if (!sysfs_streq(val, "1"))
		return -EINVAL;
	mutex_lock(&run_lock);
	ret = bench_run();
	mutex_unlock(&run_lock);
	return ret;
}

static const struct kernel_param_ops run_ops = {
	.set = run_set,
};
module_param_cb(run, &run_ops, NULL, 0200);
MODULE_PARM_DESC(run, "write 1 to run the benchmark once");

static int bench_check_params(void)
{
	unsigned int i;

	if (writers < 1 || writers > BENCH_MAX_W || writers > num_online_cpus()) {
		pr_err("writers=%u: need 1..%u (online CPUs)\n", writers,
		       min_t(unsigned int, BENCH_MAX_W, num_online_cpus()));
		return -EINVAL;
	}
	for (i = 0; i < writers; i++) {
		if (!cpu_online(i)) {
			pr_err("CPU %u is offline\n", i);
			return -EINVAL;
		}
	}
	if (rec_size < RELAY_BENCH_HDR_SIZE || rec_size % 4 ||
	    rec_size > subbuf_size || subbuf_size % rec_size) {
		pr_err("rec_size=%u must be >= %u, a multiple of 4, and divide subbuf_size=%u\n",
		       rec_size, RELAY_BENCH_HDR_SIZE, subbuf_size);
		return -EINVAL;
	}
	if (!duration_ms || duration_ms > BENCH_MAX_MS || sample_shift > 20) {
		pr_err("duration_ms=%u must be 1..%u, sample_shift=%u at most 20\n",
		       duration_ms, BENCH_MAX_MS, sample_shift);
		return -EINVAL;
	}
	if (run_id > RELAY_BENCH_MAX_RUN) {
		pr_err("run_id=%u: at most %u\n", run_id, RELAY_BENCH_MAX_RUN);
		return -EINVAL;
	}
	return 0;
}

static void bench_free(void)
{
	unsigned int i;

	if (variant && variant->teardown)
		variant->teardown();
	for (i = 0; bw && i < writers; i++)
		kfree(bw[i].rec);
	kfree(bw);
	bw = NULL;
}

static int __init relay_bench_init(void)
{
	u32 flags = flight ? RELAY_TRACE_FLIGHT_CHANNEL : 0;
	unsigned int i;
	int ret;

	ret = bench_check_params();
	if (ret)
		return ret;
	if (!run_id)
		run_id = (get_random_u32() & RELAY_BENCH_MAX_RUN) | 1;

	for (i = 0; i < ARRAY_SIZE(bench_variants); i++)
		if (!strcmp(mode, bench_variants[i].name))
			variant = &bench_variants[i];
	if (!variant) {
		pr_err("mode=%s: not a variant (percpu, global, ftrace, event, none)\n",
		       mode);
		return -EINVAL;
	}
	if (variant->flight == BENCH_FLIGHT_ONLY && !flight) {
		pr_err("mode=%s overwrites: needs flight=1\n", mode);
		return -EINVAL;
	}
	if (variant->flight == BENCH_FLIGHT_NEVER && flight) {
		pr_err("mode=%s has no flight mode: flight=0\n", mode);
		return -EINVAL;
	}
	if (variant->max_rec && rec_size > variant->max_rec) {
		pr_err("mode=%s takes records of at most %u bytes, not %u\n",
		       mode, variant->max_rec, rec_size);
		return -EINVAL;
	}

	bw = kcalloc(writers, sizeof(*bw), GFP_KERNEL);
	if (!bw)
		return -ENOMEM;
	for (i = 0; i < writers; i++) {
		bw[i].cpu = i;
		bw[i].rec = kzalloc(rec_size, GFP_KERNEL);
		if (!bw[i].rec)
			goto nomem;
	}

	if (variant->setup) {
		ret = variant->setup(flags);
		if (ret) {
			/* A failed setup leaves nothing to tear down. */
			variant = NULL;
			bench_free();
			return ret;
		}
	}
	return 0;
nomem:
	bench_free();
	return -ENOMEM;
}

static void __exit relay_bench_exit(void)
{
	bench_free();
}

module_init(relay_bench_init);
module_exit(relay_bench_exit);
MODULE_DESCRIPTION("Benchmark of the relay_trace write path");
MODULE_LICENSE("GPL");
