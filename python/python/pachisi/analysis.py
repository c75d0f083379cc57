"""Variant analysis: every preset and a few rule switches, simulated with random play and with
competent play (the greedy player in every seat), as a study (:mod:`pachisi.studies`).

The main job, ``make run``, runs the same study from its spec file,
``examples/studies/main.toml``; :func:`main_spec` is that spec as a dict (a test keeps the two
equal), for an installed package without the repository's examples.

Run ``python -m pachisi.analysis [--out DIR] [--games N] [--greedy-games N] [--seed S]``. For
each variant it reports per-seat win rates with 95% Wilson intervals, the first seat's edge over
a fair share, mean and median game length in rolls and mean captures per game, under random play
and under greedy play; it prints the table and writes ``DIR/main.csv``, ``DIR/main.json``,
``DIR/main.png`` and the store ``DIR/main.sqlite`` (run again to resume an interrupted run).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence

import pachisi

#: Games per configuration of the main job (random play; greedy play).
GAMES = 40_000
GREEDY_GAMES = 3_000
SEED = 2026


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


def main_spec(games: int = GAMES, greedy_games: int = GREEDY_GAMES, seed: int = SEED,
              out: str = "out") -> Dict[str, Any]:
    """The main job's study spec (``examples/studies/main.toml``) as a dict."""
    variants: List[Dict[str, Any]] = []
    for c in CONFIGS:
        v: Dict[str, Any] = {"label": c.label, "preset": c.variant}
        if c.options:
            v["options"] = dict(c.options)
        variants.append(v)
    return {
        "study": {"name": "main", "description": "pachisi variant analysis", "seed": seed,
                  "games": games},
        "lineups": [
            {"name": "random", "players": "random", "description": "uniform random play"},
            {"name": "greedy", "players": "greedy", "games": greedy_games,
             "description": "competent play"},
        ],
        "variants": variants,
        "outputs": {"dir": out},
    }


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pachisi.analysis",
                                     description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--out", default="out", help="output directory (default: out)")
    parser.add_argument("--games", type=int, default=GAMES,
                        help=f"random-play games per variant (default {GAMES:,})")
    parser.add_argument("--greedy-games", type=int, default=None,
                        help=f"greedy games per variant (default {GREEDY_GAMES:,}, or --games / 5)")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--threads", type=int, default=None, help="threads (default: all cores)")
    parser.add_argument("--fresh", action="store_true", help="start again (discard the store)")
    parser.add_argument("--progress", action="store_true", help="show progress on stderr")
    args = parser.parse_args(argv)
    greedy = args.greedy_games
    if greedy is None:
        greedy = GREEDY_GAMES if args.games == GAMES else max(args.games // 5, 20)
    spec = main_spec(args.games, greedy, args.seed, args.out)
    from .studies import SpecError, StoreMismatchError, study

    try:
        result = study(spec, threads=args.threads, fresh=args.fresh, progress=args.progress)
    except (SpecError, StoreMismatchError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(result.table)
    print(f"\nwrote {', '.join(str(p) for p in result.paths.values())} in {result.seconds:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
