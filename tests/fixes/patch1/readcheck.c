// SPDX-License-Identifier: GPL-2.0
/*
 * readcheck: read(2) the relay buffer file of relay_alone.ko's writer CPU
 * while it writes, and check every record.
 *
 * Usage: readcheck DIR [CPU]   (DIR: /sys/kernel/debug/relay_alone;
 *                               CPU: the writer's, default 1)
 *
 * Pinned to CPU 2, it opens DIR/cpu<CPU>, starts the writer (DIR/start),
 * reads with a 1 MiB buffer until the writer is done (DIR/done), then until
 * read(2) returns 0.  read(2) may split a record: the data are taken as
 * one stream.  A record is good if its magic, sequence and payload agree
 * (relay_alone.c's layout); a good record whose sequence is not above the
 * highest seen is repeated (backwards counts the drops below the previous
 * record's); a record of zeros counts as zeros; anything else is torn,
 * and the stream is then searched for the next magic, 8 bytes at a time.
 * Prints one line:
 *   readcheck: attempts= accepted= refused= bytes= reads= records=
 *     unique= repeated= backwards= torn= zeros= skipped= lost=
 * lost = accepted - unique (records written that were never read).
 * Exits 0 if it could run the check (whatever the counts), 1 otherwise.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RA_MAGIC	0x52454c4159414c4eULL
#define REC_SIZE	2048
#define REC_WORDS	(REC_SIZE / sizeof(uint64_t))
#define READ_SIZE	(1 << 20)
#define READER_CPU	2

static uint64_t ra_word(uint64_t seq, unsigned int i)
{
	return (seq * 0x9e3779b97f4a7c15ULL) ^ ((uint64_t)i << 48) ^ i;
}

struct stats {
	uint64_t bytes, reads, records, unique, repeated, backwards;
	uint64_t torn, zeros, skipped;
	uint64_t max_seq, last_seq;
	int seen;
	/* Diagnostics: the first few repeats (seq, max seen before). */
	unsigned int nrep_log;
	uint64_t rep_log[8][2];
};

static uint64_t read_u64(const char *dir, const char *name)
{
	char path[512], val[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		perror(path);
		exit(1);
	}
	n = read(fd, val, sizeof(val) - 1);
	close(fd);
	if (n <= 0) {
		fprintf(stderr, "readcheck: cannot read %s\n", path);
		exit(1);
	}
	val[n] = 0;
	if (val[0] == 'Y')
		return 1;
	if (val[0] == 'N')
		return 0;
	return strtoull(val, NULL, 0);
}

static int good_record(const uint64_t *w)
{
	unsigned int i;

	if (w[0] != RA_MAGIC)
		return 0;
	for (i = 2; i < REC_WORDS; i++)
		if (w[i] != ra_word(w[1], i))
			return 0;
	return 1;
}

static int zero_record(const uint64_t *w)
{
	unsigned int i;

	for (i = 0; i < REC_WORDS; i++)
		if (w[i])
			return 0;
	return 1;
}

/* Take the records of s->buf[0..len); return the bytes left over. */
static size_t check(struct stats *s, unsigned char *buf, size_t len)
{
	size_t pos = 0;
	uint64_t w[REC_WORDS];

	while (len - pos >= REC_SIZE) {
		memcpy(w, buf + pos, REC_SIZE);
		if (good_record(w)) {
			uint64_t seq = w[1];

			s->records++;
			if (s->seen && seq <= s->max_seq) {
				if (s->nrep_log < 8) {
					s->rep_log[s->nrep_log][0] = seq;
					s->rep_log[s->nrep_log][1] = s->max_seq;
				}
				s->nrep_log++;
				s->repeated++;
			} else {
				s->unique++;
				s->max_seq = seq;
			}
			if (s->seen && seq < s->last_seq)
				s->backwards++;
			s->last_seq = seq;
			s->seen = 1;
			pos += REC_SIZE;
		} else if (zero_record(w)) {
			s->zeros++;
			pos += REC_SIZE;
		} else {
			/* Torn: resynchronise on the next magic. */
			s->torn++;
			pos += 8;
			s->skipped += 8;
			while (len - pos >= 8) {
				uint64_t m;

				memcpy(&m, buf + pos, 8);
				if (m == RA_MAGIC)
					break;
				pos += 8;
				s->skipped += 8;
			}
		}
	}
	return len - pos;
}

int main(int argc, char **argv)
{
	const char *dir;
	char path[512];
	unsigned int cpu = 1, i;
	unsigned char *buf;
	size_t have = 0;
	struct stats s;
	cpu_set_t set;
	uint64_t accepted;
	int fd, sfd;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: readcheck DIR [CPU]\n");
		return 1;
	}
	dir = argv[1];
	if (argc == 3)
		cpu = strtoul(argv[2], NULL, 0);
	memset(&s, 0, sizeof(s));

	CPU_ZERO(&set);
	CPU_SET(READER_CPU, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		return 1;
	}
	/* The stream's unchecked tail lives in front of each read. */
	buf = malloc(REC_SIZE + READ_SIZE);
	if (!buf) {
		perror("malloc");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/cpu%u", dir, cpu);
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	snprintf(path, sizeof(path), "%s/start", dir);
	sfd = open(path, O_WRONLY);
	if (sfd < 0 || write(sfd, "1\n", 2) != 2) {
		perror(path);
		return 1;
	}
	close(sfd);

	for (;;) {
		int done = read_u64(dir, "done");
		ssize_t n = read(fd, buf + have, READ_SIZE);

		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			perror("read");
			return 1;
		}
		if (n == 0) {
			/* Empty after the writer finished: drained. */
			if (done)
				break;
			usleep(1000);
			continue;
		}
		s.reads++;
		s.bytes += n;
		have += n;
		{
			size_t left = check(&s, buf, have);

			memmove(buf, buf + have - left, left);
			have = left;
		}
	}
	close(fd);

	accepted = read_u64(dir, "accepted");
	printf("readcheck: attempts=%" PRIu64 " accepted=%" PRIu64 " refused=%" PRIu64
	       " bytes=%" PRIu64 " reads=%" PRIu64 " records=%" PRIu64 " unique=%" PRIu64
	       " repeated=%" PRIu64 " backwards=%" PRIu64 " torn=%" PRIu64 " zeros=%" PRIu64
	       " skipped=%" PRIu64 " tail=%zu lost=%" PRId64 "\n",
	       read_u64(dir, "attempts"), accepted, read_u64(dir, "refused"),
	       s.bytes, s.reads, s.records, s.unique, s.repeated, s.backwards,
	       s.torn, s.zeros, s.skipped, have, (int64_t)(accepted - s.unique));
	for (i = 0; i < s.nrep_log && i < 8; i++)
		printf("readcheck: repeat %u: seq %" PRIu64 " after max %" PRIu64 "\n",
		       i, s.rep_log[i][0], s.rep_log[i][1]);
	free(buf);
	return 0;
}
