# relay_trace: the 2007 relay "trace" interface as a modern kernel patch
# series, with a QEMU test harness and a benchmark suite.
# `make help` lists the targets.

SHELL := /bin/bash

KOBJ  := $(CURDIR)/build/obj$(if $(KVARIANT),-$(KVARIANT))

.PHONY: help deps kernel kernel-dir test-module test test-debug check bench bench-cost bench-baseline compare clean distclean

help:
	@echo "Targets:"
	@echo "  make test        build the patched kernel; KUnit, guest functional, stress,"
	@echo "                   accounting, deterministic-cost and host tests"
	@echo "  make bench       global vs per-CPU, flight vs not: throughput, drops, plots"
	@echo "                   (BENCH=full for the larger matrix) -> results/<timestamp>/"
	@echo "  make bench-cost  deterministic cost per write (-icount), checked against"
	@echo "                   bench-user/cost-baseline.csv (fails on a >2% regression)"
	@echo "  make bench-baseline  re-measure and rewrite the committed cost baseline"
	@echo "  make compare OLD=results/A NEW=results/B  compare two result folders"
	@echo "  make test-debug  the same on a debug kernel (lockdep, KASAN, UBSAN, PREEMPT,"
	@echo "                   kmemleak; panic_on_warn), cost runs excepted"
	@echo "  make check       checkpatch, sparse, W=1, kernel-doc, bisectability, cppcheck"
	@echo "  make kernel      extract linux-source-6.1, apply patches/, build (build/obj)"
	@echo "  make kernel-dir  print the built tree, for KDIR= of out-of-tree modules"
	@echo "  make test-module build tests/module/trace_test.ko against the test kernel"
	@echo "  make deps        install the Debian packages needed (as root)"
	@echo "  make clean       remove build outputs of the tests and modules"
	@echo "  make distclean   remove build/ and results/ entirely"
	@echo "Boot the kernel by hand: vm/run [--smp N] [--add FILE]... -- COMMAND"

deps:
	@vm/deps

kernel:
	@vm/build-kernel

kernel-dir:
	@test -f $(KOBJ)/Module.symvers || { echo "no built kernel in $(KOBJ); run 'make kernel'" >&2; exit 1; }
	@echo $(KOBJ)

test-module: kernel
	@$(MAKE) -s -C tests/module KDIR=$(KOBJ)

test:
	@tests/run

test-debug:
	@KVARIANT=debug tests/run

check:
	@tests/check

bench:
	@bench-user/bench

bench-cost:
	@bench-user/bench-cost

bench-baseline:
	@BASELINE_UPDATE=1 bench-user/bench-cost

compare:
	@test -n "$(OLD)" -a -n "$(NEW)" || { echo "usage: make compare OLD=results/A NEW=results/B" >&2; exit 2; }
	@python3 bench-user/compare.py "$(OLD)" "$(NEW)"

clean:
	@-$(MAKE) -s -C tests/module KDIR=$(KOBJ) clean 2>/dev/null
	@-$(MAKE) -s -C bench-module KDIR=$(KOBJ) clean 2>/dev/null
	@-$(MAKE) -s -C bench-user clean 2>/dev/null
	rm -rf build/test build/test-debug build/check build/vm tests/module/.kdir bench-module/.kdir

distclean:
	rm -rf build results
