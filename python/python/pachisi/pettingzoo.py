"""PettingZoo AEC environments of every pachisi preset (``pip install "pachisi[rl]"``).

``pachisi.pettingzoo.env("parcheesi", seats=2)`` is an AEC environment: agents ``player_0`` ..,
each observation a dict ``{"observation": float32[D], "action_mask": int8[A]}`` (the mask is
all zeros for an agent whose turn it is not), actions ``Discrete(A)`` of the chosen encoding
(``"step"`` by default, see ``docs/RL.md``). Chance is resolved inside ``step``: the environment
rolls for the players with its own generator seeded by ``reset(seed)``. Rewards are the zero-sum
returns at the end; a game longer than ``max_decisions`` is truncated. ``observation="features"``
observes the ``td`` networks' input encoding instead of the plain observation (``docs/RL.md``).
"""

from __future__ import annotations

from typing import Any, Dict, Optional

import numpy as np

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv  # type: ignore[import-untyped]
    from pettingzoo.utils import wrappers  # type: ignore[import-untyped]
except ImportError as e:  # pragma: no cover - exercised without the extra
    raise ImportError(
        "pachisi.pettingzoo needs PettingZoo and Gymnasium: pip install 'pachisi[rl]'"
    ) from e

from ._native import RlGame
from ._adapter_checks import check_max_decisions, check_render_mode

__all__ = ["env", "raw_env"]

_RENDER_MODES = ["ansi", "human"]


class raw_env(AECEnv):  # type: ignore[misc]
    """The AEC environment without PettingZoo's checking wrappers (see :func:`env`)."""

    metadata = {
        "render_modes": _RENDER_MODES,
        "name": "pachisi_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        preset: str = "parcheesi",
        encoding: str = "step",
        max_decisions: int = 20000,
        render_mode: Optional[str] = None,
        observation: str = "plain",
        **options: Any,
    ) -> None:
        super().__init__()
        check_render_mode(render_mode, _RENDER_MODES)
        self._max_decisions = check_max_decisions(max_decisions)
        self.render_mode = render_mode
        # Each reset starts from a copy of this game (a copy shares the `features` observation's
        # scales instead of measuring them again).
        self._proto = RlGame(preset, encoding, 0, True, observation=observation, **options)
        self._game = self._proto.clone()
        n, d, a = self._game.num_players, self._game.observation_size, self._game.num_actions
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agents = self.possible_agents[:]
        self.observation_spaces = {
            ag: spaces.Dict(
                {
                    "observation": spaces.Box(-np.inf, np.inf, (d,), np.float32),
                    "action_mask": spaces.Box(0, 1, (a,), np.int8),
                }
            )
            for ag in self.possible_agents
        }
        self.action_spaces = {ag: spaces.Discrete(a) for ag in self.possible_agents}
        self.metadata = dict(self.metadata, name=f"pachisi_{preset.replace('-', '_')}_v0")

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        seat = self._seat(agent)
        obs = self._game.observation(seat)
        mask = np.zeros(self._game.num_actions, np.int8)
        done = self.terminations.get(agent, False) or self.truncations.get(agent, False)
        if not done and not self._game.is_over() and self._game.current_player() == seat:
            mask = self._game.action_mask().astype(np.int8)
        return {"observation": obs, "action_mask": mask}

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        if seed is None:
            seed = int(np.random.default_rng().integers(0, 2**63 - 1))
        self._game = self._proto.clone()
        self._game.reset(int(seed))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: Dict[str, Dict[str, Any]] = {ag: {} for ag in self.agents}
        self.agent_selection = self.possible_agents[self._game.current_player()]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._game.apply_action(int(action))
        if self._game.is_truncated():
            # Cut short by the rules' `max_rolls`: over without a winner.
            self.truncations = dict.fromkeys(self.agents, True)
        elif self._game.is_over():
            for ag, r in zip(self.possible_agents, self._game.returns()):
                self.rewards[ag] = float(r)
            self.terminations = dict.fromkeys(self.agents, True)
        elif self._game.decisions >= self._max_decisions:
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[self._game.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Optional[str]:
        """The position as text (``render_mode="ansi"``, or no render mode); printed, and
        ``None`` returned, with ``render_mode="human"`` (which also prints after each step)."""
        text = str(self._game.position())
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def env(preset: str = "parcheesi", **options: Any) -> AECEnv:
    """The AEC environment of ``preset`` with PettingZoo's usual wrappers: an illegal action ends
    the game with a penalty for the agent that made it, out-of-range actions are refused, and the
    call order is enforced. Keyword options: ``encoding``, ``max_decisions``, ``render_mode``,
    ``observation`` and any rules option (``seats=2``)."""
    e: AECEnv = raw_env(preset, **options)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e
