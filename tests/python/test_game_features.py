"""The game object's features on every preset: play by index, events, history, redo, the
position hash, the plays of a hypothetical roll, board data and option introspection."""

from __future__ import annotations

import random

import pytest

import pachisi


def play_some(game: pachisi.Game, rng: random.Random, actions: int) -> None:
    for _ in range(actions):
        if game.is_over:
            return
        if game.is_chance_node():
            game.roll()
        else:
            game.play_index(rng.randrange(len(game.legal_plays())))


def test_play_index_makes_the_listed_play(variant: str) -> None:
    game = pachisi.Game(variant, seed=3)
    rng = random.Random(3)
    for _ in range(200):
        if game.is_over:
            break
        if game.is_chance_node():
            game.roll()
            continue
        plays = game.legal_plays()
        i = rng.randrange(len(plays))
        other = game.copy()
        other.play(plays[i])
        game.play_index(i)
        assert game.to_json() == other.to_json()
    with pytest.raises(IndexError):
        g = pachisi.Game(variant, seed=3)
        while not g.is_decision_node():
            g.roll()
        g.play_index(len(g.legal_plays()))


def test_events_name_the_action_and_its_consequences(variant: str) -> None:
    game = pachisi.Game(variant, seed=8)
    assert game.events() == []
    rng = random.Random(8)
    kinds: set[str] = set()
    while not game.is_over and game.history_len < 3000:
        if game.is_chance_node():
            roll = game.roll()
            events = game.events()
            assert events[0] == {"event": "roll", "seat": events[0]["seat"], "roll": roll}
        else:
            plays = game.legal_plays()
            play = plays[rng.randrange(len(plays))]
            game.play(play)
            events = game.events()
            assert events[0]["event"] == "play" and events[0]["play"] == play
            assert str(events[0]["play"]) == str(play)
        kinds.update(e["event"] for e in events)
    assert game.events()[-1]["event"] == "game-over"
    assert game.events()[-1]["outcome"]["winners"] != 0
    if variant in ("parcheesi", "pachisi-online"):
        assert {"capture", "bonus", "extra-roll"} <= kinds, kinds
    history = game.history()
    assert len(history) == game.history_len
    logged = [e for h in history for e in h["events"] if e["event"] in ("roll", "play", "forfeit")]
    assert [e["event"] for e in logged] == [e["event"] for e in game.log]
    assert [str(e.get("play")) for e in logged] == [str(e.get("play")) for e in game.log]


def test_a_roll_returns_its_dice() -> None:
    # Every roll of two dice, set or drawn, comes back as the tuple of its dice, and the
    # roll event holds the same tuple.
    for a in range(1, 7):
        for b in range(1, 7):
            game = pachisi.Game("parcheesi", seed=1)
            roll = game.roll((a, b))
            assert type(roll) is tuple and roll == (a, b)
            assert game.events()[0]["roll"] == (a, b)
    # A drawn roll set on a copy made before it leads to the same game.
    game = pachisi.Game("backgammon", seed=5)
    while not game.is_over:
        if game.is_chance_node():
            copy = game.copy()
            roll = game.roll()
            assert type(roll) is tuple and game.events()[0]["roll"] == roll
            copy.roll(roll)
            assert copy.position == game.position and copy.log == game.log
        else:
            game.play(game.legal_plays()[0])


def test_a_forfeit_is_an_event_of_the_roll() -> None:
    game = pachisi.Game("parcheesi", seed=1)
    game.roll((2, 1))
    assert game.events() == [
        {"event": "roll", "seat": 0, "roll": (2, 1)},
        {"event": "forfeit", "seat": 0},
    ]


def test_redo_after_undo_and_a_new_action_clears_it(variant: str) -> None:
    game = pachisi.Game(variant, seed=4)
    play_some(game, random.Random(4), 40)
    end = game.to_json()
    for _ in range(5):
        game.undo()
    assert game.redo_len == 5
    for _ in range(5):
        game.redo()
    assert game.to_json() == end
    with pytest.raises(pachisi.WrongPhaseError):
        game.redo()
    game.undo()
    play_some(game, random.Random(5), 1)
    assert game.redo_len == 0


def test_hash_and_same_position(variant: str) -> None:
    game = pachisi.Game(variant, seed=6)
    play_some(game, random.Random(6), 25)
    copy = game.copy()
    assert copy.same_position(game) and copy.hash() == game.hash()
    before = game.hash()
    play_some(game, random.Random(7), 1)
    assert not copy.same_position(game)
    game.undo()
    assert game.hash() == before and game.same_position(copy)


def test_plays_for_roll_lists_what_the_roll_would_allow(variant: str) -> None:
    game = pachisi.Game(variant, seed=2)
    rng = random.Random(2)
    checked = 0
    while not game.is_over and checked < 30:
        if game.is_chance_node():
            position = game.to_json()
            for dice, _ in game.chance_outcomes()[:6]:
                plays = game.plays_for_roll(dice)
                after = game.copy()
                after.roll(dice)
                if after.is_decision_node() and after.history_len == game.history_len + 1:
                    assert [str(p) for p in plays] == [str(p) for p in after.legal_plays()]
                    checked += 1
            assert game.to_json() == position
            game.roll()
        else:
            with pytest.raises(pachisi.WrongPhaseError):
                game.plays_for_roll((1, 2))
            game.play_index(rng.randrange(len(game.legal_plays())))
    assert checked > 0


def test_board_data_has_every_piece_and_the_safe_places(variant: str) -> None:
    game = pachisi.Game(variant, seed=9)
    play_some(game, random.Random(9), 7)
    data = game.board_data()
    assert data["board"] == game.board
    assert data["to_move"] == game.to_move and data["node"] == game.node
    assert data["pieces"] == game.pieces()
    if game.is_chance_node():
        assert data["roll"] is None
    if variant == "parcheesi":
        assert len(data["safe"]) == 12


def test_rules_option_info_describes_every_option(variant: str) -> None:
    rules = pachisi.Rules(variant)
    info = rules.option_info()
    assert sorted(o["name"] for o in info) == sorted(rules.options)
    for o in info:
        assert o["default"] == rules.options[o["name"]]
        if o["kind"] == "integer":
            assert o["min"] <= o["default"] <= o["max"]
        if o["kind"] == "choice":
            assert o["default"] in o["choices"]
