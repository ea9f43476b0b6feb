# relay_trace: the 2007 relay "trace" interface as a modern kernel patch
# series, with a QEMU test harness and (soon) a benchmark suite.
# `make help` lists the targets.

SHELL := /bin/bash
KOBJ  := $(CURDIR)/build/obj

.PHONY: help deps kernel kernel-dir test-module test bench clean distclean

help:
	@echo "Targets:"
	@echo "  make test        build the patched kernel, run KUnit, guest and host tests"
	@echo "  make bench       the benchmark (not written yet: see README)"
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

bench:
	@bench-user/bench

clean:
	@-$(MAKE) -s -C tests/module KDIR=$(KOBJ) clean 2>/dev/null
	rm -rf build/test build/vm

distclean:
	rm -rf build results
