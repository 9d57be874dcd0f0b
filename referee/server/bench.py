"""`referee bench server`: the demo table played in-process, timed as a phone sees it.

For each demo round: "done" for one builder, then the time until every verdict is on the
live feed (both frames frozen, stored, judged, stored again, pushed). Also the time of one
"done" request itself (freeze + store; it never waits for judging).
"""

from __future__ import annotations

import queue
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np

from referee.errors import RefereeError


class BenchError(RefereeError):
    """A benchmark asked for with settings it cannot run."""


def run(rounds: int = 10) -> dict[str, Any]:
    """Play `rounds` demo rounds (a new game when one ends); milliseconds per round.

    :raises BenchError: fewer than 1 round, or no httpx (a dependency) for the in-process
        client.
    """
    import warnings

    if rounds < 1:
        raise BenchError(f"--rounds must be 1 or more; got {rounds}")

    with warnings.catch_warnings():  # starlette's note about httpx is no user's concern
        warnings.simplefilter("ignore")
        try:
            from fastapi.testclient import TestClient
        except (ImportError, RuntimeError):  # starlette says so with a RuntimeError
            raise BenchError("this bench needs httpx: install the referee again "
                             "(pip install -e .)") from None

    from referee.server.app import create_app
    from referee.server.settings import Settings

    done_ms: list[float] = []
    feed_ms: list[float] = []
    verdict_ms: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(data_dir=Path(tmp), demo=True)
        with TestClient(create_app(settings), base_url="http://localhost") as c:
            key = (Path(tmp) / "demo-secret.txt").read_text().strip()
            h = {"X-Table-Secret": key}
            with c.websocket_connect("ws://localhost/ws/tables/demo") as ws:
                ws.send_json({"type": "hello", "key": key})
                ws.receive_json()  # the welcome
                # a phone: every view as it arrives, stamped on arrival
                views: queue.Queue[tuple[float, dict]] = queue.Queue()

                def listen() -> None:
                    try:
                        while True:
                            msg = ws.receive_json()
                            views.put((time.perf_counter(), msg["view"]))
                    except Exception:
                        return

                threading.Thread(target=listen, daemon=True).start()

                def until(pred) -> tuple[float, dict]:  # noqa: ANN001
                    while True:
                        t, v = views.get(timeout=60)
                        if pred(v):
                            return t, v

                _, view = until(lambda v: True)
                for i in range(rounds):
                    if view["over"]:
                        break
                    seq = c.post("/api/tables/demo/rounds/demo", headers=h).json()["seq"]
                    _, view = until(lambda v, seq=seq: v["seq"] >= seq)
                    seat = i % 2
                    t0 = time.perf_counter()
                    r = c.post(f"/api/tables/demo/done/{seat}", headers=h)
                    done_ms.append((time.perf_counter() - t0) * 1000)
                    r.raise_for_status()
                    t1, view = until(lambda v, s=seat: s in (v["round"] or {}).get(
                        "done_order", []))
                    feed_ms.append((t1 - t0) * 1000)
                    t2, view = until(lambda v: all(b["verdict"] for b in (v["round"] or {})
                                                   .get("builders", [{}])))
                    verdict_ms.append((t2 - t0) * 1000)
                    for b in view["round"]["builders"]:
                        for by in b["deciders"] if b["state"] == "unsure" else []:
                            seq = c.post("/api/tables/demo/decide", headers=h,
                                         json={"seat": b["seat"], "correct": True,
                                               "by": by}).json()["seq"]
                            _, view = until(lambda v, seq=seq: v["seq"] >= seq)

    def stats(xs: list[float]) -> dict[str, float]:
        xs = sorted(xs)
        return {"median": round(statistics.median(xs), 1),
                "p95": round(float(np.percentile(xs, 95, method="inverted_cdf")), 1),
                "max": round(xs[-1], 1)}

    return {"rounds": len(done_ms), "done_request_ms": stats(done_ms),
            "done_to_feed_ms": stats(feed_ms),
            "done_to_all_verdicts_on_feed_ms": stats(verdict_ms)}
