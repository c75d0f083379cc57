"""`Game.legal_plays()` returns a `LegalPlays`: a read-only sequence over the game's list that reads
like the list of the same plays, and whose plays `Game.play` makes by index."""

import collections.abc
import copy
import pickle
import random

import pytest

import pachisi


def decision(seed: int = 3) -> pachisi.Game:
    g = pachisi.Game("backgammon", seed=seed)
    g.roll()
    assert g.is_decision_node()
    return g


def test_reads_like_the_list_of_its_plays() -> None:
    g = decision()
    plays = g.legal_plays()
    as_list = list(plays)
    assert isinstance(plays, pachisi.LegalPlays)
    assert isinstance(plays, collections.abc.Sequence)
    assert len(plays) == len(as_list) > 3
    assert plays == as_list and as_list == plays and not (plays != as_list)
    assert plays == g.legal_plays() and plays != [] and plays != as_list[:-1]
    assert plays != tuple(as_list)  # as a list would
    assert [plays[i] for i in range(-len(as_list), len(as_list))] == as_list + as_list
    assert plays[1:4] == as_list[1:4] and plays[::-2] == as_list[::-2]
    assert isinstance(plays[1:3], list)
    assert list(reversed(plays)) == as_list[::-1]
    assert [str(p) for p in plays] == [str(p) for p in as_list]
    assert as_list[2] in plays and "13/11" not in plays
    assert plays.index(as_list[3]) == 3 and plays.count(as_list[3]) == 1
    assert plays.index(as_list[-1], -1) == len(as_list) - 1
    with pytest.raises(ValueError):
        plays.index(as_list[3], 4)
    assert plays + [] == as_list and [] + plays == as_list
    assert repr(plays) == repr(as_list)
    assert pickle.loads(pickle.dumps(plays)) == as_list
    assert copy.copy(plays) == as_list
    with pytest.raises(IndexError):
        plays[len(as_list)]
    with pytest.raises(IndexError):
        plays[-len(as_list) - 1]
    with pytest.raises(TypeError):
        plays["0"]  # type: ignore[call-overload]
    with pytest.raises(TypeError):
        hash(plays)
    with pytest.raises(TypeError):
        plays[0] = plays[1]  # type: ignore[index]


def test_empty_when_no_play_is_due() -> None:
    g = pachisi.Game("backgammon", seed=1)
    assert g.legal_plays() == [] and not g.legal_plays() and len(g.legal_plays()) == 0


def test_play_of_a_listed_play_matches_play_by_value_and_by_index() -> None:
    rng = random.Random(5)
    for seed in range(20):
        g = pachisi.Game("backgammon", seed=seed)
        by_value, by_index = g.copy(), g.copy()
        while not g.is_over:
            if g.is_chance_node():
                for x in (g, by_value, by_index):
                    x.roll()
                continue
            plays = g.legal_plays()
            i = rng.randrange(len(plays))
            g.play(plays[i])
            by_value.play(pachisi.Play(plays[i].steps))  # looked up
            by_index.play_index(i)
            assert g.position == by_value.position == by_index.position
            # The list outlives its node: its plays are no longer legal once the game moved on.
            if g.is_decision_node() or g.is_chance_node():
                with pytest.raises((pachisi.IllegalMoveError, pachisi.WrongPhaseError)):
                    g.play(plays[i])
        assert g.to_json() == by_value.to_json() == by_index.to_json()


def test_a_copy_at_the_node_shares_the_list() -> None:
    g = decision(4)
    plays = g.legal_plays()
    h = g.copy()
    h.play(plays[-1])
    g.play(plays[-1])
    assert g.position == h.position and g.to_json() == h.to_json()
