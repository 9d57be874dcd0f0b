"""The box's front door: which host names it answers to, and headers that keep its pages out
of other sites' frames.

DNS rebinding: a stranger's web page can make a phone's browser send requests to the box
under the stranger's own host name. The box therefore answers only requests whose `Host` is
one of its own: an IP address (a rebinding needs a name), `localhost`, the machine's name and
`<name>.local` (mDNS), and the names in `REFEREE_ALLOWED_HOSTS`. Every answer says
`X-Frame-Options: DENY` and CSP `frame-ancestors 'none'` (no other page may frame the
controls), and `Referrer-Policy: no-referrer` (view links carry a token in their query).
"""

from __future__ import annotations

import ipaddress
import json
import re
import socket
from collections.abc import Iterable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

SECURITY_HEADERS = [
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy", b"frame-ancestors 'none'"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
]


def own_names(extra: Iterable[str] = ()) -> set[str]:
    """The host names the box answers to (lower case, without a port): its own, and the
    name it announces by mDNS (`appliance.MDNS_NAME`.local; a break-it trial: the banner
    named http://referee.local, and the box refused that name)."""
    from referee.server.appliance import MDNS_NAME

    names = {"localhost", f"{MDNS_NAME}.local"}
    for name in (socket.gethostname(), socket.getfqdn()):
        name = name.lower().rstrip(".")
        if name:
            names |= {name, name.split(".")[0], name.split(".")[0] + ".local"}
    return names | {h.lower() for h in extra}


_HOST = re.compile(r"(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:[0-9]{1,5})?")


def host_name(host: str) -> str:
    """The name or address of a Host header, without its port ("[::1]:8000" -> "::1"); ""
    for anything that is not strictly `name[:port]` or `[ipv6][:port]`."""
    host = host.strip().lower()
    if not _HOST.fullmatch(host):
        return ""
    if host.startswith("["):
        return host[1:host.index("]")]
    return host.split(":")[0].rstrip(".")


def allowed_host(host: str, names: set[str]) -> bool:
    """Whether a Host header names the box: an IP address, or one of `names`
    (`*.localhost` too)."""
    name = host_name(host)
    if not name:
        return False
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        pass
    return name in names or name.endswith(".localhost")


# a request's head: the server's h11 refuses one past this only while it arrives in parts
# (`h11_max_incomplete_event_size`); one read whole was taken up to about twice as large (a
# break-it trial: 70 and 100 KB heads answered 200), so its headers are counted here too
MAX_HEAD_BYTES = 64 * 1024


class Guard:
    """ASGI middleware: refuses a foreign `Host` (400, plain words; a WebSocket is closed)
    and a request whose headers hold more than `MAX_HEAD_BYTES` (431), and adds the
    security headers to every answer."""

    def __init__(self, app: ASGIApp, extra_hosts: Iterable[str] = ()) -> None:
        self.app = app
        self.names = own_names(extra_hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        head = sum(len(k) + len(v) + 4 for k, v in scope.get("headers") or [])
        if head > MAX_HEAD_BYTES:
            await _refuse(scope, send, 431, "the request's headers are too large (at most "
                          f"{MAX_HEAD_BYTES // 1024} KB)", "HeadersTooLargeError")
            return
        hosts = [v for k, v in scope.get("headers") or [] if k == b"host"]
        host = hosts[0].decode("latin-1") if len(hosts) == 1 else ""  # two Hosts: refused
        if not allowed_host(host, self.names):
            await _refuse(scope, send, 400, "this box does not answer to that host name; open "
                          "it by its address or its own name", "UnknownHostError")
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = dict(message)
                message["headers"] = list(message.get("headers") or []) + SECURITY_HEADERS
            await send(message)

        await self.app(scope, receive, send_with_headers)


async def _refuse(scope: Scope, send: Send, status: int, detail: str, error: str) -> None:
    """Answer a request with `status` and plain words (JSON `detail`, `error`), or close a
    WebSocket (4400), before any route sees it."""
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 4400})
        return
    body = json.dumps({"detail": detail, "error": error}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()), *SECURITY_HEADERS]})
    await send({"type": "http.response.body", "body": body})
