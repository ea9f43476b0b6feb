// SPDX-License-Identifier: GPL-2.0
/*
 * relayfuzz - every call a reader can make on a relay trace, hostile ones
 * too, at once, and a ledger of what the readers got
 *
 * Usage: relayfuzz [--seed S] [--secs T] [--procs N] [--stress] DIR
 *
 * DIR is the directory of a trace of trace_test.ko loaded with writers=1
 * (/sys/kernel/tracing/relay/ROOT/NAME): a writer kthread on every CPU
 * writes the records of tests/module/fuzz_rec.h, with record headers.
 *
 * N processes, and the children they fork, make random calls for T seconds:
 * read(2) of any count, PEEK, CONSUME and NEXT with the positions and
 * lengths a hostile caller would pass (the edges, sums that wrap, stale
 * spans, misaligned and far positions), input fields that must be 0,
 * files opened write-only, PEEK waits, poll(2), mmap(2) and munmap(2),
 * fork(2), stop and start, buffer_percent, and, on a flight trace, rewind.
 * Each consuming call on a buffer is made under a lock of the buffer's
 * that the processes share, so that the ledger sees what the readers
 * consumed in the kernel's order: it parses each buffer's stream as the
 * kernel delivers it, across the calls and processes that shared it, and
 * checks that every record is delivered whole (header, payload), at most
 * once and in order per buffer (its number and its writer's count go up),
 * and that a call that must fail fails as the UAPI says (EINVAL, ESTALE,
 * EBADF).  A read(2) told EPIPE drops the record it had begun.  At the
 * end the trace is stopped and drained; each writer then writes a marker
 * (trace_test's "mark"), which numbers its buffer's last write; on a
 * trace that does not overwrite every record written must have been
 * delivered exactly once (trace_test's fz_ok), and the gaps in the
 * numbers must add up to dropped and refused exactly.
 *
 * Every process that makes calls gets SIGALRM every few milliseconds, its
 * handler set with SA_RESTART: a PEEK that waits must restart, never fail
 * with EINTR.  On per-CPU traces trace_test's writers make some writes
 * inside a switch of their own buffer (nest=N), which must be refused and
 * counted.  Then, but for --stress, conditions built, not hoped for
 * (checks()): a PEEK waiting for buffer_percent on a buffer with one
 * sub-buffer ready, confirmed asleep, signalled, confirmed asleep again,
 * then the trace stopped with its current sub-buffer empty, so that the
 * stop's flush switches nothing: the PEEK must return, with the record,
 * before its wait_ms; on a flight trace, a CONSUME at the readers'
 * position after a rewind, of the length an earlier PEEK's end would
 * allow: it must fail unless the buffer holds that many bytes, and a
 * writer 2^31 + 2 sub-buffers ahead of its readers (trace_test's jump),
 * then a lap: read(2) must find the newest records; last, the trace
 * closed under a poll(2) (trace_test's close), asleep or inside it:
 * poll(2) must return POLLERR before its timeout.
 *
 * --stress: no hostile call; one plain reader per buffer, with read(2) of
 * random counts and PEEK/NEXT in turn, and stop and start in a loop: with
 * trace_test's flush_us, writers, flushes, stops and a reader at once.
 *
 * The last line is "relayfuzz: ... V violations"; the exit status is 0
 * if V is 0, 1 if not, 2 on a usage or setup error (named, with
 * strerror).  The same seed makes the same calls, not the same
 * interleaving with the writers.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/relay_trace.h>
#include "fuzz_rec.h"

#define MAX_BUFS	FUZZ_WRITERS
#define HDR		((uint32_t)sizeof(struct relay_trace_header))
#define REC_MAX		(HDR + FUZZ_REC_MAX)
#define MAX_PROCS	32
#define CHUNK		(1 << 20)
#define MARK		"/sys/module/trace_test/parameters/mark"
#define EMIT		"/sys/module/trace_test/parameters/emit"
#define CLOSE		"/sys/module/trace_test/parameters/close"
#define JUMP		"/sys/module/trace_test/parameters/jump"
#define CHECK_WAIT_MS	5000	/* the built PEEK's wait_ms */

/* The stream of one buffer, as the kernel delivered it, and its checks. */
struct ledger {
	pthread_mutex_t lock;		/* held across a consuming call */
	unsigned char part[REC_MAX];	/* a record begun, not yet whole */
	uint32_t have;
	bool lost_sync;			/* a bad record: skip to a break */
	bool any;
	__u64 last_seq;		/* of the last record, this segment */
	bool have_n[FUZZ_WRITERS];
	__u64 last_n[FUZZ_WRITERS];	/* each writer's, this segment */
	__u64 seen[FUZZ_WRITERS];	/* records delivered, per writer */
	__u64 records, markers, bytes, gaps, epipes, cut;
	bool marked;
	__u64 mark_seq;		/* the largest marker's number */
	/* The last calls that consumed, for the report of a violation. */
	struct {
		char op;
		int pid;
		__u64 pos, len;
		long ret;
		__u64 bytes;
	} hist[32];
	unsigned int nhist;
};

enum { OP_READ, OP_PEEK, OP_NEXT, OP_HOSTILE, OP_BADFIELD, OP_WAIT, OP_MAP,
       OP_FORK, OP_STATE, OP_PERCENT, OP_REWIND, OP_NR };

static const char *const op_names[OP_NR] = {
	"read", "peek+consume", "next", "hostile", "badfield", "wait", "mmap",
	"fork", "state", "percent", "rewind",
};

struct shared {
	pthread_rwlock_t epoch;		/* shared by calls; a rewind's alone */
	pthread_mutex_t msg_lock;
	__u64 violations;
	char first[512];		/* the first violation */
	double start, first_at;		/* when the calls began; it, after */
	__u64 ops[OP_NR], estale, einval, ebadf, alarms;
	int procs;			/* alive, forked children included */
	struct ledger buf[MAX_BUFS];
};

static struct shared *sh;
static char dir[512];
static int nbufs, bufs[MAX_BUFS];
static uint32_t nr_sub, sub_size;
static bool flight, global_trace, stress;
static unsigned long long run_seed;
static size_t map_len;
static double deadline;

/* This process's: the files of the buffers, and their mappings. */
static int fds[MAX_BUFS], wo_fds[MAX_BUFS];
static const unsigned char *maps[MAX_BUFS];
static __u64 rnd;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static __u64 rand64(void)
{
	/* xorshift64*: the same calls for the same seed. */
	rnd ^= rnd >> 12;
	rnd ^= rnd << 25;
	rnd ^= rnd >> 27;
	return rnd * 0x2545f4914f6cdd1dULL;
}

static uint32_t rnd_n(uint32_t n)
{
	return n ? rand64() % n : 0;
}

static struct ledger *cur_ledger;	/* the one this process holds */

static __attribute__((format(printf, 1, 2))) void violation(const char *fmt, ...)
{
	struct ledger *l = cur_ledger;

	pthread_mutex_lock(&sh->msg_lock);
	if (!sh->violations++) {
		va_list ap;
		unsigned int i;

		sh->first_at = now() - sh->start;
		va_start(ap, fmt);
		vsnprintf(sh->first, sizeof(sh->first), fmt, ap);
		va_end(ap);
		/* The calls that led there, oldest first. */
		for (i = 0; l && i < 32; i++) {
			unsigned int j = (l->nhist + i) % 32;

			if (l->hist[j].op)
				fprintf(stderr, "relayfuzz: before it: pid %d %c pos %llu len %llu -> %ld (ledger at %llu bytes)\n",
					l->hist[j].pid, l->hist[j].op,
					l->hist[j].pos, l->hist[j].len,
					l->hist[j].ret, l->hist[j].bytes);
		}
	}
	pthread_mutex_unlock(&sh->msg_lock);
}

/* Note a consuming call of the buffer whose lock this process holds. */
static void note(struct ledger *l, char op, __u64 pos, __u64 len, long ret)
{
	unsigned int j = l->nhist++ % 32;

	l->hist[j].op = op;
	l->hist[j].pid = getpid();
	l->hist[j].pos = pos;
	l->hist[j].len = len;
	l->hist[j].ret = ret;
	l->hist[j].bytes = l->bytes;
}

static int die(const char *what, const char *arg, int err)
{
	fprintf(stderr, "relayfuzz: %s %s: %s\n", what, arg, strerror(err));
	exit(2);
}

static int read_file(const char *name, char *buf, size_t size)
{
	char path[600];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

/* The small file at @path (a sysfs or tracefs value), as a string in @buf. */
static void read_small(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		die("open", path, errno);
	n = read(fd, buf, size - 1);
	close(fd);
	if (n <= 0)
		die("read", path, n < 0 ? errno : EIO);
	buf[n] = '\0';
}

static unsigned long long read_num(const char *path)
{
	char buf[64];

	read_small(path, buf, sizeof(buf));
	return strtoull(buf, NULL, 10);
}

static int write_file(const char *name, const char *text)
{
	char path[600];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	close(fd);
	return n < 0 ? -errno : 0;
}

/* A segment of a buffer's stream ends: a record begun is dropped. */
static void ledger_break(struct ledger *l, bool rewound)
{
	if (l->have)
		l->cut++;
	l->have = 0;
	l->lost_sync = false;
	if (rewound) {
		l->any = false;
		memset(l->have_n, 0, sizeof(l->have_n));
	}
}

/* One whole record: check it and count it. */
static void ledger_record(struct ledger *l, int b)
{
	const struct relay_trace_header *h = (const void *)l->part;
	const __u64 *w = (const void *)(l->part + HDR);
	uint32_t writer = fuzz_writer(w[0]), i;
	__u64 n = fuzz_count(w[0]);

	for (i = 1; i < h->len / 8; i++)
		if (w[i] != fuzz_word(w[0], i)) {
			violation("trace%d: record %llu of writer %u: word %u is %#llx, not %#llx (torn or stale)",
				  bufs[b], n, writer, i, w[i], fuzz_word(w[0], i));
			l->lost_sync = true;
			return;
		}
	if (writer >= FUZZ_WRITERS || writer != h->cpu) {
		violation("trace%d: a record of writer %u written on CPU %u",
			  bufs[b], writer, h->cpu);
		return;
	}
	if (l->any && h->seq <= l->last_seq)
		violation("trace%d: record number %llu after %llu (repeated or out of order)",
			  bufs[b], (__u64)h->seq, l->last_seq);
	else if (l->any)
		l->gaps += h->seq - l->last_seq - 1;
	else if (!flight && !l->records && !l->markers)
		l->gaps += h->seq;	/* from 0, where the buffer starts */
	if (l->have_n[writer] && n <= l->last_n[writer])
		violation("trace%d: writer %u's write %llu after its %llu (delivered twice)",
			  bufs[b], writer, n, l->last_n[writer]);
	l->any = true;
	l->last_seq = h->seq;
	l->have_n[writer] = true;
	l->last_n[writer] = n;
	if (h->len == FUZZ_MARK_LEN) {
		l->markers++;
		if (!l->marked || h->seq > l->mark_seq)
			l->mark_seq = h->seq;
		l->marked = true;
	} else {
		l->records++;
		l->seen[writer]++;
	}
}

/* Bytes of buffer @b, as the kernel delivered them next. */
static void ledger_feed(int b, const unsigned char *p, size_t len)
{
	struct ledger *l = &sh->buf[b];
	const struct relay_trace_header *h = (const void *)l->part;

	l->bytes += len;
	while (len && !l->lost_sync) {
		uint32_t want = l->have < HDR ? HDR :
				RELAY_TRACE_RECORD_SIZE(h->size, h->len);
		uint32_t take = want - l->have < len ? want - l->have : len;

		memcpy(l->part + l->have, p, take);
		l->have += take;
		p += take;
		len -= take;
		if (l->have == HDR) {
			if (h->size != HDR || h->flags || h->reserved ||
			    (h->len != FUZZ_MARK_LEN &&
			     (h->len < FUZZ_REC_MIN || h->len > FUZZ_REC_MAX)) ||
			    h->len % 8) {
				violation("trace%d: a bad header after %llu bytes: size %u, flags %u, len %u, seq %llu (torn, or not a header)",
					  bufs[b], l->bytes - len - take, h->size,
					  h->flags, h->len, (__u64)h->seq);
				l->lost_sync = true;
			}
			continue;
		}
		if (l->have == want) {
			ledger_record(l, b);
			l->have = 0;
		}
	}
}

/* --- the calls ------------------------------------------------------- */

static void on_alarm(int sig)
{
	(void)sig;
	__atomic_add_fetch(&sh->alarms, 1, __ATOMIC_RELAXED);
}

/* SIGALRM every 2 to 9 ms in this process, or none (not inherited). */
static void alarm_every(bool on)
{
	struct itimerval it;

	memset(&it, 0, sizeof(it));
	if (on) {
		it.it_interval.tv_usec = 2000 + rnd_n(7000);
		it.it_value = it.it_interval;
	}
	if (setitimer(ITIMER_REAL, &it, NULL))
		die("setitimer", "ITIMER_REAL", errno);
}

static long peek(int fd, struct relay_trace_peek *pk, uint32_t wait_ms)
{
	memset(pk, 0, sizeof(*pk));
	pk->wait_ms = wait_ms;
	return ioctl(fd, RELAY_TRACE_IOC_PEEK, pk) ? -errno : 0;
}

static long consume(int fd, __u64 pos, __u64 len)
{
	struct relay_trace_span span = { .pos = pos, .len = len };

	return ioctl(fd, RELAY_TRACE_IOC_CONSUME, &span) ? -errno : 0;
}

/* Whether PEEK's pieces lie in the mapping and add up to its length. */
static bool peek_ok(const struct relay_trace_peek *pk)
{
	__u64 sum = 0;
	uint32_t i;

	if (pk->nr > RELAY_TRACE_PEEK_IOVS)
		return false;
	for (i = 0; i < pk->nr; i++) {
		if (pk->iov[i].off > map_len ||
		    pk->iov[i].len > map_len - pk->iov[i].off)
			return false;
		sum += pk->iov[i].len;
	}
	return sum == pk->len;
}

/* Copy the first @len bytes a PEEK gave, from the mapping of buffer @b. */
static void copy_peeked(int b, const struct relay_trace_peek *pk,
			unsigned char *out, __u64 len)
{
	__u64 got = 0, take;
	uint32_t i;

	for (i = 0; i < pk->nr && got < len; i++) {
		take = pk->iov[i].len < len - got ? pk->iov[i].len : len - got;
		memcpy(out + got, maps[b] + pk->iov[i].off, take);
		got += take;
	}
}

/*
 * Feed the first @len bytes of a PEEK, copied in @data, piece by piece: a
 * piece that starts a sub-buffer starts a record, as sub-buffers hold whole
 * records.  A record begun before it was cut: in a flight trace the writer
 * lapped the readers there, which their position told (it jumped); in one
 * that does not overwrite, that cannot be.
 */
static void feed_peeked(int b, const struct relay_trace_peek *pk,
			const unsigned char *data, __u64 len)
{
	struct ledger *l = &sh->buf[b];
	__u64 got = 0, take;
	uint32_t i;

	for (i = 0; i < pk->nr && got < len; i++) {
		take = pk->iov[i].len < len - got ? pk->iov[i].len : len - got;
		if (!(pk->iov[i].off % sub_size) && l->have) {
			if (!flight)
				violation("trace%d: a record cut at the start of a sub-buffer, in a trace that does not overwrite",
					  bufs[b]);
			ledger_break(l, false);
		}
		ledger_feed(b, data + got, take);
		got += take;
	}
}

static bool map_buf(int b)
{
	void *m;

	if (maps[b])
		return true;
	m = mmap(NULL, map_len, PROT_READ, MAP_SHARED, fds[b], 0);
	if (m == MAP_FAILED) {
		violation("mmap trace%d: %s", bufs[b], strerror(errno));
		return false;
	}
	maps[b] = m;
	return true;
}

/* A count for read(2): any, biased to the edges. */
static size_t read_count(void)
{
	static const size_t edges[] = { 1, 7, 8, 9, HDR - 1, HDR, HDR + 1 };

	switch (rnd_n(6)) {
	case 0:
		return edges[rnd_n(sizeof(edges) / sizeof(edges[0]))];
	case 1:
		return sub_size - 1 + rnd_n(3);
	case 2:
		return (size_t)nr_sub * sub_size + rnd_n(3) - 1;
	case 3:
		return CHUNK;
	default:
		return 1 + rnd_n(4 * sub_size);
	}
}

static unsigned char *chunk;

/* read(2) of buffer @b, under its lock: the bytes go to the ledger. */
static void op_read(int b)
{
	struct ledger *l = &sh->buf[b];
	size_t count = read_count();
	ssize_t n;

	pthread_mutex_lock(&l->lock);
	cur_ledger = l;
	n = read(fds[b], chunk, count);
	note(l, 'r', 0, count, n < 0 ? -errno : n);
	if (n > 0) {
		ledger_feed(b, chunk, n);
	} else if (n < 0 && errno == EPIPE) {
		if (!flight)
			violation("trace%d: EPIPE from a trace that does not overwrite",
				  bufs[b]);
		l->epipes++;
		ledger_break(l, false);
	} else if (n < 0 && errno != EINTR) {
		violation("read trace%d (%zu): %s", bufs[b], count,
			  strerror(errno));
	}
	pthread_mutex_unlock(&l->lock);
}

/*
 * PEEK, copy from the mapping, then hand back part or all of it, or more
 * (CONSUME, or NEXT and on with what it shows); under the buffer's lock.
 */
static void op_peek(int b, bool next)
{
	struct ledger *l = &sh->buf[b];
	struct relay_trace_next nx;
	struct relay_trace_peek pk;
	__u64 len;
	long ret;
	int i;

	if (!map_buf(b))
		return;
	pthread_mutex_lock(&l->lock);
	cur_ledger = l;
	ret = peek(fds[b], &pk, 0);
	note(l, 'p', pk.pos, pk.len, ret);
	for (i = 0; !ret && pk.len && i < 4; i++) {
		if (!peek_ok(&pk)) {
			violation("trace%d: PEEK's pieces are not in the mapping",
				  bufs[b]);
			break;
		}
		len = rnd_n(3) ? pk.len : 1 + rnd_n(pk.len);
		copy_peeked(b, &pk, chunk, len);
		if (next) {
			memset(&nx, 0, sizeof(nx));
			nx.span.pos = pk.pos;
			nx.span.len = len;
			ret = ioctl(fds[b], RELAY_TRACE_IOC_NEXT, &nx) ? -errno : 0;
		} else {
			ret = consume(fds[b], pk.pos, len);
		}
		note(l, next ? 'n' : 'c', pk.pos, len, ret);
		if (ret == -ESTALE) {
			/*
			 * Overwritten as it was copied, or a switch that may
			 * overwrite it was deciding: dropped, not delivered.
			 */
			sh->estale++;
			break;
		}
		if (ret) {
			violation("%s trace%d of %llu of %llu bytes: %s",
				  next ? "NEXT" : "CONSUME", bufs[b], len, pk.len,
				  strerror(-ret));
			break;
		}
		feed_peeked(b, &pk, chunk, len);
		if (!next)
			break;
		pk = nx.peek;
	}
	if (ret && ret != -ESTALE && !(i == 0 && ret == -EINTR))
		violation("PEEK trace%d: %s", bufs[b], strerror(-ret));
	pthread_mutex_unlock(&l->lock);
}

/* A u64 near @v, as a hostile or careless caller passes one. */
static __u64 near(__u64 v)
{
	__u64 k = 1 + rnd_n(4), lap = (__u64)nr_sub * sub_size;

	switch (rnd_n(8)) {
	case 0:
		return v + (k << 32);
	case 1:
		return v - (k << 32);
	case 2:
		return v + k * lap * 64;
	case 3:
		return UINT64_MAX - v + 1;
	case 4:
		return UINT64_MAX;
	case 5:
		return 0;
	default:
		return rand64();
	}
}

/*
 * Calls that must fail, under the buffer's lock, from a position PEEK just
 * gave: one that is not the readers' (misaligned, or far), for ESTALE; a
 * length of 0, of more than a buffer can hold, or that wraps, for EINVAL
 * (or ESTALE: a flight trace's writer may have lapped the readers
 * meanwhile, and a switch that may reuse the readers' slot may be deciding
 * whether to, in any trace).
 */
static void op_hostile(int b)
{
	struct ledger *l = &sh->buf[b];
	__u64 pos, len, most = (__u64)(nr_sub + 1) * sub_size;
	struct relay_trace_peek pk;
	long ret;

	pthread_mutex_lock(&l->lock);
	if (peek(fds[b], &pk, 0))
		goto out;
	pos = pk.pos;
	len = pk.len ? 1 + rnd_n(pk.len) : 1;
	if (rnd_n(2)) {
		/*
		 * Not the readers' position, and not a multiple of 8, where a
		 * lap would move them (the start of a sub-buffer).
		 */
		pos = rnd_n(2) ? pk.pos + 1 + rnd_n(7) : near(pk.pos);
		if (!(pos % 8))
			pos++;
		if (pos == pk.pos)
			goto out;
		ret = consume(fds[b], pos, len);
		if (ret != -ESTALE)
			violation("CONSUME trace%d at %#llx (the readers at %#llx) of %llu: %s, not ESTALE",
				  bufs[b], pos, pk.pos, len,
				  ret ? strerror(-ret) : "consumed");
		sh->estale++;
	} else {
		do {
			len = rnd_n(4) ? near(pk.len) : 0;
		} while (len && len <= most);
		ret = consume(fds[b], pos, len);
		if (ret != -EINVAL && ret != -ESTALE)
			violation("CONSUME trace%d of %#llx bytes (%llu ready): %s, not EINVAL",
				  bufs[b], len, pk.len,
				  ret ? strerror(-ret) : "consumed");
		sh->einval++;
	}
out:
	pthread_mutex_unlock(&l->lock);
}

/* Input fields that must be 0, a span's flags, a file not open to read. */
static void op_badfield(int b)
{
	struct relay_trace_span span = { .flags = 1 + rnd_n(8) };
	struct relay_trace_peek pk;
	long ret;

	memset(&pk, 0, sizeof(pk));
	switch (rnd_n(6)) {
	case 0:
		pk.pos = 1 + rand64();
		break;
	case 1:
		pk.len = 1 + rnd_n(100);
		break;
	case 2:
		pk.nr = 1 + rnd_n(RELAY_TRACE_PEEK_IOVS);
		break;
	case 3:
		pk.flags = 1 << rnd_n(32);
		break;
	case 4:
		pk.reserved = 1 + rnd_n(100);
		break;
	default:
		pk.iov[rnd_n(RELAY_TRACE_PEEK_IOVS)].off = 1 + rand64() % 4096;
	}
	ret = ioctl(fds[b], RELAY_TRACE_IOC_PEEK, &pk) ? -errno : 0;
	if (ret != -EINVAL)
		violation("PEEK trace%d with an output field set: %s, not EINVAL",
			  bufs[b], ret ? strerror(-ret) : "accepted");
	ret = ioctl(fds[b], RELAY_TRACE_IOC_CONSUME, &span) ? -errno : 0;
	if (ret != -EINVAL)
		violation("CONSUME trace%d with flags %#llx: %s, not EINVAL",
			  bufs[b], (unsigned long long)span.flags,
			  ret ? strerror(-ret) : "consumed");
	memset(&pk, 0, sizeof(pk));
	ret = ioctl(wo_fds[b], RELAY_TRACE_IOC_PEEK, &pk) ? -errno : 0;
	if (ret != -EBADF)
		violation("PEEK of trace%d opened write-only: %s, not EBADF",
			  bufs[b], ret ? strerror(-ret) : "accepted");
	span.flags = 0;
	ret = ioctl(wo_fds[b], RELAY_TRACE_IOC_CONSUME, &span) ? -errno : 0;
	if (ret != -EBADF)
		violation("CONSUME of trace%d opened write-only: %s, not EBADF",
			  bufs[b], ret ? strerror(-ret) : "consumed");
	sh->einval += 2;
	sh->ebadf += 2;
}

/* A PEEK that waits, or poll(2): neither consumes. */
static void op_wait(int b)
{
	struct relay_trace_peek pk;
	struct pollfd pfd = { .fd = fds[b], .events = POLLIN };

	if (rnd_n(2)) {
		long ret = peek(fds[b], &pk, rnd_n(30));

		/* SIGALRM's handler has SA_RESTART: the wait restarts. */
		if (ret)
			violation("PEEK trace%d, waiting: %s%s", bufs[b],
				  strerror(-ret), ret == -EINTR ?
				  " (a signal whose handler has SA_RESTART ended it)" : "");
	} else if (poll(&pfd, 1, rnd_n(30)) < 0 && errno != EINTR) {
		violation("poll trace%d: %s", bufs[b], strerror(errno));
	}
}

static void op_map(int b)
{
	if (maps[b] && rnd_n(2)) {
		munmap((void *)maps[b], map_len);
		maps[b] = NULL;
	} else {
		map_buf(b);
	}
}

static void op_state(void)
{
	int ret = write_file("state", rnd_n(2) ? "start" : "stop");

	if (ret && ret != -EBUSY && ret != -EINVAL)
		violation("state: %s", strerror(-ret));
}

static void op_percent(void)
{
	char v[8];
	int ret;

	snprintf(v, sizeof(v), "%u", rnd_n(4) ? rnd_n(101) : 0);
	ret = write_file("buffer_percent", v);
	if (ret)
		violation("buffer_percent %s: %s", v, strerror(-ret));
}

/* A rewind: every call out of the way, every ledger's segment restarts. */
static void op_rewind(void)
{
	int b, ret;

	pthread_rwlock_unlock(&sh->epoch);
	pthread_rwlock_wrlock(&sh->epoch);
	ret = write_file("rewind", "1");
	if (ret && ret != -EINVAL)
		violation("rewind: %s", strerror(-ret));
	for (b = 0; b < nbufs; b++)
		ledger_break(&sh->buf[b], true);
	pthread_rwlock_unlock(&sh->epoch);
	pthread_rwlock_rdlock(&sh->epoch);
}

static void open_bufs(void)
{
	char path[600];
	int b;

	for (b = 0; b < nbufs; b++) {
		snprintf(path, sizeof(path), "%s/trace%d", dir, bufs[b]);
		fds[b] = open(path, O_RDONLY);
		if (fds[b] < 0)
			die("open", path, errno);
		wo_fds[b] = open(path, O_WRONLY);
		if (wo_fds[b] < 0)
			die("open (write-only)", path, errno);
	}
}

static void run_ops(double until, int depth);

static void op_fork(double until, int depth)
{
	pid_t pid;

	if (depth > 1 || __atomic_load_n(&sh->procs, __ATOMIC_RELAXED) >= MAX_PROCS)
		return;
	__atomic_add_fetch(&sh->procs, 1, __ATOMIC_RELAXED);
	pid = fork();
	if (pid < 0) {
		__atomic_sub_fetch(&sh->procs, 1, __ATOMIC_RELAXED);
		return;
	}
	if (pid == 0) {
		/* The child goes on with the files and maps it inherited. */
		rnd ^= 0x9e3779b97f4a7c15ULL * (__u64)getpid();
		run_ops(until < now() + 2 ? until : now() + 2, depth + 1);
		__atomic_sub_fetch(&sh->procs, 1, __ATOMIC_RELAXED);
		_exit(0);
	}
}

/* The calls' mix: each op below its percentile's bound. */
static const struct {
	int op;
	uint32_t below;
} op_mix[] = {
	{ OP_READ, 22 }, { OP_PEEK, 40 }, { OP_NEXT, 55 }, { OP_HOSTILE, 70 },
	{ OP_BADFIELD, 76 }, { OP_WAIT, 82 }, { OP_MAP, 87 }, { OP_FORK, 89 },
	{ OP_STATE, 94 }, { OP_PERCENT, 96 }, { OP_REWIND, 100 },
};

/* The op for percentile @r; a rewind only on a flight trace. */
static int pick_op(uint32_t r)
{
	size_t i;

	for (i = 0; r >= op_mix[i].below; i++)
		;
	return op_mix[i].op == OP_REWIND && !flight ? OP_READ : op_mix[i].op;
}

static void run_ops(double until, int depth)
{
	alarm_every(true);
	pthread_rwlock_rdlock(&sh->epoch);
	while (now() < until) {
		int b = rnd_n(nbufs);
		int op = pick_op(rnd_n(100));

		__atomic_add_fetch(&sh->ops[op], 1, __ATOMIC_RELAXED);
		switch (op) {
		case OP_READ:
			op_read(b);
			break;
		case OP_PEEK:
		case OP_NEXT:
			op_peek(b, op == OP_NEXT);
			break;
		case OP_HOSTILE:
			op_hostile(b);
			break;
		case OP_BADFIELD:
			op_badfield(b);
			break;
		case OP_WAIT:
			pthread_rwlock_unlock(&sh->epoch);
			op_wait(b);
			pthread_rwlock_rdlock(&sh->epoch);
			break;
		case OP_MAP:
			op_map(b);
			break;
		case OP_FORK:
			pthread_rwlock_unlock(&sh->epoch);
			op_fork(until, depth);
			pthread_rwlock_rdlock(&sh->epoch);
			break;
		case OP_STATE:
			op_state();
			break;
		case OP_PERCENT:
			op_percent();
			break;
		default:
			op_rewind();
		}
	}
	pthread_rwlock_unlock(&sh->epoch);
	alarm_every(false);
	while (wait(NULL) > 0)
		;
}

/* --stress: one plain reader per buffer; this process stops and starts. */
static void run_stress(void)
{
	pid_t pids[MAX_BUFS];
	int b;

	for (b = 0; b < nbufs; b++) {
		pids[b] = fork();
		if (pids[b] < 0)
			die("fork", "", errno);
		if (pids[b] == 0) {
			rnd ^= 0x9e3779b97f4a7c15ULL * (b + 1);
			alarm_every(true);
			while (now() < deadline) {
				if (rnd_n(2))
					op_read(b);
				else
					op_peek(b, true);
				op_wait(b);
			}
			_exit(0);
		}
	}
	while (now() < deadline) {
		__atomic_add_fetch(&sh->ops[OP_STATE], 1, __ATOMIC_RELAXED);
		op_state();
		usleep(1000 + rnd_n(20000));
	}
	while (wait(NULL) > 0)
		;
}

/* Read buffer @b to its end, under its lock. */
static void drain(int b)
{
	struct ledger *l = &sh->buf[b];

	pthread_mutex_lock(&l->lock);
	for (;;) {
		ssize_t n = read(fds[b], chunk, CHUNK);

		if (n > 0) {
			ledger_feed(b, chunk, n);
			continue;
		}
		if (n < 0 && errno == EPIPE) {
			l->epipes++;
			ledger_break(l, false);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			violation("read trace%d: %s", bufs[b], strerror(errno));
		break;
	}
	pthread_mutex_unlock(&l->lock);
}

static unsigned long long param_sum(const char *name, unsigned long long *per)
{
	char path[128], buf[4096], *p, *end;
	unsigned long long sum = 0;
	int i = 0;

	snprintf(path, sizeof(path), "/sys/module/trace_test/parameters/%s", name);
	read_small(path, buf, sizeof(buf));
	for (p = buf; *p && i < FUZZ_WRITERS; p = end + (*end == ','), i++) {
		unsigned long long v = strtoull(p, &end, 10);

		if (end == p)
			break;
		if (per)
			per[i] = v;
		sum += v;
	}
	return sum;
}

/*
 * The end: stopped and drained; each writer writes its marker, which
 * numbers its buffer's last write; drained again.  Then the counts.
 */
static void finish(void)
{
	unsigned long long ok[FUZZ_WRITERS] = { 0 }, dropped, refused, nospc,
			   busy, other, again, records = 0, gaps = 0, epipes = 0,
			   cut = 0, bytes = 0, attempts = 0, delivered = 0;
	unsigned int writers;
	char state[64];
	double t;
	int b, fd;

	write_file("state", "stop");
	for (b = 0; b < nbufs; b++)
		drain(b);
	if (write_file("state", "start"))
		die("start", dir, errno);
	fd = open(MARK, O_WRONLY);
	if (fd < 0 || write(fd, "1", 1) != 1)
		die("write", MARK, errno);
	close(fd);
	/* Read on, so that every marker finds room. */
	writers = sysconf(_SC_NPROCESSORS_ONLN);
	for (t = now(); now() < t + 20; usleep(1000)) {
		for (b = 0; b < nbufs; b++)
			drain(b);
		if (read_num(MARK) >= writers)
			break;
	}
	if (read_num(MARK) < writers)
		violation("%u writers, %llu markers written", writers,
			  read_num(MARK));
	write_file("state", "stop");
	for (b = 0; b < nbufs; b++)
		drain(b);

	param_sum("fz_ok", ok);
	nospc = param_sum("fz_nospc", NULL);
	busy = param_sum("fz_busy", NULL);
	again = param_sum("fz_again", NULL);
	other = param_sum("fz_other", NULL);
	if (read_file("dropped", state, sizeof(state)))
		strcpy(state, "0");
	dropped = strtoull(state, NULL, 10);
	if (read_file("refused", state, sizeof(state)))
		die("read", "refused", errno);
	refused = strtoull(state, NULL, 10);

	for (b = 0; b < nbufs; b++) {
		struct ledger *l = &sh->buf[b];

		if (l->have)
			violation("trace%d: its stream ends inside a record (%u bytes of it)",
				  bufs[b], l->have);
		if (!l->marked)
			violation("trace%d: no marker read", bufs[b]);
		else
			attempts += l->mark_seq + 1;
		delivered += l->records + l->markers;
		records += l->records;
		gaps += l->gaps;
		epipes += l->epipes;
		cut += l->cut;
		bytes += l->bytes;
	}
	if (!flight) {
		for (unsigned int w = 0; w < FUZZ_WRITERS; w++) {
			unsigned long long seen = 0;

			for (b = 0; b < nbufs; b++)
				seen += sh->buf[b].seen[w];
			if (seen != ok[w])
				violation("writer %u: %llu records written, %llu delivered", w,
					  ok[w], seen);
		}
		if (attempts - delivered != dropped + refused)
			violation("%llu writes numbered, %llu delivered: %llu missing, dropped %llu + refused %llu",
				  attempts, delivered, attempts - delivered,
				  dropped, refused);
		if (gaps != attempts - delivered)
			violation("the gaps in the numbers add up to %llu, the writes not delivered to %llu",
				  gaps, attempts - delivered);
		if (dropped != nospc || refused != busy + other)
			violation("dropped %llu, refused %llu; the writers were told ENOSPC %llu, EBUSY %llu, other %llu",
				  dropped, refused, nospc, busy, other);
	}
	printf("relayfuzz: %s%s trace, %d buffers of %u x %u; %llu records delivered whole (%llu bytes), %llu markers; dropped %llu, refused %llu (writers told EBUSY %llu), writes while off or paused %llu; EPIPE %llu (records cut %llu)\n",
	       global_trace ? "global" : "per-CPU", flight ? " flight" : "",
	       nbufs, nr_sub, sub_size, records, bytes, delivered - records,
	       dropped, refused, busy, again, epipes, cut);
}

/* --- built conditions ------------------------------------------------ */

/* A write to a control file that must succeed. */
static void must_write(const char *name, const char *text)
{
	int ret = write_file(name, text);

	if (ret)
		violation("write '%s' to %s: %s", text, name, strerror(-ret));
}

/* A write to a trace_test parameter that must succeed. */
static void param_write(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		die("write", path, errno);
	close(fd);
}

/*
 * This process on the CPU of buffer 0 (any CPU, of a global trace's), so
 * that what trace_test's emit writes goes there; or anywhere again.
 */
static void pin_buf0(bool on)
{
	cpu_set_t cpus;

	CPU_ZERO(&cpus);
	if (on)
		CPU_SET(global_trace ? 0 : bufs[0], &cpus);
	else
		for (int c = 0; c < CPU_SETSIZE; c++)
			CPU_SET(c, &cpus);
	if (sched_setaffinity(0, sizeof(cpus), &cpus) && on)
		die("sched_setaffinity", "the CPU of buffer 0", errno);
}

/* Read buffer @b to its end, past the ledger: the bytes it held. */
static __u64 drain_raw(int b)
{
	__u64 bytes = 0;
	ssize_t n;

	while ((n = read(fds[b], chunk, CHUNK)) != 0) {
		if (n > 0) {
			bytes += n;
		} else if (errno != EINTR) {
			violation("read trace%d: %s", bufs[b], strerror(errno));
			break;
		}
	}
	return bytes;
}

/* A PEEK that waits, in a thread of its own; the main thread watches it. */
static struct {
	pid_t tid;
	bool done;
	long ret;
	__u64 len;
	double end;
} waiter;

static void *peek_waiter(void *arg)
{
	struct relay_trace_peek pk;

	(void)arg;
	__atomic_store_n(&waiter.tid, (pid_t)syscall(SYS_gettid), __ATOMIC_RELEASE);
	waiter.ret = peek(fds[0], &pk, CHECK_WAIT_MS);
	waiter.len = pk.len;
	waiter.end = now();
	__atomic_store_n(&waiter.done, true, __ATOMIC_RELEASE);
	return NULL;
}

/* The state of thread @tid of this process ('R', 'S', ...), or 0. */
static char task_state(pid_t tid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

/*
 * Until the thread whose id is *@tid is asleep (S) after @alarms signals
 * in all, or *@done says it returned: false if neither within 10 s.
 */
static bool asleep(const pid_t *tid, const bool *done, __u64 alarms)
{
	double t = now();
	pid_t id;

	while (now() < t + 10) {
		if (__atomic_load_n(done, __ATOMIC_ACQUIRE))
			return true;
		id = __atomic_load_n(tid, __ATOMIC_ACQUIRE);
		if (id && __atomic_load_n(&sh->alarms, __ATOMIC_RELAXED) >= alarms &&
		    task_state(id) == 'S')
			return true;
		usleep(1000);
	}
	return false;
}

/*
 * A PEEK waits for the whole buffer (buffer_percent 100) of buffer 0, one
 * sub-buffer of which is ready (a record emitted, then a stop and a start:
 * the current sub-buffer is empty, the writers wrote their markers and
 * write no more).  Once it is asleep it gets SIGALRM, whose handler has
 * SA_RESTART: it must restart and sleep again.  Then the trace stops; its
 * flush switches nothing, so no switch wakes the PEEK: the stop must, and
 * the PEEK return the ready sub-buffer, well before its wait_ms.  Returns
 * how long the PEEK took to return after the stop, in ms.
 */
static double check_wake(void)
{
	double stopped = 0, after = -1;
	pthread_t t;
	__u64 alarms;
	int err;

	pin_buf0(true);
	must_write("buffer_percent", "100");
	must_write("state", "start");
	param_write(EMIT, "1");
	must_write("state", "stop");
	must_write("state", "start");

	err = pthread_create(&t, NULL, peek_waiter, NULL);
	if (err)
		die("pthread_create", "PEEK waiter", err);
	if (!asleep(&waiter.tid, &waiter.done, 0) || waiter.done) {
		violation("trace%d: a PEEK for buffer_percent 100, one sub-buffer ready, trace running: %s",
			  bufs[0], waiter.done ? "returned at once" : "not asleep after 10 s");
		goto out;
	}
	alarms = __atomic_load_n(&sh->alarms, __ATOMIC_RELAXED);
	err = pthread_kill(t, SIGALRM);
	if (err)
		die("pthread_kill", "SIGALRM", err);
	if (!asleep(&waiter.tid, &waiter.done, alarms + 1)) {
		violation("trace%d: a PEEK signalled while it waited: not asleep again after 10 s",
			  bufs[0]);
		goto out;
	}
	stopped = now();
	must_write("state", "stop");
out:
	if (!stopped)
		must_write("state", "stop");
	pthread_join(t, NULL);
	if (stopped)
		after = (waiter.end - stopped) * 1000;
	if (waiter.ret == -EINTR)
		violation("trace%d: a PEEK that waited got SIGALRM, whose handler has SA_RESTART: EINTR, where the wait must restart",
			  bufs[0]);
	else if (waiter.ret)
		violation("trace%d: a PEEK that waited: %s", bufs[0],
			  strerror(-waiter.ret));
	else if (stopped && after >= CHECK_WAIT_MS / 2)
		violation("trace%d: a PEEK waiting for buffer_percent returned %.0f ms after the trace stopped, at its %u ms wait_ms: the stop, whose flush switched nothing, woke nobody",
			  bufs[0], after, CHECK_WAIT_MS);
	else if (stopped && !waiter.len)
		violation("trace%d: a PEEK woken by the stop gave nothing; a sub-buffer was ready",
			  bufs[0]);
	pin_buf0(false);
	return after;
}

/*
 * Flight traces: a CONSUME whose bound is an earlier PEEK's.  Stopped and
 * drained, each buffer's PEEK gives its end p and nothing to read; a rewind
 * moves the readers back to the start q of the oldest sub-buffer held (the
 * one position CONSUME does not refuse with ESTALE; each sub-buffer start
 * below p is tried).  CONSUME(q, p - q) must fail with EINVAL unless the
 * buffer holds p - q bytes: positions count the padding at the end of each
 * sub-buffer, bytes do not.  A second rewind and a read of everything
 * tell what it held.  Returns the buffers where the length was more than
 * they held (the condition built), or -1 if no buffer's readers were found.
 */
static int check_stale_bound(void)
{
	__u64 p[MAX_BUFS] = { 0 }, tried[MAX_BUFS], held, c;
	struct relay_trace_peek pk;
	bool accepted[MAX_BUFS];
	int b, j, built = 0, found = 0;
	long ret;

	for (b = 0; b < nbufs; b++) {
		drain_raw(b);
		ret = peek(fds[b], &pk, 0);
		if (ret || pk.len)
			violation("trace%d, stopped and read to its end: PEEK gave %llu bytes, %s",
				  bufs[b], pk.len, ret ? strerror(-ret) : "not 0");
		p[b] = pk.pos;
	}
	must_write("rewind", "1");
	for (b = 0; b < nbufs; b++) {
		tried[b] = 0;
		accepted[b] = false;
		for (j = 0; j <= (int)nr_sub; j++) {
			c = p[b] - p[b] % sub_size - (__u64)j * sub_size;
			if (c == p[b])
				continue;
			ret = consume(fds[b], c, p[b] - c);
			if (ret == -ESTALE)
				continue;
			tried[b] = p[b] - c;
			accepted[b] = !ret;
			if (ret && ret != -EINVAL)
				violation("trace%d: CONSUME at the readers' position after a rewind: %s",
					  bufs[b], strerror(-ret));
			break;
		}
	}
	must_write("rewind", "1");
	for (b = 0; b < nbufs; b++) {
		held = drain_raw(b);
		if (!tried[b])
			continue;
		found++;
		if (held >= tried[b])
			continue;
		built++;
		if (accepted[b])
			violation("trace%d: after a rewind, CONSUME of %llu bytes at the readers' position succeeded; the buffer held %llu: the bound of a PEEK made before the rewind",
				  bufs[b], tried[b], held);
	}
	return found ? built : -1;
}

/*
 * The records trace_test's emit wrote, read(2) from buffer 0 to its end:
 * each "%08u\n" after its header.  Their count, with the first and last
 * numbers in *@first and *@last; -1 if any is not such a record, or the
 * numbers are not consecutive.
 */
static long read_emitted(unsigned long *first, unsigned long *last)
{
	const size_t rec = RELAY_TRACE_RECORD_SIZE(HDR, 9);
	size_t got = 0, off;
	long count = 0;
	char digits[9];
	ssize_t n;

	while (got < CHUNK && (n = read(fds[0], chunk + got, CHUNK - got)) != 0) {
		if (n < 0 && errno != EINTR)
			return -1;
		if (n > 0)
			got += n;
	}
	for (off = 0; off < got; off += rec, count++) {
		const struct relay_trace_header *h = (const void *)(chunk + off);
		unsigned long v;

		if (got - off < rec || h->size != HDR || h->len != 9 ||
		    chunk[off + HDR + 8] != '\n')
			return -1;
		memcpy(digits, chunk + off + HDR, 8);
		digits[8] = '\0';
		if (strspn(digits, "0123456789") != 8)
			return -1;
		v = strtoul(digits, NULL, 10);
		if (count && v != *last + 1)
			return -1;
		if (!count)
			*first = v;
		*last = v;
	}
	return count;
}

/*
 * Flight traces: buffer 0's writer 2^31 + 2 sub-buffers ahead of its
 * readers (trace_test's jump: readers that did not look for that long),
 * then more records emitted into it than it holds.  read(2) must find the
 * newest of them, whole and consecutive, up to the last one, as after any
 * lap.  A count the readers took as 32-bit, relative to their own, would
 * put the writer 2^31 sub-buffers behind them.  Returns how many it read.
 */
static long check_far(void)
{
	unsigned int e = 2 * nr_sub * sub_size / RELAY_TRACE_RECORD_SIZE(HDR, 9) + 1;
	unsigned long first, before, last = 0;
	char num[16];
	long n;

	pin_buf0(true);
	must_write("state", "start");
	param_write(EMIT, "1");
	must_write("state", "stop");
	n = read_emitted(&first, &before);
	if (n != 1) {
		violation("trace%d: one record emitted; read(2) got %ld", bufs[0], n);
		goto out;
	}
	snprintf(num, sizeof(num), "%d", global_trace ? 0 : bufs[0]);
	param_write(JUMP, num);
	must_write("state", "start");
	snprintf(num, sizeof(num), "%u", e);
	param_write(EMIT, num);
	must_write("state", "stop");
	n = read_emitted(&first, &last);
	if (n <= 0 || last != before + e)
		violation("trace%d, its writer 2^31 + 2 sub-buffers ahead of its readers, then %u records: read(2) got %ld%s, the last %lu, not %lu",
			  bufs[0], e, n, n < 0 ? " (not whole, or not consecutive)" : "",
			  n > 0 ? last : 0, before + e);
out:
	pin_buf0(false);
	return n;
}

/* A poll(2) of buffer 0, in a thread of its own, or not. */
static struct {
	pid_t tid;
	bool done;
	int ret;
	short revents;
	double end;
} poller;

static void *poll_waiter(void *arg)
{
	struct pollfd pfd = { .fd = fds[0], .events = POLLIN };

	(void)arg;
	__atomic_store_n(&poller.tid, (pid_t)syscall(SYS_gettid), __ATOMIC_RELEASE);
	poller.ret = poll(&pfd, 1, CHECK_WAIT_MS);
	poller.revents = pfd.revents;
	poller.end = now();
	__atomic_store_n(&poller.done, true, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * The trace closed under a poll(2) of buffer 0, read to its end: with an
 * odd seed while the poll sleeps (seen asleep), with an even one from
 * inside poll(2), between its getting on the readers' queue and its look
 * at the buffer (trace_test's close=poll, through relay's KUnit hook).
 * Either way poll(2) must return POLLERR well before its timeout.  The
 * trace is gone afterwards: the last check.
 */
static void check_close(void)
{
	const char *how = run_seed % 2 ? "1" : "poll";
	struct pollfd pfd = { .fd = fds[0], .events = POLLIN };
	double after, t;
	pthread_t th;

	drain_raw(0);
	if (run_seed % 2) {
		int err = pthread_create(&th, NULL, poll_waiter, NULL);

		if (err)
			die("pthread_create", "poll(2) waiter", err);
		if (!asleep(&poller.tid, &poller.done, 0) || poller.done)
			violation("trace%d, stopped and read to its end: poll(2) %s",
				  bufs[0], poller.done ? "returned at once" :
				  "not asleep after 10 s");
	}
	t = now();
	param_write(CLOSE, how);
	if (run_seed % 2) {
		pthread_join(th, NULL);
	} else {
		poller.ret = poll(&pfd, 1, CHECK_WAIT_MS);
		poller.revents = pfd.revents;
		poller.end = now();
	}
	after = (poller.end - t) * 1000;
	if (poller.ret < 0)
		violation("poll(2) of trace%d as the trace closed: %s", bufs[0],
			  strerror(errno));
	else if (after >= CHECK_WAIT_MS / 2 || !(poller.revents & POLLERR))
		violation("trace%d closed %s: poll(2) returned %#x after %.0f ms (timeout %u ms): %s",
			  bufs[0], run_seed % 2 ? "while poll(2) slept" :
			  "inside poll(2), before its look", poller.revents,
			  after, CHECK_WAIT_MS, "a lost wake-up");
	printf("relayfuzz: built: the trace closed %s: poll(2) returned POLLERR after %.1f ms\n",
	       run_seed % 2 ? "while a poll(2) of it slept" :
	       "inside a poll(2) of it, before its look", after);
}

/*
 * The built conditions, once the trace is stopped and drained; not with
 * --stress, whose relay_flush() loop switches sub-buffers, empty ones
 * too, and so wakes the readers.
 */
static void checks(void)
{
	double after;

	if (stress)
		return;
	after = check_wake();
	printf("relayfuzz: built: a PEEK for buffer_percent 100, asleep, signalled (SA_RESTART), asleep again, returned %.1f ms after a stop that switched nothing\n",
	       after);
	if (flight) {
		int built = check_stale_bound();

		if (built < 0)
			violation("after a rewind, no buffer's readers at a sub-buffer's start");
		printf("relayfuzz: built: after a rewind, CONSUME of an earlier PEEK's bound, more than the buffer held, tried on %d of %d buffers\n",
		       built, nbufs);
		printf("relayfuzz: built: a writer 2^31 + 2 sub-buffers ahead of its readers, then a lap: read(2) found the newest %ld records\n",
		       check_far());
	}
	check_close();
}

int main(int argc, char **argv)
{
	unsigned long long seed = 1;
	int procs = 4, i, b;
	double secs = 20;
	pthread_mutexattr_t ma;
	pthread_rwlockattr_t ra;
	struct sigaction sa;
	char flags[128], num[32], path[600];
	pid_t pid;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--secs") && i + 1 < argc)
			secs = atof(argv[++i]);
		else if (!strcmp(argv[i], "--procs") && i + 1 < argc)
			procs = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--stress"))
			stress = true;
		else {
			fprintf(stderr, "usage: relayfuzz [--seed S] [--secs T] [--procs N] [--stress] DIR\n");
			return 2;
		}
	}
	if (i != argc - 1 || procs < 1 || procs > MAX_PROCS / 2 || secs <= 0) {
		fprintf(stderr, "usage: relayfuzz [--seed S] [--secs T] [--procs N (1-%d)] [--stress] DIR\n",
			MAX_PROCS / 2);
		return 2;
	}
	run_seed = seed;
	snprintf(dir, sizeof(dir), "%s", argv[i]);
	if (read_file("flags", flags, sizeof(flags)))
		die("read", "flags", errno);
	flight = strstr(flags, "flight");
	global_trace = strstr(flags, "global");
	if (!strstr(flags, "header")) {
		fprintf(stderr, "relayfuzz: %s: a trace with record headers is needed (flags: %s)\n",
			dir, flags);
		return 2;
	}
	snprintf(path, sizeof(path), "%s/nr_sub", dir);
	nr_sub = read_num(path);
	snprintf(path, sizeof(path), "%s/sub_size", dir);
	sub_size = read_num(path);
	map_len = ((size_t)nr_sub * sub_size + sysconf(_SC_PAGESIZE) - 1) /
		  sysconf(_SC_PAGESIZE) * sysconf(_SC_PAGESIZE);
	for (b = 0; b < MAX_BUFS; b++) {
		snprintf(path, sizeof(path), "%s/trace%d", dir, b);
		if (!access(path, F_OK))
			bufs[nbufs++] = b;
	}
	if (!nbufs)
		die("no traceN in", dir, ENOENT);
	chunk = malloc(CHUNK);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (!chunk || sh == MAP_FAILED)
		die("allocate", "the ledger", ENOMEM);
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED);
	pthread_rwlockattr_init(&ra);
	pthread_rwlockattr_setpshared(&ra, PTHREAD_PROCESS_SHARED);
	pthread_rwlock_init(&sh->epoch, &ra);
	pthread_mutex_init(&sh->msg_lock, &ma);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;
	if (sigaction(SIGALRM, &sa, NULL))
		die("sigaction", "SIGALRM", errno);
	for (b = 0; b < nbufs; b++)
		pthread_mutex_init(&sh->buf[b].lock, &ma);
	open_bufs();
	write_file("state", "start");
	sh->start = now();
	deadline = sh->start + secs;
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("relayfuzz: seed %llu, %g s, %s\n", seed, secs,
	       stress ? "stress: a reader per buffer, stop and start" :
	       "hostile calls");
	if (stress) {
		rnd = seed * 0x9e3779b97f4a7c15ULL | 1;
		run_stress();
	} else {
		sh->procs = procs;
		for (i = 0; i < procs; i++) {
			pid = fork();
			if (pid < 0)
				die("fork", "", errno);
			if (pid == 0) {
				rnd = (seed * 1000 + i + 1) * 0x9e3779b97f4a7c15ULL | 1;
				run_ops(deadline, 0);
				_exit(0);
			}
		}
		while (wait(NULL) > 0)
			;
	}
	finish();
	checks();
	for (i = 0; i < OP_NR; i++)
		printf("%s%s %llu", i ? ", " : "relayfuzz: calls: ", op_names[i],
		       (unsigned long long)sh->ops[i]);
	printf("; ESTALE %llu, EINVAL %llu, EBADF %llu checked; SIGALRM %llu\n",
	       (unsigned long long)sh->estale, (unsigned long long)sh->einval,
	       (unsigned long long)sh->ebadf, (unsigned long long)sh->alarms);
	if (sh->violations)
		printf("relayfuzz: first violation, %.1f s in: %s\n", sh->first_at, sh->first);
	snprintf(num, sizeof(num), "%llu", (unsigned long long)sh->violations);
	printf("relayfuzz: seed %llu: %s violations\n", seed, num);
	return sh->violations ? 1 : 0;
}
