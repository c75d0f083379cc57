//! Hardening of simulations and rules (issue #15): bounded threads, no preallocation from the
//! caller's count, cancellation and progress, the `max_rolls` cap of every preset (G-A) in the
//! simulator and in `Game`, and rules errors that name the option and quote input briefly.

use pachisi::sim::{
    MAX_THREADS, SimControl, simulate, simulate_controlled, simulate_range, summarize, watch,
};
use pachisi::tournament::simulate_lineup;
use pachisi::{Error, Game, Rules};
use serde_json::json;
use std::time::{Duration, Instant};

fn with(variant: &str, options: serde_json::Value) -> Rules {
    Rules::with_options(variant, &options).unwrap()
}

#[test]
fn thread_counts_are_bounded_and_zero_is_an_argument_error() {
    let rules = Rules::preset("backgammon").unwrap();
    for bad in [0, MAX_THREADS + 1, usize::MAX] {
        let err = simulate(&rules, 100, 1, Some(bad)).unwrap_err();
        assert!(matches!(err, Error::InvalidArgument(_)), "{bad}: {err}");
        assert!(err.to_string().contains("threads"), "{err}");
        let err = simulate_lineup(&rules, &["random", "random"], 0..100, 1, Some(bad)).unwrap_err();
        assert!(matches!(err, Error::InvalidArgument(_)), "{bad}: {err}");
    }
    let one = simulate(&rules, 300, 4, Some(1)).unwrap();
    assert_eq!(one, simulate(&rules, 300, 4, Some(MAX_THREADS)).unwrap());
    assert_eq!(one, simulate(&rules, 300, 4, None).unwrap());
}

#[test]
fn an_absurd_count_runs_and_can_be_cancelled() {
    // 2^64 - 1 games: nothing is allocated from the count, so the run starts at once and a
    // progress function that says stop ends it with `Cancelled`.
    let rules = Rules::preset("pachisi-family").unwrap();
    let start = Instant::now();
    let mut seen = 0;
    let run = watch(
        Duration::from_millis(10),
        |done| {
            seen = done;
            done < 500
        },
        {
            let rules = rules.clone();
            move |control| simulate_controlled(&rules, 1, 0..u64::MAX, Some(2), control)
        },
    );
    assert!(matches!(run, Err(Error::Cancelled(_))), "{run:?}");
    assert!(seen >= 500);
    assert!(start.elapsed() < Duration::from_secs(60));
    // Sequential path too.
    let control = SimControl::new();
    control.cancel();
    let err = simulate_controlled(&rules, 1, 0..u64::MAX, Some(1), &control).unwrap_err();
    assert!(matches!(err, Error::Cancelled(_)));
}

#[test]
fn progress_reports_every_game_done_and_ends_at_the_total() {
    let rules = Rules::preset("parcheesi").unwrap();
    let mut reports = Vec::new();
    let records = watch(
        Duration::from_millis(5),
        |done| {
            reports.push(done);
            true
        },
        {
            let rules = rules.clone();
            move |control| simulate_controlled(&rules, 2, 0..300, Some(3), control)
        },
    )
    .unwrap();
    assert_eq!(records, simulate_range(&rules, 2, 0..300, Some(1)).unwrap());
    assert_eq!(reports.last(), Some(&300));
    assert!(reports.windows(2).all(|w| w[0] <= w[1]));
}

#[test]
fn g_a_every_preset_has_a_default_max_rolls_far_above_its_games() {
    for v in pachisi::variants() {
        let rules = Rules::preset(v).unwrap();
        let cap = rules.options()["max_rolls"].as_u64().unwrap();
        assert!((1000..=100_000).contains(&cap), "{v}: {cap}");
        let records = simulate(&rules, 100, 9, None).unwrap();
        let longest = records.iter().map(|r| r.rolls as u64).max().unwrap();
        assert!(3 * longest < cap, "{v}: longest {longest}, cap {cap}");
        assert!(
            records.iter().all(|r| !r.truncated && r.winners != 0),
            "{v}"
        );
        let s = summarize(&records, Game::new(&rules, 0).seats());
        assert_eq!((s.unfinished, s.truncated), (0, 0));
    }
}

#[test]
fn g_a_games_past_max_rolls_are_truncated_in_every_simulator() {
    for v in pachisi::variants() {
        let rules = with(v, json!({"max_rolls": 12}));
        let records = simulate(&rules, 100, 3, Some(2)).unwrap();
        for r in &records {
            assert!(
                r.truncated && r.winners == 0 && r.winner == 255 && r.rolls == 12,
                "{v}"
            );
        }
        let s = summarize(&records, Game::new(&rules, 0).seats());
        assert_eq!((s.games, s.unfinished, s.truncated), (100, 100, 100), "{v}");
        let seats = Game::new(&rules, 0).seats() as usize;
        let lineup = vec!["greedy"; seats];
        let records = simulate_lineup(&rules, &lineup, 0..20, 3, Some(2)).unwrap();
        assert!(
            records
                .iter()
                .all(|r| r.truncated && r.winners == 0 && r.rolls == 12)
        );
    }
}

#[test]
fn g_a_a_game_past_max_rolls_is_over_without_a_winner_and_undo_resumes_it() {
    for v in pachisi::variants() {
        let rules = with(v, json!({"max_rolls": 7}));
        let mut g = Game::new(&rules, 5);
        let mut actions = 0;
        while !g.is_over() {
            if g.is_chance_node() {
                g.roll().unwrap();
            } else {
                let plays = g.legal_plays();
                g.play(&plays[0]).unwrap();
            }
            actions += 1;
            assert!(actions < 1000);
        }
        assert!(g.is_truncated(), "{v}");
        assert_eq!(g.rolls(), 7);
        assert_eq!((g.outcome(), g.winner()), (None, None));
        assert!(g.returns().iter().all(|&r| r == 0.0));
        assert!(matches!(g.roll(), Err(Error::WrongPhase(_))));
        // The record round-trips as a truncated game.
        let back = Game::from_json(&g.to_json()).unwrap();
        assert!(back.is_truncated() && back.is_over());
        // Undo goes back before the cap: the game goes on.
        while g.is_truncated() || !g.is_chance_node() {
            g.undo().unwrap();
        }
        assert!(!g.is_over() && !g.is_truncated() && g.rolls() < 7);
    }
}

#[test]
fn max_rolls_and_shell_probability_are_validated() {
    for v in pachisi::variants() {
        for bad in [json!(0), json!(100_001), json!(-1), json!("many")] {
            let err = Rules::with_options(v, &json!({ "max_rolls": bad })).unwrap_err();
            assert!(matches!(err, Error::InvalidRules(_)), "{v}: {err}");
            assert!(err.to_string().contains("max_rolls"), "{v}: {err}");
        }
    }
    // A shell probability whose throws would stall every game is refused (C-D).
    for p in [1e-9, 0.01, 0.99, 1.0 - 1e-9] {
        let err = Rules::with_options("pachisi", &json!({ "shell_probability": p })).unwrap_err();
        assert!(err.to_string().contains("shell_probability"), "{err}");
    }
    for p in [0.05, 0.95] {
        let rules = with("pachisi", json!({ "shell_probability": p }));
        let records = simulate(&rules, 20, 1, None).unwrap();
        assert_eq!(records.len(), 20);
    }
}

#[test]
fn rules_errors_name_the_option_in_every_preset() {
    let cases = [
        ("parcheesi", "capture", json!(1)),
        ("pachisi-online", "seats", json!("four")),
        ("pachisi-family", "bottom_faces", json!(1)),
        ("pachisi-family", "entry_tries", json!(-3)),
        ("pachisi", "units", json!("yes")),
        ("pachisi", "throw_table", json!("25")),
        ("backgammon", "cube", json!(2)),
        ("backgammon", "first_roll", json!("coin-toss")),
    ];
    for (v, key, value) in cases {
        let err = Rules::with_options(v, &json!({ key: value })).unwrap_err();
        let msg = err.to_string();
        assert!(matches!(err, Error::InvalidRules(_)), "{v}: {msg}");
        assert!(msg.contains(&format!("`{key}`")), "{v}: {msg}");
    }
    // From JSON too, with other valid keys around it.
    let err = Rules::from_json(r#"{"variant":"pachisi-family","seats":4,"bottom_faces":1}"#)
        .unwrap_err()
        .to_string();
    assert!(err.contains("`bottom_faces`"), "{err}");
}

#[test]
fn rules_errors_begin_with_the_variant_whichever_check_finds_them() {
    // Type errors (serde), range checks and combination checks of every rule system, each
    // reported as "<variant>: ..." once (not twice, not without it).
    let cases = [
        ("parcheesi", json!({ "seats": 5 })),
        ("parcheesi", json!({ "max_rolls": 0 })),
        ("parcheesi", json!({ "capture": 1 })),
        ("pachisi-online", json!({ "seats": 1 })),
        ("pachisi-online", json!({ "bonus_order": "any" })),
        ("pachisi-family", json!({ "seats": 5 })),
        ("pachisi-family", json!({ "max_rolls": 0 })),
        ("pachisi", json!({ "seats": 3 })),
        ("pachisi", json!({ "shell_probability": 1.0 })),
        ("backgammon", json!({ "max_cube": 3 })),
        ("backgammon", json!({ "jacoby": true })),
        ("backgammon", json!({ "max_rolls": 0 })),
    ];
    for (v, options) in cases {
        let err = Rules::with_options(v, &options).unwrap_err();
        let msg = err.to_string();
        assert!(matches!(err, Error::InvalidRules(_)), "{v}: {msg}");
        let body = msg.strip_prefix("invalid rules: ").unwrap_or(&msg);
        assert!(body.starts_with(&format!("{v}: ")), "{v} {options}: {msg}");
        assert!(!body[v.len() + 2..].starts_with(&format!("{v}: ")), "{msg}");
    }
}

#[test]
fn error_messages_quote_only_an_excerpt_of_long_input() {
    let long = "z".repeat(100_000);
    let errors = [
        Rules::preset(&long).unwrap_err(),
        Rules::with_options("pachisi-family", &json!({ "bottom_faces": long })).unwrap_err(),
        Rules::with_options("backgammon", &json!({ "first_roll": long })).unwrap_err(),
        Rules::with_options("parcheesi", &json!({ long.clone(): 1 })).unwrap_err(),
    ];
    for e in errors {
        let msg = e.to_string();
        assert!(msg.len() < 1000, "{} chars: {}", msg.len(), &msg[..200]);
        assert!(msg.contains("zzz"), "{msg}");
    }
}

#[test]
fn game_json_errors_name_the_field_path() {
    let mut g = Game::from_preset("parcheesi", 3).unwrap();
    for _ in 0..6 {
        if g.is_chance_node() {
            g.roll().unwrap();
        } else {
            let plays = g.legal_plays();
            g.play(&plays[0]).unwrap();
        }
    }
    let good: serde_json::Value = serde_json::from_str(&g.to_json()).unwrap();
    let mut cases: Vec<(serde_json::Value, &str)> = Vec::new();
    let mut v = good.clone();
    v["log"][1] = json!({"event": "roll", "seat": 300, "roll": [1, 2]});
    cases.push((v, "log[1]"));
    let mut v = good.clone();
    v["history"][0]["taken"] = json!("x".repeat(10_000));
    cases.push((v, "history[0].taken"));
    let mut v = good.clone();
    v.as_object_mut().unwrap().remove("state");
    cases.push((v, "state"));
    for (bad, path) in cases {
        let err = Game::from_json(&bad.to_string()).unwrap_err();
        let msg = err.to_string();
        assert!(matches!(err, Error::InvalidJson(_)), "{msg}");
        assert!(msg.contains(&format!("`{path}`")), "{path}: {msg}");
        assert!(msg.len() < 600, "{}", msg.len());
    }
}

#[test]
fn summarize_takes_any_seat_count() {
    // `winners` has bits for seats 0..16: more seats than that were a shift overflow (a panic
    // in debug builds, wrapped bits in release).
    let records = simulate(&Rules::preset("backgammon").unwrap(), 20, 3, Some(1)).unwrap();
    let two = summarize(&records, 2);
    for seats in [16, 17, 255] {
        let s = summarize(&records, seats);
        assert_eq!(s.win_rate.len(), seats as usize);
        assert_eq!(s.win_rate[..2], two.win_rate[..]);
        assert!(
            s.win_rate[2..].iter().all(|&w| w == 0.0),
            "{seats}: {:?}",
            s.win_rate
        );
    }
}
