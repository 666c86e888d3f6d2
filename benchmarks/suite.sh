#!/usr/bin/env bash
# The benchmark suite: `offline` against curl, wget, aria2c, yt-dlp and ffmpeg, on loopback
# from one nginx, in the same run.
#
# Usage: benchmarks/suite.sh [ROUNDS=3]
# Env:   OFFLINE_BIN=path/to/offline (else built in release with --scratch-path .build-suite)
#        SUITE_CASES="limits plain limited h2 hls rtt rtt2 aes queue memory" (a subset, for a
#        quick look)
#
# Installs what it needs (apt-get: nginx-light curl wget aria2 ffmpeg time openssl; pip:
# yt-dlp matplotlib), makes its data once under benchmarks/data (random files, a 1000-segment
# HLS VOD from lavfi testsrc2, a 300-segment copy of it encrypted with openssl AES-128-CBC,
# 1000 files of 100 KiB), starts nginx on 127.0.0.1 with three places to fetch from:
#   http://127.0.0.1:P/...          plain (sendfile)
#   http://127.0.0.1:P/limited/...  limit_rate 40m (40 MiB/s per connection)
#   https://127.0.0.1:Q/...         HTTP/2 over TLS, self-signed certificate for 127.0.0.1
# and, for the rtt cases, benchmarks/delay-proxy.py 20 ms each way (a 40 ms round trip; the
# kernel here has no netem) in front of the plain and the TLS port. It runs these cases, each
# round running every tool of a case once, one after the other (A B C A B C ...), with a
# fresh store and output path per run:
#   limits   the machine's own:   curl -o /dev/null of 1 GiB (loopback, no disk) |
#                                 dd conv=fsync of 1 GiB from the page cache (the disk)
#   plain    1 GiB:               offline get | curl -o | wget -q -O | aria2c -x1
#   limited  1 GiB at 40 MiB/s:   offline get (no option: one connection, then eight when
#                                 slow, growing to 16 while each adds speed) |
#                                 offline get --connections 8 | the same --max-connections 16
#                                 (growing while each added connection still adds speed) |
#                                 aria2c -x8 -s8 -k1M | aria2c -x16 -s16 -k1M | curl
#   h2       1 GiB, HTTP/2 + TLS: offline get --ca-file | curl --http2 --cacert
#   hls      1000-segment VOD:    offline get | yt-dlp -N 8 | yt-dlp | ffmpeg -c copy
#   rtt      the same, 40 ms RTT, HTTP/1.1:      offline get | yt-dlp -N 8
#   rtt2     the same, 40 ms RTT, TLS + HTTP/2:  offline get --ca-file | yt-dlp -N 8
#   aes      300 AES-128 segments: offline get | yt-dlp -N 8
#   queue    1000 x 100 KiB:      offline add -i + run --parallel 8 |
#                                 curl --parallel --parallel-max 8 -K | the same, then
#                                 sync -f (curl's bytes made durable) | aria2c -j 8 -i
#   memory   offline get of 256 MiB and of 4 GiB (plain): is peak RSS flat?
# Every run is timed by /usr/bin/time -v (wall, user+sys CPU, peak RSS). Outside the timed
# part each output is checked (files: SHA-256 with python hashlib; HLS: decoded with
# `ffmpeg -v error -i X -f null -` to its full duration), then `sync`. Outputs of one big
# file are deleted at once; outputs of many files (hls, aes, queue) are kept until the end:
# on an ext4 without a journal (as on the VM these figures come from) a new inode skips
# every inode freed in the last minute or more, so deleting the 1000 files of one run made
# the next run's file creations scan past them (43% of our CPU in a perf profile) -- a cost
# of the harness, paid only by the tools that create one file per segment. For the same
# reason yt-dlp runs with --keep-fragments: it would otherwise delete its 1000 fragment files
# right before the next tool's run, and our file creations would pay for that scan (the
# likely reason our system CPU doubled in suite runs of the HLS case).
# A run that exits 64 (usage error: an option this build does not know yet, such as
# --connections) is reported as skipped and does not fail the suite.
#
# Prints the machine, a Markdown table of medians and the targets (met / MISSED); writes
# benchmarks/out/suite.json and docs/benchmarks.png. Exits 1 if any run failed or produced
# a wrong output (missed targets do not change the exit status).
set -euo pipefail
rounds=${1:-3}
cases=${SUITE_CASES:-limits plain limited h2 hls rtt rtt2 aes queue memory}
source "$(dirname "$0")/lib.sh"

ensure_suite_tools
OFFLINE_SCRATCH=${OFFLINE_SCRATCH:-.build-suite} ensure_offline_bin

has_case() { [[ " $cases " == *" $1 "* ]]; }

# Data (cached across runs under benchmarks/data).
f1g=$(make_data_file 1024)
has_case memory && f256=$(make_data_file 256) && f4g=$(make_data_file 4096)
log "Hashing sources (cached in *.sha256)..."
sha1g=$(sha256_cached "$f1g")
has_case memory && sha256m=$(sha256_cached "$f256") && sha4g=$(sha256_cached "$f4g")
has_case queue && small=$(make_small_files 1000 100)
{ has_case hls || has_case rtt || has_case rtt2; } && hls=$(make_hls_stream 1000)
has_case aes && aes=$(make_aes_hls_stream 300)
# Data made just now is still in the page cache, waiting to be written back. The first run
# of the suite on a machine made over 4 GiB of it right before round 1, in which dd
# conv=fsync took 3.27 s against 0.48-0.53 s in rounds 2 and 3; the write-back is done here,
# outside the timed runs.
sync

open_workdir offline-suite
runs="$work/runs"
mkdir -p "$work/www/limited" "$runs" "$bench_dir/out" "$repo_dir/docs"

link() { ln "$1" "$2" 2>/dev/null || ln -s "$1" "$2"; }
link "$f1g" "$work/www/1g.bin"
link "$f1g" "$work/www/limited/1g.bin"
has_case memory && link "$f256" "$work/www/256m.bin" && link "$f4g" "$work/www/4g.bin"
has_case queue && ln -s "$small" "$work/www/small"
[ -n "${hls:-}" ] && ln -s "$hls" "$work/www/hls"
has_case aes && ln -s "$aes" "$work/www/aes"

make_test_cert "$work"
tls_port=$(free_port)
start_nginx "$work" "$work/www" "location /limited/ { limit_rate 40m; }" "
  server {
    listen 127.0.0.1:$tls_port ssl http2; root $work/www;
    ssl_certificate $work/cert.pem; ssl_certificate_key $work/key.pem;
  }"
base="http://127.0.0.1:$port"
tls="https://127.0.0.1:$tls_port"
ca="$work/cert.pem"
curl -sS --http2 --cacert "$ca" -o /dev/null -w '' "$tls/1g.bin" -r 0-0 \
  || { log "the TLS location does not answer"; exit 2; }
if has_case rtt || has_case rtt2; then
  start_delay_proxy "$work" "$port"
  slow="http://127.0.0.1:$proxy_port"
  start_delay_proxy "$work" "$tls_port"
  slow_tls="https://127.0.0.1:$proxy_port"
  log "40 ms RTT: TCP connect $(curl -sS -o /dev/null -w '%{time_connect}' "$slow/hls/index.m3u8") s over" \
    "HTTP/1.1, $(curl -sS --http2 --cacert "$ca" -o /dev/null -w '%{time_connect} s, HTTP/%{http_version}' \
      "$slow_tls/hls/index.m3u8") over TLS"
fi

# The queue's inputs: a URL list (offline), an aria2c input file, a curl config.
if has_case queue; then
  names=$(cd "$small" && ls f*.bin)
  for n in $names; do echo "$base/small/$n"; done >"$work/queue.txt"
  for n in $names; do printf '%s\n  out=%s\n' "$base/small/$n" "$n"; done >"$work/queue.aria2"
fi

# Warm the page cache with every source so each run reads it from memory.
cat "$f1g" ${f256:+"$f256"} ${f4g:+"$f4g"} >/dev/null
[ -n "${small:-}" ] && cat "$small"/* >/dev/null
[ -n "${hls:-}" ] && cat "$hls"/* >/dev/null
[ -n "${aes:-}" ] && cat "$aes"/* >/dev/null

results="$work/results.tsv"
: >"$results"
failed=0

# check_file PATH SHA -> "ok" or "WRONG".
check_file() {
  if [ -f "$1" ] && [ "$(sha256_of "$1")" = "$2" ]; then echo ok; else echo WRONG; fi
}

# check_tree DIR SHA256SUMS -> "ok" or "WRONG <n> bad": every file of the list, right hash.
check_tree() {
  python3 - "$1" "$2" <<'PY'
import hashlib, os, sys
d, sums = sys.argv[1], sys.argv[2]
bad = 0
for line in open(sums):
    h, name = line.split()
    p = os.path.join(d, name)
    try:
        ok = hashlib.sha256(open(p, "rb").read()).hexdigest() == h
    except OSError:
        ok = False
    bad += not ok
print("ok" if bad == 0 else f"WRONG {bad} bad")
PY
}

# run_case CASE TOOL ROUND: times one run, checks its output, records it, deletes it.
run_case() {
  local c=$1 tool=$2 round=$3
  local id="$c-$tool-$round" d="$runs/$c-$tool-$round"
  local store="$d/store" timing="$runs/$id.time"
  rm -rf "$d" && mkdir -p "$d"
  local cmd=() check="" status=0
  case "$c/$tool" in
    limits/net) cmd=(curl -s -o /dev/null "$base/1g.bin") ;;
    limits/disk) cmd=(dd if="$f1g" of="$d/out.bin" bs=1M conv=fsync status=none) ;;
    plain/offline) cmd=("$offline" --store "$store" get "$base/1g.bin" -o "$d/out.bin" --quiet) ;;
    plain/curl) cmd=(curl -s -o "$d/out.bin" "$base/1g.bin") ;;
    plain/wget) cmd=(wget -q -O "$d/out.bin" "$base/1g.bin") ;;
    plain/aria2c) cmd=(aria2c -q -x1 --allow-overwrite=true -d "$d" -o out.bin "$base/1g.bin") ;;
    limited/offlinedefault) cmd=("$offline" --store "$store" get "$base/limited/1g.bin" -o "$d/out.bin" --quiet) ;;
    limited/offline) cmd=("$offline" --store "$store" get "$base/limited/1g.bin" -o "$d/out.bin" --connections 8 --quiet) ;;
    limited/offline16) cmd=("$offline" --store "$store" get "$base/limited/1g.bin" -o "$d/out.bin" --connections 8 \
      --max-connections 16 --quiet) ;;
    limited/aria2c) cmd=(aria2c -q -x8 -s8 -k1M --allow-overwrite=true -d "$d" -o out.bin "$base/limited/1g.bin") ;;
    limited/aria2c16) cmd=(aria2c -q -x16 -s16 -k1M --allow-overwrite=true -d "$d" -o out.bin "$base/limited/1g.bin") ;;
    limited/curl) cmd=(curl -s -o "$d/out.bin" "$base/limited/1g.bin") ;;
    h2/offline) cmd=("$offline" --store "$store" get "$tls/1g.bin" -o "$d/out.bin" --ca-file "$ca" --quiet) ;;
    h2/curl) cmd=(curl -s --http2 --cacert "$ca" -o "$d/out.bin" "$tls/1g.bin") ;;
    hls/offline) cmd=("$offline" --store "$store" get "$base/hls/index.m3u8" -o "$d/movie" --quiet) ;;
    hls/ytdlp8) cmd=(yt-dlp -q --no-progress --keep-fragments --concurrent-fragments 8 -o "$d/movie.mp4" "$base/hls/index.m3u8") ;;
    hls/ytdlp) cmd=(yt-dlp -q --no-progress --keep-fragments -o "$d/movie.mp4" "$base/hls/index.m3u8") ;;
    hls/ffmpeg) cmd=(ffmpeg -nostdin -v error -i "$base/hls/index.m3u8" -c copy "$d/movie.ts") ;;
    rtt/offline) cmd=("$offline" --store "$store" get "$slow/hls/index.m3u8" -o "$d/movie" --quiet) ;;
    rtt/ytdlp8) cmd=(yt-dlp -q --no-progress --keep-fragments --concurrent-fragments 8 -o "$d/movie.mp4" "$slow/hls/index.m3u8") ;;
    rtt2/offline) cmd=("$offline" --store "$store" get "$slow_tls/hls/index.m3u8" -o "$d/movie" --ca-file "$ca" --quiet) ;;
    rtt2/ytdlp8) cmd=(yt-dlp -q --no-progress --keep-fragments --no-check-certificates --concurrent-fragments 8 \
      -o "$d/movie.mp4" "$slow_tls/hls/index.m3u8") ;;
    aes/offline) cmd=("$offline" --store "$store" get "$base/aes/index.m3u8" -o "$d/movie" --quiet) ;;
    aes/ytdlp8) cmd=(yt-dlp -q --no-progress --keep-fragments --concurrent-fragments 8 -o "$d/movie.mp4" "$base/aes/index.m3u8") ;;
    queue/offline) cmd=("${queue_run[@]}" "$offline" "$store" "$work/queue.txt") ;;
    queue/aria2c) cmd=(aria2c -q -j 8 --allow-overwrite=true -d "$d/files" -i "$work/queue.aria2") ;;
    queue/curl)
      write_curl_config "$d" "$base/small"
      cmd=(curl -s --parallel --parallel-max 8 -K "$d/curl.cfg") ;;
    queue/curlsync)
      # curl, then its files made durable as ours are (one syncfs, as our runner's batch):
      # the disk's share of the row, which curl alone does not pay.
      write_curl_config "$d" "$base/small"
      cmd=(sh -c 'curl -s --parallel --parallel-max 8 -K "$1" && exec sync -f "$2"' _ "$d/curl.cfg" "$d/files") ;;
    memory/256m) cmd=("$offline" --store "$store" get "$base/256m.bin" -o "$d/out.bin" --quiet) ;;
    memory/4g) cmd=("$offline" --store "$store" get "$base/4g.bin" -o "$d/out.bin" --quiet) ;;
    *) log "unknown run $c/$tool"; exit 2 ;;
  esac
  /usr/bin/time -v -o "$timing" "${cmd[@]}" >"$runs/$id.out" 2>"$runs/$id.err" </dev/null || status=$?
  if [ "$status" -eq 64 ]; then
    check="skipped"
  elif [ "$status" -ne 0 ]; then
    check="FAILED"
  else
    case "$c/$tool" in
      limits/net) check=ok ;;
      limits/disk | plain/* | limited/* | h2/*) check=$(check_file "$d/out.bin" "$sha1g") ;;
      memory/256m) check=$(check_file "$d/out.bin" "$sha256m") ;;
      memory/4g) check=$(check_file "$d/out.bin" "$sha4g") ;;
      hls/offline | rtt/offline | rtt2/offline) check=$(check_media "$d/movie/index.m3u8" 1000) ;;
      hls/ffmpeg) check=$(check_media "$d/movie.ts" 1000) ;;
      hls/* | rtt/* | rtt2/*) check=$(check_media "$d/movie.mp4" 1000) ;;
      aes/offline) check=$(check_media "$d/movie/index.m3u8" 300) ;;
      aes/*) check=$(check_media "$d/movie.mp4" 300) ;;
      queue/offline)
        # The queue downloads into the store: check every file whose name is in the list.
        mkdir -p "$d/files"
        find "$store" -type f -name 'f*.bin' -exec ln {} "$d/files/" \; 2>/dev/null || true
        check=$(check_tree "$d/files" "$small/SHA256SUMS") ;;
      queue/*) check=$(check_tree "$d/files" "$small/SHA256SUMS") ;;
    esac
  fi
  case $check in ok* | skipped) ;; *) failed=1; tail -5 "$runs/$id.err" >&2 ;; esac
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$c" "$tool" "$round" "$timing" "$status" "$check" >>"$results"
  log "  round $round $c/$tool: exit $status, $check"
  case $c in hls | rtt | rtt2 | aes | queue) ;; *) rm -rf "$d" ;; esac
  sync
}

declare -A tools=(
  [limits]="net disk"
  [plain]="offline curl wget aria2c"
  [limited]="offlinedefault offline offline16 aria2c aria2c16 curl"
  [h2]="offline curl"
  [hls]="offline ytdlp8 ytdlp ffmpeg"
  [rtt]="offline ytdlp8"
  [rtt2]="offline ytdlp8"
  [aes]="offline ytdlp8"
  [queue]="offline curl curlsync aria2c"
  [memory]="256m 4g"
)
started=$(date +%s)
for round in $(seq "$rounds"); do
  log "Round $round/$rounds ($(($(date +%s) - started)) s so far)"
  for c in $cases; do
    for tool in ${tools[$c]}; do
      run_case "$c" "$tool" "$round"
    done
  done
done
log "All rounds: $(($(date +%s) - started)) s"

echo "## OfflineKit benchmark suite: $rounds rounds, medians, nginx on loopback"
echo
machine_info
echo "- wget: $(wget --version | head -1)"
echo "- aria2c: $(aria2c --version | head -1)"
echo "- yt-dlp: $(yt-dlp --version)"
echo "- ffmpeg: $(ffmpeg -version | head -1 | cut -d' ' -f1-3)"
echo "- offline: $offline"
echo
python3 - "$results" "$rounds" "$bench_dir/out/suite.json" "$repo_dir/docs/benchmarks.png" <<'PY'
import json, platform, re, statistics, subprocess, sys

results, rounds, json_path, png_path = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]

from timing import parse_time

CASES = {
    "limits": ("the machine's limits, 1 GiB", None, {
        "net": "curl -o /dev/null URL (loopback)", "disk": "dd bs=1M conv=fsync (page cache to disk)"}),
    "plain": ("1 GiB, plain HTTP/1.1", "curl", {
        "offline": "offline get URL -o OUT", "curl": "curl -s -o OUT URL",
        "wget": "wget -q -O OUT URL", "aria2c": "aria2c -x1 -o OUT URL"}),
    "limited": ("1 GiB, 40 MiB/s per connection", "curl", {
        "offlinedefault": "offline get URL -o OUT (connections by default: adaptive, up to 16)",
        "offline": "offline get URL -o OUT --connections 8",
        "offline16": "offline get URL -o OUT --connections 8 --max-connections 16",
        "aria2c": "aria2c -x8 -s8 -k1M URL", "aria2c16": "aria2c -x16 -s16 -k1M URL",
        "curl": "curl -s -o OUT URL"}),
    "h2": ("1 GiB, HTTP/2 over TLS", "curl", {
        "offline": "offline get URL -o OUT --ca-file PEM",
        "curl": "curl --http2 --cacert PEM -o OUT URL"}),
    "hls": ("HLS VOD, 1000 segments", "ytdlp8", {
        "offline": "offline get URL.m3u8 -o DIR",
        "ytdlp8": "yt-dlp --concurrent-fragments 8", "ytdlp": "yt-dlp (default)",
        "ffmpeg": "ffmpeg -i URL -c copy OUT.ts"}),
    "rtt": ("HLS, 1000 segments, 40 ms RTT, HTTP/1.1", "ytdlp8", {
        "offline": "offline get URL.m3u8 -o DIR", "ytdlp8": "yt-dlp --concurrent-fragments 8"}),
    "rtt2": ("HLS, 1000 segments, 40 ms RTT, TLS + HTTP/2", "ytdlp8", {
        "offline": "offline get URL.m3u8 -o DIR --ca-file PEM", "ytdlp8": "yt-dlp --concurrent-fragments 8"}),
    "aes": ("HLS AES-128, 300 segments", "ytdlp8", {
        "offline": "offline get URL.m3u8 -o DIR",
        "ytdlp8": "yt-dlp --concurrent-fragments 8"}),
    "queue": ("1000 files of 100 KiB", "curl", {
        "offline": "offline add -i LIST; offline run --parallel 8",
        "curl": "curl --parallel --parallel-max 8 -K CFG",
        "curlsync": "curl --parallel --parallel-max 8 -K CFG, then sync -f DIR",
        "aria2c": "aria2c -j 8 -i LIST"}),
    "memory": ("offline peak RSS by size", "256m", {
        "256m": "offline get (256 MiB)", "4g": "offline get (4 GiB)"}),
}
BASE_LABEL = {"curl": "curl", "ytdlp8": "yt-dlp -N 8", "aria2c": "aria2c", "256m": "256 MiB", None: ""}

runs = []
for line in open(results):
    c, tool, rnd, timing, status, check = line.rstrip("\n").split("\t")
    r = {"case": c, "tool": tool, "round": int(rnd), "exit": int(status), "check": check}
    r.update(parse_time(timing))
    runs.append(r)

med = {}
for c, (title, base, labels) in CASES.items():
    for tool in labels:
        rs = [r for r in runs if r["case"] == c and r["tool"] == tool]
        if not rs:
            continue
        good = [r for r in rs if r["exit"] == 0 and r["check"].startswith("ok")]
        entry = {"command": labels[tool], "runs": len(rs), "good_runs": len(good),
                 "skipped": all(r["check"] == "skipped" for r in rs),
                 "checks": [r["check"] for r in rs],
                 "walls": [r["wall"] for r in rs]}
        if good:
            for k in ("wall", "user", "sys", "cpu", "rss_mib"):
                entry[k] = statistics.median(r[k] for r in good)
        med.setdefault(c, {})[tool] = entry

def get(c, tool, k="wall"):
    return med.get(c, {}).get(tool, {}).get(k)

print("| case | tool | wall s | CPU s | peak RSS MiB | wall / anchor | CPU / anchor | output |")
print("|---|---|---:|---:|---:|---:|---:|---|")
for c, (title, base, labels) in CASES.items():
    for tool, e in med.get(c, {}).items():
        if e["skipped"]:
            print(f"| {title} | `{e['command']}` | — | — | — | — | — | skipped: exit 64 (option not in this build) |")
            continue
        if "wall" not in e:
            print(f"| {title} | `{e['command']}` | — | — | — | — | — | FAILED: {', '.join(e['checks'])} |")
            continue
        bw, bc = (get(c, base), get(c, base, "cpu")) if base else (None, None)
        wr = f"{e['wall'] / bw:.2f}x vs {BASE_LABEL[base]}" if bw else "—"
        cr = f"{e['cpu'] / bc:.2f}x" if bc else "—"
        note = "ok" if e["good_runs"] == e["runs"] else f"{e['runs'] - e['good_runs']} of {e['runs']} WRONG"
        detail = sorted({ch.split(' ', 1)[1] for ch in e["checks"] if ' ' in ch and ch.startswith('ok')})
        if detail:
            note += " (" + ", ".join(detail) + " decoded)"
        print(f"| {title} | `{e['command']}` | {e['wall']:.2f} | {e['cpu']:.2f} | {e['rss_mib']:.1f} | "
              f"{wr} | {cr} | {note} |")
print()
print("Per run wall s (in round order):")
for c in CASES:
    for tool, e in med.get(c, {}).items():
        print(f"- {c}/{tool}: " + ", ".join(f"{w:.2f}" for w in e["walls"]))

targets = {}
def target(name, ok, detail):
    targets[name] = {"met": ok, "detail": detail}

def ratio_target(name, c, a, b, k, limit, fmt="{:.2f}x (target ≤ {})"):
    x, y = get(c, a, k), get(c, b, k)
    if x is None or y is None:
        target(name, None, "not measured" + (" (skipped)" if med.get(c, {}).get(a, {}).get("skipped") else ""))
    else:
        target(name, x / y <= limit, fmt.format(x / y, f"{limit}x"))

def per_round_worst(c, a, b):
    """The largest of the round-by-round ratios a/b (same round, so same machine weather)."""
    walls = {}
    for r in runs:
        if r["case"] == c and r["exit"] == 0 and r["check"].startswith("ok"):
            walls.setdefault(r["round"], {})[r["tool"]] = r["wall"]
    ratios = [w[a] / w[b] for w in walls.values() if a in w and b in w]
    return max(ratios) if ratios else None

def rss_target(name, c, tool, limit=64):
    r = get(c, tool, "rss_mib")
    target(name, None if r is None else r < limit, "not measured" if r is None else f"{r:.1f} MiB")

if "limits" in med:
    n, d = get("limits", "net"), get("limits", "disk")
    target("limits (for reading the rows below)", None if n is None or d is None else "figure",
           "not measured" if n is None or d is None else
           f"loopback alone {1024 / n:.0f} MiB/s ({n:.2f} s per GiB), disk with fsync {1024 / d:.0f} MiB/s ({d:.2f} s per GiB)")
if "plain" in med:
    ratio_target("1 GiB plain: wall ≤ 1.0x curl (median)", "plain", "offline", "curl", "wall", 1.0)
    w = per_round_worst("plain", "offline", "curl")
    target("1 GiB plain: wall ≤ 1.0x curl in every round", None if w is None else w <= 1.0,
           "not measured" if w is None else f"worst round {w:.2f}x")
    ratio_target("1 GiB plain: CPU ≤ 1.3x curl", "plain", "offline", "curl", "cpu", 1.3)
    rss_target("1 GiB plain: peak RSS < 64 MiB", "plain", "offline")
if "limited" in med:
    ratio_target("40 MiB/s per connection, 8 connections: wall ≤ 0.75x aria2c -x8", "limited", "offline", "aria2c", "wall", 0.75)
    ratio_target("40 MiB/s per connection, growing to 16: wall ≤ 0.75x aria2c -x8", "limited", "offline16", "aria2c", "wall", 0.75)
    ratio_target("40 MiB/s per connection, growing to 16: wall ≤ aria2c -x16", "limited", "offline16", "aria2c16", "wall", 1.0)
    o, c = get("limited", "offline"), get("limited", "curl")
    if o is None or c is None:
        target("40 MiB/s per connection: ≥ 6x faster than curl", None,
               "not measured" + (" (skipped)" if med["limited"].get("offline", {}).get("skipped") else ""))
    else:
        target("40 MiB/s per connection: ≥ 6x faster than curl", c / o >= 6, f"{c / o:.2f}x faster (target ≥ 6x)")
if "hls" in med:
    ratio_target("HLS: wall ≤ 0.5x yt-dlp -N 8", "hls", "offline", "ytdlp8", "wall", 0.5)
    ratio_target("HLS: CPU ≤ 1.2x ffmpeg -c copy", "hls", "offline", "ffmpeg", "cpu", 1.2)
    o, f = get("hls", "offline"), get("hls", "ffmpeg")
    target("HLS: wall below ffmpeg -c copy", None if o is None or f is None else o < f,
           "not measured" if o is None or f is None else f"{o:.2f} s vs {f:.2f} s")
if "rtt" in med:
    ratio_target("HLS at 40 ms RTT, HTTP/1.1: wall ≤ 0.5x yt-dlp -N 8", "rtt", "offline", "ytdlp8", "wall", 0.5)
if "rtt2" in med:
    ratio_target("HLS at 40 ms RTT, HTTP/2: wall ≤ 0.25x yt-dlp -N 8", "rtt2", "offline", "ytdlp8", "wall", 0.25)
    rss_target("HLS at 40 ms RTT, HTTP/2: peak RSS < 64 MiB", "rtt2", "offline")
if "queue" in med:
    ratio_target("1000 small files: wall ≤ 1.2x curl --parallel", "queue", "offline", "curl", "wall", 1.2)
    ratio_target("1000 small files: wall ≤ aria2c -j 8", "queue", "offline", "aria2c", "wall", 1.0)
    x, cs = get("queue", "offline"), get("queue", "curlsync")
    target("1000 small files, for reading the row: curl then `sync -f` (its bytes made durable, as ours are)",
           None if x is None or cs is None else "figure",
           "not measured" if x is None or cs is None else f"{cs:.2f} s; offline {x / cs:.2f}x of it")
if "memory" in med:
    a, b = get("memory", "256m", "rss_mib"), get("memory", "4g", "rss_mib")
    target("memory flat: RSS(4 GiB) within 10% of RSS(256 MiB)",
           None if a is None or b is None else b <= a * 1.1,
           "not measured" if a is None or b is None else f"{a:.1f} → {b:.1f} MiB ({(b / a - 1) * 100:+.0f}%)")

print()
print("Targets:")
for name, t in targets.items():
    state = {True: "met", False: "MISSED", None: "not measured"}.get(t["met"], t["met"])
    print(f"- {name}: **{state}** — {t['detail']}")

json.dump({
    "rounds": rounds,
    "machine": {
        "nproc": int(subprocess.check_output(["nproc"]).strip()),
        "cpu": next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), None),
        "kernel": platform.release(),
        "curl": subprocess.check_output(["curl", "--version"], text=True).splitlines()[0],
    },
    "cases": {c: {"title": CASES[c][0], "anchor": CASES[c][1], "tools": med[c]} for c in med},
    "runs": runs, "targets": targets,
}, open(json_path, "w"), indent=2)
print(f"\nJSON: {json_path}")

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
fig, ax = plt.subplots(figsize=(13, 5.5))
x, width = 0.0, 0.8
ticks, ticklabels, walls = [], [], []
palette = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860"]
for c in CASES:
    if c not in med:
        continue
    tools = list(med[c])
    start = x
    for i, tool in enumerate(tools):
        e = med[c][tool]
        color = ("#2a9d8f" if tool.startswith("offline") or c == "memory"
                 else "#b0b0b0" if c == "limits" else palette[i % len(palette)])
        if "wall" in e:
            ax.bar(x, e["wall"], width, color=color, edgecolor="black", linewidth=0.4)
            ax.text(x, e["wall"] * 1.05, f"{e['wall']:.2f}", ha="center", va="bottom", fontsize=7)
            walls.append(e["wall"])
        else:
            ax.text(x, 0.6, "skipped (exit 64)" if e["skipped"] else "failed", ha="center",
                    va="bottom", rotation=90, fontsize=7, color="gray")
        ax.text(x, 0.105, e["command"].replace("offline add -i LIST; offline run --parallel 8", "offline add+run -p 8")
                .replace(" URL.m3u8 -o DIR", "").replace(" -o OUT URL", "").replace(" URL -o OUT", "")
                .replace(" -o OUT", "").replace(" URL", ""),
                rotation=90, ha="center", va="bottom", fontsize=6.5, color="white" if "wall" in e and e["wall"] > 1 else "black")
        x += 1
    ticks.append((start + x - 1) / 2)
    ticklabels.append(CASES[c][0])
    x += 0.8
ax.set_yscale("log")
ax.set_ylim(0.1, max(walls + [1]) * 3)
ax.set_xticks(ticks)
ax.set_xticklabels([t.replace(", ", ",\n") for t in ticklabels], fontsize=8)
ax.set_ylabel("wall time, s (median, log scale)")
ax.set_title(f"offline (teal) against curl, wget, aria2c, yt-dlp, ffmpeg, and the machine's limits (grey): "
             f"median of {rounds} rounds, nginx on loopback (40 ms RTT: a delay proxy)", fontsize=9)
fig.tight_layout()
fig.savefig(png_path, dpi=120)
print(f"Chart: {png_path}")
PY
exit $failed
