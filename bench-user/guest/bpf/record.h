/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench-ringbuf's recording: what the consumer does with each sample it
 * reads from a ring buffer, and nothing else -- append its bytes to the
 * file of its ring buffer, through a buffer of its own written with
 * write(2) -- as relaytrace and trace-cmd record only write what they
 * read; and, once the run is over and the consumer's times are taken,
 * the recording read back, each sample checked by account_sample().
 *
 * A recording is a directory:
 *
 *   DIR/ringN  the samples of ring buffer N (shared: ring0; percpu: N is
 *              the CPU), one after another, in the order read, as bytes
 *              and nothing else, like relaytrace's DIR/traceN
 *   DIR/odd    struct rb_odd of each sample not of rec_size bytes, in the
 *              order read (empty but when the program's records are not
 *              the --rec-size given): where ringN's samples are not
 *              rec_size bytes apart
 */
#ifndef RB_RECORD_H
#define RB_RECORD_H

#include <stddef.h>

#include "account.h"

struct rb_recorder;

/* One ring buffer's file, the ctx of its ring_buffer_sample_fn. */
struct rb_file {
	struct rb_recorder *r;
	unsigned int n;			/* the ring buffer, its stream */
	int fd;				/* -1: closed */
	char *buf;			/* [r->bufsize] */
	size_t len;			/* bytes in buf, not yet written */
	unsigned long long samples;	/* samples recorded */
	unsigned long long bytes;	/* their bytes */
};

/* DIR/odd: a sample of another size than rec_size. */
struct rb_odd {
	__u32 stream;			/* its ring buffer */
	__u32 size;			/* its bytes */
	__u64 index;			/* its place in the stream, from 0 */
};

struct rb_recorder {
	char *dir;
	__u32 rec_size;
	size_t bufsize;			/* each file's buffer */
	unsigned int nfiles;
	struct rb_file *files;		/* [nfiles]: DIR/ring0 .. */
	struct rb_file odd;		/* DIR/odd, n = nfiles */
	int err;			/* the first write's error: an errno */
};

/*
 * Create DIR (if it is not there) and DIR/ring0 .. ring@nfiles-1 and
 * DIR/odd, empty (and remove the ringN of a recording of more rings),
 * each file with a buffer of @bufsize bytes.  0, or a negative errno
 * with a message on standard error.
 */
int record_open(struct rb_recorder *r, const char *dir, __u32 rec_size,
		unsigned int nfiles, size_t bufsize);

/*
 * The ring_buffer_sample_fn of every ring buffer (ctx: its struct
 * rb_file): the sample appended to the file's buffer, the buffer written
 * out when the sample does not fit.  0, or a negative errno (r->err)
 * with a message, if a write failed: ring_buffer__poll() stops there.
 */
int record_sample(void *ctx, void *data, size_t size);

/*
 * Write out what the buffers hold and close the files (the samples and
 * bytes recorded stay, for record_replay()); free the buffers.  0, or a
 * negative errno with a message.
 */
int record_close(struct rb_recorder *r);

/*
 * Read the recording back and give each sample, in order, to
 * account_sample() of its stream (@a has r->nfiles streams).  0, or a
 * negative errno with a message if a file cannot be read or does not
 * hold what record_sample() wrote to it (its samples and bytes).
 */
int record_replay(const struct rb_recorder *r, struct rb_account *a);

/* Close whatever record_open() left open and free it all. */
void record_free(struct rb_recorder *r);

#endif /* RB_RECORD_H */
