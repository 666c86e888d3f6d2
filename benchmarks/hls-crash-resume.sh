#!/usr/bin/env bash
# How many bytes `offline get` of an HLS stream fetches again when it is killed with SIGKILL
# over and over: the stream counterpart of crash-resume.sh, to compare two builds (the pieces
# in flight at a kill are what a kill can cost).
#
# Usage: benchmarks/hls-crash-resume.sh [SEGMENTS=80] [KILLS=10]
# Env:   OFFLINE_BIN=path/to/offline (else built with --scratch-path .build-bench)
#        SEED=N to repeat the same kill delays (bash $RANDOM seed)
#        KILL_MS="300 1200" the range of each kill's delay in milliseconds
#        RATE=10k nginx limit_rate per connection (below a segment's size: nginx sends a second's worth at once)
#
# nginx serves the make_hls_stream stream (one-second segments of about 25 KB) at RATE per
# connection. `offline get URL -o OUT --quiet` starts; KILLS times: sleep KILL_MS, kill -9,
# start the same command again; the last run may finish (at most 120 s). Then the copy is decoded with ffmpeg
# and nginx's body bytes of the segment requests are summed: fetched again = that sum - the
# segments' size. Prints a Markdown table; exits 1 when the last run fails or the copy does
# not decode to the full duration.
set -euo pipefail
segments=${1:-80}
kills=${2:-10}
rate=${RATE:-10k}
read -r kill_min kill_max <<<"${KILL_MS:-300 1200}"
source "$(dirname "$0")/lib.sh"
[ -n "${SEED:-}" ] && RANDOM=$SEED

ensure_tools
ensure_offline_bin
stream=$(make_hls_stream "$segments")
media=$(cat "$stream"/seg*.ts | wc -c)

open_workdir offline-hls-crash

start_nginx "$work" "$stream" "limit_rate $rate; access_log $work/uris.log combined;"
url="http://127.0.0.1:$port/index.m3u8"
store="$work/store"
out="$work/movie"

start_run() {
  "$offline" --store "$store" get "$url" -o "$out" --quiet &
  run_pid=$!
}

log "limit_rate $rate per connection; $kills kills with SIGKILL after $kill_min-$kill_max ms each"
started=$(date +%s.%N)
kill_again_and_again "$kills" "$kill_min" "$kill_max"
wait_last_run
finished=$(date +%s.%N)
sleep 0.3  # nginx logs the killed connections when they close
decoded=$(ffmpeg -nostdin -v error -allowed_extensions ALL -i "$out/index.m3u8" -f null - \
  -progress pipe:1 -nostats 2>/dev/null | awk -F= '/^out_time_us=/{t=$2} END{printf "%.1f", t/1e6}' || true)

python3 - "$work/uris.log" "$media" "$segments" "$landed" "$status" "$decoded" "$started" "$finished" <<'PY'
import re, sys
log, media, segments, landed, status, decoded, started, finished = sys.argv[1:]
media, segments, landed, status = int(media), int(segments), int(landed), int(status)
sent = requests = resumed = 0
for line in open(log):
    m = re.search(r'"\S+ (\S+) [^"]*" (\d+) (\d+)', line)
    if not m:
        continue
    uri, code, size = m.groups()
    if uri.endswith(".ts"):
        sent += int(size); requests += 1; resumed += code == "206"
again = sent - media
print(f"## offline get of {segments} HLS segments under SIGKILL ({landed} kills)\n")
print("| measure | value |")
print("|---|---:|")
print(f"| segments' size | {media:,} B |")
print(f"| segment requests (206 of them) | {requests} ({resumed}) |")
print(f"| body bytes sent for segments | {sent:,} B |")
print(f"| fetched again | {again:,} B ({100 * again / media:.2f} %), {again / max(1, landed) / 1024:.0f} KiB per kill |")
print(f"| wall time, first start to finish | {float(finished) - float(started):.1f} s |")
print(f"| last run exit status, decoded s | {status}, {decoded} |")
ok = status == 0 and abs(float(decoded or 0) - segments) < 2
sys.exit(0 if ok else 1)
PY
