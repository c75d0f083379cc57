//! OpenSpiel's backgammon action ids (1,352), so a position and an action can be compared one to
//! one with `pyspiel.load_game("backgammon")`.
//!
//! An id holds two checker moves: `id = d1 * 26 + d0`, plus 676 when the lower die is played
//! first. A digit is the checker's point in OpenSpiel's board numbering (0..=23; seat 0, OpenSpiel's
//! X, moves from 0 towards 23, seat 1 the other way), 24 for the bar, 25 for "no move". A roll
//! of doubles is two decisions of the same seat, two checker moves each; when the first half
//! played two moves the second half is always asked (unless they bore off the last checker),
//! even when it can only pass (id 1351); a
//! roll with no legal move at all is one decision whose only id is 1351.
//!
//! ```
//! use pachisi::rl::backgammon::{openspiel_digit, describe_action};
//! assert_eq!(openspiel_digit(0, 24), 0);  // seat 0's 24-point is OpenSpiel's 0
//! assert_eq!(openspiel_digit(1, 24), 23);
//! assert_eq!(openspiel_digit(0, 25), 24); // the bar
//! assert_eq!(describe_action(1351), "pass");
//! ```

use super::moves_piece;
use crate::backgammon::{BAR, BgState, CHECKERS, OFF};
use crate::play::Step;

/// Number of OpenSpiel backgammon action ids.
pub const OPENSPIEL_ACTIONS: usize = 1352;
/// The digit of "no move".
pub const PASS_DIGIT: usize = 25;
/// The digit of the bar.
pub const BAR_DIGIT: usize = 24;
/// The id of a pass (no move with either die): OpenSpiel marks it "low die first" (+676),
/// since no move names the high die.
pub const PASS_ACTION: usize = PASS_DIGIT * 26 + PASS_DIGIT + 676;

/// OpenSpiel's digit of a checker of `seat` on its point `from` (pachisi's numbering from the
/// mover's side, 25 the bar).
pub fn openspiel_digit(seat: u8, from: u8) -> usize {
    if from as usize == BAR {
        BAR_DIGIT
    } else if seat == 0 {
        24 - from as usize
    } else {
        from as usize - 1
    }
}

/// The id of the next decision of a backgammon play at `start` (the position at the start of the
/// roll): `rest` are the steps of the play not yet taken, `taken` how many were. Returns the id,
/// the steps it consumes, and whether the same seat decides again after them even if nothing is
/// left to play (the second half of doubles).
///
/// ```
/// use pachisi::backgammon::{BgState, Phase};
/// use pachisi::rl::backgammon::openspiel_action;
/// use pachisi::Step;
/// let mut s = BgState::start(Phase::Move);
/// s.dice = [6, 5];
/// // 24/18 with the six, then 18/13 with the five: OpenSpiel digits 0 and 6, high die first.
/// let play = [Step { from: 24, to: 18, value: 6, ..Step::default() },
///             Step { from: 18, to: 13, value: 5, ..Step::default() }];
/// assert_eq!(openspiel_action(&s, 0, &play), (6 * 26, 2, false));
/// ```
pub fn openspiel_action(start: &BgState, taken: usize, rest: &[Step]) -> (usize, usize, bool) {
    let seat = start.turn;
    let [a, b] = start.dice;
    let high = a.max(b);
    let doubles = a == b;
    let n = if doubles {
        rest.len().min(2)
    } else {
        rest.len()
    };
    if n == 0 || rest.iter().take(n).any(|s| !moves_piece(s)) {
        return (PASS_ACTION, 0, false);
    }
    let d0 = openspiel_digit(seat, rest[0].from);
    let d1 = if n > 1 {
        openspiel_digit(seat, rest[1].from)
    } else {
        PASS_DIGIT
    };
    let high_first = rest[0].value == high;
    let id = d1 * 26 + d0 + if high_first { 0 } else { 676 };
    // OpenSpiel ends the game as soon as the last checker is off, even in the first half.
    let borne_off = rest[..n].iter().filter(|s| s.to as usize == OFF).count();
    let all_off = start.checkers[seat as usize & 1][OFF] as usize + borne_off >= CHECKERS as usize;
    (id, n, doubles && taken == 0 && n == 2 && !all_off)
}

/// The words of an id: `pass`, or the two checker moves as `digit/die` pairs, e.g.
/// `0/high 11/low`; an id at or above [`OPENSPIEL_ACTIONS`] is `invalid <id>`.
///
/// ```
/// use pachisi::rl::backgammon::{OPENSPIEL_ACTIONS, describe_action};
/// assert_eq!(describe_action(26 * 11), "0/high 11/low");
/// assert_eq!(describe_action(OPENSPIEL_ACTIONS), "invalid 1352");
/// ```
pub fn describe_action(action: usize) -> String {
    if action == PASS_ACTION {
        return "pass".into();
    }
    if action >= OPENSPIEL_ACTIONS {
        return format!("invalid {action}");
    }
    let low_first = action >= 676;
    let a = action % 676;
    let (d0, d1) = (a % 26, a / 26);
    let name = |d: usize| match d {
        BAR_DIGIT => "bar".to_string(),
        PASS_DIGIT => "-".to_string(),
        _ => d.to_string(),
    };
    let (first, second) = if low_first {
        ("low", "high")
    } else {
        ("high", "low")
    };
    format!("{}/{first} {}/{second}", name(d0), name(d1))
}
