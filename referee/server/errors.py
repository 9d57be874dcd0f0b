"""Domain errors become HTTP answers here, in one place; routes never build error responses.

Every answer is `{"detail": "<plain words>", "error": "<class name>"}`.
"""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from referee.errors import RefereeError


class ServerError(RefereeError):
    """Base of the server's own errors."""


class UnknownTableError(ServerError):
    """No table has this id."""


class MissingSecretError(ServerError):
    """A control request came without the table's secret."""


class WrongSecretError(ServerError):
    """A control request came with a secret that is not the table's."""


class UploadTooLargeError(ServerError):
    """An upload over the size limit."""


class UnsupportedPhotoError(ServerError):
    """An upload that is not a JPEG, PNG, WebP or BMP photo."""


class RoundInputError(ServerError):
    """A round start that names no card."""


class TableSetupError(ServerError):
    """A new table the rules refuse (player count, build places)."""


class ConflictError(ServerError):
    """A command that does not fit the table's state now (no camera frame, demo off, ...)."""


def status_of(e: RefereeError) -> int:
    """The HTTP status for a domain error (by class name, so that no layer imports the server)."""
    names = {c.__name__ for c in type(e).__mro__}
    for name, code in (("UnknownTableError", 404), ("MissingSecretError", 401),
                       ("WrongSecretError", 403), ("UploadTooLargeError", 413),
                       ("UnsupportedPhotoError", 415), ("PhotoError", 415),
                       ("ConflictError", 409), ("IllegalCommandError", 409),
                       ("StorageError", 503)):
        if name in names:
            return code
    return 422


def install(app: FastAPI) -> None:
    """Register the one handler for every `RefereeError`."""

    @app.exception_handler(RefereeError)
    async def _referee_error(request: Request, e: RefereeError) -> JSONResponse:
        return JSONResponse({"detail": str(e), "error": type(e).__name__},
                            status_code=status_of(e))
