// SPDX-License-Identifier: GPL-2.0
/*
 * readloop: a generic reader of a relay trace, as cat or dd read a file:
 * read(2) of a fixed count (-c), or of a random count up to it (-r), in a
 * loop, one thread per traceN file, until the trace stops and every file
 * reads 0; what it reads goes to DIR/traceN, and DIR/info says what
 * bench-verify needs (the buffers, the times, its CPU time and system
 * calls), as relaytrace's does.  The benchmark's check of the read side
 * with the readers relaytrace is not (make bench's reader=plain and
 * plain-rand; tests/read/scenario2.conf).
 *
 * usage: readloop [-c COUNT] [-r] [-C CPU] -o DIR ROOT/NAME
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define TRACEFS		"/sys/kernel/tracing/relay"
#define MAX_BUFS	64

struct reader {
	int n, fd, out;
	unsigned long long bytes, calls;
	unsigned int seed;
	pthread_t thread;
	const char *what;
	int err;
};

static size_t count = 1 << 20;
static int random_counts, cpu = -1;
static atomic_int stopped;

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* Read until the trace is stopped and a read finds nothing. */
static void *reader(void *arg)
{
	struct reader *r = arg;
	struct pollfd pfd = { .fd = r->fd, .events = POLLIN };
	char *buf = malloc(count);
	size_t done;
	cpu_set_t set;
	ssize_t w;

	if (!buf) {
		r->what = "malloc";
		r->err = errno;
		return NULL;
	}
	if (cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		sched_setaffinity(0, sizeof(set), &set);
	}
	for (;;) {
		size_t want = random_counts ? 1 + rand_r(&r->seed) % count : count;
		ssize_t n;

		r->calls++;
		n = read(r->fd, buf, want);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r->what = "read";
			r->err = errno;
			break;
		}
		if (!n) {
			if (atomic_load(&stopped))
				break;
			r->calls++;
			poll(&pfd, 1, 100);
			continue;
		}
		for (done = 0; done < (size_t)n; done += w) {
			r->calls++;
			w = write(r->out, buf + done, n - done);
			if (w < 0) {
				r->what = "write";
				r->err = errno;
				free(buf);
				return NULL;
			}
		}
		r->bytes += n;
	}
	free(buf);
	return NULL;
}

static int write_info(const char *dir, const char *name, struct reader *rs,
		      int nr, unsigned long long t0, unsigned long long t1)
{
	unsigned long long calls = 0;
	char path[4096];
	struct rusage ru;
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "%s/info", dir);
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "readloop: %s: %s\n", path, strerror(errno));
		return -1;
	}
	fprintf(f, "trace=%s\nmode=%s %zu\nbuffers=", name,
		random_counts ? "read(2) of a random count up to" : "read(2) of", count);
	for (i = 0; i < nr; i++) {
		fprintf(f, "%s%d", i ? " " : "", rs[i].n);
		calls += rs[i].calls;
	}
	fprintf(f, "\nstart_mono_ns=%llu\nend_mono_ns=%llu\n", t0, t1);
	for (i = 0; i < nr; i++)
		fprintf(f, "bytes_trace%d=%llu\n", rs[i].n, rs[i].bytes);
	getrusage(RUSAGE_SELF, &ru);
	fprintf(f, "cpu_user_ns=%llu\ncpu_sys_ns=%llu\nsyscalls=%llu\nend=%s\n",
		ru.ru_utime.tv_sec * 1000000000ULL + ru.ru_utime.tv_usec * 1000ULL,
		ru.ru_stime.tv_sec * 1000000000ULL + ru.ru_stime.tv_usec * 1000ULL,
		calls, t1 ? "stopped" : "running");
	return fclose(f) ? -1 : 0;
}

int main(int argc, char **argv)
{
	char tdir[4096], path[4096 + 300], state[32];
	const char *dir = NULL, *name;
	struct reader rs[MAX_BUFS];
	unsigned long long t0;
	int c, i, nr = 0, fd, ret = 0;
	struct dirent *e;
	DIR *d;

	while ((c = getopt(argc, argv, "c:rC:o:")) != -1) {
		switch (c) {
		case 'c':
			count = strtoul(optarg, NULL, 0);
			break;
		case 'r':
			random_counts = 1;
			break;
		case 'C':
			cpu = atoi(optarg);
			break;
		case 'o':
			dir = optarg;
			break;
		default:
			return 2;
		}
	}
	if (!dir || optind != argc - 1 || !count) {
		fprintf(stderr, "usage: readloop [-c COUNT] [-r] [-C CPU] -o DIR ROOT/NAME\n");
		return 2;
	}
	name = argv[optind];
	snprintf(tdir, sizeof(tdir), "%s/%s", TRACEFS, name);
	if (mkdir(dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "readloop: mkdir %s: %s\n", dir, strerror(errno));
		return 1;
	}
	d = opendir(tdir);
	if (!d) {
		fprintf(stderr, "readloop: %s: %s\n", tdir, strerror(errno));
		return 1;
	}
	while ((e = readdir(d)) && nr < MAX_BUFS) {
		if (strncmp(e->d_name, "trace", 5) || !e->d_name[5])
			continue;
		memset(&rs[nr], 0, sizeof(rs[nr]));
		rs[nr].n = atoi(e->d_name + 5);
		rs[nr].seed = rs[nr].n + 1;
		snprintf(path, sizeof(path), "%s/%s", tdir, e->d_name);
		rs[nr].fd = open(path, O_RDONLY);
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		rs[nr].out = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (rs[nr].fd < 0 || rs[nr].out < 0) {
			fprintf(stderr, "readloop: %s: %s\n", e->d_name, strerror(errno));
			return 1;
		}
		nr++;
	}
	closedir(d);
	snprintf(path, sizeof(path), "%s/state", tdir);
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "readloop: %s: %s\n", path, strerror(errno));
		return 1;
	}
	t0 = now_ns();
	if (write_info(dir, name, rs, nr, t0, 0))
		return 1;
	for (i = 0; i < nr; i++)
		pthread_create(&rs[i].thread, NULL, reader, &rs[i]);
	/* Stopped, after it was started: then read what is left. */
	for (;;) {
		ssize_t n = pread(fd, state, sizeof(state) - 1, 0);

		if (n <= 0)
			break;
		state[n] = '\0';
		if (!strcmp(state, "stopped\n"))
			break;
		usleep(20000);
	}
	atomic_store(&stopped, 1);
	for (i = 0; i < nr; i++) {
		pthread_join(rs[i].thread, NULL);
		if (rs[i].what) {
			fprintf(stderr, "readloop: trace%d: %s: %s\n", rs[i].n,
				rs[i].what, strerror(rs[i].err));
			ret = 1;
		}
	}
	if (write_info(dir, name, rs, nr, t0, now_ns()))
		ret = 1;
	return ret;
}
