"""Variant studies (pachisi.study, python -m pachisi study): spec validation, deterministic work
units, the store (resume, a changed spec refused), the table, CSV/JSON/plots, the CLI."""

from __future__ import annotations

import csv
import json
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List

import pytest

import pachisi
from pachisi import studies
from pachisi.studies import SpecError, StoreMismatchError, load_spec
from pachisi.studies.store import missing_ranges

ROOT = Path(__file__).resolve().parents[2]


def small_spec(tmp: Path, **study: Any) -> Dict[str, Any]:
    """Three rule sets x two line-ups, small enough for a test."""
    return {
        "study": {"name": "t", "seed": 11, "games": 300, **study},
        "variants": [
            {"label": "Parcheesi", "preset": "parcheesi", "grid": {"capture_bonus": [10, 20]}},
            {"preset": "pachisi-family"},
            {"preset": "backgammon"},
        ],
        "lineups": [
            {"name": "random", "players": "random"},
            {"name": "greedy first", "players": ["greedy"], "rest": "random", "games": 40},
        ],
        "outputs": {"dir": str(tmp), "plot": False},
    }


def numbers(table: studies.Table) -> List[Dict[str, Any]]:
    return table.to_dicts()


def test_spec_errors_name_the_key(tmp_path: Path) -> None:
    good = small_spec(tmp_path)
    load_spec(good)

    def bad(path: str, mutate: Any) -> str:
        spec = json.loads(json.dumps(good))
        mutate(spec)
        with pytest.raises(SpecError) as e:
            load_spec(spec)
        assert path in str(e.value), (path, str(e.value))
        return str(e.value)

    assert "known keys" in bad("study.gmaes", lambda s: s["study"].update(gmaes=3))
    bad("study.games", lambda s: s["study"].update(games=0))
    bad("study.games", lambda s: s["study"].update(games="many"))
    bad("study.seed", lambda s: s["study"].update(seed=-1))
    bad("variants[1].preset", lambda s: s["variants"][1].update(preset="ludo"))
    bad("variants[0].grid.capture_bonus", lambda s: s["variants"][0]["grid"].update(capture_bonus=[]))
    msg = bad("variants[0] (grid point capture_bonus=99)",
              lambda s: s["variants"][0]["grid"].update(capture_bonus=[10, 99]))
    assert "capture_bonus" in msg
    assert msg.count("invalid rules:") == 1, msg
    # As pachisi.simulate: at most MAX_THREADS worker threads.
    bad("backend.threads", lambda s: s.update(backend={"threads": pachisi.MAX_THREADS + 1}))
    # `seats` beside the grid is named where the spec wrote it.
    bad("variants[0].seats", lambda s: s["variants"][0].update(seats=2))
    bad("variants[2].options", lambda s: s["variants"][2].update(options={"no_such_rule": 1}))
    bad("lineups[1].players[0]", lambda s: s["lineups"][1].update(players=["grandmaster"]))
    bad("lineups[1].rest", lambda s: s["lineups"][1].update(rest="nobody"))
    # Two specs for a four-seat game without `rest`.
    bad("lineups[1].players", lambda s: s["lineups"][1].pop("rest"))
    bad("lineups[1].name", lambda s: s["lineups"][1].update(name="random"))
    bad("outputs.heatmap.x", lambda s: s["outputs"].update(heatmap={"x": "seats", "y": "capture_bonus"}))
    bad("backend.name", lambda s: s.update(backend={"name": "spark"}))
    bad("variants[3]", lambda s: s["variants"].append({"preset": "pachisi-family", "label": "again"}))
    with pytest.raises(SpecError, match="no such file"):
        load_spec(tmp_path / "missing.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text("[study\nname = 1\n")
    with pytest.raises(SpecError, match="not valid TOML"):
        load_spec(broken)


def test_cells_and_seeds(tmp_path: Path) -> None:
    spec = load_spec(small_spec(tmp_path))
    assert len(spec.cells) == 8  # (2 + 1 + 1) rule sets x 2 line-ups
    assert spec.axes == ["capture_bonus"]
    family = [c for c in spec.cells if c.preset == "pachisi-family"]
    assert family[0].teams == (5, 10, 5, 10)
    assert family[1].players == ("greedy", "random", "random", "random")
    assert [c.games for c in spec.cells].count(40) == 4
    # A cell's seed depends on its rules and players, not on its place in the spec.
    reordered = small_spec(tmp_path)
    reordered["variants"].reverse()
    other = {c.id: c.seed for c in load_spec(reordered).cells}
    assert all(other[c.id] == c.seed for c in spec.cells)
    assert len({c.seed for c in spec.cells}) == len(spec.cells)
    # The hash covers what the results depend on, not outputs or the backend.
    moved = small_spec(tmp_path / "elsewhere")
    moved["backend"] = {"chunk": 7, "threads": 1}
    assert load_spec(moved).hash() == spec.hash()
    reseeded = small_spec(tmp_path, seed=12)
    assert load_spec(reseeded).hash() != spec.hash()


def test_missing_ranges() -> None:
    assert missing_ranges(10, []) == [(0, 10)]
    assert missing_ranges(10, [(0, 3), (5, 7)]) == [(3, 5), (7, 10)]
    assert missing_ranges(10, [(0, 10)]) == []


def test_cell_matches_simulate(tmp_path: Path) -> None:
    """A cell is exactly pachisi.simulate with the cell's seed and line-up."""
    r = pachisi.study(small_spec(tmp_path), chunk=77)
    spec = r.spec
    for cell in spec.cells:
        rows = [row for row in r.table if row["cell"] == cell.index]
        policy: Any = "random" if cell.random_play else list(cell.players)
        sim = pachisi.simulate(cell.rules, games=cell.games, seed=cell.seed, policy=policy)
        s = sim.summary()
        assert [row["win_rate"] for row in rows] == pytest.approx(s["win_rate"], abs=1e-12)
        assert [row["wins"] for row in rows] == list(sim.wins())
        assert rows[0]["mean_rolls"] == pytest.approx(s["mean_rolls"], abs=1e-9)
        assert rows[0]["median_rolls"] == s["median_rolls"]
        assert rows[0]["mean_captures"] == pytest.approx(s["mean_captures"], abs=1e-9)
        assert rows[0]["unfinished"] == s["unfinished"]
        for row, ci in zip(rows, s["win_rate_ci"]):
            assert (row["ci_low"], row["ci_high"]) == pytest.approx(ci, abs=1e-12)


def test_results_do_not_depend_on_chunks_threads_or_order(tmp_path: Path) -> None:
    a = pachisi.study(small_spec(tmp_path / "a"))                      # automatic units
    b = pachisi.study(small_spec(tmp_path / "b"), chunk=13, threads=1)
    c = pachisi.study(small_spec(tmp_path / "c"), chunk=1000, threads=2)
    assert numbers(a.table) == numbers(b.table) == numbers(c.table)
    units = sqlite3.connect(str(tmp_path / "b" / "t.sqlite")).execute(
        "SELECT COUNT(*) FROM units").fetchone()[0]
    assert units > 30


def test_resume_after_interruption(tmp_path: Path) -> None:
    whole = pachisi.study(small_spec(tmp_path / "whole"), chunk=50)
    calls = {"n": 0}

    class Stop(Exception):
        pass

    def stop_after_five(*_: Any) -> None:
        calls["n"] += 1
        if calls["n"] == 5:
            raise Stop()

    with pytest.raises(Stop):
        pachisi.study(small_spec(tmp_path / "part"), chunk=50, on_unit=stop_after_five)
    status = studies.status(small_spec(tmp_path / "part"))
    assert sum(s["done"] for s in status) == 250
    # Resumed with another unit size: the same table.
    again = pachisi.study(small_spec(tmp_path / "part"), chunk=37)
    assert again.games_resumed == 250
    assert again.games_played == whole.spec.total_games - 250
    assert numbers(again.table) == numbers(whole.table)
    # Nothing left to do: a third run plays nothing and gives the same table.
    third = pachisi.study(small_spec(tmp_path / "part"))
    assert third.games_played == 0 and numbers(third.table) == numbers(whole.table)


def test_a_second_run_on_the_same_store_is_refused(tmp_path: Path) -> None:
    # Two runs of one spec on one store at once would both play the missing units and store
    # overlapping ranges, leaving a store no table can be read from: the second is refused
    # while the first runs, and the first ends with the table of a single run.
    whole = pachisi.study(small_spec(tmp_path / "whole"), chunk=50)
    spec = small_spec(tmp_path / "shared")
    errors: List[BaseException] = []

    def second_run(*_: Any) -> None:
        if not errors:
            try:
                pachisi.study(spec, chunk=70, threads=1)
            except BaseException as e:  # noqa: BLE001 - recorded, asserted below
                errors.append(e)
            else:
                errors.append(AssertionError("the second run was not refused"))

    first = pachisi.study(spec, chunk=50, on_unit=second_run)
    assert isinstance(errors[0], studies.StoreBusyError), errors
    assert "in use by another run" in str(errors[0])
    assert numbers(first.table) == numbers(whole.table)
    # Reading the store needs no lock; once the run is over the store opens again.
    assert sum(s["done"] for s in studies.status(spec)) == whole.spec.total_games
    assert pachisi.study(spec).games_played == 0


def test_changed_spec_is_refused(tmp_path: Path) -> None:
    pachisi.study(small_spec(tmp_path, games=100))
    with pytest.raises(StoreMismatchError) as e:
        pachisi.study(small_spec(tmp_path, games=120))
    assert "--fresh" in str(e.value) and "games per cell changed" in str(e.value)
    changed = small_spec(tmp_path, games=100)
    changed["variants"].append({"preset": "pachisi"})
    with pytest.raises(StoreMismatchError, match="cells added"):
        pachisi.study(changed)
    r = pachisi.study(small_spec(tmp_path, games=120), fresh=True)
    assert r.games_resumed == 0 and r.table[0]["games"] == 120
    # fresh="if-changed" (make run): resumes the same spec, restarts another one.
    assert pachisi.study(small_spec(tmp_path, games=120), fresh="if-changed").games_played == 0
    r = pachisi.study(small_spec(tmp_path, games=90), fresh="if-changed")
    assert r.games_resumed == 0 and r.table[0]["games"] == 90
    r = pachisi.study(small_spec(tmp_path, games=120), fresh=True)
    # Only the outputs or the backend changed: the same study, resumed (nothing to play).
    same = small_spec(tmp_path, games=120)
    same["backend"] = {"chunk": 5}
    assert pachisi.study(same).games_played == 0
    (tmp_path / "junk.sqlite").write_text("not a database" * 100)
    with pytest.raises(StoreMismatchError, match="not a study store"):
        pachisi.study(small_spec(tmp_path), store=tmp_path / "junk.sqlite")


def test_table_csv_json_and_partners(tmp_path: Path) -> None:
    r = pachisi.study(small_spec(tmp_path))
    t = r.table
    assert t.columns[:5] == ["cell", "label", "variant", "preset", "capture_bonus"]
    assert len(t) == sum(c.seats for c in r.spec.cells)
    fam = [row for row in t if row["preset"] == "pachisi-family" and row["lineup"] == "random"]
    assert [row["partners"] for row in fam] == ["0+2", "1+3", "0+2", "1+3"]
    assert fam[0]["wins"] == fam[2]["wins"]  # partners win together
    for row in t:
        assert row["ci_low"] <= row["win_rate"] <= row["ci_high"]
        assert row["edge_low"] <= row["edge"] <= row["edge_high"]
        assert row["games"] == (300 if row["lineup"] == "random" else 40)
    with open(r.paths["csv"], newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == len(t) and float(rows[3]["win_rate"]) == t[3]["win_rate"]
    report = json.loads(r.paths["json"].read_text())
    assert report["rows"] == json.loads(json.dumps(t.rows)) and report["spec_hash"] == r.spec.hash()
    text = str(t)
    assert "-0.0" not in text and "seat 0" in text and "partners" in text and "=seat 0" in text
    assert max(len(line) for line in text.splitlines()) <= 110
    df = t.to_pandas()
    assert list(df.columns) == t.columns and len(df) == len(t)


def test_plots(tmp_path: Path) -> None:
    spec = small_spec(tmp_path)
    spec["outputs"] = {"dir": str(tmp_path), "heatmap": {"x": "capture_bonus", "y": "seats"}}
    spec["variants"] = [{"preset": "parcheesi", "seats": [2, 3],
                         "grid": {"capture_bonus": [10, 20]}}, {"preset": "backgammon"}]
    r = pachisi.study(spec)
    assert r.paths["plot"].stat().st_size > 20_000
    assert r.paths["heatmap"].stat().st_size > 10_000


def test_plots_leave_the_matplotlib_backend_alone(tmp_path: Path) -> None:
    # A study in a notebook used to call matplotlib.use("Agg"), so the notebook's own plots stopped
    # showing after it; the charts (and plot_learning_curve) now draw on bare Figures. In a
    # subprocess, so that the backend chosen here touches no other test.
    pytest.importorskip("matplotlib")
    spec = small_spec(tmp_path)
    spec["outputs"] = {"dir": str(tmp_path), "heatmap": {"x": "capture_bonus", "y": "seats"}}
    spec["variants"] = [{"preset": "parcheesi", "seats": [2, 3],
                         "grid": {"capture_bonus": [10, 20]}}]
    spec["lineups"] = [{"name": "random", "players": "random"}]
    curve = tmp_path / "curve.csv"
    curve.write_text("games,win_rate,ci_low,ci_high,fair\n0,0.4,0.3,0.5,0.5\n100,0.6,0.5,0.7,0.5\n")
    code = (
        "import json, sys, matplotlib\n"
        "matplotlib.use('svg')\n"
        "import pachisi\n"
        "r = pachisi.study(json.loads(sys.argv[1]))\n"
        "pachisi.plot_learning_curve(sys.argv[2], sys.argv[3])\n"
        "print(matplotlib.get_backend(), r.paths['plot'].stat().st_size,\n"
        "      r.paths['heatmap'].stat().st_size)\n"
    )
    png = tmp_path / "curve.png"
    out = subprocess.run([sys.executable, "-c", code, json.dumps(spec), str(curve), str(png)],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    backend, plot, heatmap = out.stdout.split()
    assert backend == "svg" and int(plot) > 10_000 and int(heatmap) > 5_000
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_progress_plain_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pachisi.study(small_spec(tmp_path), chunk=100, progress="plain")
    err = capsys.readouterr().err
    assert "study t:" in err and "100.0%" in err and "units" in err


def test_cli_run_status_validate(tmp_path: Path) -> None:
    toml = tmp_path / "s.toml"
    toml.write_text(
        '[study]\nname = "cli"\nseed = 3\ngames = 200\n'
        '[[variants]]\npreset = "backgammon"\n'
        f'[outputs]\ndir = "{tmp_path.as_posix()}"\nplot = false\n'
    )
    run = [sys.executable, "-m", "pachisi", "study"]
    out = subprocess.run(run + ["validate", str(toml)], capture_output=True, text=True, check=True)
    assert "1 cells" in out.stdout
    out = subprocess.run(run + ["run", str(toml), "--no-progress"], capture_output=True,
                         text=True, check=True)
    assert "Backgammon" in out.stdout or "backgammon" in out.stdout
    assert "200 games played" in out.stdout
    out = subprocess.run(run + ["status", str(toml)], capture_output=True, text=True, check=True)
    assert "200 of 200 games stored" in out.stdout
    toml.write_text(toml.read_text().replace("games = 200", "games = 300"))
    out = subprocess.run(run + ["run", str(toml)], capture_output=True, text=True)
    assert out.returncode == 2 and "--fresh" in out.stderr
    toml.write_text(toml.read_text().replace("[study]", "[study]\nbogus = 1"))
    out = subprocess.run(run + ["run", str(toml)], capture_output=True, text=True)
    assert out.returncode == 2 and "study.bogus" in out.stderr


def test_cli_output_into_a_closed_pipe_is_quiet() -> None:
    # `python -m pachisi study validate spec | head -1`: the reader goes away first.
    proc = subprocess.Popen(
        [sys.executable, "-m", "pachisi", "study", "validate",
         str(ROOT / "examples" / "studies" / "main.toml")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 141, err
    assert "Traceback" not in err and "BrokenPipeError" not in err, err


def test_example_specs_are_valid() -> None:
    for path in sorted((ROOT / "examples" / "studies").glob("*.toml")):
        spec = load_spec(path)
        assert spec.cells, path
    sweep = load_spec(ROOT / "examples" / "studies" / "cluster_sweep.toml")
    assert sweep.backend["name"] == "ray" and len(sweep.cells) == 144


def test_missing_ray_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real_import = builtins.__import__

    def no_ray(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "ray" or name.startswith("ray."):
            raise ImportError("No module named 'ray'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_ray)
    with pytest.raises(ImportError, match=r'pachisi\[ray\]'):
        pachisi.study(small_spec(tmp_path), backend="ray")


def test_core_import_does_not_load_extras() -> None:
    code = ("import sys, pachisi, pachisi.studies; "
            "print(sorted(m for m in ('pandas', 'matplotlib', 'tqdm', 'ray') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
