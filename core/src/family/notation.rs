//! Position and play notation of Family Pachisi (the grammar is in the module docs of
//! [`crate::family`]), and validation of positions that come from outside.

use super::*;

impl FamilySystem {
    pub(super) fn sort_pieces(s: &mut FamilyState) {
        for c in 0..4u8 {
            Self::sort_colour(s, c);
        }
    }

    pub(super) fn format_piece(s: &FamilyState, colour: u8, i: usize) -> String {
        match s.pos[colour as usize][i] {
            START_AREA if s.is_played(colour, i) => "x".into(),
            START_AREA => "n".into(),
            GOAL => "h".into(),
            p => p.to_string(),
        }
    }
}

pub(super) fn bad(msg: impl Into<String>) -> Error {
    Error::InvalidNotation(msg.into())
}

pub(super) fn bad_position(msg: impl Into<String>) -> Error {
    Error::InvalidPosition(msg.into())
}

pub(super) fn validate_state(sys: &FamilySystem, s: &FamilyState) -> Result<()> {
    let seats = sys.seat_count();
    for c in seats..4 {
        if s.pos[c as usize] != [0; PIECES] || (s.played >> (c * 4)) & 0xF != 0 {
            return Err(bad_position(format!("colour {c} is not in play")));
        }
    }
    if s.turn >= seats {
        return Err(bad_position(format!(
            "turn {} is not a seat (seats 0..{seats})",
            s.turn
        )));
    }
    if s.tries >= sys.rules.entry_tries {
        return Err(bad_position(format!(
            "{} entry tries missed, but with `entry_tries` {} the turn passes after the last \
             (at most {} missed before a roll)",
            s.tries,
            sys.rules.entry_tries,
            sys.rules.entry_tries - 1
        )));
    }
    let [d1, d2] = s.dice;
    let dice_ok = (d1 == 0 && d2 == 0) || ((1..=6).contains(&d1) && (1..=6).contains(&d2));
    if !dice_ok {
        return Err(bad_position(format!(
            "dice must be 1..=6, got {:?}",
            s.dice
        )));
    }
    let mut track = [0u8; TRACK_LEN as usize];
    for c in 0..seats {
        for i in 0..PIECES {
            let p = s.pos[c as usize][i];
            if p > GOAL {
                return Err(bad_position(format!(
                    "colour {c}: position {p} is past the goal ({GOAL})"
                )));
            }
            if p != START_AREA && !s.is_played(c, i) {
                return Err(bad_position(format!(
                    "colour {c}: a piece on {p} must be marked as having been in play"
                )));
            }
            if (START_SQUARE..=LAP_END).contains(&p) {
                let sq = sys.square(c, p) as usize;
                if track[sq] != 0 && track[sq] >> 2 != c {
                    return Err(bad_position(format!(
                        "square {sq}: pieces of colours {} and {c} cannot share a square",
                        track[sq] >> 2
                    )));
                }
                let count = (track[sq] & 3) + 1;
                if count > 2 {
                    return Err(bad_position(format!(
                        "square {sq}: colour {c} has more than two pieces there"
                    )));
                }
                track[sq] = (c << 2) | count;
            } else if (GOAL_STRETCH..GOAL).contains(&p)
                && s.pos[c as usize].iter().filter(|&&q| q == p).count() > 2
            {
                return Err(bad_position(format!(
                    "colour {c}: more than two pieces on goal-stretch square {p}"
                )));
            }
        }
    }
    if sys.finished(s).is_some() && s.dice != [0, 0] {
        return Err(bad_position("the game is over, no roll can be pending"));
    }
    if s.tries > 0 && s.has_piece_in_play(sys.playing_colour(s)) {
        return Err(bad_position(
            "entry tries count only while the colour has no piece in play (FAM-6)",
        ));
    }
    Ok(())
}

pub(super) fn format_position(sys: &FamilySystem, s: &FamilyState) -> String {
    let roll = if s.dice[0] == 0 {
        "-".to_string()
    } else {
        format!("{}-{}", s.dice[0], s.dice[1])
    };
    let mut sorted = *s;
    FamilySystem::sort_pieces(&mut sorted);
    let colours: Vec<String> = (0..sys.seat_count())
        .map(|c| {
            (0..PIECES)
                .map(|i| FamilySystem::format_piece(&sorted, c, i))
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect();
    format!("{}:{}:{} {}", s.turn, s.tries, roll, colours.join("/"))
}

pub(super) fn parse_position(sys: &FamilySystem, text: &str) -> Result<FamilyState> {
    let parts: Vec<&str> = text.split_whitespace().collect();
    let [header, pieces] = parts[..] else {
        return Err(bad(format!(
            "expected `<turn>:<tries>:<roll> <colours>` (two fields), got `{text}`"
        )));
    };
    let fields: Vec<&str> = header.split(':').collect();
    let [turn, tries, roll] = fields[..] else {
        return Err(bad(format!(
            "the header `{header}` must be `<turn>:<tries>:<roll>`"
        )));
    };
    let turn: u8 = turn
        .parse()
        .map_err(|_| bad(format!("turn `{turn}` is not a seat number")))?;
    let tries: u8 = tries
        .parse()
        .map_err(|_| bad(format!("tries `{tries}` is not a number")))?;
    let dice = if roll == "-" {
        [0, 0]
    } else {
        let (a, b) = roll
            .split_once('-')
            .ok_or_else(|| bad(format!("roll `{roll}` must be `-` or like `6-3`")))?;
        let die = |t: &str| -> Result<u8> {
            match t.parse::<u8>() {
                Ok(d) if (1..=6).contains(&d) => Ok(d),
                _ => Err(bad(format!("die `{t}` must be 1..=6"))),
            }
        };
        [die(a)?, die(b)?]
    };
    let colours: Vec<&str> = pieces.split('/').collect();
    if colours.len() != sys.seat_count() as usize {
        return Err(bad(format!(
            "expected {} colours separated by `/`, got {}",
            sys.seat_count(),
            colours.len()
        )));
    }
    let mut s = sys.initial_state();
    s.turn = turn;
    s.tries = tries;
    s.dice = dice;
    for (c, list) in colours.iter().enumerate() {
        let tokens: Vec<&str> = list.split(',').collect();
        if tokens.len() != PIECES {
            return Err(bad(format!(
                "colour {c}: expected {PIECES} pieces separated by `,`, got `{list}`"
            )));
        }
        for (i, t) in tokens.iter().enumerate() {
            let (pos, played) = match *t {
                "n" => (START_AREA, false),
                "x" => (START_AREA, true),
                "h" => (GOAL, true),
                _ => match t.parse::<u8>() {
                    Ok(p) if (START_SQUARE..GOAL).contains(&p) => (p, true),
                    _ => {
                        return Err(bad(format!(
                            "colour {c}: piece `{t}` must be n, x, 1..=76 or h"
                        )));
                    }
                },
            };
            s.pos[c][i] = pos;
            if played {
                s.played |= 1 << (c * 4 + i);
            }
        }
    }
    FamilySystem::sort_pieces(&mut s);
    sys.validate_state(&s)?;
    Ok(s)
}

pub(super) fn format_play(sys: &FamilySystem, s: &FamilyState, play: &Play) -> String {
    if play.is_empty() {
        return "pass".into();
    }
    // Piece indices refer to the position as it is before each step.
    let mut cur = *s;
    let mut steps: Vec<String> = Vec::with_capacity(play.len());
    for st in play.steps() {
        let from = match st.from {
            START_AREA if cur.is_played(st.seat & 3, (st.piece & 3) as usize) => "x".to_string(),
            START_AREA => "n".to_string(),
            p => p.to_string(),
        };
        let to = if st.to == GOAL {
            "h".to_string()
        } else {
            st.to.to_string()
        };
        let gate = if st.count == 2 { "(2)" } else { "" };
        let cap = if st.captured > 0 { "*" } else { "" };
        steps.push(format!("{}:{from}-{to}{gate}{cap}", st.seat));
        sys.apply_step(&mut cur, st);
    }
    steps.join(" ")
}

/// Whether `token` is one step of the notation [`format_play`] writes: `seat:from-to`, `from`
/// `n`, `x` or a square, `to` `h` or a square, then `(2)` for a pair moving together and `*`
/// for a capture.
fn is_step_token(token: &str) -> bool {
    let t = token.strip_suffix('*').unwrap_or(token);
    let t = t.strip_suffix("(2)").unwrap_or(t);
    let Some((seat, rest)) = t.split_once(':') else {
        return false;
    };
    let Some((from, to)) = rest.split_once('-') else {
        return false;
    };
    let number = |x: &str| x.parse::<u8>().is_ok();
    number(seat) && (from == "n" || from == "x" || number(from)) && (to == "h" || number(to))
}

/// Parses a play written as [`format_play`] writes it: text that is not in the notation is
/// [`Error::InvalidNotation`], a well-formed play that is not legal here [`Error::IllegalMove`].
pub(super) fn parse_play(sys: &FamilySystem, s: &FamilyState, text: &str) -> Result<Play> {
    let want: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if want.is_empty() {
        return Err(Error::InvalidNotation(
            "an empty play (write `pass`)".into(),
        ));
    }
    if want != "pass" {
        if let Some(token) = want.split(' ').find(|t| !is_step_token(t)) {
            return Err(Error::InvalidNotation(format!(
                "`{}` is not a step (expected `seat:from-to`, e.g. `0:n-1`, `2:14-20*`, \
                 `1:70-h`, `3:8-12(2)`; or `pass`)",
                crate::error::excerpt(token, crate::error::EXCERPT_CHARS)
            )));
        }
    }
    crate::system::play_written_as(sys, s, &want)
}
