#!/usr/bin/env bash
# Throughput of `offline get` against `curl` on loopback, from a local nginx.
#
# Usage: benchmarks/get-vs-curl.sh [SIZE_MIB=1024] [ROUNDS=3]
# Env:   OFFLINE_BIN=path/to/offline (else built with --scratch-path .build-bench)
#        COMPARE_BINS="LABEL=path ...": other builds of offline, each run as tools LABEL and
#          LABEL-sha256 in the same rounds, so a change is measured against what it replaces
#          in one run (the machine's load drifts too much between runs)
#        OFFLINE_ARGS="--connections 1": extra arguments for every offline get (here: keep
#          one connection, so a loaded machine cannot make the adaptive choice switch)
#        GET_TOOLS="offline curl ...": the tools to run, in this order (default: all; curl and
#          offline must be among them)
#
# Each round runs, interleaved, each tool once under /usr/bin/time -v with a fresh store and
# output path: offline, curl, offline --sha256, curl + fdatasync (sync -d, a reference for the
# fdatasync offline does before renaming). Every output's SHA-256 is checked outside the timed
# part, then the output is deleted. Prints a Markdown table; writes benchmarks/out/get-vs-curl.json.
set -euo pipefail
size_mib=${1:-1024}
rounds=${2:-3}
source "$(dirname "$0")/lib.sh"

ensure_tools
ensure_offline_bin
data=$(make_data_file "$size_mib")
log "Hashing source..."
sha=$(sha256_of "$data")

open_workdir offline-bench

mkdir -p "$work/www" "$work/runs" "$bench_dir/out"
ln "$data" "$work/www/file.bin" 2>/dev/null || ln -s "$data" "$work/www/file.bin"
start_nginx "$work" "$work/www" ""
url="http://127.0.0.1:$port/file.bin"
# Warm the page cache with the source so every run reads it from memory.
cat "$data" >/dev/null

results="$work/results.tsv"
: >"$results"

# run_one TOOL ROUND -> appends "tool round timefile exit sha_ok" to results.
run_one() {
  local tool=$1 round=$2 n=$3
  local store="$work/runs/store-$n" out="$work/runs/out-$n.bin" tfile="$work/runs/time-$n.txt"
  rm -rf "$store" "$out" "$out.part"
  local status=0
  local extra=()
  [ -n "${OFFLINE_ARGS:-}" ] && read -r -a extra <<<"$OFFLINE_ARGS"
  case $tool in
    offline) /usr/bin/time -v -o "$tfile" "$offline" --store "$store" get "$url" -o "$out" --quiet ${extra[@]+"${extra[@]}"} || status=$? ;;
    offline-sha256) /usr/bin/time -v -o "$tfile" "$offline" --store "$store" get "$url" -o "$out" --sha256 "$sha" --quiet ${extra[@]+"${extra[@]}"} || status=$? ;;
    curl) /usr/bin/time -v -o "$tfile" curl -s -o "$out" "$url" || status=$? ;;
    curl-sync) /usr/bin/time -v -o "$tfile" sh -c 'curl -s -o "$2" "$1" && sync -d "$2"' _ "$url" "$out" || status=$? ;;
    *)
      local label=${tool%-sha256} bin=${compare_bin[${tool%-sha256}]}
      if [ "$tool" = "$label" ]; then
        /usr/bin/time -v -o "$tfile" "$bin" --store "$store" get "$url" -o "$out" --quiet ${extra[@]+"${extra[@]}"} || status=$?
      else
        /usr/bin/time -v -o "$tfile" "$bin" --store "$store" get "$url" -o "$out" --sha256 "$sha" --quiet ${extra[@]+"${extra[@]}"} || status=$?
      fi ;;
  esac
  local ok=0
  if [ "$status" -eq 0 ] && [ -f "$out" ] && [ "$(sha256_of "$out")" = "$sha" ]; then ok=1; fi
  printf '%s\t%s\t%s\t%s\t%s\n' "$tool" "$round" "$tfile" "$status" "$ok" >>"$results"
  rm -rf "$store" "$out" "$out.part"
  sync  # write back this run's dirty pages before the next run starts
  log "  round $round $tool: exit $status, sha256 $([ $ok -eq 1 ] && echo ok || echo WRONG)"
}

declare -A compare_bin=()
compare_labels=()
for pair in ${COMPARE_BINS:-}; do
  label=${pair%%=*} bin=${pair#*=}
  [ -x "$bin" ] || { log "no executable at $bin (COMPARE_BINS)"; exit 2; }
  case $label in offline|curl|curl-sync|*-sha256|"") log "COMPARE_BINS: bad label $label"; exit 2 ;; esac
  compare_bin[$label]=$bin
  compare_labels+=("$label")
done
tools=(offline ${compare_labels[@]+"${compare_labels[@]}"} curl offline-sha256)
for label in ${compare_labels[@]+"${compare_labels[@]}"}; do tools+=("$label-sha256"); done
tools+=(curl-sync)
if [ -n "${GET_TOOLS:-}" ]; then read -r -a tools <<<"$GET_TOOLS"; fi
n=0
for round in $(seq "$rounds"); do
  log "Round $round/$rounds"
  for tool in "${tools[@]}"; do
    n=$((n + 1))
    run_one "$tool" "$round" "$n"
  done
done

{
  echo "## offline get vs curl: ${size_mib} MiB over loopback from nginx, ${rounds} rounds (medians)"
  echo
  machine_info
  echo "- offline: $offline ${OFFLINE_ARGS:-}"
  for label in ${compare_labels[@]+"${compare_labels[@]}"}; do echo "- $label: ${compare_bin[$label]}"; done
  echo
} 
COMPARE_LABELS="${compare_labels[*]+"${compare_labels[*]}"}" \
python3 - "$results" "$size_mib" "$rounds" "$bench_dir/out/get-vs-curl.json" <<'PY'
import json, os, platform, statistics, subprocess, sys

results, size_mib, rounds, json_path = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]

from timing import parse_time

runs = []
for row in open(results):
    tool, rnd, tfile, status, ok = row.rstrip("\n").split("\t")
    r = {"tool": tool, "round": int(rnd), "exit": int(status), "sha256_ok": ok == "1"}
    r.update(parse_time(tfile))
    runs.append(r)

compared = os.environ.get("COMPARE_LABELS", "").split()
order = (["curl", "offline"] + compared + ["offline-sha256"] + [c + "-sha256" for c in compared]
         + ["curl-sync"])
labels = {
    "curl": "curl -s -o OUT URL",
    "offline": "offline get URL -o OUT --quiet",
    "offline-sha256": "offline get ... --sha256 HEX",
    "curl-sync": "curl + sync -d OUT (reference)",
}
for c in compared:
    labels[c] = f"{c}: get URL -o OUT --quiet"
    labels[c + "-sha256"] = f"{c}: get ... --sha256 HEX"
med = {}
for t in order:
    rs = [r for r in runs if r["tool"] == t]
    if not rs:
        continue
    med[t] = {
        k: statistics.median(r[k] for r in rs) for k in ("wall", "user", "sys", "cpu", "rss_kib")
    }
    med[t]["all_ok"] = all(r["sha256_ok"] and r["exit"] == 0 for r in rs)
    med[t]["mb_per_s"] = size_mib * 1048576 / med[t]["wall"] / 1e6

base = med["curl"]
print("| tool | wall s | MB/s | user s | sys s | CPU s | peak RSS MiB | wall / curl | CPU / curl | SHA-256 |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
for t in order:
    if t not in med:
        continue
    m = med[t]
    m["wall_ratio"] = m["wall"] / base["wall"]
    m["cpu_ratio"] = m["cpu"] / base["cpu"] if base["cpu"] else None
    print(f"| {labels[t]} | {m['wall']:.2f} | {m['mb_per_s']:.0f} | {m['user']:.2f} | {m['sys']:.2f} | "
          f"{m['cpu']:.2f} | {m['rss_kib']/1024:.1f} | {m['wall_ratio']:.2f}x | "
          f"{m['cpu_ratio']:.2f}x | {'ok' if m['all_ok'] else 'WRONG'} |")
print()
print("Per run (wall s / CPU s / RSS MiB):")
for t in order:
    rs = [r for r in runs if r["tool"] == t]
    if rs:
        print(f"- {t}: " + ", ".join(f"{r['wall']:.2f}/{r['cpu']:.2f}/{r['rss_kib']/1024:.0f}" for r in rs))

o = med["offline"]
targets = {
    "wall_within_1.1x": o["wall_ratio"] <= 1.1,
    "cpu_within_1.5x": o["cpu_ratio"] <= 1.5,
    "rss_under_64MiB": o["rss_kib"] / 1024 < 64,
}
print()
print("Targets (offline vs curl): " + ", ".join(f"{k} {'met' if v else 'MISSED'}" for k, v in targets.items()))

json.dump({
    "size_mib": size_mib, "rounds": rounds,
    "machine": {
        "nproc": int(subprocess.check_output(["nproc"]).strip()),
        "cpu": next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), None),
        "kernel": platform.release(),
        "curl": subprocess.check_output(["curl", "--version"], text=True).splitlines()[0],
    },
    "medians": med, "runs": runs, "targets": targets,
}, open(json_path, "w"), indent=2)
print(f"\nJSON: {json_path}")
all_ok = all(r["sha256_ok"] and r["exit"] == 0 for r in runs)
sys.exit(0 if all_ok else 1)
PY
