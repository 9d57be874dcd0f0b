"""The phone pages: the table list, the new-table form and the table dashboard (HTML).

Language per phone (`phone_language`, for Tuki's pages and the card tables' alike): the
phone's own choice first: ?lang= (kept in the `lang` cookie), then its `lang` cookie, then the
language of the link it opened (?hl=, never kept), then its browser's Accept-Language; a
table's language only when none of these names one of ours; English otherwise.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from referee.errors import RefereeError
from referee.server.card_views import listed_name
from referee.server.errors import DamagedTableError, MissingSecretError, UnknownTableError
from referee.server.i18n import (
    LANGUAGES,
    known_language,
    local_digits,
    messages,
    pick_language,
)
from referee.server.keys import Credentials
from referee.server.routes.deps import KEY_MAX, ServiceDep, view_cookie
from referee.server.stations import first_choices

router = APIRouter(tags=["pages"], include_in_schema=False)
templates = Jinja2Templates(directory=str(Path(__file__).resolve().parent.parent / "templates"))
templates.env.filters["digits"] = local_digits  # {{ n | digits(lang) }}: the page's digits

LANG_COOKIE = "lang"
LANG_MAX_AGE = 60 * 60 * 24 * 365


def phone_language(request: Request, table_language: str | None = None) -> str:
    """The page's language: the phone's own choice (?lang=, then its `lang` cookie, then the
    language of the link it opened, ?hl=, then its browser's Accept-Language) before the
    table's language, which is only the fallback
    (a Persian phone at an English table reads Persian); English when nothing fits."""
    return pick_language(request.query_params.get("lang"), request.cookies.get(LANG_COOKIE),
                         request.query_params.get("hl"), request.headers.get("accept-language"),
                         table_language)


def page(request: Request, template: str, code: str, status_code: int = 200,
         **extra: Any) -> HTMLResponse:
    """A page in language `code`; a language chosen with ?lang= is kept in the `lang`
    cookie (as the language menu does), so the phone's next pages keep it."""
    from referee.server.net import public_base

    # links a page shows to be opened on another phone use the box's network address, as its
    # QR codes do (a page opened as localhost showed links no phone could open)
    response = templates.TemplateResponse(request, template,
                                          _context(code, **{"base": public_base(request),
                                                            **extra}),
                                          status_code=status_code)
    chosen = known_language(request.query_params.get("lang"))
    if chosen is not None and request.cookies.get(LANG_COOKIE) != chosen:
        response.set_cookie(LANG_COOKIE, chosen, max_age=LANG_MAX_AGE, path="/",
                            samesite="lax")
    return response


def refused_page(request: Request, e: RefereeError, code: str) -> HTMLResponse:
    """The page for a table link that does not open: no such table (404), a table set aside
    (409), no key or view link (401), or a wrong one (403), in plain words."""
    damaged = isinstance(e, DamagedTableError)
    missing = isinstance(e, UnknownTableError)
    heading = "err.damaged_table" if damaged else None if missing else "err.link"
    # in the page's language (an English line under a Hebrew heading, a new user's trial);
    # why a table was set aside stays the box's own words on English pages
    detail = (str(e) if damaged and code == "en" else messages(code)[
        "err.damaged_detail" if damaged else "err.no_table_detail" if missing
        else "err.link_detail"])
    status = 409 if damaged else 404 if missing else (
        401 if isinstance(e, MissingSecretError) else 403)
    return page(request, "missing.html", code, status_code=status, detail=detail,
                heading=heading)


def messages_json(code: str) -> str:
    """The page's messages as JSON that is safe inside a <script> element."""
    return json.dumps(messages(code), ensure_ascii=False).replace("</", "<\\/")


def no_page(request: Request) -> HTMLResponse:
    """The page for an address the box has nothing at (404), in the phone's language, with
    a way back to the list of tables: a phone that opens a mistyped link reads a page, not
    the API's JSON."""
    code = phone_language(request)
    return page(request, "missing.html", code, status_code=404, heading="err.no_page",
                detail=messages(code)["err.no_page_detail"])


def _context(lang: str, **extra: Any) -> dict[str, Any]:
    return {"lang": lang, "t": messages(lang),
            "languages": [(c, messages(c)["_name"]) for c in LANGUAGES], **extra}


def shown_name(name: str, demo: bool, code: str) -> str:
    """A table's name as a page in language `code` shows it: the demo table's shipped name
    (models/demo/demo.yaml's "Demo table", the English message `table.demo_name`) in that
    language, any other name as it was typed (as words.js's `tableName`)."""
    if demo and name == messages("en")["table.demo_name"]:
        return messages(code)["table.demo_name"]
    return name


def game_title(game: str, code: str) -> str:
    """A card game's name (`referee.games` name: taki, tukki, tokaido) as a page in language
    `code` shows it: "תוכי תוכי" on a Hebrew page, as its rules text names it."""
    return messages(code).get(f"game.{game}", game)


@router.get("/", response_class=HTMLResponse)
def index(request: Request, service: ServiceDep) -> HTMLResponse:
    code = phone_language(request)
    cards = getattr(request.app.state, "cards", None)  # the card games' listed tables too
    listed = [{**tb, "name": shown_name(tb["name"], bool(tb.get("demo")), code)}
              for tb in service.summaries()]
    listed += [{**tb, "name": listed_name(tb["own_name"], game_title(tb["game"], code))}
               for tb in (cards.summaries() if cards is not None else [])]
    return page(request, "index.html", code, tables=listed)


@router.get("/new", response_class=HTMLResponse)
def new_table(request: Request, service: ServiceDep) -> HTMLResponse:
    code = phone_language(request)
    stations = service.stations()
    return page(request, "new.html", code, stations=stations, choices=first_choices(stations),
                messages_json=messages_json(code))


@router.get("/t/{table_id}", response_class=HTMLResponse)
def table_page(request: Request, table_id: str, service: ServiceDep) -> HTMLResponse:
    from referee.tuki.die import FACES

    v = request.query_params.get("v", "")[:KEY_MAX] or None
    try:
        table = service.get(table_id)
        # the view link (?v=), else the view cookie set by an earlier visit
        service.access(table_id, Credentials(view=v or request.cookies.get(
            view_cookie(table_id))))
    except RefereeError as e:  # a phone deserves a page, not JSON
        return refused_page(request, e, phone_language(request))
    code = phone_language(request, table.language)
    response = page(request, "table.html", code, table_id=table_id,
                    table_name=shown_name(table.name, bool(table.config.get("demo")), code),
                    faces=list(FACES), messages_json=messages_json(code))
    if v:  # the link's token as a cookie, so that images and the live feed carry it
        response.set_cookie(view_cookie(table_id), v, httponly=True, samesite="strict",
                            max_age=60 * 60 * 24 * 30, path="/")
    return response


@router.get("/admin", response_class=HTMLResponse)
def admin_page(request: Request) -> HTMLResponse:
    """The box's admin page: every table, to archive or delete. Its key travels in the
    fragment (`/admin#a=KEY`) and then in this browser's storage, never in a URL sent."""
    code = phone_language(request)
    return page(request, "admin.html", code, messages_json=messages_json(code))
