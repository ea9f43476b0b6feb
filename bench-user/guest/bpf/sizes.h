/* SPDX-License-Identifier: GPL-2.0 */
/* The record sizes relay_bench.bpf.c reserves (RB_SIZES), for user space. */
#ifndef RB_SIZES_H
#define RB_SIZES_H

#include "rb_counts.h"

static inline int rb_size_supported(__u32 size)
{
	switch (size) {
#define RB_CASE(n) case n: return 1;
	RB_SIZES(RB_CASE)
#undef RB_CASE
	}
	return 0;
}

/* "16 32 ... 4096" */
static inline const char *rb_sizes_list(void)
{
#define RB_STR(n) " " #n
	return &(RB_SIZES(RB_STR))[1];
#undef RB_STR
}

#endif /* RB_SIZES_H */
