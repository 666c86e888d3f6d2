#!/usr/bin/env bash
# How fast a cache hit is, next to reading the same file directly; and hits and eviction
# with a big index.
#
# Usage: benchmarks/cache-hit.sh [COUNT=2000] [ROUNDS=7] [ENTRIES=100000]
# Env:   OFFLINE_BIN=path/to/offline (else built with --scratch-path .build-bench)
#
# Starts nginx serving a 100 KB file and, in a fresh store:
#   hit    `offline-bench cache-hit URL`: downloads the file once, then ROUNDS interleaved
#          rounds of COUNT `FileCache.data(for:)` calls (each a hit) and COUNT
#          `Data(contentsOf:)` reads of the cached file; medians of the per-call times.
#   index  `offline-bench cache-index URL`: ENTRIES synthetic entries added to the index,
#          then a cold hit (a fresh cache: one indexed query), COUNT warm hits, and an
#          eviction pass that removes a tenth of the entries (least recently used first).
# Target: hit ratio (cached / direct) under 1.5. Prints a Markdown table; writes
# benchmarks/out/cache-hit.json; exits 1 when a command fails or the target is missed.
set -euo pipefail
count=${1:-2000}
rounds=${2:-7}
entries=${3:-100000}
source "$(dirname "$0")/lib.sh"

ensure_tools
ensure_offline_bin
ensure_bench_bin

open_workdir offline-cache
mkdir -p "$work/www" "$bench_dir/out"
head -c 100000 /dev/urandom >"$work/www/entry.bin"
start_nginx "$work" "$work/www" ""
url="http://127.0.0.1:$port/entry.bin"

log "bench-hit: $rounds rounds of $count calls..."
"$offline_bench" cache-hit --store "$work/store-hit" "$url" --count "$count" --rounds "$rounds" \
  >"$work/hit.json"
log "bench-index: $entries entries..."
"$offline_bench" cache-index --store "$work/store-index" "$url" --count "$count" \
  --entries "$entries" >"$work/index.json"

python3 - "$work/hit.json" "$work/index.json" "$bench_dir/out/cache-hit.json" <<'PY'
import json, sys
hit = json.load(open(sys.argv[1]))
index = json.load(open(sys.argv[2]))
json.dump({"hit": hit, "index": index}, open(sys.argv[3], "w"), indent=2)
print(f"| measure | value |")
print(f"|---|---:|")
print(f"| cached data(for:) of {hit['bytes']} B, per call | {hit['cachedMicros']:.1f} µs |")
print(f"| Data(contentsOf:) of the same file, per call | {hit['directMicros']:.1f} µs |")
print(f"| ratio (target < 1.5) | {hit['ratio']:.2f}x |")
print(f"| entries in the index | {index['entries']} |")
print(f"| cold hit (fresh cache, one query) | {index['coldHitMicros']:.0f} µs |")
print(f"| warm hit with {index['entries']} entries | {index['warmHitMicros']:.1f} µs |")
print(f"| eviction of {index['evicted']} entries | {index['evictionMillis']:.0f} ms |")
sys.exit(0 if hit["ratio"] < 1.5 else 1)
PY
