"""Domain errors become HTTP answers here, in one place; routes never build error responses.

Every answer is `{"detail": "<plain words>", "error": "<class name>"}`; an error with a
machine code (an engine's refusal) adds `"code"` and `"params"`, for the phone's language.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from typing import Any, TypeVar

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from referee.errors import RefereeError


class ServerError(RefereeError):
    """Base of the server's own errors. One that a phone says in its own language carries a
    `code` and its `params` (i18n `refusal.<code>`, its placeholders the params; the
    answer carries both); `str()` is the English sentence."""

    def __init__(self, message: str = "", code: str | None = None,
                 params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.params = params or {}


class UnknownTableError(ServerError):
    """No table has this id."""


class UnknownSeatError(UnknownTableError):
    """The table has no such seat (a number past its players)."""


class UnknownPlaceError(UnknownTableError):
    """The table has no such build place (camera place)."""


class UnknownPhotoError(UnknownTableError):
    """The table has no photo of this name."""


class MissingSecretError(ServerError):
    """A control request came without the table's secret."""


class WrongSecretError(ServerError):
    """A request came with a key that is not this table's (or not the box's)."""


class ForbiddenError(WrongSecretError):
    """A right key that does not open this: a seat acting for another, a table without the
    admin key asking for a camera place, ..."""


class TableLimitError(ServerError):
    """Too many live tables on the box, or from one address."""


class UnknownHostError(ServerError):
    """A request whose Host header is not one of the box's own names or addresses."""


class HeadersTooLargeError(ServerError):
    """A request whose headers hold more than the box takes (guard.MAX_HEAD_BYTES: 431)."""


class UploadTooLargeError(ServerError):
    """An upload over the size limit."""


class UnsupportedPhotoError(ServerError):
    """An upload that is not a JPEG, PNG, WebP or BMP photo."""


class UploadNameTooLongError(ServerError):
    """An upload whose file name is too long to read: its part's header passes the form
    parser's bound (python-multipart: 4 KB a header line), a name of thousands of letters."""


class IncompleteUploadError(ServerError):
    """An upload that arrived cut short: its form ends before its closing boundary (the
    phone's connection dropped while it sent the photo), or its JPEG before its image does."""


# a break-it trial: a damaged file was "send it again", again and again
INCOMPLETE = ("The photo arrived incomplete (its end is missing: the connection may have "
              "dropped while it was being sent): send it again. If the same file is refused "
              "again, the file itself is cut short or damaged: take the photo again.")


NAME_TOO_LONG = ("The photo's file name is too long (thousands of letters): give the file a "
                 "shorter name and send it again.")


class RoundInputError(ServerError):
    """A round start that names no card."""


class TableSetupError(ServerError):
    """A new table the rules refuse (player count, build places)."""


class ConflictError(ServerError):
    """A command that does not fit the table's state now (no camera frame, demo off, ...)."""


class ReusedPhotoError(ConflictError):
    """A photo sent for a build that was already frozen at the table: another builder's, or
    one of an earlier round (referee.server.fingerprints); nothing is stored."""


class UnknownRouteError(ServerError):
    """A request for an address the box has no page or API route for (404)."""


class MethodNotAllowedError(ServerError):
    """A route asked with a method it does not take (405)."""


class DamagedTableError(ConflictError):
    """A table whose stored events cannot be replayed: set aside, its data kept, not played."""


T = TypeVar("T")


def find_table(tables: Mapping[str, T], damaged: Mapping[str, str], table_id: str,
               missing: str) -> T:
    """The table in play under `table_id` (Tuki or card table alike).

    :raises DamagedTableError: it was set aside at start (`damaged` says why).
    :raises UnknownTableError: there is none; `missing` is the plain words for that.
    """
    table = tables.get(table_id)
    if table is not None:
        return table
    if table_id in damaged:
        raise DamagedTableError(f"table {table_id!r} cannot be played: {damaged[table_id]}")
    raise UnknownTableError(missing)


log = logging.getLogger("referee.server")

# Starlette's own refusals, by status: the error kind and the plain words
_HTTP = {400: ("RequestValidationError", "the request's body cannot be read: its JSON or form "
                                         "data is malformed, nested too deep or holds a number "
                                         "too long"),
         404: (UnknownRouteError.__name__, "the box has no page or API route at this "
                                             "address; check the link"),
         405: (MethodNotAllowedError.__name__, "this address does not take this method")}

# the most a validation answer says: a few problems, each briefly (never the input itself)
_MAX_PROBLEMS, _MAX_MSG = 5, 200
# a form's file field that came as text (`curl -F photo=build.jpg`, the @ forgotten)
NOT_A_FILE = "expected a photo file, not text (with curl: -F photo=@build.jpg)"


def _statuses() -> tuple[tuple[type[BaseException], int], ...]:
    """(error class, HTTP status), the more specific first; the domain layers' own classes
    (the server sits on top of them: docs/architecture.md)."""
    from referee.server.storage import StorageError
    from referee.tuki.game import IllegalCommandError
    from referee.vision.errors import PhotoError
    from referee.vision.photo import PhotoTooLargeError

    return ((UnknownTableError, 404), (MissingSecretError, 401), (WrongSecretError, 403),
            (UploadTooLargeError, 413), (PhotoTooLargeError, 413), (TableLimitError, 429),
            (UnknownHostError, 400), (IncompleteUploadError, 400), (UnsupportedPhotoError, 415),
            (PhotoError, 415), (ConflictError, 409), (IllegalCommandError, 409),
            (StorageError, 503))


def status_of(e: RefereeError) -> int:
    """The HTTP status for a domain error: the first class of `_statuses` it is an instance
    of; any other error in the rules or the input is 422."""
    for cls, code in _statuses():
        if isinstance(e, cls):
            return code
    return 422


def validation_problems(e: RequestValidationError) -> list[dict[str, Any]]:
    """Where and what, per problem: `{"loc": [...], "msg": "..."}`, never the input value (a
    request may be megabytes; echoing it back helps nobody)."""
    out: list[dict[str, Any]] = []
    for err in e.errors()[:_MAX_PROBLEMS]:
        loc = [_loc_part(x) for x in err.get("loc", ())]
        if err.get("type") == "extra_forbidden" and loc:  # a field the schema has not: its
            loc[-1] = KEY  # name is the sender's text, whatever it looks like
        msg = str(err.get("msg", "not valid"))
        if "Expected UploadFile" in msg:  # FastAPI's words, with a Python class in them
            msg = NOT_A_FILE
        out.append({"loc": loc, "msg": _encodable(msg[:_MAX_MSG])})
    return out


# what a validation answer says in place of a key the sender chose (a JSON object's key, a
# field the schema does not have): never their text (a break-it trial had U+202E and HTML
# come back in `detail`)
KEY = "[key]"
_PLAIN_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,39}")


def _loc_part(x: object) -> int | str:
    """One step of a problem's place: an index, or a name as plain as the schema's own
    (letters, digits, `_.-`, at most 40); any other text is a key the sender chose: `KEY`."""
    if isinstance(x, int) and not isinstance(x, bool):
        return x
    return x if isinstance(x, str) and _PLAIN_NAME.fullmatch(x) else KEY


def part_header_too_long(e: BaseException) -> bool:
    """Whether a form's refusal (Starlette's 400 "Invalid multipart data") came from a part
    header over the multipart parser's bound: an uploaded file's name thousands of letters
    long. Read from the exceptions it was raised from: python-multipart's parse error (by
    its name: the package's module was `multipart` before 0.0.13, and had no such bound)."""
    seen: set[int] = set()
    cur: BaseException | None = e
    while cur is not None and id(cur) not in seen:
        seen.add(id(cur))
        if type(cur).__name__ == "MultipartParseError" and "header size" in str(cur):
            return True
        cur = cur.__cause__ or cur.__context__
    return False


def _encodable(text: str) -> str:
    """Text an answer can carry: a lone surrogate (a JSON key may hold one) becomes "?"."""
    return text.encode("utf-8", "replace").decode("utf-8")


def wants_page(request: Request) -> bool:
    """A browser asking for a page (GET or HEAD, an address outside /api/, HTML accepted),
    not a script or the phone pages' own API calls."""
    return request.method in ("GET", "HEAD") and not request.url.path.startswith("/api/") \
        and "text/html" in request.headers.get("accept", "")


def install(app: FastAPI) -> None:
    """Register the handlers: every `RefereeError`, request validation, and the unforeseen."""

    @app.exception_handler(RefereeError)
    async def _referee_error(request: Request, e: RefereeError) -> JSONResponse:
        body: dict[str, Any] = {"detail": str(e), "error": type(e).__name__}
        code = getattr(e, "code", None)
        if isinstance(code, str):
            body["code"] = code
            body["params"] = getattr(e, "params", {})
        return JSONResponse(body, status_code=status_of(e))

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, e: StarletteHTTPException) -> Response:
        """Starlette's own answers (no such route, a method the route does not take) in
        the same shape as every other error, with an `error` kind a phone can say."""
        if e.status_code == 400 and part_header_too_long(e):  # a name, not a broken body
            return await _referee_error(request, UploadNameTooLongError(
                NAME_TOO_LONG, "photo.name-too-long"))
        if e.status_code == 404 and wants_page(request):
            from referee.server.routes.pages import no_page  # the pages sit on top

            return no_page(request)
        kind, said = _HTTP.get(e.status_code, ("ServerError", str(e.detail)[:_MAX_MSG]))
        return JSONResponse({"detail": said, "error": kind}, status_code=e.status_code,
                            headers=getattr(e, "headers", None))

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, e: RequestValidationError) -> JSONResponse:
        problems = validation_problems(e)
        said = "; ".join(f"{'.'.join(str(x) for x in p['loc']) or 'request'}: {p['msg']}"
                         for p in problems)
        more = len(e.errors()) - len(problems)
        if more > 0:
            said += f"; and {more} more"
        return JSONResponse({"detail": f"the request is not valid: {said}",
                             "error": "RequestValidationError", "problems": problems},
                            status_code=422)

    @app.exception_handler(Exception)
    async def _unforeseen(request: Request, e: Exception) -> JSONResponse:
        log.error("unforeseen error on %s %s", request.method, request.url.path, exc_info=e)
        return JSONResponse({"detail": "the server failed on this request; it has been "
                                       "logged on the server", "error": "ServerError"},
                            status_code=500)
