// SPDX-License-Identifier: GPL-2.0
/*
 * relay_cost - deterministic cost of one write through the trace layer and
 * its comparators
 *
 * Meant for a guest booted with -icount shift=0,sleep=off and one CPU,
 * where local_clock() counts executed instructions: the figures are then
 * the same from boot to boot.  At load time it times @nr writes of each
 * record size in @sizes for every kind below, in batches small enough
 * that no buffer ever fills (a reader is simulated between batches, out
 * of the timed region), and publishes "kind size writes total_ns" lines
 * in the read-only parameter "results".
 *
 *   empty         the loop, the record's header update and the timing
 *   memcpy        the record copied into a per-CPU buffer: the floor
 *   relay_raw     local_irq_save + relay_reserve + copy, as blktrace does,
 *                 on a plain relay channel
 *   trace_percpu  the trace write path of a per-CPU trace, written out as
 *                 a provider would: irqs off, trace_running(), reserve, copy
 *   trace_global  the same on a global trace, under trace->lock
 *   trace_flight  the same on a per-CPU flight-recorder trace
 *   trace_write   the trace_write() helper on a per-CPU trace
 *   ftrace_rb     ring_buffer_write() on a ring_buffer_alloc() buffer
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/relay.h>
#include <linux/relay_trace.h>
#include <linux/ring_buffer.h>
#include <linux/sched/clock.h>
#include <linux/sizes.h>
#include <linux/slab.h>

#define COST_MAX_SIZE	1024
#define COST_SUBBUF	65536
#define COST_NSUBBUF	8
#define COST_RB_SIZE	SZ_1M

static uint sizes[8] = { 16, 64, 256 };
static int n_sizes = 3;
module_param_array(sizes, uint, &n_sizes, 0444);
MODULE_PARM_DESC(sizes, "record sizes in bytes (at most 1024)");

static uint nr = 100000;
module_param(nr, uint, 0444);
MODULE_PARM_DESC(nr, "timed writes per kind and size");

static uint batch = 512;
module_param(batch, uint, 0444);
MODULE_PARM_DESC(batch, "writes per timed batch (must fit in a buffer)");

static char results[4096];
module_param_string(results, results, sizeof(results), 0444);
MODULE_PARM_DESC(results, "\"kind size writes total_ns\" lines");

enum cost_kind {
	K_EMPTY, K_MEMCPY, K_RELAY_RAW, K_TRACE_PERCPU, K_TRACE_GLOBAL,
	K_TRACE_FLIGHT, K_TRACE_WRITE, K_FTRACE_RB, K_NR
};

static const char *const kind_names[K_NR] = {
	"empty", "memcpy", "relay_raw", "trace_percpu", "trace_global",
	"trace_flight", "trace_write", "ftrace_rb",
};

struct cost_rec {
	u32 magic;
	u32 seq;
	u64 ts;
};

static DEFINE_PER_CPU(char [COST_MAX_SIZE], memcpy_dst);
static char rec_buf[COST_MAX_SIZE];
static struct dentry *raw_dir;

static struct dentry *raw_create(const char *filename, struct dentry *parent,
				 umode_t mode, struct rchan_buf *buf,
				 int *is_global)
{
	return debugfs_create_file(filename, mode, parent, buf,
				   &relay_file_operations);
}

static int raw_remove(struct dentry *dentry)
{
	debugfs_remove(dentry);
	return 0;
}

static const struct rchan_callbacks raw_callbacks = {
	.create_buf_file	= raw_create,
	.remove_buf_file	= raw_remove,
};

/* The provider's write path, as Documentation/trace/relay-trace.rst has it. */
static __always_inline void provider_write(struct trace_info *t, bool global,
					   const void *rec, size_t size)
{
	unsigned long flags;
	void *p;

	local_irq_save(flags);
	if (trace_running(t)) {
		if (global)
			spin_lock(&t->lock);
		p = relay_reserve(t->rchan, size);
		if (p)
			memcpy(p, rec, size);
		if (global)
			spin_unlock(&t->lock);
	}
	local_irq_restore(flags);
}

struct cost_target {
	struct rchan *chan;		/* relay_raw */
	struct trace_info *trace;	/* trace_* */
	struct trace_buffer *rb;	/* ftrace_rb */
};

static void one_write(enum cost_kind k, struct cost_target *tg, size_t size)
{
	struct cost_rec *h = (struct cost_rec *)rec_buf;
	unsigned long flags;
	void *p;

	h->seq++;
	switch (k) {
	case K_EMPTY:
		barrier();
		break;
	case K_MEMCPY:
		memcpy(this_cpu_ptr(memcpy_dst), rec_buf, size);
		barrier();
		break;
	case K_RELAY_RAW:
		local_irq_save(flags);
		p = relay_reserve(tg->chan, size);
		if (p)
			memcpy(p, rec_buf, size);
		local_irq_restore(flags);
		break;
	case K_TRACE_PERCPU:
	case K_TRACE_FLIGHT:
		provider_write(tg->trace, false, rec_buf, size);
		break;
	case K_TRACE_GLOBAL:
		provider_write(tg->trace, true, rec_buf, size);
		break;
	case K_TRACE_WRITE:
		trace_write(tg->trace, rec_buf, size);
		break;
	case K_FTRACE_RB:
		ring_buffer_write(tg->rb, size, rec_buf);
		break;
	default:
		break;
	}
}

/* Mark everything consumed, as a reader would, outside the timed region. */
static void drain(struct rchan *chan)
{
	unsigned int cpu;

	if (!chan)
		return;
	for_each_online_cpu(cpu)
		relay_subbufs_consumed(chan, cpu, COST_NSUBBUF);
}

static int setup(enum cost_kind k, struct cost_target *tg)
{
	u32 flags = 0;

	memset(tg, 0, sizeof(*tg));
	switch (k) {
	case K_RELAY_RAW:
		tg->chan = relay_open("raw", raw_dir, COST_SUBBUF, COST_NSUBBUF,
				      &raw_callbacks, NULL);
		return tg->chan ? 0 : -ENOMEM;
	case K_TRACE_GLOBAL:
		flags = TRACE_GLOBAL_CHANNEL;
		break;
	case K_TRACE_FLIGHT:
		flags = TRACE_FLIGHT_CHANNEL;
		break;
	case K_TRACE_PERCPU:
	case K_TRACE_WRITE:
		break;
	case K_FTRACE_RB:
		tg->rb = ring_buffer_alloc(COST_RB_SIZE, RB_FL_OVERWRITE);
		return tg->rb ? 0 : -ENOMEM;
	default:
		return 0;
	}
	tg->trace = trace_setup("relay_cost", kind_names[k], COST_SUBBUF,
				COST_NSUBBUF, flags);
	if (!tg->trace)
		return -ENOMEM;
	return trace_start(tg->trace);
}

static void teardown(struct cost_target *tg)
{
	relay_close(tg->chan);
	trace_cleanup(tg->trace);
	if (tg->rb)
		ring_buffer_free(tg->rb);
}

static u64 measure(enum cost_kind k, struct cost_target *tg, size_t size)
{
	struct rchan *chan = tg->chan ? tg->chan :
			     (tg->trace ? tg->trace->rchan : NULL);
	u64 total = 0, t0;
	unsigned int done, i;

	/* One untimed batch to warm caches and fault in buffer pages. */
	for (i = 0; i < batch; i++)
		one_write(k, tg, size);
	drain(chan);

	/*
	 * Interrupts are off for each timed batch, so that no interrupt
	 * lands in it: what is timed is the write path alone, and with
	 * -icount it is the same instruction count in every boot.
	 */
	for (done = 0; done < nr; done += batch) {
		unsigned int b = min(batch, nr - done);
		unsigned long flags;

		local_irq_save(flags);
		t0 = local_clock();
		for (i = 0; i < b; i++)
			one_write(k, tg, size);
		total += local_clock() - t0;
		local_irq_restore(flags);
		drain(chan);
	}
	return total;
}

static int __init relay_cost_init(void)
{
	struct cost_target tg;
	size_t len = 0;
	int s, ret;
	enum cost_kind k;

	for (s = 0; s < n_sizes; s++) {
		if (sizes[s] < sizeof(struct cost_rec) ||
		    sizes[s] > COST_MAX_SIZE ||
		    (u64)batch * sizes[s] > (u64)COST_SUBBUF * (COST_NSUBBUF - 1)) {
			pr_err("size %u: want %zu..%u bytes, and batch*size within a buffer\n",
			       sizes[s], sizeof(struct cost_rec), COST_MAX_SIZE);
			return -EINVAL;
		}
	}
	if (!nr || !batch)
		return -EINVAL;

	((struct cost_rec *)rec_buf)->magic = 0xc057c057;
	memset(rec_buf + sizeof(struct cost_rec), 0x5a,
	       COST_MAX_SIZE - sizeof(struct cost_rec));
	raw_dir = debugfs_create_dir("relay_cost_raw", NULL);
	if (IS_ERR(raw_dir))
		return PTR_ERR(raw_dir);

	for (k = 0; k < K_NR; k++) {
		ret = setup(k, &tg);
		if (ret) {
			pr_err("%s: setup failed: %d\n", kind_names[k], ret);
			teardown(&tg);
			debugfs_remove(raw_dir);
			return ret;
		}
		for (s = 0; s < n_sizes; s++)
			len += scnprintf(results + len, sizeof(results) - len,
					 "%s %u %u %llu\n", kind_names[k],
					 sizes[s], nr, measure(k, &tg, sizes[s]));
		teardown(&tg);
	}
	debugfs_remove(raw_dir);
	return 0;
}

static void __exit relay_cost_exit(void)
{
}

module_init(relay_cost_init);
module_exit(relay_cost_exit);
MODULE_DESCRIPTION("Deterministic cost of the relay_trace write path");
MODULE_LICENSE("GPL");
