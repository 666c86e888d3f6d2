#!/usr/bin/env bash
# Kernel-side counts of two `offline` builds, interleaved, on the two many-request cases:
# the queue of 1000 files of 100 KiB (`add -i`, then `perf stat` of `run --parallel 8`) and
# the 1000-segment HLS VOD (`perf stat` of `get`), beside ffmpeg -c copy on the same VOD.
#
# Usage: benchmarks/counts-ab.sh A_BIN B_BIN [ROUNDS=5]
#
# On a VM that counts no instructions (`perf stat -e instructions true` says "not
# supported") task-clock swings by a fifth between runs; page faults, context switches and
# `madvise` calls do not, so they show what a change to allocations or hand-offs between
# threads did. Prints one line per run and the medians per build and case. Outputs are
# kept until the end (deleting 1000 files makes the next run's file creations slower on an
# ext4 without a journal, see suite.sh), and each is checked: every queue file's SHA-256,
# the HLS copy decoded by ffmpeg to its full duration.
set -euo pipefail
a_bin=$1
b_bin=$2
rounds=${3:-5}
source "$(dirname "$0")/lib.sh"
ensure_suite_tools
command -v perf >/dev/null || apt_install linux-perf

small=$(make_small_files 1000 100)
hls=$(make_hls_stream 1000)
open_workdir counts-ab
mkdir -p "$work/www"
ln -s "$small" "$work/www/small"
ln -s "$hls" "$work/www/hls"
start_nginx "$work" "$work/www" ""
base="http://127.0.0.1:$port"
(cd "$small" && ls f*.bin) | sed "s#^#$base/small/#" >"$work/queue.txt"
cat "$small"/* "$hls"/* >/dev/null
events=task-clock,page-faults,context-switches
perf stat -e syscalls:sys_enter_madvise true >/dev/null 2>&1 && events+=,syscalls:sys_enter_madvise

results="$work/results.tsv"
: >"$results"
measure() { # ROUND CASE WHO COMMAND... -> a line of results
  local round=$1 kase=$2 who=$3
  shift 3
  perf stat -x, -o "$work/stat" -e "$events" "$@" >/dev/null 2>"$work/err" </dev/null \
    || { log "round $round $kase/$who failed: $(tail -3 "$work/err")"; exit 1; }
  python3 - "$work/stat" "$round" "$kase" "$who" >>"$results" <<'PY'
import sys
counts = {}
for line in open(sys.argv[1]):
    fields = line.strip().split(",")
    if len(fields) > 2 and fields[0] and not line.startswith("#"):
        counts[fields[2].replace("syscalls:sys_enter_", "")] = fields[0]
print("\t".join(sys.argv[2:5] + [f"{k}={v}" for k, v in counts.items()]))
PY
}

for round in $(seq "$rounds"); do
  for who in A B; do
    bin=$a_bin
    [ "$who" = B ] && bin=$b_bin
    d="$work/r$round-$who"
    mkdir -p "$d"
    "$bin" --store "$d/q" add -i "$work/queue.txt" >/dev/null
    measure "$round" queue "$who" "$bin" --store "$d/q" run --parallel 8 --quiet
    find "$d/q" -name 'f*.bin' -exec ln {} "$d/" \;
    (cd "$d" && sha256sum --quiet -c "$small/SHA256SUMS") || { log "$who: wrong queue files"; exit 1; }
    measure "$round" hls "$who" "$bin" --store "$d/h" get "$base/hls/index.m3u8" -o "$d/movie" --quiet
  done
  d="$work/r$round-ffmpeg"
  mkdir -p "$d"
  measure "$round" hls ffmpeg ffmpeg -nostdin -v error -i "$base/hls/index.m3u8" -c copy "$d/movie.ts"
  tail -n 5 "$results" | sed 's/^/  /' >&2
done
for d in "$work"/r1-A/movie "$work"/r1-B/movie; do
  case $(check_media "$d/index.m3u8" 1000) in ok*) ;; *) log "$d does not decode"; exit 1 ;; esac
done

python3 - "$results" <<'PY'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    rnd, kase, who, *pairs = line.rstrip("\n").split("\t")
    for pair in pairs:
        name, value = pair.split("=")
        try:
            runs.setdefault((kase, who, name), []).append(float(value))
        except ValueError:
            pass
names = sorted({k[2] for k in runs})
print("| case | build | " + " | ".join(f"{n} (median)" for n in names) + " |")
print("|---|---|" + "---:|" * len(names))
for kase, who in sorted({(k[0], k[1]) for k in runs}):
    cells = [f"{statistics.median(runs[(kase, who, n)]):,.0f}" if (kase, who, n) in runs else "" for n in names]
    print(f"| {kase} | {who} | " + " | ".join(cells) + " |")
PY
