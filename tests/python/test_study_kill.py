"""A study killed with SIGKILL at a random moment, then resumed, ends with the table of an
uninterrupted run."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pachisi

SPEC = """
[study]
name = "kill"
seed = 5
games = 3000

[[lineups]]
name = "random"
players = "random"

[[lineups]]
name = "greedy"
players = "greedy"
games = 60

[[variants]]
preset = "pachisi"
grid = {{ shell_probability = [0.5, 0.524] }}

[[variants]]
preset = "backgammon"

[outputs]
dir = "{out}"
plot = false

[backend]
chunk = {chunk}
"""


def stored_units(path: Path) -> int:
    if not path.exists():
        return 0
    try:
        db = sqlite3.connect(str(path), timeout=5)
        try:
            return int(db.execute("SELECT COUNT(*) FROM units").fetchone()[0])
        finally:
            db.close()
    except sqlite3.OperationalError:
        return 0  # the table is not created yet


def test_sigkill_at_a_random_moment_then_resume(tmp_path: Path) -> None:
    seed = int(os.environ.get("STUDY_KILL_SEED", time.time_ns() % 1_000_000))
    rng = random.Random(seed)
    print(f"STUDY_KILL_SEED={seed}")
    killed_dir = tmp_path / "killed"
    spec_path = tmp_path / "kill.toml"
    spec_path.write_text(SPEC.format(out=killed_dir.as_posix(), chunk=150))
    store = killed_dir / "kill.sqlite"
    total_units = 3 * 20 + 3 * 1  # 3000 / 150 per random cell, one unit per greedy cell
    target = rng.randint(1, total_units // 2)
    proc = subprocess.Popen(
        [sys.executable, "-m", "pachisi", "study", "run", str(spec_path), "--no-progress",
         "--quiet", "--threads", "1"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 120
        while stored_units(store) < target and proc.poll() is None:
            assert time.monotonic() < deadline, "the study made no progress"
            time.sleep(0.02)
        # Somewhere inside a unit, or between two: a unit takes about 10 ms here, and the whole
        # study well under a second, so a longer pause could let it finish before the kill.
        time.sleep(rng.uniform(0, 0.01))
        assert proc.poll() is None, f"the study ended before the kill (seed {seed})"
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait(timeout=60)
    assert proc.returncode == -signal.SIGKILL
    saved = stored_units(store)
    assert 1 <= saved < total_units, (seed, saved)

    resumed = pachisi.study(spec_path, chunk=451)  # another unit size, on all threads
    assert resumed.games_resumed > 0 and resumed.games_played > 0
    whole_dir = tmp_path / "whole"
    whole = pachisi.study(spec_path, out=whole_dir)
    assert resumed.table.to_dicts() == whole.table.to_dicts(), f"seed {seed}"
    assert resumed.paths["csv"].read_text() == whole.paths["csv"].read_text()


def test_ctrl_c_stops_cleanly_and_resumes(tmp_path: Path) -> None:
    """SIGINT (Ctrl-C): the command says how to resume and exits with 130; the rerun resumes."""
    out = tmp_path / "int"
    spec_path = tmp_path / "int.toml"
    spec_path.write_text(SPEC.format(out=out.as_posix(), chunk=150))
    proc = subprocess.Popen(
        [sys.executable, "-m", "pachisi", "study", "run", str(spec_path), "--no-progress",
         "--quiet", "--threads", "1"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        # Ctrl-C as a terminal gives it, even when the suite runs in the background (SIGINT
        # ignored, which a child inherits and Python then keeps).
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 120
    while stored_units(out / "kill.sqlite") < 3 and proc.poll() is None:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "run the same command again to resume" in err
    again = pachisi.study(spec_path)
    assert again.games_resumed >= 3 * 150
    whole = pachisi.study(spec_path, out=tmp_path / "whole")
    assert again.table.to_dicts() == whole.table.to_dicts()
