//! GNU Backgammon Position ID and Match ID, and XGID (eXtreme Gammon), read and written from the
//! published descriptions of the formats.
//!
//! Seats: seat `i` is GNU Backgammon's player `i` in a Match ID; in an XGID seat 0 is the bottom
//! player (upper-case letters, turn `1`, the board numbered from its side) and seat 1 the top.

use super::{BAR, BgState, CHECKERS, CUBE_CENTRED, OFF, Phase};
use crate::{Error, Result};

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

fn b64_value(c: u8) -> Option<u8> {
    B64.iter().position(|&x| x == c).map(|i| i as u8)
}

/// Base64 without padding of `bytes` (standard alphabet).
fn b64_encode(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let mut v = [0u8; 3];
        v[..chunk.len()].copy_from_slice(chunk);
        let n = ((v[0] as u32) << 16) | ((v[1] as u32) << 8) | v[2] as u32;
        let chars = chunk.len() + 1;
        for i in 0..chars {
            out.push(B64[((n >> (18 - 6 * i)) & 63) as usize] as char);
        }
    }
    out
}

/// Decodes `chars` base64 characters (no padding) into `n_bytes` bytes; extra bits must be 0.
fn b64_decode(text: &str, n_bytes: usize, what: &str) -> Result<Vec<u8>> {
    let want = (n_bytes * 8).div_ceil(6);
    if text.len() != want {
        return Err(Error::InvalidNotation(format!(
            "a {what} has {want} characters, got {} in `{text}`",
            text.chars().count()
        )));
    }
    let mut bits: Vec<u8> = Vec::with_capacity(want * 6);
    for c in text.bytes() {
        let v = b64_value(c).ok_or_else(|| {
            Error::InvalidNotation(format!(
                "`{}` is not a base64 character (in {what} `{text}`)",
                c as char
            ))
        })?;
        for i in (0..6).rev() {
            bits.push((v >> i) & 1);
        }
    }
    if bits[n_bytes * 8..].iter().any(|&b| b != 0) {
        return Err(Error::InvalidNotation(format!(
            "{what} `{text}` has stray bits after its last byte"
        )));
    }
    Ok(bits[..n_bytes * 8]
        .chunks(8)
        .map(|c| c.iter().fold(0u8, |acc, &b| (acc << 1) | b))
        .collect())
}

/// A little-endian bit string (bit `i` is bit `i % 8` of byte `i / 8`), as both GNU keys use.
struct Bits {
    bytes: Vec<u8>,
    pos: usize,
}

impl Bits {
    fn new(n_bytes: usize) -> Bits {
        Bits {
            bytes: vec![0; n_bytes],
            pos: 0,
        }
    }
    fn from(bytes: Vec<u8>) -> Bits {
        Bits { bytes, pos: 0 }
    }
    fn push(&mut self, bit: bool) {
        // A state with too many checkers (never a validated one) must not overrun the key.
        if self.pos >= self.bytes.len() * 8 {
            return;
        }
        if bit {
            self.bytes[self.pos / 8] |= 1 << (self.pos % 8);
        }
        self.pos += 1;
    }
    fn push_value(&mut self, value: u32, width: usize) {
        for i in 0..width {
            self.push((value >> i) & 1 == 1);
        }
    }
    fn next(&mut self) -> Option<bool> {
        if self.pos >= self.bytes.len() * 8 {
            return None;
        }
        let b = (self.bytes[self.pos / 8] >> (self.pos % 8)) & 1 == 1;
        self.pos += 1;
        Some(b)
    }
    fn value(&mut self, width: usize) -> u32 {
        (0..width).fold(0, |acc, i| acc | ((self.next() == Some(true)) as u32) << i)
    }
}

/// The GNU Backgammon Position ID (14 characters) of two sides' checkers.
///
/// Each array is in its side's own numbering: index 1..=24 points, 25 the bar (0, off, is not
/// encoded). The bit string holds the opponent of the side on roll first and the side on roll
/// second: that is what GNU Backgammon itself writes and reads (its board array puts the side on
/// roll second; checked with the gnubg Python bindings 1.1.0a16), although its manual words it
/// the other way round.
///
/// ```
/// use pachisi::backgammon::position_id;
/// // After 8/5 6/5 by one side, the other side is on roll: the mover's new 5 point comes first.
/// let mut moved = [0u8; 26];
/// moved[24] = 2; moved[13] = 5; moved[8] = 2; moved[6] = 4; moved[5] = 2;
/// let mut start = [0u8; 26];
/// start[24] = 2; start[13] = 5; start[8] = 3; start[6] = 5;
/// assert_eq!(position_id(&start, &moved), "sGfwATDgc/ABMA");
/// ```
///
/// ```
/// use pachisi::backgammon::{BgState, Phase, position_id, from_position_id};
/// let s = BgState::start(Phase::Roll);
/// let id = position_id(&s.checkers[0], &s.checkers[1]);
/// assert_eq!(id, "4HPwATDgc/ABMA");
/// assert_eq!(from_position_id(&id).unwrap(), (s.checkers[0], s.checkers[1]));
/// ```
pub fn position_id(on_roll: &[u8; 26], opponent: &[u8; 26]) -> String {
    let mut bits = Bits::new(10);
    // GNU Backgammon writes its board array in order: the opponent of the side on roll first.
    for side in [opponent, on_roll] {
        for &count in &side[1..=BAR] {
            for _ in 0..count {
                bits.push(true);
            }
            bits.push(false);
        }
    }
    b64_encode(&bits.bytes)
}

/// Reads a GNU Backgammon Position ID into (side on roll, opponent), each in its own numbering
/// with the borne-off count at index 0.
///
/// Errors: wrong length, a character outside base64, more than 15 checkers on a side, both
/// sides on one point, a malformed bit string.
///
/// ```
/// use pachisi::backgammon::from_position_id;
/// assert!(from_position_id("4HPwATDgc/ABM").is_err()); // 13 characters
/// assert!(from_position_id("4HPwATDgc/AB!A").is_err()); // not base64
/// assert!(from_position_id("//////////////").is_err()); // 80 checkers
/// ```
pub fn from_position_id(id: &str) -> Result<([u8; 26], [u8; 26])> {
    let id = id.trim();
    let mut bits = Bits::from(b64_decode(id, 10, "Position ID")?);
    let mut sides = [[0u8; 26]; 2];
    for side in sides.iter_mut() {
        let mut total = 0u32;
        for slot in side[1..=BAR].iter_mut() {
            loop {
                match bits.next() {
                    Some(true) => {
                        *slot += 1;
                        total += 1;
                        if total > CHECKERS as u32 {
                            return Err(Error::InvalidPosition(format!(
                                "Position ID `{id}` puts more than {CHECKERS} checkers on a side"
                            )));
                        }
                    }
                    Some(false) => break,
                    None => {
                        return Err(Error::InvalidNotation(format!(
                            "Position ID `{id}` ends before both sides are complete"
                        )));
                    }
                }
            }
        }
        side[OFF] = CHECKERS - total as u8;
    }
    // The remaining bits are padding.
    while let Some(b) = bits.next() {
        if b {
            return Err(Error::InvalidNotation(format!(
                "Position ID `{id}` has checkers after both sides are complete"
            )));
        }
    }
    // The first half is the opponent of the side on roll, the second the side on roll.
    let [opponent, on_roll] = sides;
    for p in 1..=24 {
        if on_roll[p] > 0 && opponent[25 - p] > 0 {
            return Err(Error::InvalidPosition(format!(
                "Position ID `{id}`: both sides on point {p} of the side on roll"
            )));
        }
    }
    if on_roll[OFF] == CHECKERS && opponent[OFF] == CHECKERS {
        return Err(Error::InvalidPosition(format!(
            "Position ID `{id}`: both sides have borne off every checker"
        )));
    }
    Ok((on_roll, opponent))
}

/// The GNU Backgammon Match ID (12 characters) of a money-game state: cube, owner, the side on
/// roll, the game state, whose decision it is, a pending double and the dice.
///
/// The opening roll is written as game state "not started".
///
/// ```
/// use pachisi::backgammon::{BgState, Phase, match_id};
/// assert_eq!(match_id(&BgState::start(Phase::Roll)), "MAEAAAAAAAAA");
/// ```
pub fn match_id(s: &BgState) -> String {
    let mut bits = Bits::new(9);
    bits.push_value(s.cube_log2 as u32, 4);
    bits.push_value(
        if s.cube_owner == CUBE_CENTRED {
            3
        } else {
            s.cube_owner as u32
        },
        2,
    );
    bits.push_value(s.turn as u32, 1);
    bits.push_value(0, 1); // Crawford: money play
    let game_state = match s.phase {
        Phase::Opening => 0,
        Phase::Over => 2,
        Phase::Dropped => 4,
        _ => 1,
    };
    bits.push_value(game_state, 3);
    // (The turn's low bit, as the turn bit above: a state built field by field may hold more.)
    let decider = if s.phase == Phase::TakeDrop {
        1 - (s.turn & 1)
    } else {
        s.turn & 1
    };
    bits.push_value(decider as u32, 1);
    bits.push_value((s.phase == Phase::TakeDrop) as u32, 1);
    bits.push_value(0, 2); // no resignation
    bits.push_value(s.dice[0] as u32, 3);
    bits.push_value(s.dice[1] as u32, 3);
    bits.push_value(0, 15); // match length 0: money game
    bits.push_value(0, 15);
    bits.push_value(0, 15);
    b64_encode(&bits.bytes)
}

/// The full GNU Backgammon ID `PositionID:MatchID` of a state; the Position ID is written from
/// the side on turn (the one who rolls, moved, or doubled).
///
/// ```
/// use pachisi::backgammon::{BgState, Phase, gnubg_id, from_gnubg_id};
/// let s = BgState::start(Phase::Roll);
/// assert_eq!(gnubg_id(&s), "4HPwATDgc/ABMA:MAEAAAAAAAAA");
/// assert_eq!(from_gnubg_id(&gnubg_id(&s)).unwrap(), s);
/// ```
pub fn gnubg_id(s: &BgState) -> String {
    // The turn's low bit, as `match_id` writes it (`BgState::pip_count` reads a seat so too).
    let t = s.turn as usize & 1;
    format!(
        "{}:{}",
        position_id(&s.checkers[t], &s.checkers[1 - t]),
        match_id(s)
    )
}

/// The parts of a Match ID that a money game uses.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MatchKey {
    /// log2 of the cube value.
    pub cube_log2: u8,
    /// 0 or 1, or [`CUBE_CENTRED`].
    pub cube_owner: u8,
    /// The player on roll (or who rolled / doubled).
    pub dice_owner: u8,
    /// 0 not started, 1 playing, 2 over, 3 resigned, 4 cube dropped.
    pub game_state: u8,
    /// The player to make a decision.
    pub turn: u8,
    /// A double is offered.
    pub doubled: bool,
    /// The dice (0 when not rolled).
    pub dice: [u8; 2],
    /// The match length (0 = money game).
    pub match_length: u16,
}

/// Reads a Match ID.
///
/// ```
/// use pachisi::backgammon::from_match_id;
/// let k = from_match_id("cAkAAAAAAAAA").unwrap();
/// assert_eq!((k.cube_log2, k.dice_owner, k.game_state, k.turn), (0, 1, 1, 1));
/// assert!(from_match_id("cAkAAAAAAAA").is_err());
/// ```
pub fn from_match_id(id: &str) -> Result<MatchKey> {
    let id = id.trim();
    let mut bits = Bits::from(b64_decode(id, 9, "Match ID")?);
    let cube_log2 = bits.value(4) as u8;
    let owner = bits.value(2) as u8;
    let dice_owner = bits.value(1) as u8;
    let _crawford = bits.value(1);
    let game_state = bits.value(3) as u8;
    let turn = bits.value(1) as u8;
    let doubled = bits.value(1) == 1;
    let resign = bits.value(2);
    let dice = [bits.value(3) as u8, bits.value(3) as u8];
    let match_length = bits.value(15) as u16;
    let bad = |msg: String| Err(Error::InvalidNotation(format!("Match ID `{id}`: {msg}")));
    let cube_owner = match owner {
        0 | 1 => owner,
        3 => CUBE_CENTRED,
        _ => return bad("cube owner 2 is not defined".into()),
    };
    if resign != 0 {
        return bad("resignations are not supported".into());
    }
    if dice.iter().any(|&d| d > 6) {
        return bad(format!("dice {dice:?} out of range"));
    }
    Ok(MatchKey {
        cube_log2,
        cube_owner,
        dice_owner,
        game_state,
        turn,
        doubled,
        dice,
        match_length,
    })
}

/// Reads a full GNU Backgammon ID `PositionID:MatchID` (money games) into a state.
///
/// The state is checked for consistency with itself, not with a rule set; a pending roll reads
/// as [`Phase::Roll`] (a rule system with the cube turns it into a cube decision).
///
/// ```
/// use pachisi::backgammon::from_gnubg_id;
/// assert!(from_gnubg_id("4HPwATDgc/ABMA:MAEAAAAAAAAA").is_ok());
/// assert!(from_gnubg_id("4HPwATDgc/ABMA").is_err()); // no Match ID
/// ```
pub fn from_gnubg_id(text: &str) -> Result<BgState> {
    let text = text.trim();
    let text = text.strip_prefix("GNUbgID:").map(str::trim).unwrap_or(text);
    let Some((pos, mat)) = text.split_once(':') else {
        return Err(Error::InvalidNotation(format!(
            "a GNU Backgammon ID is `PositionID:MatchID`, got `{text}`"
        )));
    };
    let (on_roll, opponent) = from_position_id(pos)?;
    let k = from_match_id(mat)?;
    if k.match_length != 0 {
        return Err(Error::InvalidNotation(format!(
            "Match ID `{mat}` is for a {}-point match; only money games are supported",
            k.match_length
        )));
    }
    let t = k.dice_owner as usize;
    let mut checkers = [[0u8; 26]; 2];
    checkers[t] = on_roll;
    checkers[1 - t] = opponent;
    let bad = |msg: &str| Err(Error::InvalidPosition(format!("GNU ID `{text}`: {msg}")));
    let has_dice = k.dice != [0, 0];
    if has_dice && k.dice.contains(&0) {
        return bad("only one die is set");
    }
    let phase = match k.game_state {
        0 => Phase::Opening,
        1 if k.doubled => {
            if has_dice || k.turn == k.dice_owner {
                return bad("a double is offered, so no dice and the opponent decides");
            }
            Phase::TakeDrop
        }
        1 => {
            if k.turn != k.dice_owner {
                return bad("the player on roll must be the one to decide");
            }
            if has_dice { Phase::Move } else { Phase::Roll }
        }
        2 => Phase::Over,
        4 => Phase::Dropped,
        3 => return bad("resigned games are not supported"),
        _ => return bad("unknown game state"),
    };
    if matches!(phase, Phase::Opening | Phase::Over | Phase::Dropped) && (has_dice || k.doubled) {
        return bad("dice or a double in a game that is not being played");
    }
    let s = BgState {
        checkers,
        turn: k.dice_owner,
        dice: k.dice,
        phase,
        cube_log2: k.cube_log2,
        cube_owner: k.cube_owner,
    };
    if phase == Phase::Opening && (s.turn != 0 || s.cube_log2 != 0 || s.cube_owner != CUBE_CENTRED)
    {
        return bad("before the opening roll seat 0 is written on roll with a centred cube at 1");
    }
    Ok(s)
}

/// The XGID of a state with the default options (no Jacoby flag, maximum cube 2^10 = 1024).
///
/// Field by field: 26 position characters (character 0 seat 1's bar, 1..=24 the points from
/// seat 0's side, 25 seat 0's bar; `A`..`O` seat 0's checkers, `a`..`o` seat 1's, `-` empty),
/// cube log2, cube position (1 seat 0, -1 seat 1, 0 centred), turn (1 seat 0, -1 seat 1), dice
/// (`00` to roll or double, `D` a double offered — the turn is then the side that must answer —,
/// or the two dice), scores 0 and 0, rules flags (1 = Jacoby), match length 0, max cube log2.
///
/// ```
/// use pachisi::backgammon::{BgState, Phase, xgid, from_xgid};
/// let s = BgState::start(Phase::Roll);
/// assert_eq!(xgid(&s), "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10");
/// assert_eq!(from_xgid(&xgid(&s)).unwrap(), s);
/// ```
pub fn xgid(s: &BgState) -> String {
    xgid_with(s, 0, 10)
}

pub(super) fn xgid_with(s: &BgState, rules_flags: u8, max_cube_log2: u8) -> String {
    let mut pos = String::with_capacity(26);
    let ch = |count: u8, upper: bool| -> char {
        let count = count.min(26);
        if count == 0 {
            '-'
        } else if upper {
            (b'A' + count - 1) as char
        } else {
            (b'a' + count - 1) as char
        }
    };
    pos.push(ch(s.checkers[1][BAR], false));
    for p in 1..=24 {
        let own = s.checkers[0][p];
        if own > 0 {
            pos.push(ch(own, true));
        } else {
            pos.push(ch(s.checkers[1][25 - p], false));
        }
    }
    pos.push(ch(s.checkers[0][BAR], true));
    let side = |seat: u8| if seat == 0 { 1 } else { -1 };
    let cube_pos = if s.cube_owner == CUBE_CENTRED {
        0
    } else {
        side(s.cube_owner)
    };
    let (turn, dice) = match s.phase {
        Phase::TakeDrop => (side(1 - s.turn), "D".to_string()),
        Phase::Move => (side(s.turn), format!("{}{}", s.dice[0], s.dice[1])),
        _ => (side(s.turn), "00".to_string()),
    };
    format!(
        "XGID={pos}:{}:{cube_pos}:{turn}:{dice}:0:0:{rules_flags}:0:{max_cube_log2}",
        s.cube_log2
    )
}

/// Reads an XGID (the `XGID=` prefix is optional) into a state.
///
/// Scores, the rules flags, the match length and the maximum cube are checked for form and
/// otherwise ignored (the engine plays money games by its own options). A side with every
/// checker off makes the state a finished game won by that side.
///
/// ```
/// use pachisi::backgammon::from_xgid;
/// assert!(from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10").is_ok());
/// assert!(from_xgid("XGID=-b----E-C---eE---c-e----B:0:0:1:52:0:0:0:0:10").is_err()); // 25 chars
/// assert!(from_xgid("XGID=-b----E-C---eE---c-e----C-:0:0:1:52:0:0:0:0:10").is_err()); // 16 checkers
/// ```
pub fn from_xgid(text: &str) -> Result<BgState> {
    let text = text.trim();
    let body = match text.get(..5) {
        Some(p) if p.eq_ignore_ascii_case("XGID=") => &text[5..],
        _ => text,
    };
    let bad = |msg: String| Err(Error::InvalidNotation(format!("XGID `{text}`: {msg}")));
    let fields: Vec<&str> = body.split(':').collect();
    if !(9..=10).contains(&fields.len()) {
        return bad(format!("expected 9 or 10 fields, got {}", fields.len()));
    }
    let pos = fields[0].as_bytes();
    if pos.len() != 26 {
        return bad(format!(
            "the position has 26 characters, got {}",
            fields[0].chars().count()
        ));
    }
    let mut checkers = [[0u8; 26]; 2];
    for (i, &c) in pos.iter().enumerate() {
        let (seat, count) = match c {
            b'-' => continue,
            b'A'..=b'Z' => (0usize, c - b'A' + 1),
            b'a'..=b'z' => (1usize, c - b'a' + 1),
            _ => return bad(format!("`{}` is not a checker character", c as char)),
        };
        let index = match (i, seat) {
            (0, 1) => BAR,
            (25, 0) => BAR,
            (0, _) | (25, _) => {
                return bad(format!(
                    "position character {i} is a bar and holds only one side's checkers"
                ));
            }
            (p, 0) => p,
            (p, _) => 25 - p,
        };
        checkers[seat][index] = count;
    }
    for (seat, side) in checkers.iter_mut().enumerate() {
        let total: u32 = side.iter().map(|&c| c as u32).sum();
        if total > CHECKERS as u32 {
            return Err(Error::InvalidPosition(format!(
                "XGID `{text}`: seat {seat} has {total} checkers, at most {CHECKERS}"
            )));
        }
        side[OFF] = CHECKERS - total as u8;
    }
    if checkers[0][OFF] == CHECKERS && checkers[1][OFF] == CHECKERS {
        return Err(Error::InvalidPosition(format!(
            "XGID `{text}`: both sides have borne off every checker"
        )));
    }
    let int = |f: &str, name: &str| -> Result<i64> {
        f.trim().parse::<i64>().map_err(|_| {
            Error::InvalidNotation(format!("XGID `{text}`: {name} `{f}` is not a number"))
        })
    };
    let cube_log2 = int(fields[1], "cube value")?;
    let cube_pos = int(fields[2], "cube position")?;
    let turn = int(fields[3], "turn")?;
    for (i, name) in [
        (5, "score"),
        (6, "score"),
        (7, "rules"),
        (8, "match length"),
    ] {
        if int(fields[i], name)? < 0 {
            return bad(format!("{name} must not be negative"));
        }
    }
    if fields.len() == 10 {
        int(fields[9], "max cube")?;
    }
    if !(0..=15).contains(&cube_log2) {
        return bad(format!("cube value 2^{cube_log2} out of range"));
    }
    let cube_owner = match cube_pos {
        0 => CUBE_CENTRED,
        1 => 0,
        -1 => 1,
        _ => return bad(format!("cube position must be -1, 0 or 1, got {cube_pos}")),
    };
    let seat = match turn {
        1 => 0u8,
        -1 => 1u8,
        _ => return bad(format!("turn must be 1 or -1, got {turn}")),
    };
    let dice_field = fields[4].trim();
    let (phase, turn_seat, dice) = match dice_field.as_bytes() {
        b"00" => (Phase::Roll, seat, [0, 0]),
        b"D" => (Phase::TakeDrop, 1 - seat, [0, 0]),
        [a @ b'1'..=b'6', b @ b'1'..=b'6'] => (Phase::Move, seat, [a - b'0', b - b'0']),
        _ => return bad(format!("dice `{dice_field}` not understood")),
    };
    let mut s = BgState {
        checkers,
        turn: turn_seat,
        dice,
        phase,
        cube_log2: cube_log2 as u8,
        cube_owner,
    };
    for w in 0..2u8 {
        if s.checkers[w as usize][OFF] == CHECKERS {
            s.phase = Phase::Over;
            s.turn = w;
            s.dice = [0, 0];
        }
    }
    Ok(s)
}
