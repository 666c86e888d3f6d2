"""Reads what GNU time's -v wrote: the one parser every benchmark script's report uses."""
import re
import statistics


def parse_time(path):
    """The run timed into PATH by `/usr/bin/time -v -o PATH`, as a dict: wall, user, sys and
    cpu (user + sys) in seconds, rss_kib and rss_mib (peak resident set size)."""
    text = open(path).read()
    wall = re.search(r"Elapsed \(wall clock\) time.*: (\S+)", text).group(1).split(":")
    d = {"wall": sum(float(p) * 60 ** i for i, p in enumerate(reversed(wall)))}
    d["user"] = float(re.search(r"User time \(seconds\): (\S+)", text).group(1))
    d["sys"] = float(re.search(r"System time \(seconds\): (\S+)", text).group(1))
    d["cpu"] = d["user"] + d["sys"]
    d["rss_kib"] = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", text).group(1))
    d["rss_mib"] = d["rss_kib"] / 1024
    return d


def print_rounds(results, tools, base="curl"):
    """Prints each run of RESULTS (tab-separated lines: round, tool, the time file, verdict)
    and then, for each of TOOLS that ran, the medians of wall and CPU time with their ratios
    to BASE's medians in the same runs."""
    rows = {}
    for line in open(results):
        rnd, tool, path, verdict = line.rstrip("\n").split("\t")
        t = parse_time(path)
        rows.setdefault(tool, []).append(t)
        print(f"round {rnd} {tool:11s} wall {t['wall']:.2f} s  user {t['user']:.2f}"
              f"  sys {t['sys']:.2f}  {verdict}")
    med = {k: {m: statistics.median(r[m] for r in v) for m in ("wall", "cpu")}
           for k, v in rows.items()}
    for tool in tools:
        if tool in med:
            m = med[tool]
            print(f"median {tool:11s} wall {m['wall']:.2f} s ({m['wall'] / med[base]['wall']:.2f}x {base})"
                  f"  cpu {m['cpu']:.2f} s ({m['cpu'] / med[base]['cpu']:.2f}x {base})")
