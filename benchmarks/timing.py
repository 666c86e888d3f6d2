"""Reads what GNU time's -v wrote: the one parser every benchmark script's report uses."""
import re


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
