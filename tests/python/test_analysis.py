"""The variant analysis (python -m pachisi.analysis) on a small number of games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import pachisi
from pachisi import analysis


def test_analysis_small_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert analysis.main(["--out", str(tmp_path), "--games", "150", "--seed", "1"]) == 0
    report = json.loads((tmp_path / "analysis.json").read_text())
    rows = report["variants"]
    assert [r["label"] for r in rows] == [c.label for c in analysis.CONFIGS]
    for r in rows:
        s = r["result"]
        assert s["games"] == 150
        assert abs(sum(s["win_rate"]) - r["fair_share"] * s["seats"]) < 1e-9
        assert r["seat0_edge_ci"][0] <= r["seat0_edge"] <= r["seat0_edge_ci"][1]
        # The rules actually simulated are the ones the label names.
        assert pachisi.Rules.from_json(json.dumps(r["rules"])).variant == r["variant"]
        # Greedy play in every seat: a fifth of the games by default.
        g = r["greedy"]
        assert g["result"]["games"] == 30 and g["result"]["seats"] == s["seats"]
        assert g["seat0_edge_ci"][0] <= g["seat0_edge"] <= g["seat0_edge_ci"][1]
    assert (tmp_path / "analysis.png").stat().st_size > 10_000
    out = capsys.readouterr().out
    assert "Parcheesi" in out and "analysis.json" in out and "Competent play" in out


def test_every_configuration_changes_exactly_its_options() -> None:
    for config in analysis.CONFIGS:
        rules = analysis.resolve(config)
        preset = pachisi.Rules(config.variant).options
        changed = {k: v for k, v in rules.options.items() if preset[k] != v}
        assert changed == config.options, config.label
