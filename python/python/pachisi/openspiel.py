"""Every pachisi preset as an OpenSpiel game (``pip install "pachisi[openspiel]"``).

Importing this module registers ``pachisi_<preset>`` for each preset (dashes as underscores:
``pachisi_parcheesi``, ``pachisi_pachisi_family``, ``pachisi_backgammon``, ...), so
``pyspiel.load_game("pachisi_parcheesi")`` works and OpenSpiel's algorithms (MCTS, CFR-free
search, evaluation tools) run on it. Chance is explicit: chance action ``i`` is the ``i``-th roll
of the position's exact distribution (two dice: 21 rolls at 1/36 or 2/36; the backgammon
opening: 30 ordered rolls; cowries: 7 throws). Player actions use the ``step`` encoding by
default (parameter ``encoding``: ``step``, ``play``; backgammon also ``openspiel``). A game
longer than ``max_game_length`` decisions ends as a draw (all returns 0). Parameter ``options``
is a JSON object of rules options, e.g. ``pyspiel.load_game("pachisi_parcheesi",
{"options": '{"seats": 2}'})``; the presets of several seat counts also take OpenSpiel's
``players`` (``{"players": 2}``). The game string (``str(game)``, serialisation, pickling)
carries ``options`` with ``;`` between items, since OpenSpiel splits it at commas; ``options``
accepts that form too. Parameter ``observation`` (``plain`` by default, or
``features``: the ``td`` networks' input encoding, ``docs/RL.md``) chooses the observation
tensor. Games and states copy and serialise (pickle) exactly.
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

try:
    import pyspiel  # type: ignore[import-not-found]
except ImportError as e:  # pragma: no cover - exercised without the extra
    import sys

    # The extra installs nothing before Python 3.11 (open_spiel's wheels need 3.11).
    if sys.version_info < (3, 11):
        raise ImportError(
            "pachisi.openspiel needs OpenSpiel, whose wheels need Python >= 3.11 (this is "
            f"{sys.version_info[0]}.{sys.version_info[1]}, where pip install "
            "'pachisi[openspiel]' installs nothing): use Python 3.11 or later, or build "
            "open_spiel from source"
        ) from e
    raise ImportError("pachisi.openspiel needs OpenSpiel: pip install 'pachisi[openspiel]'") from e

from ._native import InvalidJsonError, InvalidRulesError, PachisiError, RlGame, Rules, variants

__all__ = ["game_name", "registered_games"]

_MAX_GAME_LENGTH = 20000


def game_name(preset: str) -> str:
    """The registered OpenSpiel name of a preset."""
    return "pachisi_" + preset.replace("-", "_")


def _max_chance(preset: str) -> int:
    return {"backgammon": 30, "pachisi": 7}.get(preset, 21)


def _utility(rl: RlGame) -> Tuple[float, float]:
    """The least and the most a seat's return can be. A winner gets the points won (1;
    backgammon: 1, 2 with gammons, 3 with backgammons, times the largest cube), each loser minus
    the winners' points shared among the losers, and the winners are one seat or one team (the
    ``partners`` view of the observation: the observer's team)."""
    top = 1.0
    if rl.variant == "backgammon":
        rules = json.loads(rl.rules_json)
        cube = rules.get("max_cube", 64) if rules.get("cube", False) else 1
        top = (3.0 if rules.get("backgammons") else 2.0 if rules.get("gammons") else 1.0) * cube
    n = rl.num_players
    off, shape = next((off, shape) for name, off, shape in rl.views() if name == "partners")
    team = int(rl.observation(0)[off : off + int(np.prod(shape))].sum())
    return -top * team / (n - team), top


class _Observer:
    """OpenSpiel's observer protocol: ``tensor`` (flat float32), ``dict`` (named views)."""

    def __init__(self, probe: RlGame) -> None:
        self.tensor = np.zeros(probe.observation_size, np.float32)
        self.dict = {
            name: self.tensor[off : off + int(np.prod(shape))].reshape(shape)
            for name, off, shape in probe.views()
        }

    def set_from(self, state: "_State", player: int) -> None:
        self.tensor[:] = state._rl.observation(player)

    def string_from(self, state: "_State", player: int) -> str:
        return f"seat {player}: {state._rl.position()}"


class _State(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: Any, rl: RlGame) -> None:
        super().__init__(game)
        self._rl = rl
        self._max_len = game._max_len

    def _over(self) -> bool:
        return bool(self._rl.is_over() or self._rl.decisions >= self._max_len)

    def current_player(self) -> int:
        if self._over():
            return int(pyspiel.PlayerId.TERMINAL)
        if self._rl.node() == "chance":
            return int(pyspiel.PlayerId.CHANCE)
        return int(self._rl.current_player())

    def _legal_actions(self, player: int) -> List[int]:
        return list(self._rl.legal_actions())

    def chance_outcomes(self) -> List[Tuple[int, float]]:
        return [(i, p) for i, (_, p) in enumerate(self._rl.chance_outcomes())]

    def _apply_action(self, action: int) -> None:
        if self._rl.node() == "chance":
            self._rl.apply_roll(self._rl.chance_outcomes()[action][0])
        else:
            self._rl.apply_action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            roll = self._rl.chance_outcomes()[action][0]
            return f"roll {roll}"
        return str(self._rl.action_to_string(action))

    def is_terminal(self) -> bool:
        return self._over()

    def returns(self) -> List[float]:
        if self._rl.is_over():
            return [float(r) for r in self._rl.returns()]
        return [0.0] * self._rl.num_players

    def __str__(self) -> str:
        return str(self._rl.position())


def _options_text(options: Dict[str, Any]) -> str:
    """``options`` as the game parameter carries it: JSON with ``;`` between items instead of
    ``,``, because OpenSpiel's game strings (``str(game)``, serialisation, pickling) separate
    parameters with commas and have no quoting."""
    text = json.dumps(options, sort_keys=True, separators=(",", ":"))
    return _swap_outside_strings(text, ",", ";")


def _swap_outside_strings(text: str, old: str, new: str) -> str:
    """``text`` with the character ``old`` replaced by ``new`` outside JSON strings."""
    out, in_string, escaped = [], False, False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch == old:
            ch = new
        out.append(ch)
    return "".join(out)


def _parse_options(text: str) -> Dict[str, Any]:
    """The ``options`` game parameter: a JSON object, or the same with ``;`` between items (the
    form the game string carries, see :func:`_options_text`)."""
    try:
        options = json.loads(text)
    except json.JSONDecodeError as e:
        try:
            options = json.loads(_swap_outside_strings(text, ";", ","))
        except json.JSONDecodeError:
            raise InvalidJsonError(f"invalid JSON: game parameter `options`: {e}") from None
    if not isinstance(options, dict):
        raise InvalidJsonError(
            "invalid JSON: game parameter `options` must be a JSON object of rules options"
        )
    return options


def _seat_counts(preset: str) -> List[int]:
    """The seat counts the preset's rules accept (its default alone when it has no ``seats``)."""
    default = RlGame(preset, "step", 0, False).num_players
    if "seats" not in Rules(preset).options:
        return [default]
    counts = []
    for n in range(2, 5):
        try:
            Rules(preset, seats=n)
        except PachisiError:
            continue
        counts.append(n)
    return counts


def _make(preset: str) -> Tuple[Any, type]:
    probe = RlGame(preset, "step", 0, False)
    seats = probe.num_players
    counts = _seat_counts(preset)
    spec: Dict[str, Any] = {
        "options": "{}",
        "encoding": "step",
        "max_game_length": _MAX_GAME_LENGTH,
        "observation": "plain",
    }
    if len(counts) > 1:
        # OpenSpiel's parameter for the number of players of a game that allows several.
        spec["players"] = seats
    game_type = pyspiel.GameType(
        short_name=game_name(preset),
        long_name=f"pachisi {preset}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(counts),
        min_num_players=min(counts),
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=spec,
    )

    def settings(params: Dict[str, Any]) -> Tuple[RlGame, int, Any, Dict[str, Any]]:
        """The game of ``params``, its length limit, its GameInfo, and the parameters as the
        game string carries them."""
        params = dict(params)
        options = _parse_options(params.get("options", "{}"))
        # `players` sets the seats; a `seats` option overrides its default (OpenSpiel passes
        # the defaults of the parameters not given), but not another value.
        players = int(params.get("players", seats))
        if players != seats or "seats" not in options:
            if "players" in spec and options.setdefault("seats", players) != players:
                raise InvalidRulesError(
                    f"invalid rules: game parameter `players` ({players}) and the option "
                    f"`seats` ({options['seats']}) disagree"
                )
        encoding = params.get("encoding", "step")
        max_len = int(params.get("max_game_length", _MAX_GAME_LENGTH))
        observation = params.get("observation", "plain")
        rl = RlGame(preset, encoding, 0, False, observation=observation, **options)
        low, top = _utility(rl)
        n = rl.num_players
        info = pyspiel.GameInfo(
            num_distinct_actions=rl.num_actions,
            max_chance_outcomes=_max_chance(preset),
            num_players=n,
            min_utility=low,
            max_utility=top,
            utility_sum=0.0,
            max_game_length=max_len,
        )
        # The game string carries the options in a form OpenSpiel can read back, and the
        # seats as `players` (so that a default `players` never contradicts them).
        if "players" in spec:
            params["players"] = n
            options.pop("seats", None)
        params["options"] = _options_text(options)
        return rl, max_len, info, params

    class _Game(pyspiel.Game):  # type: ignore[misc]
        def __init__(self, params: Optional[Dict[str, Any]] = None) -> None:
            rl, max_len, info, params = settings(params or {})
            super().__init__(game_type, info, params)
            self._max_len = max_len
            # Never played: each new state is a copy of it (a copy shares the `features`
            # observation's scales instead of measuring them again).
            self._proto = rl

        def __getattr__(self, name: str) -> Any:
            # An unpickled game is made again from its game string without running __init__
            # on it: its attributes come back from its parameters.
            if name not in ("_proto", "_max_len"):
                raise AttributeError(name)
            self._proto, self._max_len, _, _ = settings(self.get_parameters())
            return getattr(self, name)

        def new_initial_state(self) -> _State:
            return _State(self, self._proto.clone())

        def make_py_observer(
            self, iig_obs_type: Any = None, params: Optional[Dict[str, Any]] = None
        ) -> _Observer:
            return _Observer(self._proto)

    # A module-level name, so that games pickle (OpenSpiel pickles a game by its class).
    _Game.__name__ = _Game.__qualname__ = f"PachisiGame_{preset.replace('-', '_')}"
    return game_type, _Game


def registered_games() -> List[str]:
    """The OpenSpiel names this module registered."""
    return [game_name(p) for p in variants()]


for _preset in variants():
    if game_name(_preset) not in pyspiel.registered_names():
        _type, _cls = _make(_preset)
        globals()[_cls.__name__] = _cls
        pyspiel.register_game(_type, _cls)
