"""Variant analysis: every preset and a few rule switches, simulated with random play and with
competent play (the greedy player in every seat).

Run ``python -m pachisi.analysis [--out DIR] [--budget SECONDS] [--games N]``. For each variant it
reports per-seat win rates with 95% Wilson intervals, the first seat's edge over a fair share,
mean and median game length in rolls and mean captures per game, under random play and under
greedy play; it prints two tables and writes ``DIR/analysis.json`` and ``DIR/analysis.png``.

The number of games per variant is chosen from a timed pilot batch so the whole run fits the
time budgets (default 120 s of random simulation, 60 s of greedy play) on whatever cores the
machine has; ``--games`` (and ``--greedy-games``) fix them instead.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

import pachisi

PILOT_GAMES = 400
MIN_GAMES = 2_000
MAX_GAMES = 400_000
#: Greedy play: a smaller pilot and bounds (each decision evaluates every legal play).
GREEDY_PILOT_GAMES = 40
GREEDY_MIN_GAMES = 200
GREEDY_MAX_GAMES = 50_000


@dataclass
class Config:
    """One line of the analysis: a preset and the options it changes."""

    label: str
    variant: str
    options: Dict[str, Any] = field(default_factory=dict)


CONFIGS: List[Config] = [
    Config("Parcheesi", "parcheesi"),
    Config("Parcheesi, no third-doubles penalty", "parcheesi", {"third_doubles_penalty": False}),
    Config("Parcheesi, capture bonus 10", "parcheesi", {"capture_bonus": 10}),
    Config(
        "Parcheesi, capturing compulsory (literal P-C)",
        "parcheesi",
        {"bonus_obligation": "most-bonuses"},
    ),
    Config("Parcheesi, 2 seats", "parcheesi", {"seats": 2}),
    Config("Online Pachisi", "pachisi-online"),
    Config("Online Pachisi, no capture", "pachisi-online", {"capture": False}),
    Config("Family Pachisi", "pachisi-family"),
    Config("Family Pachisi, 2 seats (no teams)", "pachisi-family", {"seats": 2, "teams": False}),
    Config("Classic Pachisi", "pachisi"),
    Config("Classic Pachisi, shell p(up)=0.524", "pachisi", {"shell_probability": 0.524}),
    Config("Backgammon", "backgammon"),
]


def resolve(config: Config) -> pachisi.Rules:
    """The rules of a configuration (an unknown option is an error: the list is kept exact)."""
    return pachisi.Rules(config.variant, **config.options)


def fair_share(summary: Dict[str, Any]) -> float:
    """A seat's win rate if no seat had an edge: the winners per game spread over the seats."""
    rates = summary["win_rate"]
    return sum(rates) / len(rates) if rates else 0.0


def choose_games(
    rules: pachisi.Rules, seconds: float, threads: Optional[int], policy: str = "random"
) -> Tuple[int, float]:
    """Games that fit `seconds`, from a timed pilot batch; and the measured games per second."""
    pilot, low, high = (
        (PILOT_GAMES, MIN_GAMES, MAX_GAMES)
        if policy == "random"
        else (GREEDY_PILOT_GAMES, GREEDY_MIN_GAMES, GREEDY_MAX_GAMES)
    )
    start = time.perf_counter()
    pachisi.simulate(rules, games=pilot, seed=12345, threads=threads, policy=policy)
    rate = pilot / max(time.perf_counter() - start, 1e-6)
    games = int(rate * seconds)
    return max(low, min(high, games)), rate


def summarise(result: pachisi.SimulationResult) -> Dict[str, Any]:
    """A run's summary with the fair share and the first seat's edge over it (and its interval:
    the Wilson interval of seat 0 shifted by the fair share)."""
    s = result.to_dict()
    fair = fair_share(s)
    lo, hi = s["win_rate_ci"][0]
    return {
        "result": s,
        "fair_share": fair,
        "seat0_edge": s["win_rate"][0] - fair,
        "seat0_edge_ci": [lo - fair, hi - fair],
    }


def run(
    configs: Sequence[Config],
    budget: float,
    games: Optional[int],
    seed: int,
    threads: Optional[int],
    progress: bool,
    greedy_budget: float = 60.0,
    greedy_games: Optional[int] = None,
) -> List[Dict[str, Any]]:
    """Simulates every configuration with random play, then with greedy play in every seat
    (``row["greedy"]``: the same fields; no greedy run when its budget and games are 0)."""
    resolved = [(c, resolve(c)) for c in configs]
    per_config = budget / max(len(resolved), 1)
    per_config_greedy = greedy_budget / max(len(resolved), 1)
    if greedy_games is None and games is not None:
        greedy_games = max(games // 5, 20)
    rows: List[Dict[str, Any]] = []
    for config, rules in resolved:
        row: Dict[str, Any] = {"label": config.label, "variant": config.variant}
        n = games
        if n is None:
            n, rate = choose_games(rules, per_config, threads)
            print(
                f"  {config.label}: {rate:,.0f} games/s in the pilot -> {n:,} games",
                file=sys.stderr,
            )
        result = pachisi.simulate(rules, games=n, seed=seed, threads=threads, progress=progress)
        row.update({"rules": rules.to_dict(), "rules_repr": repr(rules), **summarise(result)})
        g = greedy_games
        if g is None and per_config_greedy > 0:
            g, rate = choose_games(rules, per_config_greedy, threads, policy="greedy")
            print(
                f"  {config.label}, greedy: {rate:,.0f} games/s in the pilot -> {g:,} games",
                file=sys.stderr,
            )
        if g:
            greedy = pachisi.simulate(
                rules, games=g, seed=seed, threads=threads, policy="greedy", progress=progress
            )
            row["greedy"] = summarise(greedy)
        rows.append(row)
    return rows


def table(rows: Sequence[Dict[str, Any]], key: Optional[str] = None) -> str:
    """The analysis as a text table: random play, or the runs under ``row[key]`` (``"greedy"``)."""
    head = (
        f"{'variant':38} {'games':>8} {'seat win rates % [95% CI]':<64} {'seat0 edge':>10} "
        f"{'rolls':>7} {'median':>6} {'capt.':>6}"
    )
    lines = [head, "-" * len(head)]
    for full in rows:
        row = full if key is None else full.get(key)
        if row is None:
            continue
        row = dict(row, label=full["label"])
        s = row["result"]
        seats = "  ".join(
            f"{100 * r:.1f} [{100 * lo:.1f},{100 * hi:.1f}]"
            for r, (lo, hi) in zip(s["win_rate"], s["win_rate_ci"])
        )
        lines.append(
            f"{row['label']:38} {s['games']:>8} {seats:<64} {100 * row['seat0_edge']:>+9.2f}% "
            f"{s['mean_rolls']:>7.1f} {s['median_rolls']:>6.0f} {s['mean_captures']:>6.2f}"
        )
        if s["unfinished"]:
            lines.append(f"{'':38} ({s['unfinished']} games hit the roll limit)")
    return "\n".join(lines)


def chart(rows: Sequence[Dict[str, Any]], path: Path) -> bool:
    """Win rates with intervals, game length and captures per variant, as a PNG."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no chart", file=sys.stderr)
        return False
    done = list(rows)
    if not done:
        return False
    labels = [r["label"] for r in done]
    y = list(range(len(done)))
    fig, axes = plt.subplots(
        1, 3, figsize=(17, 0.6 * len(done) + 2.6), sharey=True, gridspec_kw={"width_ratios": [3, 1.4, 1.2]}
    )
    ax = axes[0]
    max_seats = max(r["result"]["seats"] for r in done)
    colours = ["#e8b400", "#1f6fd1", "#d62828", "#2a9d3a"]
    height = 0.8 / max_seats
    # Win rates differ from a fair share by a few points at most: plot the difference.
    for seat in range(max_seats):
        xs, ys, err_lo, err_hi = [], [], [], []
        for i, r in enumerate(done):
            s = r["result"]
            if seat >= s["seats"]:
                continue
            rate = s["win_rate"][seat]
            lo, hi = s["win_rate_ci"][seat]
            xs.append(100 * (rate - r["fair_share"]))
            ys.append(i - 0.4 + height * (seat + 0.5))
            err_lo.append(100 * (rate - lo))
            err_hi.append(100 * (hi - rate))
        ax.barh(ys, xs, height=height * 0.9, color=colours[seat % 4], label=f"seat {seat}",
                xerr=[err_lo, err_hi], error_kw={"elinewidth": 1, "capsize": 2})
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(y)
    ax.set_yticklabels([f"{r['label']}\n(fair share {100 * r['fair_share']:.0f}%)" for r in done])
    ax.invert_yaxis()
    ax.set_xlabel("win rate minus fair share, percentage points (95% Wilson interval)")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.08), ncol=4, fontsize=8, frameon=False)
    ax.set_title("Seat advantage (bars: random play; diamonds: seat 0, greedy play)")

    # Under greedy play: the first seat's edge, a diamond with its interval.
    greedy = [(i, r["greedy"]) for i, r in enumerate(done) if "greedy" in r]
    if greedy:
        ax.errorbar(
            [100 * g["seat0_edge"] for _, g in greedy],
            [i for i, _ in greedy],
            xerr=[
                [100 * (g["seat0_edge"] - g["seat0_edge_ci"][0]) for _, g in greedy],
                [100 * (g["seat0_edge_ci"][1] - g["seat0_edge"]) for _, g in greedy],
            ],
            fmt="D", color="black", markersize=4, elinewidth=1, capsize=2,
            label="seat 0, greedy play",
        )
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.08), ncol=5, fontsize=8, frameon=False)

    ax = axes[1]
    means = [r["result"]["mean_rolls"] for r in done]
    medians = [r["result"]["median_rolls"] for r in done]
    ax.barh([i - 0.2 for i in y], means, height=0.4, color="#888", label="mean, random")
    ax.scatter(medians, [i - 0.2 for i in y], color="black", marker="|", s=100, label="median",
               zorder=3)
    if greedy:
        ax.barh([i + 0.2 for i, _ in greedy], [g["result"]["mean_rolls"] for _, g in greedy],
                height=0.4, color="#2a9d3a", label="mean, greedy")
    ax.set_xlabel("rolls per game")
    ax.legend(loc="lower right", fontsize=8)
    ax.set_title("Game length")

    ax = axes[2]
    ax.barh([i - 0.2 for i in y], [r["result"]["mean_captures"] for r in done], height=0.4,
            color="#b5523b", label="random")
    if greedy:
        ax.barh([i + 0.2 for i, _ in greedy], [g["result"]["mean_captures"] for _, g in greedy],
                height=0.4, color="#2a9d3a", label="greedy")
        ax.legend(loc="lower right", fontsize=8)
    ax.set_xlabel("captures per game (mean)")
    ax.set_title("Captures")
    games = sum(r["result"]["games"] for r in done)
    played = sum(g["result"]["games"] for _, g in greedy)
    fig.suptitle(
        f"pachisi variant analysis: {games:,} games of uniform random play"
        + (f", {played:,} of greedy play (all seats)" if played else "")
    )
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pachisi.analysis", description=__doc__.split("\n")[0])
    parser.add_argument("--out", default="out", help="output directory (default: out)")
    parser.add_argument("--budget", type=float, default=120.0,
                        help="seconds of simulation in all (default 120); sets the game counts")
    parser.add_argument("--games", type=int, default=None, help="games per variant (overrides --budget)")
    parser.add_argument("--greedy-budget", type=float, default=60.0,
                        help="seconds of greedy play in all (default 60; 0: none)")
    parser.add_argument("--greedy-games", type=int, default=None,
                        help="greedy games per variant (default: --games / 5, or from the budget)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--threads", type=int, default=None, help="threads (default: all cores)")
    parser.add_argument("--progress", action="store_true", help="show progress on stderr")
    args = parser.parse_args(argv)

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    print(f"pachisi {pachisi.__version__}: analysing {len(CONFIGS)} variants", file=sys.stderr)
    rows = run(CONFIGS, args.budget, args.games, args.seed, args.threads, args.progress,
               args.greedy_budget, args.greedy_games)
    elapsed = time.perf_counter() - started
    print("Random play (uniform over the distinct legal plays)")
    print(table(rows))
    if any("greedy" in r for r in rows):
        print("\nCompetent play (the greedy player in every seat; docs/PLAYERS.md)")
        print(table(rows, "greedy"))
    report = {
        "pachisi_version": pachisi.__version__,
        "seed": args.seed,
        "policy": "random",
        "greedy_policy": "greedy",
        "seconds": elapsed,
        "variants": rows,
    }
    (out / "analysis.json").write_text(json.dumps(report, indent=2), encoding="utf-8")
    drew = chart(rows, out / "analysis.png")
    print(
        f"\nwrote {out / 'analysis.json'}" + (f" and {out / 'analysis.png'}" if drew else "")
        + f" in {elapsed:.1f} s",
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
