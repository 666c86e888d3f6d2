"""Reads the access log start_nginx (lib.sh) writes: one "$body_bytes_sent $status $msec
$http_range" line per request (the range "-" when none was asked for)."""


def body_bytes(path):
    """The requests logged in PATH as (requests, total, by_status): requests a list of
    (body bytes, status), total the body bytes of them all, by_status {status: [count, bytes]}."""
    requests = []
    for line in open(path):
        parts = line.split()
        if len(parts) >= 2:
            requests.append((int(parts[0]), int(parts[1])))
    by_status = {}
    for b, s in requests:
        by_status.setdefault(s, [0, 0])
        by_status[s][0] += 1
        by_status[s][1] += b
    return requests, sum(b for b, _ in requests), by_status


def sent_twice(path):
    """Body bytes the origin sent for offsets of the file it had sent before, from the
    requests' ranges in PATH (a request without a range starts at 0): where the bytes
    fetched again went, however the requests ended."""
    spans = []
    for line in open(path):
        parts = line.split()
        if len(parts) < 4 or int(parts[1]) not in (200, 206):
            continue
        asked = parts[3]
        start = 0 if asked == "-" else int(asked.split("=", 1)[1].split("-", 1)[0])
        spans.append((float(parts[2]), start, start + int(parts[0])))
    spans.sort()  # by the time each request ended
    covered, twice = [], 0
    for _, start, end in spans:
        for s, e in covered:
            twice += max(0, min(end, e) - max(start, s))
        covered.append((start, end))
    return twice
