"""One TCP stream's rate, as its receiver sees it. `serve ADDR PORT WARMUP` accepts one
connection, reads it to the end and prints the rate in Mbit/s from WARMUP seconds after the first
byte to the last byte; `send ADDR PORT SECONDS` writes to it for SECONDS and closes."""
import socket
import sys
import time


def serve(addr: str, port: int, warmup: float) -> None:
    with socket.create_server((addr, port)) as server:
        server.settimeout(10)
        conn, _ = server.accept()
        with conn:
            first = counted_from = last = None
            counted = 0
            while data := conn.recv(1 << 20):
                last = time.monotonic()
                if first is None:
                    first = last
                elif last - first >= warmup:
                    if counted_from is None:
                        counted_from = last
                    else:
                        counted += len(data)
    if counted_from is None or last <= counted_from:
        sys.exit("tcp_probe: the stream ended before the warm-up did")
    print(f"{counted * 8 / (last - counted_from) / 1e6:.0f}")


def send(addr: str, port: int, seconds: float) -> None:
    block = b"\0" * (1 << 16)
    with socket.create_connection((addr, port), timeout=10) as conn:
        start = time.monotonic()
        while time.monotonic() - start < seconds:
            conn.sendall(block)


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve(sys.argv[2], int(sys.argv[3]), float(sys.argv[4]))
    else:
        send(sys.argv[2], int(sys.argv[3]), float(sys.argv[4]))
