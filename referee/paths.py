"""Where the project's data lives: models/, calibration/, fixtures/ and the data folder.

The package is installed editable from its checkout (README), so data sits beside it.
`REFEREE_HOME` points elsewhere (a copy of the checkout's data folders) when needed.
"""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(os.environ.get("REFEREE_HOME", Path(__file__).resolve().parent.parent))
MODELS = ROOT / "models"
CALIBRATION = ROOT / "calibration"
FIXTURES = ROOT / "fixtures"


def data_dir() -> Path:
    """The writable folder for the database and frozen photos (`REFEREE_DATA`, else ./data)."""
    return Path(os.environ.get("REFEREE_DATA", Path.cwd() / "data"))
