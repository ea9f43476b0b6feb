/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The benchmark's record as a trace event, defined once for the modules'
 * tracepoints (relay_bench_trace.h, relay_cost_trace.h): the length as a
 * field of its own -- perf's parser does not know
 * __get_dynamic_array_len() -- and the record's bytes, printed in hex,
 * which bench-verify --text checks (uapi/relay_bench.h's record).  A
 * system's tracepoint header invokes BENCH_REC_EVENT(name) where it
 * would write TRACE_EVENT(); each pass of define_trace.h expands it with
 * that pass's TRACE_EVENT().
 */
#ifndef BENCH_REC_EVENT
#define BENCH_REC_EVENT(name)						\
	TRACE_EVENT(name,						\
		    TP_PROTO(const void *rec, u32 len),			\
		    TP_ARGS(rec, len),					\
		    TP_STRUCT__entry(__field(u32, len)			\
				     __dynamic_array(u8, data, len)),	\
		    TP_fast_assign(__entry->len = len;			\
				   memcpy(__get_dynamic_array(data),	\
					  rec, len);),			\
		    TP_printk("len=%u data=%s", __entry->len,		\
			      __print_hex(__get_dynamic_array(data),	\
					  __entry->len)))
#endif /* BENCH_REC_EVENT */
