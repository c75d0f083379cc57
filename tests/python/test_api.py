"""Every method of the Python API, on every preset (those with a real rule system)."""

from __future__ import annotations

import copy
import json
import pickle
import random

import pytest

import pachisi
from conftest import require_real


def advance_to_decision(game: pachisi.Game, rng: random.Random, limit: int = 10_000) -> bool:
    """Plays randomly until a play is due; False if the game ended first."""
    for _ in range(limit):
        if game.is_over:
            return False
        if game.is_decision_node():
            return True
        game.roll()
        if game.is_chance_node():
            continue
    return game.is_decision_node()


def random_action(game: pachisi.Game, rng: random.Random) -> None:
    if game.is_chance_node():
        game.roll()
    else:
        plays = game.legal_plays()
        game.play(plays[rng.randrange(len(plays))])


# ---------------------------------------------------------------- module and rules


def test_variants_lists_every_preset() -> None:
    v = pachisi.variants()
    assert {"parcheesi", "pachisi-family", "pachisi-online", "pachisi", "backgammon"} <= set(v)
    assert len(v) == len(set(v))


def test_version() -> None:
    assert isinstance(pachisi.__version__, str) and pachisi.__version__.count(".") == 2


def test_rules_preset_and_options(variant: str) -> None:
    r = pachisi.Rules(variant)
    assert r.variant == variant
    assert isinstance(r.options, dict) and "variant" not in r.options
    assert pachisi.Rules.from_json(r.to_json()) == r
    assert r.to_dict()["variant"] == variant
    assert repr(r) == f"Rules('{variant}')"
    # The options dict is a copy.
    r.options.clear()
    assert r.options


def test_rules_with_options_and_pasteable_repr(variant: str) -> None:
    r = pachisi.Rules(variant)
    # Every option given back unchanged is accepted and equal to the preset.
    assert pachisi.Rules(variant, **r.options) == r
    # A changed boolean option shows in the repr, and the repr evaluates back to the rules.
    for key, value in r.options.items():
        if isinstance(value, bool):
            try:
                changed = r.replace(**{key: not value})
            except pachisi.InvalidRulesError:
                continue  # that combination is invalid for this preset
            assert changed != r
            assert key in repr(changed)
            assert eval(repr(changed), {"Rules": pachisi.Rules}) == changed
            assert pachisi.Rules(variant, **{key: not value}) == changed
            break


def test_rules_hash_eq_pickle(variant: str) -> None:
    r = pachisi.Rules(variant)
    assert hash(r) == hash(pachisi.Rules(variant))
    assert {r, pachisi.Rules(variant)} == {r}
    assert pickle.loads(pickle.dumps(r)) == r
    assert r != variant


def test_rules_from_rules_object() -> None:
    r = pachisi.Rules("parcheesi")
    assert pachisi.Rules(r) == r
    assert pachisi.Game(r, seed=1).rules == r


# ---------------------------------------------------------------- game basics


def test_new_game(variant: str) -> None:
    g = pachisi.Game(variant, seed=7)
    assert g.variant == variant
    assert g.rules == pachisi.Rules(variant)
    assert g.seats >= 2
    assert g.node in ("chance", "decision", "over")
    assert g.board in ("loop", "cross", "backgammon")
    assert g.history_len == 0
    assert g.log == []
    assert g.last_play() is None
    assert g.taken == []
    assert len(g.returns()) == g.seats
    assert isinstance(g.state(), (dict, list, int))


def test_new_game_with_options_and_rules_object(real_variant: str) -> None:
    r = pachisi.Rules(real_variant)
    g1 = pachisi.Game(r, seed=3)
    g2 = pachisi.Game(real_variant, seed=3, **r.options)
    assert g1.to_json() == g2.to_json()


def test_chance_outcomes_sum_to_one(real_variant: str) -> None:
    g = pachisi.Game(real_variant, seed=1)
    assert g.is_chance_node()
    outcomes = g.chance_outcomes()
    assert outcomes
    assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
    for dice, p in outcomes:
        assert p > 0
        assert isinstance(dice, (tuple, int))


def test_roll_returns_an_outcome_and_is_seeded(real_variant: str) -> None:
    a = pachisi.Game(real_variant, seed=11)
    b = pachisi.Game(real_variant, seed=11)
    possible = {d for d, _ in a.chance_outcomes()}
    normalise = lambda d: tuple(sorted(d, reverse=True)) if isinstance(d, tuple) else d  # noqa: E731
    for _ in range(5):
        if not a.is_chance_node():
            break
        da, db = a.roll(), b.roll()
        assert da == db
        assert normalise(da) in {normalise(d) for d in possible}
        if a.is_chance_node():
            possible = {d for d, _ in a.chance_outcomes()}
        else:
            break


def test_given_roll_and_wrong_phase(real_variant: str) -> None:
    g = pachisi.Game(real_variant, seed=2)
    dice, _ = g.chance_outcomes()[0]
    assert g.roll(dice) == dice
    if g.is_decision_node():
        with pytest.raises(pachisi.WrongPhaseError):
            g.roll()
        with pytest.raises(pachisi.WrongPhaseError):
            g.roll(dice)


def test_invalid_rolls(real_variant: str) -> None:
    g = pachisi.Game(real_variant, seed=2)
    before = g.to_json()
    dice, _ = g.chance_outcomes()[0]
    bad = [(0, 3), (7, 1), (1, 2, 3), "5-3", 99, -1, True, None]
    bad = [(9, 9) if isinstance(dice, int) else 99] + bad
    for b in bad:
        if b is None:
            continue
        with pytest.raises(pachisi.InvalidRollError):
            g.roll(b)
        assert isinstance(pachisi.InvalidRollError("x"), ValueError)
    assert g.to_json() == before


def test_random_games_to_the_end(real_variant: str) -> None:
    rng = random.Random(5)
    for seed in range(3):
        g = pachisi.Game(real_variant, seed=seed)
        rolls = 0
        while not g.is_over:
            if g.is_chance_node():
                g.roll()
                rolls += 1
            else:
                plays = g.legal_plays()
                assert plays, "a decision node always has a play (else the roll was forfeited)"
                assert len(set(plays)) == len(plays)
                g.play(plays[rng.randrange(len(plays))])
            assert rolls < 100_000
        assert g.winner is not None and 0 <= g.winner < g.seats
        assert g.winner in g.winners
        assert g.points is not None and g.points >= 1
        ret = g.returns()
        assert abs(sum(ret)) < 1e-9 and ret[g.winner] > 0
        assert g.legal_plays() == [] and g.legal_steps() == [] and g.chance_outcomes() == []
        with pytest.raises(pachisi.WrongPhaseError):
            g.roll()
        log = g.log
        assert sum(1 for e in log if e["event"] == "roll") == rolls
        assert all(e["event"] in ("roll", "play", "forfeit") for e in log)


def test_same_seed_same_game(real_variant: str) -> None:
    a = pachisi.play_random_game(real_variant, seed=42)
    b = pachisi.play_random_game(real_variant, seed=42)
    assert a.to_json() == b.to_json()
    assert a.position == b.position


def test_unplayable_roll_is_forfeited(real_variant: str) -> None:
    """An empty legal_plays() right after roll() means the roll could not be played: the engine
    forfeits it at once, logs it, and the game is at a chance node (or over) again."""
    rng = random.Random(3)
    g = pachisi.Game(real_variant, seed=3)
    for _ in range(3000):
        if g.is_over:
            break
        # A decision node always has a play; anything else has none.
        assert g.is_decision_node() == bool(g.legal_plays())
        if g.is_chance_node():
            n = len(g.log)
            g.roll()
            new = g.log[n:]
            assert new[0]["event"] == "roll"
            if new[-1]["event"] == "forfeit":
                assert not g.is_decision_node() or g.legal_plays()
                assert g.is_chance_node() or g.is_over or g.legal_plays()
        else:
            random_action(g, rng)


# ---------------------------------------------------------------- plays and steps


def test_plays_notation_roundtrip(real_variant: str) -> None:
    rng = random.Random(9)
    g = pachisi.Game(real_variant, seed=9)
    checked = 0
    while not g.is_over and checked < 25:
        if g.is_chance_node():
            g.roll()
            continue
        plays = g.legal_plays()
        for p in plays:
            assert isinstance(str(p), str)
            assert p.notation == str(p)
            back = g.parse_play(str(p))
            a, b = g.copy(), g.copy()
            a.play(p)
            b.play(str(p))
            assert a.position == b.position
            assert pickle.loads(pickle.dumps(p)) == p
            assert hash(p) == hash(pachisi.Play(p.steps))
            assert len(p) == len(p.steps)
            assert p.captures == sum(s.captured for s in p.steps)
            del back
        g.play(plays[rng.randrange(len(plays))])
        checked += 1


def test_play_by_steps_matches_whole_play(real_variant: str) -> None:
    rng = random.Random(4)
    g = pachisi.Game(real_variant, seed=4)
    done = 0
    while not g.is_over and done < 20:
        if g.is_chance_node():
            g.roll()
            continue
        plays = g.legal_plays()
        target = plays[rng.randrange(len(plays))]
        whole = g.copy()
        whole.play(target)
        stepped = g.copy()
        if target.is_pass:
            stepped.finish_play()
        else:
            for i, s in enumerate(target.steps):
                assert s in stepped.legal_steps()
                stepped.step(s)
                if i + 1 < len(target.steps):
                    assert stepped.taken == target.steps[: i + 1]
            if stepped.is_decision_node() and stepped.taken:
                stepped.finish_play()
        assert stepped.position == whole.position
        g = whole
        done += 1


def test_step_attributes(real_variant: str) -> None:
    g = pachisi.Game(real_variant, seed=8)
    assert advance_to_decision(g, random.Random(8))
    for s in g.legal_steps():
        assert s.from_ == s.frm
        assert s.kind in ("move", "enter", "bonus", "double", "no-double", "take", "drop")
        assert s.count >= 1 and s.captured >= 0
        assert s.piece is None or s.piece >= 0
        assert 0 <= s.seat < g.seats
        assert eval(repr(s), {"Step": pachisi.Step}) == s
        assert pickle.loads(pickle.dumps(s)) == s
        d = s.to_dict()
        assert d["from"] == s.from_ and d["kind"] == s.kind
        place = g.place(s.seat, s.from_)
        assert "zone" in place


def test_illegal_moves_leave_the_game_unchanged(real_variant: str) -> None:
    g = pachisi.Game(real_variant, seed=6)
    assert advance_to_decision(g, random.Random(6))
    before = g.to_json()
    # Text that does not parse is an InvalidNotationError in variants with their own parser.
    with pytest.raises((pachisi.IllegalMoveError, pachisi.InvalidNotationError)):
        g.play("definitely not a move")
    bogus = pachisi.Step(0, 0, 200, 201, 1)
    with pytest.raises(pachisi.IllegalMoveError):
        g.step(bogus)
    with pytest.raises(pachisi.IllegalMoveError):
        g.play(pachisi.Play([bogus]))
    with pytest.raises(pachisi.IllegalMoveError):
        g.play(42)  # type: ignore[arg-type]
    assert g.to_json() == before


def test_play_at_chance_node_is_wrong_phase(real_variant: str) -> None:
    g = pachisi.Game(real_variant, seed=6)
    assert g.is_chance_node()
    with pytest.raises(pachisi.WrongPhaseError):
        g.play(pachisi.Play())
    with pytest.raises(pachisi.WrongPhaseError):
        g.finish_play()
    with pytest.raises(pachisi.WrongPhaseError):
        g.parse_play("x")


# ---------------------------------------------------------------- undo, copy, json, notation


def test_undo_restores_position_and_generator(real_variant: str) -> None:
    rng = random.Random(12)
    g = pachisi.Game(real_variant, seed=12)
    for _ in range(30):
        if g.is_over:
            break
        before_json = g.to_json()
        before_pos = g.position
        random_action(g, rng)
        after = g.to_json()
        g.undo()
        assert g.position == before_pos
        assert g.to_json() == before_json
        # Redo with the same choice: the restored generator rolls the same dice.
        g = pachisi.Game.from_json(after)
    empty = pachisi.Game(real_variant, seed=1)
    with pytest.raises(pachisi.WrongPhaseError):
        empty.undo()


def test_copy_is_independent(real_variant: str) -> None:
    g = pachisi.Game(real_variant, seed=13)
    for c in (g.copy(), copy.copy(g), copy.deepcopy(g)):
        assert c.to_json() == g.to_json()
        c.roll()
        assert c.to_json() != g.to_json()
        assert g.history_len == 0


def test_json_roundtrip_mid_game(real_variant: str) -> None:
    rng = random.Random(14)
    g = pachisi.Game(real_variant, seed=14)
    for _ in range(40):
        if g.is_over:
            break
        random_action(g, rng)
    text = g.to_json()
    json.loads(text)
    back = pachisi.Game.from_json(text)
    assert back.to_json() == text
    assert back.position == g.position
    assert pickle.loads(pickle.dumps(g)).to_json() == text
    # Both continue identically (same generator, same choices).
    r1, r2 = random.Random(1), random.Random(1)
    for _ in range(20):
        if g.is_over:
            break
        random_action(g, r1)
        random_action(back, r2)
        assert g.position == back.position


def test_position_roundtrip(real_variant: str) -> None:
    rng = random.Random(15)
    g = pachisi.Game(real_variant, seed=15)
    for _ in range(60):
        if g.is_over:
            break
        pos = g.position
        again = pachisi.Game.from_position(g.rules, pos, seed=0)
        assert again.position == pos
        if g.is_chance_node():
            assert again.is_chance_node()
            assert again.to_move == g.to_move
        random_action(g, rng)


def test_repr_is_pasteable(real_variant: str) -> None:
    g = pachisi.Game(real_variant, seed=16)
    text = repr(g)
    assert text.startswith("Game.from_position(")
    again = eval(text, {"Game": pachisi.Game, "Rules": pachisi.Rules})
    assert again.position == g.position and again.rules == g.rules
    # At a decision node the notation carries the pending roll: the same plays are due.
    assert advance_to_decision(g, random.Random(16))
    again = eval(repr(g), {"Game": pachisi.Game, "Rules": pachisi.Rules})
    assert again.is_decision_node()
    assert sorted(map(str, again.legal_plays())) == sorted(map(str, g.legal_plays()))
    custom = pachisi.Game(pachisi.Rules(real_variant).replace(**first_bool_flip(real_variant)), seed=1)
    again = eval(repr(custom), {"Game": pachisi.Game, "Rules": pachisi.Rules})
    assert again.rules == custom.rules and again.position == custom.position


def test_repr_is_pasteable_part_way_through_a_play(real_variant: str) -> None:
    # The repr writes the play's start and the steps taken: the same decision comes back (the
    # position with the steps applied would start another one).
    names = {"Game": pachisi.Game, "Rules": pachisi.Rules, "Step": pachisi.Step}
    rng = random.Random(5)
    checked = 0
    for seed in range(40):
        g = pachisi.Game(real_variant, seed=seed)
        for _ in range(60):
            if g.is_over:
                break
            if g.is_chance_node():
                g.roll()
                continue
            steps = g.legal_steps()
            if not steps:
                g.finish_play()
                continue
            g.step(rng.choice(steps))
            if g.taken and g.is_decision_node():
                text = repr(g)
                assert "taken=[" in text
                again = eval(text, names)
                assert again.taken == g.taken and again.position == g.position
                assert again.start_position == g.start_position
                assert sorted(map(str, again.legal_plays())) == sorted(map(str, g.legal_plays()))
                checked += 1
    # Classic Pachisi moves one piece per throw: no play is ever part-way.
    assert checked > 20 or real_variant == "pachisi"


def first_bool_flip(variant: str) -> dict:
    """A valid change of one boolean option of the preset (empty if none is valid)."""
    r = pachisi.Rules(variant)
    for key, value in r.options.items():
        if isinstance(value, bool):
            try:
                r.replace(**{key: not value})
            except pachisi.InvalidRulesError:
                continue
            return {key: not value}
    return {}


def test_log_and_last_play(real_variant: str) -> None:
    rng = random.Random(17)
    g = pachisi.Game(real_variant, seed=17)
    made = []
    while not g.is_over and len(made) < 10:
        if g.is_chance_node():
            g.roll()
        else:
            plays = g.legal_plays()
            p = plays[rng.randrange(len(plays))]
            seat = g.to_move
            g.play(p)
            made.append((seat, p))
            last = g.last_play()
            assert last is not None
            assert last[0] == seat and last[1] == p and str(last[1]) == str(p)
    logged = [(e["seat"], e["play"]) for e in g.log if e["event"] == "play"]
    assert logged == made
    assert [str(p) for _, p in logged] == [str(p) for _, p in made]


def test_pieces(real_variant: str) -> None:
    g = pachisi.Game(real_variant, seed=18)
    pieces = g.pieces()
    assert pieces
    for p in pieces:
        assert set(p) == {"seat", "piece", "place", "count"}
        assert 0 <= p["seat"] < g.seats and p["count"] >= 1
        assert "zone" in p["place"]


# ---------------------------------------------------------------- errors


def test_error_hierarchy() -> None:
    validation = [
        pachisi.UnknownVariantError,
        pachisi.InvalidRulesError,
        pachisi.InvalidJsonError,
        pachisi.InvalidNotationError,
        pachisi.InvalidPositionError,
        pachisi.InvalidRollError,
        pachisi.IllegalMoveError,
    ]
    for cls in validation:
        assert issubclass(cls, pachisi.PachisiError) and issubclass(cls, ValueError)
        assert cls.__module__ == "pachisi"
    assert issubclass(pachisi.WrongPhaseError, pachisi.PachisiError)
    assert not issubclass(pachisi.WrongPhaseError, ValueError)
    assert issubclass(pachisi.PachisiError, Exception)


def test_unknown_variant() -> None:
    with pytest.raises(pachisi.UnknownVariantError, match="snakes"):
        pachisi.Rules("snakes-and-ladders")
    with pytest.raises(pachisi.UnknownVariantError):
        pachisi.Game("snakes-and-ladders")
    with pytest.raises(pachisi.UnknownVariantError):
        pachisi.simulate("snakes-and-ladders", games=1)


def test_invalid_rules(variant: str) -> None:
    with pytest.raises(pachisi.InvalidRulesError, match="no_such_option"):
        pachisi.Rules(variant, no_such_option=1)
    with pytest.raises(pachisi.InvalidRulesError):
        pachisi.Game(variant, no_such_option=1)
    with pytest.raises(pachisi.InvalidRulesError):
        pachisi.Rules(variant, seats=object())
    with pytest.raises(pachisi.InvalidRulesError):
        pachisi.Rules(variant, seats=99)
    with pytest.raises(pachisi.InvalidRulesError):
        pachisi.Rules.from_json(json.dumps({"variant": variant, "seats": "four"}))
    with pytest.raises(pachisi.InvalidRulesError):
        pachisi.Rules(3)  # type: ignore[arg-type]


def test_invalid_json() -> None:
    for text in ["{", "[]", '{"rules": 1}', "null", '{"no_rules": true}']:
        with pytest.raises((pachisi.InvalidJsonError, pachisi.InvalidRulesError)):
            pachisi.Game.from_json(text)
    with pytest.raises(pachisi.InvalidJsonError):
        pachisi.Game.from_json("{")
    with pytest.raises(pachisi.InvalidJsonError):
        pachisi.Rules.from_json("not json")
    # A key given twice is refused (plain JSON readers keep the last one silently).
    with pytest.raises(pachisi.InvalidJsonError, match="`seats` twice"):
        pachisi.Rules.from_json('{"variant": "parcheesi", "seats": 2, "seats": 4}')


def test_invalid_json_state(real_variant: str) -> None:
    g = pachisi.Game(real_variant, seed=1)
    data = json.loads(g.to_json())
    data["state"] = "garbage"
    with pytest.raises(pachisi.InvalidJsonError):
        pachisi.Game.from_json(json.dumps(data))


def test_invalid_notation(real_variant: str) -> None:
    for text in ["", "%%%%", "\u00e9\u00e9\u00e9 not a position"]:
        with pytest.raises((pachisi.InvalidNotationError, pachisi.InvalidPositionError)):
            pachisi.Game.from_position(real_variant, text)
    with pytest.raises(pachisi.InvalidNotationError):
        pachisi.Game.from_position(real_variant, "%%%%")


def test_exceptions_are_catchable_as_base() -> None:
    with pytest.raises(pachisi.PachisiError):
        pachisi.Rules("nope")
    with pytest.raises(ValueError):
        pachisi.Rules("nope")


def test_game_without_seed_is_random() -> None:
    seeds = {pachisi.Game("backgammon").to_json() for _ in range(5)}
    assert len(seeds) > 1


def test_invalid_position() -> None:
    """Positions that parse but cannot occur (Parcheesi notation: `seat:pieces ... turn doubles`)."""
    require_real("parcheesi")
    empty = "1:0,0,0,0 2:0,0,0,0 3:0,0,0,0 turn:0 doubles:0"
    for text in [
        "0:5,5,5,0 " + empty,  # three pieces on one square (PAR-10: at most a blockade of two)
        "0:5,0,0,0 1:56,0,0,0 2:0,0,0,0 3:0,0,0,0 turn:0 doubles:0",  # two seats on unsafe square 4
        "0:0,0,0,0 " + empty.replace("turn:0", "turn:7"),  # no seat 7
    ]:
        with pytest.raises(pachisi.InvalidPositionError):
            pachisi.Game.from_position("parcheesi", text)
    assert issubclass(pachisi.InvalidPositionError, ValueError)
