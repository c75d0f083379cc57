"""The Ray backend of studies: the same table as the local backend, on a local Ray with two CPUs
(part of `make test`), and on a simulated two-node cluster that loses a worker process and then
a whole node mid-study (`make test-ray`, which sets PACHISI_RAY_TESTS=1: Ray clusters are slow
to start)."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any, Dict, List

import pytest

import pachisi

ray = pytest.importorskip("ray")
slow = pytest.mark.skipif(
    os.environ.get("PACHISI_RAY_TESTS") != "1",
    reason="Ray cluster tests run with `make test-ray` (PACHISI_RAY_TESTS=1)",
)


def spec(tmp: Path, games: int = 2000) -> Dict[str, Any]:
    return {
        "study": {"name": "ray", "seed": 3, "games": games},
        "variants": [
            {"preset": "parcheesi", "seats": [2, 4]},
            {"preset": "backgammon"},
        ],
        "lineups": [
            {"name": "random", "players": "random"},
            {"name": "greedy", "players": "greedy", "games": 60},
        ],
        "outputs": {"dir": str(tmp), "plot": False},
    }


def local_rows(tmp: Path, games: int = 2000) -> List[Dict[str, Any]]:
    return pachisi.study(spec(tmp / "local", games)).table.to_dicts()


def test_ray_local_two_cpus_matches_local(tmp_path: Path) -> None:
    expected = local_rows(tmp_path)
    hosts: List[str] = []
    r = pachisi.study(spec(tmp_path / "ray"), backend="ray", num_cpus=2, chunk=250,
                      on_unit=lambda cell, a, b, res: hosts.append(res["host"]))
    assert not ray.is_initialized()  # the study started Ray, and shut it down
    assert r.table.to_dicts() == expected
    assert len(hosts) == 3 * 8 + 3  # 2000 / 250 per random cell, one unit per greedy cell


@slow
def test_cluster_loses_a_worker_and_a_node(tmp_path: Path) -> None:
    from ray.cluster_utils import Cluster

    expected = local_rows(tmp_path, games=6000)
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    second = cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    ray.init(address=cluster.address, include_dashboard=False, log_to_driver=False)
    events: List[str] = []
    try:
        def chaos(cell: Any, start: int, stop: int, result: Dict[str, Any]) -> None:
            # After the 3rd unit: SIGKILL a worker process (it is running the next unit now);
            # after the 10th: the second node goes away with whatever it was running.
            n = len(events)
            events.append(f"{result['host']}:{result['pid']}")
            if n == 2:
                os.kill(int(result["pid"]), signal.SIGKILL)
            if n == 9:
                cluster.remove_node(second)

        r = pachisi.study(spec(tmp_path / "ray", games=6000), backend="ray", chunk=200,
                          on_unit=chaos)
        assert len(events) >= 10
        assert r.table.to_dicts() == expected
        assert r.games_played == r.spec.total_games
    finally:
        ray.shutdown()
        cluster.shutdown()


@slow
def test_ray_interrupted_then_resumed_locally(tmp_path: Path) -> None:
    """Half a study on Ray, the rest on the local backend: one table."""
    expected = local_rows(tmp_path)

    class Stop(Exception):
        pass

    seen = []

    def stop(*_: Any) -> None:
        seen.append(1)
        if len(seen) == 6:
            raise Stop()

    with pytest.raises(Stop):
        pachisi.study(spec(tmp_path / "mixed"), backend="ray", num_cpus=2, chunk=300,
                      on_unit=stop)
    assert not ray.is_initialized()
    r = pachisi.study(spec(tmp_path / "mixed"), backend="local")
    assert r.games_resumed > 0 and r.table.to_dicts() == expected
