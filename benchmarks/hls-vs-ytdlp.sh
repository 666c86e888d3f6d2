#!/usr/bin/env bash
# An HLS VOD of many segments from nginx on loopback: `offline get` against
# `yt-dlp --concurrent-fragments 8`, `yt-dlp` (default) and `ffmpeg -c copy`, interleaved.
#
# Usage: benchmarks/hls-vs-ytdlp.sh [SEGMENTS=1000] [ROUNDS=3]
# Env:   OFFLINE_BIN=path/to/offline (else built with --scratch-path .build-bench)
#
# Medians of wall time, CPU (user+sys) and peak RSS from /usr/bin/time -v. Every output is
# checked by decoding it with ffmpeg (outside the timed part). Writes benchmarks/out/hls.json.
set -euo pipefail
segments=${1:-1000}
rounds=${2:-3}
source "$(dirname "$0")/lib.sh"

ensure_tools
command -v ffmpeg >/dev/null || { apt-get install -y -qq ffmpeg >/dev/null; }
command -v yt-dlp >/dev/null || python3 -m pip install -q yt-dlp >&2
ensure_offline_bin

# The stream: SEGMENTS one-second segments of a small picture, made once and cached.
stream="$bench_dir/data/hls-$segments"
if [ ! -f "$stream/index.m3u8" ]; then
  log "Encoding a $segments-segment stream..."
  rm -rf "$stream" && mkdir -p "$stream"
  ffmpeg -nostdin -v error -f lavfi -i "testsrc2=size=320x180:rate=25:duration=$segments" \
    -c:v libx264 -preset ultrafast -b:v 200k -force_key_frames 'expr:gte(t,n_forced*1)' \
    -sc_threshold 0 -f hls -hls_time 1 -hls_playlist_type vod \
    -hls_segment_filename "$stream/seg%d.ts" "$stream/index.m3u8"
fi

work=$(mktemp -d /var/tmp/offline-hls-bench.XXXXXX)
nginx_pid=""
cleanup() { stop_nginx; rm -rf "$work"; }
trap cleanup EXIT
mkdir -p "$work/runs" "$bench_dir/out"
start_nginx "$work" "$stream" ""
url="http://127.0.0.1:$port/index.m3u8"
results="$work/results.tsv"
: >"$results"

# run_one TOOL ROUND: times one download, then checks it decodes to the full duration.
run_one() {
  local tool=$1 round=$2 out="$work/runs/$1-$2" timing="$work/runs/$1-$2.time"
  mkdir -p "$out"
  local target
  case $tool in
    offline) /usr/bin/time -v -o "$timing" "$offline" --store "$out/store" get "$url" -o "$out/movie" --quiet
      target="$out/movie/index.m3u8" ;;
    ytdlp8) /usr/bin/time -v -o "$timing" yt-dlp -q --no-progress --concurrent-fragments 8 -o "$out/movie.mp4" "$url"
      target="$out/movie.mp4" ;;
    ytdlp) /usr/bin/time -v -o "$timing" yt-dlp -q --no-progress -o "$out/movie.mp4" "$url"
      target="$out/movie.mp4" ;;
    ffmpeg) /usr/bin/time -v -o "$timing" ffmpeg -nostdin -v error -i "$url" -c copy "$out/movie.ts"
      target="$out/movie.ts" ;;
  esac
  local seconds extra=()
  [[ $target == *.m3u8 ]] && extra=(-allowed_extensions ALL)
  seconds=$(ffmpeg -nostdin -v error "${extra[@]}" -i "$target" -f null - -progress pipe:1 -nostats 2>/dev/null \
    | awk -F= '/^out_time_us=/{t=$2} END{printf "%.1f", t/1e6}' || true)
  echo -e "$tool\t$round\t$timing\t$seconds" >>"$results"
  # Kept until the end: deleting 1000 files makes the next run's file creations slow on an
  # ext4 without a journal (see suite.sh), which only the tools writing a file per segment pay.
  sync
}

tools=(offline ytdlp8 ytdlp ffmpeg)
for round in $(seq "$rounds"); do
  for tool in "${tools[@]}"; do
    log "round $round: $tool"
    run_one "$tool" "$round"
  done
done

python3 - "$results" "$segments" "$bench_dir/out/hls.json" <<'PY'
import json, re, statistics, sys
rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1])]
segments, out = int(sys.argv[2]), sys.argv[3]
def parse(path):
    text = open(path).read()
    wall = re.search(r"Elapsed \(wall clock\) time.*: (\S+)", text).group(1).split(":")
    seconds = sum(float(p) * 60 ** i for i, p in enumerate(reversed(wall)))
    cpu = float(re.search(r"User time.*: (\S+)", text).group(1)) + float(re.search(r"System time.*: (\S+)", text).group(1))
    rss = int(re.search(r"Maximum resident set size.*: (\d+)", text).group(1)) / 1024
    return seconds, cpu, rss
names = {"offline": "offline get", "ytdlp8": "yt-dlp --concurrent-fragments 8", "ytdlp": "yt-dlp (default)", "ffmpeg": "ffmpeg -i URL -c copy"}
table = {}
for tool, _, timing, decoded in rows:
    wall, cpu, rss = parse(timing)
    entry = table.setdefault(tool, {"wall": [], "cpu": [], "rss": [], "decoded": []})
    entry["wall"].append(wall); entry["cpu"].append(cpu); entry["rss"].append(rss); entry["decoded"].append(float(decoded or 0))
base = statistics.median(table["ytdlp8"]["wall"])
print(f"\n## HLS VOD, {segments} segments of 1 s, nginx on loopback (median of {len(table['offline']['wall'])})\n")
print("| tool | wall s | CPU s | peak RSS MiB | wall / yt-dlp -N 8 | decoded s |")
print("|---|---:|---:|---:|---:|---:|")
summary = {}
for tool in ["offline", "ytdlp8", "ytdlp", "ffmpeg"]:
    e = table[tool]
    w, c, r = statistics.median(e["wall"]), statistics.median(e["cpu"]), max(e["rss"])
    summary[tool] = {"wall": w, "cpu": c, "rss_mib": r, "decoded": min(e["decoded"]), "runs": e["wall"]}
    print(f"| {names[tool]} | {w:.2f} | {c:.2f} | {r:.1f} | {w / base:.2f}x | {min(e['decoded']):.1f} |")
o = summary["offline"]
print(f"\nTargets: wall <= 0.5x yt-dlp -N 8: {'met' if o['wall'] <= 0.5 * base else 'MISSED'}; "
      f"below ffmpeg -c copy: {'met' if o['wall'] < summary['ffmpeg']['wall'] else 'MISSED'}; "
      f"peak RSS < 64 MiB: {'met' if o['rss_mib'] < 64 else 'MISSED'}; "
      f"offline output decodes fully: {'yes' if abs(o['decoded'] - segments) < 2 else 'NO'}")
json.dump({"segments": segments, "results": summary}, open(out, "w"), indent=2)
PY
