#!/usr/bin/env bash
# Records the same live HLS schedule, with the same faults, with `offline get --from-start`,
# ffmpeg (`-live_start_index 0`, its reload defaults) and streamlink (`--hls-live-restart`),
# and reports for each what reached its output and what a kill -9 leaves (issue 41).
#
# Usage: benchmarks/live-record.sh [SEGMENTS=30] [ROUNDS=1]
# Env:   OFFLINE_BIN=path/to/offline (else built with --scratch-path .build-bench)
#        FAULTS="seg503=5:2,seg404=12,pl503=16:3,stall=21:4" (live-origin.py's SPEC)
#        WINDOW=6 segments in the live playlist; KILL_AT=14 seconds into the kill runs;
#        DOWN=8 seconds between the kill and the same command again
#
# Each tool records from its own live-origin.py (the same segments, schedule and faults),
# started at the same moment as the others': one-second segments of lib.sh's
# make_hls_stream, 3 in the window at the start and one more a second, a window of WINDOW,
# EXT-X-ENDLIST after the last. The default faults: segment 5 answers 503 twice (a retry
# gets it), segment 12 always 404 (nobody can have it), the playlist answers 503 for 3 s,
# then stands still for 4 s (no new segment for four target durations; nothing leaves the
# window meanwhile). So every segment but 12 can be recorded.
#
# Two runs per tool and round, each against a fresh origin:
#   whole  the recording runs to the end;
#   kill   kill -9 at KILL_AT s, the output decoded as it is, then, DOWN s after the kill
#          (longer than the window: some segments go by unrecorded), the same command again
#          to the end (ffmpeg -y and streamlink --force write the file anew; offline goes on
#          into the same content, the time it was down a gap).
# Every output is decoded with `ffmpeg -f null` (its video frames, 25 a segment, and any
# error line). Writes benchmarks/out/live-record.json and prints a Markdown table.
set -euo pipefail
segments=${1:-30}
rounds=${2:-1}
faults=${FAULTS:-seg503=5:2,seg404=12,pl503=16:3,stall=21:4}
window=${WINDOW:-6}
kill_at=${KILL_AT:-14}
down=${DOWN:-8}
source "$(dirname "$0")/lib.sh"

ensure_tools
command -v ffmpeg >/dev/null || apt_install ffmpeg
python3 -c 'import streamlink' 2>/dev/null || pip install -q streamlink >&2
ensure_offline_bin
stream=$(make_hls_stream "$segments")
open_workdir live-record

origin_pids=()
tool_pids=()
stop_all() {
  local pid
  for pid in "${tool_pids[@]}" "${origin_pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  close_workdir
}
trap stop_all EXIT

# start_origin DIR -> starts an origin logging into DIR/origin.log; sets $url.
start_origin() {
  local dir=$1 port=""
  mkdir -p "$dir"
  python3 "$bench_dir/live-origin.py" "$stream" --window "$window" --faults "$faults" \
    --log "$dir.origin.log" >"$dir.origin.port" &
  origin_pids+=($!)
  for _ in $(seq 100); do
    port=$(head -1 "$dir.origin.port" 2>/dev/null || true)
    [ -n "$port" ] && break
    sleep 0.05
  done
  [ -n "$port" ] || { log "the live origin did not start"; exit 2; }
  url="http://127.0.0.1:$port/live.m3u8"
}

# record TOOL URL DIR NAME -> runs TOOL's recording of URL into DIR (at most SEGMENTS + 40
# s), its output in DIR/NAME.log and its exit status in DIR/NAME.exit.
record() {
  local tool=$1 from=$2 dir=$3 name=$4 limit=$((segments + 40)) status=0
  case $tool in
    offline) timeout -s KILL "$limit" "$offline" --store "$dir/store" get "$from" -o "$dir/rec" \
      --from-start --quiet ;;
    ffmpeg) timeout -s KILL "$limit" ffmpeg -nostdin -v error -y -live_start_index 0 -i "$from" \
      -c copy -f mpegts "$dir/out.ts" ;;
    streamlink) timeout -s KILL "$limit" python3 -m streamlink --loglevel error \
      --hls-live-restart --force -o "$dir/out.ts" "hls://$from" best ;;
  esac >"$dir/$name.log" 2>&1 || status=$?
  echo "$status" >"$dir/$name.exit"
}

# output TOOL DIR -> the file a player opens.
output() {
  if [ "$1" = offline ]; then echo "$2/rec/index.m3u8"; else echo "$2/out.ts"; fi
}

# decode TARGET -> "FRAMES ERRORS": video frames decoded and error lines (0 0 when missing).
decode() {
  local target=$1 extra=() frames errors
  [ -e "$target" ] || { echo "0 0"; return; }
  # A recording killed mid-way has no EXT-X-ENDLIST yet: read from its first segment, and
  # stop after three reloads that bring nothing (ffmpeg would wait for more like a player).
  [[ $target == *.m3u8 ]] && extra=(-allowed_extensions ALL -live_start_index 0 -m3u8_hold_counters 3)
  frames=$(timeout -s KILL 120 ffmpeg -nostdin -v error "${extra[@]}" -i "$target" -map 0:v:0 -f null - \
    -progress pipe:1 -nostats 2>"$target.errors" | awk -F= '/^frame=/{f=$2} END{print f + 0}') || true
  errors=$(grep -c . "$target.errors" || true)
  echo "${frames:-0} ${errors:-0}"
}

tools="offline ffmpeg streamlink"
results="$work/results.tsv"
: >"$results"
for round in $(seq "$rounds"); do
  log "round $round: whole and kill runs of $tools, $segments segments, faults $faults"
  tool_pids=()
  for tool in $tools; do
    for run in whole kill; do
      dir="$work/r$round-$tool-$run"
      start_origin "$dir"
      record "$tool" "$url" "$dir" run &
      tool_pids+=($!)
      echo "$url" >"$dir/url"
    done
  done
  sleep "$kill_at"
  # All three at the same moment: the tool and its `timeout` are the only processes whose
  # arguments name the run's folder.
  for tool in $tools; do pkill -9 -f -- "$work/r$round-$tool-kill/" || true; done
  for tool in $tools; do
    dir="$work/r$round-$tool-kill"
    for _ in $(seq 50); do [ -e "$dir/run.exit" ] && break; sleep 0.1; done
    decode "$(output "$tool" "$dir")" >"$dir/after-kill"
  done
  # The same command again, as a user would after a crash.
  sleep "$down"
  for tool in $tools; do
    dir="$work/r$round-$tool-kill"
    record "$tool" "$(cat "$dir/url")" "$dir" rerun &
    tool_pids+=($!)
  done
  for pid in "${tool_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  for tool in $tools; do
    for run in whole kill; do
      dir="$work/r$round-$tool-$run"
      read -r frames errors <<<"$(decode "$(output "$tool" "$dir")")"
      after="- -" exits=$(cat "$dir/run.exit")
      [ "$run" = kill ] && after=$(cat "$dir/after-kill") && exits="$exits,$(cat "$dir/rerun.exit")"
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$tool" "$run" "$frames" "$errors" \
        "$after" "$exits" "$dir.origin.log" >>"$results"
      for name in run rerun; do
        [ -s "$dir/$name.log" ] && sed "s|^|  $tool $run $name: |" "$dir/$name.log" | tail -3 >&2
      done
    done
  done
  for pid in "${origin_pids[@]}"; do { kill -9 "$pid" && wait "$pid"; } 2>/dev/null || true; done
  origin_pids=()
done

mkdir -p "$bench_dir/out"
python3 - "$results" "$segments" "$faults" "$bench_dir/out/live-record.json" <<'PY'
import json, sys
path, segments, faults, out = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
unavailable = {int(f.split("=")[1]) for f in faults.split(",") if f.startswith("seg404=")}
expected = segments - len(unavailable)
rows = []
for line in open(path):
    round_, tool, run, frames, errors, after, exits, log = line.rstrip("\n").split("\t")
    served = set()
    for entry in open(log):
        _, uri, status, _ = entry.split("\t")
        if uri.startswith("/seg") and status == "200":
            served.add(int(uri[4:-3]))
    after_frames, after_errors = (after.split(" ") + ["-"])[:2]
    rows.append({
        "round": int(round_), "tool": tool, "run": run, "exit_status": exits,
        "segments_in_output": round(int(frames) / 25, 1), "decode_errors": int(errors),
        "segments_served": len(served), "expected": expected,
        "after_kill_segments": None if after_frames == "-" else round(int(after_frames) / 25, 1),
        "after_kill_errors": None if after_errors == "-" else int(after_errors),
    })
json.dump({"segments": segments, "faults": faults, "rows": rows}, open(out, "w"), indent=2)
print(f"\n{segments} one-second segments, {expected} recordable; faults: {faults}\n")
print("| round | tool | run | exit | segments in output | missed | decode errors | segments served "
      "| after kill -9: segments that play | decode errors |")
print("|---:|---|---|---|---:|---:|---:|---:|---:|---:|")
for r in rows:
    missed = max(0, expected - round(r["segments_in_output"]))
    after = "" if r["after_kill_segments"] is None else r["after_kill_segments"]
    after_errors = "" if r["after_kill_errors"] is None else r["after_kill_errors"]
    print(f"| {r['round']} | {r['tool']} | {r['run']} | {r['exit_status']} "
          f"| {r['segments_in_output']} | {missed} "
          f"| {r['decode_errors']} | {r['segments_served']} | {after} | {after_errors} |")
PY
