#!/usr/bin/env bash
# How many bytes `offline get` fetches again when it is killed with SIGKILL over and over.
#
# Usage: benchmarks/crash-resume.sh [SIZE_MIB=256] [KILLS=20]
# Env:   OFFLINE_BIN=path/to/offline (else built with --scratch-path .build-bench)
#        SEED=N to repeat the same kill delays (bash $RANDOM seed)
#
# nginx serves a SIZE MiB random file with limit_rate SIZE/8 MiB/s (a whole download takes
# about 8 s). `offline get URL -o OUT --sha256 HEX --quiet` starts in the background; KILLS
# times: sleep 0.1-0.6 s, kill -9, start the same command again. The last run may finish
# (at most 120 s). Then the file's SHA-256 is checked and nginx's $body_bytes_sent is summed
# over its access log: bytes fetched again = total sent - SIZE. Target: under 2 % of SIZE.
# Exits 1 when the checksum is wrong or the last run fails; writes benchmarks/out/crash-resume.json.
#
# Usage: benchmarks/crash-resume.sh queue [FILES=1000] [KILLS=20]
# The queue: FILES files of 100 KiB, `offline add -i LIST` once, then `offline run --parallel 8
# --quiet` killed the same way (nginx's limit_rate per connection makes the whole queue take
# about 8 s); the last run may finish. Every file's SHA-256 is checked; bytes fetched again =
# total sent - FILES x 100 KiB. Writes benchmarks/out/crash-resume-queue.json.
set -euo pipefail
if [ "${1:-}" = queue ]; then
  shift
  exec bash "$(dirname "$0")/crash-resume-queue.sh" "$@"
fi
size_mib=${1:-256}
kills=${2:-20}
source "$(dirname "$0")/lib.sh"
[ -n "${SEED:-}" ] && RANDOM=$SEED

ensure_tools
ensure_offline_bin
data=$(make_data_file "$size_mib")
size=$((size_mib * 1024 * 1024))
log "Hashing source..."
sha=$(sha256_of "$data")

open_workdir offline-crash

rate_mib=$(( size_mib / 8 > 0 ? size_mib / 8 : 1 ))
mkdir -p "$work/www" "$bench_dir/out"
ln "$data" "$work/www/file.bin" 2>/dev/null || ln -s "$data" "$work/www/file.bin"
start_nginx "$work" "$work/www" "limit_rate ${rate_mib}m;"
: >"$work/access.log"  # drop the readiness probe's line
url="http://127.0.0.1:$port/file.bin"
store="$work/store"
out="$work/out/file.bin"
mkdir -p "$work/out"
cat "$data" >/dev/null

start_run() {
  "$offline" --store "$store" get "$url" -o "$out" --sha256 "$sha" --quiet &
  run_pid=$!
}
part_len() { stat -c %s "$out.part" 2>/dev/null || echo 0; }

log "limit_rate ${rate_mib}m; $kills kills with SIGKILL after 0.1-0.6 s each"
kills_tsv="$work/kills.tsv"
: >"$kills_tsv"
after_kill() { printf '%s\t%d.%03d\t%s\n' "$1" $(($2 / 1000)) $(($2 % 1000)) "$(part_len)" >>"$kills_tsv"; }
started=$(date +%s.%N)
kill_again_and_again "$kills" 100 600
wait_last_run
finished=$(date +%s.%N)
sleep 0.3  # let nginx write the last log lines
got=""
[ -f "$out" ] && got=$(sha256_of "$out")
cp "$work/access.log" "$work/access.copy"

python3 - "$work/access.copy" "$kills_tsv" "$size" "$size_mib" "$kills" "$rate_mib" "$status" \
  "$sha" "$got" "$done_early" "$started" "$finished" "$bench_dir/out/crash-resume.json" <<'PY'
import json, sys
from nginxlog import body_bytes, sent_twice
(log_path, kills_path, size, size_mib, kills, rate_mib, status, sha, got, done_early,
 started, finished, json_path) = sys.argv[1:]
size, size_mib, kills, status = int(size), int(size_mib), int(kills), int(status)
requests, total, by_status = body_bytes(log_path)
refetch = total - size
pct = 100.0 * refetch / size
ok = got == sha and status == 0
n206 = by_status.get(206, [0])[0]
n_body = sum(v[0] for s, v in by_status.items() if s in (200, 206))
in_flight = max(0, n_body - (1 if ok else 0))
kill_rows = [l.split("\t") for l in open(kills_path).read().splitlines()]

print(f"## offline get under SIGKILL: {size_mib} MiB, limit_rate {rate_mib}m, {len(kill_rows)} kills\n")
print("| measure | value |")
print("|---|---:|")
print(f"| file size | {size:,} B ({size_mib} MiB) |")
print(f"| kills (kill -9 after 0.1-0.6 s) | {len(kill_rows)}{' (download finished early)' if done_early == '1' else ''} |")
print(f"| requests logged by nginx | {len(requests)} ({', '.join(f'{s}: {v[0]}' for s, v in sorted(by_status.items()))}) |")
print(f"| 206 responses | {n206} |")
print(f"| kills that landed with a response in flight | {in_flight} (200/206 responses minus the final one) |")
print(f"| total body bytes sent | {total:,} B ({total/1048576:.2f} MiB) |")
print(f"| bytes fetched again (total - size) | {refetch:,} B ({refetch/1048576:.2f} MiB) |")
print(f"| of them, sent for offsets sent before (the ranges in nginx's log) | {sent_twice(log_path):,} B |")
print(f"| fetched again / file size | {pct:.2f} % (target < 2 %: {'met' if pct < 2 else 'MISSED'}) |")
if in_flight:
    print(f"| fetched again per in-flight kill | {refetch/in_flight/1024:.0f} KiB |")
print(f"| wall time, first start to finish | {float(finished) - float(started):.1f} s |")
print(f"| last run exit status | {status} |")
print(f"| SHA-256 of the result | {'ok' if got == sha else 'WRONG (' + (got or 'no file') + ')'} |")
print()
print("Per request (body bytes, status): " + ", ".join(f"{b} {s}" for b, s in requests))
print("Part length after each kill (bytes): " + ", ".join(r[2] for r in kill_rows))

json.dump({
    "size_bytes": size, "size_mib": size_mib, "limit_rate_mib": int(rate_mib),
    "kills": len(kill_rows), "kill_delays_s": [float(r[1]) for r in kill_rows],
    "part_length_after_kill": [int(r[2]) for r in kill_rows],
    "finished_before_last_kill": done_early == "1",
    "requests": [{"body_bytes_sent": b, "status": s} for b, s in requests],
    "responses_206": n206, "kills_in_flight": in_flight,
    "total_bytes_sent": total, "refetched_bytes": refetch, "refetched_percent": pct,
    "target_met": pct < 2, "last_exit_status": status, "sha256_ok": got == sha,
    "wall_s": float(finished) - float(started),
}, open(json_path, "w"), indent=2)
print(f"\nJSON: {json_path}")
sys.exit(0 if ok else 1)
PY
