//! Family Pachisi (preset `pachisi-family`, seed 000): two dice played top *and* bottom on
//! doubles, partners, gates, conditionally safe start squares.
//!
//! Clause ids (FAM-n) and decisions (F-x) refer to `RULES.md`; `docs/rules/pachisi-family.md`
//! explains every option.
//!
//! # Coordinates
//! A piece's place is given relative to its own colour (the board side its seat sits at):
//!
//! | value    | place                                                                  |
//! |----------|------------------------------------------------------------------------|
//! | 0        | start area (never played, or captured and standing beside it: FAM-1)   |
//! | 1        | the colour's own start square (conditionally safe, FAM-8)              |
//! | 2..=68   | the track, `p - 1` squares after the start square                      |
//! | 69       | the own start square again, after a full lap (68 track steps)          |
//! | 70..=76  | the 7-square goal stretch                                              |
//! | 77       | the goal                                                               |
//!
//! A step's `from`/`to` use these values in the coordinates of the colour whose piece moves
//! (`Step::seat`).
//!
//! # Position notation
//! `<turn>:<tries>:<roll> <colour 0>/<colour 1>/...`, for example
//! `0:0:- n,n,n,n/n,n,n,n/n,n,n,n/n,n,n,n` (the start) or `2:1:6-3 x,n,14,70/...`.
//! `turn` is the seat to roll or play; `tries` the entry tries already missed this turn (FAM-6);
//! `roll` is `-` at a chance node and the dice being played (`6-3`) at a decision node. Each
//! colour lists its four pieces, separated by commas: `n` never played (in the start area), `x`
//! captured (beside the start area), `1`..`76` as in the table above, `h` home (the goal).
//!
//! # Play notation
//! Steps separated by spaces, each `<colour>:<from>-<to>` with `n`/`x` for a piece leaving the
//! start area and `h` for the goal, `(2)` when a gate moves as one (FAM-5c) and `*` when the
//! step captures: `0:n-1 0:1-4`, `2:12-23*`, `1:30-37(2)`, `3:74-h`.
//!
//! ```
//! use pachisi::{Game, Roll, Rules};
//! let mut g = Game::new(&Rules::preset("pachisi-family").unwrap(), 1);
//! g.set_roll(Roll::Dice([5, 3])).unwrap();
//! let notations: Vec<String> = g.legal_plays().iter().map(|p| g.format_play(p)).collect();
//! assert_eq!(notations, vec!["0:n-1 0:1-4"]);
//! ```

mod movegen;
mod notation;
pub mod reference;
mod rules;

pub use rules::FamilyRules;

use crate::board::{SIDE_SPACING, TRACK_LEN, entry_square, is_safe, side_of_seat};
use crate::dice::{ChanceOutcome, GameRng, Roll, roll_two_dice, two_dice_outcomes};
use crate::play::{Play, Step, StepKind};
use crate::system::{BoardKind, Node, Orders, Outcome, PieceView, Place, RuleSystem, SystemRules};
use crate::{Error, Result};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;

/// Pieces per colour.
pub const PIECES: usize = 4;
/// Position of a piece in the start area (never played or captured).
pub const START_AREA: u8 = 0;
/// Position of the own start square (where a piece enters).
pub const START_SQUARE: u8 = 1;
/// Position of the own start square after a full lap (the last track position).
pub const LAP_END: u8 = 69;
/// First position of the goal stretch.
pub const GOAL_STRETCH: u8 = 70;
/// Position of the goal.
pub const GOAL: u8 = 77;

const NONE: u8 = u8::MAX;

/// Whose turn it is, the roll being played and every piece: a plain `Copy` value (22 bytes).
///
/// Pieces of colour `c` are `pos[c]` in the colour's own coordinates (see the module docs);
/// bit `4 * c + i` of `played` says whether piece `i` has ever been in play, which tells a
/// captured piece (`x`) from a never-played one (`n`) in the start area (FAM-1, FAM-5b).
/// Seats not in play keep all zeros.
///
/// ```
/// use pachisi::family::{FamilyRules, FamilyState};
/// use pachisi::{RuleSystem, SystemRules};
/// let sys = FamilyRules::family().build().unwrap();
/// let s: FamilyState = sys.parse_position("1:0:- x,n,12,h/n,n,n,n/n,n,n,n/n,n,n,n").unwrap();
/// assert_eq!(s.pos[0], [0, 0, 12, 77]);
/// // Sorted `n`, `x`, 12, `h`: all but the never-played first piece have been in play.
/// assert_eq!(s.played & 0xF, 0b1110);
/// assert!(std::mem::size_of::<FamilyState>() <= 64);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FamilyState {
    /// Piece positions per colour.
    pub pos: [[u8; PIECES]; 4],
    /// Bit `4 * colour + piece`: the piece has been in play at least once.
    pub played: u16,
    /// The seat to roll or to play.
    pub turn: u8,
    /// Entry tries (FAM-6) already missed in this turn.
    pub tries: u8,
    /// The roll being played (`[0, 0]` at a chance node).
    pub dice: [u8; 2],
}

impl FamilyState {
    fn is_played(&self, colour: u8, piece: usize) -> bool {
        self.played & (1 << (colour as usize * 4 + piece)) != 0
    }
    fn all_played(&self, colour: u8) -> bool {
        (self.played >> (colour * 4)) & 0xF == 0xF
    }
    fn all_home(&self, colour: u8) -> bool {
        self.pos[colour as usize].iter().all(|&p| p == GOAL)
    }
    /// A piece on the track or in the goal stretch (FAM-6: "in play").
    fn has_piece_in_play(&self, colour: u8) -> bool {
        self.pos[colour as usize]
            .iter()
            .any(|&p| p != START_AREA && p != GOAL)
    }
    /// Canonical key: per colour the sorted (position, played) codes (the generator keeps it
    /// as [`FamilyState::key_parts`]; its tests compare the two).
    #[cfg(test)]
    fn key(&self) -> u128 {
        // Each colour's four sorted codes make 32 bits (first code highest), colour 0 highest.
        let k = self.key_parts();
        (k[0] as u128) << 96 | (k[1] as u128) << 64 | (k[2] as u128) << 32 | k[3] as u128
    }

    /// [`FamilyState::key`]'s part of each colour: its four sorted codes, first code highest.
    fn key_parts(&self) -> [u32; 4] {
        let mut k = [0u32; 4];
        for (c, part) in k.iter_mut().enumerate() {
            let played = (self.played >> (c * 4)) as u8;
            let mut codes = [0u8; PIECES];
            for (i, code) in codes.iter_mut().enumerate() {
                *code = self.pos[c][i] << 1 | (played >> i) & 1;
            }
            sort4(&mut codes);
            *part = u32::from_be_bytes(codes);
        }
        k
    }
}

/// Family Pachisi built from [`FamilyRules`].
#[derive(Clone, Debug)]
pub struct FamilySystem {
    rules: FamilyRules,
    side: [u8; 4],
    partner: [u8; 4],
    /// `squares[colour][pos]`: [`FamilySystem::square`] for every position (a table: the
    /// generator asks for it at every step, and the sum takes a division otherwise).
    squares: [[u8; SQUARE_TABLE]; 4],
}

/// Positions [`FamilySystem::square`] has a table entry for (every place, 0..=77, and one
/// past the goal).
const SQUARE_TABLE: usize = GOAL as usize + 2;

/// The table of [`FamilySystem::square`] for colours sitting at `side`.
fn square_table(side: &[u8; 4]) -> [[u8; SQUARE_TABLE]; 4] {
    let mut t = [[0u8; SQUARE_TABLE]; 4];
    for (c, row) in t.iter_mut().enumerate() {
        for (pos, sq) in row.iter_mut().enumerate() {
            *sq = square_of(side[c], pos as u8);
        }
    }
    t
}

/// The track square of position `pos` (1..=69) of the colour sitting at `side`.
fn square_of(side: u8, pos: u8) -> u8 {
    // `+ TRACK_LEN - 1` rather than `- 1`: no underflow even for a position off the track.
    let entry = entry_square(side) as u16;
    ((entry + pos as u16 + TRACK_LEN as u16 - 1) % TRACK_LEN as u16) as u8
}

impl FamilySystem {
    /// The options this system was built from.
    pub fn rules(&self) -> &FamilyRules {
        &self.rules
    }

    fn seat_count(&self) -> u8 {
        self.rules.seats
    }

    /// The colour whose pieces the seat to move plays: its own, or its partner's when all of
    /// its own are home (FAM-2, F-I).
    ///
    /// ```
    /// use pachisi::family::FamilyRules;
    /// use pachisi::{RuleSystem, SystemRules};
    /// let sys = FamilyRules::family().build().unwrap();
    /// let s = sys.parse_position("0:0:- h,h,h,h/n,n,n,n/n,n,n,30/n,n,n,n").unwrap();
    /// assert_eq!(sys.playing_colour(&s), 2);
    /// ```
    pub fn playing_colour(&self, s: &FamilyState) -> u8 {
        let t = s.turn;
        let p = self.partner.get(t as usize).copied().unwrap_or(NONE);
        if p != NONE && s.all_home(t) { p } else { t }
    }

    #[inline(always)]
    fn square(&self, colour: u8, pos: u8) -> u8 {
        let row = &self.squares[colour as usize & 3];
        match row.get(pos as usize) {
            Some(&sq) => sq,
            None => square_of(self.side[colour as usize & 3], pos),
        }
    }

    fn finished(&self, s: &FamilyState) -> Option<u16> {
        for c in 0..self.seat_count() {
            if !s.all_home(c) {
                continue;
            }
            let p = self.partner[c as usize];
            if p == NONE {
                return Some(1 << c);
            }
            if s.all_home(p) {
                return Some(1 << c | 1 << p);
            }
        }
        None
    }
}

impl RuleSystem for FamilySystem {
    type State = FamilyState;

    fn seats(&self) -> u8 {
        self.rules.seats
    }

    fn max_rolls(&self) -> u32 {
        self.rules.max_rolls
    }

    fn initial_state(&self) -> FamilyState {
        FamilyState {
            pos: [[START_AREA; PIECES]; 4],
            played: 0,
            turn: 0,
            tries: 0,
            dice: [0, 0],
        }
    }

    fn validate_state(&self, s: &FamilyState) -> Result<()> {
        notation::validate_state(self, s)
    }

    fn canonical_state(&self, s: &FamilyState) -> FamilyState {
        FamilyState {
            dice: crate::dice::high_first(s.dice),
            ..*s
        }
    }

    fn node(&self, s: &FamilyState) -> Node {
        if self.finished(s).is_some() {
            Node::Over
        } else if s.dice[0] != 0 {
            Node::Decision
        } else {
            Node::Chance
        }
    }

    fn to_move(&self, s: &FamilyState) -> u8 {
        s.turn
    }

    fn chance_outcomes(&self, s: &FamilyState) -> Vec<ChanceOutcome> {
        if self.node(s) == Node::Chance {
            two_dice_outcomes()
        } else {
            Vec::new()
        }
    }

    fn sample_roll(&self, _s: &FamilyState, rng: &mut GameRng) -> Roll {
        roll_two_dice(rng)
    }

    fn check_roll(&self, _s: &FamilyState, roll: Roll) -> Result<()> {
        roll.check_dice()
    }

    fn begin_roll(&self, s: &mut FamilyState, roll: Roll) {
        if let Roll::Dice(d) = roll {
            s.dice = d;
        }
    }

    fn generate(&self, s: &FamilyState, orders: Orders, out: &mut Vec<Play>) {
        self.generate_into(s, orders, out);
    }

    const LISTS_STEPS: bool = true;

    fn generate_list(&self, s: &FamilyState, orders: Orders, out: &mut crate::play::PlayList) {
        self.generate_list_into(s, orders, out);
    }

    fn apply_step(&self, s: &mut FamilyState, step: &Step) {
        self.apply_to_state(s, step);
    }

    fn end_play(&self, s: &mut FamilyState, steps: &[Step]) {
        // The colour that moved (its seat may have just finished: then it played its own).
        let colour = steps
            .first()
            .map_or_else(|| self.playing_colour(s), |st| st.seat);
        let doubles = s.dice[0] == s.dice[1];
        s.dice = [0, 0];
        Self::sort_pieces(s);
        if self.finished(s).is_some() {
            return;
        }
        let next = (s.turn + 1) % self.seat_count();
        // FAM-5b: no extra roll while a piece of the colour has never been in play.
        let extra = doubles
            && self.rules.doubles_extra_roll
            && (!self.rules.doubles_restricted_until_all_played || s.all_played(colour));
        // F-G: a roll with nothing entered while no piece is in play is a missed try.
        let miss = steps.is_empty() && !s.has_piece_in_play(colour);
        if miss {
            s.tries += 1;
            if s.tries < self.rules.entry_tries {
                return;
            }
            if extra {
                s.tries = self.rules.entry_tries - 1;
                return;
            }
            s.tries = 0;
            s.turn = next;
            return;
        }
        s.tries = 0;
        if !extra {
            s.turn = next;
        }
    }

    fn outcome(&self, s: &FamilyState) -> Option<Outcome> {
        self.finished(s)
            .map(|winners| Outcome { winners, points: 1 })
    }

    fn format_position(&self, s: &FamilyState) -> String {
        notation::format_position(self, s)
    }

    fn parse_position(&self, text: &str) -> Result<FamilyState> {
        notation::parse_position(self, text)
    }

    fn format_play(&self, s: &FamilyState, play: &Play) -> String {
        notation::format_play(self, s, play)
    }

    fn parse_play(&self, s: &FamilyState, text: &str) -> Result<Play> {
        notation::parse_play(self, s, text)
    }

    fn board(&self) -> BoardKind {
        BoardKind::Loop
    }

    fn pieces(&self, s: &FamilyState) -> Vec<PieceView> {
        let mut v = Vec::new();
        for c in 0..self.seat_count() {
            for i in 0..PIECES {
                v.push(PieceView {
                    seat: c,
                    piece: i as u8,
                    place: self.place(c, s.pos[c as usize][i]),
                    count: 1,
                });
            }
        }
        v
    }

    fn reference_plays(&self, s: &FamilyState) -> Vec<Play> {
        reference::distinct_plays(self, s)
            .into_iter()
            .map(|p| p.play)
            .collect()
    }
    fn max_position(&self) -> u8 {
        GOAL
    }

    fn place(&self, seat: u8, pos: u8) -> Place {
        let side = self.side[(seat & 3) as usize];
        match pos {
            START_AREA => Place::Nest { side },
            START_SQUARE..=LAP_END => Place::Track {
                square: self.square(seat & 3, pos),
            },
            GOAL_STRETCH..GOAL => Place::HomePath {
                side,
                index: pos - GOAL_STRETCH,
            },
            _ => Place::Home { side },
        }
    }

    fn side_of_owner(&self, owner: u8) -> u8 {
        self.side[(owner & 3) as usize]
    }

    fn team(&self, seat: u8) -> u16 {
        let own = 1u16.checked_shl(seat as u32).unwrap_or(0);
        match self.partner.get(seat as usize) {
            Some(&p) if p != NONE => own | 1 << p,
            _ => own,
        }
    }

    /// FAM-8: the twelve safe squares (a colour's own start square is safe from everyone but
    /// that colour entering).
    fn safe_places(&self) -> Vec<Place> {
        (0..TRACK_LEN)
            .filter(|&square| is_safe(square))
            .map(|square| Place::Track { square })
            .collect()
    }
}

/// Sorts four bytes with a five-comparator network (the hot path of the result keys).
#[inline]
fn sort4(v: &mut [u8; 4]) {
    #[inline]
    fn cswap(v: &mut [u8; 4], i: usize, j: usize) {
        let (a, b) = (v[i], v[j]);
        v[i] = a.min(b);
        v[j] = a.max(b);
    }
    cswap(v, 0, 1);
    cswap(v, 2, 3);
    cswap(v, 0, 2);
    cswap(v, 1, 3);
    cswap(v, 1, 2);
}

// Square spacing is part of the geometry the coordinates assume.
const _: () = assert!(SIDE_SPACING * 4 == TRACK_LEN);
