// SPDX-License-Identifier: GPL-2.0
/*
 * trace_test - a relay trace driven from user space, for the guest tests
 *
 * Sets up @ntraces traces named @name, @name1, ... under @root with the
 * given geometry and flags.  Writing N to /sys/module/trace_test/
 * parameters/emit writes N records "%08u\n" (9 bytes, consecutive
 * sequence numbers) to the first trace with trace_printf(); "written" and
 * "failed" count the outcomes.
 *
 * Writing 1 to try_setup sets up one more trace, "fi", in the caller's
 * context, starts it, checks its files and cleans it up: the fault
 * injection test makes an allocation in there fail.  The write fails with
 * the error trace_setup() or trace_start() documents (-ENOMEM: trace_setup()
 * returned NULL), and fi_setup_null / fi_ok count the outcomes.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/relay_trace.h>

#define MAX_TRACES 4

static char *root = "relay_trace_test";
module_param(root, charp, 0444);
MODULE_PARM_DESC(root, "root directory, in tracefs's relay/");

static char *name = "t";
module_param(name, charp, 0444);
MODULE_PARM_DESC(name, "trace directory name");

static uint flags;
module_param(flags, uint, 0444);
MODULE_PARM_DESC(flags, "trace_setup() flags: 1 global, 2 flight, 4 disable state, 8 record headers");

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
MODULE_PARM_DESC(fi_setup_null, "try_setup: trace_setup() returned NULL");

static ulong fi_ok;
module_param(fi_ok, ulong, 0444);
MODULE_PARM_DESC(fi_ok, "try_setup: set up, started and cleaned up");

static struct trace_info *traces[MAX_TRACES];
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
	for (i = 0; i < n; i++) {
		if (trace_printf(traces[0], "%08u\n", next_seq++) > 0)
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
	struct trace_info *t;
	int ret;

	if (!sysfs_streq(val, "1"))
		return -EINVAL;
	t = trace_setup(root, "fi", 4096, 4, flags);
	if (!t) {
		fi_setup_null++;
		return -ENOMEM;
	}
	ret = trace_start(t);
	if (!ret)
		ret = trace_printf(t, "%08u\n", 0) == 9 ? 0 : -EIO;
	trace_cleanup(t);
	if (!ret)
		fi_ok++;
	return ret;
}

static const struct kernel_param_ops try_setup_ops = {
	.set = try_setup_set,
};
module_param_cb(try_setup, &try_setup_ops, NULL, 0200);
MODULE_PARM_DESC(try_setup, "write 1 to set up, start and clean up a trace");

static void trace_test_cleanup(void)
{
	int i;

	for (i = MAX_TRACES - 1; i >= 0; i--) {
		trace_cleanup(traces[i]);
		traces[i] = NULL;
	}
}

static int __init trace_test_init(void)
{
	char tname[TRACE_NAME_MAX + 1];
	unsigned int i;

	if (ntraces < 1 || ntraces > MAX_TRACES)
		return -EINVAL;

	for (i = 0; i < ntraces; i++) {
		if (i)
			snprintf(tname, sizeof(tname), "%s%u", name, i);
		else
			strscpy(tname, name, sizeof(tname));
		traces[i] = trace_setup(root, tname, subbuf_size, n_subbufs,
					flags);
		if (!traces[i]) {
			pr_err("trace_setup(%s, %s) failed\n", root, tname);
			trace_test_cleanup();
			return -EINVAL;
		}
	}
	return 0;
}

static void __exit trace_test_exit(void)
{
	trace_test_cleanup();
}

module_init(trace_test_init);
module_exit(trace_test_exit);
MODULE_DESCRIPTION("relay_trace test module");
MODULE_LICENSE("GPL");
