"""Dependencies as `Annotated` aliases: the table service, and what a request's keys open.

Each kind of key has its own header (referee.server.keys): `X-Admin-Key`, `X-Table-Secret`,
`X-Seat-Key`; the view token comes as `?v=` or in the table's cookie `v_<table id>`.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Query, Request

from referee.server.errors import INCOMPLETE, IncompleteUploadError
from referee.server.keys import Access, Credentials
from referee.server.tables import TableService
from referee.server.uploads import FORM_CUT

KEY_MAX = 128  # a key is 32 characters; anything much longer is refused unread


def get_service(request: Request) -> TableService:
    return request.app.state.service


ServiceDep = Annotated[TableService, Depends(get_service)]

AdminHeader = Annotated[str | None, Header(max_length=KEY_MAX,
                                           description="the box's admin key")]
TableHeader = Annotated[str | None, Header(max_length=KEY_MAX,
                                           description="the table's key (its secret)")]
SeatHeader = Annotated[str | None, Header(max_length=KEY_MAX, description="a seat's key")]
ViewQuery = Annotated[str | None, Query(max_length=KEY_MAX,
                                        description="the table's view token")]


def view_cookie(table_id: str) -> str:
    """The name of a table's view cookie."""
    return f"v_{table_id}"


def credentials(request: Request, table_id: str | None = None, v: str | None = None,
                x_admin_key: str | None = None, x_table_secret: str | None = None,
                x_seat_key: str | None = None) -> Credentials:
    """The keys a request brought; the view token from `?v=`, else the table's cookie."""
    view = v or (request.cookies.get(view_cookie(table_id)) if table_id else None)
    return Credentials(admin=x_admin_key or None, table=x_table_secret or None,
                       seat=x_seat_key or None, view=(view or "")[:KEY_MAX] or None)


def table_access(request: Request, table_id: str, service: ServiceDep, v: ViewQuery = None,
                 x_admin_key: AdminHeader = None, x_table_secret: TableHeader = None,
                 x_seat_key: SeatHeader = None) -> Access:
    """What the request may do at this table.

    :raises UnknownTableError, MissingSecretError (401), WrongSecretError (403):
    """
    return service.access(table_id, credentials(request, table_id, v, x_admin_key,
                                                x_table_secret, x_seat_key))


def admin_only(service: ServiceDep, x_admin_key: AdminHeader = None) -> None:
    """:raises MissingSecretError (401), WrongSecretError (403): not the box's admin key."""
    service.check_admin(x_admin_key)


def whole_form(request: Request) -> None:
    """For a route that takes a form (its body read before any dependency is solved).

    :raises IncompleteUploadError (400): the body ended before the form did (`FormEnd`):
        the phone's connection dropped while it sent the photo."""
    if request.scope.get(FORM_CUT):
        raise IncompleteUploadError(INCOMPLETE, "photo.incomplete")


TableAccess = Annotated[Access, Depends(table_access)]
AdminOnly = Depends(admin_only)
WholeForm = Depends(whole_form)
