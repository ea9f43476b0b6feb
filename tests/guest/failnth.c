// SPDX-License-Identifier: GPL-2.0
/*
 * failnth - one write with the Nth fault-injection point armed
 *
 * Usage: failnth N FILE VALUE
 *
 * Opens FILE and /proc/self/fail-nth, locks its memory, then arms
 * fail-nth with N, writes VALUE to FILE, reads back what fail-nth holds
 * and disarms it, in that order and with nothing else in between: the
 * only fault-injection points the armed window can pass are those of
 * the write(2) to FILE.  (A shell cannot do this: its own page faults,
 * opens and pipe writes are fault points too, and one of them can take
 * the fault meant for the write, or report a write as failed that
 * succeeded.)
 *
 * Prints one line, "LEFT ok" or "LEFT fail MESSAGE" (strerror), where
 * LEFT is what fail-nth held after the write: 0 if the fault was
 * injected in it, else N minus the points it passed.  Exits 0 when the
 * line describes the write, 2 if the set-up or the disarm failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define FAIL_NTH "/proc/self/fail-nth"

static int die(const char *what, int err)
{
	fprintf(stderr, "failnth: %s: %s\n", what, strerror(err));
	return 2;
}

/* Touch the stack the window will use, so that it takes no page fault. */
static void prefault_stack(void)
{
	volatile char pad[64 * 1024];
	size_t i;

	for (i = 0; i < sizeof(pad); i += 256)
		pad[i] = 0;
}

int main(int argc, char **argv)
{
	char arm[24], left[24];
	ssize_t w, r;
	int nth, fd, err;
	char *end;
	long n;

	if (argc != 4) {
		fprintf(stderr, "usage: failnth N FILE VALUE\n");
		return 2;
	}
	n = strtol(argv[1], &end, 10);
	if (*end || n < 1 || n > 1000000) {
		fprintf(stderr, "failnth: N must be 1..1000000, not '%s'\n", argv[1]);
		return 2;
	}
	snprintf(arm, sizeof(arm), "%ld", n);
	nth = open(FAIL_NTH, O_RDWR);
	if (nth < 0)
		return die("open " FAIL_NTH, errno);
	fd = open(argv[2], O_WRONLY);
	if (fd < 0)
		return die(argv[2], errno);
	prefault_stack();
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		return die("mlockall", errno);

	/* The window: arm, write, read back. */
	if (write(nth, arm, strlen(arm)) < 0)
		return die("arm " FAIL_NTH, errno);
	w = write(fd, argv[3], strlen(argv[3]));
	err = errno;
	r = pread(nth, left, sizeof(left) - 1, 0);
	/* Disarm before anything else can pass a fault point. */
	if (write(nth, "0", 1) < 0)
		return die("disarm " FAIL_NTH, errno);
	if (r <= 0)
		return die("read back " FAIL_NTH, r < 0 ? errno : EIO);
	left[r] = '\0';
	left[strcspn(left, "\n")] = '\0';

	if (w == (ssize_t)strlen(argv[3]))
		printf("%s ok\n", left);
	else if (w < 0)
		printf("%s fail %s\n", left, strerror(err));
	else
		printf("%s fail short write (%zd of %zu bytes)\n", left, w,
		       strlen(argv[3]));
	return 0;
}
