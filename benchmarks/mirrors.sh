#!/usr/bin/env bash
# One file from three mirrors, one of them slow, described by a Metalink with piece hashes:
# offline against the best mirror alone and against aria2c -M on the same Metalink.
#
# Usage: benchmarks/mirrors.sh [SIZE_MIB=256] [ROUNDS=3] [RATE=40m]
# Env:   OFFLINE_BIN=path/to/offline (else built with --scratch-path .build-bench)
#
# One nginx on loopback with three server blocks serving the same file: two at RATE per
# connection (limit_rate), one at a tenth of it. A Metalink 4 (SHA-256, 1 MiB SHA-256 pieces,
# the slow mirror listed first so it cannot be skipped by priority) names the three. Each
# round runs, in turn:
#   best-alone   offline get http://fast1/file.bin --sha256 SHA
#   mirrors      offline get file.meta4
#   aria2c       aria2c -M file.meta4 (--split 8, --max-connection-per-server 4)
# and the report gives the median wall time of each and the ratios mirrors / best-alone and
# mirrors / aria2c, with every output's SHA-256 checked outside the timed part. Writes
# benchmarks/out/mirrors.json.
set -euo pipefail
size_mib=${1:-256}
rounds=${2:-3}
rate=${3:-40m}
source "$(dirname "$0")/lib.sh"

ensure_tools
command -v aria2c >/dev/null || apt_install aria2
ensure_offline_bin
data=$(make_data_file "$size_mib")
log "Hashing the source..."
sha=$(sha256_of "$data")

open_workdir offline-mirrors
mkdir -p "$work/www" "$work/runs" "$bench_dir/out"
ln "$data" "$work/www/file.bin" 2>/dev/null || ln -s "$data" "$work/www/file.bin"

slow_rate=$(python3 -c "import sys; r=sys.argv[1]; u={'k':1,'m':1024,'g':1<<20}[r[-1].lower()]; print(str(max(1, int(float(r[:-1]) * u / 10))) + 'k')" "$rate")
port2=$(free_port)
port3=$(free_port)
while [ "$port3" = "$port2" ]; do port3=$(free_port); done
start_nginx "$work" "$work/www" "limit_rate $rate;" "
  server { listen 127.0.0.1:$port2; root $work/www; limit_rate $rate; }
  server { listen 127.0.0.1:$port3; root $work/www; limit_rate $slow_rate; }"
fast1="http://127.0.0.1:$port/file.bin"
fast2="http://127.0.0.1:$port2/file.bin"
slow="http://127.0.0.1:$port3/file.bin"
cat "$data" >/dev/null

log "Writing the Metalink (1 MiB SHA-256 pieces)..."
write_metalink "$data" "$work/file.meta4" "$sha" "$slow" "$fast1" "$fast2"

results="$work/results.tsv"
: >"$results"

# timed CASE ROUND OUTPUT COMMAND... -> runs COMMAND under /usr/bin/time, checks OUTPUT's
# SHA-256 after, and records the row.
timed() {
  local name=$1 round=$2 output=$3; shift 3
  local tfile="$work/runs/time-$name-$round.txt" status=0
  /usr/bin/time -v -o "$tfile" "$@" >/dev/null 2>"$work/runs/err-$name-$round.txt" || status=$?
  local ok=0
  [ "$status" -eq 0 ] && [ "$(sha256_of "$output")" = "$sha" ] && ok=1
  printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$round" "$tfile" "$status" "$ok" >>"$results"
  log "  $name round $round: exit $status, sha256 $([ $ok -eq 1 ] && echo ok || echo WRONG)"
}

for round in $(seq "$rounds"); do
  log "Round $round of $rounds"
  out="$work/runs/out-$round"
  rm -rf "$out" "$work/runs/store"; mkdir -p "$out"
  timed best-alone "$round" "$out/best.bin" \
    "$offline" --store "$work/runs/store" get "$fast1" -o "$out/best.bin" --sha256 "$sha" --quiet
  rm -rf "$out" "$work/runs/store"; mkdir -p "$out"; sync
  timed mirrors "$round" "$out/file.bin" \
    "$offline" --store "$work/runs/store" get "$work/file.meta4" -o "$out/file.bin" --quiet
  rm -rf "$out" "$work/runs/store"; mkdir -p "$out"; sync
  timed aria2c "$round" "$out/file.bin" \
    aria2c -M "$work/file.meta4" -d "$out" --split 8 --max-connection-per-server 4 \
    --file-allocation=none --allow-overwrite=true --auto-file-renaming=false \
    --console-log-level warn --summary-interval 0
  rm -rf "$out"; sync
done

{
  echo "## Three mirrors (two at $rate per connection, one at $slow_rate), ${size_mib} MiB, $rounds rounds"
  echo
  machine_info
  echo "- offline: $offline"
  echo "- aria2c: $(aria2c --version | head -1)"
  echo
}
python3 - "$results" "$bench_dir/out/mirrors.json" <<'PY'
import json, statistics, sys
from timing import parse_time

results, json_path = sys.argv[1], sys.argv[2]
runs = []
for row in open(results):
    name, rnd, tfile, status, ok = row.rstrip("\n").split("\t")
    r = {"case": name, "round": int(rnd), "exit": int(status), "sha256_ok": ok == "1"}
    r.update(parse_time(tfile))
    runs.append(r)
median = {}
for case in ("best-alone", "mirrors", "aria2c"):
    walls = [r["wall"] for r in runs if r["case"] == case]
    median[case] = statistics.median(walls) if walls else float("nan")
print("| case | median wall s | rounds (s) | all SHA-256 ok |")
print("|---|---:|---|---|")
for case in ("best-alone", "mirrors", "aria2c"):
    rows = [r for r in runs if r["case"] == case]
    walls = ", ".join(f"{r['wall']:.2f}" for r in rows)
    ok = all(r["sha256_ok"] and r["exit"] == 0 for r in rows)
    print(f"| {case} | {median[case]:.2f} | {walls} | {'ok' if ok else 'WRONG'} |")
print()
print(f"- mirrors / best-alone: {median['mirrors'] / median['best-alone']:.3f}")
print(f"- mirrors / aria2c -M: {median['mirrors'] / median['aria2c']:.3f}")
json.dump({"median_wall": median, "runs": runs}, open(json_path, "w"), indent=2)
PY
