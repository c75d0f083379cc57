//! The learned players: the `td` specs, the shipped networks, the weights format and a training
//! smoke run (a few games: training proper is never part of the tests).

use pachisi::nn::Network;
use pachisi::players::{self, PlayerSpec, TrainOptions, Trainer};
use pachisi::tournament::{TournamentOptions, tournament};
use pachisi::{Game, Rules, variants};

#[test]
fn td_specs_parse_and_print() {
    let s: PlayerSpec = "td".parse().unwrap();
    assert_eq!(s.depth, 1);
    assert_eq!(s.to_string(), "td");
    let s: PlayerSpec = "td:depth=2,weights=nets/a.td".parse().unwrap();
    assert_eq!(s.depth, 2);
    assert_eq!(s.network.as_deref(), Some("nets/a.td"));
    assert_eq!(s.to_string(), "td:depth=2,weights=nets/a.td");
    let j: PlayerSpec = r#"{"player": "td", "weights": "k", "depth": 2}"#.parse().unwrap();
    assert_eq!(j.to_string(), "td:depth=2,weights=k");
    assert!("td:risk=2".parse::<PlayerSpec>().is_err());
    assert!("greedy:weights=x".parse::<PlayerSpec>().is_err());
    assert!("td:depth=9".parse::<PlayerSpec>().is_err());
    // A key nobody registered is refused when the player is built, with a clear message.
    let e = players::from_spec("td:weights=no-such-network")
        .err()
        .unwrap();
    assert!(e.to_string().contains("no network registered"), "{e}");
}

#[test]
fn td_plays_legal_moves_in_every_preset() {
    for preset in variants() {
        for spec in ["td", "td:depth=2"] {
            let mut game = Game::from_preset(preset, 11).unwrap();
            let mut p = players::from_spec_seeded(spec, 3).unwrap();
            // A few decisions each (depth 2 in Parcheesi is slow in debug builds).
            let mut decisions = 0;
            while !game.is_over() && decisions < 6 {
                if game.is_chance_node() {
                    game.roll().unwrap();
                } else {
                    let play = p.choose_play(&game).unwrap();
                    assert!(game.legal_plays().contains(&play));
                    game.play(&play).unwrap();
                    decisions += 1;
                }
            }
        }
    }
}

#[test]
fn shipped_networks_load_and_round_trip() {
    for preset in variants() {
        let net = players::shipped_network(preset).unwrap();
        assert_eq!(net.info.preset, *preset);
        let back = Network::from_bytes(&net.to_bytes()).unwrap();
        assert_eq!(&back, &*net);
    }
}

#[test]
fn a_registered_network_is_the_one_played() {
    // The shipped network and one with its output weights negated (it prefers what the other
    // avoids) choose differently somewhere in a game, so the key really selects the network.
    let base = (*players::shipped_network("backgammon").unwrap()).clone();
    let mut flipped = base.clone();
    for w in flipped.w2.iter_mut() {
        *w = -*w;
    }
    players::register_network("test-base", base);
    players::register_network("test-flipped", flipped);
    let mut differ = false;
    let mut game = Game::from_preset("backgammon", 5).unwrap();
    let mut a = players::from_spec("td:weights=test-base").unwrap();
    let mut b = players::from_spec("td:weights=test-flipped").unwrap();
    while !game.is_over() {
        if game.is_chance_node() {
            game.roll().unwrap();
            continue;
        }
        let pa = a.choose_play(&game).unwrap();
        differ |= pa != b.choose_play(&game).unwrap();
        game.play(&pa).unwrap();
    }
    assert!(differ);
}

#[test]
fn training_smoke_run_is_reproducible_and_resumes() {
    let mut o = TrainOptions::new("pachisi-online");
    o.hidden = 8;
    o.threads = Some(1);
    let mut t = Trainer::new(o.clone()).unwrap();
    t.train(2, |_| true).unwrap();
    // Resuming from a checkpoint after 1 game gives the same network as 2 games in one go.
    let mut r = Trainer::new(o.clone()).unwrap();
    r.train(1, |_| true).unwrap();
    let ckpt = Network::from_bytes(&r.network().to_bytes()).unwrap();
    let mut r = Trainer::resume(o.clone(), ckpt).unwrap();
    r.train(1, |_| true).unwrap();
    assert_eq!(r.network().w1, t.network().w1);
    assert_eq!(r.network().info.games, 2);
    let point = t.evaluate(2, 1).unwrap();
    assert_eq!(point.games, 2);
    assert_eq!(point.tournament_games, 8); // 2 deals x 4 rotations
    assert!((point.fair - 0.25).abs() < 1e-9);
    // A network of another preset is refused.
    let other = Trainer::new(TrainOptions::new("backgammon")).unwrap();
    assert!(Trainer::resume(o, other.into_network()).is_err());
}

#[test]
fn td_in_a_tournament() {
    let rules = Rules::preset("backgammon").unwrap();
    let r = tournament(&rules, &TournamentOptions::new(&["td", "random"], 10, 1)).unwrap();
    assert_eq!(r.games.len(), 20);
    let bad = TournamentOptions::new(&["td:weights=missing", "random"], 1, 1);
    assert!(tournament(&rules, &bad).is_err());
}

#[test]
fn default_td_plays_the_shipped_network() {
    // `td` finds the network of the game's preset: it chooses as the same network by key does.
    for preset in ["backgammon", "pachisi-online"] {
        let key = format!("shipped-{preset}");
        players::register_network(&key, (*players::shipped_network(preset).unwrap()).clone());
        let mut game = Game::from_preset(preset, 9).unwrap();
        let mut a = players::from_spec_seeded("td", 1).unwrap();
        let mut b = players::from_spec_seeded(&format!("td:weights={key}"), 1).unwrap();
        let mut decisions = 0;
        while !game.is_over() && decisions < 40 {
            if game.is_chance_node() {
                game.roll().unwrap();
                continue;
            }
            let pa = a.choose_play(&game).unwrap();
            assert_eq!(pa, b.choose_play(&game).unwrap());
            game.play(&pa).unwrap();
            decisions += 1;
        }
    }
}

/// A network the caller names must fit the game it plays: a backgammon network named in a
/// Parcheesi line-up, rollout or choice is an error, not `greedy` in disguise.
#[test]
fn a_named_network_that_does_not_fit_the_game_is_an_error() {
    players::register_network(
        "test-bg-elsewhere",
        (*players::shipped_network("backgammon").unwrap()).clone(),
    );
    let spec = "td:weights=test-bg-elsewhere";
    let e = pachisi::tournament::tournament(
        &Rules::preset("parcheesi").unwrap(),
        &pachisi::tournament::TournamentOptions::new(&[spec, "greedy", "greedy", "greedy"], 1, 1),
    )
    .unwrap_err();
    assert!(matches!(e, pachisi::Error::InvalidPlayer(_)), "{e}");
    assert!(e.to_string().contains("does not fit"), "{e}");
    let mut g = Game::from_preset("parcheesi", 1).unwrap();
    while g.node() != pachisi::Node::Decision {
        g.roll().unwrap();
    }
    assert!(matches!(
        players::best_play(&g, spec, 0),
        Err(pachisi::Error::InvalidPlayer(_))
    ));
    // In the game it was trained for it plays.
    let mut bg = Game::from_preset("backgammon", 1).unwrap();
    bg.roll().unwrap();
    assert!(players::best_play(&bg, spec, 0).is_ok());
}

#[test]
fn a_network_whose_weights_do_not_fit_its_header_is_an_error_not_a_panic() {
    // `Network`'s fields are public: a network changed field by field may have weight vectors
    // its header's sizes do not give. Played or trained, it panicked slicing them.
    let good = (*players::shipped_network("backgammon").unwrap()).clone();
    assert!(good.check().is_ok());
    let mut short = good.clone();
    short.w1.truncate(10);
    let mut no_hidden = good.clone();
    no_hidden.info.hidden = 0;
    let mut nan = good.clone();
    nan.b2[0] = f32::NAN;
    assert!(nan.check().is_err());
    let mut game = Game::from_preset("backgammon", 3).unwrap();
    game.roll().unwrap();
    let e = Trainer::resume(TrainOptions::new("backgammon"), nan)
        .err()
        .unwrap();
    assert!(matches!(e, pachisi::Error::InvalidPlayer(_)), "{e}");
    for (key, net) in [("short-w1", short), ("no-hidden", no_hidden)] {
        assert!(net.check().is_err(), "{key}");
        players::register_network(key, net.clone());
        let spec = format!("td:weights={key}");
        let e = players::best_play(&game, &spec, 0).unwrap_err();
        assert!(matches!(e, pachisi::Error::InvalidPlayer(_)), "{key}: {e}");
        assert!(e.to_string().contains(key), "{e}");
        let e = Trainer::resume(TrainOptions::new("backgammon"), net)
            .err()
            .unwrap();
        assert!(matches!(e, pachisi::Error::InvalidPlayer(_)), "{key}: {e}");
    }
}

#[test]
fn an_opponent_that_cannot_play_the_preset_is_refused() {
    // `pubeval` plays backgammon only: tournaments and rollouts refuse it elsewhere, training
    // accepted it and silently trained against `greedy`.
    let mut o = TrainOptions::new("parcheesi");
    o.hidden = 4;
    o.opponent = Some("pubeval".into());
    let e = Trainer::new(o).err().unwrap();
    assert!(matches!(e, pachisi::Error::InvalidPlayer(_)), "{e}");
    assert!(e.to_string().contains("pubeval"), "{e}");
    let mut o = TrainOptions::new("backgammon");
    o.hidden = 4;
    o.opponent = Some("pubeval".into());
    assert!(Trainer::new(o).is_ok());
}

#[test]
#[should_panic(expected = "more weights than a usize counts")]
fn a_random_network_too_big_to_count_panics_in_every_build() {
    // The weight counts were multiplied unchecked: an overflow panic in debug builds, a wrapped
    // count (a network whose weights do not fit its header) in release builds.
    let info = pachisi::nn::NetworkInfo::new("x", usize::MAX / 2, 3, 1);
    Network::random(info, 1);
}
