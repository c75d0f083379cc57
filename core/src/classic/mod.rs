//! Classic Pachisi: six cowrie shells, the cross board, teams, units and castles (preset
//! `pachisi`; rules CLS-1..CLS-9 and decisions C-A..C-C of `RULES.md`, documented in
//! `docs/rules/pachisi.md`).
//!
//! # Board data
//! The cross has four arms of 3 columns x 8 rows around the charkoni (the centre). Arm `k`
//! belongs to colour `k`; arms follow each other counter-clockwise (0, 1, 2, 3). In an arm, row 0
//! touches the charkoni and row 7 is the outer edge; column 1 is the middle column, column 0 the
//! outer column along which the counter-clockwise loop runs *outwards*, column 2 the one along
//! which it runs back *inwards*. Column 2 of arm `k` and column 0 of arm `k + 1` meet at the
//! inner corner.
//!
//! The loop of 68 shared squares is numbered from the end square of arm 0's middle column
//! (`E0` = loop square 0): arm 0 column 2 rows 7..0 (1..=8), arm 1 column 0 rows 0..7 (9..=16),
//! `E1` (17), and so on: arm `k`'s end square is loop square `17 k`.
//!
//! # Seat-relative positions (the `from`/`to` of a step and the numbers of the notations)
//! * `0` — in the charkoni, not entered (at the start, or captured): needs a grace to enter;
//! * `1` — entered, on the charkoni, ready to move out (CLS-5: entering spends the throw);
//! * `2..=8` — down the own middle column, rows 0..=6;
//! * `9` — the own end square (row 7 of the middle column, loop square `17 k`);
//! * `9 + j` — loop square `17 k + j` (mod 68), counter-clockwise, up to `77` = the own end
//!   square again after a full lap;
//! * `78..=84` — up the own middle column, rows 6..=0;
//! * `85` — home (back in the charkoni), reached only by an exact throw (CLS-4).
//!
//! So a piece takes 84 steps from the charkoni to the charkoni.
//!
//! ```
//! use pachisi::{Game, Roll, Rules};
//! let mut game = Game::new(&Rules::preset("pachisi").unwrap(), 1);
//! game.set_roll(Roll::Cowries(3)).unwrap(); // three shells up: move 3
//! let plays: Vec<String> = game.legal_plays().iter().map(|p| game.format_play(p)).collect();
//! assert_eq!(plays, ["pass", "1-4"]);
//! game.play_notation("1-4").unwrap();
//! assert_eq!(game.position(), "1:-:4,0,0,0/1,0,0,0/1,0,0,0/1,0,0,0");
//! ```

use crate::dice::{ChanceOutcome, GameRng, Roll, cowrie_distribution, throw_cowries};
use crate::play::{Play, Step, StepKind};
use crate::system::{
    BoardKind, CharkoniStage, Node, Orders, Outcome, PieceView, Place, RuleSystem, SystemRules,
};
use crate::{Error, Result};
use serde::{Deserialize, Serialize};

mod movegen;
mod notation;
pub mod reference;
mod rules;

pub use rules::ClassicRules;

/// Colours on the board (always four; with two players each controls a team of two, C-B).
pub const COLOURS: usize = 4;
/// Pieces per colour.
pub const PIECES: usize = 4;
/// Cowrie shells thrown at once (CLS-3).
pub const SHELLS: u8 = 6;
/// Position of a piece in the charkoni that has not been entered (or was captured).
pub const NOT_ENTERED: u8 = 0;
/// Position of an entered piece still standing on the charkoni.
pub const CHARKONI_START: u8 = 1;
/// Position of the own end square (where the middle column meets the loop), first visit.
pub const END_SQUARE: u8 = 9;
/// Position of the own end square after a full lap.
pub const END_SQUARE_AGAIN: u8 = 77;
/// Position of a piece that is home (back in the charkoni).
pub const HOME: u8 = 85;
/// Steps from the charkoni out and back into it.
pub const PATH_STEPS: u8 = 84;
/// Squares of the shared loop round the cross.
pub const LOOP_LEN: u8 = 68;
/// Loop squares between the end squares of two neighbouring arms.
pub const ARM_SPACING: u8 = 17;
/// Rows of an arm.
pub const ROWS: u8 = 8;

const NOT_ON_LOOP: u8 = u8::MAX;

/// A position of Classic Pachisi: 19 bytes, `Copy`.
///
/// Each colour's four positions (seat-relative, see the module docs) are kept in descending
/// order, so equal positions are equal values.
///
/// ```
/// use pachisi::classic::{ClassicRules, ClassicState};
/// use pachisi::{RuleSystem, SystemRules};
/// let sys = ClassicRules::classic().build().unwrap();
/// let s: ClassicState = sys.parse_position("0:-:1,0,0,30/1,0,0,0/1,0,0,0/1,0,0,0").unwrap();
/// assert_eq!(s.pieces[0], [30, 1, 0, 0]);
/// assert!(std::mem::size_of::<ClassicState>() <= 64);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClassicState {
    /// `pieces[colour]`: the positions of the colour's four pieces, descending.
    pub pieces: [[u8; PIECES]; COLOURS],
    /// The colour to throw or to move.
    pub turn: u8,
    /// Shells mouth up of the throw being played (`None` at a chance node).
    pub throw: Option<u8>,
}

/// The rule system of Classic Pachisi, built from [`ClassicRules`] (board data tables included).
///
/// ```
/// use pachisi::classic::ClassicRules;
/// use pachisi::{Node, Orders, Roll, RuleSystem, SystemRules};
/// let sys = ClassicRules::classic().build().unwrap();
/// let mut s = sys.initial_state();
/// assert_eq!(sys.node(&s), Node::Chance);
/// sys.begin_roll(&mut s, Roll::Cowries(6)); // six up: 6, a grace
/// let mut plays = Vec::new();
/// sys.generate(&s, Orders::Distinct, &mut plays);
/// let text: Vec<String> = plays.iter().map(|p| sys.format_play(&s, p)).collect();
/// assert_eq!(text, ["pass", "enter", "1-7"]);
/// ```
#[derive(Clone, Debug)]
pub struct ClassicSystem {
    rules: ClassicRules,
    values: [u8; 7],
    grace: [bool; 7],
    distribution: [f64; 7],
    /// The path tables (boxed: built once, keeps the game value small).
    board: Box<BoardData>,
    /// Bit `i`: loop square `i` is a castle.
    castles: u128,
}

/// Board data built once by [`ClassicRules::build`].
#[derive(Clone, Debug)]
struct BoardData {
    /// `loop_square[colour][position]`: the shared loop square, or `NOT_ON_LOOP`.
    loop_square: [[u8; HOME as usize + 1]; COLOURS],
    /// `dead[position]`: home cannot be reached exactly from there.
    dead: [bool; HOME as usize + 1],
}

fn sort_desc(p: &mut [u8; PIECES]) {
    // Four elements: a fixed sorting network, no allocation.
    for (i, j) in [(0, 1), (2, 3), (0, 2), (1, 3), (1, 2)] {
        if p[i] < p[j] {
            p.swap(i, j);
        }
    }
}

const fn team(colour: usize) -> usize {
    colour % 2
}

impl ClassicSystem {
    /// The options this system was built from.
    pub fn rules(&self) -> &ClassicRules {
        &self.rules
    }

    /// The squares moved by a throw of `up` shells mouth up.
    ///
    /// ```
    /// use pachisi::SystemRules;
    /// let sys = pachisi::classic::ClassicRules::classic().build().unwrap();
    /// assert_eq!(sys.throw_value(0), 25);
    /// assert_eq!(sys.throw_value(1), 10);
    /// assert_eq!(sys.throw_value(4), 4);
    /// ```
    pub fn throw_value(&self, up: u8) -> u8 {
        self.values[up.min(SHELLS) as usize]
    }

    /// Whether a throw of `up` shells mouth up is a grace.
    ///
    /// ```
    /// use pachisi::SystemRules;
    /// let sys = pachisi::classic::ClassicRules::classic().build().unwrap();
    /// assert!(sys.is_grace(0) && sys.is_grace(1) && sys.is_grace(6));
    /// assert!(!sys.is_grace(3));
    /// ```
    pub fn is_grace(&self, up: u8) -> bool {
        self.grace[up.min(SHELLS) as usize]
    }

    /// The shared loop square (0..68, 0 = the end square of arm 0) of a colour's position, if
    /// the position is on the loop.
    ///
    /// ```
    /// use pachisi::SystemRules;
    /// let sys = pachisi::classic::ClassicRules::classic().build().unwrap();
    /// assert_eq!(sys.loop_square(1, 9), Some(17));
    /// assert_eq!(sys.loop_square(3, 30), Some((51 + 21) % 68));
    /// assert_eq!(sys.loop_square(0, 5), None);
    /// ```
    pub fn loop_square(&self, colour: u8, pos: u8) -> Option<u8> {
        let sq = *self
            .board
            .loop_square
            .get(colour as usize)?
            .get(pos as usize)?;
        (sq != NOT_ON_LOOP).then_some(sq)
    }

    /// Whether loop square `square` is a castle (CLS-9).
    ///
    /// ```
    /// use pachisi::SystemRules;
    /// let sys = pachisi::classic::ClassicRules::classic().build().unwrap();
    /// let castles: Vec<u8> = (0..68).filter(|&q| sys.is_castle(q)).collect();
    /// assert_eq!(castles.len(), 12);
    /// assert_eq!(&castles[..3], &[0, 4, 13]);
    /// ```
    pub fn is_castle(&self, square: u8) -> bool {
        square < LOOP_LEN && self.castles & (1u128 << square) != 0
    }

    /// Whether `pos` is a square from which no sequence of throws reaches home exactly.
    ///
    /// ```
    /// use pachisi::SystemRules;
    /// let sys = pachisi::classic::ClassicRules::classic().build().unwrap();
    /// assert!(sys.is_dead_end(84)); // no throw moves 1
    /// assert!(!sys.is_dead_end(83));
    /// ```
    pub fn is_dead_end(&self, pos: u8) -> bool {
        self.board.dead.get(pos as usize).copied().unwrap_or(false)
    }

    fn colour_done(s: &ClassicState, c: usize) -> bool {
        s.pieces[c].iter().all(|&p| p == HOME)
    }

    fn winning_team(s: &ClassicState) -> Option<usize> {
        (0..2).find(|&t| Self::colour_done(s, t) && Self::colour_done(s, t + 2))
    }

    /// Opposing pieces on the square `t` of colour `c`'s path, and whether it is a castle.
    fn opposition(&self, s: &ClassicState, c: usize, t: u8) -> (u8, bool) {
        let sq = self.board.loop_square[c][t as usize];
        if sq == NOT_ON_LOOP {
            return (0, false);
        }
        let mut n = 0;
        for o in (0..COLOURS).filter(|&o| team(o) != team(c)) {
            for &q in &s.pieces[o] {
                if self.board.loop_square[o][q as usize] == sq {
                    n += 1;
                }
            }
        }
        (n, self.is_castle(sq))
    }

    fn next_colour(s: &ClassicState, from: usize) -> u8 {
        for i in 1..=COLOURS {
            let c = (from + i) % COLOURS;
            if !Self::colour_done(s, c) {
                return c as u8;
            }
        }
        from as u8
    }

    fn player_of(&self, colour: u8) -> u8 {
        if self.rules.seats == 2 {
            colour % 2
        } else {
            colour
        }
    }

    fn place_of(&self, colour: u8, pos: u8) -> Place {
        let arm = colour % COLOURS as u8;
        match pos {
            2..=8 => Place::Cross {
                arm,
                column: 1,
                row: pos - 2,
            },
            78..=84 => Place::Cross {
                arm,
                column: 1,
                row: 84 - pos,
            },
            END_SQUARE..=END_SQUARE_AGAIN => {
                let sq = self.board.loop_square[arm as usize][pos as usize];
                let k = sq / ARM_SPACING;
                let off = sq % ARM_SPACING;
                match off {
                    0 => Place::Cross {
                        arm: k,
                        column: 1,
                        row: ROWS - 1,
                    },
                    1..=8 => Place::Cross {
                        arm: k,
                        column: 2,
                        row: 8 - off,
                    },
                    _ => Place::Cross {
                        arm: (k + 1) % 4,
                        column: 0,
                        row: off - 9,
                    },
                }
            }
            NOT_ENTERED => Place::Charkoni {
                stage: CharkoniStage::Waiting,
            },
            HOME => Place::Charkoni {
                stage: CharkoniStage::Home,
            },
            _ => Place::Charkoni {
                stage: CharkoniStage::Entered,
            },
        }
    }
}

impl RuleSystem for ClassicSystem {
    type State = ClassicState;

    fn seats(&self) -> u8 {
        self.rules.seats
    }

    fn max_rolls(&self) -> u32 {
        self.rules.max_rolls
    }

    fn initial_state(&self) -> ClassicState {
        let first = if self.rules.first_piece_in_play {
            CHARKONI_START
        } else {
            NOT_ENTERED
        };
        ClassicState {
            pieces: [[first, 0, 0, 0]; COLOURS],
            turn: 0,
            throw: None,
        }
    }

    fn validate_state(&self, s: &ClassicState) -> Result<()> {
        notation::validate_state(self, s)
    }

    fn node(&self, s: &ClassicState) -> Node {
        if Self::winning_team(s).is_some() {
            Node::Over
        } else if s.throw.is_some() {
            Node::Decision
        } else {
            Node::Chance
        }
    }

    fn to_move(&self, s: &ClassicState) -> u8 {
        self.player_of(s.turn)
    }

    fn chance_outcomes(&self, s: &ClassicState) -> Vec<ChanceOutcome> {
        if self.node(s) != Node::Chance {
            return Vec::new();
        }
        (0..=SHELLS)
            .map(|up| ChanceOutcome {
                roll: Roll::Cowries(up),
                probability: self.distribution[up as usize],
            })
            .collect()
    }

    fn sample_roll(&self, _s: &ClassicState, rng: &mut GameRng) -> Roll {
        Roll::Cowries(throw_cowries(rng, SHELLS, self.rules.shell_probability))
    }

    fn check_roll(&self, _s: &ClassicState, roll: Roll) -> Result<()> {
        match roll {
            Roll::Cowries(up) if up <= SHELLS => Ok(()),
            Roll::Cowries(up) => Err(Error::InvalidRoll(format!(
                "six cowries: 0..=6 shells mouth up, got {up}"
            ))),
            Roll::Dice(d) => Err(Error::InvalidRoll(format!(
                "classic pachisi throws six cowries, not dice (got {d:?})"
            ))),
        }
    }

    fn begin_roll(&self, s: &mut ClassicState, roll: Roll) {
        if let Roll::Cowries(up) = roll {
            s.throw = Some(up.min(SHELLS));
        }
    }

    fn generate(&self, s: &ClassicState, _orders: Orders, out: &mut Vec<Play>) {
        movegen::generate(self, s, _orders, out)
    }

    fn apply_step(&self, s: &mut ClassicState, step: &Step) {
        let c = step.seat as usize % COLOURS;
        match step.kind {
            StepKind::Enter => {
                if let Some(p) = s.pieces[c].iter_mut().find(|p| **p == NOT_ENTERED) {
                    *p = CHARKONI_START;
                }
            }
            _ => {
                let mut moved = 0;
                for p in s.pieces[c].iter_mut() {
                    if *p == step.from && moved < step.count {
                        *p = step.to;
                        moved += 1;
                    }
                }
                let sq = self
                    .board
                    .loop_square
                    .get(c)
                    .and_then(|r| r.get(step.to as usize))
                    .copied()
                    .unwrap_or(NOT_ON_LOOP);
                if sq != NOT_ON_LOOP {
                    // CLS-8: captured pieces go back into the charkoni, not entered.
                    for o in (0..COLOURS).filter(|&o| team(o) != team(c)) {
                        let mut hit = false;
                        for q in s.pieces[o].iter_mut() {
                            if self.board.loop_square[o][*q as usize] == sq {
                                *q = NOT_ENTERED;
                                hit = true;
                            }
                        }
                        if hit {
                            sort_desc(&mut s.pieces[o]);
                        }
                    }
                }
            }
        }
        sort_desc(&mut s.pieces[c]);
    }

    fn end_play(&self, s: &mut ClassicState, _steps: &[Step]) {
        let Some(up) = s.throw.take() else { return };
        if Self::winning_team(s).is_some() {
            return;
        }
        let c = s.turn as usize;
        // CLS-6 / C-C: a grace gives the same colour another throw, whatever it did with it.
        let again =
            self.rules.extra_throw_on_grace && self.grace[up as usize] && !Self::colour_done(s, c);
        if !again {
            s.turn = Self::next_colour(s, c);
        }
    }

    fn outcome(&self, s: &ClassicState) -> Option<Outcome> {
        let t = Self::winning_team(s)?;
        let winners = if self.rules.seats == 2 {
            1 << t
        } else {
            (1 << t) | (1 << (t + 2))
        };
        Some(Outcome { winners, points: 1 })
    }

    /// `<turn>:<throw>:<colour 0>/<colour 1>/<colour 2>/<colour 3>`: the colour to move, the
    /// shells mouth up of the pending throw (`-` at a chance node), and each colour's four
    /// seat-relative positions, comma separated, descending.
    fn format_position(&self, s: &ClassicState) -> String {
        notation::format_position(self, s)
    }

    fn parse_position(&self, text: &str) -> Result<ClassicState> {
        notation::parse_position(self, text)
    }

    /// `pass`, `enter`, `<from>-<to>` for one piece, `<k>x<from>-<to>` for a unit of `k` pieces,
    /// with `*` appended when the move captures (positions seat-relative, 85 = home).
    fn format_play(&self, _s: &ClassicState, play: &Play) -> String {
        notation::format_play(self, _s, play)
    }

    fn parse_play(&self, s: &ClassicState, text: &str) -> Result<Play> {
        notation::parse_play(self, s, text)
    }

    fn board(&self) -> BoardKind {
        BoardKind::Cross
    }

    fn pieces(&self, s: &ClassicState) -> Vec<PieceView> {
        let mut out = Vec::new();
        for (c, ps) in s.pieces.iter().enumerate() {
            let mut i = 0;
            while i < PIECES {
                let mut n = 1;
                while i + n < PIECES && ps[i + n] == ps[i] {
                    n += 1;
                }
                out.push(PieceView {
                    seat: c as u8,
                    piece: if n == 1 { i as u8 } else { crate::NO_PIECE },
                    place: self.place_of(c as u8, ps[i]),
                    count: n as u8,
                });
                i += n;
            }
        }
        out
    }

    fn reference_plays(&self, s: &ClassicState) -> Vec<Play> {
        reference::distinct_plays(self, s)
            .into_iter()
            .map(|p| p.play)
            .collect()
    }
    fn max_position(&self) -> u8 {
        HOME
    }

    fn place(&self, seat: u8, pos: u8) -> Place {
        self.place_of(seat, pos)
    }

    fn owners(&self) -> u8 {
        COLOURS as u8
    }

    fn seat_of_owner(&self, owner: u8) -> u8 {
        self.player_of(owner)
    }

    /// CLS-2: opposite colours are partners; with two players each plays a whole team.
    fn team(&self, seat: u8) -> u16 {
        let own = 1u16.checked_shl(seat as u32).unwrap_or(0);
        if self.rules.seats == 4 {
            own | 1 << ((seat + 2) % 4)
        } else {
            own
        }
    }

    /// CLS-9: the castles (a piece on a castle cannot be captured).
    fn safe_places(&self) -> Vec<Place> {
        // Colour 0's loop positions 9..77 are the loop squares 0..68 in order.
        (0..LOOP_LEN)
            .filter(|&square| self.is_castle(square))
            .map(|square| self.place_of(0, END_SQUARE + square))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_is_small() {
        assert!(std::mem::size_of::<ClassicState>() <= 64);
    }

    #[test]
    fn every_board_square_is_on_exactly_one_path_kind() {
        let sys = ClassicRules::classic().build().unwrap();
        let mut seen = std::collections::HashSet::new();
        for c in 0..4u8 {
            for pos in 2..HOME {
                if pos != END_SQUARE_AGAIN {
                    seen.insert(sys.place(c, pos));
                }
            }
        }
        // 96 squares: 68 loop squares + 4 x 7 private middle squares.
        assert_eq!(seen.len(), 96);
    }
}
