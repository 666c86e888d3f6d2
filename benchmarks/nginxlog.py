"""Reads the access log start_nginx (lib.sh) writes: one "$body_bytes_sent $status" line per
request."""


def body_bytes(path):
    """The requests logged in PATH as (requests, total, by_status): requests a list of
    (body bytes, status), total the body bytes of them all, by_status {status: [count, bytes]}."""
    requests = []
    for line in open(path):
        parts = line.split()
        if len(parts) == 2:
            requests.append((int(parts[0]), int(parts[1])))
    by_status = {}
    for b, s in requests:
        by_status.setdefault(s, [0, 0])
        by_status[s][0] += 1
        by_status[s][1] += b
    return requests, sum(b for b, _ in requests), by_status
