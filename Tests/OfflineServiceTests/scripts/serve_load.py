#!/usr/bin/env python3
"""Loads `offline serve` as issue 36 (item 10) describes, on raw sockets.

  serve_load.py shutdown BINARY STORE ORIGIN ROUNDS CONTENTS SUBSCRIBERS
      Queues CONTENTS downloads of ORIGIN (a slow origin: they never finish), then ROUNDS
      times: starts `BINARY --store STORE serve`, opens SUBSCRIBERS `/api/events` clients
      that never read, sends SIGTERM while they subscribe and times the exit. Prints
      "round N exit CODE seconds S" per round; stops after the first round that does not
      exit 143 within 10 s (killed after 15 s).
  serve_load.py memory BINARY STORE ORIGIN SUBSCRIBERS
      Starts the service, opens SUBSCRIBERS clients that never read, then sends a burst of
      `content` events (100 adds of 64 KiB URLs: over 6 MiB of events for each subscriber,
      past the 4 MiB after which one is dropped). Prints
      "baseline=KB peak=KB after=KB" (VmRSS before, VmHWM and VmRSS after, in KiB).

Every wait is bounded; the exit status is 0 when every step could be carried out.
"""
import json
import os
import signal
import socket
import subprocess
import sys
import time


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def start(binary, store, port):
    log = open(os.path.join(store, "serve-%d.log" % port), "w")
    process = subprocess.Popen(
        [binary, "--store", store, "serve", "--listen", "127.0.0.1:%d" % port],
        stdout=log, stderr=log)
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return process
        except OSError:
            time.sleep(0.02)
    process.kill()
    raise SystemExit("the service did not listen")


def post(port, path, body):
    s = socket.create_connection(("127.0.0.1", port), timeout=60)
    s.sendall(b"POST %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
              b"Content-Length: %d\r\nConnection: close\r\n\r\n" % (path.encode(), port, len(body))
              + body)
    data = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    s.close()
    return data.split(b" ", 2)[1].decode() if data else "none"


def subscribe(port, count):
    clients = []
    for _ in range(count):
        c = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        c.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        c.connect(("127.0.0.1", port))
        c.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % port)
        clients.append(c)
    return clients


def status(pid, field):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def describe_hang(pid):
    """Prints, to stderr, what a process that missed its signal was doing: its signal
    masks and pending sets, and each thread's state and masks."""
    fields = ("State", "SigQ", "SigPnd", "ShdPnd", "SigBlk", "SigIgn", "SigCgt")
    def read(path):
        try:
            with open(path) as f:
                return {l.split(":")[0]: l.split(":", 1)[1].strip() for l in f if ":" in l}
        except OSError:
            return {}
    whole = read("/proc/%d/status" % pid)
    print("hung", pid, " ".join("%s=%s" % (k, whole.get(k)) for k in fields), file=sys.stderr)
    try:
        tasks = sorted(os.listdir("/proc/%d/task" % pid), key=int)
    except OSError:
        tasks = []
    for tid in tasks:
        task = read("/proc/%d/task/%s/status" % (pid, tid))
        print("  thread", tid, task.get("Name"),
              " ".join("%s=%s" % (k, task.get(k)) for k in ("State", "SigPnd", "SigBlk")),
              file=sys.stderr)
    # SERVE_LOAD_GDB=FILE also writes every thread's stack there (gdb, when installed).
    if os.environ.get("SERVE_LOAD_GDB"):
        with open(os.environ["SERVE_LOAD_GDB"], "a") as dump:
            subprocess.run(["gdb", "-p", str(pid), "-batch", "-ex", "thread apply all bt"],
                           stdout=dump, stderr=subprocess.DEVNULL, timeout=60)
    sys.stderr.flush()


def shutdown(binary, store, origin, rounds, contents, subscribers):
    for number in range(rounds):
        port = free_port()
        process = start(binary, store, port)
        if number == 0:
            urls = ["%s?n=%d" % (origin, i) for i in range(contents)]
            print("added", post(port, "/api/contents", json.dumps({"urls": urls}).encode()))
        clients = subscribe(port, subscribers)
        time.sleep(0.3)
        began = time.time()
        process.send_signal(signal.SIGTERM)
        try:
            code = process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            describe_hang(process.pid)
            process.kill()
            code = "killed"
            process.wait()
        took = time.time() - began
        for c in clients:
            c.close()
        print("round %d exit %s seconds %.2f" % (number, code, took), flush=True)
        if code != 143 or took > 10:
            return


def memory(binary, store, origin, subscribers):
    port = free_port()
    process = start(binary, store, port)
    pad = "p" * (64 << 10)
    # One add first, so what the first add costs the manager is in the baseline.
    post(port, "/api/contents", json.dumps({"urls": ["%s?warm=%s" % (origin, pad)]}).encode())
    clients = subscribe(port, subscribers)
    time.sleep(1.5)
    baseline = status(process.pid, "VmRSS")
    answers = {}
    for number in range(100):
        body = json.dumps({"urls": ["%s?n=%d&pad=%s" % (origin, number, pad)]}).encode()
        answer = post(port, "/api/contents", body)
        answers[answer] = answers.get(answer, 0) + 1
    print("burst", answers, flush=True)
    time.sleep(1.5)
    peak = status(process.pid, "VmHWM")
    after = status(process.pid, "VmRSS")
    print("baseline=%d peak=%d after=%d" % (baseline, peak, after), flush=True)
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
    for c in clients:
        c.close()


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "shutdown":
        shutdown(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), int(sys.argv[6]),
                 int(sys.argv[7]))
    else:
        memory(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
