"""`referee rules check|score`, `referee play GAME`, `referee bench GAME` and
`referee bench bots` for the three card games."""

from __future__ import annotations

import contextlib
import json
import random
import re
from pathlib import Path
from typing import Any

import typer
from rich.console import Console

from referee.cli.echo import clip, clip_echoes
from referee.games.engine import GAMES, RulesError, get_game, make_bot

console = Console()
rules_app = typer.Typer(no_args_is_help=True, help="Rules tools: scenario files and scoring.")

# a positional argument may start with "-" (a box "-2 5 5 9 / ...", a file "-old.json"):
# it is taken as the argument and checked there, never read as an unknown option
DASH_SAFE = {"ignore_unknown_options": True}
_NEGATIVE = re.compile(r"(?:^|[\s,/])-\s*\d")


@rules_app.command("check", context_settings=DASH_SAFE)
def rules_check(files: list[Path] = typer.Argument(..., help="Scenario JSON files or folders "
                                                  "of them.")) -> None:
    """Run scenario files; print PASS/FAIL per file and the counts. Exit 1 if any fails."""
    from referee.games.scenarios import run_file

    passed = failed = 0
    # a folder stands for the scenario files in it
    files = [p for f in files for p in (sorted(f.rglob("*.json")) if f.is_dir() else [f])]
    for f in files:
        r = run_file(f)
        if r.passed:
            passed += 1
            console.print(f"[green]PASS[/] {r.name}", highlight=False)
        else:
            failed += 1
            console.print(f"[red]FAIL[/] {r.name}: {r.why}", highlight=False)
    console.print(f"{passed} passed, {failed} failed", highlight=False)
    if failed:
        raise typer.Exit(1)


@rules_app.command("score", context_settings=DASH_SAFE)
def rules_score(game: str = typer.Argument(..., help="The game; only tukki is scored so far."),
                box: str = typer.Argument(..., help='A Tukki Tukki box, top row / bottom row, '
                                          'e.g. "5 5 P 9 / 5 5 7 9".'),
                as_json: bool = typer.Option(False, "--json",
                                             help='One JSON object: {"score", "columns"}.')
                ) -> None:
    """Score a box by hand: the score with the reason per column (a table-side calculator)."""
    if game != "tukki":
        raise RulesError(f"rules score knows only tukki, not {game!r}")
    from referee.games.tukki.scoring import parse_box, score_box

    if _NEGATIVE.search(box):  # the box is said back clipped, as every error (echo.py)
        raise RulesError(f"box {box!r}: Tukki Tukki has no negative cards; each card is "
                         "0 to 12, or P for a parrot")
    result = score_box(parse_box(box))
    if as_json:
        print(json.dumps(result.to_dict()))
        return
    for c in result.columns:
        console.print(f"column {c.column}: {c.reason}: {c.points}", highlight=False)
    console.print(f"score: {result.score}", highlight=False)


# what a move looks like, said once at the start (a new-user trial: GDIR, YPLUS, BREAKER and
# "play G3 last" were never explained); the whole notation is in docs/<game>.md
LEGEND = {
    "taki": "cards are a colour (R red, G green, B blue, Y yellow) and a number or an action "
            "(STOP, +2, DIR change direction, PLUS, TAKI); KING, +3, BREAKER, COLOR and "
            "SUPERTAKI have no colour. 'last' after a move calls your last card",
    "tukki": "cards are 0-12 and P (parrot); places a1-a4 are the top row, b1-b4 the bottom "
             "row; take from the bin or the deck, then place a card or throw it",
    "tokaido": "move N walks to space N; take CODE takes the card there (take sushi, take "
               "fuji); skip leaves an optional action undone",
}


def _play(game_name: str, players: int, bots: str, seed: int | None) -> None:
    # the game, the players and the bots are checked before anything is printed (a mistyped
    # bot was refused after the seed and the notation's legend)
    game = get_game(game_name)
    names = [b.strip() for b in bots.split(",") if b.strip()] if bots else []
    if len(names) > players - 1:
        raise RulesError(f"{len(names)} bots for {players} players: seat 0 is yours")
    names += ["heuristic" if "heuristic" in game.bots else "random"] * (players - 1 - len(names))
    seats = [None] + [make_bot(game, n) for n in names]
    fresh = seed is None  # a new deal each game; the seed is shown so it can be replayed
    if fresh:
        seed = random.SystemRandom().randrange(1_000_000)
    state = game.new_game(players, seed=seed)  # the engine refuses a player count it lacks
    if fresh:
        console.print(f"[dim]seed {seed} (play this deal again with --seed {seed})[/]",
                      highlight=False)
    if game_name in LEGEND:
        console.print(f"[dim]{LEGEND[game_name]} (docs/{game_name}.md, Notation)[/]",
                      highlight=False)
    rng = random.Random(seed)
    while not state.is_terminal():
        p = state.current_player()
        bot = seats[p]
        if bot is not None:
            action = bot.choose(state, rng)
            console.print(f"[dim]seat {p} ({names[p - 1]}):[/] {action}", highlight=False)
            state.apply_action(action)
            continue
        if game.render is not None:
            console.print(game.render(state, 0))
        legal = listed_moves(game, state)
        for i, a in enumerate(legal):
            console.print(f"  [bold]{i:>2}[/] {a}", highlight=False)
        try:
            text = typer.prompt("your move (number or notation, ? for help, q to quit)").strip()
        except (typer.Abort, EOFError):  # Ctrl-D or Ctrl-C: "Aborted." and exit 1 before
            text = "q"
        if text.lower() in ("?", "help", "h"):  # the legend again, and how to play a move
            console.print(f"{LEGEND.get(game_name, '')}; type a move's number or its words, "
                          "q to quit", highlight=False, markup=False)
            continue
        if text in ("q", "quit"):
            console.print(f"game left; play this deal again with --seed {seed}",
                          highlight=False)
            raise typer.Exit(0)
        # a number picks a listed move; one longer than any list is no move (int() of 5000
        # digits raised ValueError, as int("²") did: isdigit, but no number)
        pick = int(text) if text.isdecimal() and len(text) <= 6 else None
        if text.isdecimal() and (pick is None or pick >= len(legal)):
            console.print(f"[red]no move {clip(text)}: choose 0-{len(legal) - 1}, or type a "
                          "move[/]")
            continue
        try:
            action = legal[pick] if pick is not None else game.parse_action(text)
            state.apply_action(action)
        except RulesError as e:  # a move typed is said back clipped, as a command line's
            console.print(f"[red]{clip_echoes(str(e), [text])}[/]", highlight=False)
    if game.render is not None:
        console.print(game.render(state, None))
    returns = list(state.returns())
    best = max(returns)
    won = [p for p, r in enumerate(returns) if r == best]
    who = ", ".join("you (seat 0)" if p == 0 else f"seat {p} ({names[p - 1]})" for p in won)
    scores = list(state.scores())
    console.print(f"game over: {who} {'won' if len(won) == 1 else 'share the win'}; "
                  f"scores {scores}{_which_way(scores, won)}", highlight=False)


def _which_way(scores: list, won: list[int]) -> str:
    """Whether the lowest or the highest score won (Tukki Tukki counts points against you),
    said after the scores; nothing when the scores cannot tell."""
    with contextlib.suppress(TypeError, IndexError):  # scores of another shape
        best = [scores[p] for p in won]
        if len(set(scores)) > 1 and all(b == min(scores) for b in best):
            return " (the lowest wins)"
        if len(set(scores)) > 1 and all(b == max(scores) for b in best):
            return " (the highest wins)"
    return ""


def _bench(game_name: str, games: int, players: int, seed: int, as_json: bool,
           compare: bool) -> None:
    from referee.games.bench import bench_random_playouts

    r = bench_random_playouts(game_name, games, players=players, seed=seed)
    out = r.to_dict()
    if compare:
        from referee.games import baselines

        out["compare"] = baselines.compare(game_name, r, games=games, seed=seed)
    if as_json:
        print(json.dumps(out))
        return
    console.print(f"{game_name}: {r.games} games, {r.actions} actions in {r.seconds:.2f} s: "
                  f"{r.games_per_s:,.0f} games/s, {r.actions_per_s:,.0f} actions/s (one core)",
                  highlight=False)
    for name, row in out.get("compare", {}).items():
        console.print(f"  vs {name}: {_compare_line(row)}", highlight=False, markup=False)


def _compare_line(row: dict | str) -> str:
    """One `baselines.compare` row in words: its speed and ours against it (or why not)."""
    if isinstance(row, str):
        return row
    words = f"{row['games_per_s']:,.0f} games/s, {row['actions_per_game']:,.0f} actions a game"
    ratios = [f"ours {v}x in games/s against {k.removeprefix('ratio_games_per_s_vs_')}"
              for k, v in row.items() if k.startswith("ratio_games_per_s_vs_")]
    if "ratio_games_per_s" in row:
        ratios = [f"ours {row['ratio_games_per_s']}x in games/s, "
                  f"{row['ratio_actions_per_s']}x in actions/s "
                  f"({row['ours_actions_per_game']:,.0f} actions a game)"]
    return "; ".join([words, *ratios])


def play_command(game: str = typer.Argument(..., help="taki, tukki or tokaido."),
                 players: int = typer.Option(2, help="Number of seats; you are seat 0."),
                 bots: str = typer.Option("", help="Bots for the other seats, comma separated: "
                                          "random, heuristic, or a level easy, medium, hard "
                                          "(e.g. easy,hard); seats left without one get "
                                          "heuristic."),
                 seed: int = typer.Option(None, help="Seed for the shuffle (default: a new "
                                          "one each game, shown at the start).")) -> None:
    """Play a game in the terminal against bots."""
    _play(game, players, bots, seed)


def _add_bench(bench_app: typer.Typer, name: str) -> None:
    def bench(games: int = typer.Option(2000, help="Random games to play."),
              players: int = typer.Option(2, help="Seats per game."),
              seed: int = typer.Option(0),
              as_json: bool = typer.Option(False, "--json", help="One JSON object on stdout."),
              compare: bool = typer.Option(False, help="Also time third-party baselines "
                                           "(needs the `bench` extra).")) -> None:
        _bench(name, games, players, seed, as_json, compare)

    bench.__doc__ = f"Random {name} playouts on one core: games/s and actions/s."
    bench_app.command(name)(bench)


def bench_bots_command(
        game: str = typer.Argument(..., help="taki, tukki or tokaido."),
        bot: str = typer.Option(..., "--bot", help="The bot measured: random, heuristic, easy, "
                                "medium or hard. It plays one seat, rotating game by game."),
        against: str = typer.Option(..., "--against", help="The bot in every other seat."),
        players: int = typer.Option(2, help="Seats per game."),
        games: int = typer.Option(100, help="Games to play (game g uses seed SEED + g)."),
        seed: int = typer.Option(0, help="Seed of the first game."),
        as_json: bool = typer.Option(False, "--json", help='One JSON object: {"games", "bot", '
                                     '"against", "win_rate", "ci95", "ms_per_move_p95"}.')
) -> None:
    """One bot against another: its win rate with a 95 % interval, and its time per move.

    A win shared by k players counts 1/k; the time is the p95 CPU time of its moves on one
    core."""
    from referee.games.duel import duel

    r = duel(game, bot, against, players=players, games=games, seed=seed)
    if as_json:
        print(json.dumps(r.to_dict()))
        return
    console.print(f"{game}, {players} players: {bot} vs {against}: win rate {r.win_rate:.3f} "
                  f"± {r.ci95:.3f} over {r.games} games; p95 {r.ms_per_move_p95:.1f} ms per "
                  f"move (CPU, one core)", highlight=False)


def register(app: typer.Typer, bench_app: typer.Typer) -> None:
    """Add the card-game commands to the `referee` app."""
    app.add_typer(rules_app, name="rules")
    app.command("play")(play_command)
    for name in GAMES:
        _add_bench(bench_app, name)
    bench_app.command("bots")(bench_bots_command)


def listed_moves(game: Any, state: Any) -> list[Any]:
    """The legal actions `referee play` lists: TAKI's "last card" call only with the moves
    where it counts (`call_counts`, as a phone offers it: card_views), though the engine
    takes it with every move of a hand of 2 cards or fewer (a new user was offered "draw
    last" with two cards in hand). A move typed in the notation may still carry the call."""
    legal = state.legal_actions()
    calls = {f"{a} last" for a in game.counted_calls(state, legal)}
    return [a for a in legal if not getattr(a, "last", False) or str(a) in calls]
