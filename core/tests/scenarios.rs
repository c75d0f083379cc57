//! Replays the shared scenario files of `tests/scenarios/<variant>/*.json` (the same files the
//! C and Python tests replay). The format is described in `tests/scenarios/README.md`.

mod common;

use common::scenario::{load, run};

fn run_variant(variant: &str) {
    let scenarios = load(variant);
    assert!(!scenarios.is_empty(), "no scenarios for {variant}");
    let mut failures = Vec::new();
    for (name, s) in &scenarios {
        if let Err(e) = run(s) {
            let title = s["name"].as_str().unwrap_or("");
            failures.push(format!("{name} ({title}): {e}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} {variant} scenarios failed:\n{}",
        failures.len(),
        scenarios.len(),
        failures.join("\n")
    );
}

#[test]
fn parcheesi() {
    run_variant("parcheesi");
}

#[test]
fn pachisi_online() {
    run_variant("pachisi-online");
}

#[test]
fn pachisi_family() {
    run_variant("pachisi-family");
}

#[test]
fn pachisi_classic() {
    run_variant("pachisi");
}

#[test]
fn backgammon() {
    run_variant("backgammon");
}
