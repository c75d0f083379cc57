"""Gymnasium environments of every pachisi preset (``pip install "pachisi[rl]"``).

* :class:`PachisiEnv`: one seat of a game against fixed opponents (any pachisi player spec:
  ``"random"``, ``"greedy"``, ``"mcts:iterations=200"``); observation ``float32[D]`` from the
  agent's seat, action ``Discrete(A)`` of the chosen encoding, ``info["action_mask"]`` and
  ``action_masks()`` for maskable algorithms; reward the agent's return at the end. An illegal
  action ends the episode with reward ``illegal_reward`` (so ``action_space.sample()`` is safe).
  ``observation="features"`` observes the ``td`` networks' input encoding instead of the plain
  observation (``docs/RL.md``).
* :class:`PachisiVectorEnv`: :class:`pachisi.VecEnv` as a ``gymnasium.vector.VectorEnv``
  (every seat played by the caller, self-play); the reward is that of the seat that acted,
  all seats' rewards in ``info["rewards"]``; same-step autoreset; ``observation`` as above.
  ``reset(seed=s)`` seeds game ``i`` with ``s + i``; ``reset()`` without a seed goes on to new
  games (seeds ``s + N + i``, then ``s + 2N + i``, ...; at first the constructor's ``seed``);
  a list of seeds is refused (``InvalidArgumentError``). A step whose games end gives
  ``info["final_obs"]`` and ``info["final_info"]`` (``{"rewards": ..., "_rewards": ...}``) with
  their masks ``info["_final_obs"]`` and ``info["_final_info"]`` (the keys are there at every
  step, the masks all false when no game ended); actions must be integers.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

try:
    import gymnasium as gym
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode
    from gymnasium.vector.utils import batch_space
except ImportError as e:  # pragma: no cover - exercised without the extra
    raise ImportError("pachisi.gymnasium needs Gymnasium: pip install 'pachisi[rl]'") from e

from ._native import InvalidArgumentError, InvalidPlayerError, RlGame, VecEnv
from ._adapter_checks import check_max_decisions, check_render_mode

__all__ = ["PachisiEnv", "PachisiVectorEnv"]


class PachisiEnv(gym.Env):  # type: ignore[misc]
    """One seat of ``preset`` against fixed opponents."""

    metadata = {"render_modes": ["ansi", "human"]}

    def __init__(
        self,
        preset: str = "parcheesi",
        opponents: Union[str, Sequence[str]] = "random",
        seat: int = 0,
        encoding: str = "step",
        max_decisions: int = 20000,
        illegal_reward: float = -1.0,
        render_mode: Optional[str] = None,
        observation: str = "plain",
        **options: Any,
    ) -> None:
        check_render_mode(render_mode, self.metadata["render_modes"])
        # Each episode starts from a copy of this game (a copy shares the `features`
        # observation's scales instead of measuring them again).
        self._proto = RlGame(preset, encoding, 0, True, observation=observation, **options)
        self._game = self._proto.clone()
        n = self._game.num_players
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)):
            raise TypeError(f"`seat` must be an int, got {type(seat).__name__}")
        seat = int(seat)
        if not 0 <= seat < n:
            raise InvalidPlayerError(f"invalid player: seat must be in 0..{n - 1}, got {seat}")
        specs: List[Optional[str]] = (
            [opponents] * n if isinstance(opponents, str) else list(opponents)
        )
        if len(specs) == n - 1:
            specs.insert(seat, None)
        if len(specs) != n:
            raise InvalidPlayerError(
                f"invalid player: give one opponent spec, or one per other seat ({n - 1})"
            )
        specs[seat] = None
        # Checked now (a bad spec would otherwise fail only at the first reset).
        self._proto.clone().set_opponents(specs, 0)
        self._specs = specs
        self.seat = seat
        self._max_decisions = check_max_decisions(max_decisions)
        self._illegal_reward = illegal_reward
        # Set when an illegal action ended the episode (the game itself could go on): no action
        # is legal until the next reset.
        self._ended = False
        self.render_mode = render_mode
        self.observation_space = spaces.Box(
            -np.inf, np.inf, (self._game.observation_size,), np.float32
        )
        self.action_space = spaces.Discrete(self._game.num_actions)

    def _opponents_play(self) -> None:
        g = self._game
        while not g.is_over() and g.current_player() != self.seat:
            if g.decisions >= self._max_decisions:
                return
            g.play_opponent()

    def _obs_info(self) -> Tuple[np.ndarray, Dict[str, Any]]:
        return self._game.observation(self.seat), {"action_mask": self.action_masks()}

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict] = None
    ) -> Tuple[np.ndarray, Dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**63 - 1))
        self._game = self._proto.clone()
        self._ended = False
        self._game.reset(game_seed)
        self._game.set_opponents(self._specs, game_seed)
        self._opponents_play()
        if self.render_mode == "human":
            self.render()
        return self._obs_info()

    def step(self, action: Any) -> Tuple[np.ndarray, float, bool, bool, Dict[str, Any]]:
        g = self._game
        a = int(action)
        if not (0 <= a < g.num_actions and bool(self.action_masks()[a])):
            self._ended = True
            obs, info = self._obs_info()
            info["illegal_action"] = True
            return obs, float(self._illegal_reward), True, False, info
        g.apply_action(a)
        self._opponents_play()
        # A game cut short by the rules' `max_rolls` is over without a winner: truncated.
        cut = g.is_truncated()
        terminated = g.is_over() and not cut
        reward = float(g.returns()[self.seat]) if terminated else 0.0
        truncated = cut or (not terminated and g.decisions >= self._max_decisions)
        obs, info = self._obs_info()
        if self.render_mode == "human":
            self.render()
        return obs, reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The legal actions of the agent now (all false once the episode is over: the game
        ended, or an illegal action ended the episode)."""
        g = self._game
        if self._ended or g.is_over() or g.current_player() != self.seat:
            return np.zeros(g.num_actions, dtype=bool)
        return np.asarray(g.action_mask(), dtype=bool)

    def render(self) -> Optional[str]:
        """The position as text (``render_mode="ansi"``, or no render mode); printed, and
        ``None`` returned, with ``render_mode="human"`` (which also prints after each
        ``reset`` and ``step``)."""
        text = str(self._game.position())
        if self.render_mode == "human":
            print(text)
            return None
        return text


class PachisiVectorEnv(gym.vector.VectorEnv):  # type: ignore[misc]
    """:class:`pachisi.VecEnv` behind Gymnasium's vector API (self-play, same-step autoreset)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self,
        preset: str = "parcheesi",
        num_envs: int = 8,
        seed: int = 0,
        encoding: str = "step",
        max_decisions: Optional[int] = 20000,
        observation: str = "plain",
        **options: Any,
    ) -> None:
        self._env = VecEnv(
            preset, num_envs, seed, encoding, max_decisions, observation=observation, **options
        )
        self.num_envs = num_envs
        # The base seed of the next reset without a seed (game i gets base + i).
        self._next_seed = seed
        self.single_observation_space = spaces.Box(
            -np.inf, np.inf, (self._env.observation_size,), np.float32
        )
        self.single_action_space = spaces.Discrete(self._env.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict] = None
    ) -> Tuple[np.ndarray, Dict[str, Any]]:
        # Without a seed, go on to new games (the next num_envs seeds) rather than replay the
        # last reset's: reproducible from the last seed given, never the same games again.
        if seed is not None and (
            isinstance(seed, bool) or not isinstance(seed, (int, np.integer))
        ):
            # Gymnasium also allows one seed per sub-environment; here game i is always
            # seeded `seed + i`, so only a single int can say what the games are.
            raise InvalidArgumentError(
                "invalid argument: PachisiVectorEnv.reset takes one int seed (game i is "
                f"seeded seed + i), got {type(seed).__name__}"
            )
        base = self._next_seed if seed is None else int(seed)
        obs, info = self._env.reset(base)
        self._next_seed = (base + self.num_envs) % 2**64
        return obs.copy(), _copy_info(info)

    def step(
        self, actions: Any
    ) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, Dict[str, Any]]:
        # The seat each game's action is for: its reward is this step's reward.
        before = np.array(self._env.current_players(), dtype=np.int64)
        chosen = np.asarray(actions)
        if chosen.dtype.kind not in "iu":
            # As VecEnv.step: a float id is refused rather than truncated to another action.
            raise TypeError(f"actions must be integers, got an array of {chosen.dtype}")
        obs, rewards, term, trunc, info = self._env.step(chosen.astype(np.int64, copy=False))
        info = _copy_info(info)
        info["rewards"] = rewards.copy()
        if "final_obs" in info:
            # Same-step autoreset as Gymnasium defines it: the ended games' last info too
            # (their rewards, all seats), in the vector-info form with its `_` mask.
            ended = info["_final_obs"].copy()
            info["final_info"] = {"rewards": rewards.copy(), "_rewards": ended.copy()}
            info["_final_info"] = ended
        mine = rewards[np.arange(self.num_envs), before].copy()
        return obs.copy(), mine, term.copy(), trunc.copy(), info

    def action_masks(self) -> np.ndarray:
        """``bool[num_envs, A]``: the legal actions of each game's seat to act."""
        return np.array(self._env.action_masks(), dtype=bool)


def _copy_info(info: Dict[str, Any]) -> Dict[str, Any]:
    return {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in info.items()}
