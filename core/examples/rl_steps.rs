//! Steps a `VecEnv` with random legal actions for a fixed number of calls and prints the games
//! finished and the steps taken: a deterministic driver for profiling the environment (run it
//! under `valgrind --tool=callgrind`, whose instruction counts do not depend on the machine's
//! load).
//!
//! ```text
//! $ cargo run --release -p pachisi --example rl_steps -- backgammon 64 200
//! ```
//!
//! Arguments: preset (default `backgammon`, played without the cube), number of environments
//! (64), calls to `step` (200), then optionally `nodigest` to skip the digest (whose hashing of
//! every mask and observation would otherwise be a third of the instructions counted) and the
//! encoding, `step` (the default), `play` or `openspiel` (backgammon only).

use pachisi::Rules;
use pachisi::rl::{
    Encoding,
    env::{OutputBuffers, VecEnv},
};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let preset = args.first().map_or("backgammon", String::as_str);
    let n: usize = args.get(1).map_or(Ok(64), |a| a.parse())?;
    let calls: usize = args.get(2).map_or(Ok(200), |a| a.parse())?;
    let mut with_digest = true;
    let mut encoding = Encoding::Step;
    for arg in args.iter().skip(3) {
        match arg.as_str() {
            "nodigest" => with_digest = false,
            other => {
                encoding = other.parse().map_err(|_| {
                    format!(
                        "unknown argument `{other}` (expected `nodigest`, `step`, `play` or `openspiel`)"
                    )
                })?
            }
        }
    }
    let rules = if preset == "backgammon" {
        Rules::with_options(preset, &serde_json::json!({"cube": false}))?
    } else {
        Rules::preset(preset)?
    };
    let mut env = VecEnv::new(&rules, n, 0, encoding, None)?;
    let mut buffers = OutputBuffers::new(&env);
    let mut out = buffers.outputs();
    env.reset(None, &mut out)?;
    let mut actions = vec![0i64; n];
    let mut games = 0usize;
    // A digest of the trajectory (actions, masks, observations), so two builds can be checked
    // to step the same games.
    let mut digest = 0xcbf2_9ce4_8422_2325u64;
    let mut mix = |x: u64| digest = (digest ^ x).wrapping_mul(0x100_0000_01b3);
    for _ in 0..calls {
        env.random_actions(&mut actions);
        env.step(&actions, &mut out)?;
        games += out.terminated.iter().filter(|&&t| t).count();
        if !with_digest {
            continue;
        }
        actions.iter().for_each(|&a| mix(a as u64));
        out.mask.iter().for_each(|&m| mix(u64::from(m)));
        out.obs.iter().for_each(|&o| mix(u64::from(o.to_bits())));
    }
    let digest = if with_digest {
        format!("{digest:016x}")
    } else {
        "skipped".to_string()
    };
    println!(
        "{preset}: {games} games finished, {} steps, digest {digest}",
        n * calls
    );
    Ok(())
}
