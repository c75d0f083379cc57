"""The on-disk store of a study: one SQLite file (the standard library's sqlite3).

Every finished work unit is one row, committed as soon as it arrives, so an interrupted study
(Ctrl-C, ``kill -9``, a lost worker or machine) loses at most the units that were running. The
store remembers the hash of the spec it belongs to (:meth:`Spec.hash`: seed, cells, games, engine
version); opening it with another spec is refused unless the caller asks to start afresh.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any, Dict, Iterator, List, Mapping, Optional, Tuple, Union

from .spec import Spec

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS units (
    cell TEXT NOT NULL,          -- Cell.id
    start INTEGER NOT NULL,      -- first game index
    stop INTEGER NOT NULL,       -- one past the last game index
    games INTEGER NOT NULL,
    wins TEXT NOT NULL,          -- JSON list: games won per seat
    unfinished INTEGER NOT NULL,
    rolls_sum INTEGER NOT NULL,
    captures_sum INTEGER NOT NULL,
    points_sum INTEGER NOT NULL,
    rolls_hist TEXT NOT NULL,    -- JSON list of [rolls, games]
    seconds REAL NOT NULL,       -- time the unit took where it ran
    backend TEXT NOT NULL,
    finished REAL NOT NULL,      -- Unix time it was stored
    PRIMARY KEY (cell, start)
);
"""


class StoreMismatchError(RuntimeError):
    """The store holds results of a different spec (or is not a study store)."""


class StoreBusyError(RuntimeError):
    """Another run of a study is using the store (two runs would play the same units and store
    overlapping ranges)."""


def _lock(path: Path) -> Optional[Any]:
    """An exclusive lock on ``path`` + ``.lock`` for as long as the returned file stays open
    (``None`` where the platform has no ``fcntl``); :class:`StoreBusyError` when another run
    holds it."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        return None
    lock_path = Path(str(path) + ".lock")
    handle = open(lock_path, "a")
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise StoreBusyError(
            f"the store {path} is in use by another run of the study (lock {lock_path}); "
            "wait for it to end, or set outputs.store (or --store) to another file"
        ) from None
    return handle


class Store:
    """A study's SQLite store. ``fresh=True`` deletes whatever it held; ``fresh="if-changed"``
    only when it holds the results of another spec (instead of refusing). ``lock=True`` (a
    run) holds an exclusive lock on ``PATH.lock`` until :meth:`close`, so that a second run on
    the same store fails with :class:`StoreBusyError` instead of storing the same units again
    (reading the store, as ``status`` does, needs no lock)."""

    def __init__(
        self, path: Path, spec: Spec, fresh: Union[bool, str] = False, lock: bool = False
    ) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = _lock(self.path) if lock else None
        try:
            self._open(spec, fresh)
        except BaseException:
            if hasattr(self, "db"):
                self.db.close()
            self._unlock()
            raise

    def _unlock(self) -> None:
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    def _open(self, spec: Spec, fresh: Union[bool, str]) -> None:
        path = self.path
        if fresh == "if-changed":
            try:
                Store(path, spec).close()
            except StoreMismatchError:
                fresh = True
            else:
                fresh = False
        elif fresh not in (True, False):
            raise ValueError(f"fresh must be True, False or 'if-changed', got {fresh!r}")
        if fresh:
            for suffix in ("", "-wal", "-shm", "-journal"):
                Path(str(self.path) + suffix).unlink(missing_ok=True)
        try:
            self.db = sqlite3.connect(str(self.path), timeout=30)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.executescript(SCHEMA)
        except sqlite3.DatabaseError as e:
            raise StoreMismatchError(
                f"{self.path} is not a study store ({e}): remove it, start afresh (--fresh / "
                "fresh=True) or set outputs.store to another file"
            ) from None
        meta = dict(self.db.execute("SELECT key, value FROM meta").fetchall())
        digest = spec.hash()
        if "spec_hash" not in meta:
            # New (or empty) store: it belongs to this spec from now on.
            has_units = self.db.execute("SELECT COUNT(*) FROM units").fetchone()[0]
            if has_units:
                raise StoreMismatchError(f"{self.path} holds results of an unknown spec")
            with self.db:
                self.db.executemany(
                    "INSERT INTO meta VALUES (?, ?)",
                    [
                        ("spec_hash", digest),
                        ("identity", json.dumps(spec.identity(), sort_keys=True)),
                        ("spec", json.dumps(spec.raw, sort_keys=True, default=str)),
                        ("created", str(time.time())),
                    ],
                )
        elif meta["spec_hash"] != digest:
            raise StoreMismatchError(
                f"the store {self.path} holds results of another version of study "
                f"{spec.name!r} ({_difference(json.loads(meta.get('identity', '{}')), spec.identity())}); "
                "results of different specs are never mixed. Run with --fresh (Python: fresh=True) "
                "to delete them and start again, or set outputs.store (or --store) to another file"
            )

    def close(self) -> None:
        self.db.close()
        self._unlock()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def add(self, cell: str, start: int, stop: int, unit: Mapping[str, Any], backend: str) -> bool:
        """Stores a finished unit and commits; ``False`` when it was already stored (a unit a
        retried task delivered twice)."""
        if int(unit["games"]) != stop - start:
            raise ValueError(f"unit {cell} {start}..{stop} returned {unit['games']} games")
        with self.db:
            cur = self.db.execute(
                "INSERT OR IGNORE INTO units VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    cell,
                    start,
                    stop,
                    int(unit["games"]),
                    json.dumps([int(w) for w in unit["wins"]]),
                    int(unit["unfinished"]),
                    int(unit["rolls_sum"]),
                    int(unit["captures_sum"]),
                    int(unit["points_sum"]),
                    json.dumps([[int(r), int(n)] for r, n in unit["rolls_hist"]]),
                    float(unit["seconds"]),
                    backend,
                    time.time(),
                ),
            )
        return cur.rowcount == 1

    def done_ranges(self) -> Dict[str, List[Tuple[int, int]]]:
        """The stored game ranges of every cell, sorted."""
        out: Dict[str, List[Tuple[int, int]]] = {}
        for cell, start, stop in self.db.execute(
            "SELECT cell, start, stop FROM units ORDER BY cell, start"
        ):
            out.setdefault(cell, []).append((start, stop))
        return out

    def units(self, cell: Optional[str] = None) -> Iterator[Dict[str, Any]]:
        """The stored units (of one cell), by cell and first game."""
        query = (
            "SELECT cell, start, stop, games, wins, unfinished, rolls_sum, captures_sum, "
            "points_sum, rolls_hist, seconds, backend FROM units"
        )
        args: Tuple[Any, ...] = ()
        if cell is not None:
            query += " WHERE cell = ?"
            args = (cell,)
        for row in self.db.execute(query + " ORDER BY cell, start", args):
            yield {
                "cell": row[0],
                "start": row[1],
                "stop": row[2],
                "games": row[3],
                "wins": json.loads(row[4]),
                "unfinished": row[5],
                "rolls_sum": row[6],
                "captures_sum": row[7],
                "points_sum": row[8],
                "rolls_hist": json.loads(row[9]),
                "seconds": row[10],
                "backend": row[11],
            }

    def games_done(self) -> int:
        return int(self.db.execute("SELECT COALESCE(SUM(games), 0) FROM units").fetchone()[0])


def missing_ranges(games: int, done: List[Tuple[int, int]]) -> List[Tuple[int, int]]:
    """The parts of ``0..games`` that no stored range covers (stored ranges never overlap:
    units are only made from missing ranges)."""
    out: List[Tuple[int, int]] = []
    at = 0
    for start, stop in sorted(done):
        if start > at:
            out.append((at, min(start, games)))
        at = max(at, stop)
    if at < games:
        out.append((at, games))
    return [(a, b) for a, b in out if b > a]


def _difference(old: Dict[str, Any], new: Dict[str, Any]) -> str:
    """What changed between two spec identities, briefly."""
    parts = []
    if old.get("pachisi") != new.get("pachisi"):
        parts.append(f"engine version {old.get('pachisi')} -> {new.get('pachisi')}")
    if old.get("seed") != new.get("seed"):
        parts.append(f"seed {old.get('seed')} -> {new.get('seed')}")
    before = {c["id"]: c for c in old.get("cells", [])}
    after = {c["id"]: c for c in new.get("cells", [])}
    added = [i for i in after if i not in before]
    removed = [i for i in before if i not in after]
    regames = [i for i in after if i in before and before[i]["games"] != after[i]["games"]]
    if added:
        parts.append(f"{len(added)} cells added")
    if removed:
        parts.append(f"{len(removed)} cells removed")
    if regames:
        c = regames[0]
        parts.append(
            f"games per cell changed in {len(regames)} cells ({before[c]['games']} -> "
            f"{after[c]['games']})"
        )
    return "; ".join(parts) or "the spec changed"
