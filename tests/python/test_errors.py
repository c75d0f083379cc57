"""Every bad argument is a pachisi.PachisiError subclass (or a TypeError for a wrong type),
never OverflowError, PanicException or a bare ValueError; messages name the argument or the
option and quote at most a short excerpt of the input (issue #15)."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any, Callable, Type

import pytest

import pachisi


def raises(exc: Type[BaseException], call: Callable[[], Any], *names: str) -> str:
    """Checks that `call` raises exactly a subclass of `exc` whose message names `names`."""
    with pytest.raises(BaseException) as info:
        call()
    err = info.value
    assert isinstance(err, exc), f"{type(err).__name__}: {err}"
    assert not isinstance(err, OverflowError), repr(err)
    assert type(err).__name__ != "PanicException", repr(err)
    if not isinstance(err, TypeError):
        assert isinstance(err, pachisi.PachisiError), f"{type(err).__name__}: {err}"
    msg = str(err)
    for name in names:
        assert name in msg, msg
    return msg


def test_the_new_classes_sit_under_pachisi_error() -> None:
    assert issubclass(pachisi.InvalidArgumentError, pachisi.PachisiError)
    assert issubclass(pachisi.InvalidArgumentError, ValueError)
    assert issubclass(pachisi.CancelledError, pachisi.PachisiError)
    assert issubclass(pachisi.ResourceError, pachisi.PachisiError)
    assert pachisi.MAX_THREADS == 256


def test_simulate_arguments() -> None:
    raises(pachisi.InvalidArgumentError, lambda: pachisi.simulate("parcheesi", games=-1), "games")
    raises(TypeError, lambda: pachisi.simulate("parcheesi", games="10"), "games")  # type: ignore[arg-type]
    raises(TypeError, lambda: pachisi.simulate("parcheesi", games=1.5), "games")  # type: ignore[arg-type]
    raises(pachisi.InvalidArgumentError, lambda: pachisi.simulate("parcheesi", games=10, threads=0), "threads")
    raises(pachisi.InvalidArgumentError, lambda: pachisi.simulate("parcheesi", games=10, threads=10**6), "threads")
    raises(pachisi.InvalidArgumentError, lambda: pachisi.simulate("parcheesi", games=10, threads=-1), "threads")
    raises(TypeError, lambda: pachisi.simulate("parcheesi", games=10, threads="2"), "threads")  # type: ignore[arg-type]
    raises(TypeError, lambda: pachisi.simulate("parcheesi", games=10, progress=5), "progress")  # type: ignore[arg-type]
    # The native function checks the same on its own.
    raw = pachisi._native.simulate_raw
    raises(pachisi.InvalidArgumentError, lambda: raw("parcheesi", -1), "games")
    raises(pachisi.InvalidArgumentError, lambda: raw("parcheesi", 2**64), "games")
    raises(TypeError, lambda: raw("parcheesi", "10"), "games")
    raises(TypeError, lambda: raw("parcheesi", 10, progress=5), "progress")
    raises(pachisi.InvalidArgumentError, lambda: pachisi.tournament("backgammon", ["greedy", "random"], deals=0), "deals")
    raises(pachisi.InvalidArgumentError, lambda: pachisi.tournament("backgammon", ["greedy", "random"], deals=-5), "deals")
    raises(pachisi.InvalidArgumentError, lambda: pachisi.wilson_interval(-1, 10), "wins")
    raises(pachisi.InvalidArgumentError, lambda: pachisi.wilson_interval(11, 10), "wins")


def test_seeds_are_any_int_modulo_2_to_the_64() -> None:
    # Decision: a seed is any Python int, reduced modulo 2**64 (documented in docs/PYTHON.md).
    a = pachisi.Game("parcheesi", seed=-1)
    b = pachisi.Game("parcheesi", seed=2**64 - 1)
    c = pachisi.Game("parcheesi", seed=2**64 * 5 + 2**64 - 1)
    assert a.roll() == b.roll() == c.roll()
    r1 = pachisi.simulate("backgammon", games=20, seed=-3)
    r2 = pachisi.simulate("backgammon", games=20, seed=2**64 - 3)
    assert (r1.rolls == r2.rolls).all()
    pachisi.Player("greedy", seed=-1)
    raises(TypeError, lambda: pachisi.Game("parcheesi", seed="7"), "seed")  # type: ignore[arg-type]
    raises(TypeError, lambda: pachisi.Game("parcheesi", seed=1.0), "seed")  # type: ignore[arg-type]


def test_rolls_steps_places_and_sizes() -> None:
    g = pachisi.Game("parcheesi", seed=1)
    raises(pachisi.InvalidRollError, lambda: g.roll((10**30, 1)), "dice")
    raises(pachisi.InvalidRollError, lambda: g.roll((-1, 1)), "dice")
    c = pachisi.Game("pachisi", seed=1)
    raises(pachisi.InvalidRollError, lambda: c.roll(10**30), "shells")
    raises(pachisi.InvalidArgumentError, lambda: pachisi.Step(-1, 0, 0, 0, 0), "seat")
    raises(pachisi.InvalidArgumentError, lambda: pachisi.Step(0, 0, 0, 300, 0), "to")
    raises(pachisi.InvalidArgumentError, lambda: pachisi.Step(0, 0, 0, 0, 0, count=10**40), "count")
    raises(TypeError, lambda: pachisi.Step(0, 0, "a", 0, 0), "from_")  # type: ignore[arg-type]
    assert pachisi.Step(0, None, 0, 5, 5).piece is None
    raises(pachisi.InvalidArgumentError, lambda: g.place(255, 255), "seat")
    raises(pachisi.InvalidArgumentError, lambda: g.place(4, 0), "seat")
    raises(pachisi.InvalidArgumentError, lambda: g.place(0, -1), "pos")
    assert g.place(0, 1)["zone"] == "track"
    # A position the game does not name is an error, not a made-up place.
    for preset, last in (("parcheesi", 140), ("pachisi-family", 77), ("pachisi", 85), ("backgammon", 25)):
        h = pachisi.Game(preset, seed=1)
        h.place(0, last)
        raises(pachisi.InvalidArgumentError, lambda: h.place(0, last + 1), "pos")
        raises(pachisi.InvalidArgumentError, lambda: h.place(0, 255), "pos")
    for size in (1e308, float("inf"), float("nan"), 10.0, -5.0, 1e6):
        raises(pachisi.InvalidArgumentError, lambda: g.svg(size=size), "size")
    assert g.svg(size=50).startswith("<svg") and g.svg(size=20000).startswith("<svg")


def test_winners_is_a_list_of_ints() -> None:
    g = pachisi.play_random_game("pachisi-family", seed=5)
    assert g.is_over
    assert isinstance(g.winners, list) and g.winners
    assert all(type(s) is int for s in g.winners)


@pytest.mark.parametrize(
    "variant,option,value",
    [
        ("parcheesi", "capture", 1),
        ("pachisi-online", "seats", "four"),
        ("pachisi-family", "bottom_faces", 1),
        ("pachisi-family", "entry_tries", -3),
        ("pachisi", "units", "yes"),
        ("pachisi", "shell_probability", 1e-9),
        ("pachisi", "max_rolls", 0),
        ("backgammon", "cube", 2),
        ("backgammon", "first_roll", "coin-toss"),
    ],
)
def test_rules_errors_name_the_option(variant: str, option: str, value: Any) -> None:
    raises(pachisi.InvalidRulesError, lambda: pachisi.Rules(variant, **{option: value}), f"`{option}`")
    data = json.loads(pachisi.Rules(variant).to_json())
    data[option] = value
    text = json.dumps(data)
    raises(pachisi.InvalidRulesError, lambda: pachisi.Rules.from_json(text), f"`{option}`")


def test_messages_quote_only_an_excerpt() -> None:
    long = "q" * 100_000
    for call in [
        lambda: pachisi.Rules(long),
        lambda: pachisi.Rules("pachisi-family", bottom_faces=long),
        lambda: pachisi.Rules("backgammon", first_roll=long),
        lambda: pachisi.Rules("parcheesi", **{long: 1}),
        lambda: pachisi.Step(0, 0, 0, 10**5000, 0),
    ]:
        with pytest.raises(pachisi.PachisiError) as info:
            call()
        assert len(str(info.value)) < 1000, str(info.value)[:200]


def test_huge_counts_are_errors_not_aborts() -> None:
    # Results sized by a count are allocated fallibly: too much memory is a ResourceError, an
    # overflowing count an InvalidArgumentError; the process never aborts.
    g = pachisi.Game("backgammon", seed=1)
    g.roll((3, 1))
    raises(pachisi.ResourceError, lambda: g.evaluate(rollouts=2**62), "rollouts")
    raises(pachisi.PachisiError, lambda: g.hint(rollouts=2**62), "rollouts")
    raises(pachisi.PachisiError, lambda: pachisi.tournament("backgammon", ["random", "random"], deals=2**62))
    raises(pachisi.InvalidArgumentError, lambda: pachisi.VecEnv("backgammon", 2**32 - 1), "num_envs")
    raises(pachisi.InvalidArgumentError, lambda: pachisi.VecEnv("backgammon", 0), "num_envs")


def test_rl_and_index_arguments_never_overflow() -> None:
    g = pachisi.Game("backgammon", seed=1)
    g.roll((3, 1))
    # Out-of-range indices are IndexErrors, as for a list.
    for bad in (lambda: g.play_index(-1), lambda: g.play_index(10**30), lambda: g.legal_plays()[10**30]):
        with pytest.raises(IndexError):
            bad()
    raises(TypeError, lambda: g.play_index(1.0))  # type: ignore[arg-type]
    assert g.legal_plays()[-1] == g.legal_plays()[len(g.legal_plays()) - 1]
    raises(pachisi.InvalidArgumentError, lambda: pachisi.VecEnv("backgammon", -1))
    raises(pachisi.InvalidArgumentError, lambda: pachisi.VecEnv("backgammon", 2, max_decisions=-1))
    # Seeds are any int modulo 2**64 here too.
    a = pachisi.RlGame("backgammon", "step", -1)
    b = pachisi.RlGame("backgammon", "step", 2**64 - 1)
    assert a.state_json() == b.state_json()
    a.reset(-5)
    env = pachisi.VecEnv("backgammon", 2, seed=-1)
    env.reset(seed=-1)
    raises(pachisi.InvalidArgumentError, lambda: a.apply_action(2**70))
    raises(pachisi.IllegalMoveError, lambda: a.apply_action(-1))
    raises(pachisi.InvalidPlayerError, lambda: a.observation(-1), "seat")
    raises(pachisi.InvalidPlayerError, lambda: a.observation(7), "seat")
    raises(pachisi.InvalidArgumentError, lambda: a.action_to_string(-1), "action")
    raises(pachisi.InvalidArgumentError, lambda: a.action_to_string(10**6), "action")
    assert isinstance(a.action_to_string(a.legal_actions()[0]), str)
    with pytest.raises(IndexError):
        env.game(-1)
    raises(pachisi.InvalidArgumentError, lambda: pachisi.train("backgammon", games=-1))


def test_line_ups_and_rl_adapters_check_their_arguments_at_once() -> None:
    import numpy as np

    raises(TypeError, lambda: pachisi.tournament("backgammon", "greedy"), "line-up")  # type: ignore[arg-type]
    env = pachisi.VecEnv("backgammon", 2)
    env.reset()
    raises(TypeError, lambda: env.step(["a", "b"]), "integers")
    raises(TypeError, lambda: env.step(np.array([1.7, 2.0])), "integers")
    g = pachisi.RlGame("backgammon", "step", 1, auto_chance=False)
    raises(pachisi.WrongPhaseError, lambda: g.apply_action(0), "roll")
    assert "mean -0.0" not in str(pachisi.simulate("backgammon", games=0))
    pytest.importorskip("gymnasium")
    from pachisi.gymnasium import PachisiEnv

    raises(pachisi.InvalidPlayerError, lambda: PachisiEnv(seat=7), "seat")
    raises(pachisi.InvalidPlayerError, lambda: PachisiEnv(opponents="nope"), "nope")


def test_counts_beyond_the_machine_memory_fail_at_once() -> None:
    # docs/PYTHON.md: `evaluate(rollouts=10**11)` and `tournament(deals=10**11)` are a
    # ResourceError at once. The extension's allocator (mimalloc) used to grant such requests
    # (terabytes of address space, never touched), so the call ran for hours instead; it now
    # refuses a request above the machine's RAM plus swap. A subprocess, so that the old
    # behaviour fails by its timeout instead of hanging the suite.
    code = (
        "import pachisi\n"
        "g = pachisi.Game('backgammon', seed=1)\n"
        "g.roll((3, 1))\n"
        "for call in (lambda: g.evaluate(rollouts=10**11), lambda: g.hint(rollouts=10**11),\n"
        "             lambda: pachisi.tournament('backgammon', ['greedy', 'random'], deals=10**11)):\n"
        "    before = g.to_json()\n"
        "    try:\n"
        "        call()\n"
        "    except pachisi.ResourceError as e:\n"
        "        assert 'memory' in str(e), str(e)\n"
        "    else:\n"
        "        raise AssertionError('no ResourceError')\n"
        "    assert g.to_json() == before\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]


def test_rl_and_train_integer_arguments_are_named() -> None:
    # docs/PYTHON.md: messages name the argument. The RL classes' and train's integer arguments
    # said "this argument must be an int from 0 to 2**64 - 1" (pyo3 adds no name to it).
    g = pachisi.RlGame("backgammon", "step", 0)
    raises(pachisi.InvalidArgumentError, lambda: pachisi.VecEnv("backgammon", -1), "`num_envs`", "65536")
    raises(TypeError, lambda: pachisi.VecEnv("backgammon", 1.5), "`num_envs`")  # type: ignore[arg-type]
    raises(pachisi.InvalidArgumentError, lambda: pachisi.VecEnv("backgammon", 2, max_decisions=-1),
           "`max_decisions`")
    raises(pachisi.InvalidArgumentError, lambda: g.apply_action(2**70), "`action`")
    raises(pachisi.InvalidArgumentError, lambda: g.action_to_string(2**70), "`action`")
    raises(pachisi.InvalidArgumentError, lambda: g.observation(2**70), "`seat`")
    for name in ("games", "eval_every", "eval_deals", "hidden", "max_points"):
        raises(pachisi.InvalidArgumentError, lambda: pachisi.train("backgammon", **{name: -1}),
               f"`{name}`")


def test_vecenv_game_index_is_an_index_error_as_for_a_list() -> None:
    # docs/PYTHON.md: VecEnv.game(i) out of range is an IndexError, as for a list; an index past
    # 2**63 was an InvalidArgumentError.
    env = pachisi.VecEnv("backgammon", 2)
    for i in (2, -1, 2**63, 2**70, -(2**70)):
        with pytest.raises(IndexError):
            env.game(i)
    raises(TypeError, lambda: env.game(None), "int")  # type: ignore[arg-type]
    raises(TypeError, lambda: env.game(True), "int")
    assert env.game(1).position() == env.game(1).position()
