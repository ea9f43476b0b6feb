/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The benchmark's record as an LTTng event, defined once for the LTTng
 * probes of the modules' tracepoints (relay_bench_lttng.h,
 * relay_cost_lttng.h): bench_rec_event.h's event in LTTng's field
 * macros.  Its fields must be bench_rec_event.h's, in order, name and
 * type (tests/host/lttng-fields.py checks it: make test's host step).  A
 * system's LTTng header invokes BENCH_REC_LTTNG_EVENT(name) where it
 * would write LTTNG_TRACEPOINT_EVENT(); each pass of lttng/define_trace.h
 * expands it with that pass's LTTNG_TRACEPOINT_EVENT().
 */
#ifndef BENCH_REC_LTTNG_EVENT
#define BENCH_REC_LTTNG_EVENT(name)					\
	LTTNG_TRACEPOINT_EVENT(name,					\
			       TP_PROTO(const void *rec, u32 len),	\
			       TP_ARGS(rec, len),			\
			       TP_FIELDS(ctf_integer(u32, len, len)	\
					 ctf_sequence_hex(u8, data, rec, u32, len)))
#endif /* BENCH_REC_LTTNG_EVENT */
