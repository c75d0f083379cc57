//! Checks of the variant-independent API, run for every preset: rules as data and its errors,
//! phases, undo, JSON, the step-by-step interface, seeded replay, simulation.

use pachisi::{Error, Game, Node, Play, Roll, Rules, variants};
use std::collections::BTreeSet;

/// Plays a random game (choices seeded by `seed`) for at most `max_actions` rolls and plays.
fn random_decisions(game: &mut Game, seed: u64, max_actions: usize) {
    visit_random_decisions(game, seed, max_actions, |_, _| {});
}

/// [`random_decisions`], calling `visit` with the game and its legal plays at each decision.
fn visit_random_decisions(
    game: &mut Game,
    seed: u64,
    max_actions: usize,
    mut visit: impl FnMut(&Game, &[Play]),
) {
    let mut rng = pachisi::dice::rng_from_seed(seed);
    for _ in 0..max_actions {
        match game.node() {
            Node::Over => return,
            Node::Chance => {
                game.roll().unwrap();
            }
            Node::Decision => {
                let plays = game.legal_plays();
                assert!(!plays.is_empty(), "a decision node always has a play");
                visit(game, &plays);
                let i = pachisi::sim::uniform_index(&mut rng, plays.len());
                game.play(&plays[i]).unwrap();
            }
        }
    }
}

#[test]
fn every_preset_builds_and_round_trips_as_json() {
    for v in variants() {
        let r = Rules::preset(v).unwrap();
        assert_eq!(r.variant(), *v);
        let back = Rules::from_json(&r.to_json()).unwrap();
        assert_eq!(back, r, "{v}");
        let parsed: Rules = v.parse().unwrap();
        assert_eq!(parsed, r);
        assert!(!r.options().is_empty(), "{v} has options");
    }
}

#[test]
fn rules_errors_are_typed_and_clear() {
    assert!(matches!(
        Rules::preset("chess"),
        Err(Error::UnknownVariant { .. })
    ));
    assert!(matches!(Rules::from_json("{"), Err(Error::InvalidJson(_))));
    assert!(matches!(
        Rules::from_json("[1]"),
        Err(Error::InvalidJson(_))
    ));
    assert!(matches!(
        Rules::from_json("{}"),
        Err(Error::InvalidRules(_))
    ));
    assert!(matches!(
        Rules::from_json(r#"{"variant": 3}"#),
        Err(Error::InvalidRules(_))
    ));
    for v in variants() {
        let err =
            Rules::from_json(&format!(r#"{{"variant":"{v}","no_such_option":1}}"#)).unwrap_err();
        assert!(matches!(err, Error::InvalidRules(_)), "{v}: {err}");
        assert!(err.to_string().contains("no_such_option"), "{v}: {err}");
        // A wrong type for a real option is an error too.
        let r = Rules::preset(v).unwrap();
        let key = r.options().keys().next().unwrap().clone();
        let err = r
            .with(&key, serde_json::json!({"not": "valid"}))
            .unwrap_err();
        assert!(matches!(err, Error::InvalidRules(_)), "{v}.{key}: {err}");
    }
}

#[test]
fn phases_are_enforced_and_leave_the_game_unchanged() {
    for v in variants() {
        let mut g = Game::from_preset(v, 1).unwrap();
        assert_eq!(g.history_len(), 0);
        assert!(matches!(g.undo(), Err(Error::WrongPhase(_))), "{v}");
        // Reach a decision node.
        let mut guard = 0;
        while g.node() != Node::Decision && guard < 1000 {
            if g.is_over() {
                break;
            }
            g.roll().unwrap();
            guard += 1;
        }
        if g.node() != Node::Decision {
            continue;
        }
        let before = g.to_json();
        assert!(matches!(g.roll(), Err(Error::WrongPhase(_))), "{v}");
        assert!(
            matches!(g.set_roll(Roll::Dice([1, 2])), Err(Error::WrongPhase(_))),
            "{v}"
        );
        assert_eq!(g.to_json(), before);
        // A play that is not listed is illegal.
        let mut bogus = Play::new();
        bogus.push(pachisi::Step {
            seat: 9,
            from: 200,
            to: 201,
            value: 1,
            ..Default::default()
        });
        assert!(matches!(g.play(&bogus), Err(Error::IllegalMove(_))), "{v}");
        assert!(g.play_notation("no such move").is_err(), "{v}");
        assert!(g.step(&bogus.steps()[0]).is_err(), "{v}");
        assert_eq!(g.to_json(), before, "{v}: failed calls changed the game");
    }
}

#[test]
fn random_games_finish_replay_and_round_trip() {
    for v in variants() {
        for seed in 0..4u64 {
            let mut a = Game::from_preset(v, seed).unwrap();
            random_decisions(&mut a, seed, 100_000);
            assert!(a.is_over(), "{v} seed {seed} did not finish");
            let o = a.outcome().unwrap();
            assert!(o.winners != 0 && o.points >= 1, "{v}");
            let r = a.returns();
            assert!(
                r.iter().sum::<f64>().abs() < 1e-9,
                "{v}: returns are zero-sum"
            );
            let mut b = Game::from_preset(v, seed).unwrap();
            random_decisions(&mut b, seed, 100_000);
            assert_eq!(a.log(), b.log(), "{v}: a seed replays identically");
            let back = Game::from_json(&a.to_json()).unwrap();
            assert_eq!(back.to_json(), a.to_json(), "{v}");
        }
    }
}

#[test]
fn undo_restores_everything_including_the_generator() {
    for v in variants() {
        let mut g = Game::from_preset(v, 11).unwrap();
        random_decisions(&mut g, 3, 25);
        if g.is_over() {
            continue;
        }
        let snapshot = g.to_json();
        let n = g.history_len();
        random_decisions(&mut g, 4, 10);
        while g.history_len() > n {
            g.undo().unwrap();
        }
        assert_eq!(g.to_json(), snapshot, "{v}");
        // Mid-game JSON round trip resumes identically.
        let mut a = Game::from_json(&snapshot).unwrap();
        let mut b = Game::from_json(&snapshot).unwrap();
        random_decisions(&mut a, 5, 30);
        random_decisions(&mut b, 5, 30);
        assert_eq!(a.to_json(), b.to_json(), "{v}");
    }
}

fn after(g: &Game, p: &Play) -> String {
    let mut c = g.clone();
    c.play(p).unwrap();
    c.to_json_state_key()
}

trait StateKey {
    fn to_json_state_key(&self) -> String;
}
impl StateKey for Game {
    fn to_json_state_key(&self) -> String {
        self.state_value().to_string()
    }
}

/// Walks every step sequence of the step-by-step interface; returns the final states.
fn walk_steps(g: &Game, out: &mut BTreeSet<String>, budget: &mut usize) {
    if *budget == 0 {
        return;
    }
    *budget -= 1;
    let steps = g.legal_steps();
    let taken = g.taken().len();
    // A complete play can end here when finish_play is accepted.
    let mut done = g.clone();
    if done.finish_play().is_ok() {
        out.insert(done.to_json_state_key());
    }
    for s in steps {
        let mut c = g.clone();
        c.step(&s).unwrap();
        if c.taken().len() > taken {
            walk_steps(&c, out, budget);
        } else {
            // The play ended by itself.
            out.insert(c.to_json_state_key());
        }
    }
}

#[test]
fn plays_are_distinct_and_the_step_interface_reaches_exactly_them() {
    for v in variants() {
        let mut g = Game::from_preset(v, 21).unwrap();
        let mut checked = 0;
        visit_random_decisions(&mut g, 99, 3000, |g, plays| {
            let results: BTreeSet<String> = plays.iter().map(|p| after(g, p)).collect();
            assert_eq!(
                results.len(),
                plays.len(),
                "{v}: plays are distinct by result"
            );
            if checked < 40 && plays.len() <= 60 {
                let mut reached = BTreeSet::new();
                let mut budget = 20_000;
                walk_steps(g, &mut reached, &mut budget);
                if budget > 0 {
                    assert_eq!(
                        reached,
                        results,
                        "{v}: steps reach exactly the plays at {}",
                        g.position()
                    );
                    checked += 1;
                }
            }
        });
    }
}

#[test]
fn chance_outcomes_sum_to_one() {
    for v in variants() {
        let g = Game::from_preset(v, 0).unwrap();
        if g.is_chance_node() {
            let o = g.chance_outcomes();
            assert!(!o.is_empty());
            let total: f64 = o.iter().map(|c| c.probability).sum();
            assert!((total - 1.0).abs() < 1e-9, "{v}: {total}");
            for c in &o {
                let mut h = g.clone();
                h.set_roll(c.roll)
                    .unwrap_or_else(|e| panic!("{v}: listed outcome {:?} rejected: {e}", c.roll));
            }
        }
    }
}

#[test]
fn positions_round_trip_through_notation() {
    for v in variants() {
        let rules = Rules::preset(v).unwrap();
        let mut g = Game::from_preset(v, 8).unwrap();
        for k in 0..200 {
            if g.is_over() {
                break;
            }
            if g.is_chance_node() {
                let p = g.position();
                let back = Game::from_position(&rules, &p, 0)
                    .unwrap_or_else(|e| panic!("{v}: `{p}` does not parse back: {e}"));
                assert_eq!(back.position(), p, "{v}");
                assert_eq!(
                    back.state_value(),
                    g.state_value(),
                    "{v} at action {k}: `{p}`"
                );
            }
            random_decisions(&mut g, k, 1);
        }
        assert!(matches!(
            Game::from_position(&rules, "\u{1F3B2} garbage", 0),
            Err(Error::InvalidNotation(_)) | Err(Error::InvalidPosition(_))
        ));
    }
}

#[test]
fn simulation_is_reproducible_and_independent_of_threads() {
    for v in variants() {
        let rules = Rules::preset(v).unwrap();
        let a = pachisi::sim::simulate(&rules, 80, 5, Some(1)).unwrap();
        let b = pachisi::sim::simulate(&rules, 80, 5, Some(2)).unwrap();
        assert_eq!(a, b, "{v}");
        assert_eq!(a.len(), 80);
        assert!(a.iter().all(|r| r.winners != 0), "{v}: every game finished");
        let s = pachisi::sim::summarize(&a, Game::new(&rules, 0).seats());
        assert_eq!(s.games, 80);
        assert!(s.mean_rolls > 0.0);
    }
    let r = Rules::preset("parcheesi").unwrap();
    assert!(pachisi::sim::simulate(&r, 1, 0, Some(0)).is_err());
}

mod fuzz {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, .. ProptestConfig::default() })]

        /// Arbitrary text (non-ASCII included) as a position, a play or rules JSON is an error,
        /// never a panic.
        #[test]
        fn arbitrary_text_never_panics(text in "\\PC{0,40}", idx in 0usize..5) {
            let v = variants()[idx];
            let rules = Rules::preset(v).unwrap();
            let _ = Game::from_position(&rules, &text, 0);
            let _ = Rules::from_json(&text);
            let _ = Game::from_json(&text);
            let mut g = Game::from_preset(v, 1).unwrap();
            while g.is_chance_node() {
                g.roll().unwrap();
            }
            let before = g.to_json();
            let _ = g.parse_play(&text);
            let _ = g.play_notation(&text);
            prop_assert!(g.to_json() == before || g.parse_play(&text).is_ok());
        }

        /// Positions with a few characters changed are an error or a valid position, never a panic.
        #[test]
        fn mutated_positions_never_panic(seed in 0u64..50, idx in 0usize..5, cut in 0usize..60, ch in proptest::char::any()) {
            let v = variants()[idx];
            let rules = Rules::preset(v).unwrap();
            let mut g = Game::from_preset(v, seed).unwrap();
            random_decisions(&mut g, seed, (seed as usize) * 3);
            let p = g.position();
            let mut chars: Vec<char> = p.chars().collect();
            if !chars.is_empty() {
                let i = cut % chars.len();
                chars[i] = ch;
            }
            let text: String = chars.into_iter().collect();
            if let Ok(h) = Game::from_position(&rules, &text, 0) {
                // Whatever parses must write back to something that parses to the same state.
                let again = Game::from_position(&rules, &h.position(), 0).unwrap();
                prop_assert_eq!(again.state_value(), h.state_value());
            }
        }
    }
}

#[test]
fn xgid_reader_rejects_non_ascii_text() {
    assert!(
        pachisi::backgammon::from_xgid("XGIé=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10")
            .is_err()
    );
    assert!(pachisi::backgammon::from_xgid("é").is_err());
}

/// Every legal play has a notation of its own that parses back to it, in every preset and under
/// other option sets (issue: two plays, one notation), over random games.
#[test]
fn every_play_has_a_distinct_notation_that_parses_back() {
    use serde_json::json;
    let mut sets: Vec<(&str, serde_json::Value)> =
        variants().iter().map(|v| (*v, json!({}))).collect();
    sets.extend([
        (
            "parcheesi",
            json!({"seats": 2, "max_pieces_per_square": 4, "blockade_turn_limit": 2}),
        ),
        (
            "parcheesi",
            json!({"bonus_obligation": "most-bonuses", "blockade_turn_limit": 1}),
        ),
        (
            "parcheesi",
            json!({"pass_allowed": true, "max_pieces_per_square": 3}),
        ),
        (
            "pachisi-online",
            json!({"blockade_turn_limit": 2, "seats": 3}),
        ),
        (
            "pachisi-online",
            json!({"capture": false, "blockades": false, "pass_allowed": true}),
        ),
        ("pachisi-family", json!({"seats": 2, "teams": false})),
    ]);
    for (v, opts) in sets {
        // An option set the preset does not take is a bug of this list.
        let rules = Rules::with_options(v, &opts).unwrap_or_else(|e| panic!("{v} {opts}: {e}"));
        for seed in 0..3u64 {
            let mut g = Game::new(&rules, seed);
            visit_random_decisions(&mut g, seed + 100, 600, |g, plays| {
                let mut seen = BTreeSet::new();
                for p in plays {
                    let text = g.format_play(p);
                    let here = || format!("{v} {opts}: `{text}` at {}", g.position());
                    assert!(seen.insert(text.clone()), "{} (twice)", here());
                    let back = g.parse_play(&text).unwrap();
                    assert_eq!(after(g, &back), after(g, p), "{}", here());
                }
            });
        }
    }
}

#[test]
fn text_types_print_what_they_parse() {
    // Rules, Roll, Encoding and InputEncoding had one of Display and FromStr but not the other.
    use pachisi::players::InputEncoding;
    use pachisi::rl::{Encoding, Observation};
    for v in pachisi::variants() {
        let r = Rules::preset(v).unwrap();
        assert_eq!(r.to_string().parse::<Rules>().unwrap(), r);
        assert_eq!(r.to_string(), r.to_json());
    }
    for roll in [
        Roll::Dice([1, 6]),
        Roll::Dice([6, 1]),
        Roll::Cowries(0),
        Roll::Cowries(6),
    ] {
        assert_eq!(roll.to_string().parse::<Roll>().unwrap(), roll);
    }
    for bad in [
        "", "5", "5-", "-3", "5-3-1", "+5-3", "5-300", "x up", "up", "2up", " up",
    ] {
        let e = bad.parse::<Roll>().unwrap_err();
        assert!(matches!(e, Error::InvalidNotation(_)), "{bad:?}: {e}");
    }
    for e in [Encoding::Step, Encoding::Play, Encoding::OpenSpiel] {
        assert_eq!(e.to_string().parse::<Encoding>().unwrap(), e);
    }
    for e in [InputEncoding::Observation, InputEncoding::Features] {
        assert_eq!(e.to_string().parse::<InputEncoding>().unwrap(), e);
    }
    for o in [Observation::Plain, Observation::Features] {
        assert_eq!(o.to_string().parse::<Observation>().unwrap(), o);
    }
}

#[test]
fn a_game_reads_back_from_a_json_value_and_through_serde() {
    // `Game` had `to_value` but no `from_value`, and no serde impls (Rules has both).
    #[derive(serde::Serialize, serde::Deserialize)]
    struct Saved {
        name: String,
        game: Game,
    }
    for v in variants() {
        let mut g = Game::from_preset(v, 4).unwrap();
        random_decisions(&mut g, 4, 30);
        assert!(Game::from_value(&g.to_value()).unwrap() == g, "{v}");
        let text = serde_json::to_string(&Saved {
            name: v.to_string(),
            game: g.clone(),
        })
        .unwrap();
        let back: Saved = serde_json::from_str(&text).unwrap();
        assert!(back.game == g, "{v}");
        assert_eq!(back.game.to_json(), g.to_json());
    }
    let e = serde_json::from_str::<Game>(r#"{"rules": {"variant": "chess"}}"#).unwrap_err();
    assert!(e.to_string().contains("chess"), "{e}");
}
