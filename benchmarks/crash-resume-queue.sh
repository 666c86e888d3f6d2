#!/usr/bin/env bash
# The queue case of crash-resume.sh: how many bytes `offline run` fetches again when it is
# killed with SIGKILL over and over while it works a queue of small files.
#
# Usage: benchmarks/crash-resume-queue.sh [FILES=1000] [KILLS=20]
#        (or benchmarks/crash-resume.sh queue [FILES] [KILLS])
# Env:   OFFLINE_BIN=path/to/offline (else built with --scratch-path .build-bench)
#        SEED=N to repeat the same kill delays (bash $RANDOM seed)
#
# nginx serves FILES random files of 100 KiB with a limit_rate per connection such that 8 at
# once take about 8 s in all. `offline add -i LIST` queues them once; then KILLS times:
# `offline run --parallel 8 --quiet` runs for 0.1-0.6 s and is killed with kill -9. The last
# run may finish (at most 120 s). Every file is checked against its SHA-256 and nginx's
# $body_bytes_sent is summed: bytes fetched again = total sent - FILES x 100 KiB.
# Exits 1 when a file is missing or wrong or the last run fails; writes
# benchmarks/out/crash-resume-queue.json.
set -euo pipefail
files=${1:-1000}
kills=${2:-20}
source "$(dirname "$0")/lib.sh"
[ -n "${SEED:-}" ] && RANDOM=$SEED

ensure_tools
ensure_offline_bin
small=$(make_small_files "$files" 100)
file_size=$((100 * 1024))
size=$((files * file_size))

open_workdir offline-crash-queue

# 8 connections sharing FILES x 100 KiB over about 8 s.
rate_kib=$(( files * 100 / 64 > 16 ? files * 100 / 64 : 16 ))
mkdir -p "$work/www" "$bench_dir/out"
ln -s "$small" "$work/www/small"
start_nginx "$work" "$work/www" "limit_rate ${rate_kib}k;"
: >"$work/access.log"  # drop the readiness probe's line
store="$work/store"
for n in $(cd "$small" && ls f*.bin); do echo "http://127.0.0.1:$port/small/$n"; done >"$work/queue.txt"
cat "$small"/* >/dev/null
"$offline" --store "$store" add -i "$work/queue.txt" >/dev/null

start_run() {
  "$offline" --store "$store" run --parallel 8 --quiet &
  run_pid=$!
}

log "$files files of 100 KiB, limit_rate ${rate_kib}k per connection; $kills kills with SIGKILL after 0.1-0.6 s each"
started=$(date +%s.%N)
kill_again_and_again "$kills" 100 600
wait_last_run
finished=$(date +%s.%N)
sleep 0.3  # let nginx write the last log lines
mkdir -p "$work/files"
find "$store" -type f -name 'f*.bin' -exec ln {} "$work/files/" \; 2>/dev/null || true
cp "$work/access.log" "$work/access.copy"

python3 - "$work/access.copy" "$work/files" "$small/SHA256SUMS" "$size" "$files" "$landed" \
  "$rate_kib" "$status" "$done_early" "$started" "$finished" \
  "$bench_dir/out/crash-resume-queue.json" <<'PY'
import hashlib, json, os, sys
from nginxlog import body_bytes
(log_path, got_dir, sums_path, size, files, landed, rate_kib, status, done_early, started,
 finished, json_path) = sys.argv[1:]
size, files, landed, status = int(size), int(files), int(landed), int(status)
requests, total, by_status = body_bytes(log_path)
wrong = 0
for line in open(sums_path):
    digest, name = line.split()
    path = os.path.join(got_dir, name)
    if not os.path.exists(path) or hashlib.sha256(open(path, "rb").read()).hexdigest() != digest:
        wrong += 1
refetch = total - size
pct = 100.0 * refetch / size
ok = wrong == 0 and status == 0
print(f"## offline run under SIGKILL: {files} files of 100 KiB, limit_rate {rate_kib}k, {landed} kills\n")
print("| measure | value |")
print("|---|---:|")
print(f"| queue size | {size:,} B ({files} files) |")
print(f"| kills (kill -9 after 0.1-0.6 s) | {landed}{' (queue finished early)' if done_early == '1' else ''} |")
print(f"| requests logged by nginx | {len(requests)} ({', '.join(f'{s}: {v[0]}' for s, v in sorted(by_status.items()))}) |")
print(f"| total body bytes sent | {total:,} B ({total/1048576:.2f} MiB) |")
print(f"| bytes fetched again (total - size) | {refetch:,} B ({refetch/1048576:.2f} MiB, {pct:.2f} %) |")
if landed:
    print(f"| fetched again per kill | {refetch/landed/1024:.0f} KiB |")
print(f"| wall time, first start to finish | {float(finished) - float(started):.1f} s |")
print(f"| last run exit status | {status} |")
print(f"| files missing or wrong | {wrong} |")
json.dump({
    "files": files, "size_bytes": size, "limit_rate_kib": int(rate_kib), "kills": landed,
    "finished_before_last_kill": done_early == "1", "requests": len(requests),
    "by_status": {str(s): v for s, v in by_status.items()},
    "total_bytes_sent": total, "refetched_bytes": refetch, "refetched_percent": pct,
    "last_exit_status": status, "files_wrong": wrong,
    "wall_s": float(finished) - float(started),
}, open(json_path, "w"), indent=2)
print(f"\nJSON: {json_path}")
sys.exit(0 if ok else 1)
PY
