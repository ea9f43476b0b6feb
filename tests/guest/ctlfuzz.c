// SPDX-License-Identifier: GPL-2.0
/*
 * ctlfuzz - hostile writes to a running flight trace's control files
 *
 * Usage: ctlfuzz [-p PROCS] [-n WRITES] TRACE_DIR
 *
 * PROCS processes each make WRITES writes to TRACE_DIR/state and
 * TRACE_DIR/rewind: random bytes, huge buffers, embedded NULs, partial
 * words, "start" on the running trace, writes at an offset and empty
 * writes.  Every one to state must fail; every one to rewind must succeed
 * (as in the 2007 interface, any write rewinds a flight trace).  State is
 * checked to still read "running" as they go.  Prints the figures; exits 1
 * if a write to state was accepted, one to rewind refused, or the state
 * changed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define HUGE_LEN (1 << 20)

static const char *const fixed[] = {
	"star", "st", "s", "sto", "startx", "stopp", "START", " start",
	"start ", "start\n\n", "\nstart", "rew", "rewin", "rewindx", "2", "0",
	"11", "1 ", "-1", "running", "stopped", "trace not started",
	"start\nstop", "stop\nstart",
};

struct fuzz_case {
	char buf[96];
	size_t len;
	off_t off;
	int huge;
};

static unsigned int rnd(unsigned int *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

/* Would the kernel rightly accept this as a command for the file? */
static int valid(const char *b, size_t len, int is_state)
{
	static const char *const ok_state[] = { "stop", "stop\n" };
	static const char *const ok_rewind[] = { "1", "1\n", "rewind", "rewind\n" };
	const char *const *ok = is_state ? ok_state : ok_rewind;
	int n = is_state ? 2 : 4;

	for (int i = 0; i < n; i++)
		if (len == strlen(ok[i]) && !memcmp(b, ok[i], len))
			return 1;
	return 0;
}

static void make_case(struct fuzz_case *c, unsigned int *s, int is_state)
{
	const char *f;

	memset(c, 0, sizeof(*c));
	switch (rnd(s) % 7) {
	case 0:		/* random bytes */
		c->len = rnd(s) % 64 + 1;
		for (size_t i = 0; i < c->len; i++)
			c->buf[i] = rnd(s);
		break;
	case 1:		/* a fixed malformed word */
		f = fixed[rnd(s) % (sizeof(fixed) / sizeof(fixed[0]))];
		c->len = strlen(f);
		memcpy(c->buf, f, c->len);
		break;
	case 2:		/* a command with a NUL inside or after it */
		memcpy(c->buf, is_state ? "stop" : "rewind", is_state ? 4 : 6);
		c->len = is_state ? 5 : 7;
		c->buf[rnd(s) % c->len] = '\0';
		break;
	case 3:		/* start on a running trace */
		memcpy(c->buf, "start\n", 6);
		c->len = 5 + rnd(s) % 2;
		break;
	case 4:		/* a valid command at an offset */
		memcpy(c->buf, is_state ? "stop" : "1", is_state ? 4 : 1);
		c->len = is_state ? 4 : 1;
		c->off = rnd(s) % 4096 + 1;
		break;
	case 5:		/* empty write */
		c->len = 0;
		break;
	default:	/* huge write */
		c->huge = 1;
		c->len = HUGE_LEN;
		break;
	}
	if (!c->huge && !c->off && valid(c->buf, c->len, is_state))
		c->buf[0] ^= 0x80;	/* never send a valid command */
}

static int state_is_running(const char *path)
{
	char b[32] = { 0 };
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return 0;
	n = read(fd, b, sizeof(b) - 1);
	close(fd);
	return n > 0 && !strcmp(b, "running\n");
}

static int child(const char *dir, int id, long writes, char *huge)
{
	char state[4096], rewind[4096];
	unsigned int seed = 0x5eed0000u + id;
	long accepted = 0, rewinds = 0, refused_rewinds = 0, checks = 0;
	long bad_state = 0;

	snprintf(state, sizeof(state), "%s/state", dir);
	snprintf(rewind, sizeof(rewind), "%s/rewind", dir);
	for (long i = 0; i < writes; i++) {
		int is_state = rnd(&seed) & 1;
		const char *path = is_state ? state : rewind;
		struct fuzz_case c;
		ssize_t r;
		int fd;

		make_case(&c, &seed, is_state);
		fd = open(path, O_WRONLY);
		if (fd < 0) {
			fprintf(stderr, "ctlfuzz: open %s: %s\n", path, strerror(errno));
			return 2;
		}
		if (c.off)
			r = pwrite(fd, c.buf, c.len, c.off);
		else
			r = write(fd, c.huge ? huge : c.buf, c.len);
		close(fd);
		if (!is_state) {
			rewinds++;
			if (r != (ssize_t)c.len) {
				refused_rewinds++;
				fprintf(stderr, "ctlfuzz: %s refused a %zu-byte write at offset %lld: %s\n",
					path, c.len, (long long)c.off,
					r < 0 ? strerror(errno) : "short write");
			}
		} else if (r >= 0) {
			accepted++;
			fprintf(stderr, "ctlfuzz: %s accepted a %zu-byte write at offset %lld\n",
				path, c.len, (long long)c.off);
		}
		if (i % 64 == 0) {
			checks++;
			bad_state += !state_is_running(state);
		}
	}
	printf("ctlfuzz[%d]: %ld writes to state, %ld accepted; %ld to rewind, %ld refused; %ld state checks, %ld not running\n",
	       id, writes - rewinds, accepted, rewinds, refused_rewinds, checks,
	       bad_state);
	return accepted || refused_rewinds || bad_state;
}

int main(int argc, char **argv)
{
	long writes = 1000;
	int procs = 4, c, failed = 0;
	char *huge;

	while ((c = getopt(argc, argv, "p:n:")) != -1) {
		switch (c) {
		case 'p': procs = atoi(optarg); break;
		case 'n': writes = atol(optarg); break;
		default:
			fprintf(stderr, "usage: ctlfuzz [-p PROCS] [-n WRITES] TRACE_DIR\n");
			return 2;
		}
	}
	if (optind != argc - 1 || procs < 1)
		return 2;
	huge = malloc(HUGE_LEN);
	if (!huge) {
		fprintf(stderr, "ctlfuzz: out of memory\n");
		return 2;
	}
	memset(huge, 's', HUGE_LEN);
	fflush(stdout);
	for (int i = 0; i < procs; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			fprintf(stderr, "ctlfuzz: fork: %s\n", strerror(errno));
			return 2;
		}
		if (pid == 0)
			_exit(child(argv[optind], i, writes, huge));
	}
	for (int i = 0; i < procs; i++) {
		int st;

		if (wait(&st) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
			failed = 1;
	}
	printf("ctlfuzz: %ld hostile writes by %d processes: to state all refused, to rewind all rewound: %s\n",
	       writes * procs, procs, failed ? "NO" : "yes");
	return failed;
}
