"""The host checks' form for Python: "ok - ..." and "not ok - ..." lines
with "# " details (tests/lib/host.sh's), which tests/steps/host.sh turns
into PASS and FAIL lines."""
import sys

failed = 0


def ok(cond, what, *detail):
    """One check: passes if cond is true; the details show if it fails."""
    global failed
    print(("ok - " if cond else "not ok - ") + what)
    if not cond:
        failed += 1
        for d in detail:
            print(f"# {d}")


def done():
    sys.exit(1 if failed else 0)
