/* SPDX-License-Identifier: GPL-2.0 */
/*
 * relay_cost's tracepoint: the kernel's own tracing as a user of it would
 * write a record, timed by relay_cost.ko against relay_trace_write() (kinds
 * ftrace_event and ftrace_event_off).  The same event as relay_bench's
 * (relay_bench_trace.h), in a system of its own.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM relay_cost

#if !defined(_RELAY_COST_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _RELAY_COST_TRACE_H

#include <linux/tracepoint.h>
#include "bench_rec_event.h"

BENCH_REC_EVENT(relay_cost_rec);

#endif /* _RELAY_COST_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE relay_cost_trace
#include <trace/define_trace.h>
