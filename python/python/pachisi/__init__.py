"""pachisi: one rules engine for the dice race games.

Parcheesi, Family Pachisi (two dice, partners, gates), Online Pachisi (rule switches), Classic
Pachisi (cowrie shells) and Backgammon, written in Rust.

>>> import pachisi
>>> "backgammon" in pachisi.variants()
True
>>> game = pachisi.Game("backgammon", seed=7)
>>> while not game.is_over:
...     if game.is_chance_node():
...         dice = game.roll()          # an unplayable roll is forfeited at once
...     else:
...         game.play(game.legal_plays()[0])
>>> game.winner in (0, 1)
True

The classes (``Rules``, ``Game``, ``Play``, ``Step``) and the exceptions live in the compiled
module ``pachisi._native``; this package re-exports them and adds :func:`simulate`, which wraps
the Rust simulator's arrays in a :class:`SimulationResult`.
"""

from __future__ import annotations

import random as _random
import sys
import time
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

import numpy as np

from ._native import (
    Game,
    IllegalMoveError,
    InvalidJsonError,
    InvalidNotationError,
    InvalidPositionError,
    InvalidRollError,
    InvalidRulesError,
    PachisiError,
    Play,
    Rules,
    Step,
    UnknownVariantError,
    WrongPhaseError,
    __version__,
    simulate_raw,
    variants,
    wilson_interval,
)

__all__ = [
    "Game",
    "IllegalMoveError",
    "InvalidJsonError",
    "InvalidNotationError",
    "InvalidPositionError",
    "InvalidRollError",
    "InvalidRulesError",
    "PachisiError",
    "Play",
    "Rules",
    "SimulationResult",
    "Summary",
    "Step",
    "UnknownVariantError",
    "WrongPhaseError",
    "__version__",
    "play_random_game",
    "simulate",
    "variants",
    "wilson_interval",
]


def play_random_game(
    rules: Union[str, Rules],
    seed: Optional[int] = None,
    rng: Optional[_random.Random] = None,
    max_actions: int = 1_000_000,
    **options: Any,
) -> Game:
    """Plays one game to the end, choosing uniformly among the legal plays, and returns it.

    The dice come from the game's generator (seeded with ``seed``); the choices from ``rng``
    (``random.Random(seed)`` by default), so a seed reproduces the game. This is the Python
    loop; :func:`simulate` runs the same policy in Rust, much faster.
    """
    game = Game(rules, seed=seed, **options)
    chooser = rng if rng is not None else _random.Random(seed)
    for _ in range(max_actions):
        if game.is_over:
            break
        if game.is_chance_node():
            game.roll()
        else:
            plays = game.legal_plays()
            game.play(plays[chooser.randrange(len(plays))])
    return game


class SimulationResult:
    """What :func:`simulate` returns: per-game numpy arrays and a summary.

    Arrays (one entry per game, in game order): ``winner`` (int8, the lowest winning seat, -1 if
    the game hit the roll limit), ``winners`` (uint16 bit mask of winning seats: a team wins
    together), ``rolls`` (uint32), ``captures`` (uint32), ``points`` (uint32: backgammon's
    1/2/3 times the cube, 1 in the Pachisi family).

    ``summary()`` gives per-seat win rates with 95% Wilson intervals, mean and median rolls and
    mean captures; ``str(result)`` prints it as a table and ``to_dict()`` converts it.
    """

    def __init__(self, raw: Dict[str, Any], games: int, seed: int, threads: Optional[int]):
        self.rules: Rules = Rules.from_json(raw["rules_json"])
        self.games: int = games
        self.seed: int = seed
        self.threads: Optional[int] = threads
        self.seats: int = int(raw["seats"])
        self.seconds: float = float(raw["seconds"])
        self.winner: np.ndarray = raw["winner"]
        self.winners: np.ndarray = raw["winners"]
        self.rolls: np.ndarray = raw["rolls"]
        self.captures: np.ndarray = raw["captures"]
        self.points: np.ndarray = raw["points"]
        self._summary: Dict[str, Any] = raw["summary"]

    @property
    def variant(self) -> str:
        return self.rules.variant

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    def wins(self) -> np.ndarray:
        """Games won per seat (a team's seats each count the game)."""
        return np.array(
            [int(np.count_nonzero(self.winners & (1 << s))) for s in range(self.seats)],
            dtype=np.int64,
        )

    def summary(self) -> "Summary":
        """Per-seat win rates with 95% Wilson intervals, mean/median rolls, mean captures.

        Computed in Rust by ``pachisi::sim::summarize``. A :class:`Summary`: a ``dict`` that
        prints as a table (``print(result.summary())``) and shows as one in Jupyter.
        """
        s = dict(self._summary)
        s["win_rate_ci"] = [tuple(ci) for ci in s["win_rate_ci"]]
        return Summary(s, self)

    def to_dict(self) -> Dict[str, Any]:
        """The summary and the run's parameters as plain Python values (JSON-ready)."""
        s = self.summary()
        return {
            "rules": self.rules.to_dict(),
            "variant": self.variant,
            "games": self.games,
            "seed": self.seed,
            "threads": self.threads,
            "seats": self.seats,
            "seconds": self.seconds,
            "games_per_second": self.games_per_second,
            "unfinished": s["unfinished"],
            "win_rate": list(s["win_rate"]),
            "win_rate_ci": [list(ci) for ci in s["win_rate_ci"]],
            "mean_rolls": s["mean_rolls"],
            "median_rolls": s["median_rolls"],
            "mean_captures": s["mean_captures"],
        }

    def _rows(self) -> List[Tuple[str, str, str]]:
        s = self.summary()
        rows = []
        for seat in range(self.seats):
            lo, hi = s["win_rate_ci"][seat]
            rows.append(
                (
                    f"seat {seat}",
                    f"{100 * s['win_rate'][seat]:6.2f}%",
                    f"[{100 * lo:6.2f}%, {100 * hi:6.2f}%]",
                )
            )
        return rows

    def __str__(self) -> str:
        s = self.summary()
        lines = [
            f"{self.rules!r}: {self.games} games (seed {self.seed}) in {self.seconds:.2f} s",
            f"{'':8} {'win rate':>8}  {'95% CI':>20}",
        ]
        for name, rate, ci in self._rows():
            lines.append(f"{name:8} {rate:>8}  {ci:>20}")
        lines.append(
            f"rolls per game: mean {s['mean_rolls']:.1f}, median {s['median_rolls']:.1f}; "
            f"captures per game: mean {s['mean_captures']:.2f}"
        )
        if s["unfinished"]:
            lines.append(f"unfinished games (roll limit): {s['unfinished']}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<SimulationResult {self.rules!r}, {self.games} games>"

    def _repr_html_(self) -> str:
        import html

        s = self.summary()
        rows = "".join(
            f"<tr><td>{name}</td><td>{rate.strip()}</td><td>{ci}</td></tr>"
            for name, rate, ci in self._rows()
        )
        return (
            f"<p><code>{html.escape(repr(self.rules))}</code>: {self.games} games "
            f"(seed {self.seed}) in {self.seconds:.2f} s</p>"
            "<table><thead><tr><th>seat</th><th>win rate</th><th>95% CI</th></tr></thead>"
            f"<tbody>{rows}</tbody></table>"
            f"<p>rolls per game: mean {s['mean_rolls']:.1f}, median {s['median_rolls']:.1f}; "
            f"captures per game: mean {s['mean_captures']:.2f}</p>"
        )


class Summary(Dict[str, Any]):
    """A simulation summary: a plain ``dict`` (``games``, ``win_rate``, ``win_rate_ci``,
    ``mean_rolls``, ``median_rolls``, ``mean_captures``, ``unfinished``) that prints as a table.

    >>> s = simulate("backgammon", games=100, seed=1).summary()
    >>> round(sum(s["win_rate"]), 6)
    1.0
    """

    def __init__(self, values: Dict[str, Any], result: "SimulationResult") -> None:
        super().__init__(values)
        self._result = result

    def to_dict(self) -> Dict[str, Any]:
        """The summary as a plain ``dict``."""
        return dict(self)

    def __str__(self) -> str:
        return str(self._result)

    def _repr_html_(self) -> str:
        return self._result._repr_html_()


class _Progress:
    """Prints ``simulate: 40% (40000/100000 games, 1.2 s)`` to stderr, on one line."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.start = time.perf_counter()

    def __call__(self, done: int, total: int) -> None:
        elapsed = time.perf_counter() - self.start
        pct = 100.0 * done / total if total else 100.0
        end = "\n" if done >= total else ""
        sys.stderr.write(
            f"\r{self.label}: {pct:5.1f}% ({done}/{total} games, {elapsed:.1f} s)" + end
        )
        sys.stderr.flush()


def simulate(
    rules: Union[str, Rules],
    games: int = 10_000,
    seed: int = 0,
    policy: str = "random",
    threads: Optional[int] = None,
    progress: Union[bool, Callable[[int, int], object]] = False,
    **options: Any,
) -> SimulationResult:
    """Simulates ``games`` games in Rust with the GIL released, on all cores (or ``threads``).

    ``rules`` is a preset name or a :class:`Rules`; keyword ``options`` change the rules as in
    ``Rules(name, **options)``. The only policy is ``"random"``: uniform over the distinct legal
    plays. Game ``i`` has its own seed derived from ``seed``, so the result does not depend on
    the thread count or on ``progress``: ``True`` prints progress to stderr, a callable is called
    as ``progress(done, total)`` between chunks of games. Ctrl-C interrupts between chunks.
    """
    if games < 0:
        raise ValueError("games must be >= 0")
    callback: Optional[Callable[[int, int], object]]
    if callable(progress):
        callback = progress
    elif progress:
        callback = _Progress(f"simulate {rules if isinstance(rules, str) else rules.variant}")
    else:
        callback = None
    raw = simulate_raw(rules, games, seed, threads, policy, callback, **options)
    return SimulationResult(raw, games, seed, threads)
