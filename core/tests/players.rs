//! The built-in players over every preset and a few option sets: every chosen play is legal,
//! games driven by them finish, a seed replays the same choices; specs, rollouts and
//! tournaments.

use pachisi::players::{self, PlayerSpec, RolloutOptions};
use pachisi::tournament::{TournamentOptions, simulate_lineup, tournament};
use pachisi::{Error, Game, Node, Play, Rules, variants};
use proptest::prelude::*;

/// Every preset, and option sets that change what the evaluators read (seats, teams, switches).
fn rule_sets() -> Vec<Rules> {
    let mut out: Vec<Rules> = variants()
        .iter()
        .map(|v| Rules::preset(v).unwrap())
        .collect();
    let with = |v: &str, json: serde_json::Value| Rules::with_options(v, &json).unwrap();
    out.push(with("parcheesi", serde_json::json!({"seats": 2})));
    out.push(with(
        "pachisi-online",
        serde_json::json!({"seats": 3, "safe_squares": false, "blockades": false}),
    ));
    out.push(with(
        "pachisi-family",
        serde_json::json!({"teams": false, "seats": 3}),
    ));
    out.push(with("pachisi", serde_json::json!({"seats": 2})));
    out.push(with("backgammon", serde_json::json!({"cube": true})));
    out
}

/// Plays `game` to the end (at most `max_actions` rolls and plays): `spec` chooses the plays of
/// the first `searched` decisions with a choice, `then` the others. Checks that every chosen
/// play is one of the legal plays; returns the plays made.
fn drive(game: &mut Game, spec: &str, then: &str, searched: usize, seed: u64) -> Vec<Play> {
    let mut first = players::from_spec_seeded(spec, seed).unwrap();
    let mut rest = players::from_spec_seeded(then, seed + 1).unwrap();
    let mut made = Vec::new();
    let mut choices = 0;
    for _ in 0..20_000 {
        match game.node() {
            Node::Over => return made,
            Node::Chance => {
                game.roll().unwrap();
            }
            Node::Decision => {
                let plays = game.legal_plays();
                let player = if choices < searched {
                    &mut first
                } else {
                    &mut rest
                };
                if plays.len() > 1 {
                    choices += 1;
                }
                let i = player.choose(game).unwrap();
                assert!(i < plays.len(), "{spec}: index {i} of {}", plays.len());
                let play = player.choose_play(game).unwrap();
                assert!(plays.contains(&play), "{spec} chose a play not listed");
                game.play(&plays[i]).unwrap();
                made.push(plays[i]);
            }
        }
    }
    panic!("{}: the game did not end", game.variant());
}

#[test]
fn every_player_finishes_games_of_every_rule_set_with_legal_plays() {
    for rules in rule_sets() {
        for spec in ["random", "greedy", "greedy:weights=paths"] {
            let mut g = Game::new(&rules, 11);
            drive(&mut g, spec, spec, usize::MAX, 3);
            assert!(g.is_over() && g.outcome().is_some(), "{}", rules.to_json());
        }
        // The search players on the first decisions of a game, greedy for the rest.
        for spec in [
            "expectimax:depth=2",
            "expectimax:depth=2,mode=maxn",
            "expectimax:depth=2,mode=greedy,weights=tuned",
            "expectimax:depth=2,mode=greedy,weights=paths",
            "mcts:iterations=60",
            "mcts:iterations=30,leaf=random,playout_depth=6",
            "mcts:iterations=30,prior=0",
        ] {
            let mut g = Game::new(&rules, 12);
            drive(&mut g, spec, "greedy", 6, 4);
            assert!(g.is_over(), "{spec} {}", rules.to_json());
        }
    }
}

#[test]
fn a_seed_replays_the_same_choices() {
    for rules in rule_sets() {
        for spec in [
            "random",
            "greedy",
            "expectimax:depth=2",
            "expectimax:depth=2,mode=greedy,weights=paths,threat=1",
            "mcts:iterations=40",
        ] {
            let run = || {
                let mut g = Game::new(&rules, 5);
                drive(&mut g, spec, "random", 4, 9)
            };
            assert_eq!(run(), run(), "{spec} {}", rules.to_json());
        }
    }
}

#[test]
fn steps_already_taken_are_respected() {
    let rules = Rules::preset("backgammon").unwrap();
    let mut g = Game::new(&rules, 3);
    g.set_roll(pachisi::Roll::Dice([6, 5])).unwrap();
    let step = g.legal_steps()[0];
    g.step(&step).unwrap();
    for spec in [
        "random",
        "greedy",
        "expectimax:depth=2",
        "mcts:iterations=50",
    ] {
        let play = players::best_play(&g, spec, 1).unwrap();
        assert!(g.legal_plays().contains(&play), "{spec}");
        assert_eq!(play.steps()[0], step, "{spec}");
    }
}

#[test]
fn choosing_needs_a_decision() {
    let mut g = Game::from_preset("parcheesi", 1).unwrap();
    let mut p = players::from_spec("greedy").unwrap();
    assert!(matches!(p.choose(&g), Err(Error::WrongPhase(_))));
    g.roll().unwrap();
    while g.node() != Node::Decision {
        g.roll().unwrap();
    }
    assert!(p.choose(&g).is_ok());
}

#[test]
fn bad_specs_are_clear_errors() {
    for (spec, needle) in [
        ("chess", "unknown player `chess`"),
        ("greedy:depth=2", "`depth` is not a parameter of `greedy`"),
        (
            "expectimax:depth=9",
            "`depth` must be an integer from 1 to 4",
        ),
        ("mcts:iterations=0", "`iterations`"),
        ("mcts:leaf=oracle", "`leaf`"),
        ("random:risk=1", "`risk` is not a parameter of `random`"),
        (
            "greedy:no_such_feature=1",
            "no parameter or evaluator feature `no_such_feature`",
        ),
        ("greedy:risk", "`risk` is not `key=value`"),
        ("greedy:risk=inf", "`risk` must be a finite number"),
        ("greedy:threat=nan", "`threat` must be a finite number"),
        (
            "greedy:weights=paths,blocking=x",
            "`blocking` must be a finite number",
        ),
        ("{\"player\": 3}", "missing `player`"),
        (
            "{\"player\": \"greedy\", \"weights\": 2}",
            "`weights` is an object",
        ),
        ("{nope", "not valid JSON"),
        (
            "greedy:weights=nope",
            "`weights` must be a named weight set (`tuned`, `paths`)",
        ),
        (
            "random:weights=tuned",
            "`weights` is not a parameter of `random`",
        ),
        (
            "expectimax:mode=oracle",
            "`auto`, `paranoid`, `maxn` or `greedy`",
        ),
    ] {
        let err = players::from_spec(spec).err().unwrap();
        assert!(matches!(err, Error::InvalidPlayer(_)), "{spec}: {err}");
        assert!(err.to_string().contains(needle), "{spec}: {err}");
    }
}

#[test]
fn specs_round_trip_through_their_canonical_text() {
    for spec in [
        "random",
        "greedy",
        "greedy:risk=-2,safe=0.5",
        "expectimax:depth=3,mode=maxn",
        "expectimax:depth=2,mode=greedy,weights=tuned,risk=-2",
        "greedy:weights=tuned",
        "greedy:weights=paths,threat=2.5",
        "mcts:iterations=2000",
        "mcts:iterations=100,time_ms=50,c=1.5,leaf=greedy,playout_depth=10,prior=0,progress=2",
    ] {
        let s: PlayerSpec = spec.parse().unwrap();
        assert_eq!(s.to_string(), spec);
        assert_eq!(s.to_string().parse::<PlayerSpec>().unwrap(), s);
    }
    let j: PlayerSpec = r#"{"player": "mcts", "iterations": 2000, "risk": -1}"#
        .parse()
        .unwrap();
    assert_eq!(j.to_string(), "mcts:iterations=2000,risk=-1");
    let t: PlayerSpec = r#"{"player": "greedy", "weights": "tuned"}"#.parse().unwrap();
    assert_eq!(t.to_string(), "greedy:weights=tuned");
}

#[test]
fn a_named_weight_set_is_its_weights_and_single_weights_override_it() {
    for set_name in ["tuned", "paths"] {
        named_weight_set_is_its_weights(set_name);
    }
    named_sets_leave_backgammon_alone();
}

fn named_weight_set_is_its_weights(set_name: &str) {
    use pachisi::players::Evaluate;
    let (_, tuned) = <pachisi::parcheesi::ParcheesiSystem as Evaluate>::WEIGHT_SETS
        .iter()
        .find(|(name, _)| *name == set_name)
        .unwrap();
    let spelled = |extra: &str| {
        let mut p: Vec<String> = tuned.iter().map(|(k, w)| format!("{k}={w}")).collect();
        if !extra.is_empty() {
            p.push(extra.into());
        }
        format!("greedy:{}", p.join(","))
    };
    for preset in ["parcheesi", "pachisi-online"] {
        let mut g = Game::from_preset(preset, 4).unwrap();
        let mut checked = 0;
        while !g.is_over() && checked < 60 {
            if g.is_chance_node() {
                g.roll().unwrap();
                continue;
            }
            let named = format!("greedy:weights={set_name}");
            let set = players::best_play(&g, &named, 3).unwrap();
            assert_eq!(set, players::best_play(&g, &spelled(""), 3).unwrap());
            let over = players::best_play(&g, &format!("{named},risk=-7"), 3).unwrap();
            assert_eq!(
                over,
                players::best_play(&g, &spelled("risk=-7"), 3).unwrap()
            );
            checked += 1;
            g.play(&set).unwrap();
        }
    }
}

fn named_sets_leave_backgammon_alone() {
    // Backgammon has no `tuned` or `paths` set: its defaults stay.
    let mut g = Game::from_preset("backgammon", 2).unwrap();
    for _ in 0..20 {
        if g.is_over() {
            break;
        }
        if g.is_chance_node() {
            g.roll().unwrap();
            continue;
        }
        let a = players::best_play(&g, "greedy:weights=tuned", 1).unwrap();
        assert_eq!(a, players::best_play(&g, "greedy", 1).unwrap());
        let b = players::best_play(&g, "greedy:weights=paths", 1).unwrap();
        assert_eq!(b, a);
        g.play(&a).unwrap();
    }
}

#[test]
fn weights_change_the_choice() {
    // Greedy with every weight at zero but progress plays the furthest-moving play; with a huge
    // safe-square weight it prefers the plays ending on safe squares. Both are legal; they
    // differ in some position of a game.
    let rules = Rules::preset("parcheesi").unwrap();
    let mut g = Game::new(&rules, 21);
    let mut differ = false;
    let mut a =
        players::from_spec_seeded("greedy:risk=0,safe=0,blockade=0,home_path=0", 1).unwrap();
    let mut b = players::from_spec_seeded("greedy:safe=500", 1).unwrap();
    for _ in 0..400 {
        match g.node() {
            Node::Over => break,
            Node::Chance => {
                g.roll().unwrap();
            }
            Node::Decision => {
                let (x, y) = (a.choose(&g).unwrap(), b.choose(&g).unwrap());
                differ |= x != y;
                g.play(&g.legal_plays()[x]).unwrap();
            }
        }
    }
    assert!(differ);
}

#[test]
fn static_values_are_probabilities_that_teams_share() {
    for rules in rule_sets() {
        let mut g = Game::new(&rules, 8);
        for _ in 0..60 {
            if g.is_over() {
                break;
            }
            let v = players::static_values(&g, &[]);
            assert_eq!(v.len(), g.seats() as usize);
            assert!(v.iter().all(|x| (0.0..=1.0).contains(x)), "{v:?}");
            if rules.variant() == "pachisi-family" && g.seats() == 4
                || rules.variant() == "pachisi" && g.seats() == 4
            {
                assert!((v[0] - v[2]).abs() < 1e-12 && (v[1] - v[3]).abs() < 1e-12);
                assert!((v[0] + v[1] - 1.0).abs() < 1e-9);
            } else {
                assert!((v.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{v:?}");
            }
            if g.is_chance_node() {
                g.roll().unwrap();
            } else {
                let p = players::best_play(&g, "random", 1).unwrap();
                g.play(&p).unwrap();
            }
        }
        let names: Vec<&str> = players::features(&g).iter().map(|(f, _)| f.name).collect();
        assert!(
            names.contains(&"progress") && names.contains(&"risk"),
            "{names:?}"
        );
    }
}

#[test]
fn rollouts_do_not_depend_on_threads_and_hints_share_their_dice() {
    let mut g = Game::from_preset("backgammon", 2).unwrap();
    g.set_roll(pachisi::Roll::Dice([6, 2])).unwrap();
    let opts = RolloutOptions {
        rollouts: 24,
        policy: "random".into(),
        seed: 4,
        threads: Some(1),
    };
    let one = players::hint(&g, &opts).unwrap();
    let two = players::hint(
        &g,
        &RolloutOptions {
            threads: Some(2),
            ..opts.clone()
        },
    )
    .unwrap();
    assert_eq!(one, two);
    assert_eq!(one.len(), g.legal_plays().len());
    for row in &one {
        assert_eq!(g.legal_plays()[row.index], row.play);
        assert_eq!(g.format_play(&row.play), row.notation);
        assert!((row.win[0] + row.win[1] - 1.0).abs() < 1e-9);
        assert!(row.diff <= 0.0 && row.diff_stderr >= 0.0);
    }
    let e = players::evaluate(&g, &opts).unwrap();
    assert_eq!(e.rollouts, 24);
    assert!(e.stderr[0] > 0.0);
    assert!(matches!(
        players::hint(&Game::from_preset("backgammon", 2).unwrap(), &opts),
        Err(Error::WrongPhase(_))
    ));
    assert!(
        players::evaluate(
            &g,
            &RolloutOptions {
                rollouts: 0,
                ..opts.clone()
            }
        )
        .is_err()
    );
    assert!(
        players::evaluate(
            &g,
            &RolloutOptions {
                policy: "x".into(),
                ..opts
            }
        )
        .is_err()
    );
}

#[test]
fn tournaments_rotate_seats_and_do_not_depend_on_threads() {
    let rules = Rules::preset("pachisi-online").unwrap();
    let mut opts = TournamentOptions::new(&["greedy", "random", "random", "random"], 6, 3);
    opts.threads = Some(1);
    let a = tournament(&rules, &opts).unwrap();
    opts.threads = Some(2);
    let b = tournament(&rules, &opts).unwrap();
    assert_eq!(a.games, b.games);
    assert_eq!(a.players, vec!["greedy", "random"]);
    assert_eq!(a.seatings.len(), 4);
    assert_eq!(a.games.len(), 24);
    for seat in 0..4 {
        // Greedy sits in every seat once per deal.
        assert_eq!(a.seatings.iter().filter(|s| s[seat] == 0).count(), 1);
    }
    let g = &a.standings[0];
    assert_eq!((g.games, g.seats), (24, 1));
    assert!((g.fair - 0.25).abs() < 1e-12);
    assert!(a.summary().contains("greedy"));
    // Team games: a rotation by one puts each player on the other team.
    let classic = Rules::preset("pachisi").unwrap();
    let t = tournament(
        &classic,
        &TournamentOptions::new(&["greedy", "random", "greedy", "random"], 3, 1),
    )
    .unwrap();
    assert_eq!(t.seatings, vec![vec![0, 1, 0, 1], vec![1, 0, 1, 0]]);
    assert!((t.standings[0].fair - 0.5).abs() < 1e-12);
    // Bad line-ups.
    let err = tournament(&rules, &TournamentOptions::new(&["greedy"], 1, 1)).unwrap_err();
    assert!(matches!(err, Error::InvalidPlayer(_)), "{err}");
    assert!(
        tournament(
            &rules,
            &TournamentOptions::new(&["greedy", "x", "random", "random"], 1, 1)
        )
        .is_err()
    );
}

#[test]
fn two_seat_ratings_are_the_bradley_terry_odds() {
    let rules = Rules::preset("backgammon").unwrap();
    let r = tournament(
        &rules,
        &TournamentOptions::new(
            &[
                "greedy:risk=0,home_points=0,anchor=0,prime=0,bar=0,off=0",
                "greedy",
            ],
            40,
            2,
        ),
    )
    .unwrap();
    let a = &r.standings[0];
    let b = &r.standings[1];
    assert_eq!(a.wins + b.wins, 80);
    // The fitted strengths reproduce the observed odds, up to the half game added.
    let p = (a.wins as f64 + 0.25) / 80.5;
    let elo = 400.0 * (p / (1.0 - p)).log10();
    assert!(
        (a.rating - b.rating - elo).abs() < 1.0,
        "{} {} {elo}",
        a.rating,
        b.rating
    );
}

#[test]
fn lineups_in_simulation_do_not_depend_on_threads() {
    let rules = Rules::preset("backgammon").unwrap();
    let lineup = ["greedy", "random"];
    let a = simulate_lineup(&rules, &lineup, 0..10, 5, Some(1)).unwrap();
    let mut b = simulate_lineup(&rules, &lineup, 0..4, 5, Some(2)).unwrap();
    b.extend(simulate_lineup(&rules, &lineup, 4..10, 5, None).unwrap());
    assert_eq!(a, b);
    assert!(a.iter().filter(|r| r.winner == 0).count() >= 8);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// Random rule sets, seeds and players: every choice is legal and the game ends.
    #[test]
    fn random_games_driven_by_players_stay_legal(
        set in 0usize..10,
        which in 0usize..6,
        seed in 0u64..1_000,
    ) {
        let sets = rule_sets();
        let rules = &sets[set % sets.len()];
        let spec = [
            "random",
            "greedy",
            "expectimax:depth=2",
            "mcts:iterations=25",
            "expectimax:depth=2,mode=greedy,weights=tuned",
            "expectimax:depth=2,mode=greedy,weights=paths",
        ][which];
        let mut g = Game::new(rules, seed);
        drive(&mut g, spec, "greedy", 3, seed);
        prop_assert!(g.is_over());
    }

    /// Any weights of the path features (`exposure`, `threat`, `blocking`): one-ply and search
    /// players on them choose legal plays (checked by `drive`) to the end of the game, and a
    /// seed replays the same choices.
    #[test]
    fn path_feature_weights_play_legally_and_replay(
        set in 0usize..10,
        exposure in -5.0f64..5.0,
        threat in -10.0f64..10.0,
        blocking in -5.0f64..5.0,
        search in any::<bool>(),
        seed in 0u64..1_000,
    ) {
        let sets = rule_sets();
        let rules = &sets[set % sets.len()];
        let weights = format!("weights=paths,exposure={exposure},threat={threat},blocking={blocking}");
        // Greedy plays every decision; the search the first three (then greedy: it is slow).
        let (spec, searched) = if search {
            (format!("expectimax:depth=2,mode=greedy,{weights}"), 3)
        } else {
            (format!("greedy:{weights}"), usize::MAX)
        };
        let run = || {
            let mut g = Game::new(rules, seed);
            let made = drive(&mut g, &spec, "greedy", searched, seed);
            (g.is_over(), made)
        };
        let (over, made) = run();
        prop_assert!(over);
        prop_assert_eq!(made, run().1);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Search specs with any mode, weight set and single weights print a canonical text that
    /// parses back to the same spec.
    #[test]
    fn search_specs_with_modes_and_weight_sets_round_trip(
        kind in 0usize..3,
        depth in 1u32..=4,
        mode in 0usize..4,
        set in 0usize..3,
        risk in proptest::option::of(-10.0f64..10.0),
        threat in proptest::option::of(-10.0f64..10.0),
    ) {
        let set = [None, Some("tuned"), Some("paths")][set];
        let mut params = Vec::new();
        if kind == 1 {
            params.push(format!("depth={depth}"));
            params.push(format!("mode={}", ["auto", "paranoid", "maxn", "greedy"][mode]));
        }
        if let Some(name) = set {
            params.push(format!("weights={name}"));
        }
        if let Some(r) = risk {
            params.push(format!("risk={r}"));
        }
        if let Some(t) = threat {
            params.push(format!("threat={t}"));
        }
        let text = format!("{}:{}", ["greedy", "expectimax", "mcts"][kind], params.join(","));
        let spec: PlayerSpec = text.parse().unwrap();
        prop_assert_eq!(spec.weight_set.as_deref(), set);
        let canonical = spec.to_string();
        prop_assert_eq!(canonical.parse::<PlayerSpec>().unwrap(), spec.clone());
        prop_assert_eq!(canonical.contains("weights="), set.is_some());
        prop_assert_eq!(canonical.contains("threat="), threat.is_some());
        prop_assert_eq!(canonical.contains("mode=greedy"), kind == 1 && mode == 3);
    }
}

#[test]
fn the_players_doc_lists_every_feature_with_its_default_weight() {
    use pachisi::players::Evaluate;
    let doc = include_str!("../../docs/PLAYERS.md");
    let all: [&[pachisi::players::Feature]; 4] = [
        <pachisi::parcheesi::ParcheesiSystem as Evaluate>::FEATURES,
        <pachisi::family::FamilySystem as Evaluate>::FEATURES,
        <pachisi::classic::ClassicSystem as Evaluate>::FEATURES,
        <pachisi::backgammon::BackgammonSystem as Evaluate>::FEATURES,
    ];
    for features in all {
        for f in features {
            let row = format!("| `{}` | {} |", f.name, f.weight);
            assert!(doc.contains(&row), "docs/PLAYERS.md lacks the row {row}");
        }
    }
}

#[test]
fn pubeval_plays_backgammon_only_and_beats_random() {
    // Every backgammon rule set, legal plays to the end.
    for rules in rule_sets() {
        let mut game = Game::new(&rules, 5);
        if rules.variant() == "backgammon" {
            drive(&mut game, "pubeval", "pubeval", usize::MAX, 3);
            assert!(game.is_over());
            continue;
        }
        // Elsewhere a clear error, from a game, a tournament and rollouts.
        while game.node() == Node::Chance {
            game.roll().unwrap();
        }
        let err = players::best_play(&game, "pubeval", 0).unwrap_err();
        assert!(matches!(err, Error::InvalidPlayer(_)), "{err}");
        let lineup = vec!["pubeval"; game.seats() as usize];
        let t = tournament(&rules, &TournamentOptions::new(&lineup, 1, 1));
        assert!(matches!(t, Err(Error::InvalidPlayer(_))));
        let opts = RolloutOptions {
            rollouts: 2,
            policy: "pubeval".into(),
            ..Default::default()
        };
        assert!(matches!(
            players::evaluate(&game, &opts),
            Err(Error::InvalidPlayer(_))
        ));
    }
    let spec: PlayerSpec = "pubeval".parse().unwrap();
    assert_eq!(spec.to_string(), "pubeval");
    assert!("pubeval:risk=-2".parse::<PlayerSpec>().is_err());
    let rules = Rules::preset("backgammon").unwrap();
    let r = tournament(
        &rules,
        &TournamentOptions::new(&["pubeval", "random"], 60, 4),
    )
    .unwrap();
    let summary = r.summary();
    let pubeval = r.standings.iter().find(|p| p.player == "pubeval").unwrap();
    assert!(pubeval.win_rate > 0.85, "{summary}");
}

/// One Parcheesi feature of every seat at a position given in the notation.
fn parcheesi_feature(position: &str, name: &str) -> Vec<f64> {
    let rules = Rules::preset("parcheesi").unwrap();
    let g = Game::from_position(&rules, position, 1).unwrap();
    players::features(&g)
        .into_iter()
        .find(|(f, _)| f.name == name)
        .unwrap()
        .1
}

#[test]
fn parcheesi_exposure_follows_the_shooters_paths() {
    // Seat 0's piece 10 on (square 9), seat 3's 4 squares behind it (its 23, square 5); the
    // other pieces home, seat 1 to move (every other seat moves before seat 0).
    let open = "0:10,72,72,72 1:66,72,72,72 2:66,72,72,72 3:23,72,72,72 turn:1 doubles:0";
    let shot = 14.0 / 36.0; // a 4 on one die, or 1-3, 3-1, 2-2
    let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
    assert!(close(parcheesi_feature(open, "risk")[0], shot * 10.0));
    assert!(close(parcheesi_feature(open, "exposure")[0], shot * 10.0));
    // Seat 0's own blockade between them (its 7, square 6): `risk` still counts the shot,
    // `exposure` does not (no piece passes a blockade, and the blockade is never exposed).
    let blocked = "0:7,7,10,72 1:66,72,72,72 2:66,72,72,72 3:23,72,72,72 turn:1 doubles:0";
    assert!(close(parcheesi_feature(blocked, "risk")[0], shot * 10.0));
    assert_eq!(parcheesi_feature(blocked, "exposure")[0], 0.0);
    // Seat 1 with a piece in the nest may enter on its square 17 and move 2 on with a 5-2 or
    // 2-5: seat 0's piece on square 19 (its 20) is exposed to that, which `risk` ignores.
    let entry = "0:20,72,72,72 1:0,72,72,72 2:66,72,72,72 3:66,72,72,72 turn:1 doubles:0";
    assert_eq!(parcheesi_feature(entry, "risk")[0], 0.0);
    assert!(close(
        parcheesi_feature(entry, "exposure")[0],
        2.0 / 36.0 * 20.0
    ));
}

#[test]
fn parcheesi_threats_and_blocking_count_the_opponents_pieces() {
    // Seat 0's piece on square 4 (its 5) is 4 squares behind seat 1's lone piece on square 8
    // (its 60): seat 0 threatens it with 14 rolls of 36, and seat 1 threatens nothing.
    let threat = "0:5,72,72,72 1:60,72,72,72 2:66,72,72,72 3:66,72,72,72 turn:1 doubles:0";
    let t = parcheesi_feature(threat, "threat");
    assert!((t[0] - 14.0 / 36.0).abs() < 1e-12, "{t:?}");
    assert_eq!(t[1], 0.0);
    // Seat 0's blockade on square 9 (its 10) stands 4 squares ahead of seat 3's piece on
    // square 5 (its 23); seat 1's piece on square 30 (its 14) is not behind it.
    let block = "0:10,10,72,72 1:14,72,72,72 2:66,72,72,72 3:23,72,72,72 turn:1 doubles:0";
    assert_eq!(
        parcheesi_feature(block, "blocking"),
        vec![1.0, 0.0, 0.0, 0.0]
    );
    // The blockade's pieces are never exposed.
    assert_eq!(parcheesi_feature(block, "exposure")[0], 0.0);
}

/// Counts the caller chooses size the results of rollouts and tournaments: a count too large
/// for memory is an error (`Resource`, or `InvalidArgument` when the count itself overflows),
/// never an abort of the process or a panic; a finished game's evaluation allocates nothing.
#[test]
fn huge_rollout_and_deal_counts_are_errors_not_aborts() {
    let mut g = Game::from_preset("backgammon", 2).unwrap();
    g.set_roll(pachisi::Roll::Dice([6, 2])).unwrap();
    for rollouts in [usize::MAX / 2, usize::MAX / 16 + 1, 1 << 60] {
        let opts = RolloutOptions {
            rollouts,
            policy: "random".into(),
            seed: 1,
            threads: Some(1),
        };
        let e = players::evaluate(&g, &opts).unwrap_err();
        assert!(matches!(e, Error::Resource(_)), "{e}");
        let e = players::hint(&g, &opts).unwrap_err();
        assert!(
            matches!(e, Error::Resource(_) | Error::InvalidArgument(_)),
            "{e}"
        );
    }
    for deals in [usize::MAX, usize::MAX / 2, 1 << 60] {
        let e = tournament(
            &Rules::preset("backgammon").unwrap(),
            &TournamentOptions::new(&["random", "random"], deals, 1),
        )
        .unwrap_err();
        assert!(
            matches!(e, Error::Resource(_) | Error::InvalidArgument(_)),
            "{e}"
        );
    }
    // Over: every rollout would end as the game did, so nothing is played or stored.
    let mut over = Game::from_preset("backgammon", 2).unwrap();
    while !over.is_over() {
        if over.is_chance_node() {
            over.roll().unwrap();
        } else {
            over.play_index(0).unwrap();
        }
    }
    let e = players::evaluate(
        &over,
        &RolloutOptions {
            rollouts: usize::MAX,
            policy: "random".into(),
            seed: 1,
            threads: Some(1),
        },
    )
    .unwrap();
    assert_eq!(e.rollouts, usize::MAX);
    assert_eq!(e.stderr, vec![0.0, 0.0]);
    assert!(e.win.iter().all(|&w| w == 0.0 || w == 1.0));
}

#[test]
fn evaluating_a_truncated_game_counts_every_rollout_unfinished() {
    // A game cut by `max_rolls` is over with no winner: its rollouts all end as it did, stopped
    // by the roll limit, which `unfinished` counts (it said 0, as for a game won).
    let rules = Rules::with_options("backgammon", &serde_json::json!({"max_rolls": 3})).unwrap();
    let mut g = Game::new(&rules, 1);
    while !g.is_over() {
        if g.is_chance_node() {
            g.roll().unwrap();
        } else {
            g.play_index(0).unwrap();
        }
    }
    assert!(g.is_truncated());
    let opts = RolloutOptions {
        rollouts: 7,
        policy: "random".into(),
        ..Default::default()
    };
    let e = players::evaluate(&g, &opts).unwrap();
    assert_eq!((e.rollouts, e.unfinished), (7, 7));
    assert_eq!(e.win, [0.0, 0.0]);
}

#[test]
fn choose_play_checks_the_index_of_a_choose_of_ones_own() {
    // `Policy::choose` may be overridden; `choose_play` indexed the legal plays with whatever it
    // returned (a panic past the end) where `choose` checks `choose_at`'s index.
    struct TooFar;
    impl players::Policy for TooFar {
        fn name(&self) -> String {
            "too-far".into()
        }
        fn choose_at(&mut self, _: players::Decision<'_>, _: &[Play]) -> usize {
            0
        }
        fn choose(&mut self, game: &Game) -> pachisi::Result<usize> {
            Ok(game.legal_plays().len())
        }
    }
    let mut g = Game::from_preset("backgammon", 1).unwrap();
    g.roll().unwrap();
    let e = players::Policy::choose_play(&mut TooFar, &g).unwrap_err();
    assert!(matches!(e, Error::InvalidPlayer(_)), "{e}");
    assert!(e.to_string().contains("too-far"), "{e}");
}
