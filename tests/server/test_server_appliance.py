"""The box as an appliance: the systemd unit, the mDNS record, the address links carry."""

from __future__ import annotations

import getpass
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from referee.server.appliance import SERVICE_TYPE, default_unit, service_info, unit_text

ANALYZE = shutil.which("systemd-analyze")


def test_the_unit_starts_the_server_at_boot_and_restarts_it():
    text = default_unit(8123, Path("data"), getpass.getuser())
    assert f"ExecStart={sys.executable} -m referee serve --host 0.0.0.0 --port 8123" in text
    assert "Restart=on-failure" in text and "WantedBy=multi-user.target" in text
    assert "After=network-online.target" in text
    assert f"--data {Path('data').resolve()}" in text  # an absolute folder: no cwd surprises


@pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not on this machine")
def test_systemd_accepts_the_unit(tmp_path):
    good = tmp_path / "referee.service"
    good.write_text(default_unit(8000, tmp_path / "data", getpass.getuser()))
    r = subprocess.run([ANALYZE, "verify", str(good)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    # the check can fail: a relative program is refused
    bad = tmp_path / "broken.service"
    bad.write_text(unit_text("python3", tmp_path, tmp_path / "data", 8000,
                             getpass.getuser()).replace("ExecStart=python3", "ExecStart=py"))
    r = subprocess.run([ANALYZE, "verify", str(bad)], capture_output=True, text=True)
    assert r.returncode != 0 and "not executable" in r.stderr


def test_service_install_prints_the_unit(tmp_path):
    r = subprocess.run([sys.executable, "-m", "referee", "service", "install", "--print",
                        "--port", "9000", "--data", str(tmp_path / "d")],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "--port 9000" in r.stdout and r.stdout.startswith("[Unit]")
    r = subprocess.run([sys.executable, "-m", "referee", "service", "install", "--print",
                        "--port", "0"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "--port must be a port number" in r.stderr


def test_the_mdns_record_names_the_box_referee_local():
    info = service_info("192.168.1.20", 8000)
    assert info.server == "referee.local." and info.port == 8000
    assert info.type == SERVICE_TYPE and info.addresses == [socket.inet_aton("192.168.1.20")]
    assert info.properties[b"path"] == b"/"
    with pytest.raises(OSError):
        service_info("not an address", 8000)


def _install(monkeypatch, capsys, tmp_path, which="/usr/bin/systemctl", running=True,
             fail=None):
    """`referee service install` in-process with systemd faked: never writes /etc nor runs
    systemctl. Returns (exit code, stdout, stderr, the unit path, the commands run)."""
    import referee.cli.server as cli_server
    from referee.cli import main

    unit = tmp_path / "etc" / "referee.service"
    unit.parent.mkdir()
    run_dir = tmp_path / "run-systemd"
    if running:
        run_dir.mkdir()
    monkeypatch.setattr(cli_server, "UNIT_PATH", unit)
    monkeypatch.setattr(cli_server, "SYSTEMD_RUNNING", run_dir)
    monkeypatch.setattr(shutil, "which", lambda name, *a, **k: which if name == "systemctl"
                        else None)
    ran = []

    def fake_run(cmd, **kwargs):
        ran.append(cmd)
        bad = fail is not None and cmd[1] == fail
        return subprocess.CompletedProcess(cmd, 1 if bad else 0, "",
                                           "Failed to connect to bus:\nHost is down" if bad
                                           else "")

    monkeypatch.setattr(subprocess, "run", fake_run)
    monkeypatch.setenv("COLUMNS", "1000")  # rich wraps at 80 otherwise: count real lines
    monkeypatch.setattr(sys, "argv", ["referee", "service", "install", "--data",
                                      str(tmp_path / "d")])
    code = 0
    try:
        main()
    except SystemExit as e:
        code = e.code or 0
    out, err = capsys.readouterr()
    return code, out, err, unit, ran


@pytest.mark.parametrize("which, running", [(None, True), ("/usr/bin/systemctl", False)])
def test_service_install_without_systemd_writes_nothing(monkeypatch, capsys, tmp_path, which,
                                                        running):
    code, out, err, unit, ran = _install(monkeypatch, capsys, tmp_path, which, running)
    assert code == 2 and not unit.exists() and ran == []
    assert "does not run systemd" in err and len(err.strip().splitlines()) == 1, err


def test_service_install_removes_its_unit_when_systemctl_fails(monkeypatch, capsys, tmp_path):
    code, out, err, unit, ran = _install(monkeypatch, capsys, tmp_path, fail="enable")
    assert code == 2 and not unit.exists(), err
    assert "failed" in err and "removed" in err and len(err.strip().splitlines()) == 1, err
    assert [c[1] for c in ran] == ["daemon-reload", "enable"]


def test_service_install_writes_the_unit_and_enables_it(monkeypatch, capsys, tmp_path):
    code, out, err, unit, ran = _install(monkeypatch, capsys, tmp_path)
    assert code == 0 and unit.read_text().startswith("[Unit]"), err
    assert ran[-1] == ["systemctl", "enable", "--now", "referee.service"]


def test_the_banner_leads_to_the_demo_tables_control_link_first():
    from referee.cli.server import banner

    lines = banner(Path("data"), "http://localhost:8000", "http://192.168.1.20:8000",
                   "192.168.1.20", [("demo", "KEY", "VIEW")])
    control = "http://192.168.1.20:8000/t/demo?v=VIEW#k=KEY"
    assert lines[0].startswith("START HERE") and "CONTROL" in lines[0]
    assert "Demo round" in lines[0] and lines[0].endswith(control)
    assert "viewer" in lines[1] and lines[1].endswith("http://192.168.1.20:8000/t/demo?v=VIEW")
    assert "#k=" not in "".join(lines[1:])  # the table key only in the control link
    assert any(line.endswith("http://localhost:8000/") for line in lines[2:])
    # no demo table (another data folder, --no-demo): the start page comes first
    assert banner(Path("data"), "http://localhost:8000", "http://localhost:8000", None,
                  [])[0].startswith("start page")


def test_the_server_answers_while_the_mdns_announcement_is_still_under_way(
        settings, monkeypatch):
    import threading

    from referee.cli.server import tell_started
    from referee.server import net
    from referee.server.app import create_app
    from referee.server.appliance import Announcer

    from .conftest import local_client

    release, happened, said = threading.Event(), [], []

    def slow_start(self):  # zeroconf's probing takes seconds on a real network
        release.wait(10)
        happened.append("announced")
        return "192.168.1.20"

    monkeypatch.setattr(Announcer, "start", slow_start)
    monkeypatch.setattr(net, "lan_address", lambda: "192.168.1.20")
    announcer = Announcer(settings.port)
    app = create_app(settings, on_ready=lambda service: tell_started(
        settings, service.demo_links(), said.append, announcer))
    with local_client(app) as client:
        assert client.get("/").status_code == 200
        happened.append("answered")
        assert said[0].startswith("START HERE")  # the links are out, before the announcement
        release.set()
        announcer._thread.join(5)
    assert happened == ["answered", "announced"]
    assert said[-1] == f"also reachable as http://referee.local:{settings.port}/ (mDNS)"
    announcer.stop()


def test_a_stopped_announcer_does_not_announce_late(monkeypatch):
    from referee.server import appliance, net

    monkeypatch.setattr(net, "lan_address", lambda: "192.168.1.20")
    made = []
    monkeypatch.setattr(appliance, "service_info", lambda *a: made.append(a))
    announcer = appliance.Announcer(8000)
    announcer.stop()
    assert announcer.start() is None and made == []
