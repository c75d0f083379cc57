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

The classes (``Rules``, ``Game``, ``Play``, ``Step``, ``Player``) and the exceptions live in the
compiled module ``pachisi._native``; this package re-exports them and adds :func:`simulate`,
which wraps the Rust simulator's arrays in a :class:`SimulationResult`, :func:`tournament`
(a :class:`TournamentResult`) and :func:`play_game`.

Players (``docs/PLAYERS.md``) choose plays: ``game.best_play("greedy")``,
``game.hint(rollouts=500)``, ``pachisi.tournament("backgammon", ["greedy", "random"])``.
"""

from __future__ import annotations

import collections.abc as _abc
import random as _random
import sys
import time
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union, cast

import numpy as np

from ._native import (
    MAX_THREADS,
    CancelledError,
    Game,
    IllegalMoveError,
    InvalidArgumentError,
    InvalidJsonError,
    InvalidNotationError,
    InvalidPlayerError,
    InvalidPositionError,
    InvalidRollError,
    InvalidRulesError,
    LegalPlays,
    PachisiError,
    Play,
    Player,
    ResourceError,
    RlGame,
    Rules,
    Step,
    UnknownVariantError,
    VecEnv,
    WrongPhaseError,
    __version__,
    simulate_raw,
    tournament_raw,
    train_raw,
    variants,
    wilson_interval,
)

# `Game.legal_plays()` returns a read-only sequence: `isinstance(plays, collections.abc.Sequence)`.
_abc.Sequence.register(LegalPlays)

__all__ = [
    "MAX_THREADS",
    "CancelledError",
    "Game",
    "IllegalMoveError",
    "InvalidArgumentError",
    "InvalidJsonError",
    "InvalidNotationError",
    "InvalidPlayerError",
    "InvalidPositionError",
    "InvalidRollError",
    "InvalidRulesError",
    "LegalPlays",
    "PachisiError",
    "Play",
    "Player",
    "PolicyLike",
    "ResourceError",
    "RlGame",
    "Rules",
    "SimulationResult",
    "Summary",
    "Step",
    "TournamentResult",
    "UnknownVariantError",
    "VecEnv",
    "WrongPhaseError",
    "__version__",
    "format_hint",
    "play_game",
    "play_random_game",
    "plot_learning_curve",
    "simulate",
    "study",
    "tournament",
    "train",
    "variants",
    "wilson_interval",
]

#: A player: a spec (``"greedy"``, ``"mcts:iterations=500"``, a dict), a :class:`Player`, or a
#: callable ``policy(game, plays)`` returning an index into ``plays`` or one of them (the slow
#: path: Python runs at every decision).
PolicyLike = Union[str, Dict[str, Any], Player, Callable[[Game, List[Play]], Union[int, Play]]]


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
    the game was truncated), ``winners`` (uint16 bit mask of winning seats: a team wins
    together), ``rolls`` (uint32), ``captures`` (uint32), ``points`` (uint32: backgammon's
    1/2/3 times the cube, 1 in the Pachisi family), ``truncated`` (bool: the game was still
    going after the rules' ``max_rolls`` rolls and ended there with no winner, decision G-A).

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
        self.truncated: np.ndarray = raw["truncated"]
        self._summary: Dict[str, Any] = raw["summary"]

    @property
    def variant(self) -> str:
        """The preset of the rules played (``"parcheesi"``, ...)."""
        return self.rules.variant

    @property
    def games_per_second(self) -> float:
        """Games simulated per second of wall time."""
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
            "truncated": s["truncated"],
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
            lines.append(
                f"unfinished games: {s['unfinished']} "
                f"(truncated at max_rolls={self.rules.options['max_rolls']}: {s['truncated']})"
            )
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
    ``mean_rolls``, ``median_rolls``, ``mean_captures``, ``unfinished``: games without a winner,
    ``truncated``: those ended by ``max_rolls``) that prints as a table.

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
    policy: Union[str, Dict[str, Any], Player, Sequence[PolicyLike]] = "random",
    threads: Optional[int] = None,
    progress: Union[None, bool, Callable[[int, int], object]] = False,
    **options: Any,
) -> SimulationResult:
    """Simulates ``games`` games in Rust with the GIL released, on all cores (or ``threads``).

    ``rules`` is a preset name or a :class:`Rules`; keyword ``options`` change the rules as in
    ``Rules(name, **options)``. ``policy`` is ``"random"`` (uniform over the distinct legal
    plays, the fast simulator), another player spec for every seat (``"greedy"``), or a list of
    players, one per seat (``["greedy", "random", "random", "random"]``; each seat then throws
    its own dice stream, see ``docs/PLAYERS.md``). Game ``i`` has its own seed derived from
    ``seed``, so the result does not depend on the thread count or on ``progress``: ``True``
    prints progress to stderr, a callable is called as ``progress(done, total)`` between chunks
    every 0.2 s or so and once at the end (``progress`` must be a bool, None or a callable:
    anything else is a ``TypeError``). Ctrl-C stops the run within a fraction of a second
    (``KeyboardInterrupt``): the Python thread checks for signals every 50 ms while the workers
    run, and they stop after the game each is playing.

    ``games`` is an int >= 0 and ``threads`` None (every core) or 1..=``MAX_THREADS`` (256):
    other values raise ``InvalidArgumentError``, other types ``TypeError``. ``seed`` is any int,
    taken modulo 2**64. Results are not preallocated from ``games``: memory grows with the games
    played, and running out of it is a ``ResourceError``.

    A list with a Python callable (``policy(game, plays) -> index``) is played by a Python loop
    (:func:`play_game`, the game's own dice): the slow path, for trying out a policy.
    """
    if isinstance(games, bool) or not isinstance(games, int):
        raise TypeError(f"`games` must be an int (>= 0), got {type(games).__name__}")
    if games < 0:
        raise InvalidArgumentError(f"invalid argument: `games` must be an int >= 0, got {games}")
    if progress is not None and not isinstance(progress, bool) and not callable(progress):
        raise TypeError(
            "`progress` must be True, False, None or a callable progress(done, total), "
            f"got {type(progress).__name__}"
        )
    if isinstance(policy, (list, tuple)) and any(_is_callable_policy(p) for p in policy):
        return _simulate_python(rules, games, seed, list(policy), progress, options)
    callback: Optional[Callable[[int, int], object]]
    if callable(progress):
        callback = progress
    elif progress:
        callback = _Progress(f"simulate {rules if isinstance(rules, str) else rules.variant}")
    else:
        callback = None
    Spec = Union[str, Dict[str, Any], Player]
    specs = cast(Union[Spec, Sequence[Spec]], policy)
    raw = simulate_raw(rules, games, seed, threads, specs, callback, **options)
    return SimulationResult(raw, games, seed, threads)


def _is_callable_policy(policy: object) -> bool:
    return callable(policy) and not isinstance(policy, (str, dict, Player))


def play_game(
    rules: Union[str, Rules],
    players: Sequence[PolicyLike],
    seed: Optional[int] = None,
    max_actions: int = 1_000_000,
    **options: Any,
) -> Game:
    """Plays one game to the end with one player per seat and returns it.

    Each entry of ``players`` is a spec (``"greedy"``, a dict), a :class:`Player` (used as is,
    its generator advancing) or a callable ``policy(game, plays)`` returning an index into
    ``plays`` or one of them. The dice come from the game's generator (seeded with ``seed``);
    players built from specs are seeded from ``seed`` and their seat, so a seed reproduces the
    game. This is a Python loop: :func:`simulate` and :func:`tournament` play specs in Rust.

    >>> g = play_game("backgammon", ["greedy", "random"], seed=3)
    >>> g.is_over
    True
    """
    game = Game(rules, seed=seed, **options)
    if len(players) != game.seats:
        raise InvalidPlayerError(
            f"invalid player: {len(players)} players for {game.seats} seats (one per seat)"
        )
    base = 0 if seed is None else seed
    seat_players: List[Union[Player, Callable[[Game, List[Play]], Union[int, Play]]]] = []
    for seat, p in enumerate(players):
        if isinstance(p, (str, dict)):
            seat_players.append(Player(p, seed=(base * 0x9E3779B1 + seat) % 2**64))
        else:
            seat_players.append(p)
    for _ in range(max_actions):
        if game.is_over:
            break
        if game.is_chance_node():
            game.roll()
            continue
        chooser = seat_players[game.to_move]
        if isinstance(chooser, Player):
            game.play(chooser.choose_play(game))
        else:
            game.play(game.best_play(chooser))
    return game


def _simulate_python(
    rules: Union[str, Rules],
    games: int,
    seed: int,
    players: List[PolicyLike],
    progress: Union[None, bool, Callable[[int, int], object]],
    options: Dict[str, Any],
) -> SimulationResult:
    """:func:`simulate` with a Python callable in the line-up: one :func:`play_game` per game."""
    start = time.perf_counter()
    # A `Rules` takes the keyword options too, as in the Rust path.
    the_rules = Rules(rules, **options)
    winner: List[int] = []
    winners: List[int] = []
    rolls: List[int] = []
    captures: List[int] = []
    points: List[int] = []
    truncated: List[bool] = []
    callback: Optional[Callable[[int, int], object]] = None
    if callable(progress):
        callback = progress
    elif progress:
        callback = _Progress(f"simulate {the_rules.variant}")
    seats = Game(the_rules, seed=0).seats
    for i in range(games):
        g = play_game(the_rules, players, seed=(seed * 0x9E3779B97F4A7C15 + i) % 2**64)
        winners.append(sum(1 << s for s in g.winners))
        winner.append(min(g.winners) if g.winners else -1)
        points.append(g.points or 0)
        truncated.append(g.truncated)
        log = g.log
        rolls.append(sum(1 for e in log if e["event"] == "roll"))
        captures.append(sum(e["play"].captures for e in log if e["event"] == "play"))
        if callback is not None and (i + 1 == games or (i + 1) % 10 == 0):
            callback(i + 1, games)
    n = len(winners)
    wins = [sum(1 for m in winners if m & (1 << s)) for s in range(seats)]
    raw: Dict[str, Any] = {
        "rules_json": the_rules.to_json(),
        "seats": seats,
        "seconds": time.perf_counter() - start,
        "winner": np.array(winner, dtype=np.int8),
        "winners": np.array(winners, dtype=np.uint16),
        "rolls": np.array(rolls, dtype=np.uint32),
        "captures": np.array(captures, dtype=np.uint32),
        "points": np.array(points, dtype=np.uint32),
        "truncated": np.array(truncated, dtype=np.bool_),
        "summary": {
            "games": n,
            "unfinished": sum(1 for m in winners if m == 0),
            "truncated": sum(truncated),
            "win_rate": [w / n if n else 0.0 for w in wins],
            "win_rate_ci": [wilson_interval(w, n) for w in wins],
            "mean_rolls": float(np.mean(rolls)) if n else 0.0,
            "median_rolls": float(np.median(rolls)) if n else 0.0,
            "mean_captures": float(np.mean(captures)) if n else 0.0,
        },
    }
    return SimulationResult(raw, games, seed, None)


def format_hint(rows: List[Dict[str, Any]], seat: Optional[int] = None) -> str:
    """The rows of ``Game.hint()`` as a text table: each play's win probability for ``seat``
    (by default the seat to move, whose chances rank the plays and give the ``diff`` column)
    with its standard error, and its difference to the best play with that difference's
    standard error.
    """
    if not rows:
        return "(no plays)"
    if seat is None:
        best = rows[0]["win"]
        # The seat to move: the one whose win differences are the `diff` column (the rows do
        # not name it). With one play every seat fits; take the one the play favours.
        fits = [
            s
            for s in range(len(best))
            if all(abs((r["win"][s] - best[s]) - r["diff"]) < 1e-9 for r in rows)
        ]
        candidates = fits if len(fits) == 1 else range(len(best))
        seat = max(candidates, key=lambda s: best[s])
    lines = [f"{'#':>3}  {'play':<28} {'win %':>7} {'± se':>6} {'diff':>7} {'± se':>6}"]
    for k, r in enumerate(rows):
        lines.append(
            f"{k + 1:>3}  {r['notation']:<28} {100 * r['win'][seat]:7.2f} "
            f"{100 * r['stderr'][seat]:6.2f} {100 * r['diff']:7.2f} {100 * r['diff_stderr']:6.2f}"
        )
    return "\n".join(lines)


class TournamentResult:
    """What :func:`tournament` returns.

    ``standings``: one dict per player (``player`` spec, ``seats`` it holds, ``games``,
    ``wins``, ``win_rate`` with its 95% Wilson interval ``win_rate_ci``, ``fair``: the win rate
    of an equally strong player, ``rating`` on the Elo scale, ``decisions`` and ``seconds``,
    ``points_per_game`` with its 95% interval ``points_ci``: each game's points (backgammon:
    gammons count 2, backgammons 3) won, +points for a win and -points for a loss with two
    sides); ``seatings``: per rotation, the player index in each seat; per-game numpy arrays
    ``deal``, ``rotation``, ``winners`` (bit mask), ``rolls``, ``captures``, ``points`` (what the
    win was worth, 0 when truncated); ``seat_win_rate``.
    ``summary()`` is the table, ``str(result)`` prints it.
    """

    def __init__(self, raw: Dict[str, Any], deals: int, seed: int) -> None:
        r = raw["result"]
        self.rules: Rules = Rules.from_json(raw["rules_json"])
        self.deals: int = deals
        self.seed: int = seed
        self.seats: int = int(r["seats"])
        self.players: List[str] = list(r["players"])
        self.seatings: List[List[int]] = [list(s) for s in r["seatings"]]
        self.standings: List[Dict[str, Any]] = [dict(s) for s in r["standings"]]
        for s in self.standings:
            s["win_rate_ci"] = tuple(s["win_rate_ci"])
            s["points_ci"] = tuple(s["points_ci"])
        self.seat_win_rate: List[float] = list(r["seat_win_rate"])
        games = r["games"]
        self.deal: np.ndarray = np.array([g["deal"] for g in games], dtype=np.uint64)
        self.rotation: np.ndarray = np.array([g["rotation"] for g in games], dtype=np.uint32)
        self.winners: np.ndarray = np.array([g["winners"] for g in games], dtype=np.uint16)
        self.rolls: np.ndarray = np.array([g["rolls"] for g in games], dtype=np.uint32)
        self.captures: np.ndarray = np.array([g["captures"] for g in games], dtype=np.uint32)
        self.points: np.ndarray = np.array([g["points"] for g in games], dtype=np.uint32)
        self._summary: str = raw["summary"]

    @property
    def variant(self) -> str:
        """The preset of the rules played (``"parcheesi"``, ...)."""
        return self.rules.variant

    @property
    def games(self) -> int:
        """The number of games played (deals times rotations)."""
        return int(self.winners.shape[0])

    def standing(self, player: Union[str, Dict[str, Any]]) -> Dict[str, Any]:
        """The standing of a player, by its spec (as given or canonical)."""
        name = Player(player).name
        for s in self.standings:
            if s["player"] == name:
                return s
        raise KeyError(player)

    def summary(self) -> str:
        """The table: one row per player (seats, games, wins, win rate and its 95% interval,
        fair share, rating, decisions per second), then each seat's win rate."""
        return self._summary

    def to_dict(self) -> Dict[str, Any]:
        """The standings and the run's parameters as plain Python values (JSON-ready)."""
        return {
            "rules": self.rules.to_dict(),
            "variant": self.variant,
            "deals": self.deals,
            "seed": self.seed,
            "games": self.games,
            "players": self.players,
            "seatings": self.seatings,
            "standings": [
                dict(s, win_rate_ci=list(s["win_rate_ci"]), points_ci=list(s["points_ci"]))
                for s in self.standings
            ],
            "seat_win_rate": self.seat_win_rate,
        }

    def __str__(self) -> str:
        return self._summary

    def __repr__(self) -> str:
        return f"<TournamentResult {self.rules!r}, {self.games} games, players {self.players}>"

    def _repr_html_(self) -> str:
        import html

        rows = "".join(
            "<tr>"
            f"<td><code>{html.escape(s['player'])}</code></td><td>{s['seats']}</td>"
            f"<td>{s['games']}</td><td>{s['wins']}</td>"
            f"<td>{100 * s['win_rate']:.1f}%</td>"
            f"<td>[{100 * s['win_rate_ci'][0]:.1f}%, {100 * s['win_rate_ci'][1]:.1f}%]</td>"
            f"<td>{100 * s['fair']:.1f}%</td><td>{s['rating']:.0f}</td>"
            "</tr>"
            for s in self.standings
        )
        # As the summary's first line: rotated only when there is more than one seating.
        if len(self.seatings) > 1:
            how = "seats rotated, duplicate dice"
        elif len(self.players) > 1:
            how = "seats as given (not rotated), one game per deal"
        else:
            how = "one player in every seat"
        return (
            f"<p><code>{html.escape(repr(self.rules))}</code>: {self.games} games, {how}</p>"
            "<table><thead><tr><th>player</th><th>seats</th>"
            "<th>games</th><th>wins</th><th>win rate</th><th>95% CI</th><th>fair</th>"
            f"<th>rating</th></tr></thead><tbody>{rows}</tbody></table>"
        )


def tournament(
    rules: Union[str, Rules],
    players: Sequence[Union[str, Dict[str, Any], Player]],
    deals: int = 100,
    seed: int = 0,
    threads: Optional[int] = None,
    rotate: bool = True,
    **options: Any,
) -> TournamentResult:
    """Plays a tournament in Rust (all cores, the GIL released) and returns its result.

    ``players`` is the line-up, one spec per seat (``["greedy", "random", "random",
    "random"]``). Each of the ``deals`` deals is played once per rotation of the seats (every
    player in every seat; in team games on both teams) with the same dice for every rotation:
    each seat throws its own stream seeded by the deal (duplicate dice). Results do not depend
    on ``threads``. Python callables are not accepted here: use :func:`simulate` with a
    line-up, or :func:`play_game`.

    >>> r = tournament("backgammon", ["greedy", "random"], deals=20, seed=1)
    >>> r.standing("greedy")["win_rate"] > 0.5
    True
    """
    if isinstance(players, (str, dict, Player)):
        # A string is a sequence too: "greedy" would be six one-letter players.
        raise TypeError(
            "tournament() takes a line-up: a list of player specs, one per seat "
            f"(e.g. [{players!r}, \"random\"]), not a single spec"
        )
    if any(_is_callable_policy(p) for p in players):
        raise InvalidPlayerError(
            "invalid player: tournament() plays specs in Rust; for a Python callable use "
            "simulate(policy=[...]) or play_game()"
        )
    if "games" in options:
        # Not a rules option: the count simulate() takes. Say what tournament() takes instead.
        raise TypeError(
            "tournament() takes deals=N, not games=N: each deal is played once per rotation "
            "of the seats, so it plays deals x rotations games (result.games)"
        )
    raw = tournament_raw(rules, list(players), deals, seed, threads, rotate, **options)
    return TournamentResult(raw, deals, seed)


def study(spec: Any, **kwargs: Any) -> Any:
    """Runs or resumes a variant study (a TOML spec path or a dict) and returns its
    :class:`pachisi.studies.StudyResult`: the tidy table (one row per cell x seat), the files
    written. Keywords as :func:`pachisi.studies.study`; see ``docs/STUDIES.md``.
    """
    from .studies import study as run

    return run(spec, **kwargs)


_CURVE_COLUMNS = ["games", "tournament_games", "win_rate", "ci_low", "ci_high", "fair", "seconds"]


def train(
    preset: str,
    games: int = 1000,
    seed: int = 1,
    threads: Optional[int] = None,
    out: Optional[str] = None,
    resume: Optional[str] = None,
    eval_every: int = 1000,
    eval_deals: int = 200,
    curve: Optional[str] = None,
    plot: Optional[str] = None,
    hidden: int = 40,
    alpha: float = 0.1,
    lambda_: float = 0.7,
    opponent: Optional[str] = None,
    progress: bool = False,
    encoding: str = "features",
    max_points: Optional[int] = None,
    discount: float = 1.0,
) -> List[Dict[str, Any]]:
    """Trains a ``td`` network for ``preset`` by self-play TD(lambda) (in Rust, the GIL
    released) until it has played ``games`` games in total, as ``pachisi train`` does.

    Every ``eval_every`` games the network is saved to ``out`` (a checkpoint that ``resume``
    continues from) and played against ``greedy`` (``eval_deals`` deals, seats rotated): the
    learning curve, returned as a list of dicts and appended to the CSV file ``curve`` if
    given. ``plot`` writes the curve as a PNG (needs matplotlib: ``pip install
    "pachisi[analysis]"``). ``opponent`` trains against that player rather than by self-play.
    ``encoding`` is the network's input (``"features"``, or ``"observation"``: the plain RL
    observation); ``max_points`` scales what a win teaches (``None``: 3 in backgammon, so
    gammons count, else 1); ``discount`` (0 < gamma <= 1) values a win sooner over a win
    later, which keeps players that may pass (Classic Pachisi) from passing for ever.
    The network then plays as ``Player("td:weights=" + out)``. See ``docs/PLAYERS.md``.

    >>> rows = train("backgammon", games=2, eval_every=2, eval_deals=1, hidden=4)
    >>> [r["games"] for r in rows]
    [0, 2]
    """
    rows = train_raw(
        preset, games, seed, threads, out, resume, eval_every, eval_deals, hidden, alpha,
        lambda_, opponent, progress, encoding, max_points, discount,
    )
    if curve is not None:
        import csv
        import os

        fresh = not os.path.exists(curve)
        with open(curve, "a", newline="") as f:
            w = csv.writer(f)
            if fresh:
                w.writerow(_CURVE_COLUMNS)
            for r in rows:
                w.writerow([r[c] for c in _CURVE_COLUMNS])
    if plot is not None:
        if curve is None:
            raise InvalidArgumentError("invalid argument: `plot` needs a `curve` CSV file")
        plot_learning_curve(curve, plot, title=preset)
    return rows


def plot_learning_curve(csv_path: str, png_path: str, title: Optional[str] = None) -> None:
    """Plots a learning-curve CSV (``pachisi train`` or :func:`train`) as a PNG: the win rate
    against ``greedy`` with its 95% interval, and the fair share. Needs matplotlib
    (``pip install "pachisi[analysis]"``)."""
    import csv

    try:
        # A bare Figure, not pyplot: the process's backend stays as it is (a notebook keeps its
        # inline plots) and no display is needed.
        from matplotlib.figure import Figure
    except ImportError as e:
        raise ImportError(
            'plot_learning_curve needs matplotlib: pip install "pachisi[analysis]"'
        ) from e
    with open(csv_path, newline="") as f:
        rows = [{k: float(v) for k, v in r.items()} for r in csv.DictReader(f)]
    if not rows:
        raise InvalidArgumentError(f"invalid argument: `{csv_path}` has no curve rows")
    g = [r["games"] for r in rows]
    fig = Figure(figsize=(6, 3.5))
    ax = fig.subplots()
    ax.plot(g, [r["win_rate"] for r in rows], label="td vs greedy")
    ax.fill_between(g, [r["ci_low"] for r in rows], [r["ci_high"] for r in rows], alpha=0.3,
                    label="95% interval")
    ax.plot(g, [r["fair"] for r in rows], "--", label="fair share")
    ax.set_xlabel("training games")
    ax.set_ylabel("win rate")
    if title:
        ax.set_title(title)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(png_path, dpi=100)
