# Shared helpers for the benchmark scripts (sourced, not run).
# Provides: ensure_tools, ensure_offline_bin, make_data_file, start_nginx, machine_info, sha256_of.

bench_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_dir="$(cd "$bench_dir/.." && pwd)"

log() { echo "$*" >&2; }

# Installs with apt-get whatever of nginx, curl, GNU time and python3 is missing.
ensure_tools() {
  local missing=()
  [ -x /usr/sbin/nginx ] || missing+=(nginx-light)
  command -v curl >/dev/null || missing+=(curl)
  [ -x /usr/bin/time ] || missing+=(time)
  command -v python3 >/dev/null || missing+=(python3)
  [ ${#missing[@]} -eq 0 ] && return 0
  log "Installing: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# Sets $offline to $OFFLINE_BIN, or builds the CLI in release mode into .build-bench.
ensure_offline_bin() {
  if [ -n "${OFFLINE_BIN:-}" ]; then
    offline="$OFFLINE_BIN"
  else
    log "Building offline (release, --scratch-path .build-bench)..."
    (cd "$repo_dir" && swift build -c release --product offline --scratch-path .build-bench >&2)
    offline="$repo_dir/.build-bench/release/offline"
  fi
  [ -x "$offline" ] || { log "no executable at $offline"; exit 2; }
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

# start_nginx WORKDIR WWWROOT EXTRA_SERVER_DIRECTIVES -> sets $nginx_pid and $port.
# Logs "$body_bytes_sent $status" per request to WORKDIR/access.log.
start_nginx() {
  local work=$1 root=$2 extra=$3
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  local user_line=""
  [ "$(id -u)" -eq 0 ] && user_line="user root;"
  cat >"$work/nginx.conf" <<CONF
daemon off; worker_processes 1; $user_line
pid $work/nginx.pid; error_log $work/error.log;
events { worker_connections 64; }
http {
  log_format bytes '\$body_bytes_sent \$status';
  access_log $work/access.log bytes;
  sendfile on; default_type application/octet-stream;
  client_body_temp_path $work/t1; proxy_temp_path $work/t2; fastcgi_temp_path $work/t3;
  uwsgi_temp_path $work/t4; scgi_temp_path $work/t5;
  server { listen 127.0.0.1:$port; root $root; $extra }
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

machine_info() {
  echo "- cores: $(nproc)"
  echo "- cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
  echo "- kernel: $(uname -sr)"
  echo "- curl: $(curl --version | head -1)"
  echo "- nginx: $(/usr/sbin/nginx -v 2>&1 | sed 's/^nginx version: //')"
}
