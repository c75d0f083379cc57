//! Runs a target's body over its committed seeds and regression inputs (and the files of a
//! directory, if given), each input also mutated four times, `rounds` times over, on stable and
//! without libFuzzer: a fixed workload to time and profile (`perf record`) the checks.
//! `cargo run --release --manifest-path fuzz/Cargo.toml --no-default-features --example bench --
//! <target> [rounds] [dir]`; `bench dump <rules> <seed> <actions>` prints a seeded game's
//! record, `bench unit <rules> <seed> <actions>` times what its record costs, `bench from_json
//! <rules> <seed> <actions> <n>` only reads its record `n` times (for `valgrind --tool=callgrind`),
//! and `bench gen <target> <n> <dir>` writes `n` random inputs for `steps` or `game_tamper` (the
//! same on every run: a header of one of the nine rules, a seed below 5 and any number of
//! actions, then up to 48 bytes of operations or up to 8 edits).

use pachisi_fuzz::Choices;
use std::path::Path;
use std::time::Instant;

/// The committed seeds and regression inputs of `target`, then the files of `extra` if given.
fn inputs(target: &str, extra: Option<&str>) -> Vec<Vec<u8>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut dirs = vec![
        root.join("seeds").join(target),
        root.join("regressions").join(target),
    ];
    dirs.extend(extra.map(Into::into));
    let mut out = Vec::new();
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        let mut files: Vec<_> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
        files.sort();
        out.extend(files.iter().filter_map(|p| std::fs::read(p).ok()));
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let target = args.get(1).map(String::as_str).unwrap_or("steps");
    let rounds: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(20);
    if target == "dump" {
        // The record of the seeded game a header names: `bench dump <rules> <seed> <actions>`.
        let h: Vec<u8> = args[2..5].iter().map(|a| a.parse().unwrap()).collect();
        let (game, _) = pachisi_fuzz::seeded_game(&h).unwrap();
        println!("{}", game.to_json());
        return;
    }
    if target == "from_json" {
        // Only `Game::from_json` of a seeded game's record, `n` times.
        let h: Vec<u8> = args[2..5].iter().map(|a| a.parse().unwrap()).collect();
        let n: usize = args.get(5).and_then(|s| s.parse().ok()).unwrap_or(100);
        let (game, _) = pachisi_fuzz::seeded_game(&h).unwrap();
        let json = game.to_json();
        for _ in 0..n {
            let back = pachisi::Game::from_json(std::hint::black_box(&json)).unwrap();
            assert!(back == game);
        }
        return;
    }
    if target == "gen" {
        // `bench gen <target> <n> <dir>`: random inputs, the same on every run.
        let (what, n, dir) = (&args[2], args[3].parse::<usize>().unwrap(), &args[4]);
        std::fs::create_dir_all(dir).unwrap();
        let mut c = Choices::new(2026);
        for i in 0..n {
            let mut input = vec![c.below(9) as u8, c.below(5) as u8, c.below(256) as u8];
            let len = match what.as_str() {
                "steps" => c.below(49),
                "game_tamper" => 4 * c.below(9),
                other => panic!("no generator for {other}"),
            };
            input.extend((0..len).map(|_| c.below(256) as u8));
            std::fs::write(Path::new(dir).join(format!("{i:05}")), input).unwrap();
        }
        return;
    }
    if target == "unit" {
        // What a record costs: `bench unit <rules> <seed> <actions>`.
        let h: Vec<u8> = args[2..5].iter().map(|a| a.parse().unwrap()).collect();
        let (game, _) = pachisi_fuzz::seeded_game(&h).unwrap();
        let n = 200;
        let time = |what: &str, f: &mut dyn FnMut()| {
            let t = Instant::now();
            for _ in 0..n {
                f();
            }
            println!(
                "{what}: {:.1} us",
                t.elapsed().as_secs_f64() * 1e6 / n as f64
            );
        };
        let value = game.to_value();
        let json = game.to_json();
        time("to_value", &mut || {
            drop(std::hint::black_box(game.to_value()))
        });
        time("value clone", &mut || {
            drop(std::hint::black_box(value.clone()))
        });
        time("value to_string", &mut || {
            drop(std::hint::black_box(value.to_string()))
        });
        time("value ==", &mut || {
            assert!(std::hint::black_box(&value) == &value)
        });
        time("parse to value", &mut || {
            drop(std::hint::black_box(
                serde_json::from_str::<serde_json::Value>(&json).unwrap(),
            ))
        });
        time("from_json", &mut || {
            drop(std::hint::black_box(
                pachisi::Game::from_json(&json).unwrap(),
            ))
        });
        time("game clone", &mut || {
            drop(std::hint::black_box(game.clone()))
        });
        return;
    }
    let body: fn(&[u8]) = match target {
        "rules_json" => pachisi_fuzz::rules_json,
        "game_json" => pachisi_fuzz::game_json,
        "game_tamper" => pachisi_fuzz::game_tamper,
        "position" => pachisi_fuzz::position,
        "play_text" => pachisi_fuzz::play_text,
        "steps" => pachisi_fuzz::steps,
        other => panic!("no target {other}"),
    };
    let seeds = inputs(target, args.get(3).map(String::as_str));
    // Mutations as libFuzzer makes them, roughly: a few bytes changed, the header kept or not.
    let mut choices = Choices::new(1);
    let mut count = 0usize;
    let start = Instant::now();
    for _ in 0..rounds {
        for seed in &seeds {
            let mut input = seed.clone();
            body(&input);
            count += 1;
            for _ in 0..4 {
                if input.is_empty() {
                    break;
                }
                for _ in 0..1 + choices.below(3) {
                    let i = choices.below(input.len());
                    input[i] = choices.below(256) as u8;
                }
                body(&input);
                count += 1;
            }
        }
    }
    let t = start.elapsed().as_secs_f64();
    println!(
        "{target}: {count} inputs in {t:.2} s, {:.0} per second",
        count as f64 / t
    );
}
