"""The latency histogram of relay_bench.ko (res_hist): the inverse of
relay_bench_hist_bucket() in bench-module/uapi/relay_bench.h, its one
definition -- `report.py hist-bounds` prints this inverse, and make test
(tests/host/layout.sh) holds it against the header compiled in C.
"""
import re

import runfmt

# RELAY_BENCH_HIST_BUCKETS, read from the header.
BUCKETS = int(re.search(r"#define\s+RELAY_BENCH_HIST_BUCKETS\s+(\d+)", runfmt.UAPI.read_text()).group(1))


def bucket_bounds(b):
    """[low, high) ns of latency bucket b."""
    if b < 16:
        return b, b + 1
    e, sub = 4 + (b - 16) // 4, (b - 16) % 4
    return (4 + sub) << (e - 2), (5 + sub) << (e - 2)


def percentile(hist, q):
    """The upper bound of the bucket holding quantile q of a histogram."""
    total = sum(hist)
    if not total:
        return float("nan")
    want, acc = q * total, 0
    for b, n in enumerate(hist):
        acc += n
        if acc >= want:
            return bucket_bounds(b)[1]
    return bucket_bounds(len(hist) - 1)[1]


def hist_max(hist):
    top = max((b for b, n in enumerate(hist) if n), default=None)
    return float("nan") if top is None else bucket_bounds(top)[1]
