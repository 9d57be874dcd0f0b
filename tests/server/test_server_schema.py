"""The published API matches its answers: schemathesis generates requests for every route
from /openapi.json and checks each answer against the schema (status codes, content types,
bodies, headers) and that none is a server error, against a real server with a real table
and its key. Bounded: a few dozen cases per route.

One check is left out: that every schema-valid request is accepted (ST202). The text rule
(at least one visible character, no invisible format characters, by Unicode category:
referee.server.text) is wider than JSON Schema can say, so the schema gives its lengths and
the rule in words; test_server_text.py tests the rule itself."""

from __future__ import annotations

import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.specs.openapi.checks import positive_data_acceptance

from .conftest import claim_seats, free_port, serve

EXAMPLES = 25


def test_every_route_answers_as_its_schema_says(tmp_path):
    import httpx

    port = free_port()
    data = tmp_path / "data"
    proc = serve(data, port, tmp_path / "server.log")
    base = f"http://127.0.0.1:{port}"
    try:
        body = {"players": ["Ava", "Ben"], "places": [{"station": "D03"}, {"station": "D04"}]}
        created = httpx.post(base + "/api/tables", json=body).json()
        table_id, secret = created["id"], created["secret"]
        keys = {"X-Table-Secret": secret}
        game = claim_seats(httpx, httpx.post(base + "/api/games", json={
            "game": "taki", "players": ["Ava", None], "bots": {"1": "random"}}).json(), base)
        game_keys = {"X-Table-Secret": game["secret"], "X-Seat-Key": game["seats"][0]["key"]}
        schema = schemathesis.openapi.from_url(base + "/openapi.json")
        failures: list[str] = []
        statuses: dict[int, int] = {}
        operations = [r.ok() for r in schema.get_all_operations()]
        assert len(operations) >= 15
        def checker(op):
            @settings(max_examples=EXAMPLES, deadline=None, database=None,
                      suppress_health_check=list(HealthCheck))
            @given(case=op.as_strategy(), real=st.booleans())
            def run(case, real):
                headers = keys
                if real and "table_id" in (case.path_parameters or {}):
                    case.path_parameters["table_id"] = table_id  # the real table, its key
                if real and "game_id" in (case.path_parameters or {}):
                    case.path_parameters["game_id"] = game["id"]  # a real card table
                    headers = game_keys
                try:
                    r = case.call_and_validate(base_url=base, headers=headers if real else None,
                                               excluded_checks=[positive_data_acceptance])
                    statuses[r.status_code] = statuses.get(r.status_code, 0) + 1
                except Exception as e:  # collect, so one run shows every route's failures
                    failures.append(f"{op.method.upper()} {op.path}: {str(e)[:600]}")
                    raise
            return run

        for op in operations:
            try:
                checker(op)()
            except Exception as e:
                if not failures:  # hypothesis itself failed: say so
                    failures.append(f"{op.method.upper()} {op.path}: {type(e).__name__}: "
                                    f"{str(e)[:400]}")
        assert failures == [], "\n".join(failures[:10])
        print(sorted(statuses.items()))
        # the run reached the routes for real: answers of many kinds, most of them counted
        assert sum(statuses.values()) >= len(operations) * EXAMPLES // 2
        assert {200, 401, 404, 422} <= set(statuses)
        log = (tmp_path / "server.log").read_text()
        assert "unforeseen error" not in log and "Traceback" not in log
    finally:
        proc.terminate()
        proc.wait(10)
