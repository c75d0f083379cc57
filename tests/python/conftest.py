"""Shared fixtures of the Python tests.

`variant` is every preset; `real_variant` is the same list, and also checks that the preset's
game starts (a rule system that ended before the first roll would be a bug, not a skip).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest

import pachisi

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "scenarios"


def require_real(variant: str) -> None:
    assert not pachisi.Game(variant, seed=0).is_over, f"{variant}: the game ends before it starts"


@pytest.fixture(params=pachisi.variants())
def variant(request: pytest.FixtureRequest) -> str:
    """Every preset."""
    return str(request.param)


@pytest.fixture
def real_variant(variant: str) -> str:
    """Every preset, checked to start a game."""
    require_real(variant)
    return variant


def load_scenarios() -> List[Tuple[str, Dict[str, Any]]]:
    """Every scenario of tests/scenarios/<variant>/*.json, with an id `variant/file[i]`."""
    out: List[Tuple[str, Dict[str, Any]]] = []
    for path in sorted(SCENARIOS.glob("*/*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        items = data if isinstance(data, list) else [data]
        for i, item in enumerate(items):
            suffix = f"[{i}]" if isinstance(data, list) else ""
            out.append((f"{path.parent.name}/{path.name}{suffix}", item))
    return out
