"""The image-size guard reads the size that the decoder will decode (issue 14 item 2).

A PNG whose ancillary chunk has a bad CRC is refused by Pillow, yet OpenCV decodes it; its size
must be checked all the same, and a refused photo leaves nothing behind.
"""

from __future__ import annotations

import io
import struct
import threading
import zlib

import pytest
from PIL import Image

from referee.vision.errors import PhotoError
from referee.vision.photo import (
    MAX_PIXELS,
    MAX_SCANS,
    PhotoTooLargeError,
    decode_photo,
    header_size,
    jpeg_cut,
    jpeg_scans,
)

from .conftest import scene_card


def _chunk(kind: bytes, body: bytes, crc: int | None = None) -> bytes:
    crc = zlib.crc32(kind + body) if crc is None else crc
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc & 0xFFFFFFFF)


def bad_crc_png(w: int = 7000, h: int = 7000) -> bytes:
    """A grey PNG of w×h zero pixels whose tEXt chunk has a wrong CRC (about 48 KB)."""
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0)
    pixels = zlib.compress(b"\x00" * ((w + 1) * h), 9)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", ihdr) + _chunk(b"tEXt", b"a\x00b", crc=1)
            + _chunk(b"IDAT", pixels) + _chunk(b"IEND", b""))


def test_the_bad_crc_png_is_what_the_issue_says():
    """Pillow cannot open it (so it could not say its size), and it is small."""
    data = bad_crc_png()
    assert len(data) < 60_000
    with pytest.raises(Exception):  # noqa: B017  Pillow's own refusal, whichever class
        Image.open(io.BytesIO(data)).load()
    assert header_size(data) == (7000, 7000)


def test_decode_refuses_the_bad_crc_png_before_decoding():
    with pytest.raises(PhotoTooLargeError, match="7000×7000"):
        decode_photo(bad_crc_png())
    # the same file at a small size decodes: the guard is the size, not the bad CRC
    assert decode_photo(bad_crc_png(40, 30)).shape == (30, 40, 3)


def _encoded(fmt: str, size: tuple[int, int], **kw: object) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", size).save(buf, fmt, **kw)
    return buf.getvalue()


@pytest.mark.parametrize(("fmt", "kw"), [("PNG", {}), ("JPEG", {}),
                                         ("JPEG", {"progressive": True}), ("BMP", {}),
                                         ("WEBP", {}), ("WEBP", {"lossless": True}),
                                         ("WEBP", {"exif": b"Exif\x00\x00x"})])
def test_header_size_is_the_decoded_size(fmt, kw):
    data = _encoded(fmt, (123, 45), **kw)
    assert header_size(data) == (123, 45)
    assert decode_photo(data).shape == (45, 123, 3)


def test_a_jpeg_that_declares_too_many_pixels_is_refused():
    data = bytearray(_encoded("JPEG", (16, 16)))
    i = data.index(b"\xff\xc0")  # the frame header: height, width after length and precision
    data[i + 5:i + 9] = struct.pack(">HH", 20000, 20000)  # over MAX_JPEG_PIXELS
    assert header_size(bytes(data)) == (20000, 20000)
    with pytest.raises(PhotoTooLargeError):
        decode_photo(bytes(data))


def test_a_jpeg_with_stray_bytes_before_its_frame_header_is_still_measured():
    """libjpeg skips bytes that are no marker (and decodes); so does the size check."""
    data = _encoded("JPEG", (16, 16))
    i = data.index(b"\xff\xc0")
    stray = data[:i] + b"junk" + data[i:]
    assert header_size(stray) == (16, 16)
    big = bytearray(stray)
    big[i + 4 + 5:i + 4 + 9] = struct.pack(">HH", 20000, 20000)
    with pytest.raises(PhotoTooLargeError):
        decode_photo(bytes(big))


def test_a_jpeg_cut_short_is_refused_as_such_before_it_is_decoded(monkeypatch):
    """A JPEG whose end is missing (sent or copied only in part) is refused in words that
    say so, never decoded: OpenCV 5 refuses it as not a photo, OpenCV 4 (which the package
    allows) decodes it with its missing rows grey. No whole photo is taken for cut: not the
    fixtures' (dev scenes, hard scenes, cases; JPEG and progressive JPEG), nor one with a
    phone's motion-photo video after its end."""
    from referee.paths import FIXTURES

    photos = [p.read_bytes() for p in sorted(FIXTURES.rglob("*.jpg"))]
    photos += [_encoded("JPEG", (123, 45), progressive=True), _encoded("JPEG", (16, 16))]
    assert len(photos) > 100
    for data in photos:
        assert not jpeg_cut(data)
        for n in (3, 40, len(data) // 3, len(data) // 2, len(data) - 2, len(data) - 1):
            assert jpeg_cut(data[:n]), n
    assert not jpeg_cut(photos[0] + b"\x00\x00\x00\x18ftypmp42" + bytes(5000))
    # bytes that are no JPEG, or a JPEG broken otherwise, are not cut: not a photo
    assert not jpeg_cut(b"just some text") and not jpeg_cut(b"\xff\xd8\xff" + b"x" * 100)
    import referee.vision.photo as photo

    monkeypatch.setattr(photo.cv2, "imdecode", lambda *a: pytest.fail("decoded a cut JPEG"))
    with pytest.raises(PhotoError, match="incomplete"):
        decode_photo(photos[0][:len(photos[0]) // 2])


@pytest.mark.parametrize(("fmt", "kw"), [("PNG", {}), ("BMP", {}), ("WEBP", {}),
                                         ("WEBP", {"lossless": True})])
def test_a_png_webp_or_bmp_cut_short_is_refused_as_such(fmt, kw):
    """A screenshot's PNG, a WebP or a BMP whose end is missing was "not a photo" where a
    JPEG cut so was "incomplete: send it again": each now says it is incomplete. A whole
    one, or one with bytes after its end, is not cut."""
    from referee.vision.photo import photo_cut

    data = _encoded(fmt, (123, 45), **kw)
    assert not photo_cut(data) and not photo_cut(data + bytes(100))
    for n in (20, len(data) // 2, len(data) - 1):
        assert photo_cut(data[:n]), n
        with pytest.raises(PhotoError, match="incomplete"):
            decode_photo(data[:n])
    assert not photo_cut(b"just some text") and not photo_cut(b"BM")


def test_formats_whose_size_is_not_read_are_not_decoded():
    buf = io.BytesIO()
    Image.new("RGB", (8, 8)).save(buf, "TIFF")  # OpenCV would decode it, unchecked
    with pytest.raises(PhotoError, match="not a photo"):
        decode_photo(buf.getvalue())
    assert 7000 * 7000 > MAX_PIXELS


def _progressive(w: int = 64, h: int = 48) -> bytes:
    import cv2
    import numpy as np

    img = np.random.default_rng(0).integers(0, 255, (h, w, 3), np.uint8)
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_PROGRESSIVE, 1])
    return buf.tobytes()


def many_scans(n: int, comment_eoi: bool = False) -> bytes:
    """A progressive JPEG whose last scan is repeated until it has `n` scans (a break-it
    trial's 430 KB of 5000 scans took 37 s to decode); `comment_eoi`: a comment holding an
    end-of-image marker's bytes between the scans (no marker: libjpeg reads on past it)."""
    data = _progressive()
    start, end = data.rfind(b"\xff\xda"), data.rfind(b"\xff\xd9")
    scans = jpeg_scans(data)[0]
    extra = data[start:end] + (b"\xff\xfe\x00\x04\xff\xd9" if comment_eoi else b"")
    return data[:end] + extra * (n - scans) + data[end:]


def test_a_jpeg_of_more_passes_than_any_camera_writes_is_refused_before_decoding():
    data = _progressive()
    scans, progressive, components = jpeg_scans(data)
    assert progressive and components == 3 and 2 <= scans <= 20  # libjpeg writes 10
    assert decode_photo(data).shape == (48, 64, 3)
    assert jpeg_scans(many_scans(50))[0] == 50
    # a re-trial: a marker without a length (TEM, 0xFF01) before each scan, read as one
    # with a length, hid the next 65 KB of scans from the count
    tem = many_scans(5000).replace(b"\xff\xda", b"\xff\x01\xff\xda")
    for bad in (many_scans(MAX_SCANS + 1), many_scans(5000, comment_eoi=True), tem):
        assert jpeg_scans(bad)[0] == MAX_SCANS + 1  # counted no further
        with pytest.raises(PhotoError, match="passes"):
            decode_photo(bad)
    # a baseline JPEG is one scan, and bytes after its end (a motion photo's video) are not
    # read, whatever markers they seem to hold
    import cv2
    import numpy as np

    ok, buf = cv2.imencode(".jpg", np.zeros((8, 8, 3), np.uint8))
    assert jpeg_scans(buf.tobytes() + b"\xff\xda\x00\x02" * 500) == (1, False, 3)


def test_a_jpeg_of_several_scans_whose_coefficients_outgrow_a_pi_is_refused():
    """311 KB of a 6300×6300 progressive CMYK JPEG peaked at 376 MB (a break-it trial):
    libjpeg keeps every coefficient of an image of several scans, whatever scale it decodes
    at."""
    data = bytearray(_progressive())
    i = data.find(b"\xff\xc2")
    data[i + 5:i + 9] = struct.pack(">HH", 6300, 6300)
    with pytest.raises(PhotoTooLargeError, match="passes"):
        decode_photo(bytes(data), 4_000_000)
    # so is a baseline one of several scans (a re-trial: 621 KB of four scans, 478 MB); a
    # camera's baseline JPEG of one scan is decoded at a reduced scale as before
    data[i + 1] = 0xC0
    assert jpeg_scans(bytes(data))[1:] == (False, 3)
    with pytest.raises(PhotoTooLargeError, match="passes"):
        decode_photo(bytes(data), 4_000_000)


def test_a_photo_is_decoded_outside_its_tables_lock(client, make_table, monkeypatch):
    """A break-it trial: a photo slow to decode held its table's lock, and every live feed of
    the table (drawn on the server's one event loop) and so every request on the box waited
    for it. The rules are asked under the lock, the pixels decoded outside it; a photo the
    rules do not want is still refused before it is decoded."""
    from referee.server import judging

    from .conftest import scene_photo

    table_id, secret = make_table()
    h = {"X-Table-Secret": secret}
    table = client.app.state.service.get(table_id)
    held = []
    real = judging.decode

    def decode(data, max_pixels=None):
        def probe():  # from another thread, as a live feed asks (the lock is re-entrant)
            got = table.lock.acquire(blocking=False)
            held.append(not got)
            if got:
                table.lock.release()

        t = threading.Thread(target=probe)
        t.start()
        t.join()
        return real(data, max_pixels)

    monkeypatch.setattr(judging, "decode", decode)
    photo = {"photo": ("a.jpg", scene_photo("D03-02"), "image/jpeg")}
    r = client.post(f"/api/tables/{table_id}/done/0", headers=h, files=photo)
    assert r.status_code == 409 and held == []  # no round: the rules refuse it, undecoded
    grid, die = scene_card("D03-02")
    client.post(f"/api/tables/{table_id}/rounds", json={"grid": grid, "die": die}, headers=h)
    r = client.post(f"/api/tables/{table_id}/done/0", headers=h, files=photo)
    assert r.status_code == 200, r.text
    assert held and not any(held)


def test_an_upload_of_the_bad_crc_png_is_refused_and_nothing_is_stored(client, make_table,
                                                                     settings):
    table_id, secret = make_table()
    h = {"X-Table-Secret": secret}
    grid, die = scene_card("D03-02")
    assert client.post(f"/api/tables/{table_id}/rounds", json={"grid": grid, "die": die},
                       headers=h).status_code == 200
    before = client.get(f"/api/tables/{table_id}").json()
    r = client.post(f"/api/tables/{table_id}/done/0", headers=h,
                    files={"photo": ("bomb.png", bad_crc_png(), "image/png")})
    assert r.status_code == 413, r.text
    # refused from its header: a PNG over 12 MP is never decoded (a camera's photo is a JPEG)
    assert r.json() == {"detail": "bomb.png is too large (7000×7000 px); a PNG, WebP or BMP "
                                  "photo may have at most 12 megapixels (a camera's JPEG may "
                                  "be larger)", "error": "PhotoTooLargeError"}
    after = client.get(f"/api/tables/{table_id}").json()
    assert after["seq"] == before["seq"] and after["round"]["builders"][0]["state"] == "building"
    photos = settings.photos_dir / table_id
    assert not photos.exists() or not any(photos.iterdir())
    # the phone place's camera does not keep it either
    assert client.get(f"/api/tables/{table_id}/places/0/preview.jpg").status_code == 409


def test_a_folder_camera_refuses_the_bad_crc_png(tmp_path):
    from referee.server.cameras import FolderSource

    (tmp_path / "a.png").write_bytes(bad_crc_png())
    src = FolderSource(tmp_path, label="folders/x")
    assert src.latest() is None
    status = src.status()
    assert status.state == "dead" and "megapixels" in status.detail


def test_a_huge_photo_is_judged_and_stored_at_a_phones_size(client, make_table, wait_view,
                                                            settings):
    import cv2
    import numpy as np

    from referee.server.judging import MAX_JUDGED_PIXELS

    from .conftest import scene_photo

    table_id, secret = make_table()
    h = {"X-Table-Secret": secret}
    grid, die = scene_card("D03-02")
    client.post(f"/api/tables/{table_id}/rounds", json={"grid": grid, "die": die}, headers=h)
    img = cv2.imdecode(np.frombuffer(scene_photo("D03-02"), np.uint8), cv2.IMREAD_COLOR)
    big = cv2.resize(img, None, fx=5, fy=5, interpolation=cv2.INTER_LINEAR)
    ok, buf = cv2.imencode(".jpg", big, [cv2.IMWRITE_JPEG_QUALITY, 60])
    r = client.post(f"/api/tables/{table_id}/done/0", headers=h,
                    files={"photo": ("big.jpg", buf.tobytes(), "image/jpeg")})
    assert r.status_code == 200, r.text
    view = wait_view(table_id, lambda v: v["round"]["builders"][0]["verdict"] is not None)
    stored = client.get(view["round"]["builders"][0]["photo"]).content
    shape = cv2.imdecode(np.frombuffer(stored, np.uint8), cv2.IMREAD_COLOR).shape
    assert shape[0] * shape[1] <= MAX_JUDGED_PIXELS
    assert abs(shape[1] / shape[0] - big.shape[1] / big.shape[0]) < 0.01


def test_a_phone_places_camera_keeps_the_stored_file_not_the_decoded_photo(
        client, make_table, wait_view):
    """A break-it trial: each photo sent from a phone stayed decoded in its place's camera
    (about 12 MB) until the table was archived, and tables nobody archived grew the box by
    350 MB an hour. The place keeps the stored file; its preview still shows the photo."""
    import cv2
    import numpy as np

    from .conftest import scene_photo

    table_id, secret = make_table()
    h = {"X-Table-Secret": secret}
    grid, die = scene_card("D03-02")
    client.post(f"/api/tables/{table_id}/rounds", json={"grid": grid, "die": die}, headers=h)
    r = client.post(f"/api/tables/{table_id}/done/0", headers=h,
                    files={"photo": ("p.jpg", scene_photo("D03-02"), "image/jpeg")})
    assert r.status_code == 200, r.text
    wait_view(table_id, lambda v: v["round"]["builders"][0]["verdict"] is not None)
    src = client.app.state.service.tables[table_id].sources[0]
    assert src._file is not None and src._file[0].is_file()  # the stored file, nothing more
    r = client.get(f"/api/tables/{table_id}/places/0/preview.jpg")
    assert r.status_code == 200
    img = cv2.imdecode(np.frombuffer(r.content, np.uint8), cv2.IMREAD_COLOR)
    assert max(img.shape[:2]) <= 480 and vars(src).keys() == {"_file"}
    assert src.status().state == "live"


def test_a_phone_places_photo_of_another_shape_is_judged_from_the_mat(client, make_table,
                                                                     wait_view):
    """A new user's trial: at a phone place whose station was calibrated at 4:3, every 16:9
    phone photo was "Unsure: was it cropped?". The station's camera is a phone there; a
    photo of another shape is another phone (or another picture size), and its own camera
    is worked out from the mat, as for a phone's photo of a camera's station."""
    import cv2
    import numpy as np

    from .conftest import scene_photo

    table_id, secret = make_table()
    h = {"X-Table-Secret": secret}
    grid, die = scene_card("D03-02")
    client.post(f"/api/tables/{table_id}/rounds", json={"grid": grid, "die": die}, headers=h)
    img = cv2.imdecode(np.frombuffer(scene_photo("D03-02"), np.uint8), cv2.IMREAD_COLOR)
    wide = img[img.shape[0] // 8:-img.shape[0] // 8]  # 800×450 of the station's 800×600
    ok, buf = cv2.imencode(".jpg", wide, [cv2.IMWRITE_JPEG_QUALITY, 92])
    r = client.post(f"/api/tables/{table_id}/done/0", headers=h,
                    files={"photo": ("wide.jpg", buf.tobytes(), "image/jpeg")})
    assert r.status_code == 200, r.text
    view = wait_view(table_id, lambda v: v["round"]["builders"][0]["verdict"] is not None)
    verdict = view["round"]["builders"][0]["verdict"]
    assert verdict["verdict"] == "correct", verdict


def test_a_phones_high_resolution_jpeg_is_read_reduced_not_refused():
    """A new user's trial: a phone's 42 MP photo (8640×4860, its 48 MP mode) was refused as
    too large by `referee judge` and the server. A camera's JPEG (one pass) up to
    MAX_JPEG_PIXELS is decoded at a half, quarter or eighth of its size, to at most
    MAX_PIXELS (libjpeg holds only the smaller image); other formats over MAX_PIXELS are
    still refused, as is a JPEG over MAX_JPEG_PIXELS (by its header, never decoded)."""
    import cv2
    import numpy as np

    from referee.vision.photo import MAX_JPEG_PIXELS

    w, h = 8640, 4860
    assert w * h > MAX_PIXELS
    img = np.zeros((h, w, 3), np.uint8)
    img[:, : w // 2] = (0, 0, 255)  # red on the left, so the picture's content is checked
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 90])
    data = buf.tobytes()
    del img, buf
    out = decode_photo(data)
    assert out.shape == (h // 2, w // 2, 3)
    assert tuple(out[h // 4, w // 8]) == pytest.approx((0, 0, 255), abs=3)
    # the server's scale: the most reduced that still has 4 MP
    assert decode_photo(data, 4_000_000).shape == (h // 2, w // 2, 3)
    assert decode_photo(data, 2_000_000).shape == (h // 4, w // 4, 3)
    # the header says larger than any phone: refused before any pixel is decoded
    big = bytearray(data)
    sof = big.find(b"\xff\xc0")
    big[sof + 5:sof + 9] = (20000).to_bytes(2, "big") + (20000).to_bytes(2, "big")
    assert 20000 * 20000 > MAX_JPEG_PIXELS
    with pytest.raises(PhotoTooLargeError, match="smaller picture size"):
        decode_photo(bytes(big))


def test_a_large_jpeg_whose_first_pass_carries_some_components_is_refused():
    """A break-it trial: a 61 KB JPEG declaring 15800×15800 px whose one pass carried one of
    its four components took 1.6 GB to decode at a quarter (libjpeg holds every component's
    coefficients whole until the last pass, as for a progressive JPEG). Such a JPEG over
    MAX_PIXELS is refused by its headers, never decoded; one whose pass carries every
    component is read reduced (the test above)."""
    from referee.vision.photo import jpeg_partial_scan

    data = bytearray(_encoded("JPEG", (16, 16)))
    assert not jpeg_partial_scan(bytes(data))
    sof = data.index(b"\xff\xc0")
    data[sof + 5:sof + 9] = struct.pack(">HH", 15800, 15800)
    sos = data.index(b"\xff\xda")
    data[sos + 4] = 1  # the first pass names one component of the frame's three
    assert jpeg_partial_scan(bytes(data)) and jpeg_scans(bytes(data))[0] == 1
    with pytest.raises(PhotoTooLargeError, match="stored in passes"):
        decode_photo(bytes(data))
