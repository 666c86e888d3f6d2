#!/usr/bin/env bash
# Play while downloading, HLS (issue 40): a player reading a stream of many segments through
# `offline serve` while it downloads (`index-through.m3u8`), beside the same player reading
# the origin directly.
#
# Usage: benchmarks/read-through-hls.sh [SEGMENTS=1000] [RATE=2m] [ROUNDS=3]
# Env:   OFFLINE_BIN=path/to/offline (else built with --scratch-path .build-bench)
#        ADD_ARGS="--limit-rate 8M": extra arguments for `offline add` (here: the whole
#          download capped, every connection together, where RATE caps each one; without
#          it a 1000-segment stream of small segments downloads in a second or two)
#
# The stream: SEGMENTS segments of 1 s (640x360 test pattern at 25 fps, H.264 and AAC, about
# 240 kB a segment), MPEG-TS, made once into benchmarks/data/. nginx serves it with
# `limit_rate RATE` (per connection).
#
# Each round, in this order:
# - direct: `ffmpeg -i ORIGIN/index.m3u8 -frames:v 1 -f null -` (time to the first decoded
#   frame), then the same with `-ss` at 90 % (a seek), and the bytes nginx sent for both;
# - offline: a fresh store, `offline serve`, `offline add ORIGIN`, then the same two ffmpeg
#   runs on http://127.0.0.1:PORT/content/ID/index-through.m3u8 while the download goes
#   on; then the wait until it is downloaded (its wall time from the add), `offline verify`,
#   the bytes nginx sent in all as a ratio to the stream's, and the requests nginx saw from
#   ffmpeg itself (its `Lavf` user agent: 0 when the player never reached the origin).
# Prints one line per round and the medians; writes benchmarks/out/read-through-hls.json.
set -euo pipefail
segments=${1:-1000}
rate=${2:-2m}
rounds=${3:-3}
source "$(dirname "$0")/lib.sh"

ensure_tools
ensure_offline_bin
command -v ffmpeg >/dev/null || apt_install ffmpeg
stream="$bench_dir/data/readthrough-hls-$segments"
if [ ! -s "$stream/index.m3u8" ]; then
  rm -rf "$stream.tmp" && mkdir -p "$stream.tmp"
  log "Making $stream ($segments segments of 1 s)..."
  ffmpeg -v error -y -f lavfi -i "testsrc2=size=640x360:rate=25" \
    -f lavfi -i "sine=frequency=440" -t "$segments" -c:v libx264 -preset ultrafast -g 25 -c:a aac \
    -f hls -hls_time 1 -hls_playlist_type vod -hls_segment_filename "$stream.tmp/s%05d.ts" \
    "$stream.tmp/index.m3u8"
  rm -rf "$stream" && mv "$stream.tmp" "$stream"
fi
size=$(du -sb --apparent-size "$stream" | cut -f1)
duration=$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$stream/index.m3u8")
seek=$(python3 -c "print(round($duration * 0.9, 2))")

open_workdir read-through-hls
ln -s "$stream" "$work/www"
# Both logs at the server level (one there replaces the http level's): the bytes, and who
# asked (the combined format has the user agent).
start_nginx "$work" "$work/www" \
  "limit_rate $rate; access_log $work/access.log bytes; access_log $work/agents.log combined;"
origin="http://127.0.0.1:$port/index.m3u8"
serve_pid=""
trap 'kill "$serve_pid" 2>/dev/null || true; close_workdir' EXIT

results="$work/results.tsv"
: >"$results"
for round in $(seq "$rounds"); do
  : >"$work/access.log"
  d_first=$(first_frame "$origin")
  d_seek=$(first_frame "$origin" "$seek")
  d_bytes=$(sent_bytes)

  : >"$work/access.log"
  : >"$work/agents.log"
  store="$work/store-$round"
  start_serve "$store" "$work/serve-$round.log"
  added=$(date +%s.%N)
  # shellcheck disable=SC2086
  id=$("$offline" --store "$store" add ${ADD_ARGS:-} "$origin" | tail -1)
  url="http://127.0.0.1:$serve_port/content/$id/index-through.m3u8"
  o_first=$(first_frame "$url")
  o_seek=$(first_frame "$url" "$seek")
  state=$(wait_downloaded "$id" 12000)
  done_at=$(date +%s.%N)
  [ "$state" = downloaded ] || { log "round $round: not downloaded ($state)"; exit 1; }
  kill "$serve_pid"; wait "$serve_pid" 2>/dev/null || true; serve_pid=""
  o_bytes=$(sent_bytes)
  players=$(grep -c '"Lavf' "$work/agents.log" || true)
  verdict=ok
  "$offline" --store "$store" verify "$id" >/dev/null 2>&1 || verdict=WRONG
  o_wall=$(python3 -c "print(round($done_at - $added, 2))")
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$d_first" "$d_seek" "$d_bytes" \
    "$o_first" "$o_seek" "$o_bytes" "$o_wall" "$players" "$verdict" >>"$results"
  log "round $round: direct first $d_first s seek $d_seek s ($d_bytes bytes);" \
    "offline first $o_first s seek $o_seek s, downloaded in $o_wall s, origin sent" \
    "$o_bytes bytes for $size, $players player requests at the origin ($verdict)"
  rm -rf "$store"
done

mkdir -p "$bench_dir/out"
python3 - "$results" "$size" "$rate" "$segments" "$bench_dir/out/read-through-hls.json" <<'PY'
import json, statistics, sys
rows = [line.split("\t") for line in open(sys.argv[1]) if line.strip()]
size, rate, segments, out = int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), sys.argv[5]
med = lambda i: statistics.median(float(r[i]) for r in rows)
report = {
    "stream_bytes": size, "segments": segments, "rate_per_connection": rate,
    "rounds": len(rows),
    "direct": {"first_frame_s": med(1), "seek_90_s": med(2), "origin_bytes": med(3)},
    "offline": {"first_frame_s": med(4), "seek_90_s": med(5), "origin_bytes": med(6),
                "origin_ratio": round(med(6) / size, 4), "downloaded_s": med(7),
                "player_requests_at_origin": max(int(r[8]) for r in rows)},
    "all_ok": all(r[9].strip() == "ok" for r in rows),
}
json.dump(report, open(out, "w"), indent=2)
o = report["offline"]
print("| | first frame | seek to 90 % | origin bytes |")
print("|---|---|---|---|")
print(f"| ffmpeg on the origin | {report['direct']['first_frame_s']:.2f} s | {report['direct']['seek_90_s']:.2f} s | {int(report['direct']['origin_bytes'])} |")
print(f"| ffmpeg via offline serve | {o['first_frame_s']:.2f} s | {o['seek_90_s']:.2f} s | {int(o['origin_bytes'])} ({o['origin_ratio']}x the stream, whole download in {o['downloaded_s']:.1f} s, {o['player_requests_at_origin']} player requests at the origin) |")
sys.exit(0 if report["all_ok"] and o["player_requests_at_origin"] == 0 else 1)
PY
