"""Fingerprints of the photos frozen at a table, so that a photo already frozen there is not
judged again as another builder's build (a break-it trial: a builder downloaded another's
frozen photo with the view link, sent it as their own and was judged correct).

A photo's fingerprint holds two things:

- exact: SHA-256 of its decoded pixels (and its size), so a copy of the file, or the same
  pixels in another file format (a PNG of the JPEG), is caught whatever its bytes;
- perceptual: its colour thumbnail, `THUMB`×`THUMB` cells (each the mean of its pixels,
  `cv2.INTER_AREA`), compared cell by cell after each channel's mean is taken away (a photo
  made brighter as a whole stays the same photo). Two photos are the same when no cell of
  any channel differs by more than `SAME_LEVELS` (of 255): a JPEG re-encode at quality 50,
  the photo at a half or a quarter of its size, or 6 levels brighter, stays within 10 on
  the dev scenes, while two different builds photographed by one station's camera differ
  by at least 52 somewhere (fixtures/dev-scenes and dev-scenes-3, every pair of scenes of
  one station: docs/server.md "A photo frozen once"). An 8×8 or 16×16 hash of the grey
  image cannot tell those builds apart (a station's photos differ only where the stones
  stand), nor can the grey image alone (two stones of one brightness).

The fingerprint is stored in the `server:photo` event of the frozen photo, so a restart
keeps refusing it; an older event without one gets it from its stored file when needed.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass
from typing import Any

import numpy as np

THUMB = 32  # cells a side of the perceptual thumbnail (colour: THUMB×THUMB×3 bytes)
SAME_LEVELS = 24.0  # the most a cell may differ (of 255, each channel's mean taken away)


@dataclass(frozen=True)
class Fingerprint:
    """`pixels`: SHA-256 hex digests of the photo's decoded pixels (one per decoding of it:
    as sent, and as stored); `thumb`: THUMB×THUMB×3 uint8 BGR."""

    pixels: tuple[str, ...]
    thumb: np.ndarray

    def to_json(self) -> dict[str, Any]:
        return {"pixels": list(self.pixels),
                "thumb": base64.b64encode(self.thumb.tobytes()).decode("ascii")}

    @classmethod
    def from_json(cls, raw: object) -> Fingerprint | None:
        """The fingerprint stored in an event; None when there is none or it is unreadable."""
        if not isinstance(raw, dict):
            return None
        try:
            thumb = np.frombuffer(base64.b64decode(str(raw["thumb"]), validate=True),
                                  np.uint8)
            pixels = tuple(str(p) for p in raw.get("pixels") or ())
        except (KeyError, ValueError, TypeError):
            return None
        if thumb.size != THUMB * THUMB * 3:
            return None
        return cls(pixels, thumb.reshape(THUMB, THUMB, 3))

    def same(self, other: Fingerprint) -> bool:
        """Whether the two are one photo: the same pixels, or the same thumbnail."""
        if set(self.pixels) & set(other.pixels):
            return True
        return thumb_distance(self.thumb, other.thumb) <= SAME_LEVELS


def pixel_hash(image: np.ndarray) -> str:
    """SHA-256 hex of an image's pixels and its shape."""
    h = hashlib.sha256(repr(image.shape).encode())
    h.update(np.ascontiguousarray(image).data)
    return h.hexdigest()


def thumbnail(image_bgr: np.ndarray) -> np.ndarray:
    """THUMB×THUMB×3 uint8: each cell the mean colour of its part of the photo."""
    import cv2

    return cv2.resize(image_bgr, (THUMB, THUMB), interpolation=cv2.INTER_AREA)


def thumb_distance(a: np.ndarray, b: np.ndarray) -> float:
    """The largest difference of one cell in one channel, each channel's mean taken away."""
    fa, fb = a.astype(np.float32), b.astype(np.float32)
    fa -= fa.mean(axis=(0, 1))
    fb -= fb.mean(axis=(0, 1))
    return float(np.abs(fa - fb).max())


def fingerprint(*images: np.ndarray) -> Fingerprint:
    """The fingerprint of one photo from its decodings (the first gives the thumbnail)."""
    pixels = tuple(dict.fromkeys(pixel_hash(im) for im in images))
    return Fingerprint(pixels, thumbnail(images[0]))


@dataclass
class Frozen:
    """A photo frozen at a table: in which game (counted from 1 at the table), round and
    seat, its stored file, and its fingerprint (None until known: an older event)."""

    game: int
    round: int
    seat: int
    photo: str
    fingerprint: Fingerprint | None
