//! The `features` observation of the RL environments: at every decision of random games (the
//! `step` encoding, so in the middle of plays too) it is the `td` networks' input encoding
//! written by `TdInput::write_taken` for the game's position and steps taken, with the scales
//! `measure_feature_scales(system, 1)`; the plain observation is unchanged (the encoder's, and
//! the same as a game made the old way); the vectorised environment writes the same rows.

use pachisi::dice::rng_from_seed;
use pachisi::players::{Evaluate, InputEncoding, TdInput, measure_feature_scales};
use pachisi::rl::env::{
    AnyGame, OutputBuffers, RlGame, VecEnv, new_game, new_game_with_observation,
};
use pachisi::rl::{Encoding, Observation};
use pachisi::sim::uniform_index;
use pachisi::{Node, Registered, Rules, RulesConfig};

/// Checks one preset's games through `encoding` for `decisions` decisions; returns how many
/// observations were written with steps taken.
fn check<T: Registered>(config: &T, rules: &Rules, encoding: Encoding, decisions: usize) -> usize
where
    T::System: Evaluate,
{
    let sys = config.build().unwrap();
    let scales = measure_feature_scales(&sys, 1);
    let input = TdInput::new(&sys, InputEncoding::Features, &scales).unwrap();
    let plain_game = RlGame::new(config, rules, encoding, 5, true).unwrap();
    let mut g = plain_game
        .clone()
        .with_observation(Observation::Features)
        .unwrap();
    let mut old = new_game(rules, encoding, 5, true).unwrap();
    let boxed = new_game_with_observation(rules, encoding, Observation::Features, 5, true).unwrap();
    assert_eq!(plain_game.observation(), Observation::Plain);
    assert_eq!(g.observation(), Observation::Features);
    assert_eq!(old.observation(), Observation::Plain);
    assert_eq!(boxed.observation(), Observation::Features);
    // Sizes and views follow the kind.
    assert_eq!(g.observation_size(), input.size());
    assert_eq!(g.views(), input.views());
    assert_eq!(boxed.views(), input.views());
    assert_eq!(old.observation_size(), g.encoder().observation_size());
    assert_eq!(old.views(), g.encoder().views());
    assert_eq!(plain_game.views(), g.encoder().views());
    // Back to plain.
    let back = g.clone().with_observation(Observation::Plain).unwrap();
    assert_eq!(back.observation(), Observation::Plain);
    assert_eq!(back.observation_size(), old.observation_size());

    let seats = g.seats();
    let (mut x, mut want) = (vec![f32::NAN; input.size()], vec![0.0; input.size()]);
    let d = old.observation_size();
    let (mut p, mut p_old, mut p_enc) = (vec![f32::NAN; d], vec![0.0; d], vec![0.0; d]);
    let mut rng = rng_from_seed(11);
    let mut with_taken = 0;
    for _ in 0..decisions {
        if g.node() == Node::Over {
            g.restart();
            old.restart();
        }
        assert_eq!(g.node(), Node::Decision);
        for observer in 0..seats {
            g.observe(observer, &mut x);
            input.write_taken(g.state(), g.taken(), observer, &mut want);
            assert_eq!(x, want, "{} observer {observer}", rules.variant());
            old.observe(observer, &mut p_old);
            back_observe(&g, observer, &mut p_enc);
            assert_eq!(
                p_old,
                p_enc,
                "{} plain, observer {observer}",
                rules.variant()
            );
        }
        if !g.taken().is_empty() {
            with_taken += 1;
        }
        let legal = g.legal_actions();
        assert_eq!(legal, old.legal_actions());
        let a = legal[uniform_index(&mut rng, legal.len())];
        g.apply_action(a).unwrap();
        old.apply_action(a).unwrap();
    }
    // A copy shares the features and writes the same.
    let copy = g.clone_box();
    let me = copy.current_player();
    copy.observe(me, &mut x);
    g.observe(me, &mut want);
    assert_eq!(x, want);
    // The plain game made the new way writes what the old one does.
    let plain_new =
        new_game_with_observation(rules, encoding, Observation::Plain, 5, true).unwrap();
    let plain_old = new_game(rules, encoding, 5, true).unwrap();
    plain_new.observe(0, &mut p);
    plain_old.observe(0, &mut p_old);
    assert_eq!(p, p_old);
    with_taken
}

/// The plain observation of `g`'s position written by its encoder.
fn back_observe<T: Registered>(g: &RlGame<T>, observer: u8, out: &mut [f32])
where
    T::System: Evaluate,
{
    g.encoder()
        .write_observation(g.state(), g.taken(), observer, out);
}

fn check_rules(rules: &Rules, encoding: Encoding, decisions: usize) -> usize {
    match rules.config() {
        RulesConfig::Parcheesi(c) => check(c, rules, encoding, decisions),
        RulesConfig::Family(c) => check(c, rules, encoding, decisions),
        RulesConfig::Classic(c) => check(c, rules, encoding, decisions),
        RulesConfig::Backgammon(c) => check(c, rules, encoding, decisions),
        _ => unreachable!("a rule system this test does not know"),
    }
}

#[test]
fn the_features_observation_is_the_td_input_with_the_steps_taken() {
    let mut mid_play = 0;
    for preset in pachisi::variants() {
        let rules = Rules::preset(preset).unwrap();
        let n = check_rules(&rules, Encoding::Step, 300);
        mid_play += n;
        check_rules(&rules, Encoding::Play, 100);
    }
    let two = Rules::with_options("parcheesi", &serde_json::json!({"seats": 2})).unwrap();
    mid_play += check_rules(&two, Encoding::Step, 200);
    let bg = Rules::preset("backgammon").unwrap();
    check_rules(&bg, Encoding::OpenSpiel, 100);
    assert!(
        mid_play > 0,
        "no observation was written in the middle of a play"
    );
}

#[test]
fn the_vector_environment_writes_the_features_observation() {
    for preset in ["parcheesi", "backgammon", "pachisi"] {
        let rules = Rules::preset(preset).unwrap();
        let mut env =
            VecEnv::new_with_observation(&rules, 3, 4, Encoding::Step, Observation::Features, None)
                .unwrap();
        let plain = VecEnv::new(&rules, 3, 4, Encoding::Step, None).unwrap();
        assert_eq!(env.observation(), Observation::Features);
        assert_eq!(plain.observation(), Observation::Plain);
        let game =
            new_game_with_observation(&rules, Encoding::Step, Observation::Features, 4, true)
                .unwrap();
        assert_eq!(env.observation_size(), game.observation_size());
        assert_eq!(env.views(), game.views());
        assert_ne!(env.observation_size(), plain.observation_size());
        let d = env.observation_size();
        let mut buffers = OutputBuffers::new(&env);
        let mut out = buffers.outputs();
        env.reset(None, &mut out).unwrap();
        let mut actions = vec![0i64; 3];
        let mut row = vec![0.0; d];
        for _ in 0..50 {
            for i in 0..3 {
                let g = env.game(i).unwrap();
                g.observe(g.current_player(), &mut row);
                assert_eq!(&out.obs[i * d..(i + 1) * d], &row[..], "{preset} env {i}");
            }
            env.random_actions(&mut actions);
            env.step(&actions, &mut out).unwrap();
        }
    }
}
