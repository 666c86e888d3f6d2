#!/usr/bin/env python3
"""What this disk allows for many small files: the floor under the queue case.

Usage: benchmarks/small-files-floor.py [FILES=1000] [KIB=100] [ROUNDS=3] [DIR=/var/tmp]

Writes FILES files of KIB KiB (random bytes made once, in memory) and makes them durable with
one syncfs, in four layouts, interleaved in the same rounds (only ratios within a run count on
a shared machine):

  flat      every file straight into one folder (what curl --parallel does, plus the sync)
  flat+part every file as NAME.part, renamed to NAME (one inode per file, as the store now does)
  folders   a folder per file, the file in it
  today     a folder per file with NAME.part renamed to NAME and a manifest written to a
            temporary and renamed (three inodes per file, the store before the flat layout)

Prints wall and CPU (user + sys of this process) per layout and round, then the medians.
Each round's output stays until the end: deleting 1000 files right before the next layout's
run makes its inode allocations scan past the freed ones (see suite.sh).
"""
import os
import resource
import shutil
import statistics
import sys
import tempfile
import time
import ctypes

files = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
kib = int(sys.argv[2]) if len(sys.argv) > 2 else 100
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
parent = sys.argv[4] if len(sys.argv) > 4 else "/var/tmp"

libc = ctypes.CDLL("libc.so.6", use_errno=True)
body = os.urandom(kib * 1024)
chunk = 16 * 1024  # what libcurl hands a write callback at a time


def write(path):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o644)
    for start in range(0, len(body), chunk):
        os.pwrite(fd, body[start:start + chunk], start)
    os.close(fd)


def run(layout, root):
    os.mkdir(root)
    for i in range(files):
        name = f"f{i:05d}.bin"
        folder = root
        if layout in ("folders", "today"):
            folder = os.path.join(root, f"c{i:05d}")
            os.mkdir(folder)
        target = os.path.join(folder, name)
        if layout == "flat" or layout == "folders":
            write(target)
        else:
            write(target + ".part")
            os.rename(target + ".part", target)
        if layout == "today":
            manifest = os.path.join(folder, ".manifest.json")
            with open(manifest + ".tmp", "w") as f:
                f.write('{"id":"c%05d","files":[{"path":"%s","size":%d}]}' % (i, name, len(body)))
            os.rename(manifest + ".tmp", manifest)
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    if libc.syncfs(fd) != 0:
        raise OSError(ctypes.get_errno(), "syncfs")
    os.close(fd)


layouts = ["flat", "flat+part", "folders", "today"]
work = tempfile.mkdtemp(prefix="small-files-floor.", dir=parent)
results = {layout: [] for layout in layouts}
try:
    for r in range(rounds):
        for layout in layouts:
            before = resource.getrusage(resource.RUSAGE_SELF)
            start = time.monotonic()
            run(layout, os.path.join(work, f"r{r}-{layout}"))
            wall = time.monotonic() - start
            after = resource.getrusage(resource.RUSAGE_SELF)
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            results[layout].append((wall, cpu))
            print(f"round {r + 1} {layout:10s} wall {wall:.3f} s  cpu {cpu:.3f} s", flush=True)
finally:
    shutil.rmtree(work, ignore_errors=True)

flat = statistics.median(w for w, _ in results["flat"])
for layout in layouts:
    wall = statistics.median(w for w, _ in results[layout])
    cpu = statistics.median(c for _, c in results[layout])
    print(f"median {layout:10s} wall {wall:.3f} s ({wall / flat:.2f}x flat)  cpu {cpu:.3f} s")
