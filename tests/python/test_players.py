"""Players from Python: best_play, Player, hint, evaluate, tournament, simulate with line-ups,
play_game and callables (the slow path), errors."""

from __future__ import annotations

import json
from typing import List

import numpy as np
import pytest

import pachisi
from pachisi import Game, Play


def decision(variant: str, seed: int = 1) -> Game:
    g = Game(variant, seed=seed)
    while not g.is_decision_node():
        g.roll()
    return g


@pytest.mark.parametrize(
    "spec", ["random", "greedy", "expectimax:depth=2", "mcts:iterations=50", {"player": "greedy"}]
)
def test_best_play_is_legal_and_seeded(real_variant: str, spec: object) -> None:
    g = decision(real_variant)
    play = g.best_play(spec, seed=3)  # type: ignore[arg-type]
    assert play in g.legal_plays()
    assert play == g.best_play(spec, seed=3)  # type: ignore[arg-type]
    assert str(play)  # it has its notation


def test_best_play_with_a_callable_leaves_the_game_unchanged() -> None:
    g = Game("backgammon", seed=1)
    g.roll((3, 1))
    before = g.to_json()

    def meddling(game: Game, plays: list) -> int:
        game.play(plays[0])  # the callable gets a copy: this does not reach `g`
        return 1

    assert g.best_play(meddling) == g.legal_plays()[1]
    assert g.to_json() == before


def test_best_play_needs_a_decision() -> None:
    g = Game("parcheesi", seed=1)
    with pytest.raises(pachisi.WrongPhaseError):
        g.best_play()
    with pytest.raises(pachisi.InvalidPlayerError, match="unknown player"):
        decision("parcheesi").best_play("oracle")
    with pytest.raises(pachisi.InvalidPlayerError):
        decision("parcheesi").best_play(42)  # type: ignore[arg-type]


def test_player_objects_keep_their_generator() -> None:
    p = pachisi.Player("mcts:iterations=40", seed=2)
    assert p.name == "mcts:iterations=40"
    assert "mcts" in repr(p)
    g = decision("backgammon", 4)
    i = p.choose(g)
    assert 0 <= i < len(g.legal_plays())
    assert p.choose_play(g) in g.legal_plays()
    assert g.best_play(p) in g.legal_plays()
    assert pachisi.Player().name == "greedy"
    assert pachisi.Player({"player": "expectimax", "depth": 1}).name == "expectimax:depth=1"
    with pytest.raises(ValueError):  # InvalidPlayerError is a ValueError
        pachisi.Player("greedy:depth=3")


def test_players_copy_and_pickle_in_their_state() -> None:
    import copy
    import pickle

    g = decision("parcheesi", 3)
    for spec in ("random", "mcts:iterations=30"):
        p = pachisi.Player(spec, seed=5)
        p.choose(g)  # move the generator on from its seed
        twins = [copy.copy(p), copy.deepcopy(p), pickle.loads(pickle.dumps(p))]
        assert all(t.name == p.name for t in twins)
        expected = [p.choose(g) for _ in range(8)]
        for t in twins:
            assert [t.choose(g) for _ in range(8)] == expected
    with pytest.raises(pachisi.InvalidJsonError):
        pachisi.Player._restore("random", "{")


def test_callables_are_the_slow_path() -> None:
    g = decision("backgammon", 2)
    seen: List[int] = []

    def last(game: Game, plays: List[Play]) -> int:
        seen.append(len(plays))
        return len(plays) - 1

    assert g.best_play(last) == g.legal_plays()[-1]
    assert seen == [len(g.legal_plays())]
    assert g.best_play(lambda game, plays: plays[0]) == g.legal_plays()[0]
    with pytest.raises(pachisi.InvalidPlayerError):
        g.best_play(lambda game, plays: 10_000)
    with pytest.raises(pachisi.InvalidPlayerError):
        g.best_play(lambda game, plays: "nonsense")


def test_play_game_with_mixed_players() -> None:
    first = lambda game, plays: 0  # noqa: E731
    lineup = ["greedy", first, pachisi.Player("random", 1), "random"]
    g = pachisi.play_game("pachisi-online", lineup, seed=5)
    assert g.is_over and g.winner is not None
    lineup[2] = pachisi.Player("random", 1)  # a fresh generator, as in the first game
    again = pachisi.play_game("pachisi-online", lineup, seed=5)
    assert again.to_json() == g.to_json()
    with pytest.raises(pachisi.InvalidPlayerError):
        pachisi.play_game("backgammon", ["greedy"])


def test_hint_rows_are_sorted_and_formatted() -> None:
    g = Game("backgammon", seed=1)
    g.roll((3, 1))
    rows = g.hint(rollouts=40, policy="random", seed=2, threads=1)
    assert len(rows) == len(g.legal_plays())
    mover = g.to_move
    assert [r["win"][mover] for r in rows] == sorted((r["win"][mover] for r in rows), reverse=True)
    assert rows[0]["diff"] == 0.0
    for r in rows:
        assert g.legal_plays()[r["index"]] == r["play"]
        assert str(r["play"]) == r["notation"]
        assert sum(r["win"]) == pytest.approx(1.0)
        assert all(0 <= s < 0.2 for s in r["stderr"])
    assert rows == g.hint(rollouts=40, policy="random", seed=2, threads=2)
    table = pachisi.format_hint(rows)
    assert rows[0]["notation"] in table and "win %" in table
    # By default the table shows the mover's chances (the ones that rank the plays).
    assert table == pachisi.format_hint(rows, seat=mover)
    four = Game("parcheesi", seed=3)
    while not four.is_decision_node() or len(four.legal_plays()) < 3:
        four.roll() if four.is_chance_node() else four.play(four.legal_plays()[0])
    hint4 = four.hint(rollouts=30, seed=1, threads=1)
    assert pachisi.format_hint(hint4) == pachisi.format_hint(hint4, seat=four.to_move)
    assert pachisi.format_hint([]) == "(no plays)"
    with pytest.raises(pachisi.WrongPhaseError):
        Game("backgammon", seed=1).hint(rollouts=5)


def test_evaluate_by_rollouts_and_statically(real_variant: str) -> None:
    g = Game(real_variant, seed=3)
    e = g.evaluate(rollouts=12, policy="random", seed=1)
    assert e["rollouts"] == 12 and len(e["win"]) == g.seats and len(e["stderr"]) == g.seats
    s = g.evaluate(rollouts=0)
    assert s["stderr"] is None and len(s["win"]) == g.seats
    assert all(0.0 <= x <= 1.0 for x in s["win"])
    json.dumps(e)
    with pytest.raises(pachisi.InvalidPlayerError):
        g.evaluate(rollouts=5, policy="nobody")


def test_tournament_points_per_game_count_gammons() -> None:
    r = pachisi.tournament("backgammon", ["greedy", "random"], deals=20, seed=3)
    g, x = r.standing("greedy"), r.standing("random")
    assert g["points_per_game"] == pytest.approx(-x["points_per_game"])
    total = 0
    for pts, winners, rot in zip(r.points, r.winners, r.rotation):
        seat = r.seatings[int(rot)].index(0)  # greedy is player 0
        if winners:
            total += int(pts) if winners & (1 << seat) else -int(pts)
    assert g["points_per_game"] == pytest.approx(total / r.games)
    assert r.points.max() >= 2  # greedy gammons random in some of 40 games
    assert "points per game" in r.summary()
    assert isinstance(r.to_dict()["standings"][0]["points_ci"], list)


def test_tournament_names_deals_when_given_games() -> None:
    with pytest.raises(TypeError, match="deals=N, not games=N"):
        pachisi.tournament("backgammon", ["greedy", "random"], games=10, seed=1)


def test_tournament_result_and_table() -> None:
    lineup = ["greedy", "random", "random", "random"]
    r = pachisi.tournament("pachisi-online", lineup, deals=5, seed=2)
    assert r.games == 20 and r.players == ["greedy", "random"] and r.seats == 4
    assert len(r.seatings) == 4
    assert r.deal.shape == (20,) and r.winners.dtype == np.uint16
    g = r.standing("greedy")
    assert g["seats"] == 1 and g["fair"] == pytest.approx(0.25)
    lo, hi = g["win_rate_ci"]
    assert lo <= g["win_rate"] <= hi
    lo, hi = g["points_ci"]
    assert lo <= g["points_per_game"] <= hi
    assert r.points.shape == (20,) and set(r.points.tolist()) <= {0, 1}
    text = r.summary()
    assert "greedy" in text and "95% interval" in text and str(r) == text
    assert "<table>" in r._repr_html_() and "TournamentResult" in repr(r)
    assert "seats rotated, duplicate dice" in r._repr_html_()
    # With rotate=False the summary and the HTML said "seats rotated, duplicate dice" too.
    fixed = pachisi.tournament("pachisi-online", lineup, deals=2, seed=2, threads=1, rotate=False)
    assert len(fixed.seatings) == 1 and fixed.games == 2
    for text in (fixed.summary(), fixed._repr_html_()):
        assert "seats as given (not rotated)" in text and "seats rotated" not in text, text
    json.dumps(r.to_dict())
    same = pachisi.tournament("pachisi-online", lineup, deals=5, seed=2, threads=1)
    assert np.array_equal(same.winners, r.winners) and np.array_equal(same.rolls, r.rolls)
    with pytest.raises(pachisi.InvalidPlayerError):
        pachisi.tournament("backgammon", ["greedy"])
    with pytest.raises(pachisi.InvalidPlayerError):
        pachisi.tournament("backgammon", ["greedy", lambda g, p: 0])  # type: ignore[list-item]
    with pytest.raises(ValueError):
        pachisi.tournament("backgammon", ["greedy", "random"], deals=0)
    r2 = pachisi.tournament("parcheesi", ["greedy", "random"], deals=2, seats=2, rotate=False)
    assert r2.games == 2 and r2.rules.options["seats"] == 2


def test_simulate_with_lineups() -> None:
    a = pachisi.simulate("backgammon", games=30, seed=4, policy=["greedy", "random"], threads=1)
    b = pachisi.simulate("backgammon", games=30, seed=4, policy=["greedy", "random"], threads=2)
    assert np.array_equal(a.winners, b.winners) and np.array_equal(a.rolls, b.rolls)
    assert a.summary()["win_rate"][0] > 0.8
    c = pachisi.simulate("backgammon", games=10, seed=4, policy="greedy")
    assert c.games == 10
    with pytest.raises(pachisi.InvalidPlayerError):
        pachisi.simulate("backgammon", games=5, policy=["greedy"])


def test_simulate_with_a_callable_runs_in_python() -> None:
    calls: List[int] = []

    def first(game: Game, plays: List[Play]) -> int:
        calls.append(1)
        return 0

    progress: List[int] = []
    res = pachisi.simulate(
        "backgammon",
        games=4,
        seed=1,
        policy=[first, "greedy"],
        progress=lambda d, t: progress.append(d),
    )
    assert res.games == 4 and calls and progress[-1] == 4
    s = res.summary()
    assert s["games"] == 4 and sum(s["win_rate"]) == pytest.approx(1.0)
    assert res.rolls.shape == (4,) and np.all(res.rolls > 0)
