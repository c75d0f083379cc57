"""The engine against independent reference implementations in Python.

`ref_parcheesi.py` (Parcheesi and Online Pachisi, every rules option), `ref_family.py` and
`ref_classic.py` were written from docs/RULES.md and docs/rules/*.md alone, without reading the
engine's generators, by checkers who then compared them with the engine on millions of positions
(the findings are fixed and documented). Here they run on seeded random games with random valid
option sets: at each compared node, the set of positions the engine's legal plays lead to (turn
flow included) must be the reference's. A second implementation in another language catches
what the engine's own slow references (`core/src/*/reference.rs`) would share with it.
`PACHISI_INDEPENDENT_GAMES` scales the number of games (default 2: about 20 seconds).
"""

from __future__ import annotations

import json
import os
import random
import sys
from typing import Any, Callable, Dict, List, Set, Tuple

import pytest

import pachisi

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ref_classic  # noqa: E402
import ref_family  # noqa: E402
import ref_parcheesi  # noqa: E402

SCALE = int(os.environ.get("PACHISI_INDEPENDENT_GAMES", "2"))


def results(game: pachisi.Game, canon: Callable[[pachisi.Game], Any]) -> Set[Any]:
    """The positions the legal plays lead to, each in a reference's canonical form."""
    out = set()
    for p in game.legal_plays():
        c = game.copy()
        c.play(p)
        out.add(canon(c))
    return out


def assert_same(engine: Set[Any], reference: Set[Any], what: str) -> None:
    assert engine == reference, (
        f"{what}\n  only the engine: {sorted(map(str, engine - reference))[:5]}"
        f"\n  only the reference: {sorted(map(str, reference - engine))[:5]}"
    )


# ------------------------------------------------------------------ Parcheesi and Online Pachisi

ONLINE_BASE = json.loads(pachisi.Rules("pachisi-online").to_json())
del ONLINE_BASE["variant"]


def online_options(rng: random.Random) -> Dict[str, Any]:
    o = dict(ONLINE_BASE)
    o["seats"] = rng.choice([2, 3, 4])
    for k in ("enter_with_sum", "doubles_bottom_faces", "doubles_extra_roll",
              "third_doubles_penalty", "capture", "bonuses_chain", "blockades",
              "blockade_no_joint_move", "safe_squares", "entry_capture", "go_round_again",
              "pass_allowed"):
        o[k] = rng.random() < 0.5
    o["capture_bonus"] = rng.choice([0, 10, 20, 40, 7])
    o["home_bonus"] = rng.choice([0, 0, 10, 20, 3])
    o["bonus_order"] = rng.choice(["dice-first", "dice-first", "any"])
    o["bonus_obligation"] = rng.choice(["per-dice-play", "most-bonuses"])
    o["blockade_turn_limit"] = rng.choice([0, 0, 1, 2, 3])
    o["max_pieces_per_square"] = rng.choice([2, 2, 3, 4])
    # The combinations the docs forbid.
    if o["third_doubles_penalty"] and not o["doubles_extra_roll"]:
        o["third_doubles_penalty"] = False
    if o["bonus_order"] == "any":
        o["bonus_obligation"] = "most-bonuses"
    if not o["blockades"]:
        o["blockade_no_joint_move"] = False
        o["blockade_turn_limit"] = 0
    return o


def parcheesi_engine_results(game: pachisi.Game, opt: Dict[str, Any]) -> Set[Any]:
    def canon(g: pachisi.Game) -> Any:
        return ref_parcheesi.canon_engine(g, opt["seats"], opt)

    # A roll resolved at once (forfeit, penalty) is compared by where it left the game.
    return results(game, canon) if game.is_decision_node() else {canon(game)}


def parcheesi_games(preset: str, options: List[Dict[str, Any]], seed: int) -> int:
    rng = random.Random(seed)
    compared = 0
    for opt in options:
        kw = {k: v for k, v in opt.items() if k != "max_rolls"}
        rules = pachisi.Rules(preset, **kw)
        g = pachisi.Game(rules, seed=rng.randrange(1 << 30))
        decisions = 0
        while not g.is_over and decisions < 300:
            if g.is_chance_node():
                pos = g.position
                for dice in [(rng.randint(1, 6), rng.randint(1, 6)) for _ in range(2)]:
                    h = pachisi.Game.from_position(rules, pos)
                    h.roll(dice)
                    engine = parcheesi_engine_results(h, opt)
                    _, mine = ref_parcheesi.legal_results(
                        opt, ref_parcheesi.parse_position(pos, opt["seats"]), *dice
                    )
                    assert_same(engine, mine, f"{preset} {kw} {pos} roll {dice}")
                    compared += 1
                g.roll()
            else:
                plays = g.legal_plays()
                g.play(plays[rng.randrange(len(plays))])
                decisions += 1
    return compared


def test_parcheesi_preset_against_the_independent_reference() -> None:
    base = json.loads(pachisi.Rules("parcheesi").to_json())
    del base["variant"]
    assert parcheesi_games("parcheesi", [dict(base, seats=s) for s in (4, 2, 3)] * SCALE, 11) > 500


def test_online_options_against_the_independent_reference() -> None:
    rng = random.Random(12)
    options = [dict(ONLINE_BASE)] + [online_options(rng) for _ in range(8 * SCALE)]
    assert parcheesi_games("pachisi-online", options, 13) > 1000


# ------------------------------------------------------------------ Family Pachisi

FAMILY_SWITCHES = ("sum_as_one_move", "one_piece_both_dice", "higher_die_first", "bottom_faces",
                   "doubles_restricted_until_all_played", "gate_moves_with_doubles",
                   "six_five_enters_and_moves", "doubles_extra_roll", "sum_of_five_enters",
                   "compulsory_capture")


def family_options(rng: random.Random) -> Dict[str, Any]:
    o: Dict[str, Any] = {"seats": rng.choice([2, 3, 4])}
    if o["seats"] == 4:
        o["teams"] = rng.random() < 0.5
    for b in FAMILY_SWITCHES:
        d = ref_family.DEFAULT[b]
        o[b] = (not d) if rng.random() < 0.4 else d
    if not o["bottom_faces"]:
        o["doubles_restricted_until_all_played"] = False
    o["entry_tries"] = rng.randint(1, 6)
    return o


def family_canon(position: str) -> str:
    t, tries, _, cols = ref_family.parse(position)
    return "%d:%d:- %s" % (t, tries, ref_family.fmt_pieces(cols))


def family_engine_results(g: pachisi.Game) -> Set[str]:
    def canon(c: pachisi.Game) -> str:
        if c.is_over:
            return "OVER " + ref_family.fmt_pieces(ref_family.parse(c.position)[3])
        return family_canon(c.position)

    return results(g, canon)


def family_roll(g: pachisi.Game, dice: Tuple[int, int], opts: Dict[str, Any]) -> None:
    c = g.copy()
    c.roll(dice)
    if c.is_decision_node():
        assert_same(family_engine_results(c), ref_family.result_positions(c.position),
                    f"pachisi-family {opts} {c.position}")
        return
    # The roll is forfeited: the reference has no play for it, and the same turn flow.
    t, tries, _, cols = ref_family.parse(g.position)
    rolled = "%d:%d:%d-%d %s" % (t, tries, dice[0], dice[1], ref_family.fmt_pieces(cols))
    assert not ref_family.result_positions(rolled), f"pachisi-family {opts} {rolled}"
    got = "OVER" if c.is_over else family_canon(c.position)
    assert got == ref_family.forfeit_position(rolled), f"pachisi-family {opts} {rolled}"


@pytest.mark.parametrize("seed", range(4))
def test_family_options_against_the_independent_reference(seed: int) -> None:
    rng = random.Random(100 + seed)
    for k in range(2 * SCALE):
        opts = {} if seed == 0 and k == 0 else family_options(rng)
        ref_family.configure(**opts)
        g = pachisi.Game(pachisi.Rules("pachisi-family", **opts), seed=rng.randrange(1 << 30))
        chance = 0
        while not g.is_over:
            if g.is_chance_node():
                chance += 1
                if chance % 3 == 0:
                    for outcome, _ in g.chance_outcomes():
                        family_roll(g, outcome, opts)
                g.roll()
            else:
                assert_same(family_engine_results(g), ref_family.result_positions(g.position),
                            f"pachisi-family {opts} {g.position}")
                plays = g.legal_plays()
                g.play(plays[rng.randrange(len(plays))])


# ------------------------------------------------------------------ Classic Pachisi

def classic_options(rng: random.Random) -> Dict[str, Any]:
    o: Dict[str, Any] = {}
    if rng.random() < 0.5:
        o["seats"] = 2
    table = ref_classic.DEFAULT["throw_table"]
    if rng.random() < 0.5:
        while True:
            t = [rng.choice([rng.randint(1, 12), rng.randint(1, 84)]) for _ in range(7)]
            if ref_classic.valid({"throw_table": t, "graces": [t[0]]}):
                break
        o["throw_table"] = table = t
    if rng.random() < 0.6 or "throw_table" in o:
        values = sorted(set(table))
        o["graces"] = rng.sample(values, rng.randint(1, min(3, len(values))))
    if rng.random() < 0.5:
        o["shell_probability"] = round(rng.uniform(0.05, 0.95), 3)
    if rng.random() < 0.5:
        o["castle_from_outer_end"] = rng.randint(1, 8)
    for b in ("first_piece_in_play", "extra_throw_on_grace", "units", "allow_dead_end"):
        if rng.random() < 0.4:
            o[b] = not ref_classic.DEFAULT[b]
    return o


def classic_engine_results(g: pachisi.Game) -> Set[str]:
    def canon(c: pachisi.Game) -> str:
        t, _, cols = ref_classic.parse(c.position)
        return ("OVER " if c.is_over else "%d:-:" % t) + ref_classic.fmt(cols)

    return results(g, canon)


@pytest.mark.parametrize("seed", range(3))
def test_classic_options_against_the_independent_reference(seed: int) -> None:
    rng = random.Random(200 + seed)
    for k in range(2 * SCALE):
        opts = {} if seed == 0 and k == 0 else classic_options(rng)
        ref_classic.configure(**opts)
        g = pachisi.Game(pachisi.Rules("pachisi", **opts), seed=rng.randrange(1 << 30))
        assert g.position == ref_classic.start(), opts
        decisions = 0
        while not g.is_over and decisions < 300:
            if g.is_chance_node():
                outcomes = g.chance_outcomes()
                expected = ref_classic.outcomes()
                assert [o for o, _ in outcomes] == [o for o, _ in expected], opts
                assert all(abs(a[1] - b[1]) < 1e-12 for a, b in zip(outcomes, expected)), opts
                g.roll()
            else:
                decisions += 1
                assert_same(classic_engine_results(g), ref_classic.result_positions(g.position),
                            f"pachisi {opts} {g.position}")
                plays = g.legal_plays()
                moves = [p for p in plays if not p.is_pass]
                pick = moves if moves and rng.random() < 0.95 else list(plays)
                g.play(pick[rng.randrange(len(pick))])
