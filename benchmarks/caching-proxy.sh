#!/usr/bin/env bash
# Many devices behind one caching proxy (issue 43): CLIENTS clients started together fetch the
# same file and the same HLS stream through nginx `proxy_cache` + `slice` (the configuration of
# docs/CachingProxy.md, read from the page), and the origin's access log says how much it sent.
#
# Usage: benchmarks/caching-proxy.sh [SIZE_MIB=1024] [SEGMENTS=1000] [CLIENTS=10]
# Env:   OFFLINE_BIN=path/to/offline (else built with --scratch-path .build-bench)
#        TOOLS="offline curl aria2c" (the tools, in this order), CONTENTS="file hls"
#
# Two nginx on loopback, started afresh for every case (a tool and a content) with an empty
# cache: the origin (sendfile; logs "$uri $body_bytes_sent $status $http_range") and the proxy
# (the page's `proxy_cache_path` line and `location` block, pointed at the origin; logs
# "$upstream_cache_status" and any Cache-Control or Pragma a client sent; its error log at the
# info level, for the cache lock's timeouts). The contents: a
# random file of SIZE_MIB MiB, and a stream of SEGMENTS one-second segments (320x180 H.264 at
# 200 kbit/s, make_hls_stream). The clients, each into a folder (and a store) of its own:
#   offline   offline get PROXY/file.bin -o OUT, offline get PROXY/index.m3u8 -o DIR
#   curl      curl -o OUT; the playlist, then its segments (--parallel --parallel-max 8)
#   aria2c    aria2c -x4 -s4; the playlist, then its segments (-i LIST -j 8)
# Reported per case: the bytes the origin sent / the content's size (target: <= 1.05 for
# offline; curl and aria2c are anchors), the origin's requests, the proxy's cache statuses,
# the clients' wall times (median, slowest, the whole case) and whether every client's copy is
# byte-identical to the origin's (SHA-256 of the file; of the segments in playlist order for
# a stream). Outputs are checked and deleted after each case: the largest case holds
# CLIENTS + 2 copies of the file on disk (about 12 GiB at the defaults). Everything temporary
# lives under /tmp. Writes benchmarks/out/caching-proxy.json.
set -euo pipefail
size_mib=${1:-1024}
segments=${2:-1000}
clients=${3:-10}
tools=${TOOLS:-offline curl aria2c}
contents=${CONTENTS:-file hls}
source "$(dirname "$0")/lib.sh"
unset http_proxy https_proxy all_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY no_proxy NO_PROXY

ensure_tools
command -v aria2c >/dev/null || apt_install aria2
command -v ffmpeg >/dev/null || apt_install ffmpeg
ensure_offline_bin
data=$(make_data_file "$size_mib")
stream=$(make_hls_stream "$segments")

# The work folder lives under /tmp (open_workdir's is under /var/tmp); on exit the clients
# still going, both nginx and the folder go.
work=$(mktemp -d /tmp/offline-caching-proxy.XXXXXX)
client_pids=()
proxy_pid=""
finish() {
  local pid
  for pid in "${client_pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  [ -n "$proxy_pid" ] && kill -QUIT "$proxy_pid" 2>/dev/null && wait "$proxy_pid" 2>/dev/null
  close_workdir
}
trap finish EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
mkdir -p "$work/www" "$bench_dir/out"
ln "$data" "$work/www/file.bin" 2>/dev/null || ln -s "$data" "$work/www/file.bin"
ln -s "$stream" "$work/www/hls"

log "Hashing the contents..."
file_sha=$(sha256_of "$data")
file_size=$(stat -c %s "$data")
# A stream's copy: its segments in playlist order, concatenated (a segment given by
# EXT-X-BYTERANGE, as offline packs small ones, is read from its range); its size: the
# playlist and the segments, what a client fetches.
stream_digest() {
  python3 - "$1" <<'PY'
import hashlib, os, sys
playlist = sys.argv[1]
folder = os.path.dirname(playlist)
h = hashlib.sha256()
byterange, ends = None, {}
for line in open(playlist):
    line = line.strip()
    if line.startswith("#EXT-X-BYTERANGE:"):
        byterange = line.split(":", 1)[1]
    elif line and not line.startswith("#"):
        with open(os.path.join(folder, line), "rb") as f:
            if byterange is None:
                h.update(f.read())
            else:
                length, _, offset = byterange.partition("@")
                start = int(offset) if offset else ends.get(line, 0)
                f.seek(start)
                h.update(f.read(int(length)))
                ends[line] = start + int(length)
        byterange = None
print(h.hexdigest())
PY
}
hls_sha=$(stream_digest "$stream/index.m3u8")
hls_size=$(python3 -c '
import os, sys
d = sys.argv[1]
names = ["index.m3u8"] + [l.strip() for l in open(os.path.join(d, "index.m3u8")) if l.strip() and not l.startswith("#")]
print(sum(os.path.getsize(os.path.join(d, n)) for n in names))' "$stream")
cat "$data" "$stream"/* >/dev/null

# The page's two nginx blocks: the `proxy_cache_path` line and the `location`.
read_blocks() {
  python3 - "$repo_dir/docs/CachingProxy.md" "$1" <<'PY'
import sys
page, which = sys.argv[1], int(sys.argv[2])
blocks = [b.split("```")[0] for b in open(page).read().split("```nginx\n")[1:]]
assert len(blocks) == 2, "docs/CachingProxy.md gives the http line and the location"
print(blocks[which])
PY
}
cache_line=$(read_blocks 0)
location_block=$(read_blocks 1)

# start_pair DIR -> an origin nginx (nginx_pid, origin_port) and the documented proxy in
# front of it (proxy_pid, proxy_port), both logging into DIR, the cache in DIR/cache.
start_pair() {
  local d=$1 user_line=""
  [ "$(id -u)" -eq 0 ] && user_line="user root;"
  mkdir -p "$d/origin" "$d/proxy" "$d/cache"
  origin_port=$(free_port)
  proxy_port=$(free_port)
  while [ "$proxy_port" = "$origin_port" ]; do proxy_port=$(free_port); done
  local common="client_body_temp_path $d/t1; proxy_temp_path $d/t2; fastcgi_temp_path $d/t3;
  uwsgi_temp_path $d/t4; scgi_temp_path $d/t5; sendfile on; default_type application/octet-stream;"
  cat >"$d/origin/nginx.conf" <<CONF
daemon off; worker_processes 1; $user_line
pid $d/origin/nginx.pid; error_log $d/origin/error.log;
events { worker_connections 4096; }
http {
  log_format bytes '\$uri \$body_bytes_sent \$status \$http_range';
  access_log $d/origin/access.log bytes;
  $common
  server { listen 127.0.0.1:$origin_port; root $work/www; }
}
CONF
  local cache=${cache_line//\/var\/cache\/nginx\/offline/$d/cache}
  local location=${location_block//http:\/\/origin.example/http://127.0.0.1:$origin_port}
  cat >"$d/proxy/nginx.conf" <<CONF
daemon off; worker_processes 1; $user_line
pid $d/proxy/nginx.pid; error_log $d/proxy/error.log info;
events { worker_connections 4096; }
http {
  log_format cache '\$uri \$status \$body_bytes_sent \$upstream_cache_status "\$http_cache_control" "\$http_pragma"';
  access_log $d/proxy/access.log cache;
  $common
  $cache
  server { listen 127.0.0.1:$proxy_port;
$location
  }
}
CONF
  /usr/sbin/nginx -p "$d/origin" -c "$d/origin/nginx.conf" &
  nginx_pid=$!
  /usr/sbin/nginx -p "$d/proxy" -c "$d/proxy/nginx.conf" &
  proxy_pid=$!
  local p i
  for p in "$origin_port" "$proxy_port"; do
    for i in $(seq 100); do
      (echo >"/dev/tcp/127.0.0.1/$p") 2>/dev/null && break
      [ "$i" -eq 100 ] && { log "nginx did not start"; cat "$d"/*/error.log >&2; exit 2; }
      sleep 0.05
    done
  done
}

stop_pair() {
  stop_nginx
  [ -n "$proxy_pid" ] && kill -QUIT "$proxy_pid" 2>/dev/null && wait "$proxy_pid" 2>/dev/null
  proxy_pid=""
}

# client TOOL CONTENT URL DIR -> one device's download of URL into DIR (its store in DIR too);
# the copy ends up at DIR/file.bin or DIR/movie/index.m3u8.
client() {
  local tool=$1 content=$2 url=$3 d=$4
  case $tool-$content in
    offline-file) "$offline" --store "$d/store" get "$url" -o "$d/file.bin" --quiet ;;
    offline-hls) "$offline" --store "$d/store" get "$url" -o "$d/movie" --quiet ;;
    curl-file) curl -sSf -o "$d/file.bin" "$url" ;;
    aria2c-file)
      aria2c -x4 -s4 -d "$d" -o file.bin --file-allocation none --allow-overwrite=true \
        --auto-file-renaming=false --console-log-level warn --summary-interval 0 "$url" ;;
    curl-hls | aria2c-hls)
      mkdir -p "$d/movie"
      curl -sSf -o "$d/movie/index.m3u8" "$url"
      local base=${url%/*} names
      names=$(grep -v '^#' "$d/movie/index.m3u8" | grep .)
      if [ "$tool" = curl ]; then
        for n in $names; do printf 'url = "%s"\noutput = "%s"\n' "$base/$n" "$d/movie/$n"; done >"$d/curl.cfg"
        curl -sSf --parallel --parallel-max 8 -K "$d/curl.cfg"
      else
        for n in $names; do printf '%s\n  out=%s\n' "$base/$n" "$n"; done >"$d/aria2.txt"
        aria2c -i "$d/aria2.txt" -j 8 -x4 -d "$d/movie" --file-allocation none \
          --allow-overwrite=true --auto-file-renaming=false --console-log-level warn \
          --summary-interval 0
      fi ;;
  esac
}
export -f client
export offline

results="$work/results.tsv"
: >"$results"

# run_case TOOL CONTENT -> CLIENTS clients of TOOL started together through a fresh proxy;
# then every copy checked and deleted, and the case's logs kept for the report.
run_case() {
  local tool=$1 content=$2 d="$work/$1-$2" url i pid status
  start_pair "$d"
  case $content in
    file) url="http://127.0.0.1:$proxy_port/file.bin" ;;
    hls) url="http://127.0.0.1:$proxy_port/hls/index.m3u8" ;;
  esac
  sync
  log "$tool $content: $clients clients through the proxy..."
  local started ended
  started=$(date +%s.%N)
  client_pids=()
  for i in $(seq "$clients"); do
    mkdir -p "$d/c$i"
    /usr/bin/time -v -o "$d/c$i/time" bash -c 'client "$@"' _ "$tool" "$content" "$url" "$d/c$i" \
      >"$d/c$i/out" 2>"$d/c$i/err" </dev/null &
    client_pids+=($!)
  done
  i=0
  for pid in "${client_pids[@]}"; do
    i=$((i + 1))
    status=0
    wait "$pid" || status=$?
    echo "$status" >"$d/c$i/status"
  done
  client_pids=()
  ended=$(date +%s.%N)
  stop_pair
  local expected ok=0 digest
  for i in $(seq "$clients"); do
    digest=WRONG
    if [ "$(cat "$d/c$i/status")" -eq 0 ]; then
      case $content in
        file) [ -f "$d/c$i/file.bin" ] && digest=$(sha256_of "$d/c$i/file.bin") ;;
        hls) [ -f "$d/c$i/movie/index.m3u8" ] && digest=$(stream_digest "$d/c$i/movie/index.m3u8" 2>/dev/null || echo WRONG) ;;
      esac
    fi
    expected=$file_sha
    [ "$content" = hls ] && expected=$hls_sha
    if [ "$digest" = "$expected" ]; then ok=$((ok + 1)); else log "  client $i: exit $(cat "$d/c$i/status"), copy WRONG: $(tail -2 "$d/c$i/err")"; fi
    rm -rf "$d/c$i/file.bin" "$d/c$i/movie" "$d/c$i/store"
  done
  rm -rf "$d/cache"
  local size=$file_size
  [ "$content" = hls ] && size=$hls_size
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$tool" "$content" "$d" "$size" "$ok" "$started" "$ended" >>"$results"
  log "  origin sent $(awk '{ s += $2 } END { print s + 0 }' "$d/origin/access.log") bytes for $size; $ok of $clients copies right"
  sync
}

for content in $contents; do
  for tool in $tools; do
    run_case "$tool" "$content"
  done
done

{
  echo "## $clients clients through nginx proxy_cache + slice: ${size_mib} MiB file, $segments-segment HLS stream"
  echo
  machine_info
  echo "- offline: $offline"
  echo "- aria2c: $(aria2c --version | head -1)"
  echo
}
python3 - "$results" "$clients" "$bench_dir/out/caching-proxy.json" <<'PY'
import json, os, statistics, sys
from timing import parse_time

results, clients, json_path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
cases = []
for row in open(results):
    tool, content, d, size, ok, started, ended = row.rstrip("\n").split("\t")
    size = int(size)
    sent, requests, statuses = 0, 0, {}
    for line in open(os.path.join(d, "origin", "access.log")):
        parts = line.split()
        # The readiness check's empty connection is logged as a 400 of no bytes.
        if len(parts) >= 3 and parts[2] != "400":
            sent += int(parts[1])
            requests += 1
            statuses[parts[2]] = statuses.get(parts[2], 0) + 1
    cache, busting = {}, 0
    for line in open(os.path.join(d, "proxy", "access.log")):
        parts = line.split()
        if len(parts) >= 6 and parts[1] != "400":
            cache[parts[3]] = cache.get(parts[3], 0) + 1
            busting += parts[4] != '"-"' or parts[5] != '"-"'
    # A request that waited proxy_cache_lock_timeout for a slice goes to the origin itself
    # and its answer is not cached (logged at the info level).
    lock_timeouts = sum(line.count("cache lock timeout") for line in open(os.path.join(d, "proxy", "error.log")))
    walls = [parse_time(os.path.join(d, f"c{i}", "time"))["wall"] for i in range(1, clients + 1)]
    cases.append({
        "tool": tool, "content": content, "size": size, "origin_bytes": sent,
        "ratio": sent / size, "origin_requests": requests, "origin_statuses": statuses,
        "proxy_cache_statuses": cache, "cache_busting_requests": busting,
        "cache_lock_timeouts": lock_timeouts,
        "copies_ok": int(ok), "clients": clients, "client_walls": walls,
        "case_wall": float(ended) - float(started),
    })
names = {"offline": "offline get", "curl": "curl", "aria2c": "aria2c -x4"}
print("| content | tool | origin bytes / size | origin requests | median client wall s | slowest s | copies right |")
print("|---|---|---:|---:|---:|---:|---|")
for c in cases:
    print(f"| {c['content']} | {names[c['tool']]} | {c['ratio']:.3f} | {c['origin_requests']} |"
          f" {statistics.median(c['client_walls']):.2f} | {max(c['client_walls']):.2f} |"
          f" {c['copies_ok']}/{c['clients']} |")
print()
for c in cases:
    print(f"- {c['content']} {names[c['tool']]}: proxy cache statuses {c['proxy_cache_statuses']},"
          f" cache lock timeouts {c['cache_lock_timeouts']},"
          f" requests with Cache-Control or Pragma: {c['cache_busting_requests']}")
print()
for c in cases:
    if c["tool"] == "offline":
        met = c["ratio"] <= 1.05 and c["copies_ok"] == c["clients"]
        print(f"- target ({c['content']}): origin <= 1.05x the content, every copy right:"
              f" {'met' if met else 'MISSED'} ({c['ratio']:.3f})")
json.dump({"cases": cases}, open(json_path, "w"), indent=2)
bad = any(c["copies_ok"] != c["clients"] for c in cases)
sys.exit(1 if bad else 0)
PY
