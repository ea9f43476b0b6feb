// SPDX-License-Identifier: GPL-2.0
/*
 * ufstall - stall a read(2) of a file inside the kernel's copy_to_user()
 *
 * Usage: ufstall [--fault-timeout SECONDS] [--hold SECONDS] FILE LEN
 *
 * Opens FILE read-only, maps LEN bytes (rounded up to pages) of anonymous
 * memory that nothing has touched, registers them with userfaultfd(2)
 * (UFFDIO_REGISTER_MODE_MISSING) and, in a thread, calls
 * read(FILE, region, LEN).  The kernel's copy_to_user() into the region
 * faults, and the fault waits for this program to resolve it: the read
 * stalls inside the file's read method, holding whatever it holds across
 * the copy (relay_file_read() holds the file's inode lock).
 *
 * Once the fault message has been read from the userfaultfd -- proof that
 * the read is inside copy_to_user() -- prints
 *   stalled: read(2) of LEN bytes faulted at offset 0xN of the buffer
 * and waits for SIGUSR1 (at most --hold SECONDS, default 300; then it
 * resolves the fault anyway and fails).  It then prints "resolving: ..."
 * saying whether the read was still stalled, fills the region with zeroed
 * pages (UFFDIO_COPY), which lets the copy go on, waits for the read and
 * prints "read N bytes, first line 'L'".
 *
 * Exits 0 if the read stalled, was still stalled when SIGUSR1 came, and
 * returned data once the fault was resolved; 1 if the read returned
 * without faulting, no fault came within --fault-timeout SECONDS (default
 * 20), SIGUSR1 did not come in time, or the read failed or returned
 * nothing; 2 on a usage or set-up error (named, with strerror).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

struct reader {
	int fd;			/* the file read */
	char *buf;		/* the registered region */
	size_t len;		/* bytes to read */
	int done_pipe;		/* written once the read returned */
	ssize_t ret;		/* what read(2) returned */
	int err;		/* its errno */
};

static void usage(FILE *f)
{
	fprintf(f, "usage: ufstall [--fault-timeout SECONDS] [--hold SECONDS] FILE LEN\n"
		"  stalls read(FILE, buf, LEN) in copy_to_user() with a userfaultfd-\n"
		"  registered buf; prints 'stalled: ...' and resolves the fault on SIGUSR1\n"
		"  --fault-timeout  how long to wait for the fault (default 20 s)\n"
		"  --hold           how long to wait for SIGUSR1 (default 300 s)\n");
}

static int die(const char *what, int err)
{
	fprintf(stderr, "ufstall: %s: %s\n", what, strerror(err));
	return 2;
}

static long parse_num(const char *s, long min, long max, const char *what)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max) {
		fprintf(stderr, "ufstall: %s must be %ld..%ld, not '%s'\n", what, min, max, s);
		exit(2);
	}
	return v;
}

static void *reader_main(void *arg)
{
	struct reader *r = arg;
	char c = 1;

	r->ret = read(r->fd, r->buf, r->len);
	r->err = errno;
	if (write(r->done_pipe, &c, 1) != 1)
		abort();	/* the main thread would wait in vain */
	return NULL;
}

/* Wait for fd to be readable; 1 if it is, 0 on timeout, -1 with errno. */
static int wait_readable(int fd, long seconds)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int ret;

	do
		ret = poll(&pfd, 1, (int)(seconds * 1000));
	while (ret < 0 && errno == EINTR);
	return ret;
}

/* Fill [start, start + len) with zeroed pages, skipping those present. */
static int resolve(int uffd, char *start, size_t len, size_t page, const char *zero)
{
	struct uffdio_copy copy;
	size_t off;

	for (off = 0; off < len; off += page) {
		memset(&copy, 0, sizeof(copy));
		copy.dst = (uintptr_t)(start + off);
		copy.src = (uintptr_t)zero;
		copy.len = page;
		if (ioctl(uffd, UFFDIO_COPY, &copy) && errno != EEXIST)
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	long fault_timeout = 20, hold = 300, page;
	struct uffdio_register reg;
	struct uffdio_api api;
	struct uffd_msg msg;
	struct reader r;
	struct timespec ts;
	pthread_t thread;
	sigset_t usr1;
	int uffd, pipefd[2], i, ret, fail = 0;
	size_t region, n;
	char *zero, *nl, c;
	ssize_t m;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--fault-timeout") && i + 1 < argc) {
			fault_timeout = parse_num(argv[++i], 1, 3600, "--fault-timeout");
		} else if (!strcmp(argv[i], "--hold") && i + 1 < argc) {
			hold = parse_num(argv[++i], 1, 3600, "--hold");
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		} else {
			usage(stderr);
			return 2;
		}
	}
	if (i != argc - 2) {
		usage(stderr);
		return 2;
	}
	memset(&r, 0, sizeof(r));
	r.len = (size_t)parse_num(argv[i + 1], 1, 1 << 24, "LEN");
	page = sysconf(_SC_PAGESIZE);
	if (page <= 0)
		return die("sysconf(_SC_PAGESIZE)", errno ? errno : EINVAL);
	region = (r.len + (size_t)page - 1) / (size_t)page * (size_t)page;

	/* SIGUSR1 is taken with sigtimedwait(): blocked here, and in the thread. */
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	if (sigprocmask(SIG_BLOCK, &usr1, NULL))
		return die("sigprocmask", errno);

	r.fd = open(argv[i], O_RDONLY);
	if (r.fd < 0) {
		fprintf(stderr, "ufstall: open %s: %s\n", argv[i], strerror(errno));
		return 2;
	}
	uffd = (int)syscall(__NR_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (uffd < 0)
		return die("userfaultfd(2) (the kernel needs CONFIG_USERFAULTFD=y)", errno);
	memset(&api, 0, sizeof(api));
	api.api = UFFD_API;
	if (ioctl(uffd, UFFDIO_API, &api))
		return die("ioctl UFFDIO_API", errno);
	r.buf = mmap(NULL, region, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (r.buf == MAP_FAILED)
		return die("mmap of the read buffer", errno);
	zero = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (zero == MAP_FAILED)
		return die("mmap of the zero page", errno);
	zero[0] = 0;		/* present, so that UFFDIO_COPY can read it */
	memset(&reg, 0, sizeof(reg));
	reg.range.start = (uintptr_t)r.buf;
	reg.range.len = region;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	if (ioctl(uffd, UFFDIO_REGISTER, &reg))
		return die("ioctl UFFDIO_REGISTER (MODE_MISSING)", errno);
	if (!(reg.ioctls & ((__u64)1 << _UFFDIO_COPY)))
		return die("UFFDIO_REGISTER: UFFDIO_COPY not offered", EINVAL);
	if (pipe(pipefd))
		return die("pipe", errno);
	r.done_pipe = pipefd[1];

	ret = pthread_create(&thread, NULL, reader_main, &r);
	if (ret)
		return die("pthread_create", ret);

	/* The read either faults into the userfaultfd or returns. */
	{
		struct pollfd pfd[2] = {
			{ .fd = uffd, .events = POLLIN },
			{ .fd = pipefd[0], .events = POLLIN },
		};

		do
			ret = poll(pfd, 2, (int)(fault_timeout * 1000));
		while (ret < 0 && errno == EINTR);
		if (ret < 0)
			return die("poll on the userfaultfd", errno);
		if (ret == 0) {
			printf("not stalled: no fault and no return from read(2) in %ld s\n",
			       fault_timeout);
			return 1;
		}
		if (!(pfd[0].revents & POLLIN)) {
			pthread_join(thread, NULL);
			if (r.ret < 0)
				printf("not stalled: read(2) failed without faulting: %s\n",
				       strerror(r.err));
			else
				printf("not stalled: read(2) returned %zd without faulting\n", r.ret);
			return 1;
		}
	}
	m = read(uffd, &msg, sizeof(msg));
	if (m < 0)
		return die("read of the userfaultfd", errno);
	if (m != (ssize_t)sizeof(msg) || msg.event != UFFD_EVENT_PAGEFAULT ||
	    msg.arg.pagefault.address < (uintptr_t)r.buf ||
	    msg.arg.pagefault.address >= (uintptr_t)r.buf + region) {
		printf("not stalled: unexpected userfaultfd message (%zd bytes, event 0x%x)\n",
		       m, (unsigned int)msg.event);
		return 1;
	}
	printf("stalled: read(2) of %zu bytes faulted at offset 0x%llx of the buffer\n",
	       r.len, (unsigned long long)(msg.arg.pagefault.address - (uintptr_t)r.buf));
	if (fflush(stdout))
		return die("write to stdout", errno);

	ts.tv_sec = hold;
	ts.tv_nsec = 0;
	do
		ret = sigtimedwait(&usr1, NULL, &ts);
	while (ret < 0 && errno == EINTR);
	if (ret < 0 && errno != EAGAIN)
		return die("sigtimedwait", errno);
	if (ret < 0) {
		printf("no SIGUSR1 in %ld s: resolving the fault anyway\n", hold);
		fail = 1;
	}
	ret = wait_readable(pipefd[0], 0);
	if (ret < 0)
		return die("poll on the reader's pipe", errno);
	if (ret) {
		printf("resolving: the read already returned (%zd)\n", r.ret);
		fail = 1;
	} else {
		printf("resolving: the read is still stalled\n");
	}
	fflush(stdout);
	if (resolve(uffd, r.buf, region, (size_t)page, zero))
		return die("ioctl UFFDIO_COPY", errno);

	ret = wait_readable(pipefd[0], fault_timeout);
	if (ret < 0)
		return die("poll on the reader's pipe", errno);
	if (!ret) {
		printf("the read did not return within %ld s of the fault's resolution\n",
		       fault_timeout);
		return 1;
	}
	if (read(pipefd[0], &c, 1) != 1)
		return die("read of the reader's pipe", errno);
	pthread_join(thread, NULL);
	if (r.ret < 0) {
		printf("read failed: %s\n", strerror(r.err));
		return 1;
	}
	nl = memchr(r.buf, '\n', (size_t)r.ret);
	n = nl ? (size_t)(nl - r.buf) : (size_t)r.ret;
	if (n > 32)
		n = 32;
	printf("read %zd bytes, first line '%.*s'\n", r.ret, (int)n, r.buf);
	return fail || r.ret <= 0;
}
