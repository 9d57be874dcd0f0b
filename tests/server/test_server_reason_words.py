"""Every reason code the referee can give reads in plain words in all four languages
(issue: no raw codes, no English on a Persian page)."""

import re
from pathlib import Path

import pytest

import referee
from referee.server.i18n import LANGUAGES, messages

ROOT = Path(referee.__file__).parent
CODE = re.compile(r'f?"((?:mat|photo|camera|stone|band):[a-z-]+)')


def emitted_codes() -> set[str]:
    """Reason codes written in the vision, the judge and the server (a stone's colour, the
    `:X` of `stone:hidden:X`, is filled in at run time)."""
    out = set()
    for p in [*(ROOT / "vision").glob("*.py"), ROOT / "tuki" / "judge.py",
              *(ROOT / "server").glob("*.py")]:
        out |= set(CODE.findall(p.read_text(encoding="utf-8")))
    return out


def test_the_scan_finds_the_codes():
    codes = emitted_codes()
    assert {"mat:not-found", "photo:colours", "stone:unsupported", "band:position"} <= codes


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_reason_code_has_words(lang):
    words = messages(lang)
    missing = sorted(c for c in emitted_codes() if f"reason.{c}" not in words)
    assert missing == []


def server_refusal_codes() -> set[str]:
    """The codes of the server's own coded refusals (`table.not-your-turn`, a table limit,
    a new table's seats that clash), as written in its modules."""
    code = re.compile(r'"(table\.[a-z]+(?:-[a-z]+)*)"')
    return {c for p in (ROOT / "server").glob("*.py")
            for c in code.findall(p.read_text(encoding="utf-8"))}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_server_refusal_code_has_words(lang):
    """A refusal with a code is said in every language (words.js refereeErrorWords), the
    English pages too, instead of the server's own sentence."""
    codes = server_refusal_codes()
    assert {"table.too-many-mine", "table.same-name", "table.not-your-turn"} <= codes
    words = messages(lang)
    assert sorted(c for c in codes if f"refusal.{c}" not in words) == []


def camera_codes() -> set[str]:
    """The codes of why a camera does not work (`camera.cannot-open`, ...), as written in the
    server's modules, and the list cameras.py keeps of them."""
    from referee.server.cameras import CAMERA_CODES

    code = re.compile(r'"(camera\.[a-z]+(?:-[a-z]+)*)"')
    written = {c for p in (ROOT / "server").glob("*.py")
               for c in code.findall(p.read_text(encoding="utf-8"))}
    return written | set(CAMERA_CODES)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_camera_code_has_words(lang):
    """A dead camera says why in the page's language (a family at the table, not the
    server's English): every camera code has words, with the same placeholders as English."""
    codes = camera_codes()
    assert {"camera.cannot-open", "camera.no-frame", "camera.folder-missing", "camera.no-photo",
            "camera.pi-missing", "camera.pi-format"} <= codes
    words, en = messages(lang), messages("en")
    assert sorted(c for c in codes if f"refusal.{c}" not in words) == []
    holes = re.compile(r"{[a-z]+}")
    assert [c for c in sorted(codes) if sorted(holes.findall(words[f"refusal.{c}"]))
            != sorted(holes.findall(en[f"refusal.{c}"]))] == []
    if lang != "en":  # no English sentence: at most a name (Raspberry Pi, RGB888, JPG)
        latin = re.compile(r"[A-Za-z]{3,}(?: [A-Za-z]{3,}){2,}")
        assert [c for c in sorted(codes) if latin.search(words[f"refusal.{c}"])] == []


def answered_error_kinds() -> set[str]:
    """The `error` kinds the API answers with: every error class in the server, the card
    and die rules, the photo and station checks, and FastAPI's validation."""
    import inspect

    import referee.games.engine as engine
    import referee.server.cardtables as cardtables
    import referee.server.errors as server_errors
    import referee.server.stations as stations
    import referee.tuki.cards as cards
    import referee.tuki.die as die
    import referee.tuki.game as game
    import referee.vision.errors as vision_errors
    from referee.errors import RefereeError

    kinds = {"RequestValidationError", "ServerError"}
    for mod in (server_errors, stations, cards, die, game, vision_errors, engine, cardtables):
        for name, obj in vars(mod).items():
            if inspect.isclass(obj) and issubclass(obj, RefereeError) and \
                    obj.__module__ == mod.__name__:
                kinds.add(name)
    return kinds - {"VisionError"}  # a base class: its subclasses are what is raised


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_error_kind_has_words(lang):
    words = messages(lang)
    missing = sorted(k for k in answered_error_kinds() if f"err.kind.{k}" not in words)
    assert missing == []


def test_a_persian_phone_reads_a_refusal_in_persian(tmp_path):
    """A seat's phone that is not the lookout presses nothing it may not, but an error the
    server answers (here: a wrong key) shows in the page's language, not in English."""
    import shutil

    from playwright.sync_api import expect, sync_playwright

    from .conftest import free_port, serve

    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(chromium).exists():
        pytest.skip("needs Debian's chromium (.ci/run installs it with apt)")
    port = free_port()
    proc = serve(tmp_path / "data", port, tmp_path / "server.log", "--no-mdns")
    base = f"http://127.0.0.1:{port}"
    try:
        import httpx

        view = httpx.get(base + "/api/tables").json()[0]["view_path"]
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium)
            page = browser.new_page(viewport={"width": 360, "height": 640})
            page.goto(f"{base}{view}&lang=fa#k={'x' * 32}")  # a mistyped control link
            expect(page.locator("#ctl-error")).to_have_text(messages("fa")["err.link_key"],
                                                            timeout=10000)
            # the page then runs with no key: a call refused by the server reads in Persian
            text = page.evaluate("""async () => {
                const r = await fetch('/api/tables/demo/end', {method: 'POST'});
                const T = JSON.parse(document.getElementById('i18n').textContent);
                return window.refereeErrorWords(T, await r.json(), '');
            }""")
            assert text == messages("fa")["err.kind.ForbiddenError"]
            browser.close()
    finally:
        proc.terminate()
        proc.wait(10)
