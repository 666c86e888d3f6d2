#!/usr/bin/env bash
# How close `offline` holds a rate cap, and what it costs in memory, beside curl's own cap.
#
# Usage: benchmarks/limit-rate.sh [SIZE_MIB=1024] [RATE=20M]
# Env:   OFFLINE_BIN=path/to/offline (else built with --scratch-path .build-bench)
#
# Runs, from a local nginx on loopback, each once under /usr/bin/time -v:
#   get-unlimited  offline get URL                 (the RSS reference)
#   get-capped     offline get URL --limit-rate RATE
#   curl-capped    curl --limit-rate RATE          (libcurl's own per-handle cap)
#   queue-capped   offline add (4 files of SIZE/4) + offline run --parallel 4 --limit-rate RATE
# and prints the rate each achieved over its whole run (bytes / wall time) as a ratio to the
# cap, with peak RSS. Every output's SHA-256 is checked outside the timed part. At 20M a
# 1 GiB case takes about 51 s. Writes benchmarks/out/limit-rate.json.
set -euo pipefail
size_mib=${1:-1024}
rate=${2:-20M}
source "$(dirname "$0")/lib.sh"

ensure_tools
ensure_offline_bin
data=$(make_data_file "$size_mib")
quarter=$((size_mib / 4))
part=$(make_data_file "$quarter")
log "Hashing sources..."
sha=$(sha256_of "$data")
part_sha=$(sha256_of "$part")

open_workdir offline-bench

mkdir -p "$work/www" "$work/runs" "$bench_dir/out"
ln "$data" "$work/www/file.bin" 2>/dev/null || ln -s "$data" "$work/www/file.bin"
for i in 1 2 3 4; do
  ln "$part" "$work/www/part$i.bin" 2>/dev/null || ln -s "$part" "$work/www/part$i.bin"
done
start_nginx "$work" "$work/www" ""
base="http://127.0.0.1:$port"
cat "$data" "$part" >/dev/null

results="$work/results.tsv"
: >"$results"

# record CASE BYTES TIMEFILE EXIT OK
record() { printf '%s\t%s\t%s\t%s\t%s\n' "$@" >>"$results"; }

# run_get NAME [GET_OPTIONS...]
run_get() {
  local name=$1; shift
  local store="$work/runs/store-$name" out="$work/runs/$name.bin" tfile="$work/runs/time-$name.txt"
  local status=0
  /usr/bin/time -v -o "$tfile" "$offline" --store "$store" get "$base/file.bin" -o "$out" --quiet "$@" || status=$?
  local ok=0
  [ "$status" -eq 0 ] && [ "$(sha256_of "$out")" = "$sha" ] && ok=1
  record "$name" $((size_mib << 20)) "$tfile" "$status" "$ok"
  rm -rf "$store" "$out" "$out.part"
  sync
  log "  $name: exit $status, sha256 $([ $ok -eq 1 ] && echo ok || echo WRONG)"
}

log "get, no cap"
run_get get-unlimited
log "get --limit-rate $rate"
run_get get-capped --limit-rate "$rate"

log "curl --limit-rate $rate"
status=0
/usr/bin/time -v -o "$work/runs/time-curl.txt" curl -s --limit-rate "$rate" -o "$work/runs/curl.bin" "$base/file.bin" || status=$?
ok=0
[ "$status" -eq 0 ] && [ "$(sha256_of "$work/runs/curl.bin")" = "$sha" ] && ok=1
record curl-capped $((size_mib << 20)) "$work/runs/time-curl.txt" "$status" "$ok"
rm -f "$work/runs/curl.bin"
log "  curl-capped: exit $status"

if ! "$offline" run --help | grep -q -- --limit-rate; then
  log "run has no --limit-rate yet: the queue case is left out"
else
log "run --parallel 4 --limit-rate $rate"
store="$work/runs/store-queue"
for i in 1 2 3 4; do
  "$offline" --store "$store" add "$base/part$i.bin" >/dev/null
done
status=0
/usr/bin/time -v -o "$work/runs/time-queue.txt" "$offline" --store "$store" run --parallel 4 --limit-rate "$rate" --quiet || status=$?
ok=1
for f in $(find "$store" -name 'part*.bin' -type f); do
  [ "$(sha256_of "$f")" = "$part_sha" ] || ok=0
done
[ "$(find "$store" -name 'part*.bin' -type f | wc -l)" -eq 4 ] || ok=0
record queue-capped $((quarter * 4 << 20)) "$work/runs/time-queue.txt" "$status" "$ok"
log "  queue-capped: exit $status"
fi

{
  echo "## Rate caps: ${size_mib} MiB at $rate over loopback from nginx"
  echo
  machine_info
  echo "- offline: $offline"
  echo
}
python3 - "$results" "$rate" "$bench_dir/out/limit-rate.json" <<'PY'
import json, sys

results, rate_text, json_path = sys.argv[1], sys.argv[2], sys.argv[3]
units = {"k": 1024, "K": 1024, "m": 1 << 20, "M": 1 << 20, "g": 1 << 30, "G": 1 << 30}
cap = float(rate_text[:-1]) * units[rate_text[-1]] if rate_text[-1] in units else float(rate_text)

from timing import parse_time

labels = {
    "get-unlimited": "offline get URL",
    "get-capped": f"offline get URL --limit-rate {rate_text}",
    "curl-capped": f"curl --limit-rate {rate_text}",
    "queue-capped": f"offline run --parallel 4 --limit-rate {rate_text}",
}
runs = []
for row in open(results):
    name, size, tfile, status, ok = row.rstrip("\n").split("\t")
    r = {"case": name, "bytes": int(size), "exit": int(status), "sha256_ok": ok == "1"}
    r.update(parse_time(tfile))
    r["rate"] = r["bytes"] / r["wall"]
    r["rate_to_cap"] = None if name == "get-unlimited" else r["rate"] / cap
    runs.append(r)

print("| case | wall s | MiB/s over the run | rate / cap | CPU s | peak RSS MiB | SHA-256 |")
print("|---|---:|---:|---:|---:|---:|---|")
for r in runs:
    ratio = "" if r["rate_to_cap"] is None else f"{r['rate_to_cap']:.3f}"
    print(f"| {labels[r['case']]} | {r['wall']:.1f} | {r['rate'] / (1 << 20):.2f} | {ratio} | "
          f"{r['user'] + r['sys']:.2f} | {r['rss_kib'] / 1024:.1f} | "
          f"{'ok' if r['sha256_ok'] and r['exit'] == 0 else 'WRONG'} |")
json.dump({"cap_bytes_per_second": cap, "runs": runs}, open(json_path, "w"), indent=2)
PY
