"""Server settings from plain environment variables, with embedded defaults.

REFEREE_DATA: the data folder (SQLite database, frozen photos); default ./data.
REFEREE_HOST / REFEREE_PORT: where `referee serve` listens; default 0.0.0.0:8000.
REFEREE_DEMO: "0" turns the demo table off; default on.
REFEREE_MAX_UPLOAD_MB: the largest photo accepted, in MB; default 15.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from referee.paths import data_dir


@dataclass(frozen=True)
class Settings:
    """What the app needs to start; `from_env()` reads the environment."""

    data_dir: Path = field(default_factory=data_dir)
    host: str = "0.0.0.0"
    port: int = 8000
    demo: bool = True
    max_upload_bytes: int = 15 * 1024 * 1024
    camera_retry_max_s: float = 30.0

    @classmethod
    def from_env(cls, **overrides: object) -> Settings:
        env = os.environ
        values: dict[str, object] = {
            "data_dir": data_dir(),
            "host": env.get("REFEREE_HOST", "0.0.0.0"),
            "port": int(env.get("REFEREE_PORT", "8000")),
            "demo": env.get("REFEREE_DEMO", "1") not in ("0", "false", "no"),
            "max_upload_bytes": int(float(env.get("REFEREE_MAX_UPLOAD_MB", "15")) * 1024 * 1024),
        }
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)  # type: ignore[arg-type]

    @property
    def db_path(self) -> Path:
        return self.data_dir / "referee.sqlite3"

    @property
    def photos_dir(self) -> Path:
        return self.data_dir / "photos"
