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
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from referee.errors import RefereeError

TERMINAL = -4  # OpenSpiel's kTerminalPlayerId


class RulesError(RefereeError, ValueError):
    """Base of all rules errors; its message says what was expected and what came."""


class NotationError(RulesError):
    """A text that is no action, card or setup in the game's notation."""


class IllegalActionError(RulesError):
    """A well-formed action that the rules do not allow now; the message names the rule."""


class SetupError(RulesError):
    """An explicit setup that cannot be (a card more often than the deck holds, ...)."""


class State(ABC):
    """One game in progress. Mutable: `apply_action` changes it in place; `clone` copies it."""

    num_players: int

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

    @abstractmethod
    def clone(self) -> State: ...

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
        """The whole state, JSON-ready, including hidden cards and the RNG state (for storage)."""

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
