"""Calibrating a station's colours from the dashboard: through the station's own camera, with
the box's admin key; the profile keeps the camera's kind and the mat's pose."""

from __future__ import annotations

import shutil

import numpy as np
import yaml

from referee.paths import MODELS


def _calibration_folder(monkeypatch, tmp_path):
    import referee.paths
    import referee.server.stations

    folder = tmp_path / "calibration"
    monkeypatch.setattr(referee.paths, "CALIBRATION", folder)
    monkeypatch.setattr(referee.server.stations, "CALIBRATION", folder)
    return folder


def _table_over_stack(client, settings, admin: dict, station: str):
    """POST /api/tables: a table whose first place, at `station`, has a folder camera showing
    the colour stack of D03 (the answer)."""
    cam = settings.data_dir / "folders" / "stack"
    cam.mkdir(parents=True)
    shutil.copy(MODELS / "demo" / "stations" / "D03" / "colours.jpg", cam / "colours.jpg")
    body = {"players": ["Ava", "Ben"], "places": [
        {"station": station, "camera": {"kind": "folder", "path": "folders/stack"}},
        {"station": "D04"}]}
    return client.post("/api/tables", json=body, headers=admin)


def test_colours_are_calibrated_from_a_place_camera(client, settings, admin_key, monkeypatch,
                                                    tmp_path):
    folder = _calibration_folder(monkeypatch, tmp_path)
    admin = {"X-Admin-Key": admin_key}
    created = _table_over_stack(client, settings, admin, "D03").json()
    ask = {"table": created["id"], "place": 0, "order": "GBP"}
    # the table's own key does not change a station profile
    for headers in ({}, {"X-Table-Secret": created["secret"]}):
        r = client.post("/api/stations/D03/colours", json=ask, headers=headers)
        assert r.status_code in (401, 403)
    r = client.post("/api/stations/D03/colours", json=ask, headers=admin)
    assert r.status_code == 200, r.text
    out = r.json()
    assert set(out["colours"]) == {"G", "B", "P", "white"}
    assert out["source"] == {"kind": "folder", "path": "folders/stack"}
    profile = yaml.safe_load((folder / "stations" / "D03.yaml").read_text())
    assert profile["colour_source"]["kind"] == "folder"
    assert len(profile["mat_pose"]["rvec"]) == 3 and profile["mat_pose"]["tvec"][2] > 0
    # the centres learnt are the stack's: the blue stone is blue (b < 0)
    assert np.asarray(profile["colour_model"]["centres"]["B"])[2] < -5
    stations = {s["id"]: s for s in client.get("/api/stations").json()}
    assert stations["D03"]["source"] == "calibration"
    # a wrong stack order, a phone place with no photo, another station's unknown id
    r = client.post("/api/stations/D03/colours", json=ask | {"order": "GGG"}, headers=admin)
    assert r.status_code == 422
    r = client.post("/api/stations/D03/colours", json=ask | {"place": 1}, headers=admin)
    assert r.status_code == 409 and "no picture" in r.json()["detail"]
    r = client.post("/api/stations/NOPE/colours", json=ask, headers=admin)
    assert r.status_code == 422 and "no station" in r.json()["detail"]


def test_a_picture_without_the_stack_is_refused_in_plain_words(client, settings, admin_key,
                                                               monkeypatch, tmp_path):
    folder = _calibration_folder(monkeypatch, tmp_path)
    admin = {"X-Admin-Key": admin_key}
    # the demo's camera shows a build, not the colour stack
    r = client.post("/api/stations/D03/colours", json={"table": "demo", "place": 0},
                    headers=admin)
    assert r.status_code == 422, r.text
    assert "Traceback" not in r.text and str(settings.data_dir) not in r.text
    assert not (folder / "stations" / "D03.yaml").exists()


def test_a_confident_photo_keeps_its_station_mat_pose(client, demo_secret, settings,
                                                      wait_view):
    """A confident verdict with only the station's mat in view refreshes the pose that tells
    the station's mat from a neighbour's; it survives a restart (<data>/mat-poses.json)."""
    import json

    h = {"X-Table-Secret": demo_secret}
    assert client.post("/api/tables/demo/rounds/demo", headers=h).status_code == 200
    assert client.post("/api/tables/demo/done/0", headers=h).status_code == 200
    view = wait_view("demo", lambda v: all(b["verdict"] for b in v["round"]["builders"]))
    sure = {view["places"][b["place"]]["station"] for b in view["round"]["builders"]
            if b["verdict"]["verdict"] != "unsure"}
    assert sure, "the demo's first round has a confident verdict"
    poses = json.loads((settings.data_dir / "mat-poses.json").read_text())
    assert sure <= set(poses)
    for rvec, tvec in poses.values():
        assert len(rvec) == 3 and len(tvec) == 3 and tvec[2] > 0  # the mat is in front
    assert client.app.state.service.mat_poses.keys() == poses.keys()


def test_colours_are_kept_in_the_profile_of_the_station_asked_for(client, settings, admin_key,
                                                                  monkeypatch, tmp_path):
    """A profile copied from the example keeps the example's `id:`: the dashboard's colour
    calibration of station "kitchen" was written to example-webcam-640.yaml instead."""
    import json

    folder = _calibration_folder(monkeypatch, tmp_path)
    raw = json.loads((MODELS / "demo" / "stations" / "D03" / "station.json").read_text())
    profile = {k: raw[k] for k in ("level", "unit_mm", "image_size", "camera_matrix",
                                   "dist_coeffs")} | {"id": "example-webcam-640"}
    (folder / "stations").mkdir(parents=True)
    (folder / "stations" / "kitchen.yaml").write_text(yaml.safe_dump(profile))
    admin = {"X-Admin-Key": admin_key}
    created = _table_over_stack(client, settings, admin, "kitchen")
    assert created.status_code == 201, created.text
    r = client.post("/api/stations/kitchen/colours", headers=admin,
                    json={"table": created.json()["id"], "place": 0})
    assert r.status_code == 200, r.text
    assert sorted(p.name for p in (folder / "stations").iterdir()) == ["kitchen.yaml"]
    saved = yaml.safe_load((folder / "stations" / "kitchen.yaml").read_text())
    assert saved["id"] == "kitchen" and saved["colour_source"]["kind"] == "folder"
