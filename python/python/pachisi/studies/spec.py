"""The study spec: parsing, validation with errors that name the bad key, and the cells.

A spec is a TOML file or the same structure as a Python dict (``docs/STUDIES.md``)::

    [study]                 # name, seed, games (per cell), description
    [[variants]]            # label, preset, options, grid (option -> list of values), seats (list)
    [[lineups]]             # name, players (one spec for every seat, or a list), rest, games
    [outputs]               # dir, store, csv, json, plot, heatmap, table
    [backend]               # name ("local" or "ray"), chunk (games per work unit), threads,
                            # address, num_cpus, max_retries

A *cell* is one rule set (a variant's preset and options, one value of each grid axis, one seat
count) under one line-up. Its games are seeded from the study seed and the cell's identity (its
rules and players), so adding a cell does not change the others, and game ``i`` of a cell is the
same game however the cell is split into work units.
"""

from __future__ import annotations

import copy
import hashlib
import itertools
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import pachisi

#: The spec keys, per table (an unknown key is an error naming it and these).
KEYS: Dict[str, Tuple[str, ...]] = {
    "": ("study", "variants", "lineups", "outputs", "backend"),
    "study": ("name", "seed", "games", "description"),
    "variants": ("label", "preset", "options", "grid", "seats"),
    "lineups": ("name", "players", "rest", "games", "description"),
    "outputs": ("dir", "store", "csv", "json", "plot", "heatmap", "table"),
    "heatmap": ("x", "y", "value", "seat", "lineup"),
    "backend": ("name", "threads", "address", "num_cpus", "max_retries", "chunk"),
}
BACKENDS = ("local", "ray")
#: Columns a heat map can show (per cell, for one seat where it is a per-seat value).
HEATMAP_VALUES = ("edge", "win_rate", "mean_rolls", "median_rolls", "mean_captures", "unfinished")

SpecLike = Union[str, Path, Mapping[str, Any], "Spec"]


class SpecError(ValueError):
    """A study spec that cannot be run: the message names the key and what is wrong."""


@dataclass(frozen=True)
class Lineup:
    """A line-up: its name, the player spec(s), the seats after the list (``rest``), games."""

    name: str
    players: Union[str, Tuple[str, ...]]
    rest: Optional[str]
    games: Optional[int]
    description: str = ""

    def for_seats(self, seats: int, where: str) -> List[str]:
        """One canonical player spec per seat."""
        if isinstance(self.players, str):
            specs = [self.players] * seats
        else:
            specs = list(self.players)
            if len(specs) > seats:
                raise SpecError(
                    f"{where}.players names {len(specs)} players but the game has {seats} seats"
                )
            if len(specs) < seats:
                if self.rest is None:
                    raise SpecError(
                        f"{where}.players names {len(specs)} players for {seats} seats: give one "
                        f"per seat or set {where}.rest (the player of the other seats)"
                    )
                specs += [self.rest] * (seats - len(specs))
        return specs


@dataclass(frozen=True)
class Cell:
    """One cell of a study: rules and a line-up; ``games`` seeded from ``seed``."""

    index: int
    id: str
    label: str
    variant: str
    preset: str
    rules: "pachisi.Rules"
    grid: Dict[str, Any]
    lineup: str
    players: Tuple[str, ...]
    games: int
    seed: int
    teams: Tuple[int, ...]

    @property
    def seats(self) -> int:
        return len(self.players)

    @property
    def random_play(self) -> bool:
        """Every seat ``random``: the fast random simulator plays the cell."""
        return all(p == "random" for p in self.players)


@dataclass
class Spec:
    """A validated study spec (build one with :func:`load_spec`)."""

    raw: Dict[str, Any]
    name: str
    seed: int
    games: int
    chunk: Optional[int]
    cells: List[Cell]
    lineups: List[Lineup]
    axes: List[str]
    outputs: Dict[str, Any]
    backend: Dict[str, Any]
    source: Optional[Path] = None
    description: str = ""
    variant_labels: List[str] = field(default_factory=list)

    @property
    def total_games(self) -> int:
        return sum(c.games for c in self.cells)

    def identity(self) -> Dict[str, Any]:
        """What the results depend on (hashed per store): the seed, every cell's rules, players
        and games, and the engine version. Not the backend, chunk size, outputs or labels."""
        return {
            "pachisi": pachisi.__version__,
            "seed": self.seed,
            "cells": [
                {"id": c.id, "rules": json.loads(c.rules.to_json()), "players": list(c.players),
                 "games": c.games}
                for c in self.cells
            ],
        }

    def hash(self) -> str:
        text = json.dumps(self.identity(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    def output_path(self, key: str) -> Optional[Path]:
        """Where output ``key`` goes (``None``: not written)."""
        value = self.outputs.get(key)
        if value is None or value is False:
            return None
        return Path(self.outputs["dir"]) / str(value)


def _fail(where: str, message: str) -> SpecError:
    return SpecError(f"study spec: {where}: {message}")


def _check_keys(table: Any, kind: str, where: str) -> Dict[str, Any]:
    if not isinstance(table, Mapping):
        raise _fail(where or "the spec", f"must be a table (a dict), got {type(table).__name__}")
    known = KEYS[kind]
    for key in table:
        if key not in known:
            raise _fail(
                f"{where}.{key}" if where else str(key),
                f"unknown key (known keys{' of [' + where + ']' if where else ''}: "
                f"{', '.join(known)})",
            )
    return dict(table)


def _int(value: Any, where: str, minimum: int = 0, optional: bool = False) -> Optional[int]:
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(where, f"must be an integer, got {value!r}")
    if value < minimum:
        raise _fail(where, f"must be at least {minimum}, got {value}")
    return value


def _str(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value:
        raise _fail(where, f"must be a non-empty string, got {value!r}")
    return value


def read_toml(path: Union[str, Path]) -> Dict[str, Any]:
    """A TOML file as a dict (tomllib; the ``tomli`` package before Python 3.11)."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python < 3.11 only
        try:
            import tomli as tomllib
        except ImportError as e:
            raise ImportError(
                "reading a TOML study spec needs the 'tomli' package on Python < 3.11 "
                "(pip install tomli, or pass the spec as a dict)"
            ) from e
    p = Path(path)
    try:
        with p.open("rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        raise SpecError(f"study spec: no such file: {p}") from None
    except tomllib.TOMLDecodeError as e:
        raise SpecError(f"study spec: {p} is not valid TOML: {e}") from None


def _cell_seed(seed: int, key: str) -> int:
    digest = hashlib.sha256(f"{seed}|{key}".encode()).digest()
    return int.from_bytes(digest[:8], "little")


def _canonical_player(spec: Any, where: str) -> str:
    if isinstance(spec, Mapping):
        spec = json.dumps(dict(spec), sort_keys=True)
    if not isinstance(spec, str) or not spec:
        raise _fail(where, f"a player spec is a string such as 'greedy', got {spec!r}")
    try:
        return pachisi.Player(spec).name
    except pachisi.PachisiError as e:
        raise _fail(where, f"invalid player spec {spec!r}: {e}") from None


def _format_value(v: Any) -> str:
    if isinstance(v, bool):
        return "on" if v else "off"
    return str(v)


def load_spec(spec: SpecLike, overrides: Optional[Mapping[str, Mapping[str, Any]]] = None) -> Spec:
    """Reads and validates a spec: a TOML path, a dict, or a :class:`Spec` (returned as is
    unless ``overrides`` are given). ``overrides`` replace keys of a table, such as
    ``{"outputs": {"dir": "elsewhere"}, "backend": {"name": "ray"}}``.

    Every problem is a :class:`SpecError` that names the key (``lineups[1].players``).
    """
    source: Optional[Path] = None
    if isinstance(spec, Spec):
        if not overrides:
            return spec
        raw: Dict[str, Any] = copy.deepcopy(spec.raw)
        source = spec.source
    elif isinstance(spec, (str, Path)):
        source = Path(spec)
        raw = read_toml(source)
    elif isinstance(spec, Mapping):
        raw = copy.deepcopy(dict(spec))
    else:
        raise SpecError(
            f"study spec: expected a TOML file path or a dict, got {type(spec).__name__}"
        )
    for table, values in (overrides or {}).items():
        base = raw.setdefault(table, {})
        if not isinstance(base, dict):
            raise _fail(table, "must be a table")
        base.update({k: v for k, v in values.items() if v is not None})
    return _validate(raw, source)


def _validate(raw: Dict[str, Any], source: Optional[Path]) -> Spec:
    top = _check_keys(raw, "", "")
    study = _check_keys(top.get("study", {}), "study", "study")
    name = _str(study.get("name", source.stem if source else "study"), "study.name")
    if any(c in name for c in "/\\") or name.startswith("."):
        raise _fail("study.name", f"must be a plain file-name stem, got {name!r}")
    seed = _int(study.get("seed", 0), "study.seed")
    assert seed is not None
    if seed >= 2**64:
        raise _fail("study.seed", "must be below 2**64")
    games = _int(study.get("games", 10_000), "study.games", 1)
    assert games is not None

    lineups_raw = top.get("lineups", [{"name": "random", "players": "random"}])
    if not isinstance(lineups_raw, list) or not lineups_raw:
        raise _fail("lineups", "must be a non-empty list of line-up tables ([[lineups]])")
    lineups: List[Lineup] = []
    for i, lr in enumerate(lineups_raw):
        where = f"lineups[{i}]"
        lt = _check_keys(lr, "lineups", where)
        if "players" not in lt:
            raise _fail(f"{where}.players", "missing (a player spec for every seat, or a list)")
        players = lt["players"]
        if isinstance(players, list):
            if not players:
                raise _fail(f"{where}.players", "is an empty list")
            canon: Union[str, Tuple[str, ...]] = tuple(
                _canonical_player(p, f"{where}.players[{k}]") for k, p in enumerate(players)
            )
        else:
            canon = _canonical_player(players, f"{where}.players")
        rest = lt.get("rest")
        if rest is not None:
            rest = _canonical_player(rest, f"{where}.rest")
        default_name = canon if isinstance(canon, str) else ",".join(canon)
        lname = _str(lt.get("name", default_name), f"{where}.name")
        if any(l.name == lname for l in lineups):
            raise _fail(f"{where}.name", f"the line-up name {lname!r} is used twice")
        lineups.append(
            Lineup(lname, canon, rest, _int(lt.get("games"), f"{where}.games", 1, optional=True),
                   str(lt.get("description", "")))
        )

    variants_raw = top.get("variants")
    if not isinstance(variants_raw, list) or not variants_raw:
        raise _fail("variants", "must be a non-empty list of variant tables ([[variants]] with "
                    "a preset)")
    rule_sets: List[Tuple[str, str, str, Dict[str, Any], "pachisi.Rules", str]] = []
    axes: List[str] = []
    variant_labels: List[str] = []
    for i, vr in enumerate(variants_raw):
        where = f"variants[{i}]"
        vt = _check_keys(vr, "variants", where)
        preset = _str(vt.get("preset"), f"{where}.preset")
        if preset not in pachisi.variants():
            raise _fail(f"{where}.preset", f"unknown preset {preset!r} (presets: "
                        f"{', '.join(pachisi.variants())})")
        options = vt.get("options", {})
        if not isinstance(options, Mapping):
            raise _fail(f"{where}.options", "must be a table of rule options")
        grid = vt.get("grid", {})
        if not isinstance(grid, Mapping):
            raise _fail(f"{where}.grid", "must be a table: option = [values]")
        grid = dict(grid)
        if "seats" in vt:
            if "seats" in grid or "seats" in options:
                raise _fail(f"{where}.seats", "seats are given twice (also in grid or options)")
            grid["seats"] = vt["seats"]
        for axis, values in grid.items():
            if not isinstance(values, list) or not values:
                # `seats` given beside the grid is named where the spec wrote it.
                key = f"{where}.seats" if axis == "seats" and "seats" in vt else (
                    f"{where}.grid.{axis}")
                raise _fail(key, f"must be a non-empty list of values, got "
                            f"{values!r}")
            if axis in options:
                raise _fail(f"{where}.grid.{axis}", "is also a fixed option in options")
            if len(set(json.dumps(v) for v in values)) != len(values):
                raise _fail(f"{where}.grid.{axis}", "lists a value twice")
            if axis not in axes:
                axes.append(axis)
        label = vt.get("label")
        if label is None:
            fixed = ", ".join(f"{k} {_format_value(v)}" for k, v in options.items())
            label = preset + (f", {fixed}" if fixed else "")
        label = _str(label, f"{where}.label")
        if label in variant_labels:
            raise _fail(f"{where}.label", f"the label {label!r} is used twice")
        variant_labels.append(label)
        keys = list(grid)
        for values in itertools.product(*(grid[k] for k in keys)):
            point = dict(zip(keys, values))
            opts = {**options, **point}
            try:
                rules = pachisi.Rules(preset, **opts)
            except pachisi.PachisiError as e:
                at = ", ".join(f"{k}={_format_value(v)}" for k, v in point.items())
                # The engine's message already begins "invalid rules:" for most errors.
                text = str(e) if str(e).startswith("invalid rules:") else f"invalid rules: {e}"
                raise _fail(f"{where}" + (f" (grid point {at})" if at else ".options"),
                            text) from None
            suffix = ", ".join(f"{k} {_format_value(v)}" for k, v in point.items())
            cell_label = label + (f" | {suffix}" if suffix else "")
            rule_sets.append((label, preset, cell_label, point, rules, where))

    cells: List[Cell] = []
    seen: Dict[str, str] = {}
    for lineup_index, lineup in enumerate(lineups):
        for label, preset, cell_label, point, rules, where in rule_sets:
            seats = pachisi.Game(rules, seed=0).seats
            players = tuple(lineup.for_seats(seats, f"lineups[{lineup_index}]"))
            key = json.dumps({"rules": json.loads(rules.to_json()), "players": players},
                             sort_keys=True, separators=(",", ":"))
            cell_id = hashlib.sha256(key.encode()).hexdigest()[:16]
            if cell_id in seen:
                raise _fail(where, f"the cell {cell_label!r} under line-up {lineup.name!r} plays "
                            f"the same rules and players as {seen[cell_id]!r}")
            seen[cell_id] = f"{cell_label} ({lineup.name})"
            cells.append(
                Cell(
                    index=len(cells),
                    id=cell_id,
                    label=cell_label,
                    variant=label,
                    preset=preset,
                    rules=rules,
                    grid=point,
                    lineup=lineup.name,
                    players=players,
                    games=lineup.games or games,
                    seed=_cell_seed(seed, key),
                    teams=tuple(pachisi._native.team_masks_raw(rules)),
                )
            )

    outputs = _check_keys(top.get("outputs", {}), "outputs", "outputs")
    outputs.setdefault("dir", "out")
    for key, ext in (("store", "sqlite"), ("csv", "csv"), ("json", "json"), ("plot", "png")):
        value = outputs.get(key, True)
        if value is True:
            outputs[key] = f"{name}.{ext}"
        elif value is False and key != "store":
            outputs[key] = None
        elif not isinstance(value, str) or not value:
            raise _fail(f"outputs.{key}", f"must be a file name{' or false' if key != 'store' else ''}, "
                        f"got {value!r}")
    outputs["dir"] = _str(outputs["dir"], "outputs.dir")
    table_rows = _int(outputs.get("table", 200), "outputs.table")
    outputs["table"] = table_rows
    heatmap = outputs.get("heatmap")
    if heatmap is not None:
        hm = _check_keys(heatmap, "heatmap", "outputs.heatmap")
        for k in ("x", "y"):
            axis = _str(hm.get(k), f"outputs.heatmap.{k}")
            if axis not in axes:
                raise _fail(f"outputs.heatmap.{k}", f"{axis!r} is not a grid axis (axes: "
                            f"{', '.join(axes) or 'none'})")
        if hm["x"] == hm["y"]:
            raise _fail("outputs.heatmap", "x and y must be two different grid axes")
        value = hm.setdefault("value", "edge")
        if value not in HEATMAP_VALUES:
            raise _fail("outputs.heatmap.value", f"{value!r} is not one of "
                        f"{', '.join(HEATMAP_VALUES)}")
        _int(hm.setdefault("seat", 0), "outputs.heatmap.seat")
        if "lineup" in hm and hm["lineup"] not in [l.name for l in lineups]:
            raise _fail("outputs.heatmap.lineup", f"no line-up is named {hm['lineup']!r}")
        hm.setdefault("file", f"{name}-heatmap.png")
        outputs["heatmap"] = hm

    backend = _check_keys(top.get("backend", {}), "backend", "backend")
    backend.setdefault("name", "local")
    if backend["name"] not in BACKENDS:
        raise _fail("backend.name", f"{backend['name']!r} is not a backend ({', '.join(BACKENDS)})")
    threads = _int(backend.get("threads"), "backend.threads", 1, optional=True)
    if threads is not None and threads > pachisi.MAX_THREADS:
        # As pachisi.simulate: each worker is a thread, never a count the machine cannot start.
        raise _fail("backend.threads", f"must be at most {pachisi.MAX_THREADS}, got {threads}")
    _int(backend.get("num_cpus"), "backend.num_cpus", 1, optional=True)
    _int(backend.setdefault("max_retries", 3), "backend.max_retries", 0)
    chunk = _int(backend.get("chunk"), "backend.chunk", 1, optional=True)
    if backend.get("address") is not None:
        _str(backend["address"], "backend.address")

    return Spec(
        raw=raw,
        name=name,
        seed=seed,
        games=games,
        chunk=chunk,
        cells=cells,
        lineups=lineups,
        axes=axes,
        outputs=outputs,
        backend=backend,
        source=source,
        description=str(study.get("description", "")),
        variant_labels=variant_labels,
    )


def describe(spec: Spec) -> str:
    """One paragraph: cells, games, line-ups."""
    per = sorted({c.games for c in spec.cells})
    games = " / ".join(f"{g:,}" for g in per)
    return (
        f"study {spec.name!r}: {len(spec.cells)} cells ({len(spec.variant_labels)} variants"
        + (f", grid axes {', '.join(spec.axes)}" if spec.axes else "")
        + f"; line-ups {', '.join(l.name for l in spec.lineups)}), {games} games per cell, "
        f"{spec.total_games:,} games, seed {spec.seed}"
    )


def seats_of(cells: Sequence[Cell]) -> int:
    return max((c.seats for c in cells), default=0)
