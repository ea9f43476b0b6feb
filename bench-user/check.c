// SPDX-License-Identifier: GPL-2.0
/* relay-drain: check records and account for them per writer. */
#include <string.h>

#include "drain.h"

static void account(struct writer_stats *w, uint32_t seq)
{
	int64_t s = seq;

	if (w->last_seq < 0) {
		w->gaps += s;	/* records before the first one we saw */
	} else if (s > w->last_seq) {
		w->gaps += s - w->last_seq - 1;
	} else {
		w->backwards++;
		return;
	}
	w->last_seq = s;
	w->records++;
}

void check_records(struct file_stats *fs, const unsigned char *buf,
		   size_t len, size_t rec_size)
{
	struct bench_rec h;
	size_t off;

	fs->bytes += len;
	for (off = 0; off + rec_size <= len; off += rec_size) {
		memcpy(&h, buf + off, sizeof(h));
		if (h.magic != BENCH_MAGIC || h.cpu >= MAX_WRITERS) {
			fs->bad++;
			continue;
		}
		fs->records++;
		account(&fs->w[h.cpu], h.seq);
	}
	if (off != len)
		fs->bad++;	/* a torn record at the end of a read */
}
