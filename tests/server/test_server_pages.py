"""The phone pages: languages (RTL for fa, he, ar), the QR code, no secret on viewer pages,
and what an address with nothing at it answers."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from referee.server.i18n import LANGUAGES, messages, pick_language
from referee.server.i18n import plural_base as _base


def test_every_language_has_every_message():
    """Every message in every language, with the same placeholders. A language may add the
    plural forms it needs (CLDR categories: "g.coins.one" is "1 coin"); a form may say its
    number in words (Arabic's dual has none) but adds no placeholder of its own."""
    en = {k for k in messages("en") if _base(k) == k}
    for lang in LANGUAGES:
        raw = json.loads((__import__("referee.server.i18n", fromlist=["x"])._DIR
                          / f"{lang}.json").read_text(encoding="utf-8"))
        base = {k for k in raw if _base(k) == k}
        assert base == en, f"{lang}: missing {en - base}, extra {base - en}"
        for key, text in raw.items():  # placeholders are kept in translations
            want = set(_fields(messages("en")[_base(key)]))
            if _base(key) == key:
                assert set(_fields(text)) == want, (lang, key)
            else:
                assert set(_fields(text)) <= want and "{n}" in messages("en")[_base(key)], \
                    (lang, key)
    # English's plural forms never fill another language's gap
    assert "g.coins.one" not in messages("fa") and messages("fa")["g.coins"] == "{n} سکه"


def test_english_pages_spell_color_as_the_card_does():
    """One spelling of "color" in the English pages: the card's name as RULINGS.md gives it
    ("Change Color"), and every other word of the pages agrees (a new user read "Change Color"
    on the card and "colour: red" beside it). Placeholders are names, not words."""
    import re

    from referee.paths import ROOT

    rulings = (ROOT / "docs" / "RULINGS.md").read_text(encoding="utf-8")
    en = messages("en")
    for key in ("g.card.COLOR", "g.rank.DIR", "g.card.SUPERTAKI", "g.card.BREAKER",
                "g.rank.STOP", "g.rank.PLUS", "g.card.KING"):  # the cards' names, as written
        assert en[key] in rulings, (key, en[key])
    assert en["g.card.COLOR"] == "Change Color"
    british = {key: text for key, text in messages("en").items()
               if re.search(r"colour|learnt|travell", re.sub(r"\{[^}]*\}", "", text), re.I)}
    assert british == {}
    assert messages("en")["g.active"].startswith("color")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_open_taki_is_said_in_plain_words(lang):
    """An open TAKI says what may follow it, the cards of its color one after another, in
    every language ("TAKI run open" told a family nothing); the game's own word "run" is
    not used."""
    said = messages(lang)["g.taki_open"]
    assert "{c}" in said and said.index("{c}") > 0
    assert "run" not in said.lower()


def test_the_join_lines_start_as_sentences():
    """The lines about joining that stand on a line of their own (the room code's link to
    the join page, an open seat's and a taken seat's line on the owner's page) start with a
    capital in English ("on this box's page", "waits for someone", "has taken the seat" did),
    and say the same in each language: each is a sentence of its own, not the rest of one."""
    en = messages("en")
    for key in ("g.join_where", "g.open_hint", "g.joined"):
        assert en[key][0].isupper(), (key, en[key])
    assert en["g.join_where"].endswith("“" + en["g.join"] + "”")


def _fields(text: str) -> list[str]:
    import string

    return [f for _, f, _, _ in string.Formatter().parse(text) if f]


@pytest.mark.parametrize("lang, direction", [("en", "ltr"), ("fa", "rtl"), ("he", "rtl"),
                                             ("ar", "rtl")])
def test_table_page_language_and_direction(client, demo_secret, lang, direction):
    r = client.get(f"/t/demo?lang={lang}")
    assert r.status_code == 200
    assert f'<html lang="{lang}" dir="{direction}">' in r.text
    assert messages(lang)["table.penalties"] in r.text


def test_the_demo_tables_name_is_in_the_pages_language(client, demo_secret, make_table):
    """The demo table's shipped name ("Demo table") reads in the page's language, on its page
    and in the list of tables; a name a person typed stays as typed, even "Demo table"."""
    for lang in ("fa", "he", "ar"):
        local = messages(lang)["table.demo_name"]
        assert local != "Demo table"
        assert f'id="table-name">{local}<' in client.get(f"/t/demo?lang={lang}").text
        assert local in client.get(f"/?lang={lang}").text
    assert 'id="table-name">Demo table<' in client.get("/t/demo?lang=en").text
    table_id, _ = make_table(name="Demo table", language="fa")
    assert 'id="table-name">Demo table<' in client.get(f"/t/{table_id}").text


def test_a_link_to_no_table_says_so_in_the_pages_language(client):
    """A Hebrew page for a table that is not there: its heading and its line in Hebrew (the
    line was the server's English "no table 'nosuch'; check the link")."""
    for lang in ("fa", "he", "ar", "en"):
        r = client.get(f"/t/nosuch?lang={lang}")
        assert r.status_code == 404
        assert messages(lang)["err.no_table_detail"].replace("'", "&#39;") in r.text
        assert "check the link" not in r.text or lang == "en"


def test_language_per_phone_and_per_table(client, make_table):
    table_id, _ = make_table(language="he")
    assert 'lang="he"' in client.get(f"/t/{table_id}").text  # the table's language
    client.cookies.set("lang", "ar")
    assert 'lang="ar"' in client.get(f"/t/{table_id}").text  # the phone's choice wins
    assert 'lang="fa"' in client.get(f"/t/{table_id}?lang=fa").text
    assert pick_language(None, "xx", "fa-IR,fa;q=0.9") == "fa"
    assert pick_language(None) == "en"


def test_a_links_language_is_a_hint_that_no_phone_keeps(client, make_table):
    """An owner's control link carries the owner's language (?hl=) for the owner's own phone
    at the box's network address, which knows no choice of it yet. Passed on to another
    phone (a new-user trial), it set English there for a year as ?lang= did: a phone's own
    choice wins, and the hint is never kept."""
    table_id, _ = make_table(language="he")
    r = client.get(f"/t/{table_id}?hl=fa", headers={"accept-language": "en"})
    assert r.status_code == 200 and 'lang="fa"' in r.text  # the hint, before the browser's
    assert "lang" not in r.cookies and "lang" not in client.cookies  # never kept
    assert 'lang="he"' in client.get(f"/t/{table_id}").text  # so next: the table's
    client.cookies.set("lang", "ar")  # a phone that chose Arabic keeps it
    r = client.get(f"/t/{table_id}?hl=en")
    assert 'lang="ar"' in r.text and client.cookies.get("lang") == "ar"


def test_qr_code_opens_the_viewer_link(client, demo_secret):
    r = client.get("/api/tables/demo/qr.svg")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert r.text.lstrip().startswith("<?xml") and "<svg" in r.text
    client.cookies.clear()  # the table's id alone opens nothing, not even its QR code
    assert client.get("/api/tables/demo/qr.svg").status_code == 401


def test_pages_fetch_nothing_from_the_internet(client, demo_secret):
    import re

    outside = re.compile(r"""(src|href|action)=["']?(https?:)?//"""
                         r"""|url\(\s*["']?(https?:)?//|@import""")
    for path in ("/", "/new", "/t/demo", "/docs"):
        assert not outside.search(client.get(path).text), path
    assert client.get("/static-docs/swagger-ui-bundle.js").status_code == 200
    for name in ("app.css", "table.js", "new.js"):
        text = client.get(f"/static/{name}").text
        assert not outside.search(text) and "fetch(\"http" not in text, name


def test_new_table_form_lists_the_stations(client):
    html = client.get("/new").text
    for sid in ("D03", "D04"):
        assert f'value="{sid}"' in html
    assert {s["id"] for s in client.get("/api/stations").json()} >= {"D03", "D04"}


def test_the_form_offers_calibrated_stations_first_the_users_own_before_the_demos(client):
    """A new user's trial: with three players the third place got the uncalibrated example
    station while calibrated ones were free. Places take the user's own calibrated stations
    first, then the demo stations, then those on the default colours."""
    import re

    from referee.server.stations import first_choices

    def row(sid, colours, source, level="normal"):
        return {"id": sid, "colours": colours, "source": source, "level": level}

    rows = [row("D03", "calibrated", "demo"), row("D04", "calibrated", "demo"),
            row("example", "default", "calibration"), row("kitchen", "calibrated", "calibration")]
    assert first_choices(rows) == ["kitchen", "D03", "D04", "example"]
    # one level at a time (a mix is refused): a user's one advanced station beside two normal
    # demo stations leaves the places normal (a re-trial could not make the table); two of
    # the user's own advanced stations come first, the normal ones after
    practice = row("practice", "calibrated", "calibration", "advanced")
    assert first_choices([*rows[:3], practice]) == ["D03", "D04", "example", "practice"]
    den = row("den", "calibrated", "calibration", "advanced")
    assert first_choices([*rows[:3], practice, den])[:2] == ["practice", "den"]
    html = client.get("/new").text
    chosen = re.findall(r'<select name="station(\d)"[^>]*>.*?<option value="([^"]+)"[^>]*'
                        r' selected', html, flags=re.S)
    listed = {s["id"]: s for s in client.get("/api/stations").json()}
    # (whatever the user's own calibration folder holds: a new user's trial made the
    # README's advanced practice station first, and this counted it for a normal table)
    levels = {listed[sid]["level"] for _, sid in chosen}
    assert len(levels) == 1
    level = levels.pop()
    calibrated = sum(s["colours"] == "calibrated" and s["level"] == level
                     for s in listed.values())
    assert [listed[sid]["colours"] for _, sid in chosen] == (
        ["calibrated"] * min(3, calibrated) + ["default"] * max(0, 3 - calibrated))
    assert len({sid for _, sid in chosen}) == len(chosen) == 3


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_stations_level_follows_its_name_without_brackets_in_brackets(client, lang):
    """A station's choice reads "D03 · Normal (3 stones)" (the language's part separator:
    "، " in Persian); it was "D03 (Normal (3 stones))", brackets in brackets, which read
    worst right to left (a new user's trial, on the Arabic form)."""
    import html as html_lib

    t = messages(lang)
    page = html_lib.unescape(client.get(f"/new?lang={lang}").text)
    assert f"D03{t['ui.part_sep']}{t['level.normal']}</option>" in page
    assert f"D03 ({t['level.normal']})" not in page
    # and the hint that points at the level says where it now is
    assert "bracket" not in t["new.station_hint"] and "پرانتز" not in t["new.station_hint"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_new_table_form_says_which_station_phone_photos_need(client, lang):
    """Beside the stations: which to pick when players send phone photos (a new user's trial
    found no word on it), in the page's language, read out with each station's list."""
    from markupsafe import escape

    html = client.get(f"/new?lang={lang}").text
    hint = messages(lang)["new.station_hint"]
    assert f'<p id="station-hint" class="muted hint">{escape(hint)}</p>' in html
    assert html.count('aria-describedby="station-hint"') == 3  # the three places' lists


@pytest.mark.parametrize(("lang", "numbers"), [("en", "123"), ("fa", "۱۲۳"), ("he", "123"),
                                               ("ar", "123")])
def test_the_new_table_forms_places_are_numbered_in_the_pages_digits(client, lang, numbers):
    """The build places 1-3 of the new-table form in the page's digits: a Persian page
    writes ۱ ۲ ۳, as its texts and the pages' scripts do (a new user saw Latin digits there);
    the others keep 0-9, as their texts do."""
    import re

    html = client.get(f"/new?lang={lang}").text
    shown = re.findall(r'<div class="place" data-place="\d">\s*<b>(.*?)</b>', html)
    assert "".join(shown) == numbers


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_admin_key_command_is_one_unbroken_ltr_piece(client, lang):
    """The command that shows the admin key sits in the words of the new-table form and the
    admin page as code kept on one line, left to right ("admin-" and "key" were on two lines
    of a Hebrew phone, and the message's own text holds {cmd}, not the command)."""
    import re

    cmd = '<code class="cmd" dir="ltr">referee admin-key</code>'
    for path, key in (("/new", "new.admin_hint"), ("/admin", "admin.key_hint")):
        html = client.get(f"{path}?lang={lang}").text
        html = re.sub(r'<script id="i18n".*?</script>', "", html, flags=re.S)  # the words
        assert "{cmd}" in messages(lang)[key] and "admin-key" not in messages(lang)[key]
        assert html.count(cmd) == 1 and "{cmd}" not in html, (path, lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_card_hint_is_a_grid_the_server_accepts(client, demo_secret, lang):
    """The dashboard's card box shows a grid example; typed as shown, it starts a round."""
    from referee.tuki.cards import Card

    hint = messages(lang)["ctl.card_hint"]
    rows = [line for line in hint.splitlines() if line and set(line) <= set(".GBPO")]
    assert len(rows) >= 5 and " / " not in hint
    Card.parse("hint", "\n".join(rows), "normal")  # raises CardError if the server refuses it
    assert "N01" in hint
    html = client.get(f"/t/demo?lang={lang}").text
    assert "BBBBB.\nG...P." in html  # the placeholder keeps its rows, one per line


def test_the_card_hint_starts_a_round(client, make_table):
    table_id, secret = make_table()
    hint = messages("en")["ctl.card_hint"]
    grid = "\n".join(line for line in hint.splitlines() if set(line) <= set(".GBPO"))
    r = client.post(f"/api/tables/{table_id}/rounds", json={"grid": grid, "die": "bear"},
                    headers={"X-Table-Secret": secret})
    assert r.status_code == 200, r.text


def test_the_phones_own_language_wins_over_the_tables(client, make_table):
    """Tuki's and the card tables' pages alike: ?lang=, then the phone's `lang` cookie, then
    its Accept-Language; the table's language only when none of them is one of ours. A
    language chosen with ?lang= is kept in the cookie for the phone's next pages."""
    from .conftest import local_client

    tuki, _ = make_table(language="en")
    r = client.post("/api/games", json={"game": "taki", "players": ["Ava", None],
                                        "language": "en"})
    card = r.json()
    he_card = client.post("/api/games", json={"game": "taki", "players": ["Ava", "Ben"],
                                              "language": "he"}).json()
    persian = {"Accept-Language": "fa-IR,fa;q=0.9,en;q=0.5"}
    for path in (f"/t/{tuki}", card["view"]):
        phone = local_client(client.app)
        phone.cookies.update(client.cookies)  # the view cookies, no language cookie
        phone.cookies.delete("lang")
        assert '<html lang="fa"' in phone.get(path, headers=persian).text, path
        assert '<html lang="en"' in phone.get(path).text, path  # nothing said: the table's
        r = phone.get(path + ("&" if "?" in path else "?") + "lang=he", headers=persian)
        assert '<html lang="he"' in r.text and r.cookies.get("lang") == "he", path
        # the cookie now wins over Accept-Language, on every page of the box
        assert '<html lang="he"' in phone.get(path, headers=persian).text, path
        assert '<html lang="he"' in phone.get("/games/join", headers=persian).text
        assert '<html lang="he"' in phone.get("/", headers=persian).text
    # a browser speaking none of our languages gets the table's
    phone = local_client(client.app)
    assert '<html lang="he"' in phone.get(he_card["view"],
                                          headers={"Accept-Language": "de-DE,de"}).text
    assert phone.get("/?lang=xx").cookies.get("lang") is None  # not a language of ours


def test_the_start_pages_list_isolates_each_players_name(client):
    """The table list names each table's players one by one, each isolated (<bdi>): on a
    right-to-left page a name that starts or ends in Latin letters or punctuation kept
    pulling its neighbours' commas to the wrong side (a helper's hostile trial)."""
    body = {"name": "קפה", "players": ["Ava.", "דנה", "(Bo)"], "listed": True,
            "places": [{"station": "D03"}, {"station": "D04"}, {"station": "D03"}]}
    assert client.post("/api/tables", json=body).is_success
    html = client.get("/?lang=he").text
    assert "<bdi>Ava.</bdi>, <bdi>דנה</bdi>, <bdi>(Bo)</bdi>" in html
    # joined by the language's own comma: Persian's "،" (a trial read "Ben ,Ava")
    html = client.get("/?lang=fa").text
    assert "<bdi>Ava.</bdi>، <bdi>דנה</bdi>، <bdi>(Bo)</bdi>" in html


def test_a_page_names_the_box_address_that_phones_open(client, monkeypatch):
    """Links a page shows for another phone (a seat's link, a new table's links) use the
    box's network address, as its QR codes do: a page opened as localhost showed links no
    phone could open."""
    import re

    from referee.server import net

    monkeypatch.setattr(net, "lan_address", lambda: "192.0.2.7")
    html = client.get("/").text
    assert re.search(r'<meta name="referee-base" content="http://192\.0\.2\.7(:\d+)?">', html)
    # opened by its network address, the page keeps that address
    html = client.get("/", headers={"host": "192.0.2.7:8000"}).text
    assert '<meta name="referee-base" content="http://192.0.2.7:8000">' in html


def test_unknown_routes_answer_in_the_servers_error_shape(c: TestClient) -> None:
    """No such route (404) or a method a route does not take (405): `detail` in plain words
    and an `error` kind that every language has words for, like every other error."""
    for path, method, status, kind in (("/api/nothing", "GET", 404, "UnknownRouteError"),
                                       ("/static/nothing.js", "GET", 404, "UnknownRouteError"),
                                       ("/api/games", "DELETE", 405, "MethodNotAllowedError")):
        r = c.request(method, path)
        assert r.status_code == status, (path, r.text)
        body = r.json()
        assert body["error"] == kind and body["detail"] != "Not Found", body
        assert set(body) == {"detail", "error"}
        assert all(f"err.kind.{kind}" in messages(lang) for lang in LANGUAGES)


def test_an_address_with_nothing_at_it_is_a_page_for_a_browser(c: TestClient) -> None:
    """A phone that opens a mistyped link reads a page in its language with a way back to
    the tables (404), not the API's JSON; a script, or any /api/ address, keeps the JSON."""
    for lang in LANGUAGES:
        r = c.get(f"/nope?lang={lang}", headers={"accept": "text/html,*/*;q=0.8"})
        assert r.status_code == 404 and r.headers["content-type"].startswith("text/html")
        t = messages(lang)
        assert t["err.no_page"] in r.text and t["err.no_page_detail"] in r.text
        assert f'href="/?lang={lang}"' in r.text
    for path in ("/games/nosuch/x", "/nope"):  # no HTML asked: JSON
        assert c.get(path).json()["error"] == "UnknownRouteError"
    r = c.get("/api/nothing", headers={"accept": "text/html"})
    assert r.status_code == 404 and r.json()["error"] == "UnknownRouteError"
