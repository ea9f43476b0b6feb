"""The conditions of a result folder: what the figures were measured under.

host.txt holds the host's facts (vm/env.sh host_info: the kernel chosen,
its package, the series, the compiler, the host CPU, the module built)
and the boot's own (vm/run --meta: the accelerator actually used, the
clock, the vCPUs, the kernel release, the QEMU run and the hash of the
kernel's .config); the guest reports its facts on an "M key=value ..."
line of guest.out.  Each fact is written once.  Every report prints
these beside its numbers, and make compare compares them before
anything else.
"""
import hashlib
import json
from pathlib import Path

import runfmt

# The conditions two result folders must share for their figures to be
# compared, with the names printed for them.
COMPARED = (
    ("kernel_package", "kernel package"),
    ("kernel_release", "kernel release"),
    ("kvariant", "kernel variant"),
    ("kconfig", "kernel .config"),
    ("bench_module", "relay_bench.ko source"),
    ("compiler", "compiler"),
    ("qemu", "QEMU"),
    ("accelerator", "accelerator"),
    ("clock", "clock"),
    ("vcpus", "vCPUs"),
    ("host_cpus", "host CPUs"),
    ("host_cpu", "host CPU"),
)


def module_hash(module_dir, name):
    """The sources a module of bench-module/ is built from, hashed: its
    Makefile, NAME.c, its tracepoint header NAME_trace.h if it has one
    (with the event it takes from bench_rec_event.h), and the uapi headers
    (`report.py module-hash`)."""
    d = Path(module_dir)
    h = hashlib.sha256()
    trace_h = [p for p in (d / f"{name}_trace.h", d / "bench_rec_event.h") if p.exists()]
    for p in [d / "Makefile", d / f"{name}.c"] + trace_h + sorted((d / "uapi").glob("*.h")):
        h.update(p.read_bytes())
    return h.hexdigest()[:12]


def folder_format(d):
    """The format of a result folder: meta.json's "format", 1 if absent
    (the folders written before it was recorded)."""
    p = Path(d) / "meta.json"
    return json.loads(p.read_text()).get("format", 1) if p.exists() else runfmt.FORMAT


def read_host(d):
    """host.txt of result folder d, as a dict."""
    return dict(line.split("=", 1) for line in (d / "host.txt").read_text().splitlines()
                if "=" in line)


def base_meta(host, guest):
    """The meta.json entries every result folder has."""
    vcpus = int(host.get("vcpus", guest.get("cpus", 0)) or 0)
    host_cpus = int(host.get("host_cpus", 0) or 0)
    return {
        "format": runfmt.FORMAT,
        "kernel": host.get("kernel", "?"),
        "kernel_package": f"{host.get('kpkg', '?')} {host.get('kpkg_version', '?')}",
        "kernel_release": guest.get("kernel", host.get("kernel_release", "?")),
        "kvariant": host.get("kvariant", "?"),
        "series_hash": host.get("series_hash", "?"),
        "bench_module": host.get("bench_module", "?"),
        "kconfig": host.get("kconfig", "?"),
        "compiler": host.get("compiler", "?"),
        "qemu": host.get("qemu", host.get("qemu_version", "?")),
        "accelerator": host.get("accel", "?"),
        "clock": host.get("clock", "?"),
        "vcpus": vcpus,
        "host_cpus": host_cpus,
        "vcpus_per_host_cpu": round(vcpus / host_cpus, 2) if host_cpus else None,
        "guest_clocksource": guest.get("clocksource", "?"),
        # The BPF JIT (net.core.bpf_jit_enable) for the BPF peers: 1 on.
        "guest_bpf_jit": guest.get("bpf_jit", "?"),
        "host_cpu": host.get("host_cpu", "?"),
        "date": host.get("date", "?"),
        # The variants this kernel cannot have, and why (bench-user/host/bench).
        "not_measured": host.get("not_measured", ""),
    }


def line(m):
    """The conditions in one line, for reports and plot titles."""
    return (f"{m['accelerator'].upper()}, {m['clock']}, {m['vcpus']} vCPUs on {m['host_cpus']} host CPUs"
            f" ({m['vcpus_per_host_cpu']} per host CPU), {m['kernel_package']} ({m['kernel_release']},"
            f" {m['kvariant']}), series {m['series_hash']}, {m['compiler']}, {m['qemu']}")


def plot_lines(m):
    """The conditions in three short lines, for plot titles."""
    return (f"{m['accelerator'].upper()}, {m['clock']}, {m['vcpus']} vCPUs on {m['host_cpus']} host CPUs;\n"
            f"{m['kernel_package']} ({m['kvariant']}), series {m['series_hash']}\n"
            f"{m['compiler'].split(' (')[0]} {m['compiler'].split()[-1]}, {m['qemu'].replace('QEMU emulator version', 'QEMU')}")


def write(d, m):
    (d / "meta.json").write_text(json.dumps(m, indent=2) + "\n")


def mismatches(a, b):
    """The compared conditions that differ between two meta dicts."""
    return [(name, a.get(k, "?"), b.get(k, "?")) for k, name in COMPARED
            if a.get(k, "?") != b.get(k, "?")]
