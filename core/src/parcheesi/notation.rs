//! Position and play notation of the Parcheesi system (Parcheesi and Online Pachisi), and position validation.
//!
//! Position: space-separated `key:value` fields, e.g.
//! `0:0,0,1,20 1:0,0,0,0 2:0,0,0,0 3:0,0,0,0 turn:0 doubles:0`.
//! - `<seat>:a,b,c,d` — the four pieces of each seat in play (seat-relative coordinates, see the
//!   module docs of [`crate::parcheesi`]: 0 nest, 1 entry square ... 64 branch square, 65..71 home
//!   path, 72 home, 73..76 the squares before the entry square, reached by going round; the
//!   older numbering 77..140 of a later lap is read as the same squares 1..64), every seat
//!   `0..seats` exactly once; a seat's pieces may be listed in any order and are written back
//!   in ascending order;
//! - `turn:<seat>` and `doubles:<n>` (doubles rolled in a row by that seat);
//! - only while a roll is being played: `roll:<a>-<b>`, `left:<values>` (values still to play,
//!   may be empty), `bonus:<values>` (pending bonuses), `played:<count>/<pips>` (bonuses played
//!   in this roll), `group:a,b,c,d` (P-D: for each of the mover's pieces, the position of the
//!   blockade it was part of when the roll began, 0 for none);
//! - `age<seat>:a,b,c,d` — blockade ages (only with a blockade turn limit, when not all zero).
//!
//! Play: the steps separated by spaces; `enter` (a five, or a sum of five, brings a piece to its
//! entry square), `<value>:<from>-<to>` (a die value moves a piece), `+<value>:<from>-<to>` (a
//! bonus); a trailing `*` marks a capture. The empty play is `pass`.

use super::{
    HOME, LAP, LAP_END, NEST, PIECES, ParcheesiState, ParcheesiSystem, Phase, count_left,
    normalize_position,
};
use crate::play::{Play, StepKind};
use crate::system::{Orders, RuleSystem};
use crate::{Error, Result};
use std::fmt::Write;

fn join(values: &[u8]) -> String {
    let mut s = String::new();
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(s, "{v}");
    }
    s
}

pub(super) fn format_position(sys: &ParcheesiSystem, s: &ParcheesiState) -> String {
    let mut out = String::new();
    for seat in 0..sys.seats as usize {
        let _ = write!(out, "{seat}:{} ", join(&s.pieces[seat]));
    }
    let _ = write!(out, "turn:{} doubles:{}", s.turn, s.doubles);
    if s.phase == Phase::Decision {
        let _ = write!(
            out,
            " roll:{}-{} left:{}",
            s.dice[0],
            s.dice[1],
            join(s.values_left())
        );
        if s.pending_capture > 0 || s.pending_home > 0 {
            let mut b = Vec::new();
            b.extend(std::iter::repeat_n(
                sys.rules.capture_bonus,
                s.pending_capture as usize,
            ));
            b.extend(std::iter::repeat_n(
                sys.rules.home_bonus,
                s.pending_home as usize,
            ));
            let _ = write!(out, " bonus:{}", join(&b));
        }
        if s.bonuses_played > 0 {
            let _ = write!(out, " played:{}/{}", s.bonuses_played, s.bonus_pips);
        }
        if s.groups != [0; PIECES] {
            let _ = write!(out, " group:{}", join(&s.groups));
        }
    }
    for seat in 0..sys.seats as usize {
        if s.ages[seat] != [0; PIECES] {
            let _ = write!(out, " age{seat}:{}", join(&s.ages[seat]));
        }
    }
    out
}

fn bad(msg: impl Into<String>) -> Error {
    Error::InvalidNotation(msg.into())
}

fn parse_num(text: &str, what: &str) -> Result<u32> {
    text.parse::<u32>()
        .map_err(|_| bad(format!("{what}: `{text}` is not a number")))
}

fn parse_list(text: &str, what: &str, max: usize) -> Result<Vec<u8>> {
    if text.is_empty() {
        return Ok(Vec::new());
    }
    let items: Vec<&str> = text.split(',').collect();
    if items.len() > max {
        return Err(bad(format!(
            "{what}: at most {max} values, got {}",
            items.len()
        )));
    }
    items
        .iter()
        .map(|t| {
            let v = parse_num(t.trim(), what)?;
            u8::try_from(v).map_err(|_| bad(format!("{what}: {v} is out of range")))
        })
        .collect()
}

fn parse_four(text: &str, what: &str) -> Result<[u8; PIECES]> {
    let v = parse_list(text, what, PIECES)?;
    v.try_into()
        .map_err(|v: Vec<u8>| bad(format!("{what}: expected 4 values, got {}", v.len())))
}

pub(super) fn parse_position(sys: &ParcheesiSystem, text: &str) -> Result<ParcheesiState> {
    let mut s = sys.initial_state();
    let n = sys.seats as usize;
    let mut seen_seat = [false; 4];
    let (mut turn, mut doubles, mut roll) = (None, None, None);
    let mut left: Option<Vec<u8>> = None;
    let mut bonus: Vec<u8> = Vec::new();
    let mut decision_only = false;
    for token in text.split_whitespace() {
        let (key, value) = token
            .split_once(':')
            .ok_or_else(|| bad(format!("`{token}`: expected key:value")))?;
        match key {
            "turn" => turn = Some(parse_num(value, "turn")?),
            "doubles" => doubles = Some(parse_num(value, "doubles")?),
            "roll" => {
                let (a, b) = value
                    .split_once('-')
                    .ok_or_else(|| bad(format!("roll: expected a-b, got `{value}`")))?;
                roll = Some([parse_num(a, "roll")?, parse_num(b, "roll")?]);
            }
            "left" => left = Some(parse_list(value, "left", 4)?),
            "bonus" => {
                bonus = parse_list(value, "bonus", 24)?;
                decision_only = true;
            }
            "played" => {
                let (c, p) = value
                    .split_once('/')
                    .ok_or_else(|| bad(format!("played: expected count/pips, got `{value}`")))?;
                s.bonuses_played = u8::try_from(parse_num(c, "played")?)
                    .map_err(|_| bad("played: count out of range"))?;
                s.bonus_pips = u16::try_from(parse_num(p, "played")?)
                    .map_err(|_| bad("played: pips out of range"))?;
                decision_only = true;
            }
            "group" => {
                s.groups = parse_four(value, "group")?;
                decision_only = true;
            }
            _ if key.starts_with("age") => {
                let seat = parse_num(&key[3..], "age seat")? as usize;
                if seat >= n {
                    return Err(bad(format!("`{key}`: no seat {seat} in a {n}-seat game")));
                }
                s.ages[seat] = parse_four(value, key)?;
            }
            _ => {
                let seat = key
                    .parse::<usize>()
                    .map_err(|_| bad(format!("unknown field `{key}`")))?;
                if seat >= n {
                    return Err(bad(format!("no seat {seat} in a {n}-seat game")));
                }
                if seen_seat[seat] {
                    return Err(bad(format!("seat {seat} is given twice")));
                }
                seen_seat[seat] = true;
                s.pieces[seat] = parse_four(value, &format!("seat {seat}"))?;
            }
        }
    }
    if let Some(missing) = (0..n).find(|&k| !seen_seat[k]) {
        return Err(bad(format!("seat {missing} is missing")));
    }
    let turn = turn.ok_or_else(|| bad("missing `turn:`"))?;
    let doubles = doubles.ok_or_else(|| bad("missing `doubles:`"))?;
    s.turn = u8::try_from(turn).map_err(|_| bad("turn out of range"))?;
    s.doubles = u8::try_from(doubles).map_err(|_| bad("doubles out of range"))?;
    match (roll, left) {
        (Some([a, b]), Some(l)) => {
            s.dice = [
                u8::try_from(a).map_err(|_| bad("roll out of range"))?,
                u8::try_from(b).map_err(|_| bad("roll out of range"))?,
            ];
            let mut l = l;
            l.sort_unstable_by(|x, y| y.cmp(x));
            for (i, v) in l.iter().enumerate() {
                s.left[i] = *v;
            }
            s.phase = Phase::Decision;
            for v in bonus {
                if v == sys.rules.capture_bonus && v != 0 {
                    s.pending_capture += 1;
                } else if v == sys.rules.home_bonus && v != 0 {
                    s.pending_home += 1;
                } else {
                    return Err(Error::InvalidPosition(format!(
                        "bonus {v} does not exist under these rules"
                    )));
                }
            }
        }
        (None, None) => {
            if decision_only {
                return Err(bad(
                    "`bonus:`, `played:` and `group:` need a roll being played (`roll:` and `left:`)",
                ));
            }
        }
        _ => return Err(bad("`roll:` and `left:` go together")),
    }
    if (0..n).any(|k| s.pieces[k].iter().all(|&p| p == HOME)) {
        s.phase = Phase::Over;
    }
    // One number per square (the older numbering of a later lap only with going round on, the
    // only way there), and each seat's pieces in the order the engine keeps them.
    if sys.rules.go_round_again {
        for seat in 0..n {
            for p in &mut s.pieces[seat] {
                *p = normalize_position(*p);
            }
        }
    }
    validate(sys, &s)?;
    for seat in 0..n {
        s.sort_seat(seat, seat == s.turn as usize && s.phase == Phase::Decision);
    }
    Ok(s)
}

/// Checks that a state can occur under the system's rules.
pub(super) fn validate(sys: &ParcheesiSystem, s: &ParcheesiState) -> Result<()> {
    let bad = |m: String| Err(Error::InvalidPosition(m));
    let n = sys.seats as usize;
    let r = &sys.rules;
    if (s.turn as usize) >= n {
        return bad(format!("turn {} but only {n} seats", s.turn));
    }
    for seat in n..4 {
        if s.pieces[seat] != [NEST; PIECES] || s.ages[seat] != [0; PIECES] {
            return bad(format!("seat {seat} is not in play but has pieces out"));
        }
    }
    for seat in 0..n {
        for &p in &s.pieces[seat] {
            if p > LAP_END || (p >= LAP && !r.go_round_again) {
                return bad(format!(
                    "seat {seat}: position {p} does not exist under these rules"
                ));
            }
        }
        for i in 0..PIECES {
            let p = s.pieces[seat][i];
            // A piece alone on its square has no blockade, so no age (the rules clear it).
            let alone = (0..PIECES).all(|j| j == i || s.pieces[seat][j] != p);
            if s.ages[seat][i] != 0
                && (r.blockade_turn_limit == 0 || p == NEST || p == HOME || alone)
            {
                return bad(format!(
                    "seat {seat}: a blockade age on a piece not in a blockade"
                ));
            }
            // The age is the blockade's: the pieces on one square share it.
            if (0..PIECES).any(|j| s.pieces[seat][j] == p && s.ages[seat][j] != s.ages[seat][i]) {
                return bad(format!(
                    "seat {seat}: the pieces on square {p} have different blockade ages"
                ));
            }
        }
    }
    let occ = sys.occupancy_table(s);
    let most = sys.most_own();
    for (slot, &cell) in occ.iter().enumerate() {
        let mut seats_here = 0;
        for seat in 0..n {
            let c = (cell >> (4 * seat)) & 0xF;
            if c > most {
                return bad(format!(
                    "{c} pieces of seat {seat} on one square (at most {most})"
                ));
            }
            if c > 0 {
                seats_here += 1;
            }
        }
        if seats_here > 1 && r.capture {
            return bad(format!(
                "two seats share track square {slot}, which capture does not allow"
            ));
        }
    }
    let finished = (0..n)
        .filter(|&k| s.pieces[k].iter().all(|&p| p == HOME))
        .count();
    if finished > 1 {
        return bad("more than one seat has all pieces home".into());
    }
    if (finished == 1) != (s.phase == Phase::Over) {
        return bad("the game is over exactly when a seat has all pieces home".into());
    }
    if r.third_doubles_penalty && s.doubles > 2 {
        return bad(format!(
            "{} doubles in a row: the third-doubles penalty ends a turn at 3",
            s.doubles
        ));
    }
    if s.phase != Phase::Decision {
        if s.dice != [0, 0]
            || s.left != [0; 4]
            || s.pending_capture + s.pending_home > 0
            || s.bonuses_played > 0
            || s.bonus_pips > 0
            || s.groups != [0; PIECES]
        {
            return bad("roll details on a position where no roll is being played".into());
        }
        return Ok(());
    }
    let [a, b] = s.dice;
    if !(1..=6).contains(&a) || !(1..=6).contains(&b) {
        return bad(format!("dice must show 1..=6, got {a}-{b}"));
    }
    let nl = s.n_left();
    if s.left[nl..].iter().any(|&v| v != 0) {
        return bad("values left must be listed without gaps".into());
    }
    // The values the roll gives these pieces (PAR-7: no piece of the mover goes back to the nest
    // during its own roll, so a piece in the nest now was there at the roll).
    let given = sys.roll_values(&s.pieces[s.turn as usize & 3], [a, b]);
    if a == b {
        let count = |vs: &[u8], x: u8| vs.iter().filter(|&&v| v == x).count();
        let (top, bottom) = (count(s.values_left(), a), count(s.values_left(), 7 - a));
        let nest = bottom > count(&given, 7 - a) && r.doubles_bottom_faces;
        if top > 2 || bottom > count(&given, 7 - a) || top + bottom != nl {
            return bad(format!(
                "values {:?} cannot come from {a}-{b}{}",
                s.values_left(),
                if nest {
                    " (the bottom faces count only with no piece in the nest)"
                } else {
                    ""
                }
            ));
        }
        if s.doubles == 0 {
            return bad("a doubles roll is being played but `doubles` is 0".into());
        }
    } else {
        let ok = match s.values_left() {
            [] => true,
            [x] => *x == a || *x == b,
            [x, y] => (*x, *y) == (a.max(b), a.min(b)),
            _ => false,
        };
        if !ok {
            return bad(format!(
                "values {:?} cannot come from {a}-{b}",
                s.values_left()
            ));
        }
    }
    if s.pending_capture > 0 && (r.capture_bonus == 0 || !r.capture) {
        return bad("a pending capture bonus under rules without one".into());
    }
    if s.pending_home > 0 && r.home_bonus == 0 {
        return bad("a pending home bonus under rules without one".into());
    }
    // PAR-6: a bonus is earned by a step, so none is pending or played before the first value.
    if nl == count_left(&given)
        && (s.pending_capture, s.pending_home, s.bonuses_played) != (0, 0, 0)
    {
        return bad("a bonus pending or played before any value of the roll is played".into());
    }
    let seat = s.turn as usize;
    for i in 0..PIECES {
        let g = s.groups[i];
        if g == 0 {
            continue;
        }
        if !r.blockade_no_joint_move {
            return bad("P-D groups under rules without that rule".into());
        }
        // A group's mark is the position its blockade stood on when the roll began.
        if g == HOME || g > LAP_END {
            return bad(format!(
                "group mark {g} is no position a blockade can stand on (1 to 71, 73 to 76)"
            ));
        }
        if s.pieces[seat & 3][i] == NEST {
            return bad(format!("a piece of group {g} is in the nest"));
        }
        if (0..PIECES).filter(|&j| s.groups[j] == g).count() < 2 {
            return bad(format!("group {g} has a single piece"));
        }
    }
    Ok(())
}

pub(super) fn format_play(play: &Play) -> String {
    if play.is_empty() {
        return "pass".into();
    }
    let mut out = String::new();
    for (i, st) in play.steps().iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        match st.kind {
            StepKind::Enter => out.push_str("enter"),
            StepKind::Bonus => {
                let _ = write!(out, "+{}:{}-{}", st.value, st.from, st.to);
            }
            _ => {
                let _ = write!(out, "{}:{}-{}", st.value, st.from, st.to);
            }
        }
        if st.captured > 0 {
            out.push('*');
        }
    }
    out
}

pub(super) fn parse_play(sys: &ParcheesiSystem, s: &ParcheesiState, text: &str) -> Result<Play> {
    let want: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if want.is_empty() {
        return Err(Error::InvalidNotation(
            "an empty play (write `pass`)".into(),
        ));
    }
    for token in want.split(' ') {
        let t = token.trim_end_matches('*');
        let ok = t == "enter"
            || t == "pass"
            || t.trim_start_matches('+')
                .split_once(':')
                .and_then(|(v, r)| r.split_once('-').map(|(a, b)| [v, a, b]))
                .is_some_and(|parts| parts.iter().all(|x| x.parse::<u8>().is_ok()));
        if !ok {
            return Err(Error::InvalidNotation(format!(
                "`{token}` is not a step (expected `enter`, `v:from-to`, `+v:from-to`, `pass`)"
            )));
        }
    }
    let mut plays = Vec::new();
    for orders in [Orders::Distinct, Orders::All] {
        plays.clear();
        sys.generate(s, orders, &mut plays);
        if let Some(p) = plays.iter().find(|p| format_play(p) == want) {
            return Ok(*p);
        }
    }
    Err(Error::IllegalMove(format!(
        "`{want}` is not a legal play here"
    )))
}
