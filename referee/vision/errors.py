"""The vision error family: each says what was expected and what came."""

from referee.errors import RefereeError


class VisionError(RefereeError):
    """Something about a photo, a camera or a station profile that the referee cannot use."""


class PhotoError(VisionError):
    """A file that is no readable photo (corrupt, empty, not an image, too large)."""


class StationError(VisionError):
    """A station profile or station.json with a missing or wrong field."""


class CalibrationError(VisionError):
    """A calibration that cannot be done well from the photos given (too few usable views...)."""
