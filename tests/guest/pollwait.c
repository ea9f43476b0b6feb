// SPDX-License-Identifier: GPL-2.0
/*
 * pollwait - sleep in poll(2), or in RELAY_TRACE_IOC_PEEK, on a trace file
 * until it has data
 *
 * Usage: pollwait [--drain] [--read] [--peek] [--signal restart|intr]
 *                 [--timeout SECONDS] FILE
 *
 * Opens FILE read-only.  With --drain, first reads it with read(2) until
 * read returns 0 and prints "drained N bytes".  Then prints "polling"
 * (flushed: it is the last thing done before poll(2), so that a script
 * that saw the line and then finds this process asleep knows it is asleep
 * in poll) and calls poll(POLLIN) on it, with a timeout of SECONDS
 * (default 20).  Prints what poll returned ("revents 0x.. POLLIN") and
 * how long it slept ("slept T s in poll(2)"), or "timeout: ..." if it
 * returned nothing, or returned only when its timeout expired: poll(2)
 * then checks the file once more, and reports data that came without a
 * wake-up -- that is not a wake-up.  With --read, after a POLLIN it reads
 * FILE until read returns 0 and prints "read N bytes".
 *
 * With --peek, it waits in a PEEK with wait_ms the timeout instead, and
 * prints "peek len N" and how long it slept ("slept T s in PEEK"), or
 * "peek: ERROR".  With --signal, a handler of SIGUSR1 is installed, with
 * SA_RESTART (restart) or without (intr), which counts the signals it
 * gets ("signals N" once the wait returns).
 *
 * Exits 0 if poll returned POLLIN (PEEK: data) before its timeout, 1 if it
 * timed out or returned without POLLIN (PEEK: without data, or failed
 * with EINTR), 2 on a usage or system-call error (named, with strerror).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <linux/relay_trace.h>

static void usage(FILE *f)
{
	fprintf(f, "usage: pollwait [--drain] [--read] [--peek] [--signal restart|intr] [--timeout SECONDS] FILE\n"
		"  --drain    read FILE until read(2) returns 0 before polling\n"
		"  --read     after POLLIN, read FILE until read(2) returns 0\n"
		"  --peek     wait in RELAY_TRACE_IOC_PEEK, not in poll(2)\n"
		"  --signal   count SIGUSR1, its handler set with SA_RESTART (restart) or not (intr)\n"
		"  --timeout  poll(2) timeout in seconds (default 20)\n");
}

static int die(const char *what, const char *file, int err)
{
	fprintf(stderr, "pollwait: %s %s: %s\n", what, file, strerror(err));
	return 2;
}

static volatile sig_atomic_t signals;

static void on_usr1(int sig)
{
	(void)sig;
	signals++;
}

/* The --peek wait: 0 if data came before the timeout, else 1. */
static int peek_wait(int fd, long timeout, const char *file)
{
	struct relay_trace_peek pk;
	struct timespec t0, t1;
	double slept;
	int ret;

	memset(&pk, 0, sizeof(pk));
	pk.wait_ms = timeout * 1000;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ret = ioctl(fd, RELAY_TRACE_IOC_PEEK, &pk);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	slept = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("signals %d\n", (int)signals);
	if (ret && errno == EINTR) {
		printf("peek: %s after %.3f s\n", strerror(errno), slept);
		return 1;
	}
	if (ret)
		return die("ioctl(RELAY_TRACE_IOC_PEEK)", file, errno);
	printf("peek len %llu\nslept %.3f s in PEEK\n", (unsigned long long)pk.len, slept);
	if (slept >= (double)timeout) {
		printf("timeout: PEEK was not woken in %ld s\n", timeout);
		return 1;
	}
	return pk.len ? 0 : 1;
}

/* Read fd until read(2) returns 0; the byte count, or -1 with errno. */
static long long read_all(int fd)
{
	static char buf[65536];
	long long total = 0;
	ssize_t r;

	while ((r = read(fd, buf, sizeof(buf))) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		total += r;
	}
	return total;
}

int main(int argc, char **argv)
{
	int drain = 0, rd = 0, pk = 0, sig = -1, fd, i, ret;
	struct sigaction sa;
	long timeout = 20;
	const char *file;
	struct timespec t0, t1;
	struct pollfd pfd;
	double slept;
	long long n;
	char *end;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--drain")) {
			drain = 1;
		} else if (!strcmp(argv[i], "--read")) {
			rd = 1;
		} else if (!strcmp(argv[i], "--peek")) {
			pk = 1;
		} else if (!strcmp(argv[i], "--signal") && i + 1 < argc &&
			   (!strcmp(argv[i + 1], "restart") || !strcmp(argv[i + 1], "intr"))) {
			sig = !strcmp(argv[++i], "restart");
		} else if (!strcmp(argv[i], "--timeout") && i + 1 < argc) {
			timeout = strtol(argv[++i], &end, 10);
			if (*end || timeout < 1 || timeout > 3600) {
				fprintf(stderr, "pollwait: --timeout must be 1..3600, not '%s'\n",
					argv[i]);
				return 2;
			}
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		} else {
			usage(stderr);
			return 2;
		}
	}
	if (i != argc - 1) {
		usage(stderr);
		return 2;
	}
	file = argv[i];

	fd = open(file, O_RDONLY);
	if (fd < 0)
		return die("open", file, errno);
	if (drain) {
		n = read_all(fd);
		if (n < 0)
			return die("read (drain)", file, errno);
		printf("drained %lld bytes\n", n);
	}

	if (sig >= 0) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_usr1;
		sa.sa_flags = sig ? SA_RESTART : 0;
		if (sigaction(SIGUSR1, &sa, NULL))
			return die("sigaction", "SIGUSR1", errno);
	}
	printf("polling\n");
	if (fflush(stdout))
		return die("write", "stdout", errno);
	if (pk)
		return peek_wait(fd, timeout, file);
	pfd.fd = fd;
	pfd.events = POLLIN;
	pfd.revents = 0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ret = poll(&pfd, 1, (int)(timeout * 1000));
	if (ret < 0)
		return die("poll", file, errno);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	slept = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	if (ret == 0) {
		printf("timeout: poll(2) returned nothing in %ld s\n", timeout);
		return 1;
	}
	printf("revents 0x%x%s%s%s\n", (unsigned int)pfd.revents,
	       pfd.revents & POLLIN ? " POLLIN" : "",
	       pfd.revents & POLLERR ? " POLLERR" : "",
	       pfd.revents & POLLHUP ? " POLLHUP" : "");
	printf("slept %.3f s in poll(2)\n", slept);
	/*
	 * When its timeout expires, poll(2) calls the file's poll method once
	 * more before it returns: data that arrived without a wake-up is
	 * reported then.  A return at or after the timeout was no wake-up.
	 */
	if (slept >= (double)timeout) {
		printf("timeout: poll(2) was not woken; it saw the data only at its %ld s timeout\n",
		       timeout);
		return 1;
	}
	if (!(pfd.revents & POLLIN))
		return 1;
	if (rd) {
		n = read_all(fd);
		if (n < 0)
			return die("read", file, errno);
		printf("read %lld bytes\n", n);
	}
	return 0;
}
