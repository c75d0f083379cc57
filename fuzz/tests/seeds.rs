//! Every committed seed (and every regression input, `fuzz/regressions/<target>/`) through its
//! target's checks once, on stable: `cargo test --manifest-path fuzz/Cargo.toml`.

use std::fs;
use std::path::Path;

fn run_dir(target: &str, check: fn(&[u8])) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut count = 0;
    for dir in ["seeds", "regressions"] {
        let Ok(entries) = fs::read_dir(root.join(dir).join(target)) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            let data = fs::read(&path).unwrap();
            eprintln!("{}", path.display());
            check(&data);
            count += 1;
        }
    }
    assert!(count > 0, "no seeds for {target}: run `make fuzz-seeds`");
}

#[test]
fn rules_json() {
    run_dir("rules_json", pachisi_fuzz::rules_json);
}

#[test]
fn game_json() {
    run_dir("game_json", pachisi_fuzz::game_json);
}

#[test]
fn game_tamper() {
    run_dir("game_tamper", pachisi_fuzz::game_tamper);
}

#[test]
fn position() {
    run_dir("position", pachisi_fuzz::position);
}

#[test]
fn play_text() {
    run_dir("play_text", pachisi_fuzz::play_text);
}

#[test]
fn steps() {
    run_dir("steps", pachisi_fuzz::steps);
}

/// The table of prepared games gives the game `seeded_game` plays, with its record, whatever
/// header selects it.
#[test]
fn prepared_games_are_the_seeded_games() {
    let n = pachisi_fuzz::rules_list().len() as u8;
    for header in [[0, 0, 0], [3, 17, 40], [n - 1, 255, 63], [5, 9, 22]] {
        let (game, _) = pachisi_fuzz::seeded_game(&header).unwrap();
        let json = game.to_json();
        // The same game by another rules byte and action count, then from the table again.
        let alias = [header[0] + n, header[1], header[2] + 64];
        for h in [header, alias, header] {
            let input = [h[0], h[1], h[2], 42];
            let (p, rest) = pachisi_fuzz::prepared_game(&input).unwrap();
            assert_eq!(rest, &[42]);
            assert_eq!(p.game().to_json(), json, "header {h:?}");
            assert_eq!(p.value().to_string(), json, "header {h:?}");
            assert_eq!(p.json(), json, "header {h:?}");
        }
    }
}
