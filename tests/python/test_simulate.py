"""pachisi.simulate: arrays, summary, determinism, threads, progress, errors."""

from __future__ import annotations

import json

import numpy as np
import pytest

import pachisi
from conftest import require_real


def test_arrays_and_summary(real_variant: str) -> None:
    res = pachisi.simulate(real_variant, games=300, seed=1)
    assert res.games == 300 and res.variant == real_variant
    for name, dtype in [
        ("winner", np.int8),
        ("winners", np.uint16),
        ("rolls", np.uint32),
        ("captures", np.uint32),
        ("points", np.uint32),
    ]:
        arr = getattr(res, name)
        assert isinstance(arr, np.ndarray) and arr.dtype == dtype and arr.shape == (300,)
    s = res.summary()
    assert s["games"] == 300
    finished = res.winners != 0
    assert s["unfinished"] == int(np.count_nonzero(~finished))
    for seat in range(res.seats):
        rate = np.count_nonzero(res.winners & (1 << seat)) / 300
        assert s["win_rate"][seat] == pytest.approx(rate)
        lo, hi = s["win_rate_ci"][seat]
        assert lo <= rate <= hi
    assert s["mean_rolls"] == pytest.approx(res.rolls.mean())
    assert s["median_rolls"] == pytest.approx(float(np.median(res.rolls)))
    assert s["mean_captures"] == pytest.approx(res.captures.mean())
    assert np.all(res.rolls > 0)
    # winner is the lowest winning seat
    for w, mask in zip(res.winner[:50], res.winners[:50]):
        assert mask & (1 << int(w))
        assert mask & ((1 << int(w)) - 1) == 0
    assert list(res.wins()) == [int(np.count_nonzero(res.winners & (1 << k))) for k in range(res.seats)]


def test_same_seed_same_result_any_threads(real_variant: str) -> None:
    a = pachisi.simulate(real_variant, games=400, seed=5, threads=1)
    b = pachisi.simulate(real_variant, games=400, seed=5, threads=2)
    c = pachisi.simulate(real_variant, games=400, seed=5)
    for name in ("winner", "winners", "rolls", "captures", "points"):
        assert np.array_equal(getattr(a, name), getattr(b, name))
        assert np.array_equal(getattr(a, name), getattr(c, name))
    d = pachisi.simulate(real_variant, games=400, seed=6)
    assert not np.array_equal(a.rolls, d.rolls)


def test_progress_does_not_change_the_games(real_variant: str, capsys: pytest.CaptureFixture[str]) -> None:
    a = pachisi.simulate(real_variant, games=1200, seed=9)
    b = pachisi.simulate(real_variant, games=1200, seed=9, progress=True)
    assert np.array_equal(a.rolls, b.rolls) and np.array_equal(a.winners, b.winners)
    err = capsys.readouterr().err
    assert "100.0%" in err and "1200/1200" in err
    calls = []
    d = pachisi.simulate(real_variant, games=1200, seed=9, progress=lambda done, total: calls.append((done, total)))
    assert np.array_equal(a.rolls, d.rolls)
    assert calls and calls[-1] == (1200, 1200) and all(t == 1200 for _, t in calls)
    assert [c for c, _ in calls] == sorted(c for c, _ in calls)
    # A prefix of a longer run is the same games.
    c = pachisi.simulate(real_variant, games=500, seed=9)
    assert np.array_equal(a.rolls[:500], c.rolls)


def test_options_and_rules_object() -> None:
    require_real("parcheesi")
    r = pachisi.Rules("parcheesi", seats=2)
    a = pachisi.simulate(r, games=200, seed=2)
    b = pachisi.simulate("parcheesi", games=200, seed=2, seats=2)
    assert a.seats == 2 and a.rules == r
    assert np.array_equal(a.rolls, b.rolls)


def test_output_formats(variant: str) -> None:
    res = pachisi.simulate(variant, games=50, seed=3)
    d = res.to_dict()
    json.dumps(d)
    assert d["games"] == 50 and d["variant"] == variant and len(d["win_rate"]) == res.seats
    text = str(res)
    assert "seat 0" in text and "95% CI" in text and variant in text
    html = res._repr_html_()
    assert "<table>" in html and "seat 0" in html
    assert variant in repr(res)
    assert res.games_per_second > 0


def test_simulate_errors() -> None:
    with pytest.raises(pachisi.InvalidPlayerError):
        pachisi.simulate("backgammon", games=10, policy="oracle")
    with pytest.raises(pachisi.InvalidArgumentError):
        pachisi.simulate("backgammon", games=10, threads=0)
    with pytest.raises(pachisi.InvalidRulesError):
        pachisi.simulate("backgammon", games=10, no_such_option=True)
    with pytest.raises(pachisi.InvalidArgumentError):
        pachisi.simulate("backgammon", games=-1)


def test_zero_games() -> None:
    res = pachisi.simulate("backgammon", games=0)
    assert res.rolls.shape == (0,)
    assert res.summary()["games"] == 0


def test_wilson_interval_is_the_summary_interval() -> None:
    res = pachisi.simulate("backgammon", games=100, seed=1)
    s = res.summary()
    wins = res.wins()
    for seat in range(res.seats):
        lo, hi = pachisi.wilson_interval(int(wins[seat]), 100)
        assert s["win_rate_ci"][seat][0] == pytest.approx(lo)
        assert s["win_rate_ci"][seat][1] == pytest.approx(hi)


def test_wilson_interval_bounds() -> None:
    assert pachisi.wilson_interval(0, 0) == (0.0, 1.0)
    lo, hi = pachisi.wilson_interval(50, 100)
    assert 0.39 < lo < 0.41 and 0.59 < hi < 0.61
    with pytest.raises(ValueError):
        pachisi.wilson_interval(3, 2)


def test_summary_prints_as_a_table_and_is_a_dict() -> None:
    res = pachisi.simulate("backgammon", games=50, seed=3)
    s = res.summary()
    assert isinstance(s, dict)
    assert s.to_dict() == dict(s)
    text = str(s)
    assert "win rate" in text and "seat 1" in text
    assert "<table>" in s._repr_html_()


def test_python_policy_path_applies_the_options_to_a_rules_object() -> None:
    # The slow path (a Python callable in the line-up) reads the options like the Rust path.
    first = lambda game, plays: 0  # noqa: E731
    r = pachisi.simulate(pachisi.Rules("backgammon"), games=2, policy=[first, "random"], max_rolls=5)
    assert r.rules == pachisi.Rules("backgammon", max_rolls=5)
    assert r.truncated.all()
    r = pachisi.simulate(pachisi.Rules("parcheesi"), games=1, policy=[first, "random"], seats=2)
    assert r.rules.options["seats"] == 2
