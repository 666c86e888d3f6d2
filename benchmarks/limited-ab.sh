#!/usr/bin/env bash
# The suite's capped-origin case (1 GiB from nginx at `limit_rate 40m`, 40 MiB/s per
# connection) for two `offline` binaries side by side, `offline get` with no connection
# option (the adaptive default), interleaved in the same rounds with aria2c -x8, so their
# ratios share one machine load.
#
# Usage: benchmarks/limited-ab.sh A_BIN B_BIN [ROUNDS=5]
#
# Each round runs A, B and aria2c -x8 -s8 -k1M into a fresh folder (synced first); every
# output is checked against the source's SHA-256. Prints one line per run (wall) and the
# medians with the ratios to aria2c.
set -euo pipefail
a_bin=$1
b_bin=$2
rounds=${3:-5}
source "$(dirname "$0")/lib.sh"
ensure_suite_tools

f1g=$(make_data_file 1024)
sha=$(sha256_cached "$f1g")
open_workdir limited-ab
mkdir -p "$work/www/limited"
ln "$f1g" "$work/www/limited/1g.bin" 2>/dev/null || ln -s "$f1g" "$work/www/limited/1g.bin"
start_nginx "$work" "$work/www" "location /limited/ { limit_rate 40m; }"
cat "$f1g" >/dev/null
url="http://127.0.0.1:$port/limited/1g.bin"
results="$work/results.txt"
for r in $(seq "$rounds"); do
  for who in A B aria2c; do
    d="$work/out"
    rm -rf "$d" && mkdir -p "$d" && sync
    start=$(date +%s.%N)
    case $who in
      A) "$a_bin" --store "$d/store" get "$url" -o "$d/out.bin" --quiet ;;
      B) "$b_bin" --store "$d/store" get "$url" -o "$d/out.bin" --quiet ;;
      aria2c) aria2c -q -x8 -s8 -k1M --allow-overwrite=true -d "$d" -o out.bin "$url" ;;
    esac
    end=$(date +%s.%N)
    [ "$(sha256_of "$d/out.bin")" = "$sha" ] || { log "round $r: $who wrote wrong bytes"; exit 1; }
    wall=$(python3 -c "print(f'{$end - $start:.2f}')")
    echo "round $r $who $wall s"
    echo "$who $wall" >>"$results"
  done
done
python3 - "$results" <<'PY'
import statistics, sys
walls = {}
for line in open(sys.argv[1]):
    who, wall = line.split()
    walls.setdefault(who, []).append(float(wall))
aria = statistics.median(walls["aria2c"])
for who in ("A", "B", "aria2c"):
    m = statistics.median(walls[who])
    print(f"{who:7} median {m:.2f} s  {m / aria:.2f}x aria2c -x8")
PY
