"""Dependencies as `Annotated` aliases: the table service, and the table's secret check."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Request

from referee.server.tables import TableService


def get_service(request: Request) -> TableService:
    return request.app.state.service


ServiceDep = Annotated[TableService, Depends(get_service)]


def require_secret(table_id: str, service: ServiceDep,
                   x_table_secret: Annotated[str | None, Header()] = None,
                   authorization: Annotated[str | None, Header()] = None) -> str:
    """The table id, once the secret (X-Table-Secret, or Authorization: Bearer) matches.

    :raises UnknownTableError, MissingSecretError, WrongSecretError:
    """
    secret = x_table_secret
    if not secret and authorization and authorization.lower().startswith("bearer "):
        secret = authorization[7:].strip()
    service.check_secret(table_id, secret)
    return table_id


AdminTable = Annotated[str, Depends(require_secret)]
