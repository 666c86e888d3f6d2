#!/usr/bin/env python3
"""Hostile clients for the service tests, on raw sockets (curl will not misbehave).

  hostile.py idle PORT COUNT   hold COUNT idle connections open, then make one real request
                               while they are still open; prints "open=N status=S"
  hostile.py body PORT SIZE    POST a body announced as SIZE bytes (sends 64 KiB of it);
                               prints "status=S"

Every wait is bounded; the exit status is 0 when a status line was read.
"""
import resource
import socket
import sys
import time


def status_of(sock, timeout=10.0):
    sock.settimeout(timeout)
    data = b""
    while b"\r\n" not in data:
        chunk = sock.recv(4096)
        if not chunk:
            break
        data += chunk
    line = data.split(b"\r\n", 1)[0].decode("latin-1")
    parts = line.split(" ")
    return parts[1] if len(parts) > 1 else "none"


def idle(port, count):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, count + 256), hard))
    held = []
    for _ in range(count):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setblocking(False)
        s.connect_ex(("127.0.0.1", port))
        held.append(s)
    time.sleep(1.0)  # let the server accept what it will
    still_open = 0
    for s in held:
        try:
            if s.recv(1, socket.MSG_PEEK) != b"":
                still_open += 1  # bytes from the server: not idle, but open
        except BlockingIOError:
            still_open += 1  # nothing to read and not closed: held open
        except OSError:
            pass
    real = socket.create_connection(("127.0.0.1", port), timeout=10)
    real.sendall(
        b"GET /content/nothing-here/ HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n" % port)
    status = status_of(real)
    print("open=%d status=%s" % (still_open, status))
    for s in held:
        s.close()
    return status != "none"


def body(port, size):
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(
        b"POST /api/contents HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\n\r\n" % (port, size))
    try:
        sock.sendall(b"x" * 65536)
    except OSError:
        pass  # the server may close as soon as it has answered
    status = status_of(sock)
    print("status=%s" % status)
    return status != "none"


if __name__ == "__main__":
    mode, port, number = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    ok = idle(port, number) if mode == "idle" else body(port, number)
    sys.exit(0 if ok else 1)
