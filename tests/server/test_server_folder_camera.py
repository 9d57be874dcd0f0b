"""A folder camera shows what its folder holds now (a trial, 2026-12-02: a photo replaced in
the folder was still previewed and judged until a restart, and after the folder was deleted
the camera still said `live` and a "done" judged the previous round's photo: "Wrong")."""

from __future__ import annotations

import os
import shutil

from referee.paths import MODELS
from referee.server.cameras import FolderSource
from tests.server.conftest import scene_card, with_exif

PHOTOS = MODELS / "demo" / "photos" / "D03"


def _table(client, settings, admin_key) -> tuple[str, dict[str, str]]:
    folder = settings.data_dir / "folders" / "ava"
    folder.mkdir(parents=True)
    shutil.copy(PHOTOS / "D03-02.jpg", folder / "cam.jpg")
    body = {"players": ["Ava", "Ben"], "places": [
        {"station": "D03", "camera": {"kind": "folder", "path": "folders/ava"}},
        {"station": "D04"}]}
    r = client.post("/api/tables", json=body, headers={"X-Admin-Key": admin_key})
    assert r.status_code == 201, r.text
    return r.json()["id"], {"X-Table-Secret": r.json()["secret"]}


def test_a_replaced_photo_is_previewed_and_judged(client, settings, admin_key, wait_view):
    table_id, h = _table(client, settings, admin_key)
    before = client.get(f"/api/tables/{table_id}/places/0/preview.jpg")
    assert before.status_code == 200
    new = (PHOTOS / "D03-05.jpg").read_bytes()
    path = settings.data_dir / "folders" / "ava" / "cam.jpg"
    path.write_bytes(new)  # the same name, new content
    after = client.get(f"/api/tables/{table_id}/places/0/preview.jpg")
    assert after.status_code == 200 and after.content != before.content
    grid, die = scene_card("D03-05")
    assert client.post(f"/api/tables/{table_id}/rounds", json={"grid": grid, "die": die},
                       headers=h).status_code == 200
    assert client.post(f"/api/tables/{table_id}/done/0", headers=h).status_code == 200
    a = client.get(f"/api/tables/{table_id}").json()["round"]["builders"][0]
    assert a["photo"] is not None
    assert client.get(a["photo"]).content == new  # the photo the folder holds now


def test_a_deleted_folder_is_dead_and_its_done_judges_nothing(client, settings, admin_key,
                                                              wait_view):
    table_id, h = _table(client, settings, admin_key)
    # the photo was seen (previewed) before the folder went
    assert client.get(f"/api/tables/{table_id}/places/0/preview.jpg").status_code == 200
    shutil.rmtree(settings.data_dir / "folders" / "ava")
    health = client.get("/healthz", headers={"X-Admin-Key": admin_key}).json()
    assert health["cameras"][table_id] == ["dead", "idle"]
    cam = client.get(f"/api/tables/{table_id}").json()["places"][0]["camera"]
    assert (cam["state"], cam["code"]) == ("dead", "camera.folder-missing")
    assert client.get(f"/api/tables/{table_id}/places/0/preview.jpg").status_code == 409
    grid, die = scene_card("D03-05")
    client.post(f"/api/tables/{table_id}/rounds", json={"grid": grid, "die": die}, headers=h)
    assert client.post(f"/api/tables/{table_id}/done/0", headers=h).status_code == 200
    view = wait_view(table_id, lambda v: False, timeout_s=0.5)
    a = view["round"]["builders"][0]
    assert (a["state"], a["reason"], a["photo"], a["verdict"]) == (
        "waiting", "camera:dead", None, None)
    kinds = [e["kind"] for e in client.get(f"/api/tables/{table_id}/events").json()]
    assert "server:photo" not in kinds and "judged" not in kinds


def test_a_folder_source_follows_its_folder(tmp_path):
    folder = tmp_path / "cam"
    folder.mkdir()
    shutil.copy(PHOTOS / "D03-02.jpg", folder / "a.jpg")
    src = FolderSource(folder, label="folders/cam")
    first = src.latest()
    assert first is not None and src.status().state == "live"
    # replaced by another file of another name: the new one is shown
    (folder / "a.jpg").unlink()
    shutil.copy(PHOTOS / "D03-05.jpg", folder / "b.jpg")
    f = src.latest()
    assert f is not None and f.origin == "b" and f.data == (PHOTOS / "D03-05.jpg").read_bytes()
    # changed in place, with the same times as before: still seen (its size or inode)
    st = os.stat(folder / "b.jpg")
    (folder / "b.jpg").write_bytes((PHOTOS / "D03-06.jpg").read_bytes())
    os.utime(folder / "b.jpg", ns=(st.st_atime_ns, st.st_mtime_ns))
    assert src.latest().data == (PHOTOS / "D03-06.jpg").read_bytes()
    # emptied: dead at once, no frame
    (folder / "b.jpg").unlink()
    assert src.latest() is None
    st = src.status()
    assert (st.state, st.code) == ("dead", "camera.no-photo")
    # gone: dead at once
    folder.rmdir()
    assert src.latest() is None and src.status().code == "camera.folder-missing"
    # back: live at the next ask
    folder.mkdir()
    shutil.copy(PHOTOS / "D03-07.jpg", folder / "c.jpg")
    assert src.latest().origin == "c" and src.status().state == "live"


def test_a_bare_folder_name_is_the_folder_in_folders(client, settings, admin_key):
    """A new user typed the folder's name (`ben`) and was refused ("use a folder inside
    folders/"): a bare name is that folder in `<data>/folders/`; every other check stays
    (no way out of folders/, by `..`, a link, or an absolute path)."""
    folders = settings.data_dir / "folders"
    shutil.copytree(PHOTOS, folders / "ben")
    (settings.data_dir / "secret").mkdir()
    shutil.copy(PHOTOS / "D03-02.jpg", settings.data_dir / "secret" / "x.jpg")
    (folders / "sneaky").symlink_to(settings.data_dir / "secret")

    def make(path: str):
        body = {"players": ["Ava", "Ben"], "places": [
            {"station": "D03", "camera": {"kind": "folder", "path": path}},
            {"station": "D04"}]}
        return client.post("/api/tables", json=body, headers={"X-Admin-Key": admin_key})

    r = make("ben")
    assert r.status_code == 201, r.text
    assert client.get(f"/api/tables/{r.json()['id']}/places/0/preview.jpg").status_code == 200
    for path in ("..", ".", "sneaky", "secret", "../secret", "ben/../../secret", "models"):
        r = make(path)
        assert r.status_code == 422, (path, r.text)
        assert "Traceback" not in r.text
    r = make("nobody")
    assert r.status_code == 422 and r.json()["code"] == "camera.folder-missing"
    assert r.json()["params"] == {"folder": "nobody"}


def test_a_file_too_large_to_be_a_photo_is_refused_unread(tmp_path, huge_file):
    """A folder camera read its shown file whole, whatever its size: a 4 GB video saved
    as .jpg in the folder (a phone's sync) took 4 GB of the box's memory at every ask."""
    huge_file("clip.jpg")
    src = FolderSource(tmp_path, label="folders/x")
    assert src.latest() is None
    st = src.status()
    assert (st.state, st.code) == ("dead", "camera.photo-unreadable")
    assert "clip.jpg" in st.detail and "MB" in st.detail


def test_a_folder_photo_is_stored_without_its_metadata(client, settings, admin_key):
    """A folder a phone syncs its photos to hands the box photos with where they were taken
    (EXIF); the folder camera's photo was stored as its file was, and the table's view link
    hands stored photos to anyone. One with metadata is stored re-encoded, as an upload is."""
    table_id, h = _table(client, settings, admin_key)
    jpeg = (PHOTOS / "D03-05.jpg").read_bytes()
    sent = with_exif(jpeg, note=b"GPSLatitude 32.0853 N; Make: PhoneCo")
    (settings.data_dir / "folders" / "ava" / "cam.jpg").write_bytes(sent)
    grid, die = scene_card("D03-05")
    assert client.post(f"/api/tables/{table_id}/rounds", json={"grid": grid, "die": die},
                       headers=h).status_code == 200
    assert client.post(f"/api/tables/{table_id}/done/0", headers=h).status_code == 200
    a = client.get(f"/api/tables/{table_id}").json()["round"]["builders"][0]
    got = client.get(a["photo"]).content
    assert got[:2] == b"\xff\xd8" and b"GPSLatitude" not in got and b"PhoneCo" not in got
