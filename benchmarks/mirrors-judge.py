"""The parts of mirrors-judge.sh that are easier in Python than in bash.

  watch AWAY_FROM AWAY_TO HALF STATUS PID...
      Mirror H's 404 halfway through: polls the bytes the nginx masters PID... have had their
      workers write (`wchar` in /proc/<worker>/io: sendfile counts there as it fills the
      socket, unlike the access log, which has a line only when a request ends) and, once
      they reach HALF bytes more than when it started, renames AWAY_FROM to AWAY_TO (from
      then on H's nginx answers 404; a request already going goes on from its open file) and
      writes "<unix time> <bytes>" to STATUS. Runs until killed.
  record RESULTS CASE ROUND KEY=VALUE...
      Appends one run to RESULTS (JSON lines): its time file, exit, SHA-256 verdict, the
      mirrors' access logs from the offsets the run started at (per mirror: bytes, requests,
      404s; across mirrors: the 1 MiB pieces sent more than once, whole and partial), the
      watcher's status, offline's `--json` sources, and for a killed run what was asked
      again after the kill.
  report RESULTS JSON_OUT SIZE BAD_PIECE
      Prints the Markdown tables and writes the JSON summary.

Access log lines (the `judge` format mirrors-judge.sh gives nginx):
  $body_bytes_sent $status $msec $request_time $http_range
"""
import json
import os
import statistics
import sys
import time

PIECE = 1 << 20
SETTLED = 2.0


def worker_pids(master):
    try:
        with open(f"/proc/{master}/task/{master}/children") as f:
            return [int(p) for p in f.read().split()]
    except OSError:
        return []


def written(masters):
    total = 0
    for m in masters:
        for w in worker_pids(m):
            try:
                with open(f"/proc/{w}/io") as f:
                    for line in f:
                        if line.startswith("wchar:"):
                            total += int(line.split()[1])
            except OSError:
                pass
    return total


def watch(away_from, away_to, half, status, *masters):
    masters = [int(m) for m in masters]
    start = written(masters)
    with open(status + ".ready", "w") as f:
        f.write(f"{start}\n")
    while True:
        sent = written(masters) - start
        if sent >= int(half):
            os.rename(away_from, away_to)
            with open(status, "w") as f:
                f.write(f"{time.time():.3f} {sent}\n")
            break
        time.sleep(0.01)
    while True:
        time.sleep(60)


def requests(path, offset):
    """(start time, end time, first byte, bytes, status) of each request logged in PATH
    after byte OFFSET."""
    out = []
    with open(path) as f:
        f.seek(offset)
        for line in f:
            p = line.split()
            if len(p) < 5:
                continue
            sent, status, end, took, rng = int(p[0]), int(p[1]), float(p[2]), float(p[3]), p[4]
            first = 0
            if rng != "-" and status == 206:
                first = int(rng.split("=", 1)[1].split("-", 1)[0])
            out.append((end - took, end, first, sent, status))
    return out


def twice(spans, size):
    """From SPANS (first byte, end) of all mirrors: the pieces every byte of which was sent
    more than once, and the bytes sent more than once within the other pieces ({piece:
    bytes})."""
    by_piece = {}
    for a, b in spans:
        for p in range(a // PIECE, (max(a, b - 1)) // PIECE + 1):
            lo, hi = max(a, p * PIECE), min(b, (p + 1) * PIECE, size)
            if hi > lo:
                by_piece.setdefault(p, []).append((lo, hi))
    whole, partial = [], {}
    for p, ivs in sorted(by_piece.items()):
        events = sorted([(a, 1) for a, _ in ivs] + [(b, -1) for _, b in ivs])
        depth, last, extra = 0, None, 0
        for x, d in events:
            if depth >= 2 and last is not None:
                extra += x - last
            depth += d
            last = x
        length = min((p + 1) * PIECE, size) - p * PIECE
        if extra >= length:
            whole.append(p)
        elif extra > 0:
            partial[p] = extra
    return whole, partial


def union(spans):
    merged = []
    for a, b in sorted(spans):
        if merged and a <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    return merged


def intersect(xs, ys):
    """The spans both merged lists XS and YS cover."""
    out = []
    for a, b in xs:
        for c, d in ys:
            if min(b, d) > max(a, c):
                out.append((max(a, c), min(b, d)))
    return out


def offline_sources(path):
    if not path or not os.path.exists(path):
        return None
    found = None
    for line in open(path):
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if isinstance(event, dict) and "sources" in event:
            found = event["sources"]
    return found


def record(results, case, rnd, *pairs):
    from timing import parse_time

    kv = dict(p.split("=", 1) for p in pairs)
    size, bad = int(kv["size"]), int(kv["bad_offset"])
    r = {"case": case, "round": rnd, "exit": int(kv["exit"]), "sha256_ok": kv["sha_ok"] == "1"}
    if kv.get("time"):
        r.update(parse_time(kv["time"]))
    if kv.get("wall"):
        r["wall"] = float(kv["wall"])
    for k in ("load", "killed_at", "kill_ms", "note"):
        if kv.get(k):
            r[k] = kv[k]
    mirrors, spans, before, after = {}, [], [], []
    restart = float(kv["restart_at"]) if kv.get("restart_at") else None
    bad_served_by = []
    settled = []  # spans of the first command's requests that ended SETTLED s before its kill
    for item in kv.get("logs", "").split(","):
        if not item:
            continue
        name, path, offset = item.split(":")
        reqs = requests(path, int(offset))
        ok = [q for q in reqs if q[4] in (200, 206)]
        mirrors[name] = {
            "bytes": sum(q[3] for q in ok),
            "requests": len(reqs),
            "404s": sum(1 for q in reqs if q[4] == 404),
            "other": sorted({q[4] for q in reqs} - {200, 206, 404}),
        }
        for q in ok:
            span = (q[2], q[2] + q[3])
            spans.append(span)
            if span[0] <= bad < span[1]:
                bad_served_by.append(name)
            if restart is not None and q[3] > 1:  # not the one-byte probes (bytes=0-0)
                (after if q[0] >= restart else before).append(span)
                if q[0] < restart and q[1] <= restart - SETTLED:
                    settled.append(span)
    whole, partial = twice(spans, size)
    r.update(mirrors=mirrors, sent=sum(m["bytes"] for m in mirrors.values()),
             whole_twice=whole, partial_twice=partial,
             partial_twice_bytes=sum(partial.values()), bad_piece=bad // PIECE,
             bad_byte_sent_by=bad_served_by)
    if restart is not None:
        again = intersect(union(after), union(before))
        per_piece = {}
        for a, b in again:
            for x in range(a // PIECE, (b - 1) // PIECE + 1):
                per_piece[x] = per_piece.get(x, 0) + min(b, (x + 1) * PIECE) - max(a, x * PIECE)
        whole = [x for x, n in sorted(per_piece.items()) if n >= min((x + 1) * PIECE, size) - x * PIECE]
        w_after, p_after = twice(after, size)
        r["after_kill"] = {
            "asked_again_bytes": sum(per_piece.values()),
            "bytes_before": sum(b - a for a, b in before),
            "bytes_after": sum(b - a for a, b in after),
            # what the second command was sent of what the first had been sent: whole
            # pieces, and bytes in others (the first's were counted by nginx as they went
            # into the socket, so a request cut by the kill shows bytes never read)
            "whole_pieces_again": whole,
            "partial_bytes_again": sum(n for x, n in per_piece.items() if x not in whole),
            # sent twice within the second command alone (its own cut requests)
            "second_command_twice": {"whole": w_after, "partial_bytes": sum(p_after.values())},
            # pieces asked again that a request ended SETTLED s before the kill had sent
            # whole: the store checkpoints every second, so those were most likely kept
            "settled_pieces_again": sorted(
                x for x in per_piece
                if any(a <= x * PIECE and min((x + 1) * PIECE, size) <= b for a, b in settled)),
        }
    if kv.get("watch") and os.path.exists(kv["watch"]):
        t, sent = open(kv["watch"]).read().split()
        r["h_404_at"] = {"time": float(t), "sent_by_watched": int(sent)}
    else:
        r["h_404_at"] = None
    src = offline_sources(kv.get("json"))
    if src is not None:
        r["offline_sources"] = src
        # what the client took from each mirror (by port), and beyond the file's size
        ports = dict(p.split("=") for p in kv.get("ports", "").split(",") if p)
        for name, port in ports.items():
            for s in src:
                if f":{port}/" in s["url"] and name in mirrors:
                    mirrors[name]["client_bytes"] = s["bytes"]
                    mirrors[name]["client_bad_pieces"] = s.get("badPieces", 0)
                    mirrors[name]["dropped"] = s.get("dropped")
        if restart is None:  # a killed run's second command tells only its own bytes
            r["client_took_twice"] = sum(s["bytes"] for s in src) - size
    with open(results, "a") as f:
        f.write(json.dumps(r) + "\n")


def by(names):
    """"C x3, S" for ["C", "C", "S", "C"]."""
    if not names:
        return "-"
    return ", ".join(n if names.count(n) == 1 else f"{n} x{names.count(n)}"
                     for n in sorted(set(names)))


def mib(b):
    return f"{b / 1048576:.1f}"


def report(results, json_out, size, bad_piece):
    size, corrupt = int(size), bad_piece != "none"
    bad_piece = int(bad_piece) if corrupt else None
    runs = [json.loads(line) for line in open(results)]
    timed = [r for r in runs if r["case"] in ("best-alone", "mirrors", "aria2c")]
    median = {}
    for case in ("best-alone", "mirrors", "aria2c"):
        walls = [r["wall"] for r in timed if r["case"] == case and "wall" in r]
        median[case] = statistics.median(walls) if walls else None
    out = {"median_wall": median, "runs": runs}
    if timed:
        print("### Timed rounds")
        print()
        print("| case | median wall s | rounds (s) | exits | SHA-256 | load (1 min) |")
        print("|---|---:|---|---|---|---|")
        for case in ("best-alone", "mirrors", "aria2c"):
            rows = [r for r in timed if r["case"] == case]
            if not rows:
                continue
            walls = ", ".join(f"{r['wall']:.2f}" for r in rows)
            exits = ", ".join(str(r["exit"]) for r in rows)
            ok = "ok" if all(r["sha256_ok"] for r in rows) else "WRONG " + ", ".join(
                "ok" if r["sha256_ok"] else "bad" for r in rows)
            loads = ", ".join(r.get("load", "?") for r in rows)
            print(f"| {case} | {median[case]:.2f} | {walls} | {exits} | {ok} | {loads} |")
        print()
        if median["mirrors"] and median["best-alone"]:
            ratio = median["mirrors"] / median["best-alone"]
            out["mirrors_over_best"] = ratio
            print(f"- mirrors / best-alone: {ratio:.3f} (target ≤ 1.05: "
                  f"{'met' if ratio <= 1.05 else 'MISSED'})")
        if median["mirrors"] and median["aria2c"]:
            out["mirrors_over_aria2c"] = median["mirrors"] / median["aria2c"]
            print(f"- mirrors / aria2c -M: {out['mirrors_over_aria2c']:.3f}")
        print()
    print("### What the mirrors sent, per run (from their access logs)")
    print()
    print(f"File {mib(size)} MiB; the corrupt piece is "
          f"{f'{bad_piece} (mirror C)' if corrupt else 'none (BAD_PIECE=none)'}. Sent twice = "
          "bytes sent more than once across mirrors: whole 1 MiB pieces, then bytes within "
          "other pieces (a cut request's overshoot; 1 B is byte 0, which each mirror's probe, "
          "`bytes=0-0`, sends).")
    print()
    print("S, C, H: MiB nginx sent (MiB offline says it took, for a killed run in its second "
          "command only); 'took twice': bytes offline took beyond the file's size.")
    print()
    print("| run | exit | SHA-256 | wall s | S | C | H (404s) | H 404 from | "
          "bad byte sent by | whole pieces sent twice | partial bytes sent twice | took twice | after a kill |")
    print("|---|---|---|---:|---|---|---|---|---|---|---:|---:|---|")
    verdicts = []
    for r in runs:
        if r["case"] == "best-alone":
            continue
        m = r["mirrors"]
        h = r["h_404_at"]
        h404 = f"{mib(h['sent_by_watched'])} MiB sent" if h else "never"
        kill = "-"
        if "after_kill" in r:
            k = r["after_kill"]
            kill = (f"killed at {r.get('kill_ms', '?')} ms: {mib(k['asked_again_bytes'])} MiB asked "
                    f"again, whole pieces {k['whole_pieces_again'] or 'none'}, partial "
                    f"{k['partial_bytes_again']} B; of those pieces, sent whole ≥ {SETTLED:.0f} s "
                    f"before the kill: {k['settled_pieces_again'] or 'none'}; sent twice by the "
                    f"second command alone: {k['second_command_twice']['whole'] or 'none'}, "
                    f"{k['second_command_twice']['partial_bytes']} B")
        elif r.get("note"):
            kill = r["note"]
        whole = r["whole_twice"]
        name = f"{r['case']} {r['round']}"
        def cell(n):
            x = m.get(n, {})
            c = f" ({mib(x['client_bytes'])})" if "client_bytes" in x else ""
            d = f" dropped: {x['dropped']}" if x.get("dropped") else ""
            return f"{mib(x.get('bytes', 0))}{c}{d}"
        took = r.get("client_took_twice")
        print(f"| {name} | {r['exit']} | {'ok' if r['sha256_ok'] else 'WRONG'} | "
              f"{r.get('wall', float('nan')):.2f} | {cell('S')} | {cell('C')} | {cell('H')} "
              f"({m.get('H', {}).get('404s', 0)}) | {h404} | {by(r['bad_byte_sent_by'])} | "
              f"{whole or 'none'} | {r['partial_twice_bytes']} | {'-' if took is None else took} | {kill} |")
        if r["case"] != "aria2c":
            verdicts.append((r, set(whole) <= ({bad_piece} if corrupt else set())))
    print()
    ours = [r for r, _ in verdicts]
    if ours:
        sha_ok = sum(1 for r in ours if r["sha256_ok"])
        only_bad = sum(1 for _, v in verdicts if v)
        served_bad = sum(1 for r in ours if "C" in r["bad_byte_sent_by"])
        out["offline_runs"] = len(ours)
        out["offline_sha256_ok"] = sha_ok
        out["offline_no_whole_piece_again_but_the_bad_one"] = only_bad
        out["offline_runs_where_C_sent_the_bad_byte"] = served_bad
        whole_runs = [r for r in ours if "after_kill" not in r and "client_took_twice" in r]
        exact = sum(1 for r in whole_runs if r["client_took_twice"]
                    == (PIECE if corrupt and "C" in r["bad_byte_sent_by"] else 0))
        out["offline_unkilled_runs_taking_only_the_bad_piece_twice"] = [exact, len(whole_runs)]
        print(f"- offline: SHA-256 right in {sha_ok} of {len(ours)} runs" + (
            f"; C sent the corrupt byte in {served_bad} of {len(ours)} (else the corruption was "
            "never met)" if corrupt else ""))
        print(f"- nginx's logs: no whole piece sent twice but the corrupt one in {only_bad} of "
              f"{len(ours)} runs (a cut request's overshoot counts here: see 'took twice')")
        killed = [r for r in ours if "after_kill" in r]
        early = sum(1 for r in ours if "finished before" in r.get("note", ""))
        settled = {r["round"]: r["after_kill"]["settled_pieces_again"] for r in killed
                   if r["after_kill"]["settled_pieces_again"]}
        out["killed_runs"] = len(killed)
        out["settled_pieces_asked_again"] = settled
        print(f"- killed mid-way: {len(killed)} runs ({early} more finished before their kill); "
              f"pieces sent whole ≥ {SETTLED:.0f} s before a kill and asked again: "
              f"{settled or 'none'}")
        print(f"- offline's own count (`--json` sources), runs not killed: it took exactly the "
              f"corrupt piece twice (none when C never sent it or BAD_PIECE=none) in {exact} of "
              f"{len(whole_runs)}")
    json.dump(out, open(json_out, "w"), indent=2)


if __name__ == "__main__":
    cmd, *args = sys.argv[1:]
    {"watch": watch, "record": record, "report": report}[cmd](*args)
