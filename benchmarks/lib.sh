# Shared helpers for the benchmark scripts (sourced, not run).
# Provides: ensure_tools, ensure_offline_bin, make_data_file, start_nginx, machine_info, sha256_of;
# for suite.sh also free_port, ensure_suite_tools, sha256_cached, make_small_files,
# make_hls_stream, make_aes_hls_stream, make_test_cert, start_delay_proxy, stop_delay_proxies;
# for every script open_workdir (its temporary folder, cleaned up on exit); for the mirror
# benchmarks write_metalink and keep_nginx (more than one nginx); for the kill
# benchmarks kill_again_and_again and wait_last_run; for suite.sh and counts-ab.sh
# check_media (an ffmpeg decode to the expected duration); for queue-ab.sh and
# queue-floor-parts.sh serve_small_files, timed_run and check_small_files; for those and
# suite.sh queue_run and write_curl_config.

bench_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_dir="$(cd "$bench_dir/.." && pwd)"
# The scripts' Python reports import benchmarks/timing.py.
export PYTHONPATH="$bench_dir${PYTHONPATH:+:$PYTHONPATH}"

log() { echo "$*" >&2; }

# open_workdir PREFIX -> sets $work to a fresh folder /var/tmp/PREFIX.XXXXXX and arranges
# that on exit (and on INT or TERM) a run still going ($run_pid) is killed, nginx and the
# delay proxies stop, and $work is removed.
nginx_pid=""
run_pid=""
open_workdir() {
  work=$(mktemp -d "/var/tmp/$1.XXXXXX")
  trap close_workdir EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
}

close_workdir() {
  if [ -n "${run_pid:-}" ]; then kill -9 "$run_pid" 2>/dev/null && wait "$run_pid" 2>/dev/null; fi
  stop_delay_proxies
  stop_nginx
  stop_kept_nginx
  rm -rf "$work"
}

# Installs with apt-get whatever of nginx, curl, GNU time and python3 is missing.
ensure_tools() {
  local missing=()
  [ -x /usr/sbin/nginx ] || missing+=(nginx-light)
  command -v curl >/dev/null || missing+=(curl)
  [ -x /usr/bin/time ] || missing+=(time)
  command -v python3 >/dev/null || missing+=(python3)
  apt_install "${missing[@]}"
}

# apt_install [PACKAGE...] -> installs the packages named (none: nothing), quietly, with sudo
# when not root.
apt_install() {
  [ $# -eq 0 ] && return 0
  log "Installing: $*"
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# Sets $offline to $OFFLINE_BIN, or builds the CLI in release mode into $OFFLINE_SCRATCH
# (default .build-bench).
ensure_offline_bin() {
  local scratch=${OFFLINE_SCRATCH:-.build-bench}
  if [ -n "${OFFLINE_BIN:-}" ]; then
    offline="$OFFLINE_BIN"
  else
    log "Building offline (release, --scratch-path $scratch)..."
    (cd "$repo_dir" && swift build -c release --product offline --scratch-path "$scratch" >&2)
    offline="$repo_dir/$scratch/release/offline"
  fi
  [ -x "$offline" ] || { log "no executable at $offline"; exit 2; }
}

# Sets $offline_bench to the measurement tool beside $offline (built in release mode into
# $OFFLINE_SCRATCH when it is not there).
ensure_bench_bin() {
  local scratch=${OFFLINE_SCRATCH:-.build-bench}
  offline_bench="$(dirname "$offline")/offline-bench"
  if [ ! -x "$offline_bench" ]; then
    log "Building offline-bench (release, --scratch-path $scratch)..."
    (cd "$repo_dir" && swift build -c release --product offline-bench --scratch-path "$scratch" >&2)
    offline_bench="$repo_dir/$scratch/release/offline-bench"
  fi
  [ -x "$offline_bench" ] || { log "no executable at $offline_bench"; exit 2; }
}

# make_data_file MIB -> prints the path of a cached random file of that size.
make_data_file() {
  local mib=$1 path="$bench_dir/data/random-${1}MiB.bin"
  mkdir -p "$bench_dir/data"
  if [ ! -f "$path" ] || [ "$(stat -c %s "$path")" -ne $((mib * 1024 * 1024)) ]; then
    log "Generating $path..."
    head -c $((mib * 1024 * 1024)) /dev/urandom >"$path.tmp"
    mv "$path.tmp" "$path"
  fi
  echo "$path"
}

# sha256_of FILE -> lowercase hex (hashlib uses OpenSSL, much faster than sha256sum here).
sha256_of() {
  python3 - "$1" <<'PY'
import hashlib, sys
h = hashlib.sha256()
with open(sys.argv[1], "rb") as f:
    while True:
        b = f.read(4 << 20)
        if not b:
            break
        h.update(b)
print(h.hexdigest())
PY
}

# start_nginx WORKDIR WWWROOT EXTRA_SERVER_DIRECTIVES [EXTRA_HTTP_DIRECTIVES]
# -> sets $nginx_pid and $port. Logs "$body_bytes_sent $status $msec $http_range" per request to
# WORKDIR/access.log. The optional EXTRA_HTTP_DIRECTIVES go in the http block (a second
# server, say).
start_nginx() {
  local work=$1 root=$2 extra=$3 extra_http=${4:-}
  port=$(free_port)
  local user_line=""
  [ "$(id -u)" -eq 0 ] && user_line="user root;"
  cat >"$work/nginx.conf" <<CONF
daemon off; worker_processes 1; $user_line
pid $work/nginx.pid; error_log $work/error.log;
events { worker_connections 256; }
http {
  log_format bytes '\$body_bytes_sent \$status \$msec \$http_range';
  access_log $work/access.log bytes;
  sendfile on; default_type application/octet-stream;
  client_body_temp_path $work/t1; proxy_temp_path $work/t2; fastcgi_temp_path $work/t3;
  uwsgi_temp_path $work/t4; scgi_temp_path $work/t5;
  server { listen 127.0.0.1:$port; root $root; $extra }
  $extra_http
}
CONF
  /usr/sbin/nginx -p "$work" -c "$work/nginx.conf" &
  nginx_pid=$!
  local i
  for i in $(seq 100); do
    (echo >"/dev/tcp/127.0.0.1/$port") 2>/dev/null && return 0
    kill -0 "$nginx_pid" 2>/dev/null || { cat "$work/error.log" >&2; exit 2; }
    sleep 0.05
  done
  log "nginx did not start"; cat "$work/error.log" >&2; exit 2
}

stop_nginx() {
  if [ -n "${nginx_pid:-}" ]; then
    kill -QUIT "$nginx_pid" 2>/dev/null && wait "$nginx_pid" 2>/dev/null
    nginx_pid=""
  fi
  return 0
}

# keep_nginx -> moves the nginx start_nginx just started ($nginx_pid) to those stopped at exit
# (close_workdir), so that start_nginx can start another, in another folder.
kept_nginx_pids=()
keep_nginx() {
  kept_nginx_pids+=("$nginx_pid")
  nginx_pid=""
}

stop_kept_nginx() {
  local pid
  for pid in "${kept_nginx_pids[@]}"; do kill -QUIT "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; done
  kept_nginx_pids=()
  return 0
}

# write_metalink DATA OUT SHA256 URL... -> a Metalink 4 at OUT for DATA (named file.bin): its
# size, SHA-256, the SHA-256 of each 1 MiB piece, and the URLs with priorities 1, 2, ... in
# the order given.
write_metalink() {
  python3 - "$@" <<'PY'
import hashlib, os, sys
path, out, sha, *urls = sys.argv[1:]
size = os.path.getsize(path)
piece = 1 << 20
hashes = []
with open(path, "rb") as f:
    while chunk := f.read(piece):
        hashes.append(hashlib.sha256(chunk).hexdigest())
links = "\n".join(f'    <url priority="{i + 1}">{u}</url>' for i, u in enumerate(urls))
pieces = "\n".join(f"      <hash>{h}</hash>" for h in hashes)
open(out, "w").write(f"""<?xml version="1.0" encoding="UTF-8"?>
<metalink xmlns="urn:ietf:params:xml:ns:metalink">
  <file name="file.bin">
    <size>{size}</size>
    <hash type="sha-256">{sha}</hash>
    <pieces length="{piece}" type="sha-256">
{pieces}
    </pieces>
{links}
  </file>
</metalink>
""")
PY
}

machine_info() {
  echo "- cores: $(nproc)"
  echo "- cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
  echo "- kernel: $(uname -sr)"
  echo "- curl: $(curl --version | head -1)"
  echo "- nginx: $(/usr/sbin/nginx -v 2>&1 | sed 's/^nginx version: //')"
}

# free_port -> a TCP port on 127.0.0.1 that was free a moment ago.
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Installs what suite.sh needs: apt-get nginx-light, curl, wget, aria2, ffmpeg, time, openssl,
# python3 (those missing), pip yt-dlp and matplotlib (if not importable).
ensure_suite_tools() {
  local missing=()
  [ -x /usr/sbin/nginx ] || missing+=(nginx-light)
  command -v curl >/dev/null || missing+=(curl)
  command -v wget >/dev/null || missing+=(wget)
  command -v aria2c >/dev/null || missing+=(aria2)
  command -v ffmpeg >/dev/null || missing+=(ffmpeg)
  command -v openssl >/dev/null || missing+=(openssl)
  [ -x /usr/bin/time ] || missing+=(time)
  command -v python3 >/dev/null || missing+=(python3 python3-pip)
  apt_install "${missing[@]}"
  local pips=()
  command -v yt-dlp >/dev/null || pips+=(yt-dlp)
  python3 -c 'import matplotlib' 2>/dev/null || pips+=(matplotlib)
  if [ ${#pips[@]} -gt 0 ]; then
    log "pip install: ${pips[*]}"
    python3 -m pip install -q "${pips[@]}" >&2 \
      || python3 -m pip install -q --break-system-packages "${pips[@]}" >&2
    hash -r
  fi
}

# sha256_cached FILE -> its SHA-256, kept in FILE.sha256 while that is newer than FILE.
sha256_cached() {
  local f=$1
  if [ ! -f "$f.sha256" ] || [ "$f" -nt "$f.sha256" ]; then
    sha256_of "$f" >"$f.sha256.tmp" && mv "$f.sha256.tmp" "$f.sha256"
  fi
  cat "$f.sha256"
}

# make_small_files COUNT KIB -> prints a cached folder of COUNT random files fNNNNN.bin of KIB
# KiB each, with SHA256SUMS ("hex  name" lines) beside them.
make_small_files() {
  local count=$1 kib=$2 dir="$bench_dir/data/small-${1}x${2}KiB"
  if [ ! -f "$dir/SHA256SUMS" ]; then
    log "Generating $dir..."
    rm -rf "$dir" && mkdir -p "$dir"
    python3 -c '
import hashlib, os, sys
d, n, kib = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
lines = []
for i in range(1, n + 1):
    name = f"f{i:05d}.bin"
    b = os.urandom(kib * 1024)
    open(os.path.join(d, name), "wb").write(b)
    lines.append(f"{hashlib.sha256(b).hexdigest()}  {name}\n")
open(os.path.join(d, "SHA256SUMS.tmp"), "w").writelines(lines)
os.rename(os.path.join(d, "SHA256SUMS.tmp"), os.path.join(d, "SHA256SUMS"))
' "$dir" "$count" "$kib"
  fi
  echo "$dir"
}

# serve_small_files -> the queue case's 1000 files of 100 KiB served by nginx from $work:
# sets $small (their folder), $names, $base (the URL of their folder), $port, $nginx_pid;
# writes $work/queue.txt (one URL per line) and reads the files once into the page cache.
serve_small_files() {
  small=$(make_small_files 1000 100)
  mkdir -p "$work/www"
  ln -s "$small" "$work/www/small"
  start_nginx "$work" "$work/www" ""
  base="http://127.0.0.1:$port/small"
  names=$(cd "$small" && ls f*.bin)
  for n in $names; do echo "$base/$n"; done >"$work/queue.txt"
  cat "$small"/* >/dev/null
}

# The suite's queue command, to be followed by the offline binary, a fresh store and the URL
# list: `add -i` + `run --parallel 8 --quiet`.
queue_run=(sh -c '"$1" --store "$2" add -i "$3" >/dev/null && exec "$1" --store "$2" run --parallel 8 --quiet' _)

# write_curl_config DIR URL_BASE -> DIR/curl.cfg for `curl -K`: each of $names from
# URL_BASE/NAME into DIR/files/NAME (the folder is made).
write_curl_config() {
  local d=$1 from=$2 n
  mkdir -p "$d/files"
  for n in $names; do printf 'url = "%s"\noutput = "%s"\n' "$from/$n" "$d/files/$n"; done >"$d/curl.cfg"
}

# timed_run ROUND TOOL DIR RESULTS COMMAND... -> runs COMMAND under /usr/bin/time -v (into
# DIR/time) after a `sync`, checks what it wrote under DIR (check_small_files) and appends
# "ROUND TOOL DIR/time VERDICT" to RESULTS. The tool before may have left its files in the
# page cache, dirty (curl and aria2c do not sync): written back by that `sync`, not by the
# next `syncfs`, which would charge them to whoever runs next.
timed_run() {
  local round=$1 tool=$2 d=$3 results=$4 status=0 verdict=FAILED
  shift 4
  sync
  /usr/bin/time -v -o "$d/time" "$@" >"$d/out" 2>"$d/err" </dev/null || status=$?
  [ "$status" -eq 0 ] && verdict=$(check_small_files "$d" "$small")
  printf '%s\t%s\t%s\t%s\n' "$round" "$tool" "$d/time" "$verdict" >>"$results"
  log "round $round $tool: $verdict"
}

# check_small_files FOLDER SMALL -> "ok" when the files fNNNNN.bin found anywhere under FOLDER
# are exactly those of SMALL (a make_small_files folder) by SHA-256, "WRONG" otherwise. Links
# them into a fresh folder under $work first, whatever layout the tool wrote.
check_small_files() {
  local folder=$1 small=$2 files=$work/check.$RANDOM$RANDOM
  mkdir -p "$files"
  find "$folder" -type f -name 'f*.bin' -exec ln {} "$files/" \; 2>/dev/null || true
  if (cd "$files" && sha256sum --quiet -c "$small/SHA256SUMS" >/dev/null 2>&1); then echo ok; else echo WRONG; fi
}

# make_hls_stream SEGMENTS -> prints a cached folder with index.m3u8 and SEGMENTS one-second
# H.264 segments (320x180 testsrc2, 200 kbit/s), as hls-vs-ytdlp.sh makes them.
make_hls_stream() {
  local segments=$1 stream="$bench_dir/data/hls-$1"
  if [ ! -f "$stream/index.m3u8" ]; then
    log "Encoding a $segments-segment stream..."
    rm -rf "$stream" && mkdir -p "$stream"
    ffmpeg -nostdin -v error -f lavfi -i "testsrc2=size=320x180:rate=25:duration=$segments" \
      -c:v libx264 -preset ultrafast -b:v 200k -force_key_frames 'expr:gte(t,n_forced*1)' \
      -sc_threshold 0 -f hls -hls_time 1 -hls_playlist_type vod \
      -hls_segment_filename "$stream/seg%d.ts" "$stream/index.m3u8"
  fi
  echo "$stream"
}

# make_aes_hls_stream SEGMENTS -> prints a cached folder with an AES-128 stream: the segments
# of make_hls_stream encrypted with `openssl enc -aes-128-cbc` under one key (key.bin), the
# IV left implicit (the media sequence number, RFC 8216 section 5.2); playlist written here.
make_aes_hls_stream() {
  local segments=$1 dir="$bench_dir/data/hls-aes-$1"
  if [ ! -f "$dir/index.m3u8" ]; then
    local plain key i line
    plain=$(make_hls_stream "$segments")
    log "Encrypting $segments segments (AES-128-CBC)..."
    rm -rf "$dir" && mkdir -p "$dir"
    head -c 16 /dev/urandom >"$dir/key.bin"
    key=$(od -An -tx1 "$dir/key.bin" | tr -d ' \n')
    {
      echo "#EXTM3U"
      echo "#EXT-X-VERSION:3"
      echo "#EXT-X-TARGETDURATION:$(sed -n 's/^#EXT-X-TARGETDURATION://p' "$plain/index.m3u8")"
      echo "#EXT-X-MEDIA-SEQUENCE:0"
      echo "#EXT-X-PLAYLIST-TYPE:VOD"
      echo '#EXT-X-KEY:METHOD=AES-128,URI="key.bin"'
      i=0
      while IFS= read -r line; do
        case $line in
          "#EXTINF:"*) echo "$line" ;;
          seg*.ts)
            openssl enc -aes-128-cbc -K "$key" -iv "$(printf '%032x' "$i")" \
              -in "$plain/$line" -out "$dir/enc$i.ts"
            echo "enc$i.ts"
            i=$((i + 1)) ;;
        esac
      done <"$plain/index.m3u8"
      echo "#EXT-X-ENDLIST"
    } >"$dir/index.m3u8.tmp"
    mv "$dir/index.m3u8.tmp" "$dir/index.m3u8"
  fi
  echo "$dir"
}

# make_test_cert DIR -> DIR/cert.pem and DIR/key.pem: a self-signed P-256 certificate for
# 127.0.0.1 (subjectAltName IP:127.0.0.1), valid 7 days; it is its own CA.
make_test_cert() {
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 7 \
    -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
    -keyout "$1/key.pem" -out "$1/cert.pem" 2>/dev/null
}

# start_delay_proxy WORKDIR TARGET_PORT -> sets $proxy_port: benchmarks/delay-proxy.py on
# 127.0.0.1, 20 ms each way (a 40 ms round trip) in front of 127.0.0.1:TARGET_PORT. A TCP
# proxy: TLS passes through. Appends its pid to $proxy_pids; stop_delay_proxies ends them.
proxy_pids=()
start_delay_proxy() {
  local work=$1 target=$2 i
  proxy_port=$(free_port)
  python3 "$bench_dir/delay-proxy.py" "$proxy_port" 127.0.0.1 "$target" 20 >"$work/proxy-$target.out" &
  proxy_pids+=($!)
  for i in $(seq 100); do
    grep -q listening "$work/proxy-$target.out" 2>/dev/null && return 0
    sleep 0.05
  done
  log "the delay proxy did not start"; exit 2
}

stop_delay_proxies() {
  local pid
  for pid in "${proxy_pids[@]}"; do kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; done
  proxy_pids=()
  return 0
}

# kill_again_and_again KILLS MIN_MS MAX_MS -> calls start_run (the script's: it starts the
# command in the background and sets $run_pid), then KILLS times: sleeps MIN_MS-MAX_MS ms at
# random, kills the run with SIGKILL and, when it was still going, calls after_kill K MS (if
# the script defines it) and start_run again. Stops early when a run finished before its
# kill. Sets $landed (the kills that hit a running command) and $done_early (1 or 0).
kill_again_and_again() {
  local kills=$1 min_ms=$2 max_ms=$3 k ms
  landed=0
  done_early=0
  start_run
  for k in $(seq "$kills"); do
    ms=$((min_ms + RANDOM % (max_ms - min_ms + 1)))
    sleep "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))"
    if ! kill -9 "$run_pid" 2>/dev/null; then
      done_early=1
      log "run $k finished before its kill"
      wait "$run_pid" || true
      run_pid=""
      return 0
    fi
    wait "$run_pid" 2>/dev/null || true
    run_pid=""
    landed=$((landed + 1))
    if declare -F after_kill >/dev/null; then after_kill "$k" "$ms"; fi
    start_run
  done
}

# wait_last_run -> waits up to 120 s for the run in $run_pid (if one is going) and sets
# $status to its exit status: 0 when none was going, 124 when it was still going after
# 120 s (then it is killed).
wait_last_run() {
  status=0
  [ -n "${run_pid:-}" ] || return 0
  local deadline=$(( $(date +%s) + 120 ))
  while kill -0 "$run_pid" 2>/dev/null && [ "$(date +%s)" -lt "$deadline" ]; do sleep 0.1; done
  if kill -0 "$run_pid" 2>/dev/null; then
    log "last run still going after 120 s: giving up"
    kill -9 "$run_pid" 2>/dev/null || true
    status=124
  fi
  wait "$run_pid" || status=$?
  run_pid=""
}

# check_media PATH SECONDS -> "ok <decoded s>" or "WRONG <decoded s>": decodes PATH
# (-allowed_extensions ALL for a local .m3u8) and compares the decoded duration.
check_media() {
  local target=$1 expected=$2 extra=() decoded
  [[ $target == *.m3u8 ]] && extra=(-allowed_extensions ALL)
  [ -e "$target" ] || { echo "WRONG missing"; return; }
  decoded=$(ffmpeg -nostdin -v error "${extra[@]}" -i "$target" -f null - -progress pipe:1 -nostats \
    2>"$target.decode-errors" | awk -F= '/^out_time_us=/{t=$2} END{printf "%.1f", t/1e6}') || true
  if awk -v d="${decoded:-0}" -v e="$expected" 'BEGIN{exit !(d > e - 1.5 && d < e + 1.5)}'; then
    echo "ok ${decoded}s"
  else
    echo "WRONG ${decoded:-0}s"
  fi
}

# Players reading through `offline serve` (read-through.sh, read-through-hls.sh).
# sent_bytes -> the bytes nginx's access log in $work says it sent
sent_bytes() { awk '{ s += $1 } END { print s + 0 }' "$work/access.log"; }
# first_frame URL [SEEK] -> seconds until ffmpeg decoded one frame of URL (from SEEK)
first_frame() {
  local start end
  start=$(date +%s.%N)
  local seek=()
  [ -n "${2:-}" ] && seek=(-ss "$2")
  if ! ffmpeg -v error -nostdin "${seek[@]}" -i "$1" -frames:v 1 -f null - >/dev/null \
    2>"$work/ffmpeg.err"; then
    log "ffmpeg failed on $1 ${2:-}: $(tail -3 "$work/ffmpeg.err")"
    exit 1
  fi
  end=$(date +%s.%N)
  python3 -c "print(round($end - $start, 3))"
}
# start_serve STORE LOG -> `offline serve` on a free port, answering: sets serve_port, serve_pid
start_serve() {
  serve_port=$(free_port)
  "$offline" --store "$1" serve --listen "127.0.0.1:$serve_port" --parallel 3 >"$2" 2>&1 &
  serve_pid=$!
  for _ in $(seq 100); do
    (echo >"/dev/tcp/127.0.0.1/$serve_port") 2>/dev/null && break
    sleep 0.05
  done
}
# wait_downloaded ID TRIES -> the content's state once it is downloaded, or after TRIES looks
# 50 ms apart (what it was then)
wait_downloaded() {
  local state=""
  for _ in $(seq "$2"); do
    state=$(curl -s "http://127.0.0.1:$serve_port/api/contents/$1" |
      python3 -c 'import json,sys; print(json.load(sys.stdin)["state"])' 2>/dev/null || true)
    [ "$state" = downloaded ] && break
    sleep 0.05
  done
  echo "$state"
}
