// SPDX-License-Identifier: GPL-2.0
/*
 * relay_cost - deterministic cost of one write through the trace layer and
 * its comparators
 *
 * Meant for a guest booted with -icount shift=0,sleep=off and one CPU,
 * where local_clock() counts executed instructions: the figures are then
 * the same from boot to boot.  At load time it times @nr writes of each
 * record size in @sizes for every kind below, with interrupts off, in
 * batches of @batch writes, and publishes one line per kind and size in
 * the read-only parameter "results":
 *
 *   R kind=KIND size=BYTES writes=N total_ns=T
 *
 * Every kind updates the record's sequence number; every kind that writes
 * a record also stamps it with trace_clock_local(), the clock the ftrace
 * ring buffer stamps its events with, so that all of them do the same
 * work per record.
 *
 *   empty         the loop, the sequence number and the timing
 *   memcpy        the record copied into a per-CPU buffer: the floor
 *   clock         trace_clock_local() alone: the timestamp's share
 *   relay_raw     timestamp, local_irq_save + relay_reserve + copy, as
 *                 blktrace writes, on a plain relay channel
 *   relay_commit  the same with relay_prepare() + copy + relay_commit():
 *                 the record shown to readers only once it is copied
 *   trace_percpu  timestamp, then the provider's write path of a per-CPU
 *                 trace: irqs off, trace_running(), relay_prepare(), copy,
 *                 relay_commit()
 *   trace_global  the same on a global trace, under trace->lock
 *   trace_flight  the same on a per-CPU flight trace that is never read,
 *                 so that it overwrites (laps its buffer) all along
 *   trace_write   timestamp, then trace_write() on a per-CPU trace
 *   tw_state, tw_nest, tw_mark  trace_write()'s inline path built up step
 *                 by step from relay_commit, to measure what each step costs:
 *                 the state and length check (and the channel pointer),
 *                 then the nesting check, then the write-in-progress mark;
 *                 the last is trace_write()'s fast path as the header has
 *                 it
 *   trace_write_global  timestamp, then trace_write() on a global trace
 *   trace_write_hdr  timestamp, then trace_write() on a per-CPU trace with
 *                 record headers (TRACE_RECORD_HEADER): out of line, the
 *                 header's number and time, and its 24 bytes copied too
 *   ftrace_rb     ring_buffer_write() on a per-CPU overwrite ring buffer,
 *                 emptied between batches: it never wraps
 *   ftrace_rb_wrap  the same, never emptied: it laps its buffer
 *
 * Buffer states: the relay kinds other than trace_flight are read (marked
 * consumed) between batches, outside the timed region, and never fill; so
 * is ftrace_rb.  trace_flight and ftrace_rb_wrap are never read and wrap.
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
#include <linux/trace_clock.h>

#define COST_MAX_SIZE	1024
#define COST_SUBBUF	65536
#define COST_NSUBBUF	8
#define COST_RB_SIZE	SZ_1M

static uint sizes[8] = { 16, 64, 256 };
static int n_sizes = 3;
module_param_array(sizes, uint, &n_sizes, 0444);
MODULE_PARM_DESC(sizes, "record sizes in bytes (16 to 1024)");

static uint nr = 100000;
module_param(nr, uint, 0444);
MODULE_PARM_DESC(nr, "timed writes per kind and size");

static uint batch = 512;
module_param(batch, uint, 0444);
MODULE_PARM_DESC(batch, "writes per timed batch (must fit in a buffer)");

static char results[4096];
module_param_string(results, results, sizeof(results), 0444);
MODULE_PARM_DESC(results, "\"R kind= size= writes= total_ns=\" lines");

enum cost_kind {
	K_EMPTY, K_MEMCPY, K_CLOCK, K_RELAY_RAW, K_RELAY_COMMIT, K_TRACE_PERCPU,
	K_TRACE_GLOBAL, K_TRACE_FLIGHT, K_TRACE_WRITE, K_TW_STATE, K_TW_NEST,
	K_TW_MARK, K_TRACE_WRITE_GLOBAL, K_TRACE_WRITE_HDR, K_FTRACE_RB,
	K_FTRACE_RB_WRAP, K_NR
};

static const char *const kind_names[K_NR] = {
	"empty", "memcpy", "clock", "relay_raw", "relay_commit", "trace_percpu",
	"trace_global", "trace_flight", "trace_write", "tw_state", "tw_nest",
	"tw_mark", "trace_write_global", "trace_write_hdr", "ftrace_rb",
	"ftrace_rb_wrap",
};

/* The kinds that are never read, and wrap their buffer. */
static bool kind_wraps(enum cost_kind k)
{
	return k == K_TRACE_FLIGHT || k == K_FTRACE_RB_WRAP;
}

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

/*
 * The provider's write path, as Documentation/trace/relay-trace.rst has
 * it for a provider that writes to trace->rchan itself.
 */
static __always_inline void provider_write(struct trace_info *t, bool global,
					   const void *rec, size_t size)
{
	unsigned long flags;
	void *p;

	local_irq_save(flags);
	if (global)
		raw_spin_lock(&t->lock);
	if (trace_running(t)) {
		p = relay_prepare(t->rchan, size);
		if (p) {
			memcpy(p, rec, size);
			relay_commit(t->rchan, size);
		}
	}
	if (global)
		raw_spin_unlock(&t->lock);
	local_irq_restore(flags);
}

/*
 * trace_write()'s inline path, built up one step at a time from relay_commit:
 * @steps 1 adds the state and length check, 2 the nesting check (is a
 * write in progress on this CPU?), 3 the write-in-progress mark.
 */
static __always_inline void tw_steps(struct trace_info *t, const void *rec,
				     size_t len, int steps)
{
	unsigned long flags;
	void *p;

	local_irq_save(flags);
	/* As trace_write() reads it: pairs with trace_set_write_mode(). */
	if (len - 1 < smp_load_acquire(&t->fast_len) &&
	    (steps < 2 || !__this_cpu_read(trace_write_depth))) {
		if (steps >= 3)
			trace_write_mark();
		p = relay_prepare(t->rchan, len);
		if (p) {
			memcpy(p, rec, len);
			relay_commit(t->rchan, len);
		}
		if (steps >= 3)
			trace_write_unmark();
	}
	local_irq_restore(flags);
}

struct cost_target {
	struct rchan *chan;		/* relay_raw */
	struct trace_info *trace;	/* trace_* */
	struct trace_buffer *rb;	/* ftrace_rb* */
};

static __always_inline void stamp(struct cost_rec *h)
{
	h->ts = trace_clock_local();
}

/*
 * One write of each kind.  Each kind gets a batch loop of its own
 * (DEFINE_COST_BATCH), so that what is timed is its code alone, laid out
 * by the compiler for it, and not a branch of a switch shared by all.
 */
static __always_inline void w_empty(struct cost_target *tg, size_t size)
{
	barrier();
}

static __always_inline void w_memcpy(struct cost_target *tg, size_t size)
{
	memcpy(this_cpu_ptr(memcpy_dst), rec_buf, size);
	barrier();
}

static __always_inline void w_clock(struct cost_target *tg, size_t size)
{
	stamp((struct cost_rec *)rec_buf);
	barrier();
}

static __always_inline void w_relay_raw(struct cost_target *tg, size_t size)
{
	unsigned long flags;
	void *p;

	stamp((struct cost_rec *)rec_buf);
	local_irq_save(flags);
	p = relay_reserve(tg->chan, size);
	if (p)
		memcpy(p, rec_buf, size);
	local_irq_restore(flags);
}

static __always_inline void w_relay_commit(struct cost_target *tg,
					   size_t size)
{
	unsigned long flags;
	void *p;

	stamp((struct cost_rec *)rec_buf);
	local_irq_save(flags);
	p = relay_prepare(tg->chan, size);
	if (p) {
		memcpy(p, rec_buf, size);
		relay_commit(tg->chan, size);
	}
	local_irq_restore(flags);
}

static __always_inline void w_trace_percpu(struct cost_target *tg, size_t size)
{
	stamp((struct cost_rec *)rec_buf);
	provider_write(tg->trace, false, rec_buf, size);
}

static __always_inline void w_trace_global(struct cost_target *tg, size_t size)
{
	stamp((struct cost_rec *)rec_buf);
	provider_write(tg->trace, true, rec_buf, size);
}

static __always_inline void w_trace_write(struct cost_target *tg, size_t size)
{
	stamp((struct cost_rec *)rec_buf);
	trace_write(tg->trace, rec_buf, size);
}

static __always_inline void w_tw_state(struct cost_target *tg, size_t size)
{
	stamp((struct cost_rec *)rec_buf);
	tw_steps(tg->trace, rec_buf, size, 1);
}

static __always_inline void w_tw_nest(struct cost_target *tg, size_t size)
{
	stamp((struct cost_rec *)rec_buf);
	tw_steps(tg->trace, rec_buf, size, 2);
}

static __always_inline void w_tw_mark(struct cost_target *tg, size_t size)
{
	stamp((struct cost_rec *)rec_buf);
	tw_steps(tg->trace, rec_buf, size, 3);
}

static __always_inline void w_ftrace_rb(struct cost_target *tg, size_t size)
{
	ring_buffer_write(tg->rb, size, rec_buf);
}

/* batch_KIND(): @n writes of KIND, interrupts off; the time they took. */
#define DEFINE_COST_BATCH(kind)						\
static noinline u64 batch_##kind(struct cost_target *tg, size_t size,	\
				 unsigned int n)			\
{									\
	struct cost_rec *h = (struct cost_rec *)rec_buf;		\
	unsigned int i;							\
	u64 t0;								\
									\
	t0 = local_clock();						\
	for (i = 0; i < n; i++) {					\
		h->seq++;						\
		w_##kind(tg, size);					\
	}								\
	return local_clock() - t0;					\
}

DEFINE_COST_BATCH(empty)
DEFINE_COST_BATCH(memcpy)
DEFINE_COST_BATCH(clock)
DEFINE_COST_BATCH(relay_raw)
DEFINE_COST_BATCH(relay_commit)
DEFINE_COST_BATCH(trace_percpu)
DEFINE_COST_BATCH(trace_global)
DEFINE_COST_BATCH(trace_write)
DEFINE_COST_BATCH(tw_state)
DEFINE_COST_BATCH(tw_nest)
DEFINE_COST_BATCH(tw_mark)
DEFINE_COST_BATCH(ftrace_rb)

typedef u64 (*cost_batch_fn)(struct cost_target *tg, size_t size,
			     unsigned int n);

static const cost_batch_fn kind_batch[K_NR] = {
	[K_EMPTY]		= batch_empty,
	[K_MEMCPY]		= batch_memcpy,
	[K_CLOCK]		= batch_clock,
	[K_RELAY_RAW]		= batch_relay_raw,
	[K_RELAY_COMMIT]	= batch_relay_commit,
	[K_TRACE_PERCPU]	= batch_trace_percpu,
	[K_TRACE_GLOBAL]	= batch_trace_global,
	[K_TRACE_FLIGHT]	= batch_trace_percpu,
	[K_TRACE_WRITE]		= batch_trace_write,
	[K_TW_STATE]		= batch_tw_state,
	[K_TW_NEST]		= batch_tw_nest,
	[K_TW_MARK]		= batch_tw_mark,
	[K_TRACE_WRITE_GLOBAL]	= batch_trace_write,
	[K_TRACE_WRITE_HDR]	= batch_trace_write,
	[K_FTRACE_RB]		= batch_ftrace_rb,
	[K_FTRACE_RB_WRAP]	= batch_ftrace_rb,
};

/* Empty the buffers, as a reader would, outside the timed region. */
static void drain(enum cost_kind k, struct cost_target *tg)
{
	struct rchan *chan = tg->chan ? tg->chan :
			     (tg->trace ? tg->trace->rchan : NULL);
	unsigned int cpu;

	if (kind_wraps(k))
		return;
	if (tg->rb)
		ring_buffer_reset(tg->rb);
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
	case K_RELAY_COMMIT:
		tg->chan = relay_open("raw", raw_dir, COST_SUBBUF, COST_NSUBBUF,
				      &raw_callbacks, NULL);
		return tg->chan ? 0 : -ENOMEM;
	case K_TRACE_GLOBAL:
	case K_TRACE_WRITE_GLOBAL:
		flags = TRACE_GLOBAL_CHANNEL;
		break;
	case K_TRACE_FLIGHT:
		flags = TRACE_FLIGHT_CHANNEL;
		break;
	case K_TRACE_WRITE_HDR:
		flags = TRACE_RECORD_HEADER;
		break;
	case K_TRACE_PERCPU:
	case K_TRACE_WRITE:
	case K_TW_STATE:
	case K_TW_NEST:
	case K_TW_MARK:
		break;
	case K_FTRACE_RB:
	case K_FTRACE_RB_WRAP:
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

/*
 * Check that a wrapping kind did wrap, and that the others never filled
 * their buffer: the ring buffer counts overruns, a flight trace's buffer
 * has produced more sub-buffers than it holds, and a non-flight trace
 * counts what it dropped.  (relay_raw is drained exactly as the trace
 * kinds are.)
 */
static int check_state(enum cost_kind k, struct cost_target *tg, size_t size)
{
	struct rchan_buf *buf;
	bool wrapped = false;

	if (tg->rb) {
		wrapped = ring_buffer_overruns(tg->rb) > 0;
	} else if (tg->trace && (tg->trace->flags & TRACE_FLIGHT_CHANNEL)) {
		buf = *per_cpu_ptr(tg->trace->rchan->buf, smp_processor_id());
		wrapped = buf->subbufs_produced >= COST_NSUBBUF;
	} else if (tg->trace && atomic_long_read(&tg->trace->dropped)) {
		pr_err("%s %zu: %ld records dropped\n", kind_names[k], size,
		       atomic_long_read(&tg->trace->dropped));
		return -EIO;
	}
	if (kind_wraps(k) != wrapped) {
		pr_err("%s %zu: the buffer %s, but the comparison needs it %s\n",
		       kind_names[k], size,
		       wrapped ? "wrapped" : "did not wrap",
		       wrapped ? "not to" : "to");
		return -EIO;
	}
	return 0;
}

static u64 measure(enum cost_kind k, struct cost_target *tg, size_t size)
{
	cost_batch_fn batch_fn = kind_batch[k];
	unsigned long flags;
	unsigned int done;
	u64 total = 0;

	/* One untimed batch to warm caches and fault in buffer pages. */
	batch_fn(tg, size, batch);
	drain(k, tg);

	/*
	 * Interrupts are off for each timed batch, so that no interrupt
	 * lands in it: what is timed is the write path alone, and with
	 * -icount it is the same instruction count in every boot.
	 */
	for (done = 0; done < nr; done += batch) {
		local_irq_save(flags);
		total += batch_fn(tg, size, min(batch, nr - done));
		local_irq_restore(flags);
		drain(k, tg);
	}
	return total;
}

static int __init relay_cost_init(void)
{
	struct cost_target tg;
	size_t len = 0;
	int s, ret = 0;
	enum cost_kind k;

	for (s = 0; s < n_sizes; s++) {
		if (sizes[s] < sizeof(struct cost_rec) ||
		    sizes[s] > COST_MAX_SIZE ||
		    (u64)batch * sizes[s] > (u64)COST_SUBBUF * (COST_NSUBBUF - 1) ||
		    (u64)batch * (sizes[s] + 16) > COST_RB_SIZE / 2) {
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

	for (k = 0; k < K_NR && !ret; k++) {
		for (s = 0; s < n_sizes && !ret; s++) {
			u64 t;

			ret = setup(k, &tg);
			if (ret) {
				pr_err("%s: setup failed: %d\n", kind_names[k],
				       ret);
				teardown(&tg);
				break;
			}
			t = measure(k, &tg, sizes[s]);
			ret = check_state(k, &tg, sizes[s]);
			teardown(&tg);
			len += scnprintf(results + len, sizeof(results) - len,
					 "R kind=%s size=%u writes=%u total_ns=%llu\n",
					 kind_names[k], sizes[s], nr, t);
		}
	}
	debugfs_remove(raw_dir);
	return ret;
}

static void __exit relay_cost_exit(void)
{
}

module_init(relay_cost_init);
module_exit(relay_cost_exit);
MODULE_DESCRIPTION("Deterministic cost of the relay_trace write path");
MODULE_LICENSE("GPL");
