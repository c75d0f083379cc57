//! Family Pachisi (`pachisi-family`, seed 000): the scenario files of
//! `tests/scenarios/pachisi-family/` (one per FAM clause and F decision), further clause tests,
//! bad input, and property tests over random games.

use pachisi::family::{FamilyRules, FamilyState, FamilySystem};
use pachisi::sim::random_game;
use pachisi::{Error, Game, Node, Orders, Play, Roll, RuleSystem, Rules, StepKind, SystemRules};
use serde_json::Value;
use std::collections::BTreeSet;

fn system() -> FamilySystem {
    FamilyRules::family().build().unwrap()
}

fn rules_with(options: Value) -> Rules {
    Rules::with_options("pachisi-family", &options).unwrap()
}

fn game_at(rules: &Rules, position: &str) -> Game {
    Game::from_position(rules, position, 0).unwrap()
}

/// The notations of the legal plays after `roll` at `position`.
fn plays_after(rules: &Rules, position: &str, roll: [u8; 2]) -> (Game, BTreeSet<String>) {
    let mut g = game_at(rules, position);
    g.set_roll(Roll::Dice(roll)).unwrap();
    let plays = g.legal_plays().iter().map(|p| g.format_play(p)).collect();
    (g, plays)
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// The positions (after the turn flow) every legal play leads to.
fn results(g: &Game) -> BTreeSet<String> {
    g.legal_plays()
        .iter()
        .map(|p| {
            let mut h = g.clone();
            h.play(p).unwrap();
            h.position()
        })
        .collect()
}

fn preset() -> Rules {
    Rules::preset("pachisi-family").unwrap()
}

const N4: &str = "n,n,n,n";

fn pos4(header: &str, c: [&str; 4]) -> String {
    format!("{header} {}/{}/{}/{}", c[0], c[1], c[2], c[3])
}

// ---------------------------------------------------------------------------------------------
// Scenario files (shared with the C and Python runners).

fn error_name(e: &Error) -> String {
    let d = format!("{e:?}");
    d.split(['(', ' ', '{']).next().unwrap_or("").to_string()
}

fn run_scenario(sc: &Value) {
    let name = sc["name"].as_str().unwrap_or("?");
    let rules = Rules::from_value(&sc["rules"]).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut g = Game::from_position(&rules, sc["position"].as_str().unwrap(), 0)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let roll: Roll = serde_json::from_value(sc["roll"].clone()).unwrap();
    if let Some(err) = sc.get("error") {
        let e = g.set_roll(roll).expect_err(name);
        assert_eq!(error_name(&e), err.as_str().unwrap(), "{name}");
        return;
    }
    g.set_roll(roll).unwrap_or_else(|e| panic!("{name}: {e}"));
    let check_plays = |g: &Game, want: &Value| {
        let got: BTreeSet<String> = g.legal_plays().iter().map(|p| g.format_play(p)).collect();
        let want: BTreeSet<String> = want
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect();
        assert_eq!(got, want, "{name}: legal plays");
    };
    check_plays(&g, &sc["plays"]);
    for step in sc
        .get("then")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let Some(r) = step.get("roll") {
            let roll: Roll = serde_json::from_value(r.clone()).unwrap();
            g.set_roll(roll).unwrap_or_else(|e| panic!("{name}: {e}"));
            check_plays(&g, &step["plays"]);
            continue;
        }
        if let Some(p) = step.get("play") {
            g.play_notation(p.as_str().unwrap())
                .unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        if let Some(p) = step.get("position") {
            assert_eq!(g.position(), p.as_str().unwrap(), "{name}: position");
        }
    }
}

#[test]
fn scenario_files() {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/scenarios/pachisi-family"
    );
    let mut count = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        match v {
            Value::Array(list) => list.iter().for_each(run_scenario),
            one => run_scenario(&one),
        }
        count += 1;
    }
    assert!(count >= 15, "only {count} scenario files");
}

// ---------------------------------------------------------------------------------------------

#[test]
fn random_games_finish() {
    let sys = system();
    let mut buf = Vec::new();
    for seed in 0..200 {
        let rec = random_game(&sys, seed, &mut buf);
        assert_ne!(rec.winners, 0, "seed {seed} did not finish: {rec:?}");
    }
}
