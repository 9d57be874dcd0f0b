"""`referee serve` and `referee bench server`: a bad setting is one plain line, exit code 2."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from referee.errors import RefereeError
from referee.server.settings import Settings


def _referee(*args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "referee", *args], capture_output=True,
                          text=True, timeout=120, env=os.environ | {"COLUMNS": "300"} | env)


@pytest.mark.parametrize("env, words", [
    ({"REFEREE_PORT": "abc"}, "REFEREE_PORT must be a port number from 1 to 65535; got 'abc'"),
    ({"REFEREE_PORT": "70000"}, "REFEREE_PORT must be a port number"),
    ({"REFEREE_MAX_UPLOAD_MB": "abc"}, "REFEREE_MAX_UPLOAD_MB must be a number of megabytes"),
    ({"REFEREE_MAX_UPLOAD_MB": "-3"}, "REFEREE_MAX_UPLOAD_MB must be a number of megabytes"),
    ({"REFEREE_CAMERA_STALE_S": "0"}, "REFEREE_CAMERA_STALE_S must be a number of seconds"),
    # 0 is allowed here (no pause), and the words say so (they said "above 0")
    ({"REFEREE_BOT_PAUSE_S": "-1"}, "REFEREE_BOT_PAUSE_S must be a number of seconds from 0 "
                                    "to 10"),
])
def test_a_bad_setting_is_one_plain_line(tmp_path, env, words):
    r = _referee("serve", "--data", str(tmp_path / "data"), **env)
    assert r.returncode == 2, r.stderr
    assert words in r.stderr and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_settings_from_the_environment(monkeypatch):
    monkeypatch.setenv("REFEREE_PORT", "9000")
    monkeypatch.setenv("REFEREE_MAX_UPLOAD_MB", "2.5")
    monkeypatch.setenv("REFEREE_CAMERA_STALE_S", "0.5")
    s = Settings.from_env()
    assert s.port == 9000 and s.max_upload_bytes == int(2.5 * 1024 * 1024)
    assert s.camera_stale_s == 0.5
    monkeypatch.setenv("REFEREE_PORT", "abc")
    assert Settings.from_env(port=9001).port == 9001  # the option wins; the variable is unused
    with pytest.raises(RefereeError, match="REFEREE_PORT"):
        Settings.from_env()
    with pytest.raises(RefereeError, match="--port"):
        Settings.from_env(port=0)


@pytest.mark.parametrize("rounds", ["0", "-2"])
def test_bench_needs_a_round(rounds):
    r = _referee("bench", "server", "--rounds", rounds)
    assert r.returncode == 2, r.stderr
    assert f"--rounds must be 1 or more; got {rounds}" in r.stderr
    assert "Traceback" not in r.stderr


def test_bench_server_without_httpx_says_what_to_install():
    """A new user's trial: without httpx the bench ended in starlette's RuntimeError
    traceback; it says what to do, as `bench games-live` does (httpx is a dependency now: a
    later trial found the bench refused after the first install command)."""
    hide = ("import runpy, sys; sys.modules['httpx'] = sys.modules['httpx2'] = None; "
            "sys.argv = ['referee', 'bench', 'server', '--rounds', '1']; "
            "runpy.run_module('referee', run_name='__main__')")
    r = subprocess.run([sys.executable, "-c", hide], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 2, r.stderr
    assert "this bench needs httpx: install the referee again (pip install -e .)" in \
        " ".join(r.stderr.split())
    assert "Traceback" not in r.stderr


def test_serve_on_a_port_in_use_says_so_and_leaves_nothing(tmp_path):
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        data = tmp_path / "data"
        r = _referee("serve", "--host", "127.0.0.1", "--port", str(port), "--data", str(data))
    assert r.returncode == 2, r.stderr
    assert f"port {port} is already in use" in r.stderr and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert not data.exists()


@pytest.mark.parametrize("args", [("level", "no-such-kitchen", "advanced"),
                                  ("colours", "no-such-kitchen", "stack.jpg")])
def test_calibrating_a_station_before_its_camera_says_what_to_do_first(args):
    """`referee calibrate level|colours NAME` for a station whose camera step was skipped
    said "cannot read station file /…/NAME.yaml: No such file or directory"; it says to run
    `referee calibrate camera NAME …` first, as the README names the steps."""
    r = _referee("calibrate", *args)
    assert r.returncode == 2, r.stderr
    text = " ".join(r.stderr.split())
    assert "not set up yet" in text and "referee calibrate camera no-such-kitchen" in text
    assert "No such file" not in text and "Traceback" not in text


def test_admin_key_links_to_the_port_the_box_serves_on(tmp_path):
    """`referee admin-key` printed a link with port 8000 while the server ran with
    `--port 8765`: the server records its port in its data folder, and the link uses it;
    with no server run yet, the link says which port it assumed."""
    from referee.server.storage import EventStore

    from .conftest import free_port, serve

    data = tmp_path / "data"
    env = {k: v for k, v in os.environ.items() if k != "REFEREE_PORT"}
    # a folder no server has used (a mistyped --data): refused in one sentence, nothing made
    r = subprocess.run([sys.executable, "-m", "referee", "admin-key", "--data", str(data)],
                       capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 2 and "no referee server has used" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr and not data.exists()
    data.mkdir()
    EventStore(data / "referee.sqlite3").close()  # a server's folder whose port is not recorded
    r = subprocess.run([sys.executable, "-m", "referee", "admin-key", "--data", str(data)],
                       capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 0, r.stderr
    assert ":8000/admin#a=" in r.stdout and "port 8000 assumed" in r.stdout
    port = free_port()
    proc = serve(data, port, tmp_path / "server.log", "--no-mdns")
    try:
        r = _referee("admin-key", "--data", str(data))
        assert r.returncode == 0, r.stderr
        assert f":{port}/admin#a=" in r.stdout and "assumed" not in r.stdout, r.stdout
        key = (data / "admin-key").read_text().strip()
        assert r.stdout.splitlines()[0] == key
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    r = _referee("admin-key", "--data", str(data), "--port", "9000")  # said: it wins
    assert ":9000/admin#a=" in r.stdout


def test_a_second_server_on_the_same_data_folder_is_refused_in_one_line(tmp_path):
    """A break-it trial: a second `referee serve` on the same data folder started, served
    stale tables, failed its writes and rewrote the first one's port. The folder is held
    while a server runs; the second says so, in one line, and changes nothing."""
    import socket

    from referee.cli.server import _hold_data_folder, _record_port

    data = tmp_path / "data"
    data.mkdir()
    _record_port(data, 8741)
    first = _hold_data_folder(data)
    assert first is not None
    with socket.socket() as s:  # a free port for the second
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    r = _referee("serve", "--host", "127.0.0.1", "--port", str(port), "--data", str(data))
    assert r.returncode == 2, r.stderr
    text = " ".join(r.stderr.split())
    assert "another referee server is running on port 8741" in text and "Traceback" not in text
    assert len(r.stderr.strip().splitlines()) <= 2  # one sentence, wrapped
    assert (data / "served-port").read_text().strip() == "8741"
    first.close()  # the first stopped: the folder is free again
    again = _hold_data_folder(data)
    assert again is not None
    again.close()


def test_the_access_log_keeps_no_view_token():
    """A break-it trial found view links' tokens in the access log (`GET /g/ID?v=…`)."""
    import logging

    from referee.server.net import NoQueryInAccessLog, access_log_config

    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1,
                               '%s - "%s %s HTTP/%s" %d',
                               ("1.2.3.4:5", "GET", "/g/abc?v=SECRET&lang=fa", "1.1", 200), None)
    assert NoQueryInAccessLog().filter(record)
    assert "SECRET" not in record.getMessage() and "/g/abc" in record.getMessage()
    assert access_log_config()["handlers"]["access"]["filters"] == ["no_query"]


def test_a_long_error_is_one_line_in_a_pipe_of_80_columns(tmp_path):
    """rich wrapped an error at 80 columns when stderr was a pipe or a log (a re-trial read
    the admin-key error in three pieces); the terminal wraps it on screen, a log keeps it
    whole."""
    r = _referee("admin-key", "--data", str(tmp_path / "never-served"), COLUMNS="80")
    assert r.returncode == 2, r.stderr
    line = r.stderr.strip()
    assert len(line.splitlines()) == 1 and len(line) > 80
    assert "no referee server has used the data folder" in line
