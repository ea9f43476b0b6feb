// SPDX-License-Identifier: GPL-2.0
/*
 * relay_cost - deterministic cost of one write through the trace layer and
 * its comparators
 *
 * Meant for a guest booted with -icount shift=0,sleep=off and one CPU,
 * where local_clock() counts executed instructions: the figures are then
 * the same from boot to boot.  At load time it times @nr writes of each
 * record size in @sizes for every kind below up to ftrace_event_off, with
 * interrupts off, in batches of @batch writes, and publishes one line per
 * kind and size in the read-only parameter "results":
 *
 *   R kind=KIND size=BYTES writes=N total_ns=T
 *
 * The kinds that write into an ftrace instance (ftrace_event,
 * trace_array_printk) are timed when the instance's name is written to
 * the parameter "instance", once the guest has created the instance and
 * enabled the event relay_cost:relay_cost_rec in it, and in it only: an
 * event can be enabled only once its module is loaded.  Their lines go to
 * "instance_results".
 *
 * The kind bpf_ringbuf is timed when anything is written to the parameter
 * "bpf", once user space (bench-ringbuf --tracepoint relay_cost_rec) has
 * attached its BPF program to the tracepoint relay_cost_rec and the event
 * is enabled in no ftrace buffer: the tracepoint's one probe must be the
 * BPF program's.  Its lines go to "bpf_results".
 *
 * The kind lttng is timed when anything is written to the parameter
 * "lttng", once an LTTng kernel session records the event relay_cost_rec
 * (through lttng-probe-relay-cost.ko, vm/lttng) and nothing else is on
 * the tracepoint.  Its lines go to "lttng_results".
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
 *   relay_trace_percpu  timestamp, then the provider's write path of a per-CPU
 *                 trace: irqs off, relay_trace_running(), relay_prepare(), copy,
 *                 relay_commit()
 *   relay_trace_global  the same on a global trace, under trace->lock
 *   relay_trace_flight  the same on a per-CPU flight trace that is never read,
 *                 so that it overwrites (laps its buffer) all along
 *   relay_trace_write   timestamp, then relay_trace_write() on a per-CPU trace
 *   tw_state, tw_nest, tw_mark  relay_trace_write()'s inline path built up step
 *                 by step from relay_commit, to measure what each step costs:
 *                 the state and length check (and the channel pointer),
 *                 then the nesting check, then the write-in-progress mark;
 *                 the last is relay_trace_write()'s fast path as the header has
 *                 it
 *   relay_trace_write_global  timestamp, then relay_trace_write() on a global trace
 *   relay_trace_write_hdr  timestamp, then relay_trace_write() on a per-CPU trace with
 *                 record headers (RELAY_TRACE_RECORD_HEADER): out of line, the
 *                 header's number and time, and its 24 bytes copied too
 *   ftrace_rb     ring_buffer_write() on a per-CPU overwrite ring buffer,
 *                 emptied between batches: it never wraps
 *   ftrace_rb_wrap  the same, never emptied: it laps its buffer
 *   relay_trace_printf  timestamp, then relay_trace_printf() on a per-CPU trace: the
 *                 record as a line of text (COST_TEXT_FMT: its sequence
 *                 number, its time, its payload as characters)
 *   ftrace_event_off  the tracepoint of the event relay_cost_rec
 *                 (relay_cost_trace.h) with the event enabled nowhere: the
 *                 test of its static key alone
 *   ftrace_event  the same event enabled in the ftrace instance named by
 *                 the "instance" parameter, and nowhere else: the record
 *                 copied into the instance's ring buffer, which stamps it,
 *                 as the kernel's own TRACE_EVENT()s write
 *   trace_array_printk  timestamp, then trace_array_printk() into that
 *                 instance with relay_trace_printf's format and arguments: a text
 *                 record, which the ring buffer stamps too
 *   bpf_ringbuf   timestamp, then the same tracepoint with a BPF program
 *                 attached to it as a raw tracepoint, and nothing else:
 *                 the program (bench-ringbuf's) reserves the record in a
 *                 BPF ring buffer, copies it there and submits it, as the
 *                 BPF peer of make bench writes
 *   lttng         the same tracepoint with LTTng's probe on it, and
 *                 nothing else: the record written into the session's
 *                 per-CPU ring buffer, which stamps it, as the LTTng peer
 *                 of make bench writes; no stamp() of its own, as
 *                 ftrace_event
 *
 * Buffer states: the relay kinds other than relay_trace_flight are read (marked
 * consumed) between batches, outside the timed region, and never fill; so
 * is ftrace_rb.  relay_trace_flight and ftrace_rb_wrap are never read and wrap.
 * The instance's ring buffer (ftrace_event, trace_array_printk) is emptied
 * between batches as ftrace_rb is, and every batch must leave all its
 * records in it, none overwritten.  The BPF ring buffer (bpf_ringbuf) is
 * large enough for every record of the stage and read by no one while it
 * is timed; user space checks that the program saw every write and its
 * ring buffer refused none (bench-ringbuf --no-check's tally line).
 * So is LTTng's (lttng): a discard-mode channel of the session's, which
 * user space sizes for every record of the stage and checks after it,
 * every write recorded, none discarded (cost.sh).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/relay.h>
#include <linux/relay_trace.h>
#include <linux/ring_buffer.h>
#include <linux/sched/clock.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/trace.h>
#include <linux/trace_clock.h>
#include <linux/trace_events.h>
#include <linux/tracepoint.h>

#define CREATE_TRACE_POINTS
#include "relay_cost_trace.h"

/*
 * Two batch functions call the tracepoint (ftrace_event's, which lttng
 * shares, and bpf_ringbuf's): GCC would then call trace_relay_cost_rec()
 * out of line in both, as it inlines it where it is called once, and the
 * cpu_online() in it too (6.1 has it inline, 6.12 __always_inline).  Both
 * inlined in each, as in a user of the tracepoint that calls it once: the
 * code of ftrace_event stays the same.
 */
static __always_inline void trace_relay_cost_rec(const void *rec, u32 len);
static __always_inline bool cpu_online(unsigned int cpu);

#define COST_MAX_SIZE	1024
#define COST_SUBBUF	65536
#define COST_NSUBBUF	8
#define COST_RB_SIZE	SZ_1M
#define COST_INSTANCE_MAX 64
/* LTTng's probe of the tracepoint, as %ps prints it (vm/lttng builds it). */
#define COST_LTTNG_PROBE "__event_probe__relay_cost_rec [lttng_probe_relay_cost]"

/*
 * The text record of relay_trace_printf and trace_array_printk: the record's
 * sequence number in decimal, its time in hex, and its payload as
 * characters (0x5a, 'Z').  At most 20 bytes longer than the record
 * ("seq=", 10 digits, " ts=", 16 digits, " " and "\n" for its 16-byte
 * header), and relay_trace_printf() refuses a line of 512 bytes or more.  The
 * time in hex, so that what formatting it costs depends on its number of
 * digits alone (decimal takes paths that depend on the digits, and the
 * time is not quite the same from boot to boot).
 */
#define COST_TEXT_FMT	"seq=%u ts=%llx %.*s\n"
#define COST_TEXT_OVER	20
#define COST_TEXT_MAX	511

static uint sizes[8] = { 16, 64, 256 };
static int n_sizes = 3;
module_param_array(sizes, uint, &n_sizes, 0444);
MODULE_PARM_DESC(sizes, "record sizes in bytes (16 to 491: a line of text of relay_trace_printf's)");

static uint nr = 100000;
module_param(nr, uint, 0444);
MODULE_PARM_DESC(nr, "timed writes per kind and size");

static uint batch = 512;
module_param(batch, uint, 0444);
MODULE_PARM_DESC(batch, "writes per timed batch (must fit in a buffer)");

static char results[4096];
module_param_string(results, results, sizeof(results), 0444);
MODULE_PARM_DESC(results, "\"R kind= size= writes= total_ns=\" lines");

static char instance_results[1024];
module_param_string(instance_results, instance_results,
		    sizeof(instance_results), 0444);
MODULE_PARM_DESC(instance_results, "the same, of the kinds that write into an ftrace instance");

static char bpf_results[512];
module_param_string(bpf_results, bpf_results, sizeof(bpf_results), 0444);
MODULE_PARM_DESC(bpf_results, "the same, of the kind with a BPF program on the tracepoint");

static char lttng_results[512];
module_param_string(lttng_results, lttng_results, sizeof(lttng_results), 0444);
MODULE_PARM_DESC(lttng_results, "the same, of the kind with LTTng's probe on the tracepoint");

/* The ftrace instance the "instance" parameter named last. */
static char instance[COST_INSTANCE_MAX];

enum cost_kind {
	K_EMPTY, K_MEMCPY, K_CLOCK, K_RELAY_RAW, K_RELAY_COMMIT, K_RELAY_TRACE_PERCPU,
	K_RELAY_TRACE_GLOBAL, K_RELAY_TRACE_FLIGHT, K_RELAY_TRACE_WRITE, K_TW_STATE, K_TW_NEST,
	K_TW_MARK, K_RELAY_TRACE_WRITE_GLOBAL, K_RELAY_TRACE_WRITE_HDR, K_FTRACE_RB,
	K_FTRACE_RB_WRAP, K_RELAY_TRACE_PRINTF, K_FTRACE_EVENT_OFF,
	/* The kinds that write into an ftrace instance, from here on. */
	K_FTRACE_EVENT, K_TRACE_ARRAY_PRINTK,
	/* The kind with a BPF program on the tracepoint. */
	K_BPF_RINGBUF,
	/* The kind with LTTng's probe on the tracepoint. */
	K_LTTNG, K_NR
};

#define K_FIRST_INSTANCE K_FTRACE_EVENT
#define K_FIRST_BPF K_BPF_RINGBUF
#define K_FIRST_LTTNG K_LTTNG

static const char *const kind_names[K_NR] = {
	"empty", "memcpy", "clock", "relay_raw", "relay_commit", "relay_trace_percpu",
	"relay_trace_global", "relay_trace_flight", "relay_trace_write", "tw_state", "tw_nest",
	"tw_mark", "relay_trace_write_global", "relay_trace_write_hdr", "ftrace_rb",
	"ftrace_rb_wrap", "relay_trace_printf", "ftrace_event_off", "ftrace_event",
	"trace_array_printk", "bpf_ringbuf", "lttng",
};

/* The kinds that are never read, and wrap their buffer. */
static bool kind_wraps(enum cost_kind k)
{
	return k == K_RELAY_TRACE_FLIGHT || k == K_FTRACE_RB_WRAP;
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
static __always_inline void provider_write(struct relay_trace *t, bool global,
					   const void *rec, size_t size)
{
	unsigned long flags;
	void *p;

	local_irq_save(flags);
	if (global)
		raw_spin_lock(&t->lock);
	if (relay_trace_running(t)) {
		p = relay_prepare(t->rchan, size);
		if (!IS_ERR(p)) {
			memcpy(p, rec, size);
			relay_commit(t->rchan, p, size);
		} else {
			atomic_long_inc(PTR_ERR(p) == -ENOSPC ?
					&t->dropped : &t->refused);
		}
	}
	if (global)
		raw_spin_unlock(&t->lock);
	local_irq_restore(flags);
}

/*
 * relay_trace_write()'s inline path, built up one step at a time from
 * relay_commit: @steps 1 adds the state and length check (and
 * relay_trace_write()'s result: 0, or relay_prepare()'s error counted), 2
 * the nesting check (is a write in progress on this CPU?), 3 the
 * write-in-progress mark.
 */
static __always_inline int tw_steps(struct relay_trace *t, const void *rec,
				    size_t len, int steps)
{
	unsigned long flags;
	void *p;

	local_irq_save(flags);
	/* As relay_trace_write() reads it: pairs with relay_trace_set_write_mode(). */
	if (len - 1 < smp_load_acquire(&t->fast_len) &&
	    (steps < 2 || (!__this_cpu_read(relay_trace_write_depth) &&
			   !relay_trace_nmi_unsafe()))) {
		if (steps >= 3)
			relay_trace_write_mark();
		p = relay_prepare(t->rchan, len);
		if (!IS_ERR(p)) {
			memcpy(p, rec, len);
			relay_commit(t->rchan, p, len);
		}
		if (steps >= 3)
			relay_trace_write_unmark();
		local_irq_restore(flags);
		if (!IS_ERR(p))
			return 0;
		return __relay_trace_write_lost(t, PTR_ERR(p));
	}
	local_irq_restore(flags);
	return -EAGAIN;
}

struct cost_target {
	struct rchan *chan;		/* relay_raw */
	struct relay_trace *trace;	/* relay_trace_* */
	struct trace_buffer *rb;	/* ftrace_rb*, and the instance's */
	struct trace_array *tr;		/* the instance */
	int err;			/* a batch that left the wrong records */
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
	if (!IS_ERR(p)) {
		memcpy(p, rec_buf, size);
		relay_commit(tg->chan, p, size);
	}
	local_irq_restore(flags);
}

static __always_inline void w_relay_trace_percpu(struct cost_target *tg, size_t size)
{
	stamp((struct cost_rec *)rec_buf);
	provider_write(tg->trace, false, rec_buf, size);
}

static __always_inline void w_relay_trace_global(struct cost_target *tg, size_t size)
{
	stamp((struct cost_rec *)rec_buf);
	provider_write(tg->trace, true, rec_buf, size);
}

static __always_inline void w_relay_trace_write(struct cost_target *tg, size_t size)
{
	stamp((struct cost_rec *)rec_buf);
	relay_trace_write(tg->trace, rec_buf, size);
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

static __always_inline void w_relay_trace_printf(struct cost_target *tg, size_t size)
{
	struct cost_rec *h = (struct cost_rec *)rec_buf;

	stamp(h);
	relay_trace_printf(tg->trace, COST_TEXT_FMT, h->seq, h->ts,
			   (int)(size - sizeof(*h)), rec_buf + sizeof(*h));
}

static __always_inline void w_ftrace_event(struct cost_target *tg, size_t size)
{
	trace_relay_cost_rec(rec_buf, size);
}

static __always_inline void w_trace_array_printk(struct cost_target *tg,
						 size_t size)
{
	struct cost_rec *h = (struct cost_rec *)rec_buf;

	stamp(h);
	trace_array_printk(tg->tr, _THIS_IP_, COST_TEXT_FMT, h->seq, h->ts,
			   (int)(size - sizeof(*h)), rec_buf + sizeof(*h));
}

static __always_inline void w_bpf_ringbuf(struct cost_target *tg, size_t size)
{
	stamp((struct cost_rec *)rec_buf);
	trace_relay_cost_rec(rec_buf, size);
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
DEFINE_COST_BATCH(relay_trace_percpu)
DEFINE_COST_BATCH(relay_trace_global)
DEFINE_COST_BATCH(relay_trace_write)
DEFINE_COST_BATCH(tw_state)
DEFINE_COST_BATCH(tw_nest)
DEFINE_COST_BATCH(tw_mark)
DEFINE_COST_BATCH(ftrace_rb)
DEFINE_COST_BATCH(relay_trace_printf)
DEFINE_COST_BATCH(ftrace_event)
DEFINE_COST_BATCH(trace_array_printk)
DEFINE_COST_BATCH(bpf_ringbuf)

typedef u64 (*cost_batch_fn)(struct cost_target *tg, size_t size,
			     unsigned int n);

static const cost_batch_fn kind_batch[K_NR] = {
	[K_EMPTY]		= batch_empty,
	[K_MEMCPY]		= batch_memcpy,
	[K_CLOCK]		= batch_clock,
	[K_RELAY_RAW]		= batch_relay_raw,
	[K_RELAY_COMMIT]	= batch_relay_commit,
	[K_RELAY_TRACE_PERCPU]	= batch_relay_trace_percpu,
	[K_RELAY_TRACE_GLOBAL]	= batch_relay_trace_global,
	[K_RELAY_TRACE_FLIGHT]	= batch_relay_trace_percpu,
	[K_RELAY_TRACE_WRITE]		= batch_relay_trace_write,
	[K_TW_STATE]		= batch_tw_state,
	[K_TW_NEST]		= batch_tw_nest,
	[K_TW_MARK]		= batch_tw_mark,
	[K_RELAY_TRACE_WRITE_GLOBAL]	= batch_relay_trace_write,
	[K_RELAY_TRACE_WRITE_HDR]	= batch_relay_trace_write,
	[K_FTRACE_RB]		= batch_ftrace_rb,
	[K_FTRACE_RB_WRAP]	= batch_ftrace_rb,
	[K_RELAY_TRACE_PRINTF]	= batch_relay_trace_printf,
	[K_FTRACE_EVENT_OFF]	= batch_ftrace_event,
	[K_FTRACE_EVENT]	= batch_ftrace_event,
	[K_TRACE_ARRAY_PRINTK]	= batch_trace_array_printk,
	[K_BPF_RINGBUF]		= batch_bpf_ringbuf,
	[K_LTTNG]		= batch_ftrace_event,
};

/*
 * Empty the buffers, as a reader would, outside the timed region, after a
 * batch of @n writes.  The instance's buffer must hold all @n records of
 * the batch, none overwritten: anything else, such as the event enabled
 * elsewhere or the instance's buffer too small, is a wrong measurement.
 */
static void drain(enum cost_kind k, struct cost_target *tg, unsigned int n)
{
	struct rchan *chan = tg->chan ? tg->chan :
			     (tg->trace ? tg->trace->rchan : NULL);
	unsigned long entries, overruns;
	unsigned int cpu;

	if (kind_wraps(k))
		return;
	if (tg->tr && !tg->err) {
		entries = ring_buffer_entries(tg->rb);
		overruns = ring_buffer_overruns(tg->rb);
		if (entries != n || overruns) {
			pr_err("%s: a batch of %u writes left %lu records in instances/%s, %lu overwritten\n",
			       kind_names[k], n, entries, instance, overruns);
			tg->err = -EIO;
		}
	}
	if (tg->rb)
		ring_buffer_reset(tg->rb);
	if (!chan)
		return;
	for_each_online_cpu(cpu)
		relay_subbufs_consumed(chan, cpu, COST_NSUBBUF);
}

/*
 * The file of the event relay_cost_rec in the instance @tr, if the event
 * is enabled there and nowhere else: the tracepoint has one probe, the
 * trace event's, and its data is that file.  No filter, trigger or pid
 * filter, which would change what is timed.
 */
static struct trace_event_file *instance_event_file(struct trace_array *tr)
{
	struct trace_event_file *file = NULL;
	struct tracepoint_func *f;
	int probes = 0;

	rcu_read_lock_sched();
	f = rcu_dereference_sched(__tracepoint_relay_cost_rec.funcs);
	for (; f && f->func; f++, probes++)
		if (f->func == (void *)trace_event_raw_event_relay_cost_rec)
			file = f->data;
	rcu_read_unlock_sched();
	if (probes != 1 || !file || file->tr != tr) {
		pr_err("ftrace_event: enable relay_cost:relay_cost_rec in instances/%s and nowhere else (%d probes on it)\n",
		       instance, probes);
		return ERR_PTR(-EINVAL);
	}
	if (file->flags & (EVENT_FILE_FL_FILTERED | EVENT_FILE_FL_SOFT_MODE |
			   EVENT_FILE_FL_SOFT_DISABLED |
			   EVENT_FILE_FL_TRIGGER_MODE |
			   EVENT_FILE_FL_PID_FILTER)) {
		pr_err("ftrace_event: relay_cost:relay_cost_rec has a filter or a trigger in instances/%s\n",
		       instance);
		return ERR_PTR(-EINVAL);
	}
	return file;
}

/*
 * The instance named by the "instance" parameter, and its ring buffer, to
 * empty between batches and count the records of each: an event reserved
 * in it through the event's file, and discarded at once, tells which.
 */
static int instance_setup(enum cost_kind k, struct cost_target *tg)
{
	struct trace_event_file *file;
	struct trace_event_buffer fb;

#ifdef TRACE_ARRAY_GET_SYSTEMS
	tg->tr = trace_array_get_by_name(instance, NULL);
#else
	tg->tr = trace_array_get_by_name(instance);
#endif
	if (!tg->tr)
		return -ENOMEM;
	file = instance_event_file(tg->tr);
	if (IS_ERR(file))
		return PTR_ERR(file);
	preempt_disable();
	if (trace_event_buffer_reserve(&fb, file, sizeof(u32))) {
		tg->rb = fb.buffer;
		ring_buffer_discard_commit(fb.buffer, fb.event);
	}
	preempt_enable();
	if (!tg->rb)
		return -EIO;
	ring_buffer_reset(tg->rb);
	return k == K_TRACE_ARRAY_PRINTK ? trace_array_init_printk(tg->tr) : 0;
}

/*
 * A BPF program attached to the raw tracepoint is probed through
 * __bpf_trace_relay_cost_rec(), which only a kernel with BPF_EVENTS has
 * (the test kernel's vm/config/peers.fragment; not the debug, KCSAN or RT
 * kernels, which build this module too but do not time bpf_ringbuf).
 */
static void *bpf_probe_func(void)
{
#ifdef CONFIG_BPF_EVENTS
	return __bpf_trace_relay_cost_rec;
#else
	return NULL;
#endif
}

static bool is_bpf_probe(void *func)
{
	return bpf_probe_func() && func == bpf_probe_func();
}

static bool is_lttng_probe(void *func)
{
	char name[KSYM_SYMBOL_LEN];

	snprintf(name, sizeof(name), "%ps", func);
	return !strcmp(name, COST_LTTNG_PROBE);
}

/*
 * The tracepoint's probes: how many there are (the return value), and in
 * @ours how many @is_ours() claims.
 */
static int count_probes(bool (*is_ours)(void *func), int *ours)
{
	struct tracepoint_func *f;
	int probes = 0;

	*ours = 0;
	rcu_read_lock_sched();
	f = rcu_dereference_sched(__tracepoint_relay_cost_rec.funcs);
	for (; f && f->func; f++, probes++)
		if (is_ours(f->func))
			(*ours)++;
	rcu_read_unlock_sched();
	return probes;
}

/*
 * bpf_ringbuf: the tracepoint's one probe must be a BPF program's, attached
 * as a raw tracepoint (its probe function is bpf_probe_func(), its data the
 * program or its link): the event enabled in no ftrace buffer, no other
 * program or probe on it.
 */
static int bpf_probe_check(void)
{
	int bpf, probes = count_probes(is_bpf_probe, &bpf);

	if (probes != 1 || bpf != 1) {
		pr_err("bpf_ringbuf: attach one BPF program to the raw tracepoint relay_cost_rec, and disable relay_cost:relay_cost_rec everywhere (%d probes on it, %d of BPF)\n",
		       probes, bpf);
		return -EINVAL;
	}
	return 0;
}

/*
 * lttng: the tracepoint's one probe must be LTTng's, COST_LTTNG_PROBE,
 * registered when an LTTng session enabled the event: the event enabled
 * in no ftrace buffer, no BPF program on it.
 */
static int lttng_probe_check(void)
{
	int lttng, probes = count_probes(is_lttng_probe, &lttng);

	if (probes != 1 || lttng != 1) {
		pr_err("lttng: enable relay_cost_rec in one LTTng kernel session, and nowhere else (%d probes on it, %d of %s)\n",
		       probes, lttng, COST_LTTNG_PROBE);
		return -EINVAL;
	}
	return 0;
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
	case K_RELAY_TRACE_GLOBAL:
	case K_RELAY_TRACE_WRITE_GLOBAL:
		flags = RELAY_TRACE_GLOBAL_CHANNEL;
		break;
	case K_RELAY_TRACE_FLIGHT:
		flags = RELAY_TRACE_FLIGHT_CHANNEL;
		break;
	case K_RELAY_TRACE_WRITE_HDR:
		flags = RELAY_TRACE_RECORD_HEADER;
		break;
	case K_RELAY_TRACE_PERCPU:
	case K_RELAY_TRACE_WRITE:
	case K_TW_STATE:
	case K_TW_NEST:
	case K_TW_MARK:
	case K_RELAY_TRACE_PRINTF:
		break;
	case K_FTRACE_RB:
	case K_FTRACE_RB_WRAP:
		tg->rb = ring_buffer_alloc(COST_RB_SIZE, RB_FL_OVERWRITE);
		return tg->rb ? 0 : -ENOMEM;
	case K_FTRACE_EVENT_OFF:
		if (trace_relay_cost_rec_enabled()) {
			pr_err("ftrace_event_off: relay_cost:relay_cost_rec is enabled\n");
			return -EBUSY;
		}
		return 0;
	case K_FTRACE_EVENT:
	case K_TRACE_ARRAY_PRINTK:
		return instance_setup(k, tg);
	case K_BPF_RINGBUF:
		return bpf_probe_check();
	case K_LTTNG:
		return lttng_probe_check();
	default:
		return 0;
	}
	tg->trace = relay_trace_setup("relay_cost", kind_names[k], COST_SUBBUF,
				      COST_NSUBBUF, flags);
	if (!tg->trace)
		return -ENOMEM;
	return relay_trace_start(tg->trace);
}

static void teardown(struct cost_target *tg)
{
	relay_close(tg->chan);
	relay_trace_cleanup(tg->trace);
	if (tg->tr)
		trace_array_put(tg->tr);
	else if (tg->rb)
		ring_buffer_free(tg->rb);
}

/*
 * Check that a wrapping kind did wrap, and that the others never filled
 * their buffer: the ring buffer counts overruns, a flight trace's buffer
 * has produced more sub-buffers than it holds, and a non-flight trace
 * counts what it dropped.  (relay_raw is drained exactly as the trace
 * kinds are.)  A trace must have refused nothing, and the instance's
 * batches must have left all their records (drain()).
 */
static int check_state(enum cost_kind k, struct cost_target *tg, size_t size)
{
	struct rchan_buf *buf;
	bool wrapped = false;

	if (tg->err)
		return tg->err;
	if (tg->trace && atomic_long_read(&tg->trace->refused)) {
		pr_err("%s %zu: %ld records refused\n", kind_names[k], size,
		       atomic_long_read(&tg->trace->refused));
		return -EIO;
	}
	if (tg->rb) {
		wrapped = ring_buffer_overruns(tg->rb) > 0;
	} else if (tg->trace && (tg->trace->flags & RELAY_TRACE_FLIGHT_CHANNEL)) {
		buf = *per_cpu_ptr(tg->trace->rchan->buf, smp_processor_id());
		/* Counted from first_sub (CONFIG_DEBUG_RELAY: near a wrap). */
		wrapped = atomic64_read(&buf->subbufs_produced) -
			  buf->first_sub >= COST_NSUBBUF;
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
	drain(k, tg, batch);

	/*
	 * Interrupts are off for each timed batch, so that no interrupt
	 * lands in it: what is timed is the write path alone, and with
	 * -icount it is the same instruction count in every boot.
	 */
	for (done = 0; done < nr; done += batch) {
		local_irq_save(flags);
		total += batch_fn(tg, size, min(batch, nr - done));
		local_irq_restore(flags);
		drain(k, tg, min(batch, nr - done));
	}
	return total;
}

/*
 * Time the kinds from @first to before @last, every size, and publish a
 * line of each in @out; stop at the first that fails its setup or check.
 */
static int run_kinds(enum cost_kind first, enum cost_kind last, char *out,
		     size_t out_size)
{
	struct cost_target tg;
	enum cost_kind k;
	size_t len = 0;
	int s, ret = 0;

	out[0] = '\0';
	for (k = first; k < last && !ret; k++) {
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
			len += scnprintf(out + len, out_size - len,
					 "R kind=%s size=%u writes=%u total_ns=%llu\n",
					 kind_names[k], sizes[s], nr, t);
			/* Room for the newline the parameter's read adds. */
			if (len + 2 >= out_size) {
				pr_err("%s: no room left for the results\n",
				       kind_names[k]);
				ret = -ENOSPC;
			}
		}
	}
	return ret;
}

static bool loaded;

/* Writing an instance's name times the kinds that write into it. */
static int instance_set(const char *val, const struct kernel_param *kp)
{
	if (!loaded)
		return -EBUSY;
	if (strscpy(instance, val, sizeof(instance)) < 0)
		return -E2BIG;
	strim(instance);
	return run_kinds(K_FIRST_INSTANCE, K_FIRST_BPF, instance_results,
			 sizeof(instance_results));
}

static const struct kernel_param_ops instance_ops = {
	.set = instance_set,
};

module_param_cb(instance, &instance_ops, NULL, 0200);
MODULE_PARM_DESC(instance, "an ftrace instance with relay_cost:relay_cost_rec enabled in it: time the kinds that write into it");

/*
 * Writing anything times bpf_ringbuf, with the BPF program attached to
 * the tracepoint and the event enabled nowhere.
 */
static int bpf_set(const char *val, const struct kernel_param *kp)
{
	if (!loaded)
		return -EBUSY;
	return run_kinds(K_FIRST_BPF, K_FIRST_LTTNG, bpf_results,
			 sizeof(bpf_results));
}

static const struct kernel_param_ops bpf_ops = {
	.set = bpf_set,
};

module_param_cb(bpf, &bpf_ops, NULL, 0200);
MODULE_PARM_DESC(bpf, "write (anything) once a BPF program is attached to the raw tracepoint relay_cost_rec and the event enabled nowhere: time bpf_ringbuf");

/*
 * Writing anything times lttng, with the event recorded by an LTTng
 * session and enabled nowhere else.
 */
static int lttng_set(const char *val, const struct kernel_param *kp)
{
	if (!loaded)
		return -EBUSY;
	return run_kinds(K_FIRST_LTTNG, K_NR, lttng_results,
			 sizeof(lttng_results));
}

static const struct kernel_param_ops lttng_ops = {
	.set = lttng_set,
};

module_param_cb(lttng, &lttng_ops, NULL, 0200);
MODULE_PARM_DESC(lttng, "write (anything) once an LTTng kernel session records relay_cost_rec and nothing else is on the tracepoint: time lttng");

static int __init relay_cost_init(void)
{
	int s, ret;

	for (s = 0; s < n_sizes; s++) {
		if (sizes[s] < sizeof(struct cost_rec) ||
		    sizes[s] + COST_TEXT_OVER > COST_TEXT_MAX ||
		    (u64)batch * (sizes[s] + COST_TEXT_OVER) >
		    (u64)COST_SUBBUF * (COST_NSUBBUF - 1) ||
		    (u64)batch * (sizes[s] + 16) > COST_RB_SIZE / 2) {
			pr_err("size %u: want %zu..%u bytes, and batch*size within a buffer\n",
			       sizes[s], sizeof(struct cost_rec),
			       COST_TEXT_MAX - COST_TEXT_OVER);
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

	ret = run_kinds(K_EMPTY, K_FIRST_INSTANCE, results, sizeof(results));
	debugfs_remove(raw_dir);
	loaded = !ret;
	return ret;
}

static void __exit relay_cost_exit(void)
{
}

module_init(relay_cost_init);
module_exit(relay_cost_exit);
MODULE_DESCRIPTION("Deterministic cost of the relay_trace write path");
MODULE_LICENSE("GPL");
