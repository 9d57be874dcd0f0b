"""`referee bench games-live`: card tables played from many phones at once, timed as the
phones see each tap.

A real server (`referee serve` in a subprocess, on a free loopback port, with a fresh data
folder) and, in this process, N tables of P people each (no bots: every move is a tap), one
WebSocket per phone with its seat's key in the hello. On every table at once: the seat
whose turn it is POSTs one of its legal actions; the time runs from that POST until every
phone of the table has received the view that holds it (its event number, and the action as
the last move). A table plays its next move only when all its phones have it (and, with
`pause_ms`, after that much thinking), so nothing coalesces; a game that ends starts again
(the rematch is not timed). With no pause every table taps as fast as the server answers:
the box saturated, far beyond people's pace, so its times are queueing more than latency.

The box's limits (20 tables in play, 5 per address) would refuse 20 tables from one
address: the bench's own server is started with REFEREE_MAX_TABLES and
REFEREE_MAX_TABLES_PER_CLIENT set to the tables asked for, and
REFEREE_MAX_CONNECTIONS_PER_CLIENT to the phones (never below the defaults); the
defaults of every other server stay as they are.

Needs `httpx` (a dependency, as for `referee bench server`) and `websockets` (uvicorn's
`standard` extra, a dependency).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from referee.server.bench import BenchError

GAMES = ("taki", "tukki", "tokaido")
MAX_TABLES = 50
MOVE_TIMEOUT_S = 15.0  # a move that not every phone has by then is counted as missed


@dataclass
class Phone:
    """One seat's WebSocket: each message stamped on arrival."""

    seat: int
    key: str
    latest: dict[str, Any] = field(default_factory=dict)  # the newest seat message
    arrivals: list[tuple[float, int, dict[str, Any]]] = field(default_factory=list)
    changed: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class Tally:
    latency_ms: list[float] = field(default_factory=list)  # POST until the table's last phone
    post_ms: list[float] = field(default_factory=list)  # the POST's own answer
    missed: int = 0  # moves that some phone never got (in MOVE_TIMEOUT_S)
    wrong: int = 0  # a phone got the move's number without the move as its last one
    rematches: int = 0


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _cpu_s(pid: int) -> float | None:
    """The CPU time (user + system) a process has used, in seconds (None: not on Linux)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def _stats(xs: list[float]) -> dict[str, float]:
    if not xs:
        return {"p50": 0.0, "p95": 0.0, "max": 0.0}
    xs = sorted(xs)
    return {"p50": round(statistics.median(xs), 1),
            "p95": round(float(np.percentile(xs, 95, method="inverted_cdf")), 1),
            "max": round(xs[-1], 1)}


def check(tables: int, phones: int, moves: int, game: str, timeout_s: float,
          pause_ms: float = 0) -> None:
    """:raises BenchError: settings the bench cannot run."""
    if not 1 <= tables <= MAX_TABLES:
        raise BenchError(f"--tables must be 1 to {MAX_TABLES}; got {tables}")
    if not 2 <= phones <= 5:  # every game takes 2 to 5 players (Tokaido at most 5)
        raise BenchError(f"--phones must be 2 to 5; got {phones}")
    if not 1 <= moves <= 10000:
        raise BenchError(f"--moves must be 1 to 10000; got {moves}")
    if game not in (*GAMES, "mixed"):
        raise BenchError(f"--game must be taki, tukki, tokaido or mixed; got {game!r}")
    if not 0 <= pause_ms <= 60000:
        raise BenchError(f"--pause-ms must be 0 to 60000; got {pause_ms:g}")
    if not 1 <= timeout_s <= 3600:
        raise BenchError(f"--timeout must be 1 to 3600 seconds; got {timeout_s:g}")


def run(tables: int = 20, phones: int = 4, moves: int = 25, game: str = "mixed",
        timeout_s: float = 300.0, pause_ms: float = 0, seed: int = 1) -> dict[str, Any]:
    """Start the server, play, stop it; the numbers (milliseconds).

    :raises BenchError: bad settings, a server that does not start, or a run past its
        timeout.
    """
    check(tables, phones, moves, game, timeout_s, pause_ms)
    load_before = [round(x, 2) for x in os.getloadavg()]
    try:
        import httpx  # noqa: F401
        import websockets  # noqa: F401
    except ImportError as e:
        raise BenchError(f"this bench needs {e.name}: install the referee again "
                         "(pip install -e .)") from None
    with tempfile.TemporaryDirectory(prefix="referee-bench-") as tmp:
        port = _free_port()
        env = dict(os.environ)
        env.update({"REFEREE_MAX_TABLES": str(max(20, tables)),
                    "REFEREE_MAX_TABLES_PER_CLIENT": str(max(5, tables)),
                    # every phone of the bench connects from this box's one address
                    "REFEREE_MAX_CONNECTIONS_PER_CLIENT": str(max(48, tables * phones + 32)),
                    "REFEREE_DEMO": "0",
                    # this worktree's `referee`, whatever is installed
                    "PYTHONPATH": os.pathsep.join(
                        [str(Path(__file__).resolve().parents[2])]
                        + [p for p in [env.get("PYTHONPATH")] if p])})
        log_path = Path(tmp) / "server.log"
        with open(log_path, "wb") as log:
            server = subprocess.Popen(
                [sys.executable, "-m", "referee", "serve", "--host", "127.0.0.1",
                 "--port", str(port), "--data", str(Path(tmp) / "data"), "--no-demo",
                 "--no-mdns"], env=env, stdout=log, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL)
            try:
                t0 = time.perf_counter()
                result = asyncio.run(_bench(f"127.0.0.1:{port}", server, tables, phones,
                                            moves, game, timeout_s, pause_ms / 1000, seed))
                result["wall_s"] = round(time.perf_counter() - t0, 1)
            except BenchError as e:
                tail = log_path.read_text(errors="replace")[-600:]
                raise BenchError(f"{e}; the server's log ends: {tail!r}") from None
            finally:
                server.terminate()
                try:
                    server.wait(10)
                except subprocess.TimeoutExpired:
                    server.kill()
                    server.wait()
    # the machine's load (1, 5, 15 minutes) as the run began and as it ended: other jobs
    result["load_average_before"] = load_before
    result["load_average"] = [round(x, 2) for x in os.getloadavg()]
    result["cpus"] = os.cpu_count()
    return result


async def _bench(host: str, server: subprocess.Popen[bytes], tables: int, phones: int,
                 moves: int, game: str, timeout_s: float, pause_s: float, seed: int
                 ) -> dict[str, Any]:
    import httpx

    base = f"http://{host}"
    async with httpx.AsyncClient(base_url=base, timeout=5.0) as http:
        # the server is up when /healthz answers
        deadline = time.monotonic() + 30
        while True:
            if server.poll() is not None:
                raise BenchError(f"the server stopped at start (exit code {server.returncode})")
            with contextlib.suppress(httpx.TransportError):  # not listening yet
                if (await http.get("/healthz")).status_code == 200:
                    break
            if time.monotonic() > deadline:
                raise BenchError("the server did not answer within 30 s")
            await asyncio.sleep(0.1)
        tally = Tally()
        cpu0, mine0 = _cpu_s(server.pid), time.process_time()
        games = [GAMES[i % 3] if game == "mixed" else game for i in range(tables)]
        try:
            async with asyncio.timeout(timeout_s):
                await asyncio.gather(*(
                    _table(base, host, i, games[i], phones, moves, pause_s,
                           random.Random(seed * 1000 + i), tally) for i in range(tables)))
        except TimeoutError:
            raise BenchError(f"the run took longer than its timeout ({timeout_s:g} s); "
                             f"{len(tally.latency_ms)} moves were timed") from None
        cpu1, mine1 = _cpu_s(server.pid), time.process_time()
    timed = len(tally.latency_ms)
    moved = max(1, timed + tally.missed)
    return {"tables": tables, "phones": phones, "game": game, "pause_ms": pause_s * 1000,
            "moves": timed + tally.missed, "seen_by_every_phone": timed - tally.wrong,
            "missed": tally.missed, "wrong": tally.wrong, "rematches": tally.rematches,
            "tap_to_every_phone_ms": _stats(tally.latency_ms),
            "post_ms": _stats(tally.post_ms),
            # CPU per move (tables made, phones connected, moves and rematches): the load's
            # cost, which the other jobs on the machine do not change as they do the times
            "server_cpu_ms_per_move": None if cpu0 is None or cpu1 is None
            else round((cpu1 - cpu0) * 1000 / moved, 2),
            "bench_cpu_ms_per_move": round((mine1 - mine0) * 1000 / moved, 2),
            "server": "referee serve (uvicorn, h11) in a subprocess on 127.0.0.1"}


async def _listen(ws: Any, phone: Phone) -> None:
    try:
        async for text in ws:
            t = time.perf_counter()
            msg = json.loads(text)
            if msg.get("type") != "seat":
                continue
            phone.latest = msg
            phone.arrivals.append((t, int(msg["view"]["seq"]), msg))
            phone.changed.set()
    except Exception:  # closed: the table's loop notices a missing message
        return


async def _until(phone: Phone, seq: int) -> tuple[float, dict[str, Any]]:
    """The arrival time and message of the phone's first view at event `seq` or later."""
    while True:
        for t, s, msg in phone.arrivals:
            if s >= seq:
                return t, msg
        phone.changed.clear()
        await phone.changed.wait()


async def _table(base: str, host: str, index: int, game: str, n: int, moves: int,
                 pause_s: float, rng: random.Random, tally: Tally) -> None:
    """One table: its own HTTP connection (as a phone has), no cookies kept."""
    from http.cookiejar import CookieJar, DefaultCookiePolicy

    import httpx

    jar = CookieJar(DefaultCookiePolicy(allowed_domains=[]))  # keys alone open things
    async with httpx.AsyncClient(base_url=base, timeout=30.0, cookies=jar) as http:
        await _play(http, host, index, game, n, moves, pause_s, rng, tally)


async def _play(http: Any, host: str, index: int, game: str, n: int, moves: int,
                pause_s: float, rng: random.Random, tally: Tally) -> None:
    from websockets.asyncio.client import connect

    r = await http.post("/api/games", json={
        "game": game, "players": [f"P{i + 1}" for i in range(n)],
        "name": f"bench {index + 1}"})
    if r.status_code != 201:
        raise BenchError(f"table {index + 1} was not created: {r.status_code} {r.text[:200]}")
    made = r.json()
    gid, secret = made["id"], made["secret"]
    phones = []
    for s in made["seats"]:  # each phone takes its seat with its invitation, as a page does
        c = await http.post(f"/api/games/{gid}/claim", headers={"X-Seat-Key": s["key"]})
        if c.status_code != 200:
            raise BenchError(f"seat {s['seat']} of table {index + 1} was not taken: "
                             f"{c.status_code} {c.text[:200]}")
        phones.append(Phone(s["seat"], c.json()["key"]))
    sockets = []
    listeners = []
    try:
        for p in phones:
            ws = await connect(f"ws://{host}/ws/games/{gid}", max_size=2 ** 20,
                               open_timeout=20)
            sockets.append(ws)
            await ws.send(json.dumps({"type": "hello", "key": p.key}))
            welcome = json.loads(await ws.recv())
            if welcome.get("role") != "seat" or welcome.get("seat") != p.seat:
                raise BenchError(f"seat {p.seat}'s key was not welcomed as that seat: "
                                 f"{welcome}")
            listeners.append(asyncio.create_task(_listen(ws, p)))
        seq = 0
        for p in phones:  # the first view on every phone
            await asyncio.wait_for(_until(p, seq), MOVE_TIMEOUT_S)
        seq = int(phones[0].latest["view"]["seq"])
        done = 0
        if pause_s:  # the tables do not all tap in step
            await asyncio.sleep(rng.uniform(0, pause_s))
        while done < moves:
            view = phones[0].latest
            if view["over"]:
                r = await http.post(f"/api/games/{gid}/rematch",
                                    headers={"X-Table-Secret": secret})
                r.raise_for_status()
                seq = int(r.json()["seq"])
                tally.rematches += 1
                await asyncio.gather(*(asyncio.wait_for(_until(p, seq), MOVE_TIMEOUT_S)
                                       for p in phones))
                continue
            cur = int(view["current_player"])
            me = phones[cur]
            legal = me.latest["legal"]
            action = rng.choice(legal)
            for p in phones:
                p.arrivals.clear()  # only what comes after the tap
            t0 = time.perf_counter()
            r = await http.post(f"/api/games/{gid}/seats/{cur}/act",
                                json={"action": action}, headers={"X-Seat-Key": me.key})
            tally.post_ms.append((time.perf_counter() - t0) * 1000)
            if r.status_code != 200:
                raise BenchError(f"table {index + 1}: the move {action!r} was refused: "
                                 f"{r.status_code} {r.text[:200]}")
            seq = int(r.json()["view"]["seq"])
            done += 1
            try:
                got = await asyncio.gather(*(asyncio.wait_for(_until(p, seq), MOVE_TIMEOUT_S)
                                             for p in phones))
            except TimeoutError:
                tally.missed += 1
                continue
            tally.latency_ms.append((max(t for t, _ in got) - t0) * 1000)
            for _, msg in got:
                last = msg["view"]["last"]
                if (msg["view"]["seq"] != seq or not last or last[-1]["action"] != action
                        or last[-1]["seat"] != cur):
                    tally.wrong += 1
                    break
            if pause_s:  # the next player thinks
                await asyncio.sleep(pause_s)
    finally:
        for task in listeners:
            task.cancel()
        for ws in sockets:
            await ws.close()
