#!/usr/bin/env bash
# An HLS VOD of many segments from nginx on loopback: `offline get` against
# `yt-dlp --concurrent-fragments 8`, `yt-dlp` (default) and `ffmpeg -c copy`, interleaved;
# and the same stream behind a 40 ms round trip (benchmarks/delay-proxy.py, 20 ms each way),
# over HTTP/1.1 and over TLS + HTTP/2, `offline get` against `yt-dlp -N 8`, in the same rounds.
#
# Usage: benchmarks/hls-vs-ytdlp.sh [SEGMENTS=1000] [ROUNDS=3]
# Env:   OFFLINE_BIN=path/to/offline (else built with --scratch-path .build-bench)
#        CASES="loopback rtt40-h1 rtt40-h2" (the default: all three)
#        OFFLINE_ARGS="..." extra arguments for every `offline get` (say --max-connections 8)
#        BASELINE_BIN=path/to/an/older/offline: also run it in every case and round ("before")
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
stream=$(make_hls_stream "$segments")

cases=${CASES:-loopback rtt40-h1 rtt40-h2}
read -r -a extra_args <<<"${OFFLINE_ARGS:-}"
open_workdir offline-hls-bench
mkdir -p "$work/runs" "$bench_dir/out"
make_test_cert "$work"
tls_port=$(free_port)
start_nginx "$work" "$stream" "" "
  server {
    listen 127.0.0.1:$tls_port ssl http2; root $stream;
    ssl_certificate $work/cert.pem; ssl_certificate_key $work/key.pem;
  }"
ca="$work/cert.pem"

start_delay_proxy "$work" "$port"
h1_proxy=$proxy_port
start_delay_proxy "$work" "$tls_port"
h2_proxy=$proxy_port
declare -A case_url=(
  [loopback]="http://127.0.0.1:$port/index.m3u8"
  [rtt40-h1]="http://127.0.0.1:$h1_proxy/index.m3u8"
  [rtt40-h2]="https://127.0.0.1:$h2_proxy/index.m3u8"
)
for c in rtt40-h1 rtt40-h2; do
  log "$c: TCP connect $(curl -sS --cacert "$ca" -o /dev/null -w '%{time_connect}' "${case_url[$c]}") s," \
    "first byte $(curl -sS --cacert "$ca" -o /dev/null -w '%{time_starttransfer}' "${case_url[$c]}") s," \
    "protocol $(curl -sS --http2 --cacert "$ca" -o /dev/null -w '%{http_version}' "${case_url[$c]}")"
done
results="$work/results.tsv"
: >"$results"

# run_one CASE TOOL ROUND: times one download, then checks it decodes to the full duration.
run_one() {
  local case=$1 tool=$2 round=$3 out="$work/runs/$1-$2-$3" timing="$work/runs/$1-$2-$3.time"
  local url=${case_url[$1]}
  mkdir -p "$out"
  local target
  case $tool in
    offline | baseline)
      local bin=$offline
      [ "$tool" = baseline ] && bin=$BASELINE_BIN
      /usr/bin/time -v -o "$timing" "$bin" --store "$out/store" get "$url" -o "$out/movie" \
        --ca-file "$ca" --quiet --json "${extra_args[@]}" >"$out/get.json"
      target="$out/movie/index.m3u8" ;;
    ytdlp8) /usr/bin/time -v -o "$timing" yt-dlp -q --no-progress --keep-fragments --no-check-certificates \
        --concurrent-fragments 8 -o "$out/movie.mp4" "$url"
      target="$out/movie.mp4" ;;
    ytdlp) /usr/bin/time -v -o "$timing" yt-dlp -q --no-progress --keep-fragments -o "$out/movie.mp4" "$url"
      target="$out/movie.mp4" ;;
    ffmpeg) /usr/bin/time -v -o "$timing" ffmpeg -nostdin -v error -i "$url" -c copy "$out/movie.ts"
      target="$out/movie.ts" ;;
  esac
  local seconds extra=()
  [[ $target == *.m3u8 ]] && extra=(-allowed_extensions ALL)
  seconds=$(ffmpeg -nostdin -v error "${extra[@]}" -i "$target" -f null - -progress pipe:1 -nostats 2>/dev/null \
    | awk -F= '/^out_time_us=/{t=$2} END{printf "%.1f", t/1e6}' || true)
  echo -e "$case\t$tool\t$round\t$timing\t$seconds" >>"$results"
  # Kept until the end: deleting 1000 files makes the next run's file creations slow on an
  # ext4 without a journal (see suite.sh), which only the tools writing a file per segment pay.
  sync
}

declare -A case_tools=([loopback]="offline ytdlp8 ytdlp ffmpeg" [rtt40-h1]="offline ytdlp8" [rtt40-h2]="offline ytdlp8")
if [ -n "${BASELINE_BIN:-}" ]; then
  for c in "${!case_tools[@]}"; do case_tools[$c]="baseline ${case_tools[$c]}"; done
fi
for round in $(seq "$rounds"); do
  for c in $cases; do
    for tool in ${case_tools[$c]}; do
      log "round $round: $c $tool"
      run_one "$c" "$tool" "$round"
    done
  done
done

python3 - "$results" "$segments" "$bench_dir/out/hls.json" "$work/runs" <<'PY'
import json, os, re, statistics, sys
rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1])]
segments, out, runs = int(sys.argv[2]), sys.argv[3], sys.argv[4]
from timing import parse_time
def parse(path):
    d = parse_time(path)
    return d["wall"], d["cpu"], d["rss_mib"]
def transport(case, round_):
    """What `offline get --json` said of its pieces: protocol and most in flight."""
    try:
        lines = open(os.path.join(runs, f"{case}-offline-{round_}", "get.json")).read().splitlines()
        report = json.loads(lines[-1])
        return report.get("protocol"), report.get("mostInFlight")
    except (OSError, ValueError, IndexError):
        return None, None
names = {"baseline": "offline get (before, BASELINE_BIN)", "offline": "offline get", "ytdlp8": "yt-dlp --concurrent-fragments 8", "ytdlp": "yt-dlp (default)", "ffmpeg": "ffmpeg -i URL -c copy"}
titles = {"loopback": "nginx on loopback", "rtt40-h1": "40 ms RTT, HTTP/1.1", "rtt40-h2": "40 ms RTT, TLS + HTTP/2"}
goals = {"loopback": 0.5, "rtt40-h1": 0.5, "rtt40-h2": 0.25}
table = {}
for case, tool, round_, timing, decoded in rows:
    wall, cpu, rss = parse(timing)
    entry = table.setdefault(case, {}).setdefault(tool, {"wall": [], "cpu": [], "rss": [], "decoded": [], "transport": []})
    entry["wall"].append(wall); entry["cpu"].append(cpu); entry["rss"].append(rss); entry["decoded"].append(float(decoded or 0))
    if tool == "offline":
        entry["transport"].append(transport(case, round_))
summary = {}
for case, tools in table.items():
    base = statistics.median(tools["ytdlp8"]["wall"])
    print(f"\n## HLS VOD, {segments} segments of 1 s, {titles[case]} (median of {len(tools['offline']['wall'])})\n")
    print("| tool | wall s | CPU s | peak RSS MiB | wall / yt-dlp -N 8 | decoded s |")
    print("|---|---:|---:|---:|---:|---:|")
    summary[case] = {}
    for tool in ["baseline", "offline", "ytdlp8", "ytdlp", "ffmpeg"]:
        if tool not in tools:
            continue
        e = tools[tool]
        w, c, r = statistics.median(e["wall"]), statistics.median(e["cpu"]), max(e["rss"])
        summary[case][tool] = {"wall": w, "cpu": c, "rss_mib": r, "decoded": min(e["decoded"]), "runs": e["wall"]}
        print(f"| {names[tool]} | {w:.2f} | {c:.2f} | {r:.1f} | {w / base:.2f}x | {min(e['decoded']):.1f} |")
    o = summary[case]["offline"]
    o["transport"] = tools["offline"]["transport"]
    print(f"\noffline runs (s): {', '.join(f'{x:.2f}' for x in tools['offline']['wall'])}; "
          f"yt-dlp -N 8 runs: {', '.join(f'{x:.2f}' for x in tools['ytdlp8']['wall'])}; "
          f"protocol, most in flight: {tools['offline']['transport']}")
    checks = [f"wall <= {goals[case]}x yt-dlp -N 8: {'met' if o['wall'] <= goals[case] * base else 'MISSED'}"]
    if "ffmpeg" in summary[case]:
        checks.append(f"below ffmpeg -c copy: {'met' if o['wall'] < summary[case]['ffmpeg']['wall'] else 'MISSED'}")
    checks.append(f"peak RSS < 64 MiB: {'met' if o['rss_mib'] < 64 else 'MISSED'}")
    checks.append(f"offline output decodes fully: {'yes' if abs(o['decoded'] - segments) < 2 else 'NO'}")
    print("\nTargets: " + "; ".join(checks))
json.dump({"segments": segments, "results": summary}, open(out, "w"), indent=2)
PY
