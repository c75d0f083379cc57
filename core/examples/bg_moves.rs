//! Legal backgammon plays for the cross-check against independent engines.
//!
//! Reads lines `POSITION_ID D1 D2` on stdin (the GNU Backgammon Position ID with the side on roll
//! first, and the dice) and prints for each line the Position IDs of every distinct legal play's
//! result, still from the mover's side (the turn is not passed), sorted and space separated, or
//! `-` when the roll cannot be played; a bad line prints `error: ...`. With `--notation` each
//! result is followed by `=` and the play's notation with `_` for spaces (`sGfw...=8/5_6/5`).
//!
//! ```text
//! $ echo "4HPwATDgc/ABMA 3 1" | cargo run --release --example bg_moves
//! ```

use pachisi::backgammon::{BackgammonRules, BgState, Phase, from_position_id, position_id};
use pachisi::{Orders, Play, RuleSystem, SystemRules};
use std::io::{BufRead, BufWriter, Write};

fn answer(
    sys: &impl RuleSystem<State = BgState>,
    line: &str,
    buf: &mut Vec<Play>,
    notation: bool,
) -> Result<String, String> {
    let mut parts = line.split_whitespace();
    let (Some(id), Some(a), Some(b), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err("expected `POSITION_ID D1 D2`".into());
    };
    let die = |t: &str| -> Result<u8, String> {
        t.parse::<u8>()
            .ok()
            .filter(|d| (1..=6).contains(d))
            .ok_or_else(|| format!("bad die `{t}`"))
    };
    let (on_roll, opponent) = from_position_id(id).map_err(|e| e.to_string())?;
    let mut s = BgState::start(Phase::Move);
    s.checkers = [on_roll, opponent];
    s.dice = [die(a)?, die(b)?];
    sys.validate_state(&s).map_err(|e| e.to_string())?;
    buf.clear();
    sys.generate(&s, Orders::Distinct, buf);
    if buf.is_empty() {
        return Ok("-".into());
    }
    let mut ids: Vec<String> = buf
        .iter()
        .map(|p| {
            let mut t = s;
            for st in p.steps() {
                sys.apply_step(&mut t, st);
            }
            let id = position_id(&t.checkers[0], &t.checkers[1]);
            if notation {
                format!("{id}={}", sys.format_play(&s, p).replace(' ', "_"))
            } else {
                id
            }
        })
        .collect();
    ids.sort();
    Ok(ids.join(" "))
}

fn main() {
    let sys = BackgammonRules::standard()
        .build()
        .expect("the standard rules build");
    let stdin = std::io::stdin();
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut buf = Vec::new();
    let notation = std::env::args().any(|a| a == "--notation");
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if line.trim().is_empty() {
            continue;
        }
        let text = match answer(&sys, &line, &mut buf, notation) {
            Ok(t) => t,
            Err(e) => format!("error: {e}"),
        };
        if writeln!(out, "{text}").is_err() {
            break;
        }
    }
    let _ = out.flush();
}
