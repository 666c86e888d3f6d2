#!/usr/bin/env bash
# The suite's queue case (1000 files of 100 KiB) for two `offline` binaries side by side,
# interleaved in the same rounds with curl and aria2c, so their ratios share one machine load.
#
# Usage: benchmarks/queue-ab.sh A_BIN B_BIN [ROUNDS=3]
# Env:   PROFILE=perf   records `perf record -F 999 -g` of B's `run` into $PROFILE_OUT (default
#                       /var/tmp/queue-ab.perf.data) in an extra round after the timed ones
#        PROFILE=strace writes `strace -c -f` of B's `run` to $PROFILE_OUT (default
#                       /var/tmp/queue-ab.strace.txt) the same way
#        FLOOR=1        also runs benchmarks/durable-queue-floor.c (built with cc: libcurl,
#                       libcrypto, sqlite3) each round: one thread that makes every file
#                       durable, hashed and recorded and does nothing else, the floor for
#                       what `offline run` does; `floor9` is the same with the hashing,
#                       writing and recording on eight more threads (as many direct writes
#                       wait at once as `offline run` has device lanes)
#
# Each round runs, in this order: A (`add -i` + `run --parallel 8 --quiet` into a fresh
# store), curl --parallel --parallel-max 8, B, aria2c -j 8; A and B swap every other round,
# and each run starts after a `sync`. Every output is checked against the data's
# SHA256SUMS; outputs are kept until the end (deleting 1000 files right before the
# next tool's run makes its file creations pay for the freed inodes, see suite.sh). Prints one
# line per run (wall, user, sys) and the medians with the ratios to curl.
set -euo pipefail
a_bin=$1
b_bin=$2
rounds=${3:-3}
source "$(dirname "$0")/lib.sh"

open_workdir queue-ab
serve_small_files
for n in $names; do printf '%s\n  out=%s\n' "$base/$n" "$n"; done >"$work/queue.aria2"
tools="A curl B aria2c"
if [ -n "${FLOOR:-}" ]; then
  cc -O2 -pthread -o "$work/durable-queue-floor" "$bench_dir/durable-queue-floor.c" \
    -lcurl -lcrypto -lsqlite3
  tools="$tools floor floor9"
fi

results="$work/results.tsv"
: >"$results"
run_one() { # ROUND TOOL
  local round=$1 tool=$2 d="$work/r$1-$2"
  mkdir -p "$d"
  case $tool in
    A | B)
      local bin=$a_bin
      [ "$tool" = B ] && bin=$b_bin
      cmd=("${queue_run[@]}" "$bin" "$d/store" "$work/queue.txt") ;;
    curl)
      write_curl_config "$d" "$base"
      cmd=(curl -s --parallel --parallel-max 8 -K "$d/curl.cfg") ;;
    aria2c) cmd=(aria2c -q -j 8 --allow-overwrite=true -d "$d/files" -i "$work/queue.aria2") ;;
    floor)
      mkdir -p "$d/files"
      cmd=("$work/durable-queue-floor" "$work/queue.txt" "$d/files" 8 1) ;;
    floor9)
      mkdir -p "$d/files"
      cmd=("$work/durable-queue-floor" "$work/queue.txt" "$d/files" 8 9) ;;
  esac
  timed_run "$round" "$tool" "$d" "$results" "${cmd[@]}"
}

for round in $(seq "$rounds"); do
  # A and B swap places every other round: the run right after curl's was 0.1-0.2 s slower
  # whichever build it was (the same two builds swapped: 0.46 / 0.54 s, then 0.53 / 0.72 s).
  order=$tools
  [ $((round % 2)) -eq 0 ] && order=${tools/A curl B/B curl A}
  for tool in $order; do run_one "$round" "$tool"; done
done

if [ -n "${PROFILE:-}" ]; then
  d="$work/profile"
  mkdir -p "$d"
  "$b_bin" --store "$d/store" add -i "$work/queue.txt" >/dev/null
  case $PROFILE in
    perf) perf record -F 999 -g -o "${PROFILE_OUT:-/var/tmp/queue-ab.perf.data}" -- \
      "$b_bin" --store "$d/store" run --parallel 8 --quiet 2>"$d/perf.err" ;;
    strace) strace -c -f -o "${PROFILE_OUT:-/var/tmp/queue-ab.strace.txt}" \
      "$b_bin" --store "$d/store" run --parallel 8 --quiet ;;
  esac
  log "profile ($PROFILE) of B written: $(check_small_files "$d" "$small")"
fi

python3 -c 'import sys, timing; timing.print_rounds(sys.argv[1], sys.argv[2:])' \
  "$results" A B curl aria2c floor floor9
grep -q -v $'\tok$' "$results" && exit 1
exit 0
