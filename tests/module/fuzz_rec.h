/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The records trace_test.ko's writers write (writers=1), and that relayfuzz
 * (tests/guest/relayfuzz.c) checks: the one definition of their payload,
 * included by both.  Each follows its struct relay_trace_header (the trace
 * has RELAY_TRACE_RECORD_HEADER): len bytes, a multiple of 8, in 64-bit
 * words.  Word 0 names the record: its writer (the CPU whose kthread wrote
 * it) and the writer's count of writes before it; every later word is a
 * hash of word 0 and the word's index, so that a reader tells a record
 * written whole from a torn, shifted or stale one.  A marker, which a
 * writer writes last (trace_test's "mark"), is word 0 alone.
 */
#ifndef _FUZZ_REC_H
#define _FUZZ_REC_H

#include <linux/types.h>

#define FUZZ_REC_MIN	16	/* a record's payload: 16 to FUZZ_REC_MAX */
#define FUZZ_REC_MAX	256
#define FUZZ_MARK_LEN	8	/* a marker's */
#define FUZZ_WRITERS	64	/* writers are CPUs 0 .. FUZZ_WRITERS - 1 */

static inline __u64 fuzz_word0(__u32 writer, __u64 n)
{
	return (__u64)writer << 48 | (n & ((1ULL << 48) - 1));
}

static inline __u32 fuzz_writer(__u64 w0)
{
	return w0 >> 48;
}

static inline __u64 fuzz_count(__u64 w0)
{
	return w0 & ((1ULL << 48) - 1);
}

static inline __u64 fuzz_word(__u64 w0, __u32 i)
{
	__u64 x = w0 * 0x9e3779b97f4a7c15ULL + i * 0xbf58476d1ce4e5b9ULL;

	x ^= x >> 31;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 29);
}

#endif /* _FUZZ_REC_H */
