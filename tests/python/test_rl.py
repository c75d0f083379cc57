"""The RL fronts: VecEnv and RlGame (no extras), then the Gymnasium, PettingZoo and OpenSpiel
adapters under their ecosystems' own checkers (skipped when the extra is not installed)."""

import copy
import json
import pickle

import numpy as np
import pytest

import pachisi


def random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(row)) for row in mask], dtype=np.int64)


@pytest.mark.parametrize("preset", pachisi.variants())
def test_vec_env_shapes_and_autoreset(preset):
    env = pachisi.VecEnv(preset, 4, seed=3, max_decisions=300)
    obs, info = env.reset()
    n, d, a, p = 4, env.observation_size, env.num_actions, env.num_players
    assert obs.shape == (n, d) and obs.dtype == np.float32
    assert info["action_mask"].shape == (n, a) and info["action_mask"].dtype == np.bool_
    assert info["current_player"].dtype == np.int32
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(400):
        obs, rew, term, trunc, info = env.step(random_actions(info["action_mask"], rng))
        assert rew.shape == (n, p)
        assert np.allclose(rew.sum(axis=1), 0, atol=1e-5)
        ended += int(term.sum() + trunc.sum())
        assert info["_final_obs"].tolist() == (term | trunc).tolist()
    assert ended > 0


def test_vec_env_is_seeded_and_refuses_illegal_actions():
    def run(seed):
        env = pachisi.VecEnv("parcheesi", 3, seed=seed, seats=2)
        obs, info = env.reset()
        rng = np.random.default_rng(1)
        for _ in range(50):
            obs, _, _, _, info = env.step(random_actions(info["action_mask"], rng))
        return obs.copy()

    assert np.array_equal(run(5), run(5))
    assert not np.array_equal(run(5), run(6))
    env = pachisi.VecEnv("backgammon", 2, cube=False)
    obs, info = env.reset()
    before = obs.copy()
    bad = np.array([np.flatnonzero(~m)[0] for m in info["action_mask"]])
    with pytest.raises(pachisi.IllegalMoveError, match="environment 0"):
        env.step(bad)
    assert np.array_equal(env.reset(seed=0)[0], before)
    with pytest.raises(pachisi.InvalidRulesError):
        pachisi.VecEnv("parcheesi", 2, encoding="openspiel")


def test_vec_env_reset_with_a_seed_restarts_random_actions():
    # reset(seed) gives the trajectory of a new VecEnv of that seed, random actions included,
    # whatever the environment played before.
    def trajectory(env, seed):
        obs, _ = env.reset(seed)
        seen = [obs.copy()]
        for _ in range(40):
            obs, *_ = env.step(env.random_actions())
            seen.append(obs.copy())
        return np.stack(seen)

    expected = trajectory(pachisi.VecEnv("parcheesi", 4, seed=5, seats=2), None)
    env = pachisi.VecEnv("parcheesi", 4, seed=0, seats=2)
    trajectory(env, None)
    assert np.array_equal(trajectory(env, 5), expected)


def test_rl_game_copies_and_pickles_mid_play():
    g = pachisi.RlGame("backgammon", "step", 4, cube=False)
    rng = np.random.default_rng(2)
    for _ in range(7):
        g.apply_action(int(rng.choice(g.legal_actions())))
    for c in (copy.deepcopy(g), pickle.loads(pickle.dumps(g)), g.clone()):
        assert c.state_json() == g.state_json()
        assert c.legal_actions() == g.legal_actions()
        assert np.array_equal(c.observation(0), g.observation(0))
    names = [v[0] for v in g.views()]
    assert {"occupancy", "dice", "values_left", "cube_owner"} <= set(names)


def test_rl_game_explicit_chance_has_exact_probabilities():
    for preset in pachisi.variants():
        g = pachisi.RlGame(preset, "step", 0, auto_chance=False)
        assert g.node() == "chance"
        outcomes = g.chance_outcomes()
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-12
        g.apply_roll(outcomes[0][0])
        assert g.node() in ("decision", "chance")


FEATURES_HEAD = ["occupancy_units", "nest_share", "home_share", "features"]


@pytest.mark.parametrize("preset", pachisi.variants())
def test_features_observation_shape_and_views(preset):
    env = pachisi.VecEnv(preset, 3, seed=1, max_decisions=300, observation="features")
    plain = pachisi.VecEnv(preset, 3, seed=1, max_decisions=300)
    assert (env.observation_kind, plain.observation_kind) == ("features", "plain")
    views = env.views()
    assert [v[0] for v in views[:4]] == FEATURES_HEAD
    assert plain.views()[0][0] == "occupancy"
    d = env.observation_size
    assert d != plain.observation_size
    assert sum(int(np.prod(shape)) for _, _, shape in views) == d
    assert views[-1][1] + int(np.prod(views[-1][2])) == d
    # The tail is the plain observation's, from `safe` on.
    assert [v[0] for v in views[4:]] == [v[0] for v in plain.views()][3:]
    units = views[0]
    game = pachisi.RlGame(preset, observation="features")
    assert game.observation_kind == "features"
    assert game.views() == views and game.observation_size == d
    assert pachisi.RlGame(preset).views() == plain.views()
    obs, info = env.reset()
    assert obs.shape == (3, d) and obs.dtype == np.float32
    rng = np.random.default_rng(0)
    for _ in range(60):
        assert np.isfinite(obs).all()
        occ = obs[:, units[1] : units[1] + int(np.prod(units[2]))].reshape((3,) + units[2])
        assert set(np.unique(occ[..., :3])) <= {0.0, 1.0}
        for i in range(3):
            g = env.game(i)
            assert np.array_equal(g.observation(), obs[i])
        obs, _, _, _, info = env.step(random_actions(info["action_mask"], rng))


def test_features_observation_copies_pickles_and_refuses_unknown_names():
    g = pachisi.RlGame("backgammon", "step", 4, observation="features", cube=False)
    rng = np.random.default_rng(2)
    for _ in range(7):
        g.apply_action(int(rng.choice(g.legal_actions())))
    for c in (copy.deepcopy(g), pickle.loads(pickle.dumps(g)), g.clone()):
        assert c.observation_kind == "features"
        assert c.state_json() == g.state_json()
        assert np.array_equal(c.observation(0), g.observation(0))
    assert "observation='features'" in repr(g).replace('"', "'")
    plain = pachisi.RlGame("backgammon", "step", 4, cube=False)
    assert pickle.loads(pickle.dumps(plain)).observation_kind == "plain"
    with pytest.raises(pachisi.InvalidRulesError, match="`plain` or `features`"):
        pachisi.VecEnv("parcheesi", 2, observation="raw")
    with pytest.raises(pachisi.InvalidRulesError, match="`plain` or `features`"):
        pachisi.RlGame("parcheesi", observation="observation")


def test_gymnasium_and_pettingzoo_forward_the_observation():
    pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    from pachisi.gymnasium import PachisiEnv, PachisiVectorEnv

    d = pachisi.RlGame("parcheesi", observation="features", seats=2).observation_size
    env = PachisiEnv("parcheesi", observation="features", seats=2)
    check_env(env, skip_render_check=True)
    obs, _ = env.reset(seed=3)
    assert obs.shape == (d,) == env.observation_space.shape
    venv = PachisiVectorEnv("parcheesi", num_envs=2, observation="features", seats=2)
    assert venv.single_observation_space.shape == (d,)
    assert venv.reset()[0].shape == (2, d)
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    import pachisi.pettingzoo as pz

    aec = pz.env("parcheesi", observation="features", seats=2)
    api_test(aec, num_cycles=100)
    aec.reset(seed=1)
    assert aec.observe(aec.agent_selection)["observation"].shape == (d,)


def test_gymnasium_env_passes_check_env():
    gym = pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    from pachisi.gymnasium import PachisiEnv, PachisiVectorEnv

    for preset, opts in [("parcheesi", {"seats": 2}), ("backgammon", {"cube": False})]:
        env = PachisiEnv(preset, opponents="random", **opts)
        check_env(env, skip_render_check=True)
        obs, info = env.reset(seed=1)
        total, done = 0.0, False
        rng = np.random.default_rng(0)
        while not done:
            a = int(rng.choice(np.flatnonzero(env.action_masks())))
            obs, r, term, trunc, info = env.step(a)
            total += r
            done = term or trunc
        assert total in (-1.0, 1.0) or preset == "backgammon"
    venv = PachisiVectorEnv("pachisi-family", num_envs=3, seed=0)
    obs, info = venv.reset()
    assert obs.shape == (3,) + venv.single_observation_space.shape
    obs, r, term, trunc, info = venv.step(random_actions(venv.action_masks(), np.random.default_rng(0)))
    assert r.shape == (3,) and info["rewards"].shape == (3, 4)
    assert isinstance(venv, gym.vector.VectorEnv)


def test_gymnasium_vector_env_reset_without_seed_plays_new_games():
    pytest.importorskip("gymnasium")
    from pachisi.gymnasium import PachisiVectorEnv

    def games(venv, seed=None):
        # The games after the reset, generators included.
        venv.reset(seed=seed)
        return [venv._env.game(i).state_json() for i in range(venv.num_envs)]

    def vec_games(seed):
        env = pachisi.VecEnv("backgammon", 2, seed=seed, cube=False)
        return [env.game(i).state_json() for i in range(2)]

    venv = PachisiVectorEnv("backgammon", num_envs=2, seed=3, cube=False)
    # At first the constructor's seed: game i is seeded 3 + i.
    assert games(venv) == vec_games(3)
    # Then new games each time (the next seeds), reproducibly from the last seed given.
    seeded = games(venv, 11)
    after = [games(venv) for _ in range(3)]
    assert seeded == vec_games(11)
    assert after == [vec_games(13), vec_games(15), vec_games(17)]
    assert games(venv, 11) == seeded and games(venv) == after[0]


def test_gymnasium_vector_env_final_info_seeds_and_action_types():
    pytest.importorskip("gymnasium")
    from pachisi.gymnasium import PachisiVectorEnv

    venv = PachisiVectorEnv("parcheesi", num_envs=3, seed=0, max_decisions=40, seats=2)
    obs, info = venv.reset()
    rng = np.random.default_rng(0)
    seen_end = False
    for _ in range(200):
        obs, r, term, trunc, info = venv.step(random_actions(venv.action_masks(), rng))
        ended = term | trunc
        seen_end = seen_end or bool(ended.any())
        # Same-step autoreset: the ended games' last observation and info, masked (the keys
        # are there at every step, as VecEnv's final_obs, with the mask all false when no
        # game ended).
        assert info["_final_obs"].tolist() == ended.tolist()
        assert info["_final_info"].tolist() == ended.tolist()
        fin = info["final_info"]
        assert fin["_rewards"].tolist() == ended.tolist()
        assert fin["rewards"].shape == (3, 2)
        assert np.allclose(fin["rewards"], info["rewards"])
    assert seen_end
    # One int seed; a list per game is refused clearly rather than as a TypeError inside.
    with pytest.raises(pachisi.InvalidArgumentError, match="one int seed"):
        venv.reset(seed=[1, 2, 3])
    # A float action is refused, not truncated to another id.
    mask = venv.action_masks()
    with pytest.raises(TypeError, match="integers"):
        venv.step(random_actions(mask, rng).astype(np.float64) + 0.5)


def test_gymnasium_env_seat_type_and_illegal_action_end_the_episode():
    pytest.importorskip("gymnasium")
    from pachisi.gymnasium import PachisiEnv

    for bad in (1.5, "0", True):
        with pytest.raises(TypeError, match="`seat` must be an int"):
            PachisiEnv("parcheesi", seat=bad)
    env = PachisiEnv("parcheesi", seat=np.int64(1), seats=2)
    obs, info = env.reset(seed=2)
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    obs, r, term, trunc, info = env.step(illegal)
    assert term and info["illegal_action"] and r == -1.0
    # The episode is over: no action is legal until the next reset.
    assert not env.action_masks().any() and not info["action_mask"].any()
    obs, info = env.reset(seed=2)
    assert info["action_mask"].any()


def test_render_modes_follow_gymnasium_and_pettingzoo(capsys):
    # "ansi" returns the text and prints nothing; "human" prints after each step; a mode the
    # environment does not have is refused when it is made.
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import render_test

    import pachisi.pettingzoo as pz
    from pachisi.gymnasium import PachisiEnv

    for make in (
        lambda mode: PachisiEnv("backgammon", render_mode=mode),
        lambda mode: pz.env("backgammon", render_mode=mode),
    ):
        with pytest.raises(pachisi.InvalidArgumentError, match="render_mode"):
            make("rgb_array")
        for mode in ("ansi", "human"):
            env = make(mode)
            env.reset(seed=0)
            capsys.readouterr()
            if isinstance(env, PachisiEnv):
                env.step(int(np.flatnonzero(env.action_masks())[0]))
            else:
                env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
            printed = capsys.readouterr().out
            text = env.render()
            if mode == "ansi":
                assert printed == "" and isinstance(text, str) and text
            else:
                assert printed and text is None
    render_test(lambda render_mode=None: pz.env("pachisi", render_mode=render_mode))


def test_adapters_refuse_a_max_decisions_vec_env_refuses():
    # A negative max_decisions ended every episode at once (truncated before the agent could
    # act); VecEnv refuses it, and so do the adapters now.
    pytest.importorskip("pettingzoo")
    import pachisi.pettingzoo as pz
    from pachisi.gymnasium import PachisiEnv, PachisiVectorEnv

    for make in (
        lambda m: PachisiEnv("parcheesi", max_decisions=m),
        lambda m: pz.env("parcheesi", max_decisions=m),
        lambda m: PachisiVectorEnv("parcheesi", 2, max_decisions=m),
    ):
        for bad in (-1, 0):  # 0 meant 1 (the limit is checked after an action)
            with pytest.raises(pachisi.InvalidArgumentError, match="max_decisions"):
                make(bad)
        with pytest.raises(TypeError, match="max_decisions"):
            make(2.5)
        make(100)
    with pytest.raises(pachisi.InvalidArgumentError, match="at least 1"):
        pachisi.VecEnv("parcheesi", 2, max_decisions=0)


def test_pettingzoo_env_passes_api_and_seed_tests():
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test, seed_test

    import pachisi.pettingzoo as pz

    for preset, opts in [("parcheesi", {"seats": 2}), ("pachisi", {}), ("backgammon", {"cube": False})]:
        api_test(pz.env(preset, **opts), num_cycles=300)
        seed_test(lambda: pz.env(preset, **opts), num_cycles=100)


def test_openspiel_games_pass_random_sim_test():
    pyspiel = pytest.importorskip("pyspiel")
    import pachisi.openspiel as pos

    assert "pachisi_pachisi_family" in pyspiel.registered_names()
    for name in pos.registered_games():
        game = pyspiel.load_game(name)
        pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    game = pyspiel.load_game("pachisi_backgammon", {"options": '{"cube": false}', "encoding": "openspiel"})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    state = game.new_initial_state()
    state.apply_action(0)
    obs = game.make_py_observer() if hasattr(game, "make_py_observer") else None
    if obs is not None:
        obs.set_from(state, 0)
        assert obs.tensor.shape == (state._rl.observation_size,)
        assert "occupancy" in obs.dict
    clone = state.clone()
    assert str(clone) == str(state)
    back = game.deserialize_state(state.serialize())
    assert str(back) == str(state)


def test_openspiel_games_take_the_observation_parameter():
    pyspiel = pytest.importorskip("pyspiel")
    import pachisi.openspiel  # noqa: F401

    params = {"options": '{"seats": 2}', "observation": "features"}
    game = pyspiel.load_game("pachisi_parcheesi", params)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    d = pachisi.RlGame("parcheesi", observation="features", seats=2).observation_size
    state = game.new_initial_state()
    state.apply_action(0)
    obs = game.make_py_observer()
    obs.set_from(state, 0)
    assert obs.tensor.shape == (d,)
    assert "occupancy_units" in obs.dict and "occupancy" not in obs.dict
    back = game.deserialize_state(state.serialize())
    assert back._rl.observation_kind == "features"
    plain = pyspiel.load_game("pachisi_parcheesi", {"options": '{"seats": 2}'})
    assert "occupancy" in plain.make_py_observer().dict
    # Options that are not a JSON object are the package's own error, not json's.
    for bad in ("{bad", "[1]"):
        with pytest.raises(pachisi.InvalidJsonError):
            pyspiel.load_game("pachisi_parcheesi", {"options": bad})


def test_openspiel_game_strings_round_trip_with_several_options():
    # OpenSpiel separates a game string's parameters by commas: rules options with several
    # keys must still serialise, pickle and load back from str(game).
    pyspiel = pytest.importorskip("pyspiel")
    import pickle

    import pachisi.openspiel  # noqa: F401

    game = pyspiel.load_game(
        "pachisi_parcheesi", {"options": '{"seats": 2, "capture_bonus": 10, "home_bonus": 0}'}
    )
    rules = game.new_initial_state()._rl.rules_json
    assert '"capture_bonus":10' in rules and game.num_players() == 2
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    for copy_ in (
        pyspiel.load_game(str(game)),
        pickle.loads(pickle.dumps(game)),
        pyspiel.deserialize_game_and_state(
            pyspiel.serialize_game_and_state(game, game.new_initial_state())
        )[0],
    ):
        assert str(copy_) == str(game)
        assert copy_.new_initial_state()._rl.rules_json == rules
    # The form the game string carries (";" between items) is accepted as input too.
    text = game.get_parameters()["options"]
    assert "," not in text
    again = pyspiel.load_game("pachisi_parcheesi", {"options": text, "players": 2})
    assert again.new_initial_state()._rl.rules_json == rules
    # A list option (Classic Pachisi's graces) as well.
    classic = pyspiel.load_game("pachisi_pachisi", {"options": '{"graces": [6, 10]}'})
    assert pickle.loads(pickle.dumps(classic)).new_initial_state()._rl.rules_json == (
        classic.new_initial_state()._rl.rules_json
    )


def test_openspiel_games_declare_their_players_and_take_the_players_parameter():
    pyspiel = pytest.importorskip("pyspiel")
    import pachisi.openspiel  # noqa: F401

    def players(name):
        t = pyspiel.load_game(name).get_type()
        return t.min_num_players, t.max_num_players

    assert players("pachisi_backgammon") == (2, 2)
    assert players("pachisi_parcheesi") == (2, 4)
    assert players("pachisi_pachisi") == (2, 4)
    # OpenSpiel's convention for games of several player counts (its games_sim_test loads
    # them so): the parameter `players`.
    for name in ("pachisi_parcheesi", "pachisi_pachisi_family", "pachisi_pachisi_online"):
        for n in (2, 3, 4):
            game = pyspiel.load_game(name, {"players": n})
            assert game.num_players() == n
            pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    # The `seats` option alone still chooses the seats; against another `players`, an error.
    assert pyspiel.load_game("pachisi_parcheesi", {"options": '{"seats": 3}'}).num_players() == 3
    with pytest.raises(pachisi.InvalidRulesError, match="players"):
        pyspiel.load_game("pachisi_parcheesi", {"players": 2, "options": '{"seats": 3}'})


def test_openspiel_utility_bounds_are_the_returns_a_seat_can_get():
    # OpenSpiel asks for bounds as tight as possible: a lone winner gets 1 and the other seats
    # share -1, a team's winners get 1 each and its opponents -1 each; backgammon scores up to
    # 3 points (backgammons), times the largest cube when the cube is on.
    pyspiel = pytest.importorskip("pyspiel")
    import pachisi.openspiel  # noqa: F401

    cases = [
        ("pachisi_parcheesi", {}, -1 / 3, 1),
        ("pachisi_parcheesi", {"seats": 3}, -1 / 2, 1),
        ("pachisi_parcheesi", {"seats": 2}, -1, 1),
        ("pachisi_pachisi_family", {}, -1, 1),
        ("pachisi_pachisi_family", {"teams": False}, -1 / 3, 1),
        ("pachisi_pachisi", {}, -1, 1),
        ("pachisi_backgammon", {}, -3, 3),
        ("pachisi_backgammon", {"backgammons": False}, -2, 2),
        ("pachisi_backgammon", {"cube": True, "max_cube": 8}, -24, 24),
    ]
    for name, options, low, high in cases:
        game = pyspiel.load_game(name, {"options": json.dumps(options)})
        assert (game.min_utility(), game.max_utility()) == pytest.approx((low, high)), name
    game = pyspiel.load_game("pachisi_parcheesi", {"players": 3})
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_openspiel_mcts_plays_parcheesi():
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import mcts

    import pachisi.openspiel  # noqa: F401

    game = pyspiel.load_game("pachisi_parcheesi", {"options": '{"seats": 2}', "encoding": "play"})
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, 2.0, 8, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal() and moves < 3:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.choice(len(outcomes), p=[p for _, p in outcomes])][0])
        else:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            moves += 1
    assert moves == 3


def test_backgammon_openspiel_encoding_agrees_with_openspiel():
    pytest.importorskip("pyspiel")
    from openspiel_backgammon import compare_games

    games, decisions, mismatches = compare_games(3, seed=0)
    assert decisions > 50
    assert mismatches == [], mismatches[:3]


def test_core_imports_no_extra_and_missing_extras_are_named():
    import subprocess
    import sys

    code = (
        "import sys, pachisi\n"
        "assert not {'gymnasium', 'pettingzoo', 'pyspiel'} & set(sys.modules)\n"
        "for mod, extra, blocked in [('pachisi.gymnasium', 'pachisi[rl]', 'gymnasium'),\n"
        "                            ('pachisi.pettingzoo', 'pachisi[rl]', 'pettingzoo'),\n"
        "                            ('pachisi.openspiel', 'pachisi[openspiel]', 'pyspiel')]:\n"
        "    sys.modules[blocked] = None\n"
        "    try:\n"
        "        __import__(mod)\n"
        "    except ImportError as e:\n"
        "        assert extra in str(e), e\n"
        "    else:\n"
        "        raise AssertionError(mod)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
    # Before Python 3.11 the openspiel extra installs nothing (open_spiel's wheels need 3.11),
    # so the message says what is needed instead of sending the user to the extra.
    old_python = (
        "import sys\n"
        "sys.modules['pyspiel'] = None\n"
        "sys.version_info = (3, 10, 0)\n"
        "try:\n"
        "    import pachisi.openspiel\n"
        "except ImportError as e:\n"
        "    assert 'Python >= 3.11' in str(e) and '3.10' in str(e), e\n"
        "else:\n"
        "    raise AssertionError('imported')\n"
    )
    subprocess.run([sys.executable, "-c", old_python], check=True)


def test_max_rolls_truncates_rl_games_and_the_adapters_say_truncated():
    # The rules' `max_rolls` (G-A) ends an RlGame as it ends a Game: over, truncated, no returns.
    g = pachisi.RlGame("pachisi", "step", 1, max_rolls=10)
    actions = 0
    while not g.is_over():
        assert not g.is_truncated()
        g.apply_action(g.legal_actions()[0])
        actions += 1
        assert actions < 1000
    assert (g.rolls, g.is_truncated(), list(g.returns())) == (10, True, [0.0] * 4)
    h = pachisi.RlGame("pachisi", "step", 2, max_rolls=10)
    h.load_state_json(g.state_json())
    assert h.is_truncated() and h.rolls == 10
    env = pachisi.VecEnv("pachisi", 3, max_rolls=10)
    env.reset()
    truncated = terminated = 0
    for _ in range(60):
        _, rewards, term, trunc, _ = env.step(env.random_actions())
        truncated += int(trunc.sum())
        terminated += int(term.sum())
        assert not rewards.any()
    assert truncated > 0 and terminated == 0
    pytest.importorskip("gymnasium")
    from pachisi.gymnasium import PachisiEnv

    genv = PachisiEnv("backgammon", max_rolls=4)
    genv.reset(seed=1)
    for _ in range(100):
        mask = genv.action_masks()
        _, reward, term, trunc, _ = genv.step(int(np.flatnonzero(mask)[0]))
        if term or trunc:
            break
    assert (term, trunc, reward) == (False, True, 0.0)
