/* SPDX-License-Identifier: GPL-2.0 */
/* relay-drain: one reader thread per relay file. */
#ifndef RELAY_DRAIN_READER_H
#define RELAY_DRAIN_READER_H

#include <stddef.h>
#include <stdint.h>

#include "../../bench-module/uapi/relay_bench.h"

struct reader {
	char *path;
	int fd;
	int out_fd;		/* -1: discard what is read */
	uint32_t run;		/* the run whose records are expected */
	size_t rec_size;
	size_t subbuf_size;
	const int *stop;	/* set once the trace has stopped */
	const int *hold;	/* read nothing while set (-w) */
	unsigned long sleep_us;	/* pause after each read: a slow reader */
	int after_stop;		/* read nothing until the trace stopped */
	int error;
	struct relay_bench_fstats stats;
};

void *reader_main(void *arg);

#endif
