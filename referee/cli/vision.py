"""`referee mat`, `referee calibrate camera|colours`, `referee judge PHOTO`, `referee eval`,
`referee bench vision`: the camera referee from the command line."""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.console import Console
from rich.markup import escape

from referee.errors import RefereeError

if TYPE_CHECKING:
    import numpy as np

    from referee.tuki.cards import Card
    from referee.tuki.die import DieFace
    from referee.tuki.grid import Rows
    from referee.vision.colour import ColourModel
    from referee.vision.station import Station

console = Console(emoji=False, highlight=False, soft_wrap=True)  # no breaks inside codes
calibrate_app = typer.Typer(no_args_is_help=True,
                            help="Station calibration: camera intrinsics and stone colours.")
VERDICT_STYLE = {"correct": "green", "wrong": "red", "unsure": "yellow"}


def mat(out: Path = typer.Option(Path("mat.pdf"), "--out",
                                 help="Where to write the mat: .pdf or .png.")) -> None:
    """Write the printable A4 referee mat (print at 100 %; each square of the board is 40 mm)."""
    from referee.vision.mat import write_sheet

    try:
        write_sheet(out)
    except ValueError as e:
        from referee.errors import RefereeError

        raise RefereeError(str(e)) from None
    console.print(f"wrote {out}: A4 landscape, print at 100 % (no 'fit to page')")


def _profile_path(name: str) -> Path:
    from referee.vision.station import profile_path

    return profile_path(name)


def _needs_camera_step(name: str) -> RefereeError:
    """What to do first when a station has no profile yet (its camera step was skipped); a
    long name is clipped on its way out (`referee.cli.main`), as every value said back."""
    return RefereeError(
        f"station {name!r} is not set up yet: first run `referee calibrate camera {name} "
        "mat*.jpg` with 4 or more photos of the printed mat held at angles (README, "
        "\"Setting up a station\")")


def _save_profile(name: str, profile: dict) -> Path:
    from referee.vision.station import save_profile

    return save_profile(name, profile)


@calibrate_app.command("camera")
def calibrate_camera_cmd(
        name: str = typer.Argument(..., help="Station name, e.g. kitchen-left."),
        images: list[Path] = typer.Argument(..., help="Photos of the mat held at angles."),
        level: str = typer.Option(None, help="normal or advanced (default: the profile's, "
                                  "else normal)."),
        unit_mm: float = typer.Option(None, help="Your pieces' unit in mm (default: the "
                                      "profile's, else 16).")) -> None:
    """Camera intrinsics from 4+ photos of the mat at varied angles; writes the profile."""
    import numpy as np

    from referee.vision.calibration import calibrate_camera
    from referee.vision.colour import ColourModel
    from referee.vision.station import LEVELS, station_from_dict

    if unit_mm is not None and not 5.0 <= unit_mm <= 60.0:  # NaN too
        raise RefereeError(f"--unit-mm {unit_mm} is not a plausible piece size (5-60 mm)")
    # the name and the level before the photos are read (a new user's trial was told of a
    # bad level, naming a profile never written, after the calibration's success)
    _profile_path(name)
    if level is not None and level not in LEVELS:
        raise RefereeError(f"--level is normal or advanced, not {level!r}")
    cal = calibrate_camera(images)
    std = cal.std_intrinsics
    console.print(f"used {cal.views_used} of {len(images)} photos; RMS reprojection error "
                  f"{cal.rms_px:.2f} px")
    for photo_name, why in cal.left_out:  # which photo, so that it can be taken again
        console.print(f"  left out {escape(photo_name)}: {why}", highlight=False)
    # the limit a build photo's pose is held to (pipeline.measure), for this photo size
    from referee.vision.settings import default_settings

    limit = default_settings().pose.max_pose_rms_px * max(1.0, max(cal.image_size) / 1280.0)
    quality = "good" if cal.rms_px <= limit / 2 else "usable" if cal.rms_px <= limit else \
        "poor: is the mat flat and are the photos sharp? take them again"
    console.print(f"  {quality} (up to {limit / 2:.1f} px is good)", highlight=False)
    # with a fixed aspect ratio OpenCV reports the focal length's doubt on fx or on fy
    console.print(f"focal length {cal.camera_matrix[0, 0]:.1f} px ± {max(std[0], std[1]):.1f} "
                  "(1σ); principal point kept at the centre")
    old: dict = {}
    if _profile_path(name).exists():
        import yaml

        from referee.errors import yaml_error_sentence
        from referee.files import load_user_yaml

        try:
            old = load_user_yaml(_profile_path(name).read_text(encoding="utf-8")) or {}
        except yaml.YAMLError as e:
            raise RefereeError(yaml_error_sentence(_profile_path(name), e)) from None
        except RecursionError:
            raise RefereeError(f"{_profile_path(name)} is not a station profile (its lists "
                               "are nested too deep)") from None
        if not isinstance(old, dict):
            raise RefereeError(f"{_profile_path(name)} is not a station profile (a YAML "
                               "mapping of fields)")
    profile = {"id": name, "level": level or old.get("level", "normal"),
               "unit_mm": unit_mm if unit_mm is not None else old.get("unit_mm", 16.0),
               "image_size": list(cal.image_size),
               "camera_matrix": np.round(cal.camera_matrix, 4).tolist(),
               "dist_coeffs": np.round(cal.dist_coeffs, 6).tolist(),
               "colour_model": old.get("colour_model") or ColourModel.priors().to_dict()}
    # the fields kept from the profile there (or --level) must load: never write one that
    # every later command refuses (StationError names the field and the file)
    station_from_dict(profile, str(_profile_path(name)))
    profile["unit_mm"] = float(profile["unit_mm"])
    console.print(f"wrote {_save_profile(name, profile)}")
    learnt = old.get("colour_model")
    if isinstance(learnt, dict) and learnt.get("source", "photo") != "priors":
        # a new user's trial re-calibrated with another camera and kept, unsaid, the colours
        # learnt through the first one
        console.print(f"note: the stones' colours were kept from before, learnt through the "
                      f"camera as it was then; if the camera or its settings changed, take the "
                      f"colour photo again: referee calibrate colours {name} stack.jpg",
                      highlight=False)


@calibrate_app.command("level")
def calibrate_level_cmd(
        name: str = typer.Argument(..., help="Station name (a demo station gets its own "
                                   "profile under calibration/stations/)."),
        level: str = typer.Argument(..., help="normal or advanced.")) -> None:
    """Set a station's level: normal or advanced.

    Its colours must then include every stone of that level: when they do not, the default
    colours are used until `referee calibrate colours` learns them."""
    from dataclasses import replace

    from referee.errors import RefereeError
    from referee.server.stations import UnknownStationError, station_path
    from referee.vision.colour import ColourModel
    from referee.vision.station import LEVELS, load_station

    if level not in LEVELS:
        raise RefereeError(f"a level is normal or advanced, not {level!r}")
    try:
        path = station_path(name)
    except UnknownStationError:
        raise _needs_camera_step(name) from None
    station = load_station(path)
    if station.level == level:
        console.print(f"{name} is already set up for the {level} level")
        return
    station = replace(station, level=level)
    # colours learnt at either level stay: the model that has every stone of the new level
    # is used, and one that lacks some is kept for the way back (a new user's trial: normal
    # → advanced → normal threw the learnt colours away, and verdicts went unsure)
    aside = station.kept_colour_model
    learnt = [m for m in (station.colour_model, aside) if m is not None and m.source == "photo"]
    usable = next((m for m in learnt if all(c in m.centres for c in station.colours)), None)
    kept = next((m for m in learnt if m is not usable), None)
    station = replace(station, colour_model=usable or ColourModel.priors(),
                      kept_colour_model=kept)
    missing = [c for c in station.colours if c not in learnt[0].centres] \
        if learnt and usable is None else []
    out = _save_profile(name, station.to_profile())
    console.print(f"wrote {out}: {name} is set up for the {level} level")
    if usable is not None and usable is aside:
        console.print("its colours learnt before at this level are used again")
    if missing:
        console.print(f"its colours lack {', '.join(missing)}: the default colours are used "
                      f"until you run `referee calibrate colours {name} PHOTO --order "
                      f"{station.colours}` with a photo of the {level} stack")


@calibrate_app.command("colours")
def calibrate_colours_cmd(
        name: str = typer.Argument(..., help="Station name (a profile made by "
                                   "`calibrate camera`, or a station.json path)."),
        photo: Path = typer.Argument(..., help="The stones lying on the build line, stacked "
                                     "bottom to top."),
        order: str = typer.Option(None, help="Stack order bottom to top, e.g. GBPO "
                                  "(default: the level's stones)")) -> None:
    """Learn the stone colours from one photo; works under any lamp after this.

    The mat's place in the photo is kept too (it tells this station's mat from a
    neighbour's)."""
    from dataclasses import replace

    from referee.vision.calibration import learn_colours
    from referee.vision.station import (
        check_stack_order,
        load_station,
        save_colour_calibration,
    )

    src = Path(name) if name.endswith((".json", ".yaml")) else _profile_path(name)
    if not name.endswith((".json", ".yaml")) and not src.exists():  # no camera step yet
        raise _needs_camera_step(name)
    station = load_station(src, learn_colours=False)
    if not name.endswith((".json", ".yaml")):  # kept under the name asked for, never the
        station = replace(station, id=name)  # file's `id:` (a copy of the example's keeps it)
    order = (order or station.colours).upper()
    check_stack_order(order, station.colours, "--order")
    image = _same_camera(photo, station)
    model, (rvec, tvec) = learn_colours(image, station, order, str(photo))
    # a profile named by its path is written back there; a name, to calibration/stations/
    out = save_colour_calibration(station, model, (rvec, tvec),
                                  {"kind": "file", "path": photo.name[:100]},
                                  src if src.suffix in (".json", ".yaml", ".yml") and
                                  name.endswith((".json", ".yaml", ".yml")) else None)
    _say_separation(model, order)
    console.print(f"wrote {out}")


def _same_camera(photo: Path, station: Station) -> np.ndarray:
    """The colour photo (H×W×3 uint8 BGR), if of the size the station's camera was
    calibrated at. A photo of another size is another camera or setting (a new user's trial
    took another station's colour photo, and learnt that camera's colours): refused, as the
    camera step refuses mixed photos.

    :raises CalibrationError: the sizes differ; PhotoError: not a photo.
    """
    from referee.vision.calibration import CalibrationError
    from referee.vision.photo import read_photo

    image = read_photo(photo)
    h, w = image.shape[:2]
    w0, h0 = station.image_size
    if (w, h) != (w0, h0):
        raise CalibrationError(f"{photo}: {w}×{h} px, but the camera of station "
                               f"{station.id} was calibrated at {w0}×{h0}; take the colour "
                               "photo with that camera at that setting")
    return image


def _say_separation(model: ColourModel, order: str) -> None:
    """Each colour learnt (Lab under the paper's white) and how far it lies from the colour
    it is nearest to, in words: `well apart` or `close` (nearer than `colour.close_colours`
    of models/vision.yaml: the dev stations' learnt colours run from 3, a light grey as white
    as the snow, to 79, most pairs 12-30), with what to do when close."""
    from rich.table import Table

    from referee.vision.assemble import COLOUR_NAMES
    from referee.vision.colour import WHITE
    from referee.vision.settings import default_settings

    close_at = default_settings().colour.close_colours

    names = COLOUR_NAMES | {WHITE: "snow (white)"}
    # plain headers (a new user's trial: "L a b nearest apart" was colour scientists' words);
    # the numbers stay for a developer: lightness, and the CIE Lab colour axes
    table = Table("stone", "lightness", "green–red", "blue–yellow", "looks most like",
                  "how far", "", box=None, pad_edge=False)
    close = []
    for c, near, dist in model.separation(order):
        lab = model.centres[c]
        word = "close" if dist < close_at else "well apart"
        if dist < close_at and (near, c) not in close:
            close.append((c, near))
        table.add_row(names.get(c, c), f"{lab[0]:.0f}", f"{lab[1]:.0f}", f"{lab[2]:.0f}",
                      names.get(near, near), f"{dist:.1f}",
                      "[yellow]close[/]" if word == "close" else "[green]well apart[/]")
    console.print(table)
    for c, near in close:
        console.print(f"[yellow]{names.get(c, c)} and {names.get(near, near)} look alike in "
                      "this light:[/] the referee will more often be unsure of them and ask "
                      "the lookout. Softer, even light, or a colour photo taken in the light "
                      "you play in, tells them apart better.")
    if not close:
        console.print("[green]Every colour is well apart from the others.[/]")


def _resolve_target(card: str | None, card_grid: Path | None, die: str, level: str
                    ) -> tuple[Card, DieFace, Rows]:
    """The card's target at a station of `level`; a card of the other level is refused."""
    from referee.cli.tuki import resolve_target
    from referee.errors import RefereeError
    from referee.tuki.cards import CardError
    from referee.tuki.pieces import a_level

    try:
        c, face, target = resolve_target(card, card_grid, die, level)
    except CardError as e:
        if not e.other_level:
            raise
        # a grid with the orange stone at a normal station (a new-user trial: calibrated
        # before the level was set, then no way out was named)
        raise CardError(f"{e}; if your game is the other level, set the station to it: "
                        "referee calibrate level NAME advanced (or normal)") from None
    if c.level != level:
        raise RefereeError(f"card {c.id} is for the {c.level} level, but the station is set "
                           f"up for the {level} level; use {a_level(level)} card or the "
                           "station profile of that level")
    return c, face, target


def _station_file(station: Path) -> Path:
    """`--station` as given, or, when no such file exists and it is a bare name, the station
    of that name as the server lists it (`stations.catalogue`): the profile `referee
    calibrate` wrote (calibration/stations/NAME.yaml), else a demo station (D03: a re-trial
    was told to set up the station the new-table page offers)."""
    from referee.server.stations import catalogue

    if station.is_dir() and (station / "station.json").is_file():
        return station / "station.json"  # a photo set's station folder (a new user's trial)
    if station.exists() or len(station.parts) != 1 or station.suffix:
        return station
    return catalogue().get(station.name, station)


def _no_station(station: Path) -> RefereeError:
    """What to do when `--station` names nothing: a bare name is a station not set up yet
    (its camera step first; the stations that are set up named, as a typo's help); a path
    is a file that is not there. A new user's trial read "cannot read station file kitchen:
    No such file or directory"."""
    if len(station.parts) != 1 or station.suffix:
        return RefereeError(f"no station file {station}: give a station's name (as given to "
                            "`referee calibrate camera`) or the path of its profile")
    from referee.server.stations import catalogue

    err = _needs_camera_step(station.name)
    known = list(catalogue())[:20]
    return RefereeError(f"{err}" + (f". Stations set up: {', '.join(known)}" if known else ""))


def judge_photo(photo: Path = typer.Argument(..., help="The build photo (JPEG, PNG, WebP or "
                                             "BMP)."),
                station: Path = typer.Option(..., "--station", help="Station profile .yaml, "
                                             "a photo set's station.json, or the name "
                                             "given to referee calibrate."),
                card: str = typer.Option(None, "--card", help="Card id, e.g. N01."),
                card_grid: Path = typer.Option(None, "--card-grid", help="A card grid file."),
                die: str = typer.Option(..., "--die", help="Die face: bear, fish or eagle, "
                                       "+white when the white square is up (fish+white)."),
                as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
                overlay: Path = typer.Option(None, "--overlay", help="Write the photo with the "
                                             "fitted stones and faults drawn (.png, .jpg)."),
                phone: bool = typer.Option(False, "--phone", help="The photo was taken with "
                                           "a phone (any camera but the station's): its camera "
                                           "is worked out from the mat, as the server does "
                                           "with a photo sent from a phone."),
                ) -> None:
    """Judge the build in a photo against a card turned by the die."""
    import cv2

    from referee.check import check_photo
    from referee.errors import RefereeError
    from referee.vision.photo import read_photo
    from referee.vision.station import load_station, unused_colour_photo

    if overlay is not None and overlay.suffix.lower() not in (".png", ".jpg", ".jpeg"):
        raise RefereeError(f"--overlay must end in .png or .jpg, not {overlay.name!r}")
    station = _station_file(station)
    if not station.exists():  # before the overlay's checks, which ask where the station is
        raise _no_station(station)
    if overlay is not None:
        _check_overlay_path(overlay, photo, station, card_grid)
    st = load_station(station)
    c, face, target = _resolve_target(card, card_grid, die, st.level)
    image = read_photo(photo)
    chk = check_photo(image, st, target, face, c.level, overlay=overlay is not None,
                      intrinsics="from-mat" if phone else "station")
    if overlay is not None and chk.overlay_bgr is not None and \
            not cv2.imwrite(str(overlay), chk.overlay_bgr):
        raise RefereeError(f"could not write the overlay to {overlay} (does its folder "
                           "exist?)")
    source = str(st.colour_model.source)  # a hand-edited profile may hold anything there
    if as_json:
        print(json.dumps(chk.to_dict() | {"target": list(target), "colours": source} |
                         ({"overlay": str(overlay)} if overlay is not None else {})))
        return
    v = chk.verdict
    console.print(f"[bold {VERDICT_STYLE[v.verdict]}]{v.verdict}[/]  ({chk.timings_ms['total']:.0f}"
                  " ms)")
    # the sentences alone, as the table's pages show them: new users' trials read
    # "fault position:B: the blue stone ..." and "(table:none)" as jargon; --json keeps
    # the codes for scripts
    for text in [f.text for f in v.faults] + [r.text for r in v.reasons]:
        console.print(f"  - {escape(text)}")
    if not phone and any(r.code == "photo:cropped" for r in v.reasons):
        # a new user's trial: a phone's photo of the build, refused here as cropped, was
        # judged when sent from a phone to a table (the server works its camera out)
        console.print("note: taken with a phone rather than the station's camera? Judge it "
                      "with --phone", highlight=False)
    why = unused_colour_photo(st)  # the station names a colour photo it could not use
    if why is not None:
        console.print(f"note: default colours, since the station's colour photo could not be "
                      f"used: {escape(why)}", highlight=False)
    if overlay is not None:
        console.print(f"overlay: {escape(str(overlay))}")


def _check_overlay_path(overlay: Path, photo: Path, station: Path, card_grid: Path | None
                        ) -> None:
    """Refuse an --overlay that would write over what the referee reads: a file given, a
    photo in the station's folder (its colour photo: a break-it trial overwrote it, and the
    station fell back on default colours), a link (followed, it wrote over its target), or
    a folder. :raises RefereeError: saying which."""
    from referee.errors import RefereeError
    from referee.vision.photo import is_photo_file

    new = "name a new file (why.png)"
    if overlay.is_symlink():
        raise RefereeError(f"--overlay {overlay} is a link: {new}")
    if overlay.is_dir():
        raise RefereeError(f"--overlay {overlay} is a folder: {new}")
    if not overlay.parent.is_dir():  # said before the judging, whose verdict it would lose
        raise RefereeError(f"--overlay {overlay}: its folder {overlay.parent} does not exist")
    if not overlay.exists():
        return
    if not overlay.is_file():  # a named pipe or a device: opening it to write would block
        raise RefereeError(f"--overlay {overlay} is not a plain file: {new}")
    if any(overlay.resolve() == p.resolve() for p in (photo, station, card_grid) if p):
        raise RefereeError(f"--overlay {overlay} is one of the files given: it would be "
                           f"written over; {new}")
    if overlay.resolve().parent == station.resolve().parent and is_photo_file(overlay):
        raise RefereeError(f"--overlay {overlay} is a photo beside the station's profile (its "
                           f"colour photo?): it would be written over; {new}")


def eval_cmd(dataset: Path = typer.Argument(..., help="A photo set (WORLD.md §6 format)."),
             as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
             limit: int = typer.Option(None, "--limit", help="Only the first N scenes."),
             by: str = typer.Option(None, "--by", help="Also per group: station or condition."),
             intrinsics: str = typer.Option(
                 "station", "--intrinsics",
                 help="station (calibrated camera) or from-mat (judge as phone photos).")
             ) -> None:
    """Judge every scene of a labelled photo set and compare with the labels."""
    from referee.evaluate import GROUPINGS, evaluate
    from referee.vision.settings import default_settings

    if by is not None and by not in GROUPINGS:
        raise RefereeError(f"--by takes station or condition, not {by!r}")
    if intrinsics not in ("station", "from-mat"):
        raise RefereeError(f"--intrinsics takes station or from-mat, not {intrinsics!r}")
    if limit is not None and limit < 1:
        raise RefereeError(f"--limit takes a number of scenes, 1 or more, not {limit}")

    told: set[str] = set()

    def line(r) -> None:
        if as_json:
            return
        mark = "ok " if r.got == r.expected else "MISS"
        console.print(f"{mark} {escape(str(r.id)):<10} expected {r.expected:<7} got "
                      f"[{VERDICT_STYLE[r.got]}]{r.got:<7}[/] "
                      f"{escape(','.join(r.faults + r.reasons))}"
                      f"  {r.ms:.0f} ms")
        why = r.stage_ms.get("error")
        if why and why not in told:  # a bad station file or photo: said once, in words
            told.add(why)
            console.print(f"     {escape(str(why))}", style="yellow")

    def note(text: str) -> None:
        if not as_json:
            console.print(f"note: {escape(text)}", style="yellow", highlight=False)

    result = evaluate(dataset, limit, on_result=line, intrinsics=intrinsics, on_note=note)
    summary = result.to_dict()
    groups = {k: g.to_dict() for k, g in result.groups(by).items()} if by else {}
    if as_json:
        print(json.dumps({**summary, **({"by": by, "groups": groups} if by else {}),
                          "intrinsics": intrinsics, "settings": default_settings().to_dict()}))
        return
    if groups:
        console.print(f"\n{by:<16} {'scenes':>6} {'accuracy':>9} {'conf. wrong':>12} "
                      f"{'unsure':>7}")
        for k, g in groups.items():
            console.print(f"{escape(str(k)):<16} {g['scenes']:>6} {g['accuracy']:>9.1%} "
                          f"{g['confidently_wrong']:>12} {g['unsure']:>7}")
        if by == "condition":  # a new user's trial read the groups as parts of the whole
            console.print("(a scene counts in each of its conditions: `plain` is a scene "
                          "without a --hard condition; `paper-clipped` is measured from the "
                          "photo, so the groups overlap)")
    console.print(f"{summary['scenes']} scenes: accuracy {summary['accuracy']:.1%}, "
                  f"confidently wrong {summary['confidently_wrong']}, unsure "
                  f"{summary['unsure']}, median {summary['median_ms']} ms, "
                  f"p95 {summary['p95_ms']} ms")


def bench_vision(dataset: Path = typer.Argument(..., help="A photo set (WORLD.md §6 format)."),
                 limit: int = typer.Option(None, "--limit", help="Only the first N scenes."),
                 repeat: int = typer.Option(1, help="Runs per photo.")) -> None:
    """Time each pipeline stage per photo on one core (decoding excluded).

    Wall time per stage, and the whole measurement's CPU time (`cpu`), which other programs
    running beside it do not inflate."""
    import time

    import cv2
    import numpy as np

    from referee.evaluate import scenes
    from referee.vision.photo import read_photo
    from referee.vision.pipeline import measure
    from referee.vision.station import load_station

    if (limit is not None and limit < 1) or repeat < 1:
        raise RefereeError("--limit and --repeat take 1 or more")
    cv2.setNumThreads(1)
    stations: dict = {}
    per_stage: dict[str, list[float]] = {}
    root = Path(dataset)
    for i, sc in enumerate(scenes(root)):
        if limit is not None and i >= limit:
            break
        if sc.station not in stations:
            stations[sc.station] = load_station(root / "stations" / sc.station / "station.json")
        image = read_photo(sc.image)
        for _ in range(repeat):
            cpu = time.process_time()
            m = measure(image, stations[sc.station])
            cpu = (time.process_time() - cpu) * 1000
            for k, v in m.timings_ms.items():
                per_stage.setdefault(k, []).append(v)
            per_stage.setdefault("total", []).append(sum(m.timings_ms.values()))
            per_stage.setdefault("cpu", []).append(cpu)  # the whole's CPU time
    console.print(f"{'stage':<10} {'median ms':>10} {'p95 ms':>8}   (one core, per photo)")
    for k, values in per_stage.items():
        ordered = sorted(values)
        p95 = float(np.percentile(ordered, 95, method="inverted_cdf"))  # nearest rank
        console.print(f"{k:<10} {statistics.median(ordered):>10.1f} {p95:>8.1f}")


def register(app: typer.Typer, bench_app: typer.Typer) -> None:
    """Add the vision commands to the `referee` app."""
    app.command("mat")(mat)
    app.add_typer(calibrate_app, name="calibrate")
    app.command("judge")(judge_photo)
    app.command("eval")(eval_cmd)
    bench_app.command("vision")(bench_vision)
