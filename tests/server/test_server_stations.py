"""The stations a table is made of, through the API: profiles that do not load, levels,
and whether their colours are calibrated (split from test_server_api.py)."""

from __future__ import annotations

import re


def test_a_station_that_does_not_load_is_refused(client, monkeypatch, tmp_path):
    from referee.server import stations

    (tmp_path / "stations").mkdir()
    (tmp_path / "stations" / "BAD.yaml").write_text("level: [normal\nunit_mm: 16\n")
    (tmp_path / "stations" / "EMPTY.yaml").write_text("")
    (tmp_path / "stations" / "WRONG.yaml").write_text("level: normal\nunit_mm: lots\n")
    monkeypatch.setattr(stations, "CALIBRATION", tmp_path)
    listed = {s["id"]: s for s in client.get("/api/stations").json()}
    # listed as not usable (a file that parses with a wrong field too), the demo's as usable
    assert [listed[sid]["usable"] for sid in ("BAD", "EMPTY", "WRONG", "D03")] == [
        False, False, False, True]
    # the new-table form greys them out with words, never chosen for a place (it offered
    # "BAD · ?" as any other)
    form = client.get("/new?lang=en").text
    for sid in ("BAD", "EMPTY", "WRONG"):
        option = re.search(f'<option value="{sid}"[^>]*>([^<]*)</option>', form)
        assert option and " disabled" in option.group(0) and " selected" not in option.group(0)
        assert option.group(1) == f"{sid} · cannot be read: calibrate it again"
    for sid in ("BAD", "EMPTY", "WRONG"):
        body = {"players": ["A", "B"], "places": [{"station": sid}, {"station": "D04"}]}
        r = client.post("/api/tables", json=body)
        assert r.status_code == 422, r.text
        detail = r.json()["detail"]
        assert f"station {sid!r} cannot be used: its profile does not load" in detail
        assert str(tmp_path) not in detail and "\n" not in detail
        # a phone says it in its own language (refusal.station.broken), naming the station
        assert r.json()["code"] == "station.broken" and r.json()["params"]["station"] == sid
    assert len(client.get("/api/tables").json()) == 1


def test_a_station_profile_that_breaks_the_reader_is_listed_and_refused_in_words(
        client, monkeypatch, tmp_path):
    """A profile nested thousands deep made GET /api/stations (and the new-table form) a
    500, and one with an infinite image size a 500 on the new table (an OverflowError)."""
    from referee.server import stations

    (tmp_path / "stations").mkdir()
    (tmp_path / "stations" / "DEEP.json").write_text("[" * 100_000 + "]" * 100_000)
    (tmp_path / "stations" / "INF.yaml").write_text(
        "level: normal\nimage_size: [.inf, 480]\n"
        "camera_matrix: [[700, 0, 320], [0, 700, 240], [0, 0, 1]]\n")
    monkeypatch.setattr(stations, "CALIBRATION", tmp_path)
    r = client.get("/api/stations")
    assert r.status_code == 200, r.text
    assert {"DEEP", "INF"} <= {s["id"] for s in r.json()}
    for sid in ("DEEP", "INF"):
        body = {"players": ["A", "B"], "places": [{"station": sid}, {"station": "D04"}]}
        r = client.post("/api/tables", json=body)
        assert r.status_code == 422, r.text
        assert f"station {sid!r} cannot be used" in r.json()["detail"]
    assert len(client.get("/api/tables").json()) == 1


def test_a_table_level_must_match_its_stations(client):
    body = {"players": ["A", "B"], "level": "advanced",
            "places": [{"station": "D03"}, {"station": "D04"}]}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 422
    assert r.json()["detail"] == ("station 'D03' is set up for the normal level (its "
                                  "stones are gray, blue and purple), but this table plays "
                                  "advanced: set the table's Level to normal, or choose a "
                                  "station of the advanced level (or change this one with "
                                  "`referee calibrate level D03 advanced`)")
    assert (r.json()["code"], r.json()["params"]) == ("table.station-normal",
                                                      {"station": "D03"})
    assert len(client.get("/api/tables").json()) == 1


def test_an_advanced_station_at_a_normal_table_says_to_set_the_tables_level(
        client, monkeypatch, tmp_path):
    """A family whose stones include orange chose their advanced station at a table left at
    the normal level, and was told only to recalibrate the station's level: the refusal
    says to set the table's Level to Advanced first; /api/stations says each station's
    level and whether its colours were calibrated."""
    from typer.testing import CliRunner

    import referee.paths
    import referee.server.stations
    from referee.cli import app

    folder = tmp_path / "calibration"
    monkeypatch.setattr(referee.paths, "CALIBRATION", folder)
    monkeypatch.setattr(referee.server.stations, "CALIBRATION", folder)
    assert CliRunner().invoke(app, ["calibrate", "level", "D03", "advanced"]).exit_code == 0
    body = {"players": ["A", "B"], "places": [{"station": "D03"}, {"station": "D04"}]}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 422
    detail, code = r.json()["detail"], r.json()["code"]
    assert code == "table.station-advanced" and r.json()["params"] == {"station": "D03"}
    assert "its stones include orange" in detail
    assert detail.index("set the table's Level to advanced") < detail.index("calibrate level")
    stations = {s["id"]: s for s in client.get("/api/stations").json()}
    assert stations["D03"]["level"] == "advanced" and stations["D04"]["level"] == "normal"
    # D03's new level needs orange: its colours are the defaults until calibrated again
    assert stations["D03"]["colours"] == "default"
    assert stations["D04"]["colours"] == "calibrated"  # learned from its colour photo
    assert client.post("/api/tables", json=body | {"level": "advanced", "places": [
        {"station": "D03"}, {"station": "D03"}]}).status_code == 201


def test_a_copied_profile_whose_colour_photo_is_not_there_is_listed_on_default_colours(
        client, monkeypatch, tmp_path):
    """A new user's trial copied a photo set's station.json to calibration/stations/NAME.yaml
    (the README's "copy a known camera's profile"); its colour photo stayed behind, it was
    judged on the default colours, and /api/stations said "calibrated". Listed as on the
    default colours now (the new-table form then says to calibrate them); with its colour
    photo beside it, calibrated."""
    import shutil

    import referee.paths
    import referee.server.stations
    from referee.paths import FIXTURES

    folder = tmp_path / "calibration"
    (folder / "stations").mkdir(parents=True)
    monkeypatch.setattr(referee.paths, "CALIBRATION", folder)
    monkeypatch.setattr(referee.server.stations, "CALIBRATION", folder)
    src = FIXTURES / "dev-scenes" / "stations" / "D04"
    shutil.copy(src / "station.json", folder / "stations" / "kitchen.yaml")

    def colours() -> str:
        rows = {s["id"]: s for s in client.get("/api/stations").json()}
        return rows["kitchen"]["colours"]

    assert colours() == "default"
    shutil.copy(src / "colours.jpg", folder / "stations" / "colours.jpg")
    assert colours() == "calibrated"


def test_changing_a_stations_level_does_not_dead_end(client, monkeypatch, tmp_path):
    """The advice works: after `referee calibrate level D03 advanced` the table is made."""
    from typer.testing import CliRunner

    import referee.paths
    import referee.server.stations
    from referee.cli import app

    folder = tmp_path / "calibration"
    monkeypatch.setattr(referee.paths, "CALIBRATION", folder)
    monkeypatch.setattr(referee.server.stations, "CALIBRATION", folder)
    for sid in ("D03", "D04"):
        r = CliRunner().invoke(app, ["calibrate", "level", sid, "advanced"])
        assert r.exit_code == 0, r.output
        assert "advanced level" in r.output and "calibrate colours" in r.output
    body = {"players": ["A", "B"], "level": "advanced",
            "places": [{"station": "D03"}, {"station": "D04"}]}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    r = CliRunner().invoke(app, ["calibrate", "level", "D03", "expert"])
    assert r.exit_code != 0 and "normal or advanced" in str(r.exception)  # main() prints it


def test_a_level_there_and_back_keeps_the_learnt_colours(client, monkeypatch, tmp_path):
    """A new user's trial: `calibrate level` to advanced and back to normal threw away the
    colours learnt for normal (the profile went to the defaults, a photo judged correct came
    back unsure). The learnt colours are kept aside and used again on the way back."""
    from typer.testing import CliRunner

    import referee.paths
    import referee.server.stations
    from referee.cli import app
    from referee.vision.station import load_station, profile_path

    folder = tmp_path / "calibration"
    monkeypatch.setattr(referee.paths, "CALIBRATION", folder)
    monkeypatch.setattr(referee.server.stations, "CALIBRATION", folder)
    colours = lambda: {s["id"]: s["colours"]  # noqa: E731
                       for s in client.get("/api/stations").json()}["D03"]
    assert colours() == "calibrated"
    r = CliRunner().invoke(app, ["calibrate", "level", "D03", "advanced"])
    assert r.exit_code == 0 and "calibrate colours" in r.output
    assert colours() == "default"  # orange was never learnt: the defaults, until it is
    learnt = load_station(profile_path("D03")).kept_colour_model
    assert learnt is not None and learnt.source == "photo" and "O" not in learnt.centres
    r = CliRunner().invoke(app, ["calibrate", "level", "D03", "normal"])
    assert r.exit_code == 0 and "learnt before at this level are used again" in r.output
    assert colours() == "calibrated"
    back = load_station(profile_path("D03"))
    assert back.colour_model.centres == learnt.centres and back.kept_colour_model is None
