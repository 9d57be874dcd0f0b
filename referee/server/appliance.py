"""The box as an appliance: a systemd unit that starts the server at boot, and its mDNS name.

- `unit_text(...)` is the systemd service `referee service install` writes: it runs
  `referee serve` as the installing user, from the project's folder, with the data folder
  given, restarts it on failure, and waits for the network.
- `service_info(...)` is the mDNS record (zeroconf) that announces the box as `referee.local`
  with its LAN address, so a laptop can type `http://referee.local:8000`. Links and QR codes
  still carry the LAN address (referee.server.net), which every phone resolves; many Android
  phones do not resolve `.local` names.
"""

from __future__ import annotations

import logging
import shlex
import socket
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

log = logging.getLogger("referee.server")

MDNS_NAME = "referee"
SERVICE_TYPE = "_http._tcp.local."


def unit_text(python: str, workdir: Path, data: Path, port: int, user: str,
              host: str = "0.0.0.0") -> str:
    """The systemd unit (INI text) that runs `python -m referee serve` at boot."""
    cmd = " ".join(shlex.quote(x) for x in (
        python, "-m", "referee", "serve", "--host", host, "--port", str(port),
        "--data", str(data)))
    return f"""[Unit]
Description=Tuki referee server (tables, cameras, phones)
Wants=network-online.target
After=network-online.target

[Service]
Type=simple
User={user}
WorkingDirectory={workdir}
Environment=PYTHONUNBUFFERED=1
ExecStart={cmd}
Restart=on-failure
RestartSec=3
# a WebSocket per phone; the default soft limit of 1024 open files is small for a café
LimitNOFILE=8192

[Install]
WantedBy=multi-user.target
"""


def default_unit(port: int, data: Path, user: str) -> str:
    """The unit for this installation: this Python, the project's folder, `data`."""
    from referee.paths import ROOT

    return unit_text(sys.executable, ROOT, data.resolve(), port, user)


def service_info(address: str, port: int, name: str = MDNS_NAME) -> Any:
    """The zeroconf ServiceInfo that announces `name.local` at `address`:`port` (HTTP).

    :raises ValueError: an address that is not IPv4.
    """
    from zeroconf import ServiceInfo

    packed = socket.inet_aton(address)
    return ServiceInfo(SERVICE_TYPE, f"Tuki referee.{SERVICE_TYPE}", addresses=[packed],
                       port=port, properties={"path": "/"}, server=f"{name}.local.")


class Announcer:
    """Announces the box by mDNS while the server runs; silent when there is no network.

    Registering takes seconds (zeroconf probes the name first), so the server starts it in
    the background (`start_in_background`) and answers meanwhile; `stop` withdraws it, or
    keeps a late start from announcing at all.
    """

    def __init__(self, port: int) -> None:
        self.port = port
        self._zc: Any = None
        self._info: Any = None
        self._lock = threading.Lock()
        self._stopped = False
        self._thread: threading.Thread | None = None

    def start(self) -> str | None:
        """Register `referee.local`; the address announced, or None (no LAN, no zeroconf,
        or stopped already)."""
        from referee.server.net import lan_address

        address = lan_address()
        if address is None:
            return None
        with self._lock:
            if self._stopped:
                return None
            try:
                from zeroconf import Zeroconf

                self._info = service_info(address, self.port)
                self._zc = Zeroconf()
                self._zc.register_service(self._info, allow_name_change=True)
            except Exception:  # mDNS is a convenience: the server runs without it
                self._withdraw()
                return None
        return address

    def start_in_background(self, done: Callable[[str | None], None]) -> threading.Thread:
        """`start` on a daemon thread, then `done(address or None)`; returns at once."""
        def run() -> None:
            address = self.start()
            if not self._stopped:
                done(address)

        self._thread = threading.Thread(target=run, name="mdns-announce", daemon=True)
        self._thread.start()
        return self._thread

    def stop(self) -> None:
        """Withdraw the announcement; a start still under way gives up (waited for a few
        seconds at most: the server's stop does not hang on the network)."""
        self._stopped = True
        if self._thread is not None:
            self._thread.join(timeout=3)
        if self._lock.acquire(timeout=3):
            try:
                self._withdraw()
            finally:
                self._lock.release()

    def _withdraw(self) -> None:
        if self._zc is not None:
            try:
                if self._info is not None:
                    self._zc.unregister_service(self._info)
                self._zc.close()
            except Exception as e:  # the network went first; nothing is left to undo
                log.debug("mDNS: could not withdraw the announcement: %s", e)
        self._zc = None
