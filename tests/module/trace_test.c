// SPDX-License-Identifier: GPL-2.0
/*
 * trace_test - a relay trace driven from user space, for the guest tests
 *
 * Sets up @ntraces traces named @name, @name1, ... under @root with the
 * given geometry and flags.  Writing N to /sys/module/trace_test/
 * parameters/emit writes N records "%08u\n" (9 bytes, consecutive
 * sequence numbers) to the first trace with relay_trace_printf(); "written" and
 * "failed" count the outcomes.
 *
 * Writing 1 to try_setup sets up one more trace, "fi", in the caller's
 * context, starts it, checks its files and cleans it up: the fault
 * injection test makes an allocation in there fail.  The write fails with
 * the error relay_trace_setup() or relay_trace_start() documents (-ENOMEM: relay_trace_setup()
 * returned NULL), and fi_setup_null / fi_ok count the outcomes.
 *
 * With writers=1, a kthread on each online CPU writes records of the
 * format of fuzz_rec.h to the first trace, @rate a second each, for
 * relayfuzz (tests/guest/relayfuzz.c), whatever the trace's state: each
 * counts what its writes returned (fz_ok, fz_nospc, fz_busy, fz_again,
 * fz_other, per CPU; a marker written is in none).  Writing 1 to "mark"
 * makes each writer write one marker, trying until it is written, and
 * then stop; reading "mark" counts the markers written.  With flush_us=N, another kthread
 * calls relay_flush() on the trace every N microseconds (0: off), as a
 * relay client may while its trace runs (a global trace's under its
 * lock).  With nest=N (a per-CPU trace, a kernel with CONFIG_KUNIT, which
 * exports relay's switch steps), every N-th batch of a writer begins with
 * a write made inside a switch of its own buffer, as one from an NMI
 * would be: it must be refused (-EBUSY, fz_busy), counted in "refused"
 * and numbered once.  Writing 1 to "close" closes the first trace (its
 * writers stopped, then relay_trace_cleanup()) while its files may be
 * open; writing "poll" closes it from inside the next poll(2) of one of
 * its buffers, where relay_file_poll() calls the KUnit read hook: between
 * getting on the readers' queue and looking at the buffer.  Writing CPU to
 * "jump" takes the buffer of that CPU (any CPU: a global trace's) 2^31 + 2
 * sub-buffers ahead of its readers, on a stopped flight trace.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/prandom.h>
#include <linux/relay_trace.h>
#include <uapi/linux/relay_trace.h>

#include "fuzz_rec.h"

#define MAX_TRACES 4

static char *root = "relay_trace_test";
module_param(root, charp, 0444);
MODULE_PARM_DESC(root, "root directory, in tracefs's relay/");

static char *name = "t";
module_param(name, charp, 0444);
MODULE_PARM_DESC(name, "trace directory name");

static uint flags;
module_param(flags, uint, 0444);
MODULE_PARM_DESC(flags, "relay_trace_setup() flags: 1 global, 2 flight, 4 disable state, 8 record headers");

static uint subbuf_size = 4096;
module_param(subbuf_size, uint, 0444);
MODULE_PARM_DESC(subbuf_size, "sub-buffer size in bytes");

static uint n_subbufs = 8;
module_param(n_subbufs, uint, 0444);
MODULE_PARM_DESC(n_subbufs, "sub-buffers per buffer");

static uint ntraces = 1;
module_param(ntraces, uint, 0444);
MODULE_PARM_DESC(ntraces, "number of traces to set up in the root (1-4)");

static ulong written;
module_param(written, ulong, 0444);
MODULE_PARM_DESC(written, "records written");

static ulong failed;
module_param(failed, ulong, 0444);
MODULE_PARM_DESC(failed, "records refused");

static ulong fi_setup_null;
module_param(fi_setup_null, ulong, 0444);
MODULE_PARM_DESC(fi_setup_null, "try_setup: relay_trace_setup() returned NULL");

static ulong fi_ok;
module_param(fi_ok, ulong, 0444);
MODULE_PARM_DESC(fi_ok, "try_setup: set up, started and cleaned up");

static bool writers;
module_param(writers, bool, 0444);
MODULE_PARM_DESC(writers, "a writer kthread on each online CPU (fuzz_rec.h records)");

static uint rate = 2000;
module_param(rate, uint, 0444);
MODULE_PARM_DESC(rate, "records a second per writer");

static uint flush_us;
module_param(flush_us, uint, 0444);
MODULE_PARM_DESC(flush_us, "relay_flush() every this many microseconds (0: never)");

static uint nest;
module_param(nest, uint, 0444);
MODULE_PARM_DESC(nest, "every this many batches, a write inside a switch of the writer's buffer (per-CPU traces, CONFIG_KUNIT; 0: never)");

static unsigned long fz_ok[FUZZ_WRITERS], fz_nospc[FUZZ_WRITERS],
	fz_busy[FUZZ_WRITERS], fz_again[FUZZ_WRITERS], fz_other[FUZZ_WRITERS];
static unsigned int fz_nr = FUZZ_WRITERS;
module_param_array(fz_ok, ulong, &fz_nr, 0444);
module_param_array(fz_nospc, ulong, &fz_nr, 0444);
module_param_array(fz_busy, ulong, &fz_nr, 0444);
module_param_array(fz_again, ulong, &fz_nr, 0444);
module_param_array(fz_other, ulong, &fz_nr, 0444);
MODULE_PARM_DESC(fz_ok, "per writer: records written");
MODULE_PARM_DESC(fz_nospc, "per writer: -ENOSPC, dropped");
MODULE_PARM_DESC(fz_busy, "per writer: -EBUSY, refused");
MODULE_PARM_DESC(fz_again, "per writer: -EAGAIN, not running or paused");
MODULE_PARM_DESC(fz_other, "per writer: anything else");

static atomic_t marked;
static bool mark_all;
static ulong flushes;
module_param(flushes, ulong, 0444);
MODULE_PARM_DESC(flushes, "relay_flush() calls made");

static struct relay_trace *traces[MAX_TRACES];
static struct task_struct *fz_tasks[FUZZ_WRITERS], *flush_task;
static DEFINE_MUTEX(emit_lock);
static u32 next_seq;

static int emit_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n, i;
	int ret;

	ret = kstrtouint(val, 0, &n);
	if (ret)
		return ret;

	mutex_lock(&emit_lock);
	if (!traces[0]) {
		mutex_unlock(&emit_lock);
		return -ENOENT;
	}
	for (i = 0; i < n; i++) {
		if (relay_trace_printf(traces[0], "%08u\n", next_seq++) > 0)
			written++;
		else
			failed++;
	}
	mutex_unlock(&emit_lock);
	return 0;
}

static const struct kernel_param_ops emit_ops = {
	.set = emit_set,
};
module_param_cb(emit, &emit_ops, NULL, 0200);
MODULE_PARM_DESC(emit, "write this many records");

static int try_setup_set(const char *val, const struct kernel_param *kp)
{
	struct relay_trace *t;
	int ret;

	if (!sysfs_streq(val, "1"))
		return -EINVAL;
	t = relay_trace_setup(root, "fi", 4096, 4, flags);
	if (!t) {
		fi_setup_null++;
		return -ENOMEM;
	}
	ret = relay_trace_start(t);
	if (!ret)
		ret = relay_trace_printf(t, "%08u\n", 0) == 9 ? 0 : -EIO;
	relay_trace_cleanup(t);
	if (!ret)
		fi_ok++;
	return ret;
}

static const struct kernel_param_ops try_setup_ops = {
	.set = try_setup_set,
};
module_param_cb(try_setup, &try_setup_ops, NULL, 0200);
MODULE_PARM_DESC(try_setup, "write 1 to set up, start and clean up a trace");

/* Write one record of fuzz_rec.h's format, of @len payload bytes. */
static int fz_write(unsigned int cpu, u64 n, u32 len, u64 *buf)
{
	u32 i;

	buf[0] = fuzz_word0(cpu, n);
	for (i = 1; i < len / 8; i++)
		buf[i] = fuzz_word(buf[0], i);
	return relay_trace_write(traces[0], buf, len);
}

/* Count what a write returned, in the writer's counters. */
static void fz_count(unsigned int cpu, int ret)
{
	unsigned long *cnt = !ret ? fz_ok : ret == -ENOSPC ? fz_nospc :
			     ret == -EBUSY ? fz_busy : ret == -EAGAIN ?
			     fz_again : fz_other;

	WRITE_ONCE(cnt[cpu], cnt[cpu] + 1);
}

#if IS_ENABLED(CONFIG_KUNIT)
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/*
 * A write of record @n inside a sub-buffer switch of this CPU's buffer, as
 * one from an NMI that came while the writer switched would be: the switch
 * claimed, the write (refused: -EBUSY, counted in refused, numbered once),
 * then the switch done as relay_switch_subbuf() does it.
 */
static int fz_write_in_switch(unsigned int cpu, u64 n, u32 len, u64 *buf)
{
	struct rchan_buf *rbuf;
	unsigned long flags;
	size_t offset;
	int ret;

	local_irq_save(flags);
	rbuf = *this_cpu_ptr(traces[0]->rchan->buf);
	offset = relay_switch_claim(rbuf);
	ret = fz_write(cpu, n, len, buf);
	/* Past subbuf_size + 1 (a refused switch's): another switch has it. */
	if (offset <= rbuf->chan->subbuf_size + 1) {
		relay_switch_finish(rbuf, offset);
		if (relay_switch_start(rbuf))
			relay_switch_open(rbuf);
	}
	local_irq_restore(flags);
	return ret;
}
#else
static int fz_write_in_switch(unsigned int cpu, u64 n, u32 len, u64 *buf)
{
	return fz_write(cpu, n, len, buf);
}
#endif

static int fz_writer(void *data)
{
	unsigned int cpu = (unsigned long)data;
	u64 buf[FUZZ_REC_MAX / 8], n = 0;
	struct rnd_state rnd;
	u32 len, max, i, batch = 0;
	int ret;

	prandom_seed_state(&rnd, cpu + 1);
	max = min_t(u32, FUZZ_REC_MAX, traces[0]->buf_size -
		    sizeof(struct relay_trace_header)) & ~7U;
	while (!kthread_should_stop()) {
		/* A batch of ten, then a pause: @rate a second. */
		for (i = 0; i < 10 && !READ_ONCE(mark_all); i++) {
			len = FUZZ_REC_MIN + 8 * (prandom_u32_state(&rnd) %
						  ((max - FUZZ_REC_MIN) / 8 + 1));
			if (!i && nest && !(++batch % nest) &&
			    relay_trace_running(traces[0]))
				ret = fz_write_in_switch(cpu, n++, len, buf);
			else
				ret = fz_write(cpu, n++, len, buf);
			fz_count(cpu, ret);
		}
		/* The marker, until it is written; then nothing more. */
		if (READ_ONCE(mark_all)) {
			ret = fz_write(cpu, n++, FUZZ_MARK_LEN, buf);
			if (!ret) {
				atomic_inc(&marked);
				break;
			}
			fz_count(cpu, ret);
			usleep_range(1000, 1100);
			continue;
		}
		usleep_range(10000000 / rate, 10000000 / rate + 100);
	}
	while (!kthread_should_stop())
		schedule_timeout_interruptible(HZ / 10);
	return 0;
}

/* relay_flush() in a loop, as a client may call it while its trace runs. */
static int fz_flusher(void *data)
{
	struct relay_trace *t = traces[0];
	unsigned long flags;

	while (!kthread_should_stop()) {
		if (t->flags & RELAY_TRACE_GLOBAL_CHANNEL) {
			raw_spin_lock_irqsave(&t->lock, flags);
			relay_flush(t->rchan);
			raw_spin_unlock_irqrestore(&t->lock, flags);
		} else {
			relay_flush(t->rchan);
		}
		WRITE_ONCE(flushes, flushes + 1);
		usleep_range(flush_us, flush_us + 10);
	}
	return 0;
}

static int mark_set(const char *val, const struct kernel_param *kp)
{
	if (!sysfs_streq(val, "1"))
		return -EINVAL;
	WRITE_ONCE(mark_all, true);
	return 0;
}

static int marked_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read(&marked));
}

static const struct kernel_param_ops mark_ops = {
	.set = mark_set,
	.get = marked_get,
};
module_param_cb(mark, &mark_ops, NULL, 0600);
MODULE_PARM_DESC(mark, "write 1: each writer writes a marker and stops; read: how many did");

static void fz_stop(void);

/* The first trace closed: its writers and flusher stopped, then cleaned up. */
static void close_first(void)
{
	fz_stop();
	relay_trace_cleanup(traces[0]);
	traces[0] = NULL;
}

#if IS_ENABLED(CONFIG_KUNIT)
static struct relay_trace *close_at_poll;

/* In poll(2) of a buffer, between its look and its sleep (see relay.c). */
static void poll_close_hook(struct rchan_buf *buf, int step)
{
	struct relay_trace *t = READ_ONCE(close_at_poll);

	if (step != RELAY_STEP_POLL || !t || buf->chan != t->rchan ||
	    cmpxchg(&close_at_poll, t, NULL) != t)
		return;
	WRITE_ONCE(relay_read_test_hook, NULL);
	close_first();
}
#endif

/*
 * @buf's writer taken 2^31 + 2 sub-buffers ahead of its readers, as the
 * skipped sub-buffers would have left it (readers that did not look for
 * 12 minutes at 3 M records a second in 64-byte sub-buffers): its current
 * sub-buffer finished, its counts and slot moved on.  The trace stopped,
 * with no writer in it; on the buffer's CPU with interrupts off, or
 * under the global trace's lock.
 */
static void jump_buf(struct rchan_buf *buf)
{
	u64 far = (1ULL << 31) + 2;
	u32 slot;

	relay_switch_subbuf(buf, 0);
	atomic64_add(far, &buf->subbufs_produced);
	atomic64_add(far, &buf->subbufs_started);
	div_u64_rem(buf->slot + far, buf->chan->n_subbufs, &slot);
	buf->slot = slot;
	buf->data = buf->start + buf->slot * buf->chan->subbuf_size;
}

static void jump_here(void *info)
{
	jump_buf(*this_cpu_ptr(traces[0]->rchan->buf));
}

static int jump_set(const char *val, const struct kernel_param *kp)
{
	struct relay_trace *t = traces[0];
	unsigned long irqflags;
	unsigned int cpu;
	int ret;

	ret = kstrtouint(val, 0, &cpu);
	if (ret)
		return ret;
	if (!t || !(flags & RELAY_TRACE_FLIGHT_CHANNEL) || relay_trace_running(t))
		return -EINVAL;
	if (flags & RELAY_TRACE_GLOBAL_CHANNEL) {
		raw_spin_lock_irqsave(&t->lock, irqflags);
		jump_buf(*per_cpu_ptr(t->rchan->buf, 0));
		raw_spin_unlock_irqrestore(&t->lock, irqflags);
		return 0;
	}
	if (cpu >= nr_cpu_ids || !cpu_online(cpu))
		return -EINVAL;
	return smp_call_function_single(cpu, jump_here, NULL, 1);
}

static const struct kernel_param_ops jump_ops = {
	.set = jump_set,
};
module_param_cb(jump, &jump_ops, NULL, 0200);
MODULE_PARM_DESC(jump, "write CPU: take that CPU's buffer of the first trace (a stopped flight trace) 2^31 + 2 sub-buffers ahead of its readers");

static DEFINE_MUTEX(close_lock);

static int close_set(const char *val, const struct kernel_param *kp)
{
	int ret = 0;

	mutex_lock(&close_lock);
	if (!traces[0]) {
		ret = -ENOENT;
	} else if (sysfs_streq(val, "1")) {
		close_first();
#if IS_ENABLED(CONFIG_KUNIT)
	} else if (sysfs_streq(val, "poll")) {
		WRITE_ONCE(close_at_poll, traces[0]);
		WRITE_ONCE(relay_read_test_hook, poll_close_hook);
#endif
	} else {
		ret = -EINVAL;
	}
	mutex_unlock(&close_lock);
	return ret;
}

static const struct kernel_param_ops close_ops = {
	.set = close_set,
};
module_param_cb(close, &close_ops, NULL, 0200);
MODULE_PARM_DESC(close, "write 1: close the first trace now; poll: in the next poll(2) of one of its buffers (CONFIG_KUNIT)");

static void fz_stop(void)
{
	int i;

	if (flush_task)
		kthread_stop(flush_task);
	flush_task = NULL;
	for (i = 0; i < FUZZ_WRITERS; i++) {
		if (fz_tasks[i])
			kthread_stop(fz_tasks[i]);
		fz_tasks[i] = NULL;
	}
}

static int fz_start(void)
{
	struct task_struct *t;
	unsigned int cpu;

	for_each_online_cpu(cpu) {
		if (cpu >= FUZZ_WRITERS)
			break;
		t = kthread_create_on_cpu(fz_writer, (void *)(unsigned long)cpu,
					  cpu, "trace_test/%u");
		if (IS_ERR(t))
			return PTR_ERR(t);
		fz_tasks[cpu] = t;
		wake_up_process(t);
	}
	if (flush_us) {
		t = kthread_run(fz_flusher, NULL, "trace_test_flush");
		if (IS_ERR(t))
			return PTR_ERR(t);
		flush_task = t;
	}
	return 0;
}

static void trace_test_cleanup(void)
{
	int i;

	fz_stop();
	for (i = MAX_TRACES - 1; i >= 0; i--) {
		relay_trace_cleanup(traces[i]);
		traces[i] = NULL;
	}
}

static int __init trace_test_init(void)
{
	char tname[RELAY_TRACE_NAME_MAX + 1];
	unsigned int i;
	int ret;

	if (ntraces < 1 || ntraces > MAX_TRACES)
		return -EINVAL;

	for (i = 0; i < ntraces; i++) {
		if (i)
			snprintf(tname, sizeof(tname), "%s%u", name, i);
		else
			strscpy(tname, name, sizeof(tname));
		traces[i] = relay_trace_setup(root, tname, subbuf_size,
					      n_subbufs, flags);
		if (!traces[i]) {
			pr_err("relay_trace_setup(%s, %s) failed\n", root, tname);
			trace_test_cleanup();
			return -EINVAL;
		}
	}
	if (writers && (!(flags & RELAY_TRACE_RECORD_HEADER) || !rate ||
			subbuf_size < sizeof(struct relay_trace_header) +
				      FUZZ_REC_MIN)) {
		pr_err("writers=1 needs record headers (flags 8), rate > 0 and room for a record\n");
		trace_test_cleanup();
		return -EINVAL;
	}
	if (nest && (!writers || (flags & RELAY_TRACE_GLOBAL_CHANNEL) ||
		     !IS_ENABLED(CONFIG_KUNIT))) {
		pr_err("nest needs writers=1, a per-CPU trace and CONFIG_KUNIT (relay's switch steps)\n");
		trace_test_cleanup();
		return -EINVAL;
	}
	if (writers) {
		ret = fz_start();
		if (ret) {
			trace_test_cleanup();
			return ret;
		}
	}
	return 0;
}

static void __exit trace_test_exit(void)
{
#if IS_ENABLED(CONFIG_KUNIT)
	if (READ_ONCE(relay_read_test_hook) == poll_close_hook)
		WRITE_ONCE(relay_read_test_hook, NULL);
#endif
	trace_test_cleanup();
}

module_init(trace_test_init);
module_exit(trace_test_exit);
MODULE_DESCRIPTION("relay_trace test module");
MODULE_LICENSE("GPL");
