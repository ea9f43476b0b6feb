// SPDX-License-Identifier: GPL-2.0
/*
 * relay_bench - measure the cost of the relay_trace write path
 *
 * Sets up one trace, /sys/kernel/debug/relay_bench/run/, per-CPU or global
 * (mode=), flight or not (flight=).  Writing 1 to
 * /sys/module/relay_bench/parameters/run starts the trace, runs one kthread
 * bound to each of CPUs 0..writers-1, released together, each writing
 * records of rec_size bytes with trace_write() for duration_ms (or
 * max_records), stops the trace and returns.  The results are in the
 * read-only res_* parameters, one value per writer.
 *
 * Each record starts with a struct bench_rec header: magic and CPU, a
 * per-writer sequence number that counts every attempt (so a dropped
 * record leaves a gap), and a local_clock() timestamp.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/relay_trace.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>

#define BENCH_MAGIC	0xbe7cU
#define BENCH_BATCH	64
#define BENCH_MAX_W	64

struct bench_rec {
	u16 magic;
	u16 cpu;
	u32 seq;
	u64 ts;
};

static char *mode = "percpu";
module_param(mode, charp, 0444);
MODULE_PARM_DESC(mode, "percpu or global");

static bool flight;
module_param(flight, bool, 0444);
MODULE_PARM_DESC(flight, "flight-recorder mode");

static uint writers = 1;
module_param(writers, uint, 0444);
MODULE_PARM_DESC(writers, "writer kthreads, on CPUs 0..writers-1");

static uint rec_size = 64;
module_param(rec_size, uint, 0444);
MODULE_PARM_DESC(rec_size, "record size in bytes (16 or more)");

static uint subbuf_size = 16384;
module_param(subbuf_size, uint, 0444);
MODULE_PARM_DESC(subbuf_size, "sub-buffer size, a multiple of rec_size");

static uint n_subbufs = 8;
module_param(n_subbufs, uint, 0444);
MODULE_PARM_DESC(n_subbufs, "sub-buffers per buffer");

static uint duration_ms = 500;
module_param(duration_ms, uint, 0444);
MODULE_PARM_DESC(duration_ms, "how long each writer writes");

static ulong max_records;
module_param(max_records, ulong, 0444);
MODULE_PARM_DESC(max_records, "stop each writer after this many records (0: no limit)");

static ulong res_attempted[BENCH_MAX_W], res_written[BENCH_MAX_W];
static ulong res_failed[BENCH_MAX_W], res_ns[BENCH_MAX_W];
static uint n_res;
module_param_array(res_attempted, ulong, &n_res, 0444);
module_param_array(res_written, ulong, &n_res, 0444);
module_param_array(res_failed, ulong, &n_res, 0444);
module_param_array(res_ns, ulong, &n_res, 0444);
MODULE_PARM_DESC(res_attempted, "per writer: records attempted");
MODULE_PARM_DESC(res_written, "per writer: records written");
MODULE_PARM_DESC(res_failed, "per writer: records refused (buffer full)");
MODULE_PARM_DESC(res_ns, "per writer: ns spent in timed batches");

static ulong res_dropped;
module_param(res_dropped, ulong, 0444);
MODULE_PARM_DESC(res_dropped, "the trace's dropped counter after the run");

struct bench_writer {
	unsigned int cpu;
	struct completion done;
	u64 attempted, written, failed, ns;
	void *rec;
};

static struct trace_info *trace;
static struct bench_writer *bw;
static atomic_t ready;
static DECLARE_COMPLETION(go);
static DEFINE_MUTEX(run_lock);

static int bench_writer_fn(void *data)
{
	struct bench_writer *w = data;
	struct bench_rec *h = w->rec;
	u64 t0, t1, deadline;
	u32 seq = 0;
	int i, ret;

	h->magic = BENCH_MAGIC;
	h->cpu = w->cpu;

	atomic_inc(&ready);
	wait_for_completion(&go);

	deadline = local_clock() + (u64)duration_ms * NSEC_PER_MSEC;
	for (;;) {
		t0 = local_clock();
		for (i = 0; i < BENCH_BATCH; i++) {
			h->seq = seq++;
			h->ts = local_clock();
			ret = trace_write(trace, w->rec, rec_size);
			if (!ret)
				w->written++;
			else
				w->failed++;
		}
		t1 = local_clock();
		w->ns += t1 - t0;
		w->attempted += BENCH_BATCH;
		if (t1 >= deadline || kthread_should_stop() ||
		    (max_records && w->attempted >= max_records))
			break;
		cond_resched();
	}
	complete(&w->done);

	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	return 0;
}

static int bench_run(void)
{
	struct task_struct *tasks[BENCH_MAX_W] = { NULL };
	unsigned int i;
	int ret;

	for (i = 0; i < writers; i++) {
		memset(&bw[i].attempted, 0, 4 * sizeof(u64));
		init_completion(&bw[i].done);
	}
	atomic_set(&ready, 0);
	reinit_completion(&go);

	/* The stress tests start and stop the trace from user space too. */
	ret = trace_start(trace);
	if (ret && ret != -EBUSY)
		return ret;
	ret = 0;

	for (i = 0; i < writers; i++) {
		tasks[i] = kthread_create_on_cpu(bench_writer_fn, &bw[i], i,
						 "relay_bench/%u");
		if (IS_ERR(tasks[i])) {
			ret = PTR_ERR(tasks[i]);
			tasks[i] = NULL;
			goto out;
		}
		wake_up_process(tasks[i]);
	}
	while (atomic_read(&ready) < writers)
		usleep_range(100, 200);
	complete_all(&go);
	for (i = 0; i < writers; i++)
		wait_for_completion(&bw[i].done);
out:
	if (ret) {
		complete_all(&go);
		for (i = 0; i < writers && tasks[i]; i++)
			wait_for_completion(&bw[i].done);
	}
	trace_stop(trace);
	for (i = 0; i < writers; i++)
		if (tasks[i])
			kthread_stop(tasks[i]);
	if (ret)
		return ret;

	for (i = 0; i < writers; i++) {
		res_attempted[i] = bw[i].attempted;
		res_written[i] = bw[i].written;
		res_failed[i] = bw[i].failed;
		res_ns[i] = bw[i].ns;
	}
	n_res = writers;
	res_dropped = atomic_long_read(&trace->dropped);
	return 0;
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

static int __init relay_bench_init(void)
{
	u32 flags = 0;
	unsigned int i;

	if (!strcmp(mode, "global")) {
		flags |= TRACE_GLOBAL_CHANNEL;
	} else if (strcmp(mode, "percpu")) {
		pr_err("mode must be percpu or global, not '%s'\n", mode);
		return -EINVAL;
	}
	if (flight)
		flags |= TRACE_FLIGHT_CHANNEL;
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
	if (rec_size < sizeof(struct bench_rec) || rec_size > subbuf_size ||
	    subbuf_size % rec_size) {
		pr_err("rec_size=%u must be >= %zu and divide subbuf_size=%u\n",
		       rec_size, sizeof(struct bench_rec), subbuf_size);
		return -EINVAL;
	}

	bw = kcalloc(writers, sizeof(*bw), GFP_KERNEL);
	if (!bw)
		return -ENOMEM;
	for (i = 0; i < writers; i++) {
		bw[i].cpu = i;
		bw[i].rec = kzalloc(rec_size, GFP_KERNEL);
		if (!bw[i].rec)
			goto err;
		memset(bw[i].rec + sizeof(struct bench_rec), 0x5a,
		       rec_size - sizeof(struct bench_rec));
	}

	trace = trace_setup("relay_bench", "run", subbuf_size, n_subbufs, flags);
	if (!trace) {
		pr_err("trace_setup failed\n");
		goto err;
	}
	return 0;
err:
	for (i = 0; i < writers; i++)
		kfree(bw[i].rec);
	kfree(bw);
	return -ENOMEM;
}

static void __exit relay_bench_exit(void)
{
	unsigned int i;

	trace_cleanup(trace);
	for (i = 0; i < writers; i++)
		kfree(bw[i].rec);
	kfree(bw);
}

module_init(relay_bench_init);
module_exit(relay_bench_exit);
MODULE_DESCRIPTION("Benchmark of the relay_trace write path");
MODULE_LICENSE("GPL");
