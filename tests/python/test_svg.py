"""SVG pictures of every board kind."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pachisi

NS = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == NS + "svg"
    return root


def test_every_board_renders(variant: str) -> None:
    g = pachisi.Game(variant, seed=1)
    root = parse(g._repr_svg_())
    assert variant in "".join(root.itertext())
    small = parse(g.svg(size=200))
    assert float(small.get("width", "0")) == 200


def test_pieces_are_drawn(real_variant: str) -> None:
    g = pachisi.Game(real_variant, seed=1)
    root = parse(g.svg())
    titles = [t.text or "" for t in root.iter(NS + "title")]
    seats_drawn = {int(t.split()[1].rstrip(":")) for t in titles if t.startswith("seat")}
    assert seats_drawn == {p["seat"] for p in g.pieces()}


def test_last_play_is_marked(real_variant: str) -> None:
    rng = random.Random(2)
    g = pachisi.Game(real_variant, seed=2)
    for _ in range(200):
        if g.is_over:
            break
        if g.is_chance_node():
            g.roll()
        else:
            plays = g.legal_plays()
            moving = [p for p in plays if any(s.from_ != s.to for s in p.steps)]
            g.play(rng.choice(moving or plays))
            if moving:
                break
    root = parse(g.svg())
    arrows = [e for e in root.iter() if e.get("marker-end")]
    assert arrows, "the last play is drawn as arrows"
    # Along the squares passed: a polyline from where the piece stood to where it stands.
    assert all(e.tag == NS + "polyline" for e in arrows)


def test_svg_mid_game_is_well_formed(real_variant: str) -> None:
    g = pachisi.play_random_game(real_variant, seed=3)
    root = parse(g.svg())
    assert "over" in "".join(root.itertext())


def test_legend_names_every_seat(variant: str) -> None:
    g = pachisi.Game(variant, seed=1)
    root = parse(g.svg())
    legend = [e for e in root.iter(NS + "g") if e.get("class") == "legend"]
    assert len(legend) == g.seats
    for seat, entry in enumerate(legend):
        assert "".join(entry.itertext()).startswith(f"seat {seat}")


def test_pending_roll_is_drawn() -> None:
    g = pachisi.Game("parcheesi", seed=1)
    g.roll((5, 3))
    dice = [e for e in parse(g.svg()).iter(NS + "g") if e.get("class") == "die"]
    pips = [sum(1 for c in d.iter(NS + "circle") if c.get("class") == "pip") for d in dice]
    assert pips == [5, 3]
    classic = pachisi.Game("pachisi", seed=1)
    classic.roll(2)
    shells = [e.get("class") for e in parse(classic.svg()).iter(NS + "g")]
    assert shells.count("cowrie up") == 2 and shells.count("cowrie down") == 4


def test_charkoni_pieces_have_a_stage() -> None:
    g = pachisi.Game.from_position("pachisi", "0:-:85,85,85,0/1,0,0,0/1,0,0,0/1,0,0,0")
    mine = [p for p in g.pieces() if p["seat"] == 0]
    stages = {p["place"]["stage"]: p["count"] for p in mine}
    assert stages == {"home": 3, "waiting": 1}
    assert all(p["place"]["zone"] == "charkoni" for p in mine)
    assert g.place(1, 1) == {"zone": "charkoni", "stage": "entered"}
