#!/usr/bin/env bash
# How the queue commands scale to a big store: N contents added at once, then listed.
#
# Usage: benchmarks/queue-10k.sh [N=10000] [REPEAT=3]
# Env:   OFFLINE_BIN=path/to/offline (else built with --scratch-path .build-bench)
#
# Makes a list of N distinct URLs (http://127.0.0.1:9/file-$i.bin; nothing is ever fetched:
# no `offline run` happens) and measures with /usr/bin/time -v, each REPEAT times (median
# wall time, largest peak RSS):
#   help    `offline --help`: process start-up, the baseline
#   add     `offline --store S add -i LIST` into a fresh store S (N ids printed)
#   ls      `offline --store S ls >/dev/null`
#   json    `offline --store S ls --json >/dev/null`
#   open    `offline --store S path ID` of a notDownloaded content: opens the manager and
#           exits 1 at once
# Targets: add < 5 s, ls and ls --json < 1 s, open < 0.5 s, peak RSS < 100 MiB each.
# Prints a Markdown table; writes benchmarks/out/queue-10k.json; exits 1 when a command
# fails or a target is missed.
set -euo pipefail
count=${1:-10000}
repeat=${2:-3}
source "$(dirname "$0")/lib.sh"

ensure_tools
ensure_offline_bin

open_workdir offline-queue
mkdir -p "$bench_dir/out"
results="$work/results.tsv"
: >"$results"

list="$work/urls.txt"
for ((i = 1; i <= count; i++)); do echo "http://127.0.0.1:9/file-$i.bin"; done >"$list"

# measure NAME EXPECTED_STATUS COMMAND... -> appends "NAME wall_s rss_kib status" to results;
# the command's standard output goes to $work/NAME.out.
measure() {
  local name=$1 expected=$2
  shift 2
  local report="$work/$name.time"
  /usr/bin/time -v -o "$report" "$@" >"$work/$name.out" 2>"$work/$name.err" || true
  python3 - "$report" "$name" >>"$results" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
wall = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)", text)
h, m, s = wall.groups()
seconds = int(h or 0) * 3600 + int(m) * 60 + float(s)
rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", text).group(1)
status = re.search(r"Exit status: (\d+)", text)
print(f"{sys.argv[2]}\t{seconds:.3f}\t{rss}\t{status.group(1) if status else 'signal'}")
PY
  local status
  status=$(tail -1 "$results" | cut -f4)
  if [ "$status" != "$expected" ]; then
    log "$name exited $status, expected $expected:"
    cat "$work/$name.err" >&2
    exit 1
  fi
}

log "offline: $offline; N=$count; $repeat runs of each"
for ((r = 1; r <= repeat; r++)); do
  measure help 0 "$offline" --help
done
for ((r = 1; r <= repeat; r++)); do
  store="$work/store-$r"
  measure add 0 "$offline" --store "$store" add -i "$list"
  printed=$(wc -l <"$work/add.out")
  [ "$printed" -eq "$count" ] || { log "add printed $printed ids, not $count"; exit 1; }
done
store="$work/store-$repeat"  # the one whose ids add.out holds
first=$(head -1 "$work/add.out")
"$offline" --store "$store" cancel "$first" >/dev/null  # notDownloaded, for `path`
for ((r = 1; r <= repeat; r++)); do
  measure ls 0 "$offline" --store "$store" ls
  measure json 0 "$offline" --store "$store" ls --json
  measure open 1 "$offline" --store "$store" path "$first"
done
rows=$(($(wc -l <"$work/ls.out") - 1))
[ "$rows" -eq "$count" ] || { log "ls listed $rows contents, not $count"; exit 1; }

python3 - "$results" "$count" "$repeat" "$offline" "$bench_dir/out/queue-10k.json" <<'PY'
import json, statistics, sys
path, count, repeat, binary, json_path = sys.argv[1:]
runs = {}
for line in open(path):
    name, wall, rss, status = line.rstrip("\n").split("\t")
    runs.setdefault(name, []).append((float(wall), int(rss)))
targets = {"help": None, "add": 5.0, "ls": 1.0, "json": 1.0, "open": 0.5}
labels = {
    "help": "`offline --help` (start-up)", "add": f"`add -i` of {int(count):,} URLs",
    "ls": "`ls`", "json": "`ls --json`", "open": "open (`path` of a notDownloaded)",
}
memory_target_mib = 100
print(f"## offline queue with {int(count):,} contents (median of {repeat})\n")
print("| command | wall (median) | wall (all runs) | target | peak RSS | memory < 100 MiB |")
print("|---|---:|---|---:|---:|---|")
report, all_met = {}, True
for name in ["help", "add", "ls", "json", "open"]:
    walls = [w for w, _ in runs[name]]
    rss_mib = max(r for _, r in runs[name]) / 1024
    median = statistics.median(walls)
    target = targets[name]
    time_met = target is None or median < target
    memory_met = rss_mib < memory_target_mib
    all_met = all_met and time_met and memory_met
    shown = "—" if target is None else f"< {target:g} s {'met' if time_met else 'MISSED'}"
    print(f"| {labels[name]} | {median:.3f} s | {', '.join(f'{w:.2f}' for w in walls)} |"
          f" {shown} | {rss_mib:.1f} MiB | {'met' if memory_met else 'MISSED'} |")
    report[name] = {
        "wall_s_median": median, "wall_s": walls, "peak_rss_mib": rss_mib,
        "target_s": target, "time_target_met": time_met, "memory_target_met": memory_met,
    }
json.dump({"contents": int(count), "repeat": int(repeat), "binary": binary,
           "commands": report, "all_targets_met": all_met}, open(json_path, "w"), indent=2)
print(f"\nJSON: {json_path}")
sys.exit(0 if all_met else 1)
PY
