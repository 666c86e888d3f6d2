#!/usr/bin/env bash
# One file out of an offline stream (issue 42): `offline export` beside `ffmpeg -c copy
# -movflags +faststart` on the same offline copy, in the same rounds.
#
# Usage: benchmarks/export.sh [MINUTES=2] [ROUNDS=3]
# Env:   OFFLINE_BIN=path/to/offline, with offline-export beside it (else both built with
#        --scratch-path .build-bench)
#
# The stream: MINUTES of 640x360 noise at 25 fps (H.264, x264 ultrafast at -qp 8, about 11 MB
# a second, a key frame every 4 s) with a 440 Hz AAC tone, cut by ffmpeg's HLS muxer into
# MPEG-TS segments of 4 s: index.m3u8 and its segments, as `offline get URL -o DIR` lays them
# out; about 1.3 GB at the default, made once into benchmarks/data/. (MPEG-4 part 2 in these
# TS segments has no VOL header before its first frame: neither ffmpeg nor we can tell its
# dimensions for an MP4, so it is not used.) A second folder lists the first segments that
# hold 256 MiB (the same files, hard links): the small input of the memory check.
#
# Each round, the order swapped every other round, after a `sync`:
# - offline: `offline export DIR -o OUT.mp4 --force --quiet` (the check after writing included);
# - ffmpeg:  `ffmpeg -allowed_extensions ALL -i DIR/index.m3u8 -c copy -movflags +faststart
#            OUT.mp4 -y`;
# - ffmpeg-fsync: the same ffmpeg, then `sync -d OUT.mp4`: as durable as our file (we flush
#   it before the rename), for where the difference goes; not the anchor;
# - ffmpeg-floor: the same ffmpeg, then `sync -d OUT.mp4` and one read of OUT.mp4: the least
#   a program doing our work does (copy, make durable, read back to check); not the anchor;
# - offline-256m: `offline export` of the 256 MiB folder (for its peak RSS).
# Each under /usr/bin/time (wall, CPU, and peak RSS: of the largest process, for ours
# offline-export, which offline starts and waits for); every output checked outside the timed part
# (ffprobe: a video and an audio stream, the duration within one segment of the playlist's;
# for ours, `moov` before `mdat`) and deleted. Prints each run, the medians, the ratio to
# ffmpeg and the targets (wall ≤ 1.2x ffmpeg's, peak RSS < 64 MiB, and within 10 % from 256 MiB
# to 1 GiB of input); writes benchmarks/out/export.json.
set -euo pipefail
minutes=${1:-2}
rounds=${2:-3}
source "$(dirname "$0")/lib.sh"

ensure_tools
ensure_offline_bin
# `offline export` runs offline-export from offline's own folder.
if [ ! -x "$(dirname "$offline")/offline-export" ]; then
  [ -z "${OFFLINE_BIN:-}" ] || { log "no offline-export beside $offline"; exit 2; }
  (cd "$repo_dir" && swift build -c release --product offline-export \
    --scratch-path "${OFFLINE_SCRATCH:-.build-bench}" >&2)
fi
command -v ffmpeg >/dev/null || apt_install ffmpeg

stream="$bench_dir/data/export-${minutes}m"
if [ ! -f "$stream/index.m3u8" ]; then
  seconds=$(python3 -c "print(int($minutes * 60))")
  log "Encoding $stream ($seconds s of noise, 4 s segments)..."
  rm -rf "$stream" "$stream.tmp" && mkdir -p "$stream.tmp"
  ffmpeg -nostdin -v error -f lavfi -i "testsrc2=size=640x360:rate=25,noise=alls=100:allf=t" \
    -f lavfi -i "sine=frequency=440:sample_rate=48000" -t "$seconds" \
    -c:v libx264 -preset ultrafast -qp 8 -g 100 -c:a aac -b:a 128k \
    -f hls -hls_time 4 -hls_playlist_type vod \
    -hls_segment_filename "$stream.tmp/seg%d.ts" "$stream.tmp/index.m3u8"
  mv "$stream.tmp" "$stream"
fi
part="$stream-256m"
if [ ! -f "$part/index.m3u8" ]; then
  rm -rf "$part" && mkdir -p "$part"
  # The playlist's first segments that hold 256 MiB together (the last one may pass it).
  python3 - "$stream" "$part" <<'PY'
import os, sys
source, target = sys.argv[1], sys.argv[2]
out, size = [], 0
for line in open(os.path.join(source, "index.m3u8")).read().splitlines():
    if line == "#EXT-X-ENDLIST":
        break
    if line.startswith("seg"):
        if size >= 256 << 20:
            out.pop()  # its #EXTINF
            break
        size += os.path.getsize(os.path.join(source, line))
        os.link(os.path.join(source, line), os.path.join(target, line))
    out.append(line)
out.append("#EXT-X-ENDLIST")
open(os.path.join(target, "index.m3u8"), "w").write("\n".join(out) + "\n")
PY
fi
bytes=$(du -sb "$stream" | cut -f1)
part_bytes=$(du -sb "$part" | cut -f1)
playlist_seconds() { awk -F'[:,]' '/^#EXTINF/{s+=$2} END{printf "%.3f", s}' "$1/index.m3u8"; }
duration=$(playlist_seconds "$stream")
part_duration=$(playlist_seconds "$part")
log "input: $bytes bytes, $duration s; first 256 MiB: $part_bytes bytes, $part_duration s"
[ "$bytes" -ge $((1 << 30)) ] || log "warning: the input is under 1 GiB; pass a larger MINUTES"

open_workdir export
results="$work/results.tsv"
: >"$results"

# check OUTPUT EXPECTED_SECONDS MOOV_FIRST -> "ok" or "WRONG <why>"
check() {
  python3 - "$1" "$2" "$3" <<'PY'
import json, subprocess, sys
path, expected, moov_first = sys.argv[1], float(sys.argv[2]), sys.argv[3] == "1"
probe = json.loads(subprocess.run(
    ["ffprobe", "-v", "error", "-show_streams", "-show_format", "-of", "json", path],
    capture_output=True, check=True).stdout)
kinds = sorted(s["codec_type"] for s in probe["streams"])
seconds = float(probe["format"]["duration"])
why = []
if kinds != ["audio", "video"]:
    why.append(f"streams {kinds}")
if abs(seconds - expected) > 4.5:
    why.append(f"duration {seconds} for {expected}")
if moov_first:
    boxes, offset = [], 0
    with open(path, "rb") as f:
        while len(boxes) < 8:
            f.seek(offset)
            head = f.read(16)
            if len(head) < 8:
                break
            size = int.from_bytes(head[:4], "big")
            boxes.append(head[4:8].decode("latin-1"))
            if size == 1:
                size = int.from_bytes(head[8:16], "big")
            if size < 8:
                break
            offset += size
    if "moov" not in boxes or "mdat" not in boxes or boxes.index("moov") > boxes.index("mdat"):
        why.append(f"boxes {boxes}")
print("ok" if not why else "WRONG " + "; ".join(why))
PY
}

# run ROUND TOOL INPUT_SECONDS MOOV_FIRST COMMAND... (the output is $work/out.mp4)
run() {
  local round=$1 tool=$2 expected=$3 moov=$4 status=0 verdict
  shift 4
  rm -f "$work/out.mp4"
  sync
  /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$@" >"$work/stdout" 2>"$work/stderr" </dev/null \
    || status=$?
  if [ "$status" -eq 0 ]; then
    verdict=$(check "$work/out.mp4" "$expected" "$moov")
  else
    verdict="FAILED($status) $(tail -1 "$work/stderr")"
  fi
  read -r wall user sys rss <"$work/time"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$tool" "$wall" "$user" "$sys" "$rss" \
    "$verdict" >>"$results"
  log "round $round $tool: ${wall} s, $(( rss / 1024 )) MiB peak RSS, $verdict"
  rm -f "$work/out.mp4"
}

ours() { run "$1" offline "$duration" 1 "$offline" export "$stream" -o "$work/out.mp4" --force --quiet; }
theirs() {
  run "$1" ffmpeg "$duration" 1 ffmpeg -nostdin -v error -allowed_extensions ALL \
    -i "$stream/index.m3u8" -c copy -movflags +faststart "$work/out.mp4" -y
}
theirs_synced() {
  run "$1" ffmpeg-fsync "$duration" 1 sh -c 'ffmpeg -nostdin -v error -allowed_extensions ALL \
    -i "$1/index.m3u8" -c copy -movflags +faststart "$2" -y && sync -d "$2"' _ "$stream" "$work/out.mp4"
}
theirs_floor() {
  run "$1" ffmpeg-floor "$duration" 1 sh -c 'ffmpeg -nostdin -v error -allowed_extensions ALL \
    -i "$1/index.m3u8" -c copy -movflags +faststart "$2" -y && sync -d "$2" && cat "$2" >/dev/null' \
    _ "$stream" "$work/out.mp4"
}
# Read once into the page cache, so the first run does not pay for the disk.
cat "$stream"/* >/dev/null
for round in $(seq "$rounds"); do
  if [ $((round % 2)) -eq 1 ]; then ours "$round"; theirs "$round"; else theirs "$round"; ours "$round"; fi
  theirs_synced "$round"
  theirs_floor "$round"
  run "$round" offline-256m "$part_duration" 1 \
    "$offline" export "$part" -o "$work/out.mp4" --force --quiet
done

mkdir -p "$bench_dir/out"
python3 - "$results" "$bytes" "$part_bytes" "$bench_dir/out/export.json" <<'PY'
import json, statistics, sys
rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1]) if line.strip()]
size, part = int(sys.argv[2]), int(sys.argv[3])
tools = ("offline", "ffmpeg", "ffmpeg-fsync", "ffmpeg-floor", "offline-256m")
runs = [dict(round=int(r[0]), tool=r[1], wall=float(r[2]), cpu=float(r[3]) + float(r[4]),
             rss_mib=int(r[5]) / 1024, verdict=r[6]) for r in rows]
def med(tool, key):
    return statistics.median(r[key] for r in runs if r["tool"] == tool)
def peak(tool):
    return max(r["rss_mib"] for r in runs if r["tool"] == tool)
ratios, floor_ratios = [], []
for n in sorted({r["round"] for r in runs}):
    by = {r["tool"]: r for r in runs if r["round"] == n}
    ratios.append(by["offline"]["wall"] / by["ffmpeg"]["wall"])
    floor_ratios.append(by["ffmpeg-floor"]["wall"] / by["ffmpeg"]["wall"])
summary = {
    "input_bytes": size, "part_bytes": part,
    "median_wall": {t: med(t, "wall") for t in tools},
    "median_cpu": {t: med(t, "cpu") for t in tools},
    "peak_rss_mib": {t: peak(t) for t in tools},
    "wall_ratio_per_round": [round(x, 3) for x in ratios],
    "wall_ratio_median": round(statistics.median(ratios), 3),
    "floor_ratio_median": round(statistics.median(floor_ratios), 3),
}
flat = summary["peak_rss_mib"]["offline"] / summary["peak_rss_mib"]["offline-256m"]
targets = {
    "wall <= 1.2x ffmpeg (median of the rounds' ratios)": summary["wall_ratio_median"] <= 1.2,
    "peak RSS < 64 MiB": summary["peak_rss_mib"]["offline"] < 64,
    "peak RSS flat from 256 MiB to 1 GiB (within 10 %)": flat <= 1.1,
}
print(f"input: {size / 2**30:.2f} GiB; first part: {part / 2**20:.0f} MiB")
print("| tool | median wall s | median CPU s | peak RSS MiB |")
print("|---|---|---|---|")
for t in tools:
    print(f"| {t} | {summary['median_wall'][t]:.2f} | {summary['median_cpu'][t]:.2f} |"
          f" {summary['peak_rss_mib'][t]:.1f} |")
print(f"wall ratio offline / ffmpeg per round: {summary['wall_ratio_per_round']},"
      f" median {summary['wall_ratio_median']}")
print(f"the floor (ffmpeg + sync + one read) / ffmpeg: median {summary['floor_ratio_median']}")
print(f"peak RSS 1 GiB / 256 MiB: {flat:.2f}")
for name, met in targets.items():
    print(f"- {name}: {'met' if met else 'MISSED'}")
bad = [r for r in runs if r["verdict"] != "ok"]
json.dump(dict(summary, runs=runs, targets=targets), open(sys.argv[4], "w"), indent=2)
sys.exit(1 if bad else 0)
PY
