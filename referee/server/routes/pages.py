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

from referee.server.errors import DamagedTableError, UnknownTableError
from referee.server.i18n import LANGUAGES, messages, pick_language
from referee.server.routes.deps import ServiceDep

router = APIRouter(tags=["pages"], include_in_schema=False)
templates = Jinja2Templates(directory=str(Path(__file__).resolve().parent.parent / "templates"))

LangQuery = str | None


def _context(lang: str, **extra: Any) -> dict[str, Any]:
    return {"lang": lang, "t": messages(lang),
            "languages": [(c, messages(c)["_name"]) for c in LANGUAGES], **extra}


@router.get("/", response_class=HTMLResponse)
def index(request: Request, service: ServiceDep, lang: LangQuery = None,
          cookie_lang: Annotated[str | None, Cookie(alias="lang")] = None,
          accept_language: Annotated[str | None, Header()] = None) -> HTMLResponse:
    code = pick_language(lang, cookie_lang, accept_language)
    return templates.TemplateResponse(request, "index.html",
                                      _context(code, tables=service.summaries()))


@router.get("/new", response_class=HTMLResponse)
def new_table(request: Request, service: ServiceDep, lang: LangQuery = None,
              cookie_lang: Annotated[str | None, Cookie(alias="lang")] = None,
              accept_language: Annotated[str | None, Header()] = None) -> HTMLResponse:
    code = pick_language(lang, cookie_lang, accept_language)
    return templates.TemplateResponse(request, "new.html",
                                      _context(code, stations=service.stations()))


@router.get("/t/{table_id}", response_class=HTMLResponse)
def table_page(request: Request, table_id: str, service: ServiceDep, lang: LangQuery = None,
               cookie_lang: Annotated[str | None, Cookie(alias="lang")] = None,
               accept_language: Annotated[str | None, Header()] = None) -> HTMLResponse:
    from referee.tuki.die import FACES

    try:
        table = service.get(table_id)
    except (UnknownTableError, DamagedTableError) as e:  # a phone deserves a page, not JSON
        code = pick_language(lang, cookie_lang, accept_language)
        damaged = isinstance(e, DamagedTableError)
        return templates.TemplateResponse(
            request, "missing.html",
            _context(code, detail=str(e), heading="err.damaged_table" if damaged else None),
            status_code=409 if damaged else 404)
    code = pick_language(lang, cookie_lang, table.language, accept_language)
    t = messages(code)
    return templates.TemplateResponse(request, "table.html", _context(
        code, table_id=table_id, table_name=table.name, faces=list(FACES),
        messages_json=json.dumps(t, ensure_ascii=False).replace("</", "<\\/")))
