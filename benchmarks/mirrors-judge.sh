#!/usr/bin/env bash
# Issue 43's judge, literally: three local mirrors of one file (one at a tenth of the others'
# speed, one that corrupts one piece, one that answers 404 halfway through) and a Metalink
# with piece hashes.
#
# Usage: benchmarks/mirrors-judge.sh [SIZE_MIB=1024] [ROUNDS=3] [RATE=40m] [RUNS=20]
# Env:   OFFLINE_BIN=path/to/offline (else built with --scratch-path .build-bench)
#        H_TRIGGER=all|own   H's 404s start once half the file's bytes have been sent by the
#                            three mirrors together (all: halfway through the download, the
#                            default) or by H itself (own: H may never get there)
#        BAD_PIECE=N         the piece C corrupts (default SIZE_MIB/8 + 1: inside the first
#                            request offline sends C in our runs, so the corruption is met;
#                            the report says who sent the corrupt byte in each run; "none":
#                            C serves the right file, to see what the corruption costs)
#        SEED=N              for the kill moments
#
# Four nginx on loopback, each its own process and access log (`judge` format: bytes sent,
# status, end time, request time, range):
#   S  the file at RATE/10 per connection (limit_rate)
#   C  at RATE: a real copy of the file with one byte changed in piece BAD_PIECE
#   H  at RATE: the file, until a watcher (mirrors-judge.py watch) sees half the file's bytes
#      sent in /proc/<worker>/io and renames it away: nginx answers 404 from then on (a
#      request already going goes on from its open file); put back before every run
#   B  at RATE: the file, only for "best mirror alone"
# The Metalink (SHA-256, 1 MiB SHA-256 pieces) lists S, C, H in that order (S first, so
# priority cannot skip it). Timed rounds, interleaved:
#   best-alone   offline get B --sha256 SHA
#   mirrors      offline get file.meta4 --json
#   aria2c       aria2c -M file.meta4 (--split 8, --max-connection-per-server 4), under
#                `timeout` (10x best-alone, at least 60 s): an anchor, whatever it does
# then RUNS runs of `offline get file.meta4`, every other one killed with SIGKILL at a
# random moment between 20 % and 80 % of the wall time of the run before it (the load
# moves; the mirrors' median for the first) and run again to the end. Every output's SHA-256 is checked outside the timed part; after every run the logs
# give each mirror's bytes and the 1 MiB pieces sent more than once across mirrors (whole
# pieces, and bytes within others: a cut request's overshoot), and for a killed run what the
# second command asked again of what the first had been sent. Prints a Markdown report and
# writes benchmarks/out/mirrors-judge.json.
set -euo pipefail
size_mib=${1:-1024}
rounds=${2:-3}
rate=${3:-40m}
runs=${4:-20}
source "$(dirname "$0")/lib.sh"
helper="$bench_dir/mirrors-judge.py"
trigger=${H_TRIGGER:-all}
RANDOM=${SEED:-$$}

ensure_tools
command -v aria2c >/dev/null || apt_install aria2
ensure_offline_bin
data=$(make_data_file "$size_mib")
size=$((size_mib * 1024 * 1024))
bad_piece=${BAD_PIECE:-$((size_mib / 8 + 1))}
corrupt=1
[ "$bad_piece" = none ] && { corrupt=0; bad_piece=$((size_mib / 8 + 1)); }
bad_offset=$((bad_piece * 1048576 + 12345))
log "Hashing the source..."
sha=$(sha256_of "$data")

open_workdir offline-mirrors-judge
mkdir -p "$work/runs" "$bench_dir/out"
slow_rate=$(python3 -c "import sys; r=sys.argv[1]; u={'k':1,'m':1024,'g':1<<20}[r[-1].lower()]; print(str(max(1, int(float(r[:-1]) * u / 10))) + 'k')" "$rate")

log "Copying the file for C and changing byte $bad_offset (piece $bad_piece) unless BAD_PIECE=none..."
mkdir -p "$work/C/www"
cp "$data" "$work/C/www/file.bin"
[ "$corrupt" -eq 0 ] || python3 - "$work/C/www/file.bin" "$bad_offset" <<'PY'
import sys
with open(sys.argv[1], "r+b") as f:
    f.seek(int(sys.argv[2]))
    b = f.read(1)
    f.seek(int(sys.argv[2]))
    f.write(bytes([b[0] ^ 0xFF]))
PY

# serve NAME RATE -> an nginx of its own for mirror NAME from $work/NAME/www (the file
# hard-linked there unless it is there already); sets ${NAME}_port, ${NAME}_pid.
serve() {
  local name=$1 r=$2
  mkdir -p "$work/$name/www"
  [ -e "$work/$name/www/file.bin" ] || ln "$data" "$work/$name/www/file.bin" 2>/dev/null \
    || cp "$data" "$work/$name/www/file.bin"
  : >"$work/$name/judge.log"
  local p
  p=$(free_port)
  # start_nginx's own server is not used: a log format must come before the server using it
  start_nginx "$work/$name" "$work/$name/www" "return 404;" \
    "log_format judge '\$body_bytes_sent \$status \$msec \$request_time \$http_range';
  server { listen 127.0.0.1:$p; root $work/$name/www; limit_rate $r;
    access_log $work/$name/judge.log judge; }"
  printf -v "${name}_port" %s "$p"
  printf -v "${name}_pid" %s "$nginx_pid"
  keep_nginx
}
serve S "$slow_rate"
serve C "$rate"
serve H "$rate"
serve B "$rate"
url() { echo "http://127.0.0.1:$1/file.bin"; }
ports="S=$S_port,C=$C_port,H=$H_port"
cat "$data" "$work/C/www/file.bin" >/dev/null

log "Writing the Metalink (S, C, H; 1 MiB SHA-256 pieces)..."
write_metalink "$data" "$work/file.meta4" "$sha" "$(url "$S_port")" "$(url "$C_port")" "$(url "$H_port")"

results="$work/results.jsonl"
: >"$results"
watch_pid=""
stop_watch() {
  if [ -n "$watch_pid" ]; then kill "$watch_pid" 2>/dev/null; wait "$watch_pid" 2>/dev/null || true; fi
  watch_pid=""
}
trap 'stop_watch; close_workdir' EXIT

# start_watch -> H's file back in place and the watcher started (H_TRIGGER's nginx).
start_watch() {
  stop_watch
  [ -e "$work/H/www/file.bin.away" ] && mv "$work/H/www/file.bin.away" "$work/H/www/file.bin"
  rm -f "$work/watch" "$work/watch.ready"
  local pids=("$H_pid")
  [ "$trigger" = all ] && pids=("$S_pid" "$C_pid" "$H_pid")
  python3 "$helper" watch "$work/H/www/file.bin" "$work/H/www/file.bin.away" $((size / 2)) \
    "$work/watch" "${pids[@]}" &
  watch_pid=$!
  local i
  for i in $(seq 600); do [ -e "$work/watch.ready" ] && break; sleep 0.05; done
}

# marks -> "S:LOG:OFFSET,C:...,H:..." for the logs as they are now (a run's requests follow).
marks() {
  local n out=""
  for n in S C H; do out+="$n:$work/$n/judge.log:$(stat -c %s "$work/$n/judge.log"),"; done
  echo "${out%,}"
}
load1() { cut -d' ' -f1 /proc/loadavg; }

# fresh -> an empty output folder and store for the next run, the last one's written back.
fresh() {
  rm -rf "$work/runs/out" "$work/runs/store"
  mkdir -p "$work/runs/out"
  sync
}

# timed CASE ROUND OUTPUT COMMAND... -> runs COMMAND under /usr/bin/time, checks OUTPUT's
# SHA-256 after, and records the run with what the mirrors' logs say of it.
timed() {
  local name=$1 round=$2 output=$3; shift 3
  local tfile="$work/runs/time-$name-$round.txt" status=0 ok=0 m load
  m=$(marks)
  load=$(load1)
  [ "$name" = best-alone ] || start_watch
  /usr/bin/time -v -o "$tfile" "$@" >"$work/runs/out-$name-$round.json" \
    2>"$work/runs/err-$name-$round.txt" || status=$?
  stop_watch
  [ -f "$output" ] && [ "$(sha256_of "$output")" = "$sha" ] && ok=1
  python3 "$helper" record "$results" "$name" "$round" "time=$tfile" "exit=$status" "sha_ok=$ok" \
    "size=$size" "bad_offset=$bad_offset" "logs=$([ "$name" = best-alone ] || echo "$m")" \
    "watch=$work/watch" "json=$work/runs/out-$name-$round.json" "load=$load" "ports=$ports"
  log "  $name round $round: exit $status, sha256 $([ $ok -eq 1 ] && echo ok || echo WRONG), load $load"
}

get_meta=("$offline" --store "$work/runs/store" get "$work/file.meta4" -o "$work/runs/out/file.bin" --json)
for round in $(seq "$rounds"); do
  log "Round $round of $rounds"
  fresh
  timed best-alone "$round" "$work/runs/out/best.bin" \
    "$offline" --store "$work/runs/store" get "$(url "$B_port")" -o "$work/runs/out/best.bin" \
    --sha256 "$sha" --quiet
  best=$(python3 -c "from timing import parse_time; import sys; print(parse_time(sys.argv[1])['wall'])" \
    "$work/runs/time-best-alone-$round.txt")
  fresh
  timed mirrors "$round" "$work/runs/out/file.bin" "${get_meta[@]}"
  fresh
  timed aria2c "$round" "$work/runs/out/file.bin" \
    timeout "$(python3 -c "print(max(60, round(10 * $best)))")" \
    aria2c -M "$work/file.meta4" -d "$work/runs/out" --split 8 --max-connection-per-server 4 \
    --file-allocation=none --allow-overwrite=true --auto-file-renaming=false \
    --console-log-level warn --summary-interval 0
done
fresh

# The first kill moment: 20-80 % of the mirrors' median wall (of the first run's, with no rounds).
expected=$(python3 -c "
import json, statistics, sys
w = [json.loads(l)['wall'] for l in open(sys.argv[1]) if json.loads(l)['case'] == 'mirrors']
print(statistics.median(w) if w else 0)" "$results")

for run in $(seq "$runs"); do
  fresh
  m=$(marks)
  load=$(load1)
  start_watch
  status=0 extra=()
  start=$(date +%s.%N)
  if [ $((run % 2)) -eq 0 ] && python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) > 0 else 1)" "$expected"; then
    ms=$(python3 -c "import random, sys; random.seed(int(sys.argv[2])); print(round(float(sys.argv[1]) * 1000 * random.uniform(0.2, 0.8)))" "$expected" "$RANDOM")
    "${get_meta[@]}" >"$work/runs/kill-$run.json" 2>"$work/runs/kill-$run.err" </dev/null &
    run_pid=$!
    sleep "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))"
    if kill -9 "$run_pid" 2>/dev/null; then
      wait "$run_pid" 2>/dev/null || true
      run_pid=""
      restart=$(date +%s.%N)
      extra=("killed_at=$restart" "kill_ms=$ms" "restart_at=$restart")
      timeout 600 "${get_meta[@]}" >"$work/runs/run-$run.json" 2>"$work/runs/run-$run.err" </dev/null || status=$?
      log "run $run: killed at $ms ms, then exit $status"
    else
      wait "$run_pid" || status=$?
      run_pid=""
      cp "$work/runs/kill-$run.json" "$work/runs/run-$run.json"
      extra=("note=finished before its kill at $ms ms")
      log "run $run: finished before its kill at $ms ms"
    fi
  else
    timeout 600 "${get_meta[@]}" >"$work/runs/run-$run.json" 2>"$work/runs/run-$run.err" </dev/null || status=$?
    log "run $run: exit $status"
  fi
  wall=$(python3 -c "import sys; print(round(float(sys.argv[2]) - float(sys.argv[1]), 3))" "$start" "$(date +%s.%N)")
  stop_watch
  ok=0
  [ -f "$work/runs/out/file.bin" ] && [ "$(sha256_of "$work/runs/out/file.bin")" = "$sha" ] && ok=1
  [ "$ok" -eq 1 ] || { log "run $run: WRONG file or none; stderr:"; tail -5 "$work/runs/run-$run.err" >&2 || true; }
  # the next kill is timed from this run's wall when it went whole (the load moves)
  [ ${#extra[@]} -gt 0 ] || [ "$status" -ne 0 ] || expected=$wall
  python3 "$helper" record "$results" correctness "$run" "wall=$wall" "exit=$status" "sha_ok=$ok" \
    "size=$size" "bad_offset=$bad_offset" "logs=$m" "watch=$work/watch" \
    "json=$work/runs/run-$run.json" "load=$load" "ports=$ports" "${extra[@]}"
done

{
  echo "## Mirrors, the judge's setup: ${size_mib} MiB, S at $slow_rate, C and H at $rate per connection, $rounds rounds, $runs runs"
  echo
  machine_info
  echo "- offline: $offline"
  echo "- aria2c: $(aria2c --version | head -1)"
  echo "- H's 404s from half the file sent by: $([ "$trigger" = all ] && echo "the three mirrors" || echo "H")"
  [ "$corrupt" -eq 1 ] || echo "- BAD_PIECE=none: C serves the right file (no corrupt piece)"
  echo "- load at the end: $(uptime | sed 's/.*load average: //')"
  echo
}
python3 "$helper" report "$results" "$bench_dir/out/mirrors-judge.json" "$size" \
  "$([ "$corrupt" -eq 1 ] && echo "$bad_piece" || echo none)"
cp "$results" "$bench_dir/out/mirrors-judge-runs.jsonl"
rm -rf "$bench_dir/out/mirrors-judge-logs"
mkdir -p "$bench_dir/out/mirrors-judge-logs"
for n in S C H; do cp "$work/$n/judge.log" "$bench_dir/out/mirrors-judge-logs/$n.log"; done
cp "$work/runs/"*.json "$work/runs/"*.err "$work/runs/"*.txt "$bench_dir/out/mirrors-judge-logs/" 2>/dev/null || true
