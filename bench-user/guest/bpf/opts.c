// SPDX-License-Identifier: GPL-2.0
/* bench-ringbuf's command line: parsed and checked, nothing else. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../../bench-module/uapi/relay_bench.h"
#include "opts.h"
#include "sizes.h"

static void usage(void)
{
	fprintf(stderr,
		"usage: bench-ringbuf --rec-size N --run RUN_ID [--layout shared|percpu]\n"
		"         [--size BYTES] [--cpus N] [--writers N] [--consume|--no-consume]\n"
		"         [--duration MS|--until-signal] [--poll-ms MS] [--reader-cpu N]\n"
		"         [--record DIR] [--record-buf BYTES] [--out FILE] [--verbose]\n"
		"         [--tracepoint NAME]\n"
		"   or: bench-ringbuf --no-check [--tracepoint NAME] [--layout ...] [--size ...]\n"
		"         [--consume|--no-consume] [--duration MS|--until-signal] [--out FILE]\n"
		"Loads relay_bench.bpf.c's program on the raw tracepoint relay_bench_rec\n"
		"(or NAME, of the same TP_PROTO(const void *rec, u32 len)),\n"
		"prints \"attached ...\" once it is, records the ring buffer(s) to DIR\n"
		"(default " RB_RECORD_DIR ") until SIGINT, SIGTERM or the duration, then\n"
		"checks the recording and prints the accounting (see bench-ringbuf.c);\n"
		"--no-check only counts the records, of any size and content.\n");
	exit(2);
}

/* A number with an optional k, m or g suffix (powers of 1024 for sizes). */
static unsigned long number(const char *opt, const char *s, int suffix)
{
	unsigned long v;
	char *e;

	errno = 0;
	v = strtoul(s, &e, 10);
	if (suffix && *e && !e[1]) {
		switch (*e) {
		case 'k': case 'K': v <<= 10; e++; break;
		case 'm': case 'M': v <<= 20; e++; break;
		case 'g': case 'G': v <<= 30; e++; break;
		}
	}
	if (errno || e == s || *e || *s == '-') {
		fprintf(stderr, "bench-ringbuf: %s wants a number, not '%s'\n", opt, s);
		exit(2);
	}
	return v;
}

static void check(const struct rb_opts *o)
{
	long page = sysconf(_SC_PAGESIZE);

	if (!*o->tracepoint) {
		fprintf(stderr, "bench-ringbuf: --tracepoint wants a name\n");
		exit(2);
	}
	if (o->no_check && (o->run || o->rec_size)) {
		fprintf(stderr, "bench-ringbuf: --no-check takes no --run or --rec-size: it only counts\n");
		exit(2);
	}
	if (!o->no_check && (!o->run || o->run > RELAY_BENCH_MAX_RUN)) {
		fprintf(stderr, "bench-ringbuf: --run: want a run identifier 1..%u\n",
			RELAY_BENCH_MAX_RUN);
		exit(2);
	}
	if (!o->no_check && !rb_size_supported(o->rec_size)) {
		fprintf(stderr, "bench-ringbuf: --rec-size %u: the program reserves only %s bytes\n",
			o->rec_size, rb_sizes_list());
		exit(2);
	}
	if (o->size < (unsigned long)page || o->size & (o->size - 1) ||
	    o->size > (1UL << 31)) {
		fprintf(stderr, "bench-ringbuf: --size %lu: want a power of two of at least a page (%ld) and at most 2^31\n",
			o->size, page);
		exit(2);
	}
	if (o->writers > RELAY_BENCH_MAX_WRITERS) {
		fprintf(stderr, "bench-ringbuf: --writers %u: want 1..%d\n",
			o->writers, RELAY_BENCH_MAX_WRITERS);
		exit(2);
	}
	if (o->record_buf < 4096 || o->record_buf > (1UL << 30)) {
		fprintf(stderr, "bench-ringbuf: --record-buf %lu: want 4k..1g\n", o->record_buf);
		exit(2);
	}
	if (!*o->record) {
		fprintf(stderr, "bench-ringbuf: --record wants a directory\n");
		exit(2);
	}
	if (!o->cpus || o->cpus > RELAY_BENCH_MAX_WRITERS) {
		fprintf(stderr, "bench-ringbuf: --cpus %u: want 1..%d\n",
			o->cpus, RELAY_BENCH_MAX_WRITERS);
		exit(2);
	}
}

void opts_parse(struct rb_opts *o, int argc, char **argv)
{
	enum { O_LAYOUT = 256, O_SIZE, O_CPUS, O_REC, O_RUN, O_CONSUME,
	       O_NOCONSUME, O_DURATION, O_SIGNAL, O_POLL, O_RCPU, O_OUT,
	       O_VERBOSE, O_WRITERS, O_RECORD, O_RECBUF, O_TRACEPOINT,
	       O_NOCHECK };
	static const struct option lo[] = {
		{ "layout", required_argument, NULL, O_LAYOUT },
		{ "size", required_argument, NULL, O_SIZE },
		{ "cpus", required_argument, NULL, O_CPUS },
		{ "writers", required_argument, NULL, O_WRITERS },
		{ "rec-size", required_argument, NULL, O_REC },
		{ "run", required_argument, NULL, O_RUN },
		{ "consume", no_argument, NULL, O_CONSUME },
		{ "no-consume", no_argument, NULL, O_NOCONSUME },
		{ "duration", required_argument, NULL, O_DURATION },
		{ "until-signal", no_argument, NULL, O_SIGNAL },
		{ "poll-ms", required_argument, NULL, O_POLL },
		{ "reader-cpu", required_argument, NULL, O_RCPU },
		{ "record", required_argument, NULL, O_RECORD },
		{ "record-buf", required_argument, NULL, O_RECBUF },
		{ "out", required_argument, NULL, O_OUT },
		{ "verbose", no_argument, NULL, O_VERBOSE },
		{ "tracepoint", required_argument, NULL, O_TRACEPOINT },
		{ "no-check", no_argument, NULL, O_NOCHECK },
		{ NULL, 0, NULL, 0 }
	};
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	int c;

	memset(o, 0, sizeof(*o));
	o->layout = RB_SHARED;
	o->size = 128 << 10;
	o->cpus = online > 0 ? online : 1;
	o->consume = 1;
	o->poll_ms = 100;
	o->reader_cpu = -1;
	o->record = RB_RECORD_DIR;
	o->record_buf = 1 << 20;
	o->tracepoint = RB_TRACEPOINT;
	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (c) {
		case O_LAYOUT:
			if (!strcmp(optarg, "shared"))
				o->layout = RB_SHARED;
			else if (!strcmp(optarg, "percpu"))
				o->layout = RB_PERCPU;
			else {
				fprintf(stderr, "bench-ringbuf: --layout is shared or percpu, not '%s'\n",
					optarg);
				exit(2);
			}
			break;
		case O_SIZE:
			o->size = number("--size", optarg, 1);
			break;
		case O_CPUS:
			o->cpus = number("--cpus", optarg, 0);
			break;
		case O_WRITERS:
			o->writers = number("--writers", optarg, 0);
			break;
		case O_REC:
			o->rec_size = number("--rec-size", optarg, 0);
			break;
		case O_RUN:
			o->run = number("--run", optarg, 0);
			break;
		case O_CONSUME:
			o->consume = 1;
			break;
		case O_NOCONSUME:
			o->consume = 0;
			break;
		case O_DURATION:
			o->duration_ms = number("--duration", optarg, 0);
			break;
		case O_SIGNAL:
			o->duration_ms = 0;
			break;
		case O_POLL:
			o->poll_ms = number("--poll-ms", optarg, 0);
			break;
		case O_RCPU:
			o->reader_cpu = number("--reader-cpu", optarg, 0);
			break;
		case O_RECORD:
			o->record = optarg;
			break;
		case O_RECBUF:
			o->record_buf = number("--record-buf", optarg, 1);
			break;
		case O_OUT:
			o->out = optarg;
			break;
		case O_VERBOSE:
			o->verbose = 1;
			break;
		case O_TRACEPOINT:
			o->tracepoint = optarg;
			break;
		case O_NOCHECK:
			o->no_check = 1;
			break;
		default:
			usage();
		}
	}
	if (optind != argc || (!o->no_check && (!o->rec_size || !o->run)))
		usage();
	check(o);
}
