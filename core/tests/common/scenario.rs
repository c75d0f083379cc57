//! The runner of the shared scenario files `tests/scenarios/<variant>/*.json` (the same files the
//! C and Python suites replay). The format is described in `tests/scenarios/README.md`.
#![allow(dead_code)]

use pachisi::{Game, Roll, Rules};
use serde_json::Value;
use std::path::{Path, PathBuf};

pub fn scenario_dir(variant: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/scenarios")
        .join(variant)
}

/// Loads every scenario of a variant: each file holds one scenario object or an array of them.
pub fn load(variant: &str) -> Vec<(String, Value)> {
    let dir = scenario_dir(variant);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files.iter().flat_map(|f| load_file(f)).collect()
}

fn notations(game: &Game) -> Vec<String> {
    let mut v: Vec<String> = game
        .legal_plays()
        .iter()
        .map(|p| game.format_play(p))
        .collect();
    v.sort();
    v
}

fn expected_plays(v: &Value) -> Result<Vec<String>, String> {
    let arr = v
        .as_array()
        .ok_or("`plays` must be an array of notations")?;
    let mut out: Vec<String> = arr
        .iter()
        .map(|x| {
            x.as_str()
                .map(str::to_string)
                .ok_or("play notations are strings")
        })
        .collect::<Result<_, _>>()?;
    out.sort();
    Ok(out)
}

fn error_name(e: &pachisi::Error) -> String {
    let dbg = format!("{e:?}");
    dbg.split(['(', ' ', '{']).next().unwrap_or("").to_string()
}

/// A roll followed by its expectation (`plays` or `error`).
fn roll_and_check(game: &mut Game, entry: &Value) -> Result<(), String> {
    let roll: Roll = serde_json::from_value(entry["roll"].clone())
        .map_err(|e| format!("bad `roll` {}: {e}", entry["roll"]))?;
    let res = game.set_roll(roll);
    if let Some(err) = entry.get("error") {
        let want = err.as_str().ok_or("`error` must be a string")?;
        return match res {
            Err(e) if error_name(&e) == want => Ok(()),
            Err(e) => Err(format!("roll {roll}: expected error {want}, got {e:?}")),
            Ok(()) => Err(format!("roll {roll}: expected error {want}, got success")),
        };
    }
    res.map_err(|e| format!("roll {roll}: {e}"))?;
    if let Some(plays) = entry.get("plays") {
        let want = expected_plays(plays)?;
        let got = notations(game);
        if want != got {
            return Err(format!(
                "roll {roll}: legal plays differ\n  expected: {want:?}\n  engine:   {got:?}"
            ));
        }
    }
    // Every listed play's notation must parse back to a play with the same result.
    for p in game.legal_plays() {
        let text = game.format_play(&p);
        let back = game
            .parse_play(&text)
            .map_err(|e| format!("notation `{text}` does not parse back: {e}"))?;
        let mut a = game.clone();
        let mut b = game.clone();
        a.play(&p).map_err(|e| e.to_string())?;
        b.play(&back).map_err(|e| e.to_string())?;
        if a.position() != b.position() {
            return Err(format!("notation `{text}` parses to another play"));
        }
    }
    Ok(())
}

/// The engine's canonical form of a position (piece order within a seat may differ in files).
fn canonical_position(rules: &Rules, text: &str) -> Result<String, String> {
    Game::from_position(rules, text, 0)
        .map(|g| g.position())
        .map_err(|e| e.to_string())
}

pub fn run(s: &Value) -> Result<(), String> {
    let rules = Rules::from_value(&s["rules"]).map_err(|e| format!("rules: {e}"))?;
    let position = s["position"]
        .as_str()
        .ok_or("`position` must be a string")?;
    let mut game =
        Game::from_position(&rules, position, 0).map_err(|e| format!("position: {e}"))?;
    // The engine writes a canonical form; that form must read back to itself.
    let canonical = game.position();
    let again = Game::from_position(&rules, &canonical, 0)
        .map_err(|e| format!("canonical position `{canonical}` does not parse: {e}"))?;
    if again.position() != canonical || again.state_value() != game.state_value() {
        return Err(format!("position `{canonical}` does not round-trip"));
    }
    if s.get("roll").is_some() {
        roll_and_check(&mut game, s)?;
    }
    if let Some(then) = s.get("then") {
        for (i, entry) in then
            .as_array()
            .ok_or("`then` must be an array")?
            .iter()
            .enumerate()
        {
            if entry.get("roll").is_some() {
                roll_and_check(&mut game, entry).map_err(|e| format!("then[{i}]: {e}"))?;
            }
            if let Some(p) = entry.get("play") {
                let text = p.as_str().ok_or("`play` must be a string")?;
                game.play_notation(text)
                    .map_err(|e| format!("then[{i}]: play `{text}`: {e}"))?;
            }
            if let Some(pos) = entry.get("position") {
                let text = pos.as_str().ok_or("`position` must be a string")?;
                let want = canonical_position(&rules, text)
                    .map_err(|e| format!("then[{i}]: expected position: {e}"))?;
                if game.position() != want {
                    return Err(format!(
                        "then[{i}]: position differs\n  expected: {want}\n  engine:   {}",
                        game.position()
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Reads one scenario file (an object or an array of them).
pub fn load_file(path: &Path) -> Vec<(String, Value)> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let v: Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{}: invalid JSON: {e}", path.display()));
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    match v {
        Value::Array(items) => items
            .into_iter()
            .enumerate()
            .map(|(i, item)| (format!("{name}[{i}]"), item))
            .collect(),
        other => vec![(name, other)],
    }
}

/// Runs every scenario of one file of a variant (`file` without `.json`); panics on a mismatch.
pub fn run_file(variant: &str, file: &str) {
    let path = scenario_dir(variant).join(format!("{file}.json"));
    for (name, s) in load_file(&path) {
        if let Err(e) = run(&s) {
            panic!("{name} ({}): {e}", s["name"].as_str().unwrap_or(""));
        }
    }
}
