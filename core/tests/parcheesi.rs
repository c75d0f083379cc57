//! Parcheesi (`parcheesi` preset): scenario tests per clause (PAR-n) and decision (P-x).
use pachisi::{Game, Roll, Rules};
use serde_json::json;
use std::collections::BTreeSet;

fn rules(opts: serde_json::Value) -> Rules {
    Rules::with_options("parcheesi", &opts).unwrap()
}

fn game_at(opts: serde_json::Value, pos: &str) -> Game {
    Game::from_position(&rules(opts), pos, 1).unwrap()
}

fn plays(g: &Game) -> BTreeSet<String> {
    g.legal_plays().iter().map(|p| g.format_play(p)).collect()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

#[test]
fn smoke_random_games() {
    let r = Rules::preset("parcheesi").unwrap();
    for seed in 0..5 {
        let mut g = Game::new(&r, seed);
        let mut n = 0;
        while !g.is_over() {
            if g.is_chance_node() {
                g.roll().unwrap();
            } else {
                let p = g.legal_plays();
                g.play(&p[n % p.len()]).unwrap();
            }
            n += 1;
        }
        println!("{seed}: {n} {:?} {}", g.winner(), g.position());
    }
}

#[test]
fn smoke_positions() {
    let mut g = game_at(
        json!({}),
        "0:0,0,10,12 1:0,0,0,0 2:0,0,0,0 3:0,0,0,0 turn:0 doubles:0",
    );
    g.set_roll(Roll::Dice([2, 2])).unwrap();
    println!("{:?}", plays(&g));
    let _ = set(&[]);
}

/// Speed check (release): `cargo test --release -p pachisi --test parcheesi -- --ignored --nocapture`.
#[test]
#[ignore]
fn speed_random_games() {
    use pachisi::SystemRules;
    let sys = pachisi::race::RaceRules::parcheesi().build().unwrap();
    let mut buf = Vec::new();
    let n = 2000;
    let t = std::time::Instant::now();
    let mut rolls = 0u64;
    for seed in 0..n {
        let r = pachisi::sim::random_game(&sys, seed, &mut buf);
        assert!(r.winner < 4);
        rolls += r.rolls as u64;
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "{n} games in {secs:.3}s: {:.0} games/s, {:.0} rolls/game",
        n as f64 / secs,
        rolls as f64 / n as f64
    );
}
