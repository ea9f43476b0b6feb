"""bench.txt: the Go benchmark data format (proposal 14313, as read by
golang.org/x/perf/benchfmt and benchstat), written and parsed here.

    key: value                          a configuration line: it holds
                                        for the results that follow
    Unit UNIT key=value...              what a unit is: better=lower or
                                        higher; assume=exact for figures
                                        that do not vary (make bench-cost)
    BenchmarkWrite/k=v/k=v N V UNIT...  a result: name, iterations, then
                                        value/unit pairs

A configuration key has no blank and no upper case letter, and a blank
follows its colon; a result line has an even number of fields, at least
four, its name begins with "Benchmark" and an upper case letter, and the
parts of its name after the first "/" are key=value (benchstat's
/key projections).  Blank lines and lines beginning with "#" are
ignored.  parse() is stricter than the format, which ignores every
other line: here any other line is an error, and so is a unit no Unit
line describes -- a file this parses is one benchstat reads as meant.
"""
import re

_CONFIG = re.compile(r"^([^\s:]+):(?:\s+(.*))?$")
_NAME = re.compile(r"^Benchmark(?:[A-Z][^/\s]*)(/[^/\s]+)*$")
UNIT_KEYS = {"better": ("higher", "lower"), "assume": ("nothing", "exact")}


def _value(s):
    return s if isinstance(s, str) else format(s, ".6g")


def write(path, config, units, results):
    """config: {key: value}; units: {unit: {key: value}}; results: a list
    of (name, iterations, [(value, unit), ...])."""
    with open(path, "w") as f:
        for k, v in config.items():
            f.write(f"{k}: {v}\n")
        f.write("\n")
        for u, props in units.items():
            f.write(f"Unit {u} " + " ".join(f"{k}={v}" for k, v in props.items()) + "\n")
        f.write("\n")
        for name, n, values in results:
            f.write(f"{name} {n} " + " ".join(f"{_value(v)} {u}" for v, u in values) + "\n")


def name_parts(name):
    """(base, {key: value}) of a benchmark name."""
    base, *parts = name.split("/")
    return base, dict(p.split("=", 1) for p in parts)


def parse(text):
    """{"config": {...}, "units": {unit: {...}}, "results": [(name,
    iterations, {unit: value}, {config at that line})]}; ValueError naming
    the line of the first thing that is not of the format."""
    config, units, results = {}, {}, []
    for n, line in enumerate(text.splitlines(), 1):
        def bad(why):
            raise ValueError(f"line {n}: {why}: {line[:100]}")
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split()
        if fields[0] == "Unit":
            if len(fields) < 3:
                bad("a Unit line names a unit and at least one key=value")
            props = {}
            for kv in fields[2:]:
                k, sep, v = kv.partition("=")
                if not sep or k not in UNIT_KEYS or v not in UNIT_KEYS[k]:
                    bad(f"'{kv}' is not one of {', '.join(f'{k}={v}' for k in UNIT_KEYS for v in UNIT_KEYS[k])}")
                props[k] = v
            units[fields[1]] = props
        elif fields[0].startswith("Benchmark"):
            name = fields[0]
            if not _NAME.match(name):
                bad("a benchmark name is Benchmark, an upper case letter, then /-separated parts")
            if any("=" not in p or p.startswith("=") for p in name.split("/")[1:]):
                bad("a part of the name is not key=value")
            if len(fields) < 4 or len(fields) % 2:
                bad("a result is a name, iterations and value/unit pairs")
            if not fields[1].isdigit():
                bad(f"iterations '{fields[1]}' is not a whole number")
            values = {}
            for v, u in zip(fields[2::2], fields[3::2]):
                try:
                    values[u] = float(v)
                except ValueError:
                    bad(f"value '{v}' of {u} is not a number")
                if u not in units:
                    bad(f"unit {u} has no Unit line before it")
            results.append((name, int(fields[1]), values, dict(config)))
        else:
            m = _CONFIG.match(line)
            if not m or any(c.isupper() for c in m.group(1)):
                bad("neither a configuration line (key: value, the key without blanks or upper case) "
                    "nor a Unit or Benchmark line")
            config[m.group(1)] = m.group(2) or ""
    return {"config": config, "units": units, "results": results}
