/* SPDX-License-Identifier: GPL-2.0 */
/* relay-drain: per-file reader threads. */
#ifndef RELAY_DRAIN_READER_H
#define RELAY_DRAIN_READER_H

#include "drain.h"

struct reader {
	char *path;
	int fd;
	int out_fd;		/* -1: discard */
	size_t rec_size;
	size_t subbuf_size;
	const int *stop;
	unsigned long sleep_us;	/* pause after each read: a slow reader */
	int after_stop;		/* read nothing until the trace stopped */
	int error;
	struct file_stats stats;
};

void *reader_main(void *arg);

#endif
