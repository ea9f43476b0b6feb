/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The LTTng probe of relay_bench.ko's tracepoint relay_bench_rec: the
 * same event as bench_rec_event.h's, in LTTng's field macros.  Its fields
 * must be bench_rec_event.h's, in order, name and type
 * (tests/lttng-fields checks it: make check).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM relay_bench

#if !defined(LTTNG_TRACE_RELAY_BENCH_H) || defined(TRACE_HEADER_MULTI_READ)
#define LTTNG_TRACE_RELAY_BENCH_H

#include <lttng/tracepoint-event.h>

LTTNG_TRACEPOINT_EVENT(relay_bench_rec,
		       TP_PROTO(const void *rec, u32 len),
		       TP_ARGS(rec, len),
		       TP_FIELDS(ctf_integer(u32, len, len)
				 ctf_sequence_hex(u8, data, rec, u32, len))
)

#endif /* LTTNG_TRACE_RELAY_BENCH_H */

/* This part must be outside protection */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE relay_bench_lttng
#include <lttng/define_trace.h>
