"""The Tuki game (RULINGS.md "Tuki" and the rules text, seeds/000). Each test names its
sentence."""

import json
import random

import pytest

from referee.tuki.cards import Deck, turn
from referee.tuki.game import (
    Decide,
    Done,
    EndGame,
    Event,
    IllegalCommandError,
    Judge,
    NewGame,
    StartRound,
    TukiState,
    VoidRound,
    apply,
    decide,
    replay,
)

C = {"verdict": "correct", "faults": [], "reasons": []}
W = {"verdict": "wrong", "faults": [{"code": "position:B", "text": "B is off"}], "reasons": []}
U = {"verdict": "unsure", "faults": [], "reasons": [{"code": "band:table", "text": "?"}]}
DECK = Deck.load("normal")


class Table:
    """A game driven by commands, keeping the event log like the server does."""

    def __init__(self, n=3, **kw):
        self.state = TukiState()
        self.log: list[dict] = []
        self.cards = iter(DECK.cards)
        self.run(NewGame(tuple(f"p{i}" for i in range(n)), **kw))

    def run(self, cmd):
        events = decide(self.state, cmd)
        for e in events:
            self.state = apply(self.state, e)
            self.log.append(e.to_dict())
        return [e.kind for e in events]

    def start(self, die="bear"):
        card = next(self.cards)
        return self.run(StartRound(card.id, turn(card, die), die, by=self.state.lookout))

    def refused(self, cmd, words):
        before = self.state
        with pytest.raises(IllegalCommandError, match=words):
            decide(self.state, cmd)
        assert self.state == before

    def round(self, results):
        """Play a round: results is [(player, verdict)] in done order; the last builder's
        verdict comes with Judge."""
        self.start()
        for p, v in results[:-1]:
            self.run(Done(p, v))
        p, v = results[-1]
        if self.state.builder(p).status == "stopped":
            return self.run(Judge(p, v))
        return self.run(Done(p, v))


# --- players, levels, stations ---

@pytest.mark.parametrize("n", [1, 5])
def test_two_to_four_players(n):
    """RULINGS Players: 2-4."""
    with pytest.raises(IllegalCommandError, match="2-4 players"):
        decide(TukiState(), NewGame(tuple(f"p{i}" for i in range(n))))


def test_with_2_or_3_players_everyone_builds_the_lookout_too():
    """RULINGS Players: with 2-3 players everyone builds, the lookout too."""
    for n in (2, 3):
        t = Table(n)
        t.start()
        assert [b.player for b in t.state.builders] == list(range(n))


def test_with_4_players_the_lookout_does_not_build():
    """RULINGS Players: with 4 players the lookout does not build, the other three do;
    rules text: in a four-player game the lookout does not take part in building."""
    t = Table(4, lookout=2)
    t.start()
    assert [b.player for b in t.state.builders] == [0, 1, 3]
    t.refused(Done(2, C), "lookout and does not build")


def test_levels_and_unknown_level():
    """RULINGS Levels: normal G B P; advanced G B P O (rules text: 3 or 4 coloured stones)."""
    from referee.tuki.pieces import level_stones

    assert level_stones("normal") == ("G", "B", "P")
    assert level_stones("advanced") == ("G", "B", "P", "O")
    with pytest.raises(IllegalCommandError, match="unknown level"):
        decide(TukiState(), NewGame(("a", "b"), level="hard"))


def test_target_must_be_of_the_level():
    """Rules text: the cards of the chosen level are used."""
    t = Table(2, level="advanced")
    card = DECK.cards[0]
    t.refused(StartRound(card.id, card.grid, "bear"), "lacks stone O")


def test_stations_belong_to_places():
    """RULINGS Stations: a camera station belongs to a build place, not to a player."""
    t = Table(3, places=("left mat", "middle mat", "right mat"))
    assert t.state.to_dict()["places"] == ["left mat", "middle mat", "right mat"]
    with pytest.raises(IllegalCommandError, match="need 3 build places"):
        decide(TukiState(), NewGame(("a", "b", "c"), places=("one",)))


# --- lookout ---

def test_round_1_lookout_default_first_player_or_chosen():
    """RULINGS Lookout: round 1, the table chooses; by default the first player."""
    assert Table(3).state.lookout == 0
    assert Table(3, lookout=2).state.lookout == 2


def test_later_lookout_is_the_last_penalty_taker():
    """RULINGS Lookout: later rounds, the player who took the last penalty card."""
    t = Table(3)
    t.round([(0, C), (2, W), (1, C)])
    assert t.state.lookout == 2


def test_only_the_lookout_starts_a_round():
    """Rules text: the lookout rolls the die and sets the top card."""
    t = Table(3)
    card = DECK.cards[0]
    t.refused(StartRound(card.id, card.grid, "bear", by=1), "only the lookout")


def test_four_player_hand_over():
    """RULINGS Lookout / Stations: with 4 players the new lookout hands their pieces to the
    old one, who builds again at the place the new lookout left."""
    t = Table(4, lookout=0)
    place_of_2 = t.state.seat_place[2]
    t.round([(1, C), (2, W), (3, C)])
    assert t.state.lookout == 2
    assert t.state.seat_place[0] == place_of_2 and t.state.seat_place[2] is None
    t.start()
    assert sorted(b.player for b in t.state.builders) == [0, 1, 3]


# --- a round ---

def test_round_start_sets_card_die_and_target():
    """RULINGS round 1: the lookout rolls and sets the next card, the rolled animal down."""
    t = Table(2)
    card = DECK.cards[3]
    t.run(StartRound(card.id, turn(card, "eagle+white"), "eagle+white"))
    d = t.state.to_dict()
    assert (d["card_id"], d["die"], d["target"]) == (card.id, "eagle+white",
                                                     list(turn(card, "eagle")))
    Table(2).refused(StartRound(card.id, card.grid, "owl"), "unknown die face")


def test_building_starts_for_everyone_at_once():
    """RULINGS round 2: building starts for everyone at once."""
    t = Table(3)
    t.start()
    assert {b.status for b in t.state.builders} == {"building"}


def test_done_may_not_be_declared_twice():
    """RULINGS round 3: a builder who declares done may not touch their build again."""
    t = Table(3)
    t.start()
    t.run(Done(0, C))
    t.refused(Done(0, W), "already declared done")


def test_round_ends_when_one_builder_is_left_who_finishes_last():
    """RULINGS round 4: the round ends when only one builder is still building; that builder
    counts as finishing last. Rules text: the others go on until only one is building."""
    t = Table(3)
    t.start()
    assert t.run(Done(1, C)) == ["done"]
    assert t.run(Done(0, C)) == ["done", "round_closed"]
    assert t.state.builder(2).status == "stopped"
    t.refused(Done(2, C), "the round has ended")
    assert t.run(Judge(2, C)) == ["judged", "penalty"]
    assert t.state.penalties[2] == (DECK.cards[0].id,)


def test_with_two_builders_the_first_declaration_ends_the_round():
    """RULINGS round 4: with 2 builders, the first declaration ends the round."""
    t = Table(2)
    t.start()
    assert t.run(Done(1, C)) == ["done", "round_closed"]


def test_void_round_card_goes_under_the_deck_same_lookout():
    """RULINGS round 5: the lookout may end a round by hand; nobody takes the card, it goes
    under the deck, and the same lookout starts again."""
    ids = ("N01", "N02", "N03")
    t = Table(3, lookout=1, deck=ids)
    t.start()
    t.refused(VoidRound(by=0), "only the lookout")
    assert t.run(VoidRound(by=1)) == ["round_voided"]
    s = t.state
    assert s.deck == ("N02", "N03", "N01") and s.lookout == 1 and s.phase == "between"
    assert all(not p for p in s.penalties)
    t.refused(StartRound("N09", DECK.get("N09").grid, "bear"), "not in the deck")


def test_a_table_without_a_deck_takes_any_card_after_a_void_round():
    """The demo table jammed for good after "end" ("card is not in the deck"): a table that
    holds no deck must not get a one-card deck from a void round."""
    t = Table(3, lookout=1)
    t.start()
    assert t.run(VoidRound(by=1)) == ["round_voided"]
    assert t.state.deck == ()
    assert t.run(StartRound("N05", DECK.get("N05").grid, "bear", 1)) == ["round_started"]


# --- penalty ---

def test_all_correct_last_builder_takes_the_card():
    """RULINGS Penalty: all builds correct, the last builder takes it. Rules text: if all are
    correct, the last to finish takes the round's card."""
    t = Table(3)
    t.round([(2, C), (0, C), (1, C)])
    assert [len(p) for p in t.state.penalties] == [0, 1, 0]


def test_exactly_one_wrong_takes_it_wherever_they_finished():
    """RULINGS Penalty: exactly one build wrong: its builder, wherever they finished.
    Rules text: even if they are not the last."""
    t = Table(3)
    t.round([(2, W), (0, C), (1, C)])
    assert [len(p) for p in t.state.penalties] == [0, 0, 1]


def test_several_wrong_the_first_declared_takes_it():
    """RULINGS Penalty: several wrong: among those, the one who declared first."""
    t = Table(3)
    t.round([(1, C), (2, W), (0, W)])
    assert [len(p) for p in t.state.penalties] == [0, 0, 1]


def test_unsure_waits_for_the_lookout():
    """RULINGS Penalty: a build judged unsure waits for the lookout's decision."""
    t = Table(3, lookout=0)
    assert t.round([(1, U), (2, C), (0, C)]) == ["judged"]
    assert t.state.phase == "settling"
    assert t.state.to_dict()["waiting"] == [{"builder": 1, "deciders": [0], "voted": []}]
    t.refused(Decide(2, 1, True), "may not decide")
    assert t.run(Decide(0, 1, False)) == ["decision", "penalty"]
    assert [len(p) for p in t.state.penalties] == [0, 1, 0]


def test_lookouts_own_unsure_build_the_others_decide_tie_correct():
    """RULINGS Penalty: if the unsure build is the lookout's own (2-3 players), the other
    players decide; a tie counts it correct."""
    t = Table(3, lookout=0)
    t.round([(0, U), (1, C), (2, C)])
    t.refused(Decide(0, 0, True), "may not decide")
    assert t.run(Decide(1, 0, False)) == ["decision"]
    t.refused(Decide(1, 0, True), "already voted")
    assert t.run(Decide(2, 0, True)) == ["decision", "penalty"]
    # 1 against, 1 for: a tie, counted correct; all correct, so the last builder (2) takes it
    assert t.state.to_dict()["builders"][0]["votes"] == {"1": False, "2": True}
    assert t.state.builder(0).result() == "correct"
    assert [len(p) for p in t.state.penalties] == [0, 0, 1]


def test_lookouts_unsure_build_two_players_the_other_decides():
    t = Table(2, lookout=1)
    t.round([(1, U), (0, C)])
    assert t.run(Decide(0, 1, False)) == ["decision", "penalty"]
    assert [len(p) for p in t.state.penalties] == [0, 1]


# --- endings ---

def five_penalties(t, loser):
    """Play rounds until `loser` takes a 5th card (in 4 players, when `loser` is the lookout,
    another player takes one card to hand the pieces back)."""
    while len(t.state.penalties[loser]) < 5 and not t.state.ended:
        t.start()
        builders = [b.player for b in t.state.builders]
        taker = loser if loser in builders else builders[0]
        order = [p for p in builders if p != taker] + [taker]
        for p in order[:-1]:
            t.run(Done(p, C))
        t.run(Judge(taker, W) if t.state.builder(taker).status == "stopped" else Done(taker, W))


def test_two_players_fifth_card_ends_at_once_fewer_cards_win():
    """RULINGS End with 2 players; rules text: the game ends as soon as one takes a 5th
    penalty card, and the one with fewer cards wins."""
    t = Table(2)
    five_penalties(t, 1)
    assert t.state.ended and t.state.winners == (0,)
    assert len(t.state.penalties[1]) == 5
    t.refused(StartRound("N40", DECK.get("N40").grid, "bear"), "the game has ended")
    t.refused(Done(0, C), "the game has ended")


def test_three_players_fifth_card_calls_the_final_round():
    """RULINGS End with 3-4 players: one final round; that player is the lookout and does not
    build. Rules text: that player is the lookout and does not take part."""
    t = Table(3)
    five_penalties(t, 2)
    assert t.state.final and not t.state.ended and t.state.lookout == 2
    t.start()
    assert [b.player for b in t.state.builders] == [0, 1]
    t.refused(Done(2, C), "lookout and does not build")


def test_final_round_first_correct_build_wins_at_once():
    """RULINGS final round: each done is judged at once, and the first correct build wins.
    Rules text: the first to complete the build correctly wins."""
    t = Table(4)
    five_penalties(t, 1)
    t.start()
    assert t.run(Done(3, W)) == ["done", "out"]
    assert t.state.builder(3).status == "out"
    assert t.run(Done(0, C)) == ["done", "game_ended"]
    assert t.state.winners == (0,) and t.state.ended


def test_final_round_does_not_end_with_one_builder_left():
    """RULINGS final round: a wrong build is out; the round does not end when one builder
    is left."""
    t = Table(4)
    five_penalties(t, 1)
    t.start()
    t.run(Done(0, W))
    t.run(Done(2, W))
    assert t.state.phase == "building" and t.state.builder(3).status == "building"


def test_final_round_all_out_plays_another_with_the_same_lookout():
    """RULINGS final round: if every build is out, another final round with a new card and
    the same lookout."""
    t = Table(3)
    five_penalties(t, 0)
    t.start()
    t.run(Done(1, W))
    assert t.run(Done(2, W)) == ["done", "out", "final_round_failed"]
    assert t.state.phase == "between" and t.state.lookout == 0 and t.state.final
    t.start()
    assert t.run(Done(2, C))[-1] == "game_ended"
    assert t.state.winners == (2,)


def test_final_round_earlier_unsure_build_is_waited_for():
    """Our ruling: a later correct build cannot win while an earlier unsure one waits."""
    t = Table(4)
    five_penalties(t, 1)
    t.start()
    t.run(Done(0, U))
    assert t.run(Done(2, C)) == ["done"]
    assert t.run(Decide(1, 0, True)) == ["decision", "game_ended"]
    assert t.state.winners == (0,)


# --- events, replay, refusals ---

def test_replay_restores_the_state_exactly():
    """Issue: a game can be stored, replayed and restored exactly (state = fold of events)."""
    t = Table(4)
    five_penalties(t, 3)
    t.start()
    t.run(Done(0, W))
    stored = json.loads(json.dumps(t.log))
    assert replay(stored) == t.state
    assert replay([Event.from_dict(e) for e in stored]).to_dict() == t.state.to_dict()
    json.dumps(t.state.to_dict())


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_games_keep_their_invariants(n, seed):
    """Seeded random playouts: refused commands change nothing; the game ends; every
    penalty card is a round's card; replay equals the live state."""
    rng = random.Random(seed)
    t = Table(n, lookout=rng.randrange(n))
    cards = list(DECK.cards)
    for i in range(3000):
        s = t.state
        if s.ended:
            break
        p = rng.randrange(n)
        v = rng.choice([C, C, W, U])
        if s.phase == "between":
            card = cards[i % len(cards)]
            cmd = StartRound(card.id, turn(card, "fish"), "fish", by=rng.choice([s.lookout, p]))
        else:
            waiting = [b.player for b in s.builders if b.verdict is None and b.status != "building"]
            cmd = rng.choice([Done(p, v), Judge(rng.choice(waiting or [p]), v),
                              Decide(p, rng.randrange(n), rng.random() < 0.5),
                              VoidRound(p) if rng.random() < 0.05 else Done(p, v)])
        try:
            t.run(cmd)
        except IllegalCommandError:
            assert t.state == s
    assert t.state.ended
    assert replay(t.log) == t.state
    total = sum(len(x) for x in t.state.penalties)
    assert total == sum(1 for e in t.log if e["kind"] == "penalty")
    assert max(len(x) for x in t.state.penalties) == 5


def test_commands_before_a_game_are_refused():
    with pytest.raises(IllegalCommandError, match="no game yet"):
        decide(TukiState(), Done(0, C))
    t = Table(2)
    t.refused(NewGame(("x", "y")), "already running")
    t.refused(Done(0, C), "no round is being built")
    t.refused(Done(7, C), "not a seat")
    t.start()
    t.refused(Done(0, {"verdict": "maybe"}), "bad verdict")
    t.refused(Judge(0, C), "no build waiting")
    from referee.tuki.judge import Verdict

    assert t.run(Done(0, Verdict.from_dict(W)))[0] == "done"  # a Verdict object is taken too
    assert t.state.builder(0).verdict == Verdict.from_dict(W)


def test_the_lookout_overrules_a_questioned_verdict_before_the_penalty():
    """Three players, p2 the lookout (who builds too): p0's build is judged correct, p1's
    "done" closes the round while p2's photo is awaited; a player questions p0's verdict and
    the lookout finds it wrong: that decides who takes the card."""
    from referee.tuki.game import Overrule

    t = Table(3, lookout=2)
    t.start()
    t.run(Done(0, C))
    t.run(Done(1, C))
    assert t.state.phase == "settling"
    t.refused(Overrule(1, 0, False), "only the lookout")
    t.refused(Overrule(2, 2, False), "own build")
    assert t.run(Overrule(2, 0, False)) == ["decision"]
    assert t.log[-1]["data"]["overrule"] is True
    assert t.state.builder(0).result() == "wrong"
    t.run(Judge(2, C))
    assert t.state.penalties[0] and not t.state.penalties[1]  # p0's overruled build
    # after the penalty a questioned verdict only labels the photo
    t.refused(Overrule(0, 1, False), "already given")


def test_a_photo_caused_unsure_build_takes_a_new_photo():
    """Unsure because the mat was not found: the builder sends a new photo, the verdict goes
    and the new one counts. An unsure build of another kind waits for the lookout."""
    from referee.tuki.game import Retake

    nomat = {"verdict": "unsure", "faults": [],
             "reasons": [{"code": "mat:not-found", "text": "no mat"}]}
    t = Table(2)
    t.start()
    t.run(Done(0, nomat))
    assert t.run(Retake(0)) == ["retake"]
    assert t.state.builder(0).verdict is None
    t.run(Judge(0, C))
    assert t.state.builder(0).result() == "correct"
    t.refused(Retake(0), "no verdict that a new photo could settle")
    t2 = Table(2)
    t2.start()
    t2.run(Done(0, U))  # band:table: the lookout's to decide, not the photo's
    t2.refused(Retake(0), "no verdict that a new photo could settle")


def test_the_table_may_end_the_game_before_its_rules_do():
    """Our ruling (the texts are silent): a family stops mid-game; the game ends with no
    winner, the penalty cards stay taken, nothing more but a rematch is taken, and it
    replays the same from its events."""
    t = Table(3)
    t.round([(0, C), (1, W), (2, C)])
    taken = [len(p) for p in t.state.penalties]
    t.start()
    t.run(Done(0, C))
    assert t.run(EndGame()) == ["game_ended"]
    assert t.state.ended and t.state.winners == () and t.state.end_reason == "ended by the table"
    assert [len(p) for p in t.state.penalties] == taken
    t.refused(Done(1, C), "the game has ended")
    t.refused(EndGame(), "the game has ended")
    assert replay([Event.from_dict(e) for e in t.log]) == t.state
    assert t.run(NewGame(("p0", "p1", "p2"))) == ["game_started"]
    fresh = Table(2)
    fresh.state = TukiState()
    fresh.refused(EndGame(), "no game yet")
