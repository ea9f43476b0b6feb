// SPDX-License-Identifier: GPL-2.0
/*
 * relay_alone: a relay client as the in-tree ones are (blktrace, ath
 * spectral scan...): relay_open() with debugfs files, per-CPU buffers,
 * non-overwrite mode, and relay_write().  Its writer, a kthread bound to
 * one CPU, writes fixed-size records as fast as it can for a while, so
 * that a reader of that CPU's buffer file can check what read(2) returns.
 *
 * /sys/kernel/debug/relay_alone/
 *	cpuN		the relay buffer files (relay_file_operations)
 *	start		write 1: start the writer (once)
 *	done		1 once the writer has finished
 *	attempts	records the writer tried to write (its sequence)
 *	accepted	records relay_write() wrote
 *	refused		records it dropped, the buffer being full
 *
 * Record (REC_SIZE bytes, u64 words): RA_MAGIC, the sequence number
 * (every attempt counts, written or refused), then word i is
 * ra_word(seq, i).  Keep in step with readcheck.c.
 */
#include <linux/debugfs.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/relay.h>
#include <linux/sched.h>
#include <linux/slab.h>

#define RA_MAGIC	0x52454c4159414c4eULL	/* "RELAYALN" */
#define REC_SIZE	2048
#define REC_WORDS	(REC_SIZE / sizeof(u64))

static unsigned int duration_ms = 1000;
module_param(duration_ms, uint, 0444);
MODULE_PARM_DESC(duration_ms, "how long the writer writes, in ms");

static unsigned int writer_cpu = 1;
module_param(writer_cpu, uint, 0444);
MODULE_PARM_DESC(writer_cpu, "the CPU the writer is bound to");

static unsigned int subbuf_size = 64 * 1024;
module_param(subbuf_size, uint, 0444);
MODULE_PARM_DESC(subbuf_size, "relay sub-buffer size");

static unsigned int n_subbufs = 8;
module_param(n_subbufs, uint, 0444);
MODULE_PARM_DESC(n_subbufs, "relay sub-buffers per buffer");

static struct dentry *ra_dir;
static struct rchan *ra_chan;
static struct task_struct *ra_task;
static DEFINE_MUTEX(ra_lock);
static u64 ra_attempts, ra_accepted, ra_refused;
static bool ra_done;

static inline u64 ra_word(u64 seq, unsigned int i)
{
	return (seq * 0x9e3779b97f4a7c15ULL) ^ ((u64)i << 48) ^ i;
}

static int ra_subbuf_start(struct rchan_buf *buf, void *subbuf,
			   void *prev_subbuf, size_t prev_padding)
{
	return !relay_buf_full(buf);
}

static struct dentry *ra_create_buf_file(const char *filename,
					 struct dentry *parent, umode_t mode,
					 struct rchan_buf *buf, int *is_global)
{
	return debugfs_create_file(filename, mode, parent, buf,
				   &relay_file_operations);
}

static int ra_remove_buf_file(struct dentry *dentry)
{
	debugfs_remove(dentry);
	return 0;
}

static const struct rchan_callbacks ra_callbacks = {
	.subbuf_start		= ra_subbuf_start,
	.create_buf_file	= ra_create_buf_file,
	.remove_buf_file	= ra_remove_buf_file,
};

static int ra_writer(void *unused)
{
	struct rchan_buf *buf = *per_cpu_ptr(ra_chan->buf, writer_cpu);
	unsigned long end = jiffies + msecs_to_jiffies(duration_ms);
	u64 *rec;
	u64 seq;
	unsigned int i;

	rec = kmalloc(REC_SIZE, GFP_KERNEL);
	if (!rec)
		goto out;
	rec[0] = RA_MAGIC;
	for (seq = 0; time_before(jiffies, end) && !kthread_should_stop(); seq++) {
		rec[1] = seq;
		for (i = 2; i < REC_WORDS; i++)
			rec[i] = ra_word(seq, i);
		relay_write(ra_chan, rec, REC_SIZE);
		/*
		 * relay_write() says nothing: a refusal (full buffer) leaves
		 * the offset at subbuf_size + 1.  Only this thread, on this
		 * CPU, writes to the buffer.
		 */
		if (READ_ONCE(buf->offset) > ra_chan->subbuf_size)
			ra_refused++;
		else
			ra_accepted++;
		ra_attempts = seq + 1;
		cond_resched();
	}
	kfree(rec);
	pr_info("relay_alone: %llu attempts, %llu accepted, %llu refused; %zu sub-buffers produced, %zu consumed\n",
		ra_attempts, ra_accepted, ra_refused, buf->subbufs_produced,
		buf->subbufs_consumed);
out:
	/* The counters before done, for the reader of the debugfs files. */
	smp_wmb();
	WRITE_ONCE(ra_done, true);
	/* Wait for kthread_stop() from the module's exit. */
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

static int ra_start_set(void *data, u64 val)
{
	struct task_struct *t;
	int ret = 0;

	if (val != 1)
		return -EINVAL;
	mutex_lock(&ra_lock);
	if (ra_task) {
		ret = -EBUSY;
		goto out;
	}
	t = kthread_create(ra_writer, NULL, "relay_alone/%u", writer_cpu);
	if (IS_ERR(t)) {
		ret = PTR_ERR(t);
		goto out;
	}
	kthread_bind(t, writer_cpu);
	ra_task = t;
	wake_up_process(t);
out:
	mutex_unlock(&ra_lock);
	return ret;
}
DEFINE_DEBUGFS_ATTRIBUTE(ra_start_fops, NULL, ra_start_set, "%llu\n");

static int __init ra_init(void)
{
	if (writer_cpu >= nr_cpu_ids || !cpu_online(writer_cpu)) {
		pr_err("relay_alone: CPU %u is not online\n", writer_cpu);
		return -EINVAL;
	}
	ra_dir = debugfs_create_dir("relay_alone", NULL);
	if (IS_ERR(ra_dir))
		return PTR_ERR(ra_dir);
	ra_chan = relay_open("cpu", ra_dir, subbuf_size, n_subbufs,
			     &ra_callbacks, NULL);
	if (!ra_chan) {
		debugfs_remove_recursive(ra_dir);
		return -ENOMEM;
	}
	debugfs_create_file_unsafe("start", 0200, ra_dir, NULL, &ra_start_fops);
	debugfs_create_bool("done", 0444, ra_dir, &ra_done);
	debugfs_create_u64("attempts", 0444, ra_dir, &ra_attempts);
	debugfs_create_u64("accepted", 0444, ra_dir, &ra_accepted);
	debugfs_create_u64("refused", 0444, ra_dir, &ra_refused);
	return 0;
}

static void __exit ra_exit(void)
{
	if (ra_task)
		kthread_stop(ra_task);
	relay_close(ra_chan);
	debugfs_remove_recursive(ra_dir);
}

module_init(ra_init);
module_exit(ra_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("relay read(2) check: a per-CPU, non-overwrite relay client");
