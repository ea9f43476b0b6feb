/* SPDX-License-Identifier: GPL-2.0 */
/*
 * relay_bench's tracepoint: the same records the relay variants write,
 * through the kernel's own tracing, so that an ftrace instance (read by
 * trace-cmd), a BPF program on the raw tracepoint and perf record the
 * same bytes, which the benchmark's check (uapi/relay_bench.h) verifies.
 *
 * The length is a field of its own: perf's parser does not know
 * __get_dynamic_array_len().  LTTng wants event names that start with
 * the system's name and "_".
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM relay_bench

#if !defined(_RELAY_BENCH_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _RELAY_BENCH_TRACE_H

#include <linux/tracepoint.h>

TRACE_EVENT(relay_bench_rec,
	    TP_PROTO(const void *rec, u32 len),
	    TP_ARGS(rec, len),
	    TP_STRUCT__entry(__field(u32, len)
			     __dynamic_array(u8, data, len)),
	    TP_fast_assign(__entry->len = len;
			   memcpy(__get_dynamic_array(data), rec, len);),
	    TP_printk("len=%u data=%s", __entry->len,
		      __print_hex(__get_dynamic_array(data), __entry->len))
);

#endif /* _RELAY_BENCH_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE relay_bench_trace
#include <trace/define_trace.h>
