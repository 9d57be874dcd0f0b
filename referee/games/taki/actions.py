"""TAKI actions and their one text notation (ENGINES.md "TAKI", binding).

`play CARD`, `play COLOR Y`, `draw`, `close`, `end`, `break`, `pass`; any of them may end in
` last` to call "last card". Every action value is interned: `parse_action` and the legal-move
generator hand out the same objects, so membership tests hit by identity.
"""

from __future__ import annotations

from typing import NamedTuple

from referee.games.engine import NotationError, register_refusals
from referee.games.taki.cards import (
    CARD_NAMES,
    CHANGE_COLOR,
    COLOR_BY_NAME,
    COLORS,
    NKINDS,
    parse_card,
)

# Why a text is no action (NotationError codes; parameter `text` as written)
register_refusals("taki", {
    "taki.action-not-text": "expected a TAKI action as text, got {text}",
    "taki.action-unknown": ("not a TAKI action: '{text}'; expected 'play CARD', 'play COLOR "
                            "R|G|B|Y', 'draw', 'close', 'end', 'break' or 'pass', optionally "
                            "followed by ' last', written with single spaces"),
    "taki.action-no-argument": "'{text}': '{verb}' takes no argument",
    "taki.action-needs-card": "'{text}': play needs a card, e.g. 'play R5'",
    "taki.color-names-colour": ("'{text}': a Change Color names the next colour: 'play COLOR "
                                "R', 'play COLOR G', 'play COLOR B' or 'play COLOR Y'"),
    "taki.only-color-takes-colour": ("'{text}': only a Change Color takes a colour; expected "
                                     "'play {card}'"),
})

PLAY, DRAW, CLOSE, END, BREAK, PASS = range(6)
VERBS = ("play", "draw", "close", "end", "break", "pass")


class Action(NamedTuple):
    """One decision. `card` is a card kind for `play` (else -1); `color` the colour named
    with `play COLOR` (else -1); `last` the "last card" call made with it."""

    verb: int
    card: int = -1
    color: int = -1
    last: bool = False

    def __str__(self) -> str:
        text = VERBS[self.verb]
        if self.verb == PLAY:
            text += " " + CARD_NAMES[self.card]
            if self.card == CHANGE_COLOR:
                text += " " + COLORS[self.color]
        return text + " last" if self.last else text


def _intern() -> dict[Action, Action]:
    out: dict[Action, Action] = {}
    for last in (False, True):
        for k in range(NKINDS):
            if k == CHANGE_COLOR:
                for c in range(4):
                    a = Action(PLAY, k, c, last)
                    out[a] = a
            else:
                a = Action(PLAY, k, -1, last)
                out[a] = a
        for verb in (DRAW, CLOSE, END, BREAK, PASS):
            a = Action(verb, -1, -1, last)
            out[a] = a
    return out


ALL_ACTIONS = _intern()
BY_TEXT: dict[str, Action] = {str(a): a for a in ALL_ACTIONS}
# PLAY_OF[card] (not COLOR), COLOR_PLAY[colour]; LAST_OF[action] is the same action with the call.
PLAY_OF: tuple[Action, ...] = tuple(
    ALL_ACTIONS[Action(PLAY, k)] if k != CHANGE_COLOR else ALL_ACTIONS[Action(PLAY, k, 0)]
    for k in range(NKINDS))
COLOR_PLAY: tuple[Action, ...] = tuple(ALL_ACTIONS[Action(PLAY, CHANGE_COLOR, c)]
                                       for c in range(4))
LAST_OF: dict[Action, Action] = {a: ALL_ACTIONS[a._replace(last=True)] for a in ALL_ACTIONS}
A_DRAW, A_CLOSE, A_END, A_BREAK, A_PASS = (ALL_ACTIONS[Action(v)]
                                           for v in (DRAW, CLOSE, END, BREAK, PASS))


def parse_action(text: str) -> Action:
    """The action written `text` in TAKI notation, e.g. `play R+2`, `play COLOR Y last`.

    :raises NotationError: `text` is not an action; the message says what is expected.
    """
    if not isinstance(text, str):
        raise NotationError("taki.action-not-text", text=repr(text))
    a = BY_TEXT.get(text)
    if a is not None:
        return a
    words = text.split()
    if words and words[-1] == "last":
        words = words[:-1]
    if not words or words[0] not in VERBS:
        raise NotationError("taki.action-unknown", text=text)
    if words[0] != "play":
        raise NotationError("taki.action-no-argument", text=text, verb=words[0])
    if len(words) < 2:
        raise NotationError("taki.action-needs-card", text=text)
    card = parse_card(words[1])  # raises with the card's own reason
    if card == CHANGE_COLOR:
        if len(words) != 3 or words[2] not in COLOR_BY_NAME:
            raise NotationError("taki.color-names-colour", text=text)
    elif len(words) != 2:
        raise NotationError("taki.only-color-takes-colour", text=text, card=words[1])
    raise NotationError("taki.action-unknown", text=text)
