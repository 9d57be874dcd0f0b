"""Server settings from plain environment variables, with embedded defaults.

A variable that cannot be used (a port that is no number, say) is a `SettingsError`, which the
CLI prints as one line (exit code 2).

REFEREE_DATA: the data folder (SQLite database, frozen photos); default ./data.
REFEREE_HOST / REFEREE_PORT: where `referee serve` listens; default 0.0.0.0:8000.
REFEREE_DEMO: "0" turns the demo table off; default on.
REFEREE_MAX_UPLOAD_MB: the largest photo accepted, in MB; default 15.
REFEREE_MAX_TABLES / REFEREE_MAX_TABLES_PER_CLIENT: the most tables in play on the box, and
  created from one address (finished, archived and demo tables not counted); default 20 and 5.
REFEREE_IDLE_MIN: a table where nothing has happened for this many minutes is no longer in play
  for those limits (it can still be played, and counts again when it is); default 30.
REFEREE_ALLOWED_HOSTS: more host names the box answers to (comma-separated), besides its own
  name, `<name>.local`, localhost and IP addresses (a check against DNS rebinding).
REFEREE_BOT_PAUSE_S: a card game's bot waits this long before it plays; default 0.8 (0: none).
REFEREE_CAMERA_STALE_S: a live camera whose newest frame is older than this many seconds is
  stalled; a "done" waits this long for a frame captured after it; default 2.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from referee.errors import RefereeError
from referee.paths import data_dir


class SettingsError(RefereeError):
    """A setting (an environment variable or option) that cannot be used; names it."""


def _port(text: str, name: str = "REFEREE_PORT") -> int:
    """:raises SettingsError: not a whole number from 1 to 65535."""
    try:
        port = int(str(text).strip())
    except ValueError:
        port = -1
    if not 1 <= port <= 65535:
        raise SettingsError(f"{name} must be a port number from 1 to 65535; got {text!r}")
    return port


def _bounded(text: str, name: str, top: float, unit: str, example: str,
             zero: bool = False) -> float:
    """A number above 0 (or 0 itself, with `zero`) and at most `top`.

    :raises SettingsError: anything else (nan, inf)."""
    try:
        value = float(str(text).strip())
    except ValueError:
        value = -1.0
    if not (0 <= value <= top if zero else 0 < value <= top):  # also refuses nan and inf
        span = f"from 0 to {top:g}" if zero else f"above 0 and at most {top:g}"
        raise SettingsError(f"{name} must be a number of {unit} {span} (e.g. {example}); "
                            f"got {text!r}")
    return value


def _megabytes(text: str, name: str = "REFEREE_MAX_UPLOAD_MB") -> int:
    """Bytes from a number of MB. :raises SettingsError: not a number above 0 (at most 1024)."""
    return int(_bounded(text, name, 1024, "megabytes", "15") * 1024 * 1024)


def _seconds(text: str, name: str = "REFEREE_CAMERA_STALE_S") -> float:
    """:raises SettingsError: not a number of seconds above 0 (at most 60)."""
    return _bounded(text, name, 60, "seconds", "2")


def _count(text: str, name: str) -> int:
    """:raises SettingsError: not a whole number from 1 to 10000."""
    try:
        value = int(str(text).strip())
    except ValueError:
        value = 0
    if not 1 <= value <= 10000:
        raise SettingsError(f"{name} must be a whole number from 1 to 10000; got {text!r}")
    return value


@dataclass(frozen=True)
class Settings:
    """What the app needs to start; `from_env()` reads the environment."""

    data_dir: Path = field(default_factory=data_dir)
    host: str = "0.0.0.0"
    port: int = 8000
    demo: bool = True
    max_upload_bytes: int = 15 * 1024 * 1024  # a photo (a multipart form)
    # any other body (JSON: a move, a join, a new table): a break-it trial's 15 MB array of
    # empty objects, parsed on the event loop, held every table up for seconds, with no key
    max_body_bytes: int = 64 * 1024
    camera_retry_max_s: float = 30.0
    camera_stale_s: float = 2.0  # a live camera's newest frame older than this is stalled
    max_tables: int = 20  # tables in play on the box (finished, archived, demo not counted)
    max_tables_per_client: int = 5  # ... created from one address
    max_new_tables_per_hour: int = 60  # tables one address may make in an hour (ended too)
    # a table where nothing happened for this long (its link lost, say) no longer counts
    idle_min: int = 30
    allowed_hosts: tuple[str, ...] = ()  # host names besides the box's own (and IPs)
    ws_hello_s: float = 5.0  # a WebSocket that has not said hello by then is closed
    # connections one address may hold open (HTTP and WebSockets; `connections.py`), and how
    # long a caller that owes a request's head or body may send nothing
    max_connections_per_client: int = 48
    stall_s: float = 20.0
    bot_pause_s: float = 0.8  # a card game's bot waits this long before it plays (visible)

    @classmethod
    def from_env(cls, **overrides: object) -> Settings:
        env = os.environ
        values: dict[str, object] = {
            "data_dir": data_dir(),
            "host": env.get("REFEREE_HOST", "0.0.0.0"),
            "demo": env.get("REFEREE_DEMO", "1") not in ("0", "false", "no"),
        }
        # each variable is read only when no option overrides it, so a bad one names itself
        if overrides.get("port") is None:
            values["port"] = _port(env.get("REFEREE_PORT", "8000"))
        else:
            values["port"] = _port(str(overrides["port"]), "--port")
        values["max_upload_bytes"] = _megabytes(env.get("REFEREE_MAX_UPLOAD_MB", "15"))
        values["camera_stale_s"] = _seconds(env.get("REFEREE_CAMERA_STALE_S", "2"))
        values["bot_pause_s"] = _bounded(env.get("REFEREE_BOT_PAUSE_S", "0.8"),
                                         "REFEREE_BOT_PAUSE_S", 10, "seconds", "0.8", zero=True)
        values["max_tables"] = _count(env.get("REFEREE_MAX_TABLES", "20"),
                                      "REFEREE_MAX_TABLES")
        values["max_tables_per_client"] = _count(
            env.get("REFEREE_MAX_TABLES_PER_CLIENT", "5"), "REFEREE_MAX_TABLES_PER_CLIENT")
        values["max_new_tables_per_hour"] = _count(
            env.get("REFEREE_MAX_NEW_TABLES_PER_HOUR", "60"), "REFEREE_MAX_NEW_TABLES_PER_HOUR")
        values["idle_min"] = _count(env.get("REFEREE_IDLE_MIN", "30"), "REFEREE_IDLE_MIN")
        values["max_connections_per_client"] = _count(
            env.get("REFEREE_MAX_CONNECTIONS_PER_CLIENT", "48"),
            "REFEREE_MAX_CONNECTIONS_PER_CLIENT")
        values["stall_s"] = _bounded(env.get("REFEREE_STALL_S", "20"), "REFEREE_STALL_S", 600,
                                     "seconds", "20")
        values["allowed_hosts"] = tuple(
            h.strip().lower() for h in env.get("REFEREE_ALLOWED_HOSTS", "").split(",")
            if h.strip())
        values.update({k: v for k, v in overrides.items() if v is not None and k != "port"})
        return cls(**values)  # type: ignore[arg-type]

    @property
    def db_path(self) -> Path:
        return self.data_dir / "referee.sqlite3"

    @property
    def photos_dir(self) -> Path:
        return self.data_dir / "photos"
