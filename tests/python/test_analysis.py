"""The main job: examples/studies/main.toml (make run) is pachisi.analysis.main_spec(), and
python -m pachisi.analysis runs it as a study on a small number of games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import pachisi
from pachisi import analysis
from pachisi.studies import load_spec

ROOT = Path(__file__).resolve().parents[2]


def test_main_toml_is_the_analysis_spec() -> None:
    shipped = load_spec(ROOT / "examples" / "studies" / "main.toml")
    ours = load_spec(analysis.main_spec())
    assert shipped.hash() == ours.hash()
    assert [c.label for c in shipped.cells] == [c.label for c in ours.cells]
    assert [c.variant for c in shipped.cells[: len(analysis.CONFIGS)]] == [
        c.label for c in analysis.CONFIGS
    ]
    assert {c.lineup for c in shipped.cells} == {"random", "greedy"}


def test_analysis_small_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert analysis.main(["--out", str(tmp_path), "--games", "150", "--seed", "1"]) == 0
    report = json.loads((tmp_path / "main.json").read_text())
    rows = report["rows"]
    cells = {}
    for r in rows:
        cells.setdefault((r["label"], r["lineup"]), []).append(r)
    assert len(cells) == 2 * len(analysis.CONFIGS)
    for config in analysis.CONFIGS:
        seats = cells[(config.label, "random")]
        assert [r["games"] for r in seats] == [150] * len(seats)
        # Greedy play in every seat: a fifth of the games.
        greedy = cells[(config.label, "greedy")]
        assert {r["games"] for r in greedy} == {30} and len(greedy) == len(seats)
        assert {r["player"] for r in greedy} == {"greedy"}
        for r in seats + greedy:
            assert abs(sum(x["win_rate"] for x in seats) / len(seats) - seats[0]["fair_share"]) < 1e-9
            assert r["edge_low"] <= r["edge"] <= r["edge_high"]
            # The rules actually simulated are the ones the label names.
            assert pachisi.Rules.from_json(r["rules"]) == analysis.resolve(config)
    assert (tmp_path / "main.png").stat().st_size > 10_000
    out = capsys.readouterr().out
    assert "Parcheesi" in out and "main.json" in out and "Line-up 'greedy'" in out


def test_every_configuration_changes_exactly_its_options() -> None:
    for config in analysis.CONFIGS:
        rules = analysis.resolve(config)
        preset = pachisi.Rules(config.variant).options
        changed = {k: v for k, v in rules.options.items() if preset[k] != v}
        assert changed == config.options, config.label
