"""Reading photos: bytes or files → H×W×3 uint8 BGR, with plain errors for bad input."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from referee.vision.errors import PhotoError

MAX_PIXELS = 40_000_000  # larger images are refused before decoding them in full


def decode_photo(data: bytes) -> np.ndarray:
    """JPEG/PNG/... bytes → H×W×3 uint8 BGR (`cv2.imdecode`).

    :raises PhotoError: empty, not an image, or corrupt.
    """
    if not data:
        raise PhotoError("the photo is empty (0 bytes)")
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if img is None or img.size == 0:
        raise PhotoError("the file is not a photo the referee can read (JPEG or PNG expected)")
    if img.shape[0] * img.shape[1] > MAX_PIXELS:
        raise PhotoError(f"the photo is too large ({img.shape[1]}×{img.shape[0]} px)")
    return img


def read_photo(path: str | Path) -> np.ndarray:
    """A photo file → H×W×3 uint8 BGR.

    :raises PhotoError: missing, unreadable or not an image.
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as e:
        raise PhotoError(f"cannot read photo {path}: {e.strerror}") from None
    try:
        return decode_photo(data)
    except PhotoError as e:
        raise PhotoError(f"{path}: {e}") from None
