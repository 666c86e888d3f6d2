#!/usr/bin/env bash
# The cost of the quick check on open (issue 15): N downloaded contents (tiny files from a
# local nginx), then `ls`, `ls --json` and `path ID` timed, REPEAT times each (medians).
#
# Usage: benchmarks/quick-check-10k.sh [N=10000] [REPEAT=5]
# Env:   OFFLINE_BIN=path/to/offline (else built with --scratch-path .build-bench);
#        BEFORE_BIN=path/to/an offline without the check, measured the same way, interleaved.
#
# Every content is downloaded, so `ls` checks N contents (one lstat each) and `path` one.
# Prints a Markdown table with the per-content cost of `ls` (its wall time over N).
set -euo pipefail
count=${1:-10000}
repeat=${2:-5}
source "$(dirname "$0")/lib.sh"

ensure_tools
ensure_offline_bin
bins=("after:$offline")
[ -n "${BEFORE_BIN:-}" ] && bins=("before:$BEFORE_BIN" "${bins[@]}")

open_workdir offline-quick
mkdir -p "$work/www"
for ((i = 1; i <= count; i++)); do printf 'file %08d\n' "$i" >"$work/www/f$i.bin"; done
start_nginx "$work" "$work/www" ""
for ((i = 1; i <= count; i++)); do echo "http://127.0.0.1:$port/f$i.bin"; done >"$work/urls.txt"

for entry in "${bins[@]}"; do
  name=${entry%%:*} bin=${entry#*:}
  store="$work/store-$name"
  log "$name: downloading $count contents with $bin..."
  "$bin" --store "$store" add -i "$work/urls.txt" >"$work/ids-$name.txt"
  "$bin" --store "$store" run --quiet --parallel 8 >/dev/null 2>&1 || "$bin" --store "$store" run --quiet >/dev/null
done

python3 - "$work" "$count" "$repeat" "${bins[@]}" <<'PY'
import statistics, subprocess, sys, time
work, count, repeat, bins = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
rows = {}
for r in range(repeat):
    for entry in bins:
        name, binary = entry.split(":", 1)
        store = f"{work}/store-{name}"
        first = open(f"{work}/ids-{name}.txt").readline().strip()
        for label, args in (("ls", ["ls"]), ("ls --json", ["ls", "--json"]), ("path ID", ["path", first])):
            start = time.perf_counter()
            done = subprocess.run([binary, "--store", store] + args, stdout=subprocess.DEVNULL)
            wall = time.perf_counter() - start
            assert done.returncode == 0, (name, label, done.returncode)
            rows.setdefault((label, name), []).append(wall)
names = [b.split(":", 1)[0] for b in bins]
print(f"## quick check: {count} downloaded contents, medians of {repeat}")
print()
print("| command | " + " | ".join(f"{n} s" for n in names) + " | per content (last) |")
print("|---|" + "---:|" * len(names) + "---:|")
for label in ("ls", "ls --json", "path ID"):
    meds = [statistics.median(rows[(label, n)]) for n in names]
    per = meds[-1] / (count if label != "path ID" else 1) * 1e6
    print(f"| {label} | " + " | ".join(f"{m:.3f}" for m in meds) + f" | {per:.1f} µs |")
PY
