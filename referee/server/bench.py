"""`referee bench server`: the demo table played in-process, timed as a phone sees it.

For each demo round: "done" for one builder, then the time until every verdict is on the
live feed (both frames frozen, stored, judged, stored again, pushed). Also the time of one
"done" request itself (freeze + store; it never waits for judging).
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from referee.errors import RefereeError


class BenchError(RefereeError):
    """A benchmark asked for with settings it cannot run."""


def run(rounds: int = 10) -> dict[str, Any]:
    """Play `rounds` demo rounds (a new game when one ends); milliseconds per round.

    :raises BenchError: fewer than 1 round.
    """
    import warnings

    if rounds < 1:
        raise BenchError(f"--rounds must be 1 or more; got {rounds}")

    with warnings.catch_warnings():  # starlette's note about httpx is no user's concern
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from referee.server.app import create_app
    from referee.server.settings import Settings

    done_ms: list[float] = []
    verdict_ms: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(data_dir=Path(tmp), demo=True)
        with TestClient(create_app(settings), base_url="http://localhost") as c:
            key = (Path(tmp) / "demo-secret.txt").read_text().strip()
            h = {"X-Table-Secret": key}
            with c.websocket_connect("ws://localhost/ws/tables/demo") as ws:
                ws.send_json({"type": "hello", "key": key})
                ws.receive_json()  # the welcome
                view = ws.receive_json()["view"]
                for i in range(rounds):
                    if view["over"]:
                        break
                    c.post("/api/tables/demo/rounds/demo", headers=h)
                    view = ws.receive_json()["view"]
                    t0 = time.perf_counter()
                    r = c.post(f"/api/tables/demo/done/{i % 2}", headers=h)
                    done_ms.append((time.perf_counter() - t0) * 1000)
                    r.raise_for_status()
                    while not all(b["verdict"] for b in (view["round"] or {}).get(
                            "builders", [{}])):
                        view = ws.receive_json()["view"]
                    verdict_ms.append((time.perf_counter() - t0) * 1000)
                    for b in view["round"]["builders"]:
                        for by in b["deciders"] if b["state"] == "unsure" else []:
                            c.post("/api/tables/demo/decide", headers=h,
                                   json={"seat": b["seat"], "correct": True, "by": by})
                            view = ws.receive_json()["view"]

    def stats(xs: list[float]) -> dict[str, float]:
        xs = sorted(xs)
        return {"median": round(statistics.median(xs), 1),
                "p95": round(xs[min(len(xs) - 1, int(0.95 * len(xs)))], 1),
                "max": round(xs[-1], 1)}

    return {"rounds": len(done_ms), "done_request_ms": stats(done_ms),
            "done_to_all_verdicts_on_feed_ms": stats(verdict_ms)}
