#!/usr/bin/env python3
"""What this disk allows for many small files: the floor under the queue case.

Usage: benchmarks/small-files-floor.py [FILES=1000] [KIB=100] [ROUNDS=3] [DIR=/var/tmp]

Writes FILES files of KIB KiB (random bytes made once, in memory) and, in all layouts but
the first, makes them durable with one syncfs; six layouts, interleaved in the same rounds
(only ratios within a run count on a shared machine):

  nosync    every file straight into one folder, no sync (exactly what curl --parallel does)
  flat      every file straight into one folder (what curl --parallel does, plus the sync)
  flat+part every file as NAME.part, renamed to NAME (one inode per file, as the store now does)
  folders   a folder per file, the file in it
  today     a folder per file with NAME.part renamed to NAME and a manifest written to a
            temporary and renamed (three inodes per file, the store before the flat layout)
  direct    every file as NAME.part written in one O_DIRECT write from an aligned buffer (past
            the page cache), renamed to NAME (what the store does since session 23)

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
import mmap

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


aligned = mmap.mmap(-1, len(body))  # page-aligned, as O_DIRECT needs
aligned.write(body)


def write_direct(path):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC | os.O_DIRECT, 0o644)
    os.pwrite(fd, aligned, 0)
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
        if layout in ("nosync", "flat", "folders"):
            write(target)
        elif layout == "direct":
            write_direct(target + ".part")
            os.rename(target + ".part", target)
        else:
            write(target + ".part")
            os.rename(target + ".part", target)
        if layout == "today":
            manifest = os.path.join(folder, ".manifest.json")
            with open(manifest + ".tmp", "w") as f:
                f.write('{"id":"c%05d","files":[{"path":"%s","size":%d}]}' % (i, name, len(body)))
            os.rename(manifest + ".tmp", manifest)
    if layout == "nosync":
        return
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    if libc.syncfs(fd) != 0:
        raise OSError(ctypes.get_errno(), "syncfs")
    os.close(fd)


layouts = ["nosync", "flat", "flat+part", "folders", "today", "direct"]
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

nosync = statistics.median(w for w, _ in results["nosync"])
for layout in layouts:
    wall = statistics.median(w for w, _ in results[layout])
    cpu = statistics.median(c for _, c in results[layout])
    print(f"median {layout:10s} wall {wall:.3f} s ({wall / nosync:.2f}x nosync)  cpu {cpu:.3f} s")
