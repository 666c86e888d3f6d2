#!/usr/bin/env bash
# Play while downloading (issue 40): a player reading a file through `offline serve` while it
# downloads, beside the same player reading the origin directly.
#
# Usage: benchmarks/read-through.sh [SIZE_MIB=256] [RATE=8m] [ROUNDS=3]
# Env:   OFFLINE_BIN=path/to/offline (else built with --scratch-path .build-bench)
#        ADD_ARGS="--limit-rate 8M": extra arguments for `offline add` (here: the whole
#          download capped, every connection together, where RATE caps each one)
#
# The file: an MP4 of about SIZE_MIB (640x360 noise at 25 fps, MPEG-4 part 2, a key frame
# every second) whose `moov` is at its end, as ffmpeg writes it without `faststart`; made once
# into benchmarks/data/. nginx serves it with `limit_rate RATE` (per connection).
#
# Each round, in this order:
# - direct: `ffmpeg -i ORIGIN -frames:v 1 -f null -` (time to the first decoded frame), then
#   `ffmpeg -ss 90% -i ORIGIN -frames:v 1` (a seek), and the bytes nginx sent for both;
# - offline: a fresh store, `offline serve`, `offline add ORIGIN`, then the same two ffmpeg
#   runs on http://127.0.0.1:PORT/content/ID/movie.mp4 while the download goes on; then the
#   wait until it is downloaded (its wall time from the add), the stored file's SHA-256
#   against the origin's, and the bytes nginx sent in all, as a ratio to the file.
# Prints one line per round and the medians; writes benchmarks/out/read-through.json.
set -euo pipefail
size_mib=${1:-256}
rate=${2:-8m}
rounds=${3:-3}
source "$(dirname "$0")/lib.sh"

ensure_tools
ensure_offline_bin
command -v ffmpeg >/dev/null || apt_install ffmpeg
movie="$bench_dir/data/readthrough-${size_mib}m.mp4"
if [ ! -s "$movie" ]; then
  mkdir -p "$bench_dir/data"
  # About 9.2 MB a second of this noise at -q:v 2.
  seconds=$(( size_mib * 1048576 / 9200000 + 1 ))
  log "Making $movie ($seconds s)..."
  ffmpeg -v error -y -f lavfi -i "testsrc2=size=640x360:rate=25,noise=alls=100:allf=t" \
    -t "$seconds" -c:v mpeg4 -q:v 2 -g 25 "$movie.tmp.mp4"
  mv "$movie.tmp.mp4" "$movie"
fi
size=$(stat -c %s "$movie")
sha=$(sha256sum "$movie" | cut -d' ' -f1)
duration=$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$movie")
seek=$(python3 -c "print(round($duration * 0.9, 2))")

open_workdir read-through
mkdir -p "$work/www"
ln -s "$movie" "$work/www/movie.mp4"
start_nginx "$work" "$work/www" "limit_rate $rate;"
origin="http://127.0.0.1:$port/movie.mp4"
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
  store="$work/store-$round"
  start_serve "$store" "$work/serve-$round.log"
  added=$(date +%s.%N)
  # shellcheck disable=SC2086
  id=$("$offline" --store "$store" add ${ADD_ARGS:-} "$origin" | tail -1)
  url="http://127.0.0.1:$serve_port/content/$id/movie.mp4"
  o_first=$(first_frame "$url")
  o_seek=$(first_frame "$url" "$seek")
  state=$(wait_downloaded "$id" 6000)
  done_at=$(date +%s.%N)
  [ "$state" = downloaded ] || { log "round $round: not downloaded ($state)"; exit 1; }
  kill "$serve_pid"; wait "$serve_pid" 2>/dev/null || true; serve_pid=""
  o_bytes=$(sent_bytes)
  stored=$(find "$store/files" -name movie.mp4 | head -1)
  got=$(sha256sum "$stored" | cut -d' ' -f1)
  verdict=ok; [ "$got" = "$sha" ] || verdict=WRONG
  o_wall=$(python3 -c "print(round($done_at - $added, 2))")
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$d_first" "$d_seek" "$d_bytes" \
    "$o_first" "$o_seek" "$o_bytes" "$o_wall" "$verdict" >>"$results"
  log "round $round: direct first $d_first s seek $d_seek s ($d_bytes bytes);" \
    "offline first $o_first s seek $o_seek s, downloaded in $o_wall s, origin sent" \
    "$o_bytes bytes for $size ($verdict)"
  rm -rf "$store"
done

mkdir -p "$bench_dir/out"
python3 - "$results" "$size" "$rate" "$bench_dir/out/read-through.json" "${ADD_ARGS:-}" <<'PY'
import json, statistics, sys
rows = [line.split("\t") for line in open(sys.argv[1]) if line.strip()]
size, rate, out = int(sys.argv[2]), sys.argv[3], sys.argv[4]
med = lambda i: statistics.median(float(r[i]) for r in rows)
report = {
    "file_bytes": size, "rate_per_connection": rate, "add_args": sys.argv[5],
    "rounds": len(rows),
    "direct": {"first_frame_s": med(1), "seek_90_s": med(2), "origin_bytes": med(3)},
    "offline": {"first_frame_s": med(4), "seek_90_s": med(5), "origin_bytes": med(6),
                "origin_ratio": round(med(6) / size, 4), "downloaded_s": med(7)},
    "all_ok": all(r[8].strip() == "ok" for r in rows),
}
json.dump(report, open(out, "w"), indent=2)
print(f"| | first frame | seek to 90 % | origin bytes |")
print(f"|---|---|---|---|")
print(f"| ffmpeg on the origin | {report['direct']['first_frame_s']:.2f} s | {report['direct']['seek_90_s']:.2f} s | {int(report['direct']['origin_bytes'])} |")
print(f"| ffmpeg via offline serve | {report['offline']['first_frame_s']:.2f} s | {report['offline']['seek_90_s']:.2f} s | {int(report['offline']['origin_bytes'])} ({report['offline']['origin_ratio']}x the file, whole download in {report['offline']['downloaded_s']:.1f} s) |")
sys.exit(0 if report["all_ok"] else 1)
PY
