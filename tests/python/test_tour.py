"""The notebook-style tour runs from start to end."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_tour_runs(tmp_path: Path) -> None:
    tour = ROOT / "examples" / "python" / "tour.py"
    proc = subprocess.run(
        [sys.executable, str(tour), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    assert "variants:" in proc.stdout
    for svg in tmp_path.glob("*.svg"):
        assert svg.read_text().startswith("<svg")
