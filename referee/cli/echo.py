"""What a user typed, said back short: an error repeats the card, die, name or path given,
and a 5000-character argument made a 5000-character error line. Every error of the
`referee` command passes through `clip_echoes` on its way out (`referee.cli.main`), so that
no message needs its own cut; `clip` is the cut itself."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable

LIMIT = 60  # characters of a user's value that an error repeats


def clip(value: str, limit: int = LIMIT) -> str:
    """`value`, or when it is longer than `limit` characters, `limit` of them with "…" where
    the rest was: its first third and its last two thirds, so that a path keeps its file's
    name (a trial's "cannot read photo /tmp/pytest-of-root/pytest-16/test_calibrate_cam…"
    no longer said which photo)."""
    if len(value) <= limit:
        return value
    head = limit // 3
    return value[:head] + "…" + value[len(value) - (limit - head):]


def _forms(arg: str) -> set[str]:
    """The ways a message may repeat the argument `arg` (or an `--option=value`'s value):
    as given, trimmed, in upper or lower case (a card id, a die face), as `repr` writes it
    inside its quotes, as a path made absolute."""
    values = {arg}
    if arg.startswith("-") and "=" in arg:
        values.add(arg.partition("=")[2])
    forms = set()
    for v in values:
        for w in (v, v.strip()):
            forms |= {w, w.lower(), w.upper(), repr(w)[1:-1]}
        with contextlib.suppress(ValueError, OSError):  # a NUL in it: no absolute form
            forms.add(os.path.abspath(v))
    return forms


def clip_echoes(text: str, args: Iterable[str], limit: int = LIMIT) -> str:
    """`text` with every run of more than `limit` characters taken from one of `args` (the
    command line) cut by `clip`: the whole argument, or the part of it the message repeats
    (one bot of `--bots a,b`, the absolute form of a path). Shorter values stay whole."""
    forms = sorted({f for a in args if len(a) > limit for f in _forms(a) if len(f) > limit},
                   key=len, reverse=True)
    for form in forms:
        out, i = [], 0
        while i <= len(text) - limit - 1:
            if text[i:i + limit + 1] not in form:
                i += 1
                continue
            # the longest run from i that is a part of the form (a part's parts are parts)
            lo, hi = i + limit + 1, len(text)
            while lo < hi:
                mid = (lo + hi + 1) // 2
                lo, hi = (mid, hi) if text[i:mid] in form else (lo, mid - 1)
            j = lo
            out.append(text[:i] + clip(text[i:j], limit))
            text, i = text[j:], 0
        text = "".join(out) + text
    return text
