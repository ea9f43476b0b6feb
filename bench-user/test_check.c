// SPDX-License-Identifier: GPL-2.0
/* Host unit tests of relay-drain's record accounting (check.c). */
#include <stdio.h>
#include <string.h>

#include "drain.h"

static int failures, checks;

#define EXPECT_EQ(a, b) do {						\
	unsigned long long _a = (a), _b = (b);				\
	checks++;							\
	if (_a != _b) {							\
		failures++;						\
		printf("  %s:%d: %s = %llu, want %llu\n", __FILE__,	\
		       __LINE__, #a, _a, _b);				\
	}								\
} while (0)

static size_t put(unsigned char *buf, size_t off, size_t size,
		  uint16_t magic, uint16_t cpu, uint32_t seq)
{
	struct bench_rec h = { .magic = magic, .cpu = cpu, .seq = seq };

	memset(buf + off, 0x5a, size);
	memcpy(buf + off, &h, sizeof(h));
	return off + size;
}

static void init(struct file_stats *fs)
{
	memset(fs, 0, sizeof(*fs));
	for (int i = 0; i < MAX_WRITERS; i++)
		fs->w[i].last_seq = -1;
}

static void test_in_order(void)
{
	unsigned char buf[64 * 10];
	struct file_stats fs;
	size_t off = 0;

	init(&fs);
	for (uint32_t s = 0; s < 10; s++)
		off = put(buf, off, 64, BENCH_MAGIC, 2, s);
	check_records(&fs, buf, off, 64);
	EXPECT_EQ(fs.records, 10);
	EXPECT_EQ(fs.bytes, 640);
	EXPECT_EQ(fs.bad, 0);
	EXPECT_EQ(fs.w[2].records, 10);
	EXPECT_EQ(fs.w[2].gaps, 0);
	EXPECT_EQ(fs.w[2].last_seq, 9);
	EXPECT_EQ(fs.w[0].records, 0);
}

static void test_gaps_and_interleaving(void)
{
	unsigned char buf[16 * 8];
	struct file_stats fs;
	size_t off = 0;

	init(&fs);
	/* writer 0: 3, 4, 7 (first three and 5, 6 missing); writer 1: 0, 1 */
	off = put(buf, off, 16, BENCH_MAGIC, 0, 3);
	off = put(buf, off, 16, BENCH_MAGIC, 1, 0);
	off = put(buf, off, 16, BENCH_MAGIC, 0, 4);
	off = put(buf, off, 16, BENCH_MAGIC, 1, 1);
	off = put(buf, off, 16, BENCH_MAGIC, 0, 7);
	check_records(&fs, buf, off, 16);
	EXPECT_EQ(fs.w[0].records, 3);
	EXPECT_EQ(fs.w[0].gaps, 5);
	EXPECT_EQ(fs.w[0].last_seq, 7);
	EXPECT_EQ(fs.w[1].records, 2);
	EXPECT_EQ(fs.w[1].gaps, 0);
}

static void test_split_reads(void)
{
	unsigned char buf[32 * 4];
	struct file_stats fs;
	size_t off = 0;

	init(&fs);
	for (uint32_t s = 0; s < 4; s++)
		off = put(buf, off, 32, BENCH_MAGIC, 0, s);
	/* Accounting carries over from one read to the next. */
	check_records(&fs, buf, 64, 32);
	check_records(&fs, buf + 64, 64, 32);
	EXPECT_EQ(fs.w[0].records, 4);
	EXPECT_EQ(fs.w[0].gaps, 0);
}

static void test_bad_records(void)
{
	unsigned char buf[16 * 4 + 5];
	struct file_stats fs;
	size_t off = 0;

	init(&fs);
	off = put(buf, off, 16, BENCH_MAGIC, 0, 0);
	off = put(buf, off, 16, 0x1234, 0, 1);		/* wrong magic */
	off = put(buf, off, 16, BENCH_MAGIC, MAX_WRITERS, 2); /* bad CPU */
	off = put(buf, off, 16, BENCH_MAGIC, 0, 0);	/* seen again */
	memset(buf + off, 0, 5);			/* torn tail */
	check_records(&fs, buf, off + 5, 16);
	EXPECT_EQ(fs.records, 2);
	EXPECT_EQ(fs.bad, 3);
	EXPECT_EQ(fs.w[0].records, 1);
	EXPECT_EQ(fs.w[0].backwards, 1);
}

int main(void)
{
	test_in_order();
	test_gaps_and_interleaving();
	test_split_reads();
	test_bad_records();
	printf("test_check: %d checks, %d failed\n", checks, failures);
	return failures != 0;
}
