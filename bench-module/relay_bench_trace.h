/* SPDX-License-Identifier: GPL-2.0 */
/*
 * relay_bench's tracepoint: the same records the relay variants write,
 * through the kernel's own tracing, so that an ftrace instance (read by
 * trace-cmd), a BPF program on the raw tracepoint and perf record the
 * same bytes, which the benchmark's check (uapi/relay_bench.h) verifies.
 * The event is bench_rec_event.h's; LTTng wants its name to start with
 * the system's name and "_".
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM relay_bench

#if !defined(_RELAY_BENCH_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _RELAY_BENCH_TRACE_H

#include <linux/tracepoint.h>
#include "bench_rec_event.h"

BENCH_REC_EVENT(relay_bench_rec);

#endif /* _RELAY_BENCH_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE relay_bench_trace
#include <trace/define_trace.h>
