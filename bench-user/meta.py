"""Shared by summarize.py and cost.py: the conditions of a result folder.

host.txt is written by the host scripts (vm/common.sh host_info); the
guest reports its own facts on an "M key=value ..." line of guest.out.
"""


def read_host(d):
    """host.txt of result folder d, as a dict."""
    return dict(l.split("=", 1) for l in (d / "host.txt").read_text().splitlines() if "=" in l)


def base_meta(host, guest):
    """The meta.json entries every result folder has."""
    return {
        "kernel_package": "linux-source-6.1 " + host.get("kpkg_version", "?"),
        "kernel_release": guest.get("kernel", "?"),
        "series_hash": host.get("series_hash", "?"),
        "qemu": host.get("qemu", "?"),
        "guest_clocksource": guest.get("clocksource", "?"),
        "host_cpu": host.get("host_cpu", "?"),
        "host_cpus": int(host.get("host_cpus", 0) or 0),
        "date": host.get("date", "?"),
    }
