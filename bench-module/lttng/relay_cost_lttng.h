/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The LTTng probe of relay_cost.ko's tracepoint relay_cost_rec
 * (relay_cost_trace.h): the benchmark's record, bench_rec_lttng.h.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM relay_cost

#if !defined(LTTNG_TRACE_RELAY_COST_H) || defined(TRACE_HEADER_MULTI_READ)
#define LTTNG_TRACE_RELAY_COST_H

#include <lttng/tracepoint-event.h>
#include "bench_rec_lttng.h"

BENCH_REC_LTTNG_EVENT(relay_cost_rec)

#endif /* LTTNG_TRACE_RELAY_COST_H */

/* This part must be outside protection */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE relay_cost_lttng
#include <lttng/define_trace.h>
