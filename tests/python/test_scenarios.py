"""The shared scenario files (tests/scenarios/<variant>/*.json, format in their README) replayed
through Python, with the same expectations as the Rust runner core/tests/scenarios.rs."""

from __future__ import annotations

import json
from typing import Any, Dict, List

import pytest

import pachisi
from conftest import load_scenarios

SCENARIOS = load_scenarios()


def notations(game: pachisi.Game) -> List[str]:
    return sorted(str(p) for p in game.legal_plays())


def as_roll(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def canonical(rules: pachisi.Rules, position: str) -> str:
    """The engine's canonical form of a position in a scenario file."""
    return pachisi.Game.from_position(rules, position, seed=0).position


def roll_and_check(game: pachisi.Game, entry: Dict[str, Any]) -> None:
    roll = as_roll(entry["roll"])
    if "error" in entry:
        cls = getattr(pachisi, entry["error"] + "Error")
        before = game.to_json()
        with pytest.raises(cls):
            game.roll(roll)
        assert game.to_json() == before, "a rejected roll must leave the game unchanged"
        return
    assert game.roll(roll) == roll
    if "plays" in entry:
        assert notations(game) == sorted(entry["plays"]), f"roll {roll}"
    # Every listed play's notation parses back to a play with the same result.
    for p in game.legal_plays():
        back = game.parse_play(str(p))
        a, b = game.copy(), game.copy()
        a.play(p)
        b.play(back)
        assert a.position == b.position, f"notation {p} parses to another play"


@pytest.mark.parametrize("scenario", [s for _, s in SCENARIOS], ids=[i for i, _ in SCENARIOS])
def test_scenario(scenario: Dict[str, Any]) -> None:
    rules = pachisi.Rules.from_json(json.dumps(scenario["rules"]))
    game = pachisi.Game.from_position(rules, scenario["position"], seed=0)
    # The engine writes a canonical form (piece order within a seat may differ in the files);
    # that form must read back to itself and to the same state.
    again = pachisi.Game.from_position(rules, game.position, seed=0)
    assert again.position == game.position and again.state() == game.state()
    if "roll" in scenario:
        roll_and_check(game, scenario)
    for i, entry in enumerate(scenario.get("then", [])):
        if "roll" in entry:
            roll_and_check(game, entry)
        if "play" in entry:
            game.play(entry["play"])
        if "position" in entry:
            want = canonical(rules, entry["position"])
            assert game.position == want, f"then[{i}]"
