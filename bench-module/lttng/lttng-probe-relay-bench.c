// SPDX-License-Identifier: GPL-2.0-only
/*
 * lttng-probe-relay-bench.ko: LTTng's probe of relay_bench.ko's
 * tracepoint relay_bench:relay_bench_rec, so that an LTTng kernel
 * session records the benchmark's event (lttng enable-event -k
 * relay_bench_rec), as trace-cmd, BPF and perf record it.
 *
 * Built out of tree against the test kernel and Debian's lttng-modules
 * source (vm/lttng).  The kernel's own declaration of the event is
 * included first: LTTng's then declares trace_relay_bench_rec() again,
 * and a prototype that differs does not compile.
 */
#include <linux/module.h>
#include <lttng/tracer.h>

#include "../relay_bench_trace.h"

#include <wrapper/tracepoint.h>

#define LTTNG_PACKAGE_BUILD
#define CREATE_TRACE_POINTS
#include "relay_bench_lttng.h"

MODULE_LICENSE("GPL and additional rights");
MODULE_DESCRIPTION("LTTng probe of relay_bench.ko's tracepoint");
