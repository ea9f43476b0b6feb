// SPDX-License-Identifier: GPL-2.0
/*
 * bench-ringbuf's recording: each sample appended to its ring buffer's
 * file while the consumer runs, and read back for the check once it is
 * done.  See record.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record.h"

#define ODD_BUF	4096	/* DIR/odd's buffer: odd samples are rare */

/* DIR/ringN or DIR/odd (n == nfiles) in @path; -ENAMETOOLONG or 0. */
static int file_path(char *path, size_t size, const struct rb_recorder *r,
		     unsigned int n)
{
	int len = n == r->nfiles ? snprintf(path, size, "%s/odd", r->dir) :
				   snprintf(path, size, "%s/ring%u", r->dir, n);

	if (len < 0 || (size_t)len >= size) {
		fprintf(stderr, "bench-ringbuf: %s: the recording's directory name is too long\n",
			r->dir);
		return -ENAMETOOLONG;
	}
	return 0;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t done = write(fd, p, n);

		if (done < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		p += done;
		n -= done;
	}
	return 0;
}

/* A write to @f failed with @err: said once; -@err. */
static int write_failed(struct rb_file *f, int err)
{
	struct rb_recorder *r = f->r;

	if (!r->err) {
		r->err = err;
		if (f->n == r->nfiles)
			fprintf(stderr, "bench-ringbuf: writing %s/odd: %s\n",
				r->dir, strerror(err));
		else
			fprintf(stderr, "bench-ringbuf: writing %s/ring%u: %s\n",
				r->dir, f->n, strerror(err));
	}
	return -err;
}

static int flush(struct rb_file *f)
{
	int err = write_all(f->fd, f->buf, f->len);

	f->len = 0;
	return err ? write_failed(f, err) : 0;
}

/* @size bytes at @data appended to @f: one sample. */
static inline int put(struct rb_file *f, size_t cap, const void *data,
		      size_t size)
{
	if (size > cap - f->len) {
		int err = flush(f);

		if (err)
			return err;
		if (size > cap) {	/* more than a buffer: as it is */
			err = write_all(f->fd, data, size);
			if (err)
				return write_failed(f, err);
			goto counted;
		}
	}
	memcpy(f->buf + f->len, data, size);
	f->len += size;
counted:
	f->samples++;
	f->bytes += size;
	return 0;
}

int record_sample(void *ctx, void *data, size_t size)
{
	struct rb_file *f = ctx;
	struct rb_recorder *r = f->r;

	if (size != r->rec_size) {
		const struct rb_odd odd = { f->n, size, f->samples };
		int err = put(&r->odd, ODD_BUF, &odd, sizeof(odd));

		if (err)
			return err;
	}
	return put(f, r->bufsize, data, size);
}

static int open_file(struct rb_recorder *r, struct rb_file *f, unsigned int n,
		     size_t cap)
{
	char path[PATH_MAX];
	int err;

	f->r = r;
	f->n = n;
	err = file_path(path, sizeof(path), r, n);
	if (err)
		return err;
	f->buf = malloc(cap);
	if (!f->buf) {
		fprintf(stderr, "bench-ringbuf: a buffer of %zu bytes for %s: %s\n",
			cap, path, strerror(ENOMEM));
		return -ENOMEM;
	}
	f->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (f->fd < 0) {
		err = -errno;
		fprintf(stderr, "bench-ringbuf: creating %s: %s\n", path, strerror(-err));
		return err;
	}
	return 0;
}

int record_open(struct rb_recorder *r, const char *dir, __u32 rec_size,
		unsigned int nfiles, size_t bufsize)
{
	char path[PATH_MAX];
	unsigned int i;
	int err;

	memset(r, 0, sizeof(*r));
	r->odd.fd = -1;
	r->rec_size = rec_size;
	r->bufsize = bufsize;
	r->nfiles = nfiles;
	r->dir = strdup(dir);
	r->files = calloc(nfiles, sizeof(*r->files));
	if (!r->dir || !r->files) {
		fprintf(stderr, "bench-ringbuf: allocating the recording: %s\n", strerror(ENOMEM));
		return -ENOMEM;
	}
	for (i = 0; i < nfiles; i++)
		r->files[i].fd = -1;
	if (mkdir(dir, 0755) && errno != EEXIST) {
		err = -errno;
		fprintf(stderr, "bench-ringbuf: creating %s: %s\n", dir, strerror(-err));
		return err;
	}
	for (i = 0; i < nfiles; i++) {
		err = open_file(r, &r->files[i], i, bufsize);
		if (err)
			return err;
	}
	err = open_file(r, &r->odd, nfiles, ODD_BUF);
	if (err)
		return err;
	/* An earlier recording's rings beyond these: not this run's. */
	for (i = nfiles; i < RELAY_BENCH_MAX_WRITERS; i++) {
		if (snprintf(path, sizeof(path), "%s/ring%u", dir, i) < (int)sizeof(path))
			unlink(path);
	}
	return 0;
}

static int close_file(struct rb_file *f)
{
	int err = 0;

	if (f->fd >= 0) {
		err = f->len ? flush(f) : 0;
		if (close(f->fd) && !err)
			err = write_failed(f, errno);
		f->fd = -1;
	}
	free(f->buf);
	f->buf = NULL;
	return err;
}

int record_close(struct rb_recorder *r)
{
	unsigned int i;
	int err = 0, e;

	for (i = 0; r->files && i < r->nfiles; i++) {
		e = close_file(&r->files[i]);
		err = err ? err : e;
	}
	e = close_file(&r->odd);
	return err ? err : e;
}

void record_free(struct rb_recorder *r)
{
	unsigned int i;

	for (i = 0; r->files && i < r->nfiles; i++) {
		if (r->files[i].fd >= 0)
			close(r->files[i].fd);
		free(r->files[i].buf);
	}
	if (r->odd.fd >= 0)
		close(r->odd.fd);
	free(r->odd.buf);
	free(r->files);
	free(r->dir);
	memset(r, 0, sizeof(*r));
	r->odd.fd = -1;
}

/* Open @f's file and check it holds the bytes written to it: its fd. */
static int open_back(const struct rb_recorder *r, const struct rb_file *f,
		     char *path, size_t size)
{
	struct stat st;
	int fd, err;

	err = file_path(path, size, r, f->n);
	if (err)
		return err;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		err = -errno;
		fprintf(stderr, "bench-ringbuf: reading %s back: %s\n", path, strerror(-err));
		if (fd >= 0)
			close(fd);
		return err;
	}
	if ((unsigned long long)st.st_size != f->bytes) {
		fprintf(stderr, "bench-ringbuf: %s holds %llu bytes, not the %llu recorded\n",
			path, (unsigned long long)st.st_size, f->bytes);
		close(fd);
		return -EIO;
	}
	return fd;
}

/* DIR/odd, whole: *@odd (malloc'ed), *@nodd. */
static int load_odd(const struct rb_recorder *r, struct rb_odd **odd,
		    size_t *nodd)
{
	char path[PATH_MAX];
	size_t got = 0;
	int fd = open_back(r, &r->odd, path, sizeof(path));

	*odd = NULL;
	*nodd = r->odd.samples;
	if (fd < 0)
		return fd;
	if (r->odd.bytes != *nodd * sizeof(**odd)) {
		fprintf(stderr, "bench-ringbuf: %s: %llu bytes for %zu entries\n",
			path, r->odd.bytes, *nodd);
		close(fd);
		return -EIO;
	}
	*odd = malloc(r->odd.bytes ? r->odd.bytes : 1);
	if (!*odd) {
		close(fd);
		fprintf(stderr, "bench-ringbuf: reading %s back: %s\n", path, strerror(ENOMEM));
		return -ENOMEM;
	}
	while (got < r->odd.bytes) {
		ssize_t n = read(fd, (char *)*odd + got, r->odd.bytes - got);

		if (n <= 0) {
			int err = n ? errno : EIO;

			if (err == EINTR)
				continue;
			fprintf(stderr, "bench-ringbuf: reading %s back: %s\n", path, strerror(err));
			close(fd);
			return -err;
		}
		got += n;
	}
	close(fd);
	return 0;
}

/*
 * Ring @f's samples, in order, to account_sample(@s): rec_size bytes
 * each, but those DIR/odd gives another size.
 */
static int replay_file(const struct rb_recorder *r, const struct rb_file *f,
		       const struct rb_odd *odd, size_t nodd,
		       struct rb_stream *s)
{
	unsigned long long off = 0, idx = 0;
	char path[PATH_MAX];
	char *p = NULL;
	size_t k = 0;
	int fd, err = 0;

	fd = open_back(r, f, path, sizeof(path));
	if (fd < 0)
		return fd;
	if (f->bytes) {
		p = mmap(NULL, f->bytes, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p == MAP_FAILED) {
			err = -errno;
			fprintf(stderr, "bench-ringbuf: mapping %s: %s\n", path, strerror(-err));
			close(fd);
			return err;
		}
		madvise(p, f->bytes, MADV_SEQUENTIAL);
	}
	while (off < f->bytes) {
		unsigned long long size = r->rec_size;

		while (k < nodd && odd[k].stream != f->n)
			k++;
		if (k < nodd && odd[k].index == idx)
			size = odd[k++].size;
		if (size > f->bytes - off) {
			fprintf(stderr, "bench-ringbuf: %s: sample %llu, of %llu bytes, cut short at byte %llu\n",
				path, idx, size, f->bytes);
			err = -EIO;
			break;
		}
		account_sample(s, p + off, size);
		off += size;
		idx++;
	}
	while (!err && k < nodd && odd[k].stream != f->n)
		k++;
	if (!err && (idx != f->samples || k < nodd)) {
		fprintf(stderr, "bench-ringbuf: %s: %llu samples read back, %llu recorded%s\n",
			path, idx, f->samples,
			k < nodd ? "; odd sizes left over" : "");
		err = -EIO;
	}
	if (p)
		munmap(p, f->bytes);
	close(fd);
	return err;
}

int record_replay(const struct rb_recorder *r, struct rb_account *a)
{
	struct rb_odd *odd;
	size_t nodd;
	unsigned int i;
	int err;

	if (a->nstreams != r->nfiles) {
		fprintf(stderr, "bench-ringbuf: %u streams to check, %u files recorded\n",
			a->nstreams, r->nfiles);
		return -EINVAL;
	}
	err = load_odd(r, &odd, &nodd);
	for (i = 0; !err && i < r->nfiles; i++)
		err = replay_file(r, &r->files[i], odd, nodd, &a->streams[i]);
	free(odd);
	return err;
}
