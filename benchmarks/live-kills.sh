#!/usr/bin/env bash
# Kills a live recording with SIGKILL at random moments, again and again, each time running
# the same command again after a random downtime (issue 41: "20 kill -9 at random moments").
#
# Usage: benchmarks/live-kills.sh [KILLS=20] [SEGMENTS=150]
# Env:   OFFLINE_BIN=path/to/offline (else built with --scratch-path .build-bench)
#        SEED=N repeats the same delays (bash $RANDOM seed)
#        RUN_MS="500 2500" how long each run records before its kill
#        DOWN_MS="200 7000" how long the recorder stays down (the window is WINDOW=6 s, so
#        the longer downtimes lose segments)
#
# live-origin.py publishes SEGMENTS one-second segments (lib.sh's make_hls_stream) in real
# time, 3 at the start, a window of WINDOW, EXT-X-ENDLIST after the last; no faults. `offline
# get URL -o OUT --from-start --quiet` records; KILLS times: run RUN_MS, kill -9, decode
# OUT/index.m3u8 as it is (ffmpeg, every error line counted), stay down DOWN_MS, start the
# same command again; the last run records to the end. Then it checks, and prints:
#   - every playlist left by a kill decoded without an error;
#   - the final recording decodes without an error, to as many frames as its segments hold;
#   - the ledger (live.json) accounts for every number: recorded or in a gap;
#   - every gap is `notRunning`, lies inside one downtime (each of its segments left the
#     window while the recorder was down), and no downtime holds two gaps.
# Exits 1 when a check fails.
set -euo pipefail
kills=${1:-20}
segments=${2:-150}
window=${WINDOW:-6}
read -r run_min run_max <<<"${RUN_MS:-500 2500}"
read -r down_min down_max <<<"${DOWN_MS:-200 7000}"
source "$(dirname "$0")/lib.sh"
[ -n "${SEED:-}" ] && RANDOM=$SEED

ensure_tools
command -v ffmpeg >/dev/null || apt_install ffmpeg
ensure_offline_bin
stream=$(make_hls_stream "$segments")
open_workdir live-kills

origin_pid=""
stop_origin() {
  [ -n "$origin_pid" ] && { kill -9 "$origin_pid" && wait "$origin_pid"; } 2>/dev/null || true
  close_workdir
}
trap stop_origin EXIT

now() { date +%s.%N; }
between() { echo $(($1 + RANDOM % ($2 - $1 + 1))); }

python3 "$bench_dir/live-origin.py" "$stream" --window "$window" --log "$work/origin.log" \
  >"$work/origin.port" &
origin_pid=$!
origin_started=$(now)
for _ in $(seq 100); do [ -s "$work/origin.port" ] && break; sleep 0.05; done
url="http://127.0.0.1:$(head -1 "$work/origin.port")/live.m3u8"
out="$work/rec"

start_run() {
  "$offline" --store "$work/store" get "$url" -o "$out" --from-start --quiet \
    >>"$work/runs.log" 2>&1 &
  run_pid=$!
}

# decode PLAYLIST -> "FRAMES ERRORS" (a playlist without EXT-X-ENDLIST is read from its
# first segment, and left after three reloads that bring nothing).
decode() {
  local frames errors
  frames=$(timeout -s KILL 120 ffmpeg -nostdin -v error -allowed_extensions ALL \
    -live_start_index 0 -m3u8_hold_counters 3 -i "$1" -map 0:v:0 -f null - -progress pipe:1 \
    -nostats 2>"$work/decode.err" | awk -F= '/^frame=/{f=$2} END{print f + 0}') || true
  errors=$(grep -c . "$work/decode.err" || true)
  echo "${frames:-0} ${errors:-0}"
}

: >"$work/downtimes.tsv"
: >"$work/decodes.tsv"
log "$kills kills: each run $run_min-$run_max ms, each downtime $down_min-$down_max ms; window $window s"
start_run
for k in $(seq "$kills"); do
  sleep "$(awk -v ms="$(between "$run_min" "$run_max")" 'BEGIN{print ms / 1000}')"
  kill -9 "$run_pid" 2>/dev/null || true
  wait "$run_pid" 2>/dev/null || true
  down_from=$(now)
  if [ -f "$out/index.m3u8" ]; then decode "$out/index.m3u8" >>"$work/decodes.tsv"; fi
  sleep "$(awk -v ms="$(between "$down_min" "$down_max")" 'BEGIN{print ms / 1000}')"
  down_to=$(now)
  echo "$down_from $down_to" >>"$work/downtimes.tsv"
  start_run
done
status=0
wait "$run_pid" || status=$?
run_pid=""
read -r final_frames final_errors <<<"$(decode "$out/index.m3u8")"

python3 - "$work" "$origin_started" "$window" "$status" "$final_frames" "$final_errors" \
  "$stream/index.m3u8" <<'PY'
import json, re, sys
work, started, window, status, frames, errors, vod = sys.argv[1:]
started, window, status, frames, errors = float(started), int(window), int(status), int(frames), int(errors)
durations = [float(m.group(1)) for m in re.finditer(r"#EXTINF:([0-9.]+)", open(vod).read())]
# When segment i was published, as live-origin.py does it (3 at the start, then one more
# each time the last one's duration has passed), and when it left the window.
prefill = 3
published, at = [], 0.0
for i, d in enumerate(durations):
    if i >= prefill:
        at += durations[i - 1]
    published.append(0.0 if i < prefill else at)
left = [published[i + window] if i + window < len(published) else float("inf")
        for i in range(len(published))]
downs = [tuple(float(x) - started for x in line.split()) for line in open(f"{work}/downtimes.tsv")]
decodes = [tuple(map(int, line.split())) for line in open(f"{work}/decodes.tsv")]
state = json.load(open(f"{work}/rec/live.json"))
journal = state["journal"]
runs = journal["recorded"]["runs"]
gaps = journal["ledger"]["gaps"]
recorded = sum(b - a + 1 for a, b in runs)
first, nxt = journal["firstSequence"], journal["nextSequence"]
covered = set()
for a, b in runs:
    covered |= set(range(a, b + 1))
for g in gaps:
    a, b = g["sequences"]
    covered |= set(range(a, b + 1))
failures = []
if status != 0:
    failures.append(f"the last run exited {status}")
bad = [e for _, e in decodes if e]
if bad:
    failures.append(f"{len(bad)} of {len(decodes)} playlists left by a kill decoded with errors")
if errors:
    failures.append(f"the final recording decoded with {errors} error lines")
if frames != recorded * 25:
    failures.append(f"the final recording decoded to {frames} frames, its {recorded} segments hold {recorded * 25}")
if covered != set(range(first, nxt)):
    failures.append("the ledger leaves numbers unaccounted for")
slack = 0.5
gap_downs = []
for g in gaps:
    a, b = g["sequences"]
    if g["reason"] != "notRunning":
        failures.append(f"gap {a}-{b} is {g['reason']}, not notRunning")
    # Lost to the downtime: each left the window while the recorder was down.
    inside = [k for k, (f, t) in enumerate(downs)
              if all(f - slack <= left[i] <= t + slack for i in range(a, b + 1))]
    if not inside:
        failures.append(f"gap {a}-{b} lies in no single downtime")
    gap_downs += inside[:1]
if len(gap_downs) != len(set(gap_downs)):
    failures.append("a downtime holds two gaps")
lost_downs = sum(1 for f, t in downs if t - f > window)
print(f"kills: {len(downs)}; downtimes longer than the {window} s window: {lost_downs}")
print(f"playlists left by a kill: {len(decodes)} decoded, {len(bad)} with errors")
print(f"recorded: {recorded} segments from {first} to {nxt - 1}; gaps: "
      + (", ".join(f"{g['sequences'][0]}-{g['sequences'][1]} ({g['reason']})" for g in gaps) or "none"))
print(f"final: {frames} frames ({frames / 25:.1f} s), {errors} decode error lines; last run exit {status}")
print("every check passed" if not failures else "FAILED:\n  " + "\n  ".join(failures))
sys.exit(1 if failures else 0)
PY
