"""Reading photos: bytes or files → H×W×3 uint8 BGR, with plain errors for bad input."""

from __future__ import annotations

import io
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
    size = _header_size(data)  # before decoding: a small file may hold a huge image
    if size is not None and size[0] * size[1] > MAX_PIXELS:
        raise PhotoError(f"the photo is too large ({size[0]}×{size[1]} px; at most "
                         f"{MAX_PIXELS // 1_000_000} megapixels)")
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if img is None or img.size == 0:
        raise PhotoError("the file is not a photo the referee can read (a JPEG or PNG from a "
                         "camera or phone is expected)")
    return img


def _header_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from the image header, without decoding the pixels (Pillow)."""
    from PIL import Image

    try:
        with Image.open(io.BytesIO(data)) as im:
            return im.size
    except Image.DecompressionBombError:  # Pillow's own guard: far beyond any camera
        raise PhotoError(f"the photo is too large (over {MAX_PIXELS // 1_000_000} "
                         "megapixels)") from None
    except Exception:  # noqa: BLE001  Pillow raises many kinds; OpenCV then has its say
        return None


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
