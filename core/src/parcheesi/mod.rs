//! Parcheesi (`parcheesi`) and Online Pachisi (`pachisi-online`): one rule system with switches.
//!
//! # Coordinates
//! Every position (in steps, notation and [`ParcheesiSystem::place`]) is *seat-relative progress*:
//!
//! | value      | meaning                                                                   |
//! |------------|---------------------------------------------------------------------------|
//! | 0          | the nest                                                                  |
//! | 1..=64     | the track, first lap: 1 = own entry square, 64 = own branch square (E-5)  |
//! | 65..=71    | the home path, 65 = its first square                                      |
//! | 72         | home                                                                      |
//! | 73..=76    | the four track squares between the branch square and the entry square,   |
//! |            | reached only by going round (PAR-11); from 76 a piece goes on to 1        |
//!
//! Every track square has exactly one number, so a piece that went round stands on the same
//! numbers as on its first lap: position `p` in `1..=64` is the square `p - 1` squares after the
//! seat's entry square, and `73..=76` are the squares 64..=67 after it. From 64 a piece may step
//! into the home path (65) or, when `go_round_again` is on, on round the track (73). The older
//! numbering of later laps, `77..=140` for the squares `1..=64`, is read as `p - 76` by the
//! position notation ([`normalize_position`]) and written in the one number.
//!
//! A sum-of-five entry (1+4, 2+3) is one [`StepKind::Enter`] step with `value` 5 that spends both
//! dice; an entry with a die showing five is the same step spending that die (the two cannot both
//! be possible in one roll).
//!
//! ```
//! use pachisi::{Game, Roll, Rules};
//! let mut g = Game::new(&Rules::preset("parcheesi").unwrap(), 1);
//! g.set_roll(Roll::Dice([5, 3])).unwrap();
//! let plays: Vec<String> = g.legal_plays().iter().map(|p| g.format_play(p)).collect();
//! assert_eq!(plays, vec!["enter 3:1-4"]);
//! ```

mod movegen;
mod notation;
pub mod reference;
mod rules;

pub use rules::{BonusObligation, BonusOrder, ParcheesiRules};

use crate::board;
use crate::dice::{ChanceOutcome, GameRng, Roll, roll_two_dice, two_dice_outcomes};
use crate::play::{Play, PlayList, Step, StepKind};
use crate::system::{BoardKind, Node, Orders, Outcome, PieceView, Place, RuleSystem};
use crate::{Error, Result};
use serde::{Deserialize, Serialize};

/// Position of a piece in the nest.
pub const NEST: u8 = 0;
/// A seat's entry square.
pub const ENTRY: u8 = 1;
/// A seat's branch square on the first lap (the square before its home path).
pub const BRANCH: u8 = 64;
/// The first square of the home path.
pub const HOME_PATH: u8 = 65;
/// Home.
pub const HOME: u8 = 72;
/// The first square after the branch square, reached by going round (PAR-11).
pub const LAP: u8 = 73;
/// The last square before the entry square (reached only by going round); the next is [`ENTRY`].
pub const LAP_END: u8 = 76;
/// The largest position of the older numbering of later laps (`77..=140` = `1..=64`).
const OLD_LAP_END: u8 = 140;
/// The largest bonus an option may give (keeps a bonus shorter than one lap).
pub const MAX_BONUS: u8 = 40;

/// Pieces per seat.
pub const PIECES: usize = 4;
/// Slots of the occupancy table: 68 track squares, then 4 sides x 7 home-path squares.
const SLOTS: usize = 68 + 4 * 7;
/// No slot (nest, home, or invalid position).
const NO_SLOT: u8 = u8::MAX;

/// Occupancy of a position, one bit per slot: the slots each seat occupies and those where it
/// has two or more pieces (a blockade when blockades are on).
struct Occ<'a> {
    /// The mover's row of [`ParcheesiSystem::slot_bit`] (the search's most frequent lookup).
    bits: &'a [u128; 256],
    own: u128,
    own_blocked: u128,
    others: u128,
    others_blocked: u128,
    /// The mover's pieces (to count a stack when more than two may share a square).
    mover: [u8; PIECES],
    /// `own | others`: a landing on a free square needs no further test.
    occupied: u128,
    /// The squares no piece may pass: every blockade when blockades are on, else none.
    blocked: u128,
}

impl<'a> Occ<'a> {
    #[inline]
    fn new(
        bits: &'a [u128; 256],
        own: (u128, u128),
        others: (u128, u128),
        mover: [u8; PIECES],
        blockades: bool,
    ) -> Occ<'a> {
        Occ {
            bits,
            own: own.0,
            own_blocked: own.1,
            others: others.0,
            others_blocked: others.1,
            mover,
            occupied: own.0 | others.0,
            blocked: if blockades { own.1 | others.1 } else { 0 },
        }
    }
}

/// What the state waits for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// A roll is due.
    Chance,
    /// The seat on turn plays its roll.
    Decision,
    /// A seat has all four pieces home.
    Over,
}

/// The whole position: pieces, turn, doubles count, the roll being played.
///
/// `Copy`, 50 bytes, no heap. Pieces are kept in ascending order of position at chance nodes
/// (within a play the moving seat's order may change after each step; a step's `piece` index
/// refers to the order before that step).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ParcheesiState {
    /// Seat-relative position of each seat's pieces (seats not in play keep zeros).
    pub(crate) pieces: [[u8; PIECES]; 4],
    /// Blockade ages for `blockade_turn_limit` (plays of the owner the piece's blockade stood).
    pub(crate) ages: [[u8; PIECES]; 4],
    /// The mover's pieces that formed blockades at the start of the roll (P-D): 0 = none, else the
    /// position the blockade stood on then, shared by its pieces (so that a position taken in
    /// the middle of a play still says where each blockade started).
    pub(crate) groups: [u8; PIECES],
    /// Values of the roll still to play, descending, zero-padded.
    pub(crate) left: [u8; 4],
    /// The roll being played ([0, 0] when none).
    pub(crate) dice: [u8; 2],
    /// The seat to roll or play.
    pub(crate) turn: u8,
    /// Doubles rolled in a row by the seat on turn.
    pub(crate) doubles: u8,
    /// What happens next.
    pub(crate) phase: Phase,
    /// Capture bonuses earned and not yet played.
    pub(crate) pending_capture: u8,
    /// Home bonuses earned and not yet played.
    pub(crate) pending_home: u8,
    /// Bonuses played in this roll (for the maximisation of P-C).
    pub(crate) bonuses_played: u8,
    /// Pips of the bonuses played in this roll.
    pub(crate) bonus_pips: u16,
}

impl ParcheesiState {
    /// Positions of a seat's pieces (seat-relative, see the module docs).
    ///
    /// ```
    /// let g = pachisi::parcheesi::ParcheesiRules::parcheesi();
    /// let sys = pachisi::SystemRules::build(&g).unwrap();
    /// let s = pachisi::RuleSystem::initial_state(&sys);
    /// assert_eq!(s.pieces(0), [0, 0, 0, 0]);
    /// ```
    pub fn pieces(&self, seat: u8) -> [u8; PIECES] {
        self.pieces[seat as usize & 3]
    }
    /// The seat on turn.
    pub fn turn(&self) -> u8 {
        self.turn
    }
    /// Doubles rolled in a row by the seat on turn.
    pub fn doubles_in_a_row(&self) -> u8 {
        self.doubles
    }
    /// What happens next.
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// The roll being played, if any.
    pub fn dice(&self) -> Option<[u8; 2]> {
        (self.dice[0] != 0).then_some(self.dice)
    }
    /// The values of the roll still to play.
    pub fn values_left(&self) -> &[u8] {
        let n = self.left.iter().take_while(|&&v| v != 0).count();
        &self.left[..n]
    }
    /// Pending (earned, unplayed) capture and home bonuses.
    pub fn pending_bonuses(&self) -> (u8, u8) {
        (self.pending_capture, self.pending_home)
    }
    /// Blockade ages of a seat's pieces (see `blockade_turn_limit`).
    pub fn blockade_ages(&self, seat: u8) -> [u8; PIECES] {
        self.ages[seat as usize & 3]
    }

    #[inline]
    fn n_left(&self) -> usize {
        count_left(&self.left)
    }

    #[inline]
    fn remove_value(&mut self, v: u8) -> bool {
        remove_value(&mut self.left, v)
    }

    /// Spends the first pair of values left that sums to `sum` (a sum-of-five entry).
    fn remove_pair(&mut self, sum: u8) {
        remove_pair(&mut self.left, sum);
    }

    /// Applies a die step (`Move` or `Enter`, no capture, not reaching home) of the mover's piece
    /// `idx`: the same as [`ParcheesiSystem::apply`] for such a step, cheaper.
    #[inline(always)]
    fn apply_plain_move(&mut self, seat: usize, idx: usize, to: u8, value: u8, enter: bool) {
        if !self.remove_value(value) && enter {
            self.remove_pair(value);
        }
        // Test before writing: reading the ages back right after a byte store into them stalls
        // the store forwarding (a measurable share of the search).
        let plain = self.groups == [0; PIECES] && self.ages[seat] == [0; PIECES];
        if !plain {
            self.carry_age(seat, idx, to);
            self.pieces[seat][idx] = to;
            self.sort_seat(seat, true);
            return;
        }
        self.pieces[seat][idx] = to;
        place_moved_piece(&mut self.pieces[seat], idx);
    }

    /// Blockade ages belong to the square (`blockade_turn_limit`), so that the pieces on one
    /// square stay interchangeable: piece `idx` of `seat`, about to move to `to`, takes the age of
    /// the own pieces there (0 where there are none), and a piece it leaves alone loses its age.
    #[inline]
    fn carry_age(&mut self, seat: usize, idx: usize, to: u8) {
        if self.ages[seat] == [0; PIECES] {
            // No blockade of the seat has an age (always so without a turn limit).
            return;
        }
        let p = self.pieces[seat];
        let from = p[idx];
        let mut age = 0;
        let mut alone = None;
        let mut staying = 0;
        for (j, &q) in p.iter().enumerate() {
            if j == idx {
                continue;
            }
            if q == to && to != HOME {
                age = self.ages[seat][j];
            }
            if q == from {
                staying += 1;
                alone = Some(j);
            }
        }
        self.ages[seat][idx] = age;
        if staying == 1
            && let Some(j) = alone
        {
            self.ages[seat][j] = 0;
        }
    }

    /// Sorts a seat's pieces by (position, group, age), keeping ages and groups with them.
    #[inline(always)]
    fn sort_seat(&mut self, seat: usize, with_groups: bool) {
        let with_groups = with_groups && self.groups != [0; PIECES];
        if !with_groups && self.ages[seat] == [0; PIECES] {
            let p = &mut self.pieces[seat];
            // A sorting network for four.
            for (i, j) in [(0, 1), (2, 3), (0, 2), (1, 3), (1, 2)] {
                if p[i] > p[j] {
                    p.swap(i, j);
                }
            }
            return;
        }
        let mut groups = if with_groups {
            self.groups
        } else {
            [0; PIECES]
        };
        sort_pieces(&mut self.pieces[seat], &mut groups, &mut self.ages[seat]);
        if with_groups {
            self.groups = groups;
        }
    }
}

/// Sorts four pieces by (position, group, age), each keeping its group and age: the sorting
/// network of `sort_seat` on packed keys (equal keys are identical pieces, so any sort gives
/// this order).
#[inline(always)]
fn sort_pieces(pieces: &mut [u8; PIECES], groups: &mut [u8; PIECES], ages: &mut [u8; PIECES]) {
    let mut keys = [0u32; PIECES];
    for (k, key) in keys.iter_mut().enumerate() {
        *key = (pieces[k] as u32) << 16 | (groups[k] as u32) << 8 | ages[k] as u32;
    }
    for (i, j) in [(0, 1), (2, 3), (0, 2), (1, 3), (1, 2)] {
        if keys[i] > keys[j] {
            keys.swap(i, j);
        }
    }
    for (k, key) in keys.iter().enumerate() {
        pieces[k] = (key >> 16) as u8;
        groups[k] = (key >> 8) as u8;
        ages[k] = *key as u8;
    }
}

/// Number of values left (`left` is descending and zero-padded).
#[inline]
fn count_left(left: &[u8; 4]) -> usize {
    left.iter().map(|&v| (v != 0) as usize).sum()
}

/// Spends one value `v` of `left` (descending, zero-padded); false when there is none.
#[inline]
fn remove_value(left: &mut [u8; 4], v: u8) -> bool {
    if v == 0 {
        return false;
    }
    let x = u32::from_le_bytes(*left);
    // The lowest byte equal to `v` (the zero padding never matches a value): the lowest zero
    // byte of `x ^ vvvv`, which this classic test finds exactly.
    let t = x ^ (v as u32).wrapping_mul(0x0101_0101);
    let zero = t.wrapping_sub(0x0101_0101) & !t & 0x8080_8080;
    if zero == 0 {
        return false;
    }
    let i = zero.trailing_zeros() / 8;
    // Drop byte `i` of the four, shifting the later ones down.
    let low = (1u32 << (8 * i)) - 1;
    *left = ((x & low) | ((x >> 8) & !low)).to_le_bytes();
    true
}

/// Spends the first pair of values left that sums to `sum` (a sum-of-five entry).
fn remove_pair(left: &mut [u8; 4], sum: u8) {
    let n = count_left(left);
    for i in 0..n {
        for j in i + 1..n {
            if left[i] + left[j] == sum {
                let (a, b) = (left[i], left[j]);
                remove_value(left, a);
                remove_value(left, b);
                return;
            }
        }
    }
}

/// Restores ascending order after only piece `idx` of a sorted list moved (the same order as
/// a full sort: plain positions have no ties to break); the piece's new index.
#[inline]
fn place_moved_piece(p: &mut [u8; PIECES], idx: usize) -> usize {
    let mut i = idx;
    while i + 1 < PIECES && p[i] > p[i + 1] {
        p.swap(i, i + 1);
        i += 1;
    }
    while i > 0 && p[i - 1] > p[i] {
        p.swap(i - 1, i);
        i -= 1;
    }
    i
}

/// A step of one piece of the Parcheesi system (a die, an entry or a bonus; `captured`: 1 when it
/// captures), as the generators and the reference list them.
#[inline]
pub(super) fn step(
    seat: usize,
    piece: usize,
    from: u8,
    to: u8,
    value: u8,
    captured: u8,
    kind: StepKind,
) -> Step {
    Step {
        seat: seat as u8,
        piece: piece as u8,
        from,
        to,
        value,
        count: 1,
        captured,
        kind,
    }
}

/// Steps a piece at `p` still needs to reach home (nest and home: `None`).
fn steps_to_home(p: u8) -> Option<u32> {
    match p {
        1..=71 => Some((HOME - p) as u32),
        // On to the entry square, round to the branch square, then the home path.
        LAP..=LAP_END => Some((LAP_END - p) as u32 + BRANCH as u32 + (HOME - BRANCH) as u32),
        _ => None,
    }
}

/// The one number of a position (see the module docs): the older numbering of a later lap,
/// `77..=140`, stands for the same squares as `1..=64`; every other value is returned as is.
///
/// ```
/// use pachisi::parcheesi::normalize_position;
/// assert_eq!(normalize_position(81), 5);
/// assert_eq!(normalize_position(140), 64);
/// assert_eq!(normalize_position(75), 75);
/// ```
pub fn normalize_position(p: u8) -> u8 {
    if p > LAP_END && p <= OLD_LAP_END {
        p - (LAP_END)
    } else {
        p
    }
}

/// The Parcheesi / Online Pachisi rule system built from [`ParcheesiRules`].
#[derive(Clone, Debug)]
pub struct ParcheesiSystem {
    pub(crate) rules: ParcheesiRules,
    seats: u8,
    side: [u8; 4],
    /// Occupancy slot of each seat's positions (track square, home-path slot, or [`NO_SLOT`]).
    slot: Box<[[u8; 256]; 4]>,
    /// `1 << slot` for each seat's positions (0 where there is no slot).
    slot_bit: Box<[[u128; 256]; 4]>,
    /// The position of each seat on each slot ([`NO_POSITION`] where the seat has none): the
    /// inverse of `slot`, one position per slot (a track square is one position of each seat, a
    /// home-path slot one of its seat's).
    position_at: Box<[[u8; SLOTS]; 4]>,
}

/// No position (in `ParcheesiSystem::position_at`); no piece stands there.
const NO_POSITION: u8 = u8::MAX;

impl ParcheesiSystem {
    /// The legal next steps of a play from `start` after the steps `taken` (which lead to `cur`)
    /// into `out`, in the order the search in every order ([`Orders::All`]) first lists them (a
    /// piece standing with an interchangeable one before it skipped: its steps share their id);
    /// returns whether a legal play ends with `taken`. `goal` keeps what a legal play of the roll
    /// achieves between calls of one play (it is recomputed when it was computed for another
    /// start). See `movegen/next.rs`.
    pub(crate) fn next_steps(
        &self,
        start: &ParcheesiState,
        cur: &ParcheesiState,
        taken: &[Step],
        goal: &mut Vec<u64>,
        out: &mut Vec<Step>,
    ) -> bool {
        movegen::next_steps(self, start, cur, taken, goal, out)
    }

    fn new(rules: ParcheesiRules) -> ParcheesiSystem {
        let seats = rules.seats;
        let mut side = [0u8; 4];
        let mut slot = Box::new([[NO_SLOT; 256]; 4]);
        for seat in 0..seats {
            let sd = board::side_of_seat(seat, seats);
            side[seat as usize] = sd;
            for pos in 0..=LAP_END {
                slot[seat as usize][pos as usize] = match pos {
                    1..=BRANCH => board::square_at(sd, (pos - 1) as u32),
                    HOME_PATH..=71 => 68 + sd * 7 + (pos - HOME_PATH),
                    LAP..=LAP_END => board::square_at(sd, (pos - 9) as u32),
                    _ => NO_SLOT,
                };
            }
        }
        let mut slot_bit = Box::new([[0u128; 256]; 4]);
        for seat in 0..4 {
            for pos in 0..256 {
                let sl = slot[seat][pos];
                if sl != NO_SLOT {
                    slot_bit[seat][pos] = 1u128 << sl;
                }
            }
        }
        let mut position_at = Box::new([[NO_POSITION; SLOTS]; 4]);
        for seat in 0..4 {
            for pos in 0..=LAP_END {
                let sl = slot[seat][pos as usize];
                if sl != NO_SLOT {
                    position_at[seat][sl as usize] = pos;
                }
            }
        }
        ParcheesiSystem {
            rules,
            seats,
            side,
            slot,
            slot_bit,
            position_at,
        }
    }

    /// The options this system was built from.
    pub fn rules(&self) -> &ParcheesiRules {
        &self.rules
    }

    #[inline]
    fn slot_of(&self, seat: usize, pos: u8) -> u8 {
        self.slot[seat & 3][pos as usize]
    }

    /// A seat's row of `slot_bit`.
    #[inline]
    fn slot_bits(&self, seat: usize) -> &[u128; 256] {
        &self.slot_bit[seat & 3]
    }

    /// `1 << slot_of(seat, pos)`, or 0 where the position has no slot.
    #[inline]
    fn slot_bit(&self, seat: usize, pos: u8) -> u128 {
        self.slot_bit[seat & 3][pos as usize]
    }

    /// Pieces of each seat per slot: 4 bits per seat (for validation).
    fn occupancy_table(&self, s: &ParcheesiState) -> [u16; SLOTS] {
        let mut occ = [0u16; SLOTS];
        for seat in 0..self.seats as usize {
            for &p in &s.pieces[seat] {
                let sl = self.slot_of(seat, p);
                if sl != NO_SLOT {
                    occ[sl as usize] += 1 << (4 * seat);
                }
            }
        }
        occ
    }

    fn most_own(&self) -> u16 {
        if self.rules.blockades {
            self.rules.max_pieces_per_square as u16
        } else {
            1
        }
    }

    /// Whether a seat has all its pieces home.
    fn all_home(&self, s: &ParcheesiState, seat: usize) -> bool {
        s.pieces[seat].iter().all(|&p| p == HOME)
    }

    /// Applies a step without checks (the generator and `apply_step` share it).
    #[inline]
    fn apply(&self, s: &mut ParcheesiState, step: &Step) {
        let seat = step.seat as usize & 3;
        let idx = step.piece as usize & 3;
        let is_bonus = step.kind == StepKind::Bonus;
        if !is_bonus && step.captured == 0 && step.to != HOME {
            // Only the mover's piece and the values left change (the common step).
            s.apply_plain_move(seat, idx, step.to, step.value, step.kind == StepKind::Enter);
            return;
        }
        match step.kind {
            StepKind::Enter => {
                if !s.remove_value(step.value) {
                    s.remove_pair(step.value);
                }
            }
            StepKind::Bonus => {
                if step.value == self.rules.capture_bonus && s.pending_capture > 0 {
                    s.pending_capture -= 1;
                } else {
                    s.pending_home = s.pending_home.saturating_sub(1);
                }
                s.bonuses_played += 1;
                s.bonus_pips += step.value as u16;
            }
            _ => {
                s.remove_value(step.value);
            }
        }
        s.carry_age(seat, idx, step.to);
        s.pieces[seat][idx] = step.to;
        if step.captured > 0 {
            let sq = self.slot_of(seat, step.to);
            for other in 0..self.seats as usize {
                if other == seat || sq == NO_SLOT {
                    continue;
                }
                // The seat's position on the landing square, looked for in its four pieces at
                // once (a zero byte of `pieces ^ at`; none for `NO_POSITION`).
                let at = self.position_at[other][sq as usize];
                let x = u32::from_le_bytes(s.pieces[other]) ^ (at as u32).wrapping_mul(0x0101_0101);
                if x.wrapping_sub(0x0101_0101) & !x & 0x8080_8080 == 0 {
                    continue;
                }
                for i in 0..PIECES {
                    if s.pieces[other][i] == at {
                        s.pieces[other][i] = NEST;
                        s.ages[other][i] = 0;
                    }
                }
                s.sort_seat(other, false);
            }
            if self.rules.capture_bonus > 0 && (!is_bonus || self.rules.bonuses_chain) {
                s.pending_capture += 1;
            }
        }
        if step.to == HOME && self.rules.home_bonus > 0 && (!is_bonus || self.rules.bonuses_chain) {
            s.pending_home += 1;
        }
        s.sort_seat(seat, true);
    }

    fn next_seat(&self, seat: u8) -> u8 {
        (seat + 1) % self.seats
    }

    /// P-H: the seat's piece nearest home (not home, not in the nest) goes back to the nest.
    fn third_doubles_penalty(&self, s: &mut ParcheesiState, seat: usize) {
        let mut best: Option<(u32, usize)> = None;
        for (i, &p) in s.pieces[seat].iter().enumerate() {
            if let Some(d) = steps_to_home(p)
                && best.is_none_or(|(bd, _)| d < bd)
            {
                best = Some((d, i));
            }
        }
        if let Some((_, i)) = best {
            // As for any move: the piece takes the nest's age (none), and a piece it leaves
            // alone loses its blockade's age (`blockade_turn_limit`).
            s.carry_age(seat, i, NEST);
            s.pieces[seat][i] = NEST;
            s.sort_seat(seat, false);
        }
    }

    /// The values a roll of `dice` gives a mover with `pieces`, descending, zero-padded (PAR-7):
    /// the two dice; on doubles the top faces, and the bottom faces too when the rules count
    /// them and no piece is in the nest.
    fn roll_values(&self, pieces: &[u8; PIECES], [a, b]: [u8; 2]) -> [u8; 4] {
        if a != b {
            [a.max(b), a.min(b), 0, 0]
        } else if self.rules.doubles_bottom_faces && !pieces.contains(&NEST) {
            let (h, l) = (a.max(7 - a), a.min(7 - a));
            [h, h, l, l]
        } else {
            [a, a, 0, 0]
        }
    }

    /// Sets the blockade groups of the mover at the start of its roll (P-D).
    fn mark_groups(&self, s: &mut ParcheesiState) {
        let seat = s.turn as usize & 3;
        let p = s.pieces[seat];
        let sorted = p[0] <= p[1] && p[1] <= p[2] && p[2] <= p[3];
        // Sorted, pieces on one square are neighbours: the usual roll, no shared square, needs
        // neither groups nor a sort.
        let shares = |i: usize| p[i] == p[i + 1] && p[i] != NEST && p[i] != HOME;
        let ageless = s.ages[seat] == [0; PIECES];
        if sorted && ageless && !(shares(0) || shares(1) || shares(2)) {
            s.groups = [0; PIECES];
            return;
        }
        // Built locally and stored once: the search reads the groups back as one word.
        let mut groups = [0u8; PIECES];
        if self.rules.blockade_no_joint_move {
            // A group is marked with its square (never 0: not the nest), which also orders the
            // groups by position, as the pieces are sorted.
            for i in 0..PIECES {
                if p[i] == NEST || p[i] == HOME || groups[i] != 0 {
                    continue;
                }
                for j in i + 1..PIECES {
                    if p[j] == p[i] {
                        groups[j] = p[i];
                        groups[i] = p[i];
                    }
                }
            }
        }
        s.groups = groups;
        if groups != [0; PIECES] || !ageless || !sorted {
            s.sort_seat(seat, true);
        }
    }

    /// `blockade_turn_limit`: ages of the mover's blockades after its play.
    fn update_ages(&self, s: &mut ParcheesiState, seat: usize) {
        let p = s.pieces[seat];
        let mut new_ages = [0u8; PIECES];
        for i in 0..PIECES {
            if p[i] == NEST || p[i] == HOME {
                continue;
            }
            let members = (0..PIECES).filter(|&j| p[j] == p[i]);
            if members.clone().count() >= 2 {
                let min = members.map(|j| s.ages[seat][j]).min().unwrap_or(0);
                new_ages[i] = min.saturating_add(1);
            }
        }
        s.ages[seat] = new_ages;
    }

    fn check_dice(&self, roll: Roll) -> Result<[u8; 2]> {
        roll.check_dice()?;
        match roll {
            Roll::Dice(d) => Ok(d),
            Roll::Cowries(_) => Err(Error::InvalidRoll("expected two dice".into())),
        }
    }
}

impl RuleSystem for ParcheesiSystem {
    type State = ParcheesiState;

    fn seats(&self) -> u8 {
        self.seats
    }

    fn max_rolls(&self) -> u32 {
        self.rules.max_rolls
    }

    fn initial_state(&self) -> ParcheesiState {
        ParcheesiState {
            pieces: [[NEST; PIECES]; 4],
            ages: [[0; PIECES]; 4],
            groups: [0; PIECES],
            left: [0; 4],
            dice: [0; 2],
            turn: 0,
            doubles: 0,
            phase: Phase::Chance,
            pending_capture: 0,
            pending_home: 0,
            bonuses_played: 0,
            bonus_pips: 0,
        }
    }

    fn validate_state(&self, s: &ParcheesiState) -> Result<()> {
        notation::validate(self, s)
    }

    fn canonical_state(&self, s: &ParcheesiState) -> ParcheesiState {
        ParcheesiState {
            dice: crate::dice::high_first(s.dice),
            ..*s
        }
    }

    fn node(&self, s: &ParcheesiState) -> Node {
        match s.phase {
            Phase::Chance => Node::Chance,
            Phase::Decision => Node::Decision,
            Phase::Over => Node::Over,
        }
    }

    fn to_move(&self, s: &ParcheesiState) -> u8 {
        s.turn
    }

    fn chance_outcomes(&self, s: &ParcheesiState) -> Vec<ChanceOutcome> {
        if s.phase == Phase::Chance {
            two_dice_outcomes()
        } else {
            Vec::new()
        }
    }

    fn sample_roll(&self, _s: &ParcheesiState, rng: &mut GameRng) -> Roll {
        roll_two_dice(rng)
    }

    fn check_roll(&self, _s: &ParcheesiState, roll: Roll) -> Result<()> {
        self.check_dice(roll).map(|_| ())
    }

    fn begin_roll(&self, s: &mut ParcheesiState, roll: Roll) {
        let Ok([a, b]) = self.check_dice(roll) else {
            return;
        };
        let seat = s.turn as usize;
        s.dice = [a, b];
        if a == b {
            s.doubles = s.doubles.saturating_add(1);
            if self.rules.third_doubles_penalty && s.doubles >= 3 {
                // P-H: before any move, the nearest piece goes back and the turn passes.
                self.third_doubles_penalty(s, seat);
                s.dice = [0, 0];
                s.doubles = 0;
                s.turn = self.next_seat(s.turn);
                s.phase = Phase::Chance;
                return;
            }
        }
        s.left = self.roll_values(&s.pieces[seat], [a, b]);
        s.pending_capture = 0;
        s.pending_home = 0;
        s.bonuses_played = 0;
        s.bonus_pips = 0;
        s.phase = Phase::Decision;
        self.mark_groups(s);
    }

    /// P-H: a roll leaves a chance node only by the third-doubles penalty, which passes the
    /// turn even when no piece could be sent back.
    fn roll_punished(&self, before: &ParcheesiState, after: &ParcheesiState) -> bool {
        before.phase == Phase::Chance && after.phase == Phase::Chance
    }

    fn generate(&self, s: &ParcheesiState, orders: Orders, out: &mut Vec<Play>) {
        movegen::generate(self, s, orders, out);
    }

    const LISTS_STEPS: bool = true;

    fn generate_list(&self, s: &ParcheesiState, orders: Orders, out: &mut PlayList) {
        movegen::generate_list(self, s, orders, out);
    }

    fn apply_step(&self, s: &mut ParcheesiState, step: &Step) {
        self.apply(s, step);
    }

    fn end_play(&self, s: &mut ParcheesiState, _steps: &[Step]) {
        let seat = s.turn as usize;
        if self.rules.blockade_turn_limit > 0 {
            self.update_ages(s, seat);
        }
        s.groups = [0; PIECES];
        // Without the P-D groups and with the new ages the mover's order may change; the other
        // seats' pieces are kept sorted by `apply` (captures) already.
        s.sort_seat(seat, false);
        s.left = [0; 4];
        s.pending_capture = 0;
        s.pending_home = 0;
        s.bonuses_played = 0;
        s.bonus_pips = 0;
        let doubles = s.dice[0] == s.dice[1] && s.dice[0] != 0;
        s.dice = [0, 0];
        if self.all_home(s, seat) {
            s.phase = Phase::Over;
            s.doubles = 0;
            return;
        }
        s.phase = Phase::Chance;
        if !(doubles && self.rules.doubles_extra_roll) {
            s.turn = self.next_seat(s.turn);
            s.doubles = 0;
        }
    }

    fn outcome(&self, s: &ParcheesiState) -> Option<Outcome> {
        if s.phase != Phase::Over {
            return None;
        }
        let winners = (0..self.seats as usize)
            .filter(|&seat| self.all_home(s, seat))
            .fold(0u16, |w, seat| w | 1 << seat);
        Some(Outcome { winners, points: 1 })
    }

    fn format_position(&self, s: &ParcheesiState) -> String {
        notation::format_position(self, s)
    }

    fn parse_position(&self, text: &str) -> Result<ParcheesiState> {
        notation::parse_position(self, text)
    }

    fn format_play(&self, _s: &ParcheesiState, play: &Play) -> String {
        notation::format_play(play)
    }

    fn parse_play(&self, s: &ParcheesiState, text: &str) -> Result<Play> {
        notation::parse_play(self, s, text)
    }

    fn board(&self) -> BoardKind {
        BoardKind::Loop
    }

    fn pieces(&self, s: &ParcheesiState) -> Vec<PieceView> {
        let mut out = Vec::with_capacity(self.seats as usize * PIECES);
        for seat in 0..self.seats {
            for (i, &p) in s.pieces[seat as usize].iter().enumerate() {
                out.push(PieceView {
                    seat,
                    piece: i as u8,
                    place: self.place(seat, p),
                    count: 1,
                });
            }
        }
        out
    }

    fn reference_plays(&self, s: &ParcheesiState) -> Vec<Play> {
        reference::distinct_plays(self, s)
            .into_iter()
            .map(|p| p.play)
            .collect()
    }
    /// Up to the older numbering of later laps (`77..=140`).
    fn max_position(&self) -> u8 {
        OLD_LAP_END
    }

    fn place(&self, seat: u8, pos: u8) -> Place {
        let side = self.side[seat as usize & 3];
        // The older numbering of later laps (`77..=140`) names the same squares.
        let pos = normalize_position(pos);
        match pos {
            1..=BRANCH => Place::Track {
                square: board::square_at(side, (pos - 1) as u32),
            },
            HOME_PATH..=71 => Place::HomePath {
                side,
                index: pos - HOME_PATH,
            },
            HOME => Place::Home { side },
            LAP..=LAP_END => Place::Track {
                square: board::square_at(side, (pos - 9) as u32),
            },
            _ => Place::Nest { side },
        }
    }

    fn side_of_owner(&self, owner: u8) -> u8 {
        self.side[owner as usize & 3]
    }

    fn safe_places(&self) -> Vec<Place> {
        if !self.rules.safe_squares {
            return Vec::new();
        }
        (0..board::TRACK_LEN)
            .filter(|&square| board::is_safe(square))
            .map(|square| Place::Track { square })
            .collect()
    }

    /// PAR-11: at the branch square a move that ends in the home path (or home) turns in and any
    /// other goes round; the lap's last square leads on to the entry square.
    fn route(&self, _owner: u8, from: u8, to: u8) -> Vec<u8> {
        let (from, to) = (normalize_position(from), normalize_position(to));
        let mut out = Vec::new();
        let mut p = from;
        // A lap and a home path is the longest walk; the bound keeps odd input from looping.
        while p != to && out.len() <= LAP_END as usize {
            p = match p {
                BRANCH if (HOME_PATH..=HOME).contains(&to) => HOME_PATH,
                BRANCH => LAP,
                LAP_END => ENTRY,
                HOME => break,
                x => x + 1,
            };
            out.push(p);
        }
        if from == to || out.last() == Some(&to) {
            out
        } else {
            vec![to]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_is_small() {
        assert!(std::mem::size_of::<ParcheesiState>() <= 64);
    }

    #[test]
    fn coordinates_map_to_the_board() {
        let sys = ParcheesiRules::parcheesi().build_unchecked();
        assert_eq!(sys.place(1, 1), Place::Track { square: 17 });
        assert_eq!(sys.place(0, 64), Place::Track { square: 63 });
        assert_eq!(sys.place(0, 73), Place::Track { square: 64 });
        assert_eq!(sys.place(0, 76), Place::Track { square: 67 });
        assert_eq!(sys.place(0, 140), Place::Track { square: 63 });
        assert_eq!(sys.place(0, 81), sys.place(0, 5));
        assert_eq!(sys.place(2, 65), Place::HomePath { side: 2, index: 0 });
        assert!(board::is_safe(63));
    }

    impl ParcheesiRules {
        fn build_unchecked(&self) -> ParcheesiSystem {
            ParcheesiSystem::new(self.clone())
        }
    }
}
