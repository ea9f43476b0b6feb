# relay_trace: the 2007 relay "trace" interface as a modern kernel patch
# series, with a QEMU test harness and a benchmark suite.
# `make help` lists the targets.  KERNEL=6.1 (default) or KERNEL=6.12
# selects the kernel everywhere.

SHELL := /bin/bash
KERNEL ?= 6.1
export KERNEL

.PHONY: help deps kernel kernel-dir relaytrace test-module test test-debug test-kcsan test-rt test-arch \
	test-fixes check docs bench bench-ab bench-cost bench-baseline compare clean distclean \
	series-tree series-export series-carry series-fixes

help:
	@echo "Targets (KERNEL=6.1, the default, or KERNEL=6.12):"
	@echo "  make test          build the patched kernel; host checks, KUnit, guest functional"
	@echo "                     and relaytrace tests, lockdown, the read side with the readers"
	@echo "                     users have, the peers, stress and accounting tests, deterministic"
	@echo "                     cost and its gate (STEP=NAME runs one step alone, SKIP=NAME"
	@echo "                     leaves one out: tests/run --help, tests/run --list)"
	@echo "  make bench         write-path cost, lossless rate, overload: relay per-CPU and"
	@echo "                     global, flight or not, against the ftrace ring buffer, an ftrace"
	@echo "                     event with trace-cmd, BPF ringbufs and perf, every record"
	@echo "                     verified (BENCH=full for more) -> results/<timestamp>-<kernel>/"
	@echo "  make bench-ab [REF=HEAD]  relay_bench.ko of REF (a) and of the working tree (b)"
	@echo "                     in one boot, runs interleaved, compared -> results/<...>-ab/"
	@echo "  make bench-cost    deterministic cost per write (-icount), checked against"
	@echo "                     bench-user/baselines/cost-\$$KERNEL.csv (0.5 instruction gate)"
	@echo "  make bench-baseline  re-measure and rewrite that baseline"
	@echo "  make compare OLD=results/A NEW=results/B  compare two result folders"
	@echo "  make test-debug    the tests on a debug kernel (lockdep, KASAN, UBSAN, PREEMPT,"
	@echo "                     kmemleak, panic_on_warn), with fault injection"
	@echo "  make test-kcsan    the tests on a KCSAN kernel; no data race in relay code"
	@echo "  make test-rt       the tests on a PREEMPT_RT kernel with lockdep (KERNEL=6.12)"
	@echo "  make test-arch     the KUnit suite by kunit.py on arm64 (4 KiB and 64 KiB pages)"
	@echo "                     and i386 (ARCH_CONFIGS=\"arm64-64k\" for fewer: tests/arch/run --help)"
	@echo "  make test-fixes [FIX=NAME]  each fix of the series undone in turn"
	@echo "                     (tests/fixes/*.diff): the check that covers it must fail"
	@echo "                     (FIX=read-snapshot: relay's read(2) repeating records without"
	@echo "                     patch 1, on Debian's 6.1 with patch 1 alone)"
	@echo "  make check         checkpatch, sparse, W=1, kernel-doc, bisect, commit messages,"
	@echo "                     userspace warnings, cppcheck, the two series in step"
	@echo "  make docs          fill the measured figures of README.md and docs/*.md from the"
	@echo "                     reference run (docs/reference/) and the cost baselines"
	@echo "  make series-tree   a git tree of the series to work in: build/\$$KERNEL/series, the"
	@echo "                     pristine source as one commit and the series on it (vm/series --help)"
	@echo "  make series-export write patches/\$$KERNEL from that tree (6.1: then the reverts of"
	@echo "                     tests/fixes/ and the 6.12 carry); exporting twice changes nothing"
	@echo "  make series-carry  the 6.12 series: the 6.1 commits carried onto 6.12 and the port's"
	@echo "                     fixups (patches/6.12/port/), exported"
	@echo "  make series-fixes  write tests/fixes/*.diff from their branches fix/<name>"
	@echo "  make kernel        extract linux-source-\$$KERNEL, apply patches/\$$KERNEL, build"
	@echo "  make kernel-dir    print the built tree, for KDIR= of out-of-tree modules"
	@echo "  make relaytrace    build the series' consumer (tools/tracing/relaytrace), static,"
	@echo "                     for the guest; prints its path last"
	@echo "  make test-module   build tests/module/trace_test.ko against the test kernel"
	@echo "  make deps          install the Debian packages needed (as root)"
	@echo "  make clean         remove build outputs of the tests and modules"
	@echo "  make distclean     remove build/ and results/ entirely (not a series tree holding"
	@echo "                     work not exported, without FORCE=1)"
	@echo "Boot a kernel by hand: vm/run [--smp N] [--add FILE]... -- COMMAND (vm/run --help)"

deps:
	@vm/deps

kernel:
	@vm/build-kernel

kernel-dir:
	@. vm/env.sh && { test -f "$$KOBJ/Module.symvers" || die "no built $$KNAME kernel in $${KOBJ#$$TOP/}; run 'make kernel KERNEL=$$KERNEL'"; } && echo "$$KOBJ"

series-tree:
	@vm/series tree

series-export:
	@vm/series export

series-carry:
	@vm/series carry

series-fixes:
	@vm/series fixes

relaytrace: kernel
	@. vm/env.sh && build_relaytrace

test-module: kernel
	@. vm/env.sh && build_modules tests/module

test:
	@KVARIANT= tests/run $(foreach s,$(STEP),--step $(s)) $(foreach s,$(SKIP),--skip $(s))

test-debug:
	@KVARIANT=debug tests/run $(foreach s,$(STEP),--step $(s)) $(foreach s,$(SKIP),--skip $(s))

test-kcsan:
	@KVARIANT=kcsan tests/run $(foreach s,$(STEP),--step $(s)) $(foreach s,$(SKIP),--skip $(s))

test-rt:
	@KVARIANT=rt tests/run $(foreach s,$(STEP),--step $(s)) $(foreach s,$(SKIP),--skip $(s))

test-arch:
	@tests/arch/run $(ARCH_CONFIGS)

test-fixes:
	@tests/fixes/run $(FIX)

check:
	@tests/check

docs:
	@python3 bench-user/report/docs.py

bench:
	@BENCH_AB_REF= bench-user/host/bench

bench-ab:
	@BENCH_AB_REF=$(or $(REF),HEAD) bench-user/host/bench

bench-cost:
	@bench-user/host/bench-cost

bench-baseline:
	@BASELINE_UPDATE=1 bench-user/host/bench-cost

compare:
	@test -n "$(OLD)" -a -n "$(NEW)" || { echo "usage: make compare OLD=results/A NEW=results/B" >&2; exit 2; }
	@python3 bench-user/report/report.py compare "$(OLD)" "$(NEW)"

clean:
	@. vm/env.sh && for d in tests/module bench-module; do \
		$(MAKE) -s -C $$d KDIR="$$(cat $$d/.kdir 2>/dev/null || echo $$KOBJ)" clean >/dev/null 2>&1; rm -f $$d/.kdir; done
	@-$(MAKE) -s -C bench-user/guest clean
	@-$(MAKE) -s -C tests/guest clean
	rm -rf build/test-* build/check build/vm

distclean:
	@[ "$(FORCE)" = 1 ] || [ ! -d build/series.git ] || vm/series unexported
	rm -rf build results
