"""Learned (`td`) players from Python: the specs, a weights file by path, a training smoke run
(a few games; real training is never part of the tests) and its learning curve."""

from __future__ import annotations

import csv
import os

import pytest

import pachisi
from pachisi import Game


def decision(variant: str, seed: int = 1) -> Game:
    g = Game(variant, seed=seed)
    while not g.is_decision_node():
        g.roll()
    return g


@pytest.mark.parametrize("spec", ["td", "td:depth=2"])
def test_td_plays_legal_moves(spec: str) -> None:
    for variant in ["backgammon", "pachisi-online"]:
        g = decision(variant)
        assert g.best_play(spec, seed=1) in g.legal_plays()


def test_train_writes_a_checkpoint_that_plays_and_resumes(tmp_path: object) -> None:
    out = os.path.join(str(tmp_path), "bg.td")
    curve = os.path.join(str(tmp_path), "bg.csv")
    rows = pachisi.train(
        "backgammon", games=4, seed=3, out=out, eval_every=2, eval_deals=2, curve=curve,
        hidden=6, threads=1,
    )
    assert [r["games"] for r in rows] == [0, 2, 4]
    assert all(0.0 <= r["ci_low"] <= r["win_rate"] <= r["ci_high"] <= 1.0 for r in rows)
    with open(curve, newline="") as f:
        assert [int(float(r["games"])) for r in csv.DictReader(f)] == [0, 2, 4]
    # The file plays as a player by its path, and training resumes from it.
    p = pachisi.Player("td:weights=" + out, seed=1)
    g = decision("backgammon")
    assert p.choose_play(g) in g.legal_plays()
    more = pachisi.train("backgammon", games=6, seed=3, resume=out, out=out, eval_every=2,
                         eval_deals=0, hidden=6, threads=1)
    assert more == []
    r = pachisi.tournament("backgammon", ["td:weights=" + out, "random"], deals=2, seed=1)
    assert r.games == 4


def test_bad_weights_files_give_clear_errors(tmp_path: object) -> None:
    with pytest.raises(pachisi.InvalidPlayerError, match="readable weights file"):
        pachisi.Player("td:weights=/no/such/file.td")
    junk = os.path.join(str(tmp_path), "junk.td")
    with open(junk, "wb") as f:
        f.write(b"hello")
    with pytest.raises(pachisi.InvalidPlayerError, match="not a pachisi network file"):
        pachisi.Player("td:weights=" + junk)
    # A stream without end or a directory: read no further than the format allows.
    with pytest.raises(pachisi.InvalidPlayerError, match="not a pachisi network file"):
        pachisi.Player("td:weights=/dev/zero")
    with pytest.raises(pachisi.InvalidPlayerError):
        pachisi.Player("td:weights=" + str(tmp_path))
    with pytest.raises(pachisi.UnknownVariantError):
        pachisi.train("chess", games=1)


def test_train_encoding_and_max_points(tmp_path: object) -> None:
    out = os.path.join(str(tmp_path), "plain.td")
    pachisi.train("backgammon", games=2, out=out, eval_every=2, eval_deals=0, hidden=4,
                  threads=1, encoding="observation", max_points=1)
    with open(out, "rb") as f:
        header = f.read(4096)
    assert b'"encoding":"observation"' in header and b'"max_points":1' in header
    feat = os.path.join(str(tmp_path), "feat.td")
    pachisi.train("backgammon", games=2, out=feat, eval_every=2, eval_deals=0, hidden=4,
                  threads=1)
    with open(feat, "rb") as f:
        header = f.read(4096)
    assert b'"encoding":"features"' in header and b'"max_points":3' in header
    assert b'"feature_scales":[' in header
    with pytest.raises(pachisi.InvalidArgumentError, match="input encoding"):
        pachisi.train("backgammon", games=1, encoding="raw")
    with pytest.raises(pachisi.InvalidArgumentError, match="max_points"):
        pachisi.train("backgammon", games=1, max_points=0)


def test_train_discount(tmp_path: object) -> None:
    out = os.path.join(str(tmp_path), "disc.td")
    pachisi.train("backgammon", games=2, out=out, eval_every=2, eval_deals=0, hidden=4,
                  threads=1, discount=0.99)
    with open(out, "rb") as f:
        header = f.read(4096)
    assert b'"discount":0.99' in header
    for bad in (0.0, 1.5, float("nan")):
        with pytest.raises(pachisi.InvalidArgumentError, match="discount"):
            pachisi.train("backgammon", games=1, discount=bad)
