#!/usr/bin/env bash
# What each part of durability costs for the queue's 1000 files of 100 KiB, set beside curl
# and `offline run` in the same rounds: benchmarks/durable-queue-floor.c spread over nine
# threads (`floor9` in queue-ab.sh), whole and with parts left out.
#
# Usage: benchmarks/queue-floor-parts.sh [ROUNDS=5]
# Env:   OFFLINE_BIN  the `offline` to time (else a release build, see lib.sh)
#
# Runs, in an order that moves on by one each round (so no run always follows the same one):
#   curl            curl --parallel --parallel-max 8 (page cache, no sync, no hash, no record)
#   curl+sync       the same, then `sync -f` on its folder (curl's files made durable)
#   offline         `add -i` + `run --parallel 8 --quiet` into a fresh store
#   floor9          hash, direct writes, rename, syncfs and SQLite per 64 files
#   -hash -direct -rename -sync -record
#                   floor9 without that one part
#   -durability     floor9 with hash and record kept, without direct, rename and sync
#   bare            floor9 with all five left out: curl's work, on the floor's threads
# Every output is checked against the data's SHA256SUMS. Each run starts after a `sync`.
# Prints one line per run and the medians (wall and CPU) with their ratios to curl.
set -euo pipefail
rounds=${1:-5}
source "$(dirname "$0")/lib.sh"
ensure_tools
ensure_offline_bin

open_workdir queue-floor-parts
serve_small_files
cc -O2 -pthread -o "$work/floor" "$bench_dir/durable-queue-floor.c" -lcurl -lcrypto -lsqlite3

tools=(curl curl+sync offline floor9 -hash -direct -rename -sync -record -durability bare)
leave_out() { # TOOL -> the floor's LEAVE_OUT argument
  case $1 in
    floor9) echo "" ;;
    -durability) echo direct,rename,sync ;;
    bare) echo hash,direct,rename,sync,record ;;
    *) echo "${1#-}" ;;
  esac
}

results="$work/results.tsv"
: >"$results"
run_one() { # ROUND TOOL
  local round=$1 tool=$2 d="$work/r$1-$2"
  mkdir -p "$d/files"
  case $tool in
    curl | curl+sync)
      write_curl_config "$d" "$base"
      cmd=(curl -s --parallel --parallel-max 8 -K "$d/curl.cfg")
      [ "$tool" = curl+sync ] && cmd=(sh -c 'curl -s --parallel --parallel-max 8 -K "$1" && exec sync -f "$2"' \
        _ "$d/curl.cfg" "$d/files") ;;
    offline)
      cmd=("${queue_run[@]}" "$offline" "$d/store" "$work/queue.txt") ;;
    *) cmd=("$work/floor" "$work/queue.txt" "$d/files" 8 9 "$(leave_out "$tool")") ;;
  esac
  timed_run "$round" "$tool" "$d" "$results" "${cmd[@]}"
}

count=${#tools[@]}
for round in $(seq "$rounds"); do
  for i in $(seq 0 $((count - 1))); do run_one "$round" "${tools[$(((i + round) % count))]}"; done
done

python3 -c 'import sys, timing; timing.print_rounds(sys.argv[1], sys.argv[2:])' \
  "$results" "${tools[@]}"
grep -q -v $'\tok$' "$results" && exit 1
exit 0
