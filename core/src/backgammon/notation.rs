//! Move notation: `8/5 6/5`, `bar/22`, `6/off`, `13/7(2)`, `24/18*`, `24/18*/13`, `24/13`.
//!
//! Written in GNU Backgammon's style (checked against its own formatter): the steps are ordered
//! from the highest starting point, a step continuing an earlier move is joined to it and the
//! points passed are left out unless a blot was hit there; equal neighbouring moves are grouped
//! with a count (`13/9 13/11(2)`, `24/20 24/22`). Any equivalent form is read: order,
//! grouping, split or joined steps, `bar`/`25`, `off`/`0`.

use super::{BAR, BackgammonSystem, BgState};
use crate::play::{Play, StepKind};
use crate::{Error, Result};

fn point_name(p: u8) -> String {
    match p as usize {
        BAR => "bar".into(),
        0 => "off".into(),
        _ => p.to_string(),
    }
}

/// Writes a play.
pub(super) fn format_play(_s: &BgState, play: &Play) -> String {
    let Some(first) = play.steps().first() else {
        return String::new();
    };
    match first.kind {
        StepKind::Double => return "double".into(),
        StepKind::NoDouble => return "roll".into(),
        StepKind::Take => return "take".into(),
        StepKind::Drop => return "drop".into(),
        _ => {}
    }
    // As GNU Backgammon: order the steps from the highest start (then the highest end), join a
    // step to the first earlier move ending where it starts, and keep the moves in that order.
    let mut steps: Vec<_> = play.steps().to_vec();
    steps.sort_by(|a, b| b.from.cmp(&a.from).then(b.to.cmp(&a.to)));
    // Chains of one checker: (point, hit there).
    let mut chains: Vec<Vec<(u8, bool)>> = Vec::new();
    for st in &steps {
        let link = chains
            .iter_mut()
            .find(|c| c[c.len() - 1].0 == st.from && st.from != 0);
        match link {
            Some(c) => c.push((st.to, st.captured > 0)),
            None => chains.push(vec![(st.from, false), (st.to, st.captured > 0)]),
        }
    }
    // A point where the play hit is starred once, on the first move landing there (`8/4* 6/4`);
    // moves along the same path are grouped whatever their stars (`6/4*(2)`, `6/4*/2(2)`).
    // (Masks are u64 and guarded: a foreign play may name any point and must not panic.)
    let bit = |p: u8| 1u64.checked_shl(p as u32).unwrap_or(0);
    let hit_points: u64 = steps
        .iter()
        .filter(|st| st.captured > 0)
        .fold(0, |m, st| m | bit(st.to));
    let mut starred = 0u64;
    let mut moves: Vec<(String, String)> = Vec::with_capacity(chains.len());
    for c in &chains {
        let mut text = point_name(c[0].0);
        let mut key = text.clone();
        let last = c.len() - 1;
        for (i, &(p, _)) in c.iter().enumerate().skip(1) {
            let hit = p > 0 && hit_points & bit(p) != 0 && starred & bit(p) == 0;
            // The key names every point, so only moves along the same path are grouped.
            key.push('/');
            key.push_str(&point_name(p));
            if hit || i == last {
                text.push('/');
                text.push_str(&point_name(p));
                if hit {
                    text.push('*');
                    starred |= bit(p);
                }
            }
        }
        moves.push((key, text));
    }
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < moves.len() {
        let mut n = 1;
        while i + n < moves.len() && moves[i + n].0 == moves[i].0 {
            n += 1;
        }
        if n > 1 {
            parts.push(format!("{}({n})", moves[i].1));
        } else {
            parts.push(moves[i].1.clone());
        }
        i += n;
    }
    parts.join(" ")
}

/// The net change of the mover's checkers (index 0 off .. 25 bar) and the hit points.
#[derive(PartialEq, Eq, Debug)]
struct Effect {
    delta: [i16; 26],
    hits: u32,
    /// Points written as landings (intermediate or final).
    landings: u32,
}

fn parse_point(text: &str, whole: &str) -> Result<(u8, bool)> {
    let (body, star) = match text.strip_suffix('*') {
        Some(b) => (b, true),
        None => (text, false),
    };
    let p = match body.to_ascii_lowercase().as_str() {
        "bar" | "b" => BAR as u8,
        "off" | "o" => 0,
        digits => match digits.parse::<u8>() {
            Ok(n) if n <= 25 => n,
            _ => {
                return Err(Error::InvalidNotation(format!(
                    "`{text}` in `{whole}` is not a point (1..=24, bar, off)"
                )));
            }
        },
    };
    if star && !(1..=24).contains(&p) {
        return Err(Error::InvalidNotation(format!(
            "`{text}` in `{whole}`: only a point can hold a hit blot"
        )));
    }
    Ok((p, star))
}

/// Reads written checker moves into their net effect.
fn parse_moves(text: &str) -> Result<Effect> {
    let mut e = Effect {
        delta: [0; 26],
        hits: 0,
        landings: 0,
    };
    let tokens: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .collect();
    if tokens.is_empty() {
        return Err(Error::InvalidNotation("an empty move".into()));
    }
    for tok in tokens {
        let (body, count) = match tok.find('(') {
            Some(i) => {
                let n = tok[i + 1..]
                    .strip_suffix(')')
                    .and_then(|n| n.parse::<i16>().ok())
                    .filter(|n| (1..=4).contains(n))
                    .ok_or_else(|| {
                        Error::InvalidNotation(format!(
                            "`{tok}`: a count is written `(n)` with n from 1 to 4"
                        ))
                    })?;
                (&tok[..i], n)
            }
            None => (tok, 1),
        };
        let parts: Vec<&str> = body.split('/').collect();
        if parts.len() < 2 {
            return Err(Error::InvalidNotation(format!(
                "`{tok}` is not a move like `13/7`"
            )));
        }
        let mut points = Vec::with_capacity(parts.len());
        for part in &parts {
            points.push(parse_point(part, tok)?);
        }
        if points[0].1 {
            return Err(Error::InvalidNotation(format!(
                "`{tok}`: a checker cannot hit where it starts"
            )));
        }
        for w in points.windows(2) {
            if w[1].0 >= w[0].0 {
                return Err(Error::InvalidNotation(format!(
                    "`{tok}`: checkers move down from 24 towards off"
                )));
            }
        }
        let last = points.len() - 1;
        e.delta[points[0].0 as usize] -= count;
        e.delta[points[last].0 as usize] += count;
        for &(p, star) in &points[1..] {
            e.landings |= 1 << p;
            if star {
                e.hits |= 1 << p;
            }
        }
    }
    Ok(e)
}

fn effect_of(play: &Play) -> Effect {
    let mut e = Effect {
        delta: [0; 26],
        hits: 0,
        landings: 0,
    };
    for st in play.steps() {
        e.delta[st.from as usize] -= 1;
        e.delta[st.to as usize] += 1;
        if st.captured > 0 {
            e.hits |= 1 << st.to;
        }
    }
    e
}

/// Finds the legal play (among `plays`, one per resulting position) that `text` describes.
pub(super) fn parse_play(
    sys: &BackgammonSystem,
    s: &BgState,
    plays: &[Play],
    text: &str,
) -> Result<Play> {
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let lower = words.to_ascii_lowercase();
    let cube = match lower.as_str() {
        "double" => Some(StepKind::Double),
        "roll" | "no double" | "no-double" | "nodouble" => Some(StepKind::NoDouble),
        "take" | "accept" => Some(StepKind::Take),
        "drop" | "pass" => Some(StepKind::Drop),
        _ => None,
    };
    let illegal = || {
        Error::IllegalMove(format!(
            "`{words}` is not a legal play here (legal: {})",
            plays
                .iter()
                .take(12)
                .map(|p| format_play(s, p))
                .collect::<Vec<_>>()
                .join(", ")
                + if plays.len() > 12 { ", ..." } else { "" }
        ))
    };
    if let Some(kind) = cube {
        return plays
            .iter()
            .find(|p| p.steps().first().map(|st| st.kind) == Some(kind))
            .copied()
            .ok_or_else(illegal);
    }
    let mut want = parse_moves(&words)?;
    let _ = sys;
    // A written landing on a blot hits it, star or not (`24/18/13` over a blot on 18).
    let opp = &s.checkers[1 - s.turn as usize];
    for p in 1..=24usize {
        if opp[25 - p] == 1 && want.landings & (1 << p) != 0 {
            want.hits |= 1 << p;
        }
    }
    let candidates: Vec<&Play> = plays
        .iter()
        .filter(|p| effect_of(p).delta == want.delta)
        .collect();
    match candidates.len() {
        0 => Err(illegal()),
        1 => Ok(*candidates[0]),
        _ => {
            // Same checkers, different hits: the stars decide.
            let exact: Vec<&&Play> = candidates
                .iter()
                .filter(|p| effect_of(p).hits == want.hits)
                .collect();
            match exact.len() {
                1 => Ok(**exact[0]),
                _ => Err(Error::IllegalMove(format!(
                    "`{words}` fits several plays that hit differently; mark each hit with `*` \
                     (e.g. {})",
                    candidates
                        .iter()
                        .map(|p| format_play(s, p))
                        .collect::<Vec<_>>()
                        .join(" or ")
                ))),
            }
        }
    }
}
