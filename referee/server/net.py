"""The box's address on the local network, for the links and QR codes that phones open.

A page opened on the box itself (`localhost`, 127.0.0.1) would otherwise hand phones a link to
their own selves; links and QR codes carry the box's LAN address instead, which every phone
resolves (many Android phones do not resolve `.local` names).
"""

from __future__ import annotations

import ipaddress
import socket

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
