#!/usr/bin/env python3
"""A live HLS origin for live-record.sh: slides a window over the segments of a VOD stream
made by ffmpeg (lib.sh's make_hls_stream), one segment per target duration, in real time,
and injects the faults it is told; every request is logged.

Usage: live-origin.py DIR [--window N] [--prefill N] [--faults SPEC] [--log FILE]

DIR holds seg0.ts, seg1.ts... and the VOD index.m3u8 whose EXTINF give the durations. The
media playlist is /live.m3u8 and segment i is /seg<i>.ts. At the start, --prefill segments
are published; then one more each time the last one's duration has passed; the playlist
lists the last --window published, with EXT-X-ENDLIST once all are.

SPEC is a comma-separated list of:
  seg503=I:N   segment I answers 503 to its first N requests, then 200
  seg404=I     segment I always answers 404 (it is listed: a gap nobody can fill)
  pl503=T:D    the playlist answers 503 from T to T+D seconds after the start
  stall=T:D    the playlist answers what it said at T from T to T+D (no new segment), then
               catches up

The chosen port is printed on stdout's first line. The log has one tab-separated line per
request: seconds since the start, path, status, body bytes.
"""
import argparse
import re
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def read_durations(folder):
    durations = []
    with open(f"{folder}/index.m3u8") as playlist:
        for line in playlist:
            match = re.match(r"#EXTINF:([0-9.]+)", line)
            if match:
                durations.append(float(match.group(1)))
    return durations


def parse_faults(spec):
    faults = {"seg503": {}, "seg404": set(), "pl503": [], "stall": []}
    for item in filter(None, (spec or "").split(",")):
        kind, _, value = item.partition("=")
        if kind == "seg503":
            index, count = value.split(":")
            faults["seg503"][int(index)] = int(count)
        elif kind == "seg404":
            faults["seg404"].add(int(value))
        elif kind in ("pl503", "stall"):
            start, length = value.split(":")
            faults[kind].append((float(start), float(start) + float(length)))
        else:
            sys.exit(f"unknown fault: {item}")
    return faults


class Origin:
    def __init__(self, folder, window, prefill, faults, log):
        self.folder = folder
        self.durations = read_durations(folder)
        self.window = window
        self.prefill = min(prefill, len(self.durations))
        self.faults = faults
        self.log = log
        self.lock = threading.Lock()
        self.asked = {}  # segment -> requests so far
        self.started = time.monotonic()
        # Segment i is published at publish_at[i] seconds after the start.
        self.publish_at = []
        at = 0.0
        for index, duration in enumerate(self.durations):
            if index >= self.prefill:
                at += self.durations[index - 1] if index > 0 else duration
            self.publish_at.append(0.0 if index < self.prefill else at)

    def elapsed(self):
        return time.monotonic() - self.started

    def published(self, at):
        return sum(1 for moment in self.publish_at if moment <= at)

    def playlist(self, now):
        for start, end in self.faults["pl503"]:
            if start <= now < end:
                return None
        seen = now
        for start, end in self.faults["stall"]:
            if start <= now < end:
                seen = start
        count = self.published(seen)
        first = max(0, count - self.window)
        target = max(1, int(max(self.durations) + 0.5))
        lines = [
            "#EXTM3U",
            "#EXT-X-VERSION:3",
            f"#EXT-X-TARGETDURATION:{target}",
            f"#EXT-X-MEDIA-SEQUENCE:{first}",
        ]
        for index in range(first, count):
            lines.append(f"#EXTINF:{self.durations[index]:.6f},")
            lines.append(f"seg{index}.ts")
        if count == len(self.durations):
            lines.append("#EXT-X-ENDLIST")
        return ("\n".join(lines) + "\n").encode()

    def segment(self, index, now):
        """The status and body of segment `index` at `now`."""
        if index < 0 or index >= len(self.durations) or self.published(now) <= index:
            return 404, b""
        if index in self.faults["seg404"]:
            return 404, b""
        with self.lock:
            self.asked[index] = self.asked.get(index, 0) + 1
            asked = self.asked[index]
        if asked <= self.faults["seg503"].get(index, 0):
            return 503, b""
        with open(f"{self.folder}/seg{index}.ts", "rb") as segment:
            return 200, segment.read()

    def record(self, now, path, status, length):
        with self.lock:
            self.log.write(f"{now:.3f}\t{path}\t{status}\t{length}\n")
            self.log.flush()


def handler_for(origin):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self):
            now = origin.elapsed()
            path = self.path.split("?")[0]
            status, body, kind = 404, b"", "text/plain"
            if path == "/live.m3u8":
                text = origin.playlist(now)
                status, body = (503, b"") if text is None else (200, text)
                kind = "application/vnd.apple.mpegurl"
            else:
                match = re.fullmatch(r"/seg(\d+)\.ts", path)
                if match:
                    status, body = origin.segment(int(match.group(1)), now)
                    kind = "video/mp2t"
            origin.record(now, path, status, len(body))
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-cache")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    return Handler


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder")
    parser.add_argument("--window", type=int, default=6)
    parser.add_argument("--prefill", type=int, default=3)
    parser.add_argument("--faults", default="")
    parser.add_argument("--log", default="/dev/null")
    arguments = parser.parse_args()
    with open(arguments.log, "a") as log:
        origin = Origin(
            arguments.folder, arguments.window, arguments.prefill,
            parse_faults(arguments.faults), log)
        server = ThreadingHTTPServer(("127.0.0.1", 0), handler_for(origin))
        server.daemon_threads = True
        print(server.server_address[1], flush=True)
        server.serve_forever()


if __name__ == "__main__":
    main()
