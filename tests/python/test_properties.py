"""Property tests (hypothesis): any seed and any sequence of random choices keeps the game's
invariants — JSON and notation round trips, undo back to the start, determinism."""

from __future__ import annotations

import random

import pachisi
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

VARIANTS = pachisi.variants()
PROPS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPS
@given(
    variant=st.sampled_from(VARIANTS),
    seed=st.integers(min_value=0, max_value=2**64 - 1),
    choice_seed=st.integers(min_value=0, max_value=2**32),
    actions=st.integers(min_value=0, max_value=120),
)
def test_random_walk_invariants(variant: str, seed: int, choice_seed: int, actions: int) -> None:
    rng = random.Random(choice_seed)
    g = pachisi.Game(variant, seed=seed)
    start = g.position
    taken = 0
    for _ in range(actions):
        if g.is_over:
            break
        if g.is_chance_node():
            g.roll()
        else:
            plays = g.legal_plays()
            assert plays
            g.play(plays[rng.randrange(len(plays))])
        taken += 1
        if g.is_chance_node():
            assert pachisi.Game.from_position(g.rules, g.position).position == g.position
    text = g.to_json()
    assert pachisi.Game.from_json(text).to_json() == text
    # Replaying with the same seed and choices gives the same game.
    again = pachisi.Game(variant, seed=seed)
    rng2 = random.Random(choice_seed)
    for _ in range(taken):
        if again.is_chance_node():
            again.roll()
        else:
            plays = again.legal_plays()
            again.play(plays[rng2.randrange(len(plays))])
    assert again.to_json() == text
    # Undo takes everything back.
    while g.history_len:
        g.undo()
    assert g.position == start and g.log == []


@PROPS
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 2**64 - 1))
def test_every_outcome_of_a_chance_node_is_a_valid_roll(variant: str, seed: int) -> None:
    g = pachisi.play_random_game(variant, seed=seed, max_actions=random.Random(seed).randrange(60))
    if not g.is_chance_node():
        return
    for dice, p in g.chance_outcomes():
        c = g.copy()
        assert c.roll(dice) == dice
        assert 0 < p <= 1
