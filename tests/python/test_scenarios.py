"""The shared scenario files (tests/scenarios/<variant>/*.json, format in their README) replayed
through Python, with the same expectations as the Rust runner core/tests/scenarios.rs."""

from __future__ import annotations

import json
from typing import Any, Dict, List

import pytest

import pachisi
from conftest import is_placeholder, load_scenarios

SCENARIOS = load_scenarios()


def notations(game: pachisi.Game) -> List[str]:
    return sorted(str(p) for p in game.legal_plays())


def as_roll(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


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
    if is_placeholder(rules.variant):
        pytest.skip(f"{rules.variant}: rule system not merged yet")
    game = pachisi.Game.from_position(rules, scenario["position"], seed=0)
    assert game.position == scenario["position"], "position must round-trip"
    if "roll" in scenario:
        roll_and_check(game, scenario)
    for i, entry in enumerate(scenario.get("then", [])):
        if "roll" in entry:
            roll_and_check(game, entry)
        if "play" in entry:
            game.play(entry["play"])
        if "position" in entry:
            assert game.position == entry["position"], f"then[{i}]"
