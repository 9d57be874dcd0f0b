"""The box's address on the local network, for the links and QR codes that phones open.

A page opened on the box itself (`localhost`, 127.0.0.1) would otherwise hand phones a link to
their own selves; links and QR codes carry the box's LAN address instead, which every phone
resolves (many Android phones do not resolve `.local` names).
"""

from __future__ import annotations

import ipaddress
import logging
import socket
from typing import Any

from starlette.requests import Request

from referee.server.guard import host_name


def lan_address() -> str | None:
    """This machine's IPv4 address on the local network (no packet is sent), or None."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))
            addr = s.getsockname()[0]
    except OSError:
        return None
    return None if addr.startswith("127.") else addr


def is_loopback(host: str) -> bool:
    """Whether a Host header names this machine only ("localhost", 127.0.0.1, ::1)."""
    name = host_name(host)
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def public_base(request: Request) -> str:
    """The base URL ("http://192.168.1.20:8000") for a link a phone will open: the address
    the request came in on, unless that is the box's loopback, then its LAN address."""
    base = str(request.base_url).rstrip("/")
    host = request.headers.get("host", "")
    if not is_loopback(host):
        return base
    lan = lan_address()
    if lan is None:
        return base
    port = request.url.port
    return f"{request.url.scheme}://{lan}{':' + str(port) if port else ''}"


class NoQueryInAccessLog(logging.Filter):
    """Drops the query from the access log's request lines: a view link's token (`?v=`)
    opens a table's public view, and the log is no place for keys (a break-it trial found
    them there). uvicorn's access record args: (client, method, path, version, status)."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) == 5 and isinstance(args[2], str):
            record.args = (args[0], args[1], args[2].split("?", 1)[0], *args[3:])
        return True


def access_log_config() -> dict[str, Any]:
    """uvicorn's logging configuration with `NoQueryInAccessLog` on its access log."""
    import copy

    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config.setdefault("filters", {})["no_query"] = {"()": NoQueryInAccessLog}
    config["handlers"]["access"]["filters"] = ["no_query"]
    return config
