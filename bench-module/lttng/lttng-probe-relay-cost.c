// SPDX-License-Identifier: GPL-2.0-only
/*
 * lttng-probe-relay-cost.ko: LTTng's probe of relay_cost.ko's tracepoint
 * relay_cost:relay_cost_rec, so that make bench-cost times the write of
 * an LTTng kernel session (relay_cost.ko's kind lttng), as it times the
 * same tracepoint into an ftrace instance and a BPF ring buffer.  A
 * module of its own: one TRACE_SYSTEM per LTTng probe module.
 *
 * Built out of tree against the test kernel and Debian's lttng-modules
 * source (vm/lttng).  The kernel's own declaration of the event is
 * included first: LTTng's then declares trace_relay_cost_rec() again,
 * and a prototype that differs does not compile.
 */
#include <linux/module.h>
#include <lttng/tracer.h>

#include "../relay_cost_trace.h"

#include <wrapper/tracepoint.h>

#define LTTNG_PACKAGE_BUILD
#define CREATE_TRACE_POINTS
#include "relay_cost_lttng.h"

MODULE_LICENSE("GPL and additional rights");
MODULE_DESCRIPTION("LTTng probe of relay_cost.ko's tracepoint");
