"""Links and QR codes carry the box's LAN address, never localhost."""

from __future__ import annotations

import pytest
from starlette.requests import Request

from referee.server import net


def _request(host: str) -> Request:
    return Request({"type": "http", "method": "GET", "path": "/", "query_string": b"",
                    "scheme": "http", "server": ("127.0.0.1", 8000),
                    "headers": [(b"host", host.encode())]})


@pytest.mark.parametrize("host, loop", [("localhost:8000", True), ("127.0.0.1:8000", True),
                                        ("[::1]:8000", True), ("app.localhost", True),
                                        ("192.168.1.20:8000", False), ("referee.local", False)])
def test_loopback_names(host, loop):
    assert net.is_loopback(host) == loop


def test_a_page_opened_on_the_box_links_to_its_lan_address(monkeypatch):
    monkeypatch.setattr(net, "lan_address", lambda: "192.168.1.20")
    assert net.public_base(_request("localhost:8000")) == "http://192.168.1.20:8000"
    assert net.public_base(_request("127.0.0.1:8000")) == "http://192.168.1.20:8000"
    # a phone that came in by another address keeps it
    assert net.public_base(_request("10.0.0.5:8000")) == "http://10.0.0.5:8000"
    monkeypatch.setattr(net, "lan_address", lambda: None)  # no network: the address as is
    assert net.public_base(_request("localhost:8000")) == "http://localhost:8000"


def test_the_qr_code_carries_the_lan_address(client, demo_secret, monkeypatch):
    import io

    import cv2
    import numpy as np
    import segno

    monkeypatch.setattr(net, "lan_address", lambda: "192.168.1.20")
    seen: list[str] = []
    real = segno.make
    monkeypatch.setattr(segno, "make", lambda content, **kw: seen.append(content) or
                        real(content, **kw))
    r = client.get("/api/tables/demo/qr.svg")
    assert r.status_code == 200
    assert seen and seen[0].startswith("http://192.168.1.20/t/demo?v=")
    # and the code itself reads back as that link (OpenCV's decoder misses some codes at
    # some scales, and the link holds a random key: a CI run failed on one, so each of its
    # two detectors is given three scales)
    read = set()
    for scale in (6, 8, 10):
        buf = io.BytesIO()
        real(seen[0], error="m").save(buf, kind="png", scale=scale, border=4)
        img = cv2.imdecode(np.frombuffer(buf.getvalue(), np.uint8), cv2.IMREAD_GRAYSCALE)
        for detector in (cv2.QRCodeDetector(), cv2.QRCodeDetectorAruco()):
            read.add(detector.detectAndDecode(img)[0])
    assert seen[0] in read and read <= {seen[0], ""}
