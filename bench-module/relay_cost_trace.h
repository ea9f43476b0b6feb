/* SPDX-License-Identifier: GPL-2.0 */
/*
 * relay_cost's tracepoint: the kernel's own tracing as a user of it would
 * write a record, timed by relay_cost.ko against trace_write() (kinds
 * ftrace_event and ftrace_event_off).  The same event as relay_bench's
 * (relay_bench_trace.h), in a system of its own.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM relay_cost

#if !defined(_RELAY_COST_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _RELAY_COST_TRACE_H

#include <linux/tracepoint.h>

TRACE_EVENT(relay_cost_rec,
	    TP_PROTO(const void *rec, u32 len),
	    TP_ARGS(rec, len),
	    TP_STRUCT__entry(__field(u32, len)
			     __dynamic_array(u8, data, len)),
	    TP_fast_assign(__entry->len = len;
			   memcpy(__get_dynamic_array(data), rec, len);),
	    TP_printk("len=%u data=%s", __entry->len,
		      __print_hex(__get_dynamic_array(data), __entry->len))
);

#endif /* _RELAY_COST_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE relay_cost_trace
#include <trace/define_trace.h>
