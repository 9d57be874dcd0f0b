"""What one caller may hold open on the box (referee/server/connections.py): a break-it trial
took every file descriptor with idle WebSockets from one address, and held a request head
that was never finished for good."""

from __future__ import annotations

import socket
import time

import httpx

from .conftest import free_port, serve


def _closed_within(sock: socket.socket, seconds: float) -> bool:
    """Whether the server closes `sock` within `seconds` (it reads b"" then)."""
    sock.settimeout(seconds)
    try:
        return sock.recv(1024) == b""
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True


def test_one_address_holds_only_so_many_connections_and_a_stalled_head_is_cut(tmp_path):
    port = free_port()
    proc = serve(tmp_path / "data", port, tmp_path / "server.log", "--no-demo",
                 env={"REFEREE_MAX_CONNECTIONS_PER_CLIENT": "4", "REFEREE_STALL_S": "2"})
    held: list[socket.socket] = []
    try:
        # a head never finished, and a body sent short of its length: cut after the stall
        head = socket.create_connection(("127.0.0.1", port))
        head.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: 1\r\n")
        body = socket.create_connection(("127.0.0.1", port))
        body.sendall(b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                     b"application/json\r\nContent-Length: 100\r\n\r\n{\"players\"")
        # and one byte every second (slowloris): the head is not whole in time, the body
        # too slow
        drip = socket.create_connection(("127.0.0.1", port))
        drip.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-a: ")
        trickle = socket.create_connection(("127.0.0.1", port))
        trickle.sendall(b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                        b"application/json\r\nContent-Length: 100000\r\n\r\n{")
        t0 = time.monotonic()
        assert _closed_within(head, 6) and _closed_within(body, 6)
        assert time.monotonic() - t0 < 6
        cut = set()
        for _ in range(8):
            for name, sock in (("drip", drip), ("trickle", trickle)):
                if name not in cut:
                    try:
                        sock.sendall(b"a")
                    except OSError:
                        cut.add(name)
            time.sleep(1.0)
        assert cut == {"drip", "trickle"} or (_closed_within(drip, 1) and
                                               _closed_within(trickle, 1))
        for sock in (head, body, drip, trickle):
            sock.close()
        # four idle connections from one address are held; a fifth is closed at once
        for _ in range(4):
            held.append(socket.create_connection(("127.0.0.1", port)))
        fifth = socket.create_connection(("127.0.0.1", port))
        assert _closed_within(fifth, 1)
        fifth.close()
        for s in held:
            s.close()
        held.clear()
        time.sleep(0.3)
        # once they are gone the address is served again
        assert httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5).status_code == 200
    finally:
        for s in held:
            s.close()
        proc.terminate()
        proc.wait(timeout=10)
    assert "Traceback" not in (tmp_path / "server.log").read_text()
    # what `referee serve` writes is its user's only (umask 077), the folder too
    for path in (tmp_path / "data", tmp_path / "data" / "referee.sqlite3"):
        assert path.stat().st_mode & 0o077 == 0, path
