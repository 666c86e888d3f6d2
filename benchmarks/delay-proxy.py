#!/usr/bin/env python3
"""A TCP proxy that adds latency without limiting throughput (the kernel here has no netem).

Usage: benchmarks/delay-proxy.py LISTEN_PORT TARGET_HOST TARGET_PORT [DELAY_MS=20]

Listens on 127.0.0.1:LISTEN_PORT and forwards each connection to TARGET_HOST:TARGET_PORT.
Every chunk read in either direction is written DELAY_MS after it arrived, so a round trip
gains 2 x DELAY_MS (20 ms gives a 40 ms RTT). The TCP handshake costs its round trip too:
the kernel answers the client's SYN at once (so curl's %{time_connect} stays near 0 here;
look at %{time_starttransfer}, about 2 RTT for a first request), but the client's first
bytes reach the server no sooner than 3 x DELAY_MS after the accept, as if the SYN-ACK had
taken its round trip before the client could send them. Chunks are
stamped on arrival and queued, never slept on per read, so many chunks can be in flight at
once and throughput stays what the link gives. It is a plain TCP relay: TLS and HTTP/2 pass
through untouched. Prints "listening PORT" on stdout once ready; stops on SIGTERM/SIGINT.
"""
import asyncio
import signal
import socket
import sys


async def pump(reader, writer, delay, not_before=0.0):
    """Copies reader to writer, each chunk delayed by `delay` after its arrival, and none
    written before the loop time `not_before`."""
    loop = asyncio.get_running_loop()
    queue = asyncio.Queue()

    async def read_side():
        try:
            while True:
                data = await reader.read(256 * 1024)
                queue.put_nowait((max(loop.time() + delay, not_before), data))
                if not data:
                    return
        except (ConnectionError, OSError):
            queue.put_nowait((loop.time() + delay, b""))

    async def write_side():
        try:
            while True:
                due, data = await queue.get()
                wait = due - loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)
                if not data:
                    if writer.can_write_eof():
                        writer.write_eof()
                    return
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass

    await asyncio.gather(read_side(), write_side())


def no_delay(writer):
    sock = writer.get_extra_info("socket")
    if sock is not None:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


async def main():
    listen_port, host, port = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    delay = (float(sys.argv[4]) if len(sys.argv) > 4 else 20.0) / 1000.0

    async def handle(client_reader, client_writer):
        accepted = asyncio.get_running_loop().time()
        no_delay(client_writer)
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection(host, port)
        except OSError:
            client_writer.close()
            return
        no_delay(upstream_writer)
        try:
            await asyncio.gather(
                pump(client_reader, upstream_writer, delay, accepted + 3 * delay),
                pump(upstream_reader, client_writer, delay))
        except asyncio.CancelledError:
            pass
        finally:
            for writer in (client_writer, upstream_writer):
                writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", listen_port, backlog=1024)
    print(f"listening {server.sockets[0].getsockname()[1]}", flush=True)
    stop = asyncio.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        asyncio.get_running_loop().add_signal_handler(signum, stop.set)
    async with server:
        await stop.wait()


if __name__ == "__main__":
    asyncio.run(main())
