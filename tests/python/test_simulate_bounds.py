"""simulate() stays bounded (issue #15): no preallocation from `games`, bounded threads,
Ctrl-C within a fraction of a second, progress callbacks, and games truncated by max_rolls."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import pachisi


def test_huge_game_counts_start_and_are_interrupted_by_the_callback() -> None:
    # 10**12 and 2**63 games used to abort the interpreter (preallocation) or raise a
    # PanicException: now the run starts at once and the callback's exception stops it.
    class Stop(Exception):
        pass

    def stop(done: int, total: int) -> None:
        assert total in (10**12, 2**63)
        raise Stop

    for games in (10**12, 2**63):
        start = time.perf_counter()
        with pytest.raises(Stop):
            pachisi.simulate("pachisi-family", games=games, threads=2, progress=stop)
        assert time.perf_counter() - start < 10


def test_progress_callbacks_still_report_and_end_at_the_total() -> None:
    calls = []
    res = pachisi.simulate("parcheesi", games=3000, seed=4, threads=2, progress=lambda d, t: calls.append((d, t)))
    assert calls[-1] == (3000, 3000)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)
    assert res.games == 3000
    calls.clear()
    pachisi.simulate("parcheesi", games=0, progress=lambda d, t: calls.append((d, t)))
    assert calls == [(0, 0)]


def test_many_threads_are_refused_and_the_bound_is_accepted() -> None:
    with pytest.raises(pachisi.InvalidArgumentError):
        pachisi.simulate("backgammon", games=10, threads=pachisi.MAX_THREADS + 1)
    a = pachisi.simulate("backgammon", games=100, seed=3, threads=pachisi.MAX_THREADS)
    b = pachisi.simulate("backgammon", games=100, seed=3, threads=1)
    assert np.array_equal(a.rolls, b.rolls)


def test_truncated_games_are_counted(variant: str) -> None:
    res = pachisi.simulate(variant, games=80, seed=1, max_rolls=10)
    assert res.truncated.dtype == np.bool_ and res.truncated.shape == (80,)
    assert res.truncated.all() and (res.winners == 0).all() and (res.winner == -1).all()
    assert (res.rolls == 10).all()
    s = res.summary()
    assert s["truncated"] == 80 and s["unfinished"] == 80
    assert res.to_dict()["truncated"] == 80
    assert "truncated" in str(res)
    normal = pachisi.simulate(variant, games=80, seed=1)
    assert not normal.truncated.any() and normal.summary()["truncated"] == 0
    # The same with a line-up of players.
    lineup = pachisi.simulate(variant, games=10, seed=1, policy="greedy", max_rolls=10)
    assert lineup.truncated.all()


def test_a_game_past_max_rolls_is_over_and_truncated() -> None:
    g = pachisi.play_random_game("pachisi", seed=2, max_rolls=30)
    assert g.is_over and g.truncated and g.rolls == 30
    assert g.winner is None and g.winners == [] and g.returns() == [0.0] * g.seats
    with pytest.raises(pachisi.WrongPhaseError):
        g.roll()
    g2 = pachisi.play_random_game("pachisi", seed=2)
    assert g2.is_over and not g2.truncated and g2.winner is not None


def test_stalling_options_are_refused() -> None:
    with pytest.raises(pachisi.InvalidRulesError, match="shell_probability"):
        pachisi.Rules("pachisi", shell_probability=1e-9)
    with pytest.raises(pachisi.InvalidRulesError, match="max_rolls"):
        pachisi.Rules("backgammon", max_rolls=10**6)


def test_ctrl_c_stops_a_long_simulation_quickly() -> None:
    code = textwrap.dedent(
        """
        import sys, time, pachisi
        print("ready", flush=True)
        try:
            pachisi.simulate("parcheesi", games=10**9, threads=2)
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            sys.exit(3)
        sys.exit(0)
        """
    )
    # A suite started in the background (`make test &`) hands its children SIGINT ignored, and
    # Python then installs no KeyboardInterrupt handler: give the child Ctrl-C as a terminal would.
    proc = subprocess.Popen(
        [sys.executable, "-c", code],
        stdout=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "ready"
    time.sleep(1.0)
    sent = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    try:
        rc = proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
    elapsed = time.perf_counter() - sent
    out = proc.stdout.read()
    assert rc == 3 and "interrupted" in out, (rc, out)
    assert elapsed < 1.0, f"took {elapsed:.2f} s to stop"
