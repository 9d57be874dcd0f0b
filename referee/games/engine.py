"""The shared engine protocol (ENGINES.md): states, actions, errors, the game registry.

Names follow OpenSpiel's `State`. Every engine is pure: no I/O, no clock, no global state;
chance comes from the state's own `random.Random(seed)`.

A game package (`referee.games.taki`, ...) exposes `GAME: GameInfo`. Its `State` subclass
implements the abstract methods below; actions are small immutable values whose `str()` is
their one stable text notation, read back by `GameInfo.parse_action`.
"""

from __future__ import annotations

import importlib
import random
import string
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, Self

from referee.errors import RefereeError

TERMINAL = -4  # OpenSpiel's kTerminalPlayerId


class RulesError(RefereeError, ValueError):
    """Base of all rules errors; its message says what was expected and what came."""


# Every coded error's English template by its code, `game.what` (e.g. `taki.no-match`), with
# `{param}` fields; filled by each engine's module of refusals (`register_refusals`).
REFUSALS: dict[str, str] = {}
# Per game: how a parameter's value reads in English (param name -> value -> words), for the
# few values that are no number, seat or notation (TAKI's colour letters: R -> red).
_ENGLISH: dict[str, dict[str, Mapping[Any, str]]] = {}


def register_refusals(game: str, templates: Mapping[str, str],
                      english: Mapping[str, Mapping[Any, str]] | None = None) -> None:
    """Add `game`'s codes (each starting with `game.`) and their English templates.

    :raises ValueError: a code outside the game's prefix, or one registered twice with
        another template.
    """
    for code, template in templates.items():
        if not code.startswith(game + ".") or REFUSALS.get(code, template) != template:
            raise ValueError(f"refusal code {code!r}: not {game}'s, or registered twice")
        REFUSALS[code] = template
    if english:
        _ENGLISH.setdefault(game, {}).update(english)


class _Words(string.Formatter):
    """Fills a template: lists joined by ", ", other values by `str` or the game's words."""

    def __init__(self, game: str) -> None:
        self.words = _ENGLISH.get(game, {})

    def get_value(self, key: int | str, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Any:
        value = kwargs[str(key)]
        if isinstance(value, list | tuple):
            return ", ".join(str(v) for v in value)
        named = self.words.get(str(key))
        return named.get(value, value) if named is not None else value


def refusal_words(code: str, params: Mapping[str, Any]) -> str:
    """The English sentence of a coded error: its template with `params` filled in.

    :raises KeyError: no template has this code, or it names a parameter not given.
    """
    return _Words(code.split(".", 1)[0]).vformat(REFUSALS[code], (), params)


class CodedError(RulesError):
    """A rules error with a stable machine code and its parameters, so that any language can
    say it (the server's i18n keys `refusal.<code>`); `str()` is the English sentence.

    Parameters are JSON values: cards and actions in the game's notation, seats as ints,
    colours as the engine's colour letters, places and spaces as the notation writes them.
    """

    def __init__(self, code: str, /, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(refusal_words(code, params))


class NotationError(CodedError):
    """A text that is no action, card or box in the game's notation."""


class IllegalActionError(CodedError):
    """A well-formed action that the rules do not allow now; the message names the rule."""


class SetupError(RulesError):
    """An explicit setup that cannot be (a card more often than the deck holds, ...)."""


def copy_rng(rng: random.Random) -> random.Random:
    """An independent copy of `rng` that draws the same numbers (no fresh OS seeding, which
    costs as much again: this is half of every `State.clone`)."""
    c = random.Random.__new__(random.Random)
    c.setstate(rng.getstate())
    return c


def rng_to_json(rng: random.Random) -> list[Any]:
    """`rng`'s whole state as JSON: [version, [625 ints], gauss_next]."""
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def rng_from_json(data: Any) -> random.Random:
    """The RNG `rng_to_json` saved.

    :raises SetupError: `data` is no saved RNG state.
    """
    try:
        version, internal, gauss = data
        rng = random.Random.__new__(random.Random)
        rng.setstate((version, tuple(internal), gauss))
    except (TypeError, ValueError, OverflowError) as e:
        raise SetupError(f"rng: expected a saved RNG state [version, [625 ints], gauss], "
                         f"not one ({e})") from None
    return rng


class State(ABC):
    """One game in progress. Mutable: `apply_action` changes it in place; `clone` copies it.

    A subclass keeps its chance RNG in `_rng` and names, for `clone`, the attributes that
    hold lists it changes in place (`_lists`) and lists of such lists (`_nested`); every other
    attribute is immutable or replaced whole, so the copy may share it.
    """

    num_players: int
    _rng: random.Random
    _lists: ClassVar[tuple[str, ...]] = ()
    _nested: ClassVar[tuple[str, ...]] = ()

    @abstractmethod
    def current_player(self) -> int:
        """The seat to decide now (0-based), or TERMINAL."""

    @abstractmethod
    def legal_actions(self, player: int | None = None) -> list[Any]:
        """The actions `player` (default: the current one) may take now, in a stable order."""

    @abstractmethod
    def apply_action(self, action: Any) -> None:
        """Apply one action of the current player.

        :raises IllegalActionError: the rules forbid it now; the state is left unchanged.
        """

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def returns(self) -> list[float]:
        """Per seat: 1 for a (shared) win, 0 otherwise, once terminal; zeros before."""

    @abstractmethod
    def scores(self) -> list[int]:
        """Per seat: the game's own score (points, penalty totals, ...)."""

    @abstractmethod
    def observation(self, player: int) -> dict[str, Any]:
        """What `player` may know, JSON-ready; never another player's hidden cards (ENGINES.md).

        :raises RulesError: `player` is no seat of this game (see `check_seat`).
        """

    def check_seat(self, player: object) -> int:
        """`player` if it is a seat 0 to num_players - 1 (no negative index from the end).

        :raises RulesError: anything else.
        """
        if (isinstance(player, bool) or not isinstance(player, int)
                or not 0 <= player < self.num_players):
            raise RulesError(f"no player {player!r}: expected a seat 0-{self.num_players - 1}")
        return player

    def clone(self) -> Self:
        """An independent copy: the same position and the same future chance (its RNG copied).
        Search bots call this millions of times, so it copies only what `_lists` and `_nested`
        name and shares the rest."""
        c = object.__new__(type(self))
        d = self.__dict__.copy()
        for k in self._lists:
            d[k] = d[k][:]
        for k in self._nested:
            d[k] = [x[:] for x in d[k]]
        d["_rng"] = copy_rng(self._rng)
        c.__dict__ = d
        return c

    @abstractmethod
    def determinize(self, player: int, rng: random.Random) -> State:
        """A full state consistent with `observation(player)`: a copy whose hidden cards (what
        `player` cannot see) are dealt anew by `rng`, with a fresh chance RNG drawn from `rng`.

        The result depends only on `observation(player)` and `rng`, never on where the hidden
        cards really are: the unseen cards are pooled in a canonical (sorted) order before the
        shuffle. Search bots sample these (ENGINES.md "Hidden information").

        :raises RulesError: `player` is no seat of this game.
        """

    @abstractmethod
    def facts(self) -> dict[str, Any]:
        """Observable facts for scenario `expect` steps (keys documented by each engine)."""

    @abstractmethod
    def to_dict(self) -> dict[str, Any]:
        """The whole state, JSON-ready, including hidden cards and the RNG state; `from_dict`
        reads it back to a state with the same legal actions, views and future."""

    @classmethod
    @abstractmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        """The state `to_dict` wrote.

        :raises SetupError: `data` is not what `to_dict` writes.
        :raises NotationError: a card or action in it is not in the notation.
        """

    def apply_text(self, text: str) -> None:
        """Parse `text` in the game's notation and apply it."""
        self.apply_action(self.game.parse_action(text))

    game: GameInfo


class Bot(Protocol):
    """Anything that picks the current player's move: one of `state.legal_actions()`."""

    def choose(self, state: State, rng: random.Random) -> Any: ...


class RandomBot:
    """Picks uniformly among the legal actions."""

    def choose(self, state: State, rng: random.Random) -> Any:
        return rng.choice(state.legal_actions())


@dataclass(frozen=True)
class GameInfo:
    """What the CLI, the server and the shared tests need to know about one game."""

    name: str
    title: str
    min_players: int
    max_players: int
    new_game: Callable[..., State]  # (players: int, seed: int = 0, options: dict | None) -> State
    from_setup: Callable[..., State]  # (setup: dict, seed: int = 0, options, players) -> State
    parse_action: Callable[[str], Any]
    # whether fewer points rank higher among the seats that did not win (TAKI's cards still
    # to shed, Tukki Tukki's totals); else more (Tokaido's points)
    low_scores_rank_first: bool = False
    # the hooks below take the game's own State subclass, hence `...` in their types
    bots: dict[str, Callable[..., Any]] = field(default_factory=dict)  # name -> Bot class
    render: Callable[..., Any] | None = None  # (state, seat | None) -> rich renderable
    # For games in rounds: makes a (determinized) copy end with its current round, so that a
    # search can play rollouts that short (models/bots.yaml `horizon: round`).
    cut_to_round: Callable[..., None] | None = None  # (state) -> None
    # For search rollouts rewarded by score (models/bots.yaml `reward: margin`): a smooth
    # 0..1 value for a seat of the position a rollout reached (finished, cut at the round's
    # end, or stopped at its `depth`), 0.5 for level with the best rival.
    search_value: Callable[..., float] | None = None  # (state, seat) -> value
    # For search bots: the legal actions worth searching, a non-empty subset of
    # `legal_actions()` (TAKI: with the "last card" call whenever it is offered, since
    # RULINGS.md has bots always declare). None: all of them.
    bot_actions: Callable[..., list[Any]] | None = None  # (state) -> actions
    # For the phones: what a legal action costs the current player (Tokaido's coins), shown
    # on its button. None: the game's actions cost nothing.
    action_cost: Callable[..., int] | None = None  # (state, action) -> coins
    # For the phones: whether a legal action's "last card" call can change anything (TAKI:
    # the action ends the turn with one card in hand), so that the call is offered with
    # those actions only. None: the game has no such call.
    call_counts: Callable[..., bool] | None = None  # (state, action) -> bool
    # For search bots with an opponent model (models/bots.yaml `model: true`): how likely,
    # 0..1, the other seats' recent public actions are in a determinized deal for a seat if
    # they play as the game's heuristic; the search redeals in proportion to it.
    deal_weight: Callable[..., float] | None = None  # (state, seat) -> likelihood
    # For search rollouts: a fast playout per bot name (a bot that draws no random numbers),
    # the same moves as that bot playing every seat by `apply_action`, in place, stopping
    # after `limit` actions (-1: none).
    playouts: dict[str, Callable[..., None]] = field(default_factory=dict)  # (state, limit)

    def counted_calls(self, state: Any, legal: Sequence[Any]) -> list[Any]:
        """The `legal` actions (without a call) whose "last card" call can change anything
        (`call_counts`): the ones a phone, or `referee play`, offers the call with; none in
        a game without such a call."""
        counts = self.call_counts
        return [] if counts is None else [
            a for a in legal if not getattr(a, "last", True) and counts(state, a)]

    def check_players(self, players: object) -> int:
        """`players` if the game takes that many (min_players to max_players, rules data).

        :raises SetupError: anything else (a bool is no count).
        """
        if (isinstance(players, bool) or not isinstance(players, int)
                or not self.min_players <= players <= self.max_players):
            raise SetupError(f"{self.title} takes {self.min_players}-{self.max_players} "
                             f"players, not {players!r}")
        return players


GAMES = ("taki", "tukki", "tokaido")


def get_game(name: str) -> GameInfo:
    """The `GameInfo` of a game by name.

    :raises RulesError: the name is not one of GAMES.
    """
    if name not in GAMES:
        raise RulesError(f"unknown game {name!r}: expected one of {', '.join(GAMES)}")
    game: GameInfo = importlib.import_module(f"referee.games.{name}").GAME
    return game


BOT_LEVELS = ("easy", "medium", "hard")  # search bots, models/bots.yaml


def bot_names(game: GameInfo) -> list[str]:
    """Every bot name `make_bot` takes for `game`: random, the game's own, then the levels."""
    return ["random", *game.bots, *BOT_LEVELS]


def make_bot(game: GameInfo, name: str) -> Bot:
    """A bot by name: `random`, one the game provides (`heuristic`), or a search bot level
    `easy`, `medium` or `hard` (referee.games.search, levels in models/bots.yaml).

    :raises RulesError: no bot of that name.
    """
    if name == "random":
        return RandomBot()
    if name in BOT_LEVELS:
        from referee.games.search import make_search_bot

        return make_search_bot(game, name)
    if name not in game.bots:
        raise RulesError(f"unknown bot {name!r} for {game.name}: expected "
                         + ", ".join(bot_names(game)))
    bot: Bot = game.bots[name]()
    return bot


def play_out(state: State, bots: Sequence[Bot], rng: random.Random, max_actions: int) -> int:
    """Play `state` to its end with one bot per seat; returns the number of actions taken.

    :raises RuntimeError: the game did not end within `max_actions` (an engine bug).
    """
    n = 0
    while not state.is_terminal():
        if n >= max_actions:
            raise RuntimeError(f"{state.game.name}: no end after {max_actions} actions")
        state.apply_action(bots[state.current_player()].choose(state, rng))
        n += 1
    return n
