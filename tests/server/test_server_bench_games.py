"""`referee bench games-live`: card tables played from phones against a real server, small."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from referee.server.bench import BenchError
from referee.server.bench_games import check, run


def _referee(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "referee", *args], capture_output=True,
                          text=True, timeout=300, env=os.environ | {"COLUMNS": "300"})


def test_every_move_reaches_every_phone():
    r = _referee("bench", "games-live", "--tables", "2", "--phones", "4", "--moves", "4",
                 "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert (out["tables"], out["phones"], out["game"]) == (2, 4, "mixed")
    assert out["moves"] == 2 * 4  # every move of every table was timed ...
    assert out["seen_by_every_phone"] == 8  # ... and reached all 4 phones, as that move
    assert out["missed"] == 0 and out["wrong"] == 0
    for key in ("tap_to_every_phone_ms", "post_ms"):
        st = out[key]
        assert set(st) == {"p50", "p95", "max"}
        assert 0 < st["p50"] <= st["p95"] <= st["max"] < 15000
    assert out["server_cpu_ms_per_move"] > 0 and out["bench_cpu_ms_per_move"] > 0
    assert len(out["load_average"]) == 3 and len(out["load_average_before"]) == 3


def test_more_tables_than_one_address_may_make():
    # the box lets one address have 5 tables in play; the bench's own server is started
    # with its limits raised for the tables asked for, and only that server
    out = run(tables=6, phones=2, moves=1, game="taki", timeout_s=120)
    assert out["moves"] == 6 and out["seen_by_every_phone"] == 6


@pytest.mark.parametrize("args, words", [
    ({"tables": 0}, "--tables must be 1 to 50; got 0"),
    ({"tables": 51}, "--tables must be 1 to 50"),
    ({"phones": 1}, "--phones must be 2 to 5; got 1"),
    ({"phones": 6}, "--phones must be 2 to 5"),
    ({"moves": 0}, "--moves must be 1 to 10000"),
    ({"game": "chess"}, "--game must be taki, tukki, tokaido or mixed; got 'chess'"),
    ({"timeout_s": 0}, "--timeout must be 1 to 3600"),
    ({"pause_ms": -1}, "--pause-ms must be 0 to 60000"),
])
def test_settings_it_cannot_run_are_refused(args, words):
    settings = {"tables": 20, "phones": 4, "moves": 25, "game": "mixed", "timeout_s": 300.0}
    with pytest.raises(BenchError, match=words):
        check(**(settings | args))


def test_a_bad_setting_is_one_plain_line():
    r = _referee("bench", "games-live", "--phones", "9")
    assert r.returncode == 2 and "--phones must be 2 to 5; got 9" in r.stderr
    assert "Traceback" not in r.stderr
