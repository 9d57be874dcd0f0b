"""The phone pages: the table list, the new-table form and the table dashboard (HTML).

Language per phone: ?lang=, then the `lang` cookie, then (table page) the table's language,
then the browser's Accept-Language; English otherwise.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Cookie, Header, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from referee.errors import RefereeError
from referee.server.errors import DamagedTableError, MissingSecretError, UnknownTableError
from referee.server.i18n import LANGUAGES, messages, pick_language
from referee.server.keys import Credentials
from referee.server.routes.deps import KEY_MAX, ServiceDep, view_cookie

router = APIRouter(tags=["pages"], include_in_schema=False)
templates = Jinja2Templates(directory=str(Path(__file__).resolve().parent.parent / "templates"))

LangQuery = str | None


def refused_page(request: Request, e: RefereeError, code: str) -> HTMLResponse:
    """The page for a table link that does not open: no such table (404), a table set aside
    (409), no key or view link (401), or a wrong one (403), in plain words."""
    damaged = isinstance(e, DamagedTableError)
    missing = isinstance(e, UnknownTableError)
    heading = "err.damaged_table" if damaged else None if missing else "err.link"
    detail = str(e) if damaged or missing else messages(code)["err.link_detail"]
    status = 409 if damaged else 404 if missing else (
        401 if isinstance(e, MissingSecretError) else 403)
    return templates.TemplateResponse(request, "missing.html",
                                      _context(code, detail=detail, heading=heading),
                                      status_code=status)


def messages_json(code: str) -> str:
    """The page's messages as JSON that is safe inside a <script> element."""
    return json.dumps(messages(code), ensure_ascii=False).replace("</", "<\\/")


def _context(lang: str, **extra: Any) -> dict[str, Any]:
    return {"lang": lang, "t": messages(lang),
            "languages": [(c, messages(c)["_name"]) for c in LANGUAGES], **extra}


@router.get("/", response_class=HTMLResponse)
def index(request: Request, service: ServiceDep, lang: LangQuery = None,
          cookie_lang: Annotated[str | None, Cookie(alias="lang")] = None,
          accept_language: Annotated[str | None, Header()] = None) -> HTMLResponse:
    code = pick_language(lang, cookie_lang, accept_language)
    cards = getattr(request.app.state, "cards", None)  # the card games' listed tables too
    listed = service.summaries() + (cards.summaries() if cards is not None else [])
    return templates.TemplateResponse(request, "index.html", _context(code, tables=listed))


@router.get("/new", response_class=HTMLResponse)
def new_table(request: Request, service: ServiceDep, lang: LangQuery = None,
              cookie_lang: Annotated[str | None, Cookie(alias="lang")] = None,
              accept_language: Annotated[str | None, Header()] = None) -> HTMLResponse:
    code = pick_language(lang, cookie_lang, accept_language)
    return templates.TemplateResponse(request, "new.html", _context(
        code, stations=service.stations(), messages_json=messages_json(code)))


@router.get("/t/{table_id}", response_class=HTMLResponse)
def table_page(request: Request, table_id: str, service: ServiceDep, lang: LangQuery = None,
               cookie_lang: Annotated[str | None, Cookie(alias="lang")] = None,
               accept_language: Annotated[str | None, Header()] = None) -> HTMLResponse:
    from referee.tuki.die import FACES

    v = request.query_params.get("v", "")[:KEY_MAX] or None
    try:
        table = service.get(table_id)
        # the view link (?v=), else the view cookie set by an earlier visit
        service.access(table_id, Credentials(view=v or request.cookies.get(
            view_cookie(table_id))))
    except RefereeError as e:  # a phone deserves a page, not JSON
        return refused_page(request, e, pick_language(lang, cookie_lang, accept_language))
    code = pick_language(lang, cookie_lang, table.language, accept_language)
    response = templates.TemplateResponse(request, "table.html", _context(
        code, table_id=table_id, table_name=table.name, faces=list(FACES),
        messages_json=messages_json(code)))
    if v:  # the link's token as a cookie, so that images and the live feed carry it
        response.set_cookie(view_cookie(table_id), v, httponly=True, samesite="strict",
                            max_age=60 * 60 * 24 * 30, path="/")
    return response


@router.get("/admin", response_class=HTMLResponse)
def admin_page(request: Request, lang: LangQuery = None,
               cookie_lang: Annotated[str | None, Cookie(alias="lang")] = None,
               accept_language: Annotated[str | None, Header()] = None) -> HTMLResponse:
    """The box's admin page: every table, to archive or delete. Its key travels in the
    fragment (`/admin#a=KEY`) and then in this browser's storage, never in a URL sent."""
    code = pick_language(lang, cookie_lang, accept_language)
    return templates.TemplateResponse(request, "admin.html", _context(
        code, messages_json=messages_json(code)))
