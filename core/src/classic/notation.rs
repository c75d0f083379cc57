//! Position and play notation of Classic Pachisi (the grammar is in the module docs of
//! [`crate::classic`]), and validation of positions that come from outside.

use super::*;

pub(super) fn validate_state(sys: &ClassicSystem, s: &ClassicState) -> Result<()> {
    let bad = |m: String| Err(Error::InvalidPosition(m));
    if s.turn as usize >= COLOURS {
        return bad(format!("turn must be a colour 0..=3, got {}", s.turn));
    }
    if let Some(t) = s.throw.filter(|&t| t > SHELLS) {
        return bad(format!("a throw is 0..=6 shells mouth up, got {t}"));
    }
    for (c, ps) in s.pieces.iter().enumerate() {
        for &p in ps {
            if p > HOME {
                return bad(format!(
                    "colour {c}: position {p} is off the path (0..={HOME})"
                ));
            }
            if !sys.rules.allow_dead_end && sys.board.dead[p as usize] {
                return bad(format!(
                    "colour {c}: a piece on {p} could never reach home exactly"
                ));
            }
        }
        if ps.windows(2).any(|w| w[0] < w[1]) {
            return bad(format!(
                "colour {c}: positions must be listed in descending order, got {ps:?}"
            ));
        }
    }
    // CLS-8: opposing teams never share a square.
    for c in 0..COLOURS {
        for &p in &s.pieces[c] {
            let sq = sys.board.loop_square[c][p as usize];
            if sq == NOT_ON_LOOP {
                continue;
            }
            for o in (0..COLOURS).filter(|&o| team(o) != team(c)) {
                if s.pieces[o]
                    .iter()
                    .any(|&q| sys.board.loop_square[o][q as usize] == sq)
                {
                    return bad(format!(
                        "colours {c} and {o} (opposing teams) share loop square {sq}"
                    ));
                }
            }
        }
    }
    let done: Vec<bool> = (0..2)
        .map(|t| ClassicSystem::colour_done(s, t) && ClassicSystem::colour_done(s, t + 2))
        .collect();
    if done[0] && done[1] {
        return bad("both teams cannot have every piece home".into());
    }
    if done[0] || done[1] {
        if s.throw.is_some() {
            return bad("the game is over: no throw can be pending".into());
        }
    } else if ClassicSystem::colour_done(s, s.turn as usize) {
        return bad(format!(
            "colour {} has every piece home and no longer takes turns",
            s.turn
        ));
    }
    Ok(())
}

pub(super) fn format_position(_sys: &ClassicSystem, s: &ClassicState) -> String {
    let throw = s.throw.map_or("-".to_string(), |t| t.to_string());
    let colours: Vec<String> = s
        .pieces
        .iter()
        .map(|ps| {
            ps.iter()
                .map(|p| p.to_string())
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect();
    format!("{}:{}:{}", s.turn, throw, colours.join("/"))
}

pub(super) fn parse_position(sys: &ClassicSystem, text: &str) -> Result<ClassicState> {
    let nota = |m: String| Error::InvalidNotation(format!("pachisi position `{text}`: {m}"));
    let compact: String = text.split_whitespace().collect();
    let parts: Vec<&str> = compact.split(':').collect();
    if parts.len() != 3 {
        return Err(nota(
            "expected `<turn>:<throw or ->:<c0>/<c1>/<c2>/<c3>`".into(),
        ));
    }
    let turn: u8 = parts[0]
        .parse()
        .map_err(|_| nota(format!("turn `{}` is not a colour 0..=3", parts[0])))?;
    let throw = match parts[1] {
        "-" => None,
        t => Some(
            t.parse::<u8>()
                .map_err(|_| nota(format!("throw `{t}` is not `-` or 0..=6 shells mouth up")))?,
        ),
    };
    let colours: Vec<&str> = parts[2].split('/').collect();
    if colours.len() != COLOURS {
        return Err(nota(format!(
            "expected 4 colours separated by `/`, got {}",
            colours.len()
        )));
    }
    let mut pieces = [[0u8; PIECES]; COLOURS];
    for (c, field) in colours.iter().enumerate() {
        let nums: Vec<&str> = field.split(',').collect();
        if nums.len() != PIECES {
            return Err(nota(format!(
                "colour {c}: expected 4 positions, got {}",
                nums.len()
            )));
        }
        for (slot, n) in pieces[c].iter_mut().zip(&nums) {
            *slot = n
                .parse()
                .map_err(|_| nota(format!("colour {c}: `{n}` is not a position 0..={HOME}")))?;
        }
        sort_desc(&mut pieces[c]);
    }
    let s = ClassicState {
        pieces,
        turn,
        throw,
    };
    sys.validate_state(&s)?;
    Ok(s)
}

pub(super) fn format_play(_sys: &ClassicSystem, _s: &ClassicState, play: &Play) -> String {
    let Some(step) = play.steps().first() else {
        return "pass".into();
    };
    if step.kind == StepKind::Enter {
        return "enter".into();
    }
    let unit = if step.count > 1 {
        format!("{}x", step.count)
    } else {
        String::new()
    };
    let capture = if step.captured > 0 { "*" } else { "" };
    format!("{unit}{}-{}{capture}", step.from, step.to)
}

pub(super) fn parse_play(sys: &ClassicSystem, s: &ClassicState, text: &str) -> Result<Play> {
    let t: String = text.split_whitespace().collect::<String>().to_lowercase();
    let nota = |m: &str| Error::InvalidNotation(format!("pachisi play `{text}`: {m}"));
    let mut plays = Vec::new();
    sys.generate(s, Orders::All, &mut plays);
    let find = |pred: &dyn Fn(&Play) -> bool, what: &str| {
        plays
            .iter()
            .find(|p| pred(p))
            .copied()
            .ok_or_else(|| Error::IllegalMove(format!("`{what}` is not a legal play here")))
    };
    match t.as_str() {
        "pass" => return find(&|p| p.is_pass(), "pass"),
        "enter" => {
            return find(
                &|p| p.steps().first().is_some_and(|s| s.kind == StepKind::Enter),
                "enter",
            );
        }
        _ => {}
    }
    let (body, star) = match t.strip_suffix('*') {
        Some(b) => (b, true),
        None => (t.as_str(), false),
    };
    let (count, body) = match body.split_once('x') {
        Some((k, rest)) => (
            k.parse::<u8>()
                .ok()
                .filter(|&k| k >= 1)
                .ok_or_else(|| nota("unit size before `x` must be a number >= 1"))?,
            rest,
        ),
        None => (1, body),
    };
    let (from, to) = body
        .split_once('-')
        .ok_or_else(|| nota("expected `pass`, `enter` or `[<k>x]<from>-<to>[*]`"))?;
    let from: u8 = from
        .parse()
        .map_err(|_| nota("`from` is not a position number"))?;
    let to: u8 = to
        .parse()
        .map_err(|_| nota("`to` is not a position number"))?;
    let play = find(
        &|p| {
            p.steps().first().is_some_and(|s| {
                s.kind == StepKind::Move && s.from == from && s.to == to && s.count == count
            })
        },
        text.trim(),
    )?;
    if star != (play.captures() > 0) {
        return Err(Error::IllegalMove(format!(
            "`{}`: the move {} capture",
            text.trim(),
            if star { "does not" } else { "would" }
        )));
    }
    Ok(play)
}
