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

pub mod reference;

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

/// The options of Family Pachisi. Every decision of `RULES.md` (F-A..F-J) is one of them.
///
/// ```
/// use pachisi::family::FamilyRules;
/// use pachisi::SystemRules;
/// let r = FamilyRules::family();
/// assert!(r.teams && r.seats == 4);
/// assert!(FamilyRules { seats: 3, ..FamilyRules::family() }.build().is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FamilyRules {
    /// Colours in play: 4 (default), or 2 sitting opposite, or 3 (FAM-1, FAM-2).
    pub seats: u8,
    /// Opposite colours are partners (FAM-2, F-I); needs 4 seats. Off: every colour for itself.
    pub teams: bool,
    /// F-A: the sum of both dice may be played by one piece as one move (only its end lands).
    pub sum_as_one_move: bool,
    /// F-B: one piece may take both dice one after the other (each a landing).
    pub one_piece_both_dice: bool,
    /// FAM-4 / F-C: the higher die is played first; off: either order.
    pub higher_die_first: bool,
    /// FAM-5 / F-D: doubles play the bottom faces too (`[h, h, l, l]`, h = max(d, 7-d)).
    pub bottom_faces: bool,
    /// FAM-5b / F-E: until every piece has been in play once, doubles play only the two higher
    /// values and give no extra roll (unless the roll enters the last never-played piece).
    pub doubles_restricted_until_all_played: bool,
    /// FAM-5c: the two pieces of a gate may move as one with doubles (h, l or 7 squares).
    pub gate_moves_with_doubles: bool,
    /// FAM-6: with no piece in play, a 6-5 may enter a piece and move it 6 at once.
    pub six_five_enters_and_moves: bool,
    /// FAM-6 / F-G: rolls a colour with no piece in play gets per turn to roll a five (1..=6).
    pub entry_tries: u8,
    /// FAM-5 / F-J: doubles give another roll.
    pub doubles_extra_roll: bool,
    /// F-H: off (default) capturing is a choice; on, a play that captures must be chosen if any.
    pub compulsory_capture: bool,
    /// F-F: off (default) only a die showing five enters; on, a sum of five (4-1, 3-2) may
    /// enter a piece too, using both dice.
    pub sum_of_five_enters: bool,
}

impl FamilyRules {
    /// The `pachisi-family` preset: the seed's rules with every F-x decision.
    pub fn family() -> Self {
        FamilyRules {
            seats: 4,
            teams: true,
            sum_as_one_move: true,
            one_piece_both_dice: true,
            higher_die_first: true,
            bottom_faces: true,
            doubles_restricted_until_all_played: true,
            gate_moves_with_doubles: true,
            six_five_enters_and_moves: true,
            entry_tries: 3,
            doubles_extra_roll: true,
            compulsory_capture: false,
            sum_of_five_enters: false,
        }
    }
}

impl Default for FamilyRules {
    fn default() -> Self {
        FamilyRules::family()
    }
}

fn invalid(msg: impl Into<String>) -> Error {
    Error::InvalidRules(format!("pachisi-family: {}", msg.into()))
}

impl SystemRules for FamilyRules {
    type System = FamilySystem;

    fn build(&self) -> Result<FamilySystem> {
        if !(2..=4).contains(&self.seats) {
            return Err(invalid(format!(
                "`seats` must be 2, 3 or 4 (got {})",
                self.seats
            )));
        }
        if self.teams && self.seats != 4 {
            return Err(invalid(format!(
                "`teams` needs 4 seats: partners sit opposite (seats s and s+2), and with {} \
                 seats a partner seat is not in play; use \"teams\": false for opponents",
                self.seats
            )));
        }
        if !(1..=6).contains(&self.entry_tries) {
            return Err(invalid(format!(
                "`entry_tries` must be 1..=6 (got {})",
                self.entry_tries
            )));
        }
        if self.doubles_restricted_until_all_played && !self.bottom_faces {
            return Err(invalid(
                "`doubles_restricted_until_all_played` limits doubles to their two higher \
                 values, which only exist with `bottom_faces`: set both or turn the restriction off",
            ));
        }
        let mut side = [0u8; 4];
        let mut partner = [NONE; 4];
        for seat in 0..self.seats {
            side[seat as usize] = side_of_seat(seat, self.seats);
            if self.teams {
                partner[seat as usize] = (seat + 2) % 4;
            }
        }
        Ok(FamilySystem {
            rules: self.clone(),
            side,
            partner,
        })
    }
}

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
    /// Canonical key: per colour the sorted (position, played) codes.
    fn key(&self) -> u128 {
        // Each colour's four sorted codes make 32 bits (first code highest), colour 0 highest.
        let mut k = 0u128;
        for c in 0..4usize {
            let played = (self.played >> (c * 4)) as u8;
            let mut codes = [0u8; PIECES];
            for (i, code) in codes.iter_mut().enumerate() {
                *code = self.pos[c][i] << 1 | (played >> i) & 1;
            }
            sort4(&mut codes);
            k |= (u32::from_be_bytes(codes) as u128) << (96 - 32 * c);
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
}

/// The position plus the occupancy of the 68 track squares, used while generating plays.
#[derive(Copy, Clone)]
struct Board {
    s: FamilyState,
    /// 0 = empty, else `colour << 2 | count` (count 1 or 2).
    track: [u8; TRACK_LEN as usize],
}

/// What a landing does.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Landing {
    Free,
    Capture,
}

struct Gen<'a> {
    out: &'a mut Vec<Play>,
    keys: &'a mut Vec<u128>,
    uses: &'a mut Vec<u8>,
    /// Listing one play per result: (position, value index, values used, frozen pieces)
    /// already explored are pruned (their continuations give the same results).
    seen: Option<&'a mut Seen>,
    /// Tag bit of the second, reversed-order search (`higher_die_first` off).
    run: u32,
    values: [u8; 4],
    count: usize,
    colour: u8,
    /// FAM-5b: the last two values are only available once every piece has been in play.
    restricted: bool,
    doubles: bool,
    six_five: bool,
}

/// Result keys, values used per play, and the set of positions seen.
type Scratch = (Vec<u128>, Vec<u8>, Seen);

/// An open-addressing set of (position key, tag) pairs, cleared in O(1) by bumping a stamp:
/// reused by every generator call of a thread, so it allocates only while growing.
struct Seen {
    slots: Vec<(u128, u32, u32)>,
    stamp: u32,
    len: usize,
}

impl Seen {
    const fn new() -> Seen {
        Seen {
            slots: Vec::new(),
            stamp: 0,
            len: 0,
        }
    }

    fn clear(&mut self) {
        self.len = 0;
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            // Stamp wrapped: old entries could look current.
            self.slots.iter_mut().for_each(|e| e.2 = 0);
            self.stamp = 1;
        }
        if self.slots.is_empty() {
            self.slots = vec![(0, 0, 0); 1024];
        }
    }

    fn slot(&self, key: u128, tag: u32) -> usize {
        let h = (key as u64 ^ (key >> 64) as u64 ^ (tag as u64) << 32)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> 32) as usize & (self.slots.len() - 1)
    }

    /// Inserts; false when the pair was already there.
    fn insert(&mut self, key: u128, tag: u32) -> bool {
        if (self.len + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = self.slot(key, tag);
        loop {
            let e = self.slots[i];
            if e.2 != self.stamp {
                self.slots[i] = (key, tag, self.stamp);
                self.len += 1;
                return true;
            }
            if e.0 == key && e.1 == tag {
                return false;
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let bigger = vec![(0, 0, 0); self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, bigger);
        let stamp = self.stamp;
        self.len = 0;
        for (key, tag, st) in old {
            if st == stamp {
                self.insert(key, tag);
            }
        }
    }
}

thread_local! {
    /// Reused buffers of the generator (result keys, values used, a sort buffer): no heap
    /// allocation per call once warm.
    static SCRATCH: RefCell<Scratch> = const { RefCell::new((Vec::new(), Vec::new(), Seen::new())) };
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

    fn square(&self, colour: u8, pos: u8) -> u8 {
        ((entry_square(self.side[colour as usize]) as u16 + pos as u16 - 1) % TRACK_LEN as u16)
            as u8
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

    fn board(&self, s: &FamilyState) -> Board {
        let mut track = [0u8; TRACK_LEN as usize];
        for c in 0..self.seat_count() {
            for &p in &s.pos[c as usize] {
                if (START_SQUARE..=LAP_END).contains(&p) {
                    let sq = self.square(c, p) as usize;
                    track[sq] = (c << 2) | ((track[sq] & 3) + 1);
                }
            }
        }
        Board { s: *s, track }
    }

    fn own_count(b: &Board, colour: u8, pos: u8) -> u8 {
        b.s.pos[colour as usize]
            .iter()
            .filter(|&&p| p == pos)
            .count() as u8
    }

    /// FAM-10: no piece passes a gate; checks the positions strictly between `from` and `to`.
    fn can_pass(&self, b: &Board, colour: u8, from: u8, to: u8) -> bool {
        let track_end = to.min(LAP_END + 1);
        if from + 1 < track_end {
            // Walk the track squares with a wrapping index (no division per square).
            let mut sq = self.square(colour, from + 1) as usize;
            for _ in from + 1..track_end {
                if b.track[sq] & 3 == 2 {
                    return false;
                }
                sq += 1;
                if sq == TRACK_LEN as usize {
                    sq = 0;
                }
            }
        }
        for p in (from + 1).max(GOAL_STRETCH)..to.min(GOAL) {
            if Self::own_count(b, colour, p) >= 2 {
                return false;
            }
        }
        true
    }

    /// Whether `movers` pieces of `colour` may land on `to`, and whether they capture there
    /// (FAM-7, FAM-8, FAM-9, FAM-10, F-H).
    fn landing(&self, b: &Board, colour: u8, to: u8, movers: u8) -> Option<Landing> {
        if to > GOAL {
            return None;
        }
        if to == GOAL {
            return Some(Landing::Free);
        }
        if to >= GOAL_STRETCH {
            return (Self::own_count(b, colour, to) + movers <= 2).then_some(Landing::Free);
        }
        let sq = self.square(colour, to);
        let code = b.track[sq as usize];
        if code == 0 {
            return Some(Landing::Free);
        }
        let (other, count) = (code >> 2, code & 3);
        if other == colour {
            return (count + movers <= 2).then_some(Landing::Free);
        }
        if other == self.partner[colour as usize] || count >= 2 {
            return None;
        }
        let own_start = sq == entry_square(self.side[colour as usize]);
        (!is_safe(sq) || own_start).then_some(Landing::Capture)
    }

    fn remove_from_track(&self, b: &mut Board, colour: u8, pos: u8) {
        if (START_SQUARE..=LAP_END).contains(&pos) {
            let sq = self.square(colour, pos) as usize;
            let count = b.track[sq] & 3;
            b.track[sq] = if count <= 1 {
                0
            } else {
                (colour << 2) | (count - 1)
            };
        }
    }

    fn capture_at(&self, b: &mut Board, colour: u8, to: u8) -> Option<u8> {
        let sq = self.square(colour, to);
        let code = b.track[sq as usize];
        let victim = code >> 2;
        if code == 0 || victim == colour {
            return None;
        }
        for i in 0..PIECES {
            let p = b.s.pos[victim as usize][i];
            if (START_SQUARE..=LAP_END).contains(&p) && self.square(victim, p) == sq {
                b.s.pos[victim as usize][i] = START_AREA;
            }
        }
        b.track[sq as usize] = 0;
        Some(victim)
    }

    fn put(&self, b: &mut Board, colour: u8, piece: usize, to: u8) {
        b.s.pos[colour as usize][piece] = to;
        b.s.played |= 1 << (colour as usize * 4 + piece);
        if (START_SQUARE..=LAP_END).contains(&to) {
            let sq = self.square(colour, to) as usize;
            let count = if b.track[sq] >> 2 == colour {
                b.track[sq] & 3
            } else {
                0
            };
            b.track[sq] = (colour << 2) | (count + 1);
        }
    }

    /// Applies a step to a board (the steps come from the generator), then keeps the pieces of
    /// each colour sorted, so one position is one state. Returns where the mover's pieces came
    /// from: new index `k` holds the piece that had index `perm[k]`.
    fn apply_on(&self, b: &mut Board, step: &Step) -> [u8; PIECES] {
        let colour = step.seat & 3;
        let piece = (step.piece & 3) as usize;
        let mut victim = None;
        if step.captured > 0 {
            victim = self.capture_at(b, colour, step.to);
        }
        if step.count == 2 {
            let from = step.from;
            let other = (0..PIECES).find(|&j| j != piece && b.s.pos[colour as usize][j] == from);
            self.remove_from_track(b, colour, from);
            self.put(b, colour, piece, step.to);
            if let Some(j) = other {
                self.remove_from_track(b, colour, from);
                self.put(b, colour, j, step.to);
            }
        } else {
            self.remove_from_track(b, colour, step.from);
            self.put(b, colour, piece, step.to);
        }
        if let Some(v) = victim {
            Self::sort_colour(&mut b.s, v);
        }
        Self::sort_colour(&mut b.s, colour)
    }

    /// Sorts one colour's pieces by (position, played); returns the permutation applied.
    fn sort_colour(s: &mut FamilyState, c: u8) -> [u8; PIECES] {
        let ci = c as usize;
        let mut codes = [0u8; PIECES];
        for (i, code) in codes.iter_mut().enumerate() {
            *code = s.pos[ci][i] << 1 | ((s.played >> (ci * 4 + i)) & 1) as u8;
        }
        let mut order = [0u8, 1, 2, 3];
        if codes.windows(2).all(|w| w[0] <= w[1]) {
            return order;
        }
        // Insertion sort of four: stable, no allocation.
        for k in 1..PIECES {
            let mut j = k;
            while j > 0 && codes[j - 1] > codes[j] {
                codes.swap(j - 1, j);
                order.swap(j - 1, j);
                j -= 1;
            }
        }
        let mut played = s.played & !(0xF << (ci * 4));
        for (k, &code) in codes.iter().enumerate() {
            s.pos[ci][k] = code >> 1;
            played |= ((code & 1) as u16) << (ci * 4 + k);
        }
        s.played = played;
        order
    }

    /// The pieces worth trying: one representative of identical pieces (same place, same
    /// played flag, same frozen state), skipping pieces home.
    fn representatives(b: &Board, colour: u8, frozen: u8) -> u8 {
        let mut mask = 0u8;
        let pos = &b.s.pos[colour as usize];
        'next: for i in 0..PIECES {
            if pos[i] == GOAL {
                continue;
            }
            let code = |k: usize| (pos[k], b.s.is_played(colour, k), frozen & (1 << k) != 0);
            for j in 0..i {
                if mask & (1 << j) != 0 && code(j) == code(i) {
                    continue 'next;
                }
            }
            mask |= 1 << i;
        }
        mask
    }

    fn record(&self, g: &mut Gen, b: &Board, play: &Play, used: u8) {
        let best = g.uses.first().copied();
        match best {
            Some(best) if used < best => return,
            Some(best) if used > best => {
                g.out.clear();
                g.keys.clear();
                g.uses.clear();
            }
            _ => {}
        }
        g.out.push(*play);
        g.keys.push(b.s.key());
        g.uses.push(used);
    }

    /// Depth-first over the values in order (FAM-4: higher first; a value that cannot be played
    /// at all is lost).
    fn dfs(&self, g: &mut Gen, b: &Board, i: usize, used: u8, frozen: u8, play: &mut Play) {
        let colour = g.colour;
        if i >= g.count || (g.restricted && i == 2 && !b.s.all_played(colour)) {
            self.record(g, b, play, used);
            return;
        }
        if i > 0
            && let Some(seen) = g.seen.as_deref_mut()
        {
            let tag = 1 << 31 | g.run | (i as u32) << 16 | (used as u32) << 8 | frozen as u32;
            if !seen.insert(b.s.key(), tag) {
                return;
            }
        }
        let v = g.values[i];
        let mut any = false;
        let reps = Self::representatives(b, colour, frozen);
        let both_dice_ok = self.rules.one_piece_both_dice || g.doubles;

        // FAM-6 exception: with no piece in play, 6-5 enters a piece with the five and moves it
        // on by the six at once: two steps (each a landing), the five before the six.
        if i == 0 && g.six_five {
            for piece in 0..PIECES {
                if reps & (1 << piece) == 0 || b.s.pos[colour as usize][piece] != START_AREA {
                    continue;
                }
                // Entering onto an opponent captures it and ends the piece's move (FAM-7):
                // then the six is lost and the plain entry below covers it.
                if self.landing(b, colour, START_SQUARE, 1) != Some(Landing::Free) {
                    continue;
                }
                let enter = Step {
                    seat: colour,
                    piece: piece as u8,
                    from: START_AREA,
                    to: START_SQUARE,
                    value: 5,
                    count: 1,
                    captured: 0,
                    kind: StepKind::Enter,
                };
                let mut entered = *b;
                let perm = self.apply_on(&mut entered, &enter);
                let moved = perm.iter().position(|&p| p as usize == piece).unwrap_or(0);
                let to = START_SQUARE + 6;
                if !self.can_pass(&entered, colour, START_SQUARE, to) {
                    continue;
                }
                let Some(land) = self.landing(&entered, colour, to, 1) else {
                    continue;
                };
                any = true;
                let six = Step {
                    seat: colour,
                    piece: moved as u8,
                    from: START_SQUARE,
                    to,
                    value: 6,
                    count: 1,
                    captured: (land == Landing::Capture) as u8,
                    kind: StepKind::Move,
                };
                play.push(enter);
                self.descend(g, &entered, &six, i + 2, used + 2, 0, play);
                play.pop();
            }
        }

        // Order of listing (the first of plays with one result is the one kept): moves that use
        // more values at once come first (gate moves, sums), then single values.
        // A pair of values (the two dice, or an equal pair of a doubles roll) summed by one
        // piece as one move (F-A, F-D); and a gate moving as one (FAM-5c).
        let pair_available = i + 1 < g.count
            && (!g.doubles && i == 0 || g.doubles && i % 2 == 0 && g.values[i + 1] == v);
        if g.doubles && self.rules.gate_moves_with_doubles && pair_available {
            // Both pieces taking h and l each: the gate moves 7 (FAM-5c), all four values.
            if i == 0 && g.count == 4 && !g.restricted {
                let seven = g.values[0] + g.values[2];
                any |= self.gate_moves(g, b, i, seven, 4, used, frozen, play);
            }
            any |= self.gate_moves(g, b, i, v, 2, used, frozen, play);
        }
        if pair_available && !g.doubles && self.rules.sum_of_five_enters && v + g.values[1] == 5 {
            for piece in 0..PIECES {
                if reps & (1 << piece) == 0 || b.s.pos[colour as usize][piece] != START_AREA {
                    continue;
                }
                if let Some(land) = self.landing(b, colour, START_SQUARE, 1) {
                    any = true;
                    let step = Step {
                        seat: colour,
                        piece: piece as u8,
                        from: START_AREA,
                        to: START_SQUARE,
                        value: 5,
                        count: 1,
                        captured: (land == Landing::Capture) as u8,
                        kind: StepKind::Enter,
                    };
                    self.descend(g, b, &step, i + 2, used + 2, frozen, play);
                }
            }
        }
        if pair_available && self.rules.sum_as_one_move {
            let total = v + g.values[i + 1];
            for piece in 0..PIECES {
                if reps & (1 << piece) == 0 || frozen & (1 << piece) != 0 {
                    continue;
                }
                let from = b.s.pos[colour as usize][piece];
                if from == START_AREA || !self.can_pass(b, colour, from, from + total) {
                    continue;
                }
                let Some(land) = self.landing(b, colour, from + total, 1) else {
                    continue;
                };
                any = true;
                let step = Step {
                    seat: colour,
                    piece: piece as u8,
                    from,
                    to: from + total,
                    value: total,
                    count: 1,
                    captured: (land == Landing::Capture) as u8,
                    kind: StepKind::Move,
                };
                let fz = frozen
                    | if land == Landing::Capture {
                        1 << piece
                    } else {
                        0
                    };
                self.descend(g, b, &step, i + 2, used + 2, fz, play);
            }
        }

        // One value, one piece (entering with a five, F-F).
        for piece in 0..PIECES {
            if reps & (1 << piece) == 0 || frozen & (1 << piece) != 0 {
                continue;
            }
            let from = b.s.pos[colour as usize][piece];
            let (to, kind) = if from == START_AREA {
                if v != 5 {
                    continue;
                }
                (START_SQUARE, StepKind::Enter)
            } else {
                if !self.can_pass(b, colour, from, from + v) {
                    continue;
                }
                (from + v, StepKind::Move)
            };
            let Some(land) = self.landing(b, colour, to, 1) else {
                continue;
            };
            any = true;
            let step = Step {
                seat: colour,
                piece: piece as u8,
                from,
                to,
                value: v,
                count: 1,
                captured: (land == Landing::Capture) as u8,
                kind,
            };
            let mut fz = frozen;
            if land == Landing::Capture || !both_dice_ok {
                fz |= 1 << piece;
            }
            self.descend(g, b, &step, i + 1, used + 1, fz, play);
        }

        if !any {
            // FAM-4: a value that cannot be played at all is lost.
            self.dfs(g, b, i + 1, used, frozen, play);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn gate_moves(
        &self,
        g: &mut Gen,
        b: &Board,
        i: usize,
        v: u8,
        consumes: usize,
        used: u8,
        frozen: u8,
        play: &mut Play,
    ) -> bool {
        let colour = g.colour;
        let pos = b.s.pos[colour as usize];
        let mut any = false;
        for a in 0..PIECES {
            let from = pos[a];
            if from == START_AREA || from == GOAL || frozen & (1 << a) != 0 {
                continue;
            }
            // The first piece of the pair at `from`; the other must be free too.
            if (0..a).any(|j| pos[j] == from) {
                continue;
            }
            let Some(other) = (a + 1..PIECES).find(|&j| pos[j] == from) else {
                continue;
            };
            if frozen & (1 << other) != 0 || !self.can_pass(b, colour, from, from + v) {
                continue;
            }
            let Some(land) = self.landing(b, colour, from + v, 2) else {
                continue;
            };
            any = true;
            let step = Step {
                seat: colour,
                piece: a as u8,
                from,
                to: from + v,
                value: v,
                count: 2,
                captured: (land == Landing::Capture) as u8,
                kind: StepKind::Move,
            };
            let fz = if land == Landing::Capture {
                frozen | 1 << a | 1 << other
            } else {
                frozen
            };
            self.descend(g, b, &step, i + consumes, used + consumes as u8, fz, play);
        }
        any
    }

    #[allow(clippy::too_many_arguments)]
    fn descend(
        &self,
        g: &mut Gen,
        b: &Board,
        step: &Step,
        next: usize,
        used: u8,
        frozen: u8,
        play: &mut Play,
    ) {
        let mut nb = *b;
        let perm = self.apply_on(&mut nb, step);
        let mut fz = 0u8;
        for (k, &from) in perm.iter().enumerate() {
            fz |= ((frozen >> from) & 1) << k;
        }
        play.push(*step);
        self.dfs(g, &nb, next, used, fz, play);
        play.pop();
    }

    /// Values of a roll in playing order, and whether the last two are FAM-5b-restricted.
    fn values(&self, s: &FamilyState, colour: u8) -> ([u8; 4], usize, bool) {
        let [a, b] = s.dice;
        if a != b {
            return ([a.max(b), a.min(b), 0, 0], 2, false);
        }
        if !self.rules.bottom_faces {
            return ([a, a, 0, 0], 2, false);
        }
        let h = a.max(7 - a);
        let l = 7 - h;
        let restricted = self.rules.doubles_restricted_until_all_played && !s.all_played(colour);
        ([h, h, l, l], 4, restricted)
    }

    fn generate_into(&self, s: &FamilyState, orders: Orders, out: &mut Vec<Play>) {
        if self.node(s) != Node::Decision {
            return;
        }
        let colour = self.playing_colour(s);
        let (values, count, restricted) = self.values(s, colour);
        let doubles = s.dice[0] == s.dice[1];
        let six_five = !doubles
            && self.rules.six_five_enters_and_moves
            && values[0] == 6
            && values[1] == 5
            && !s.has_piece_in_play(colour);
        out.clear();
        SCRATCH.with(|cell| {
            let mut scratch = cell.borrow_mut();
            let (keys, uses, seen) = &mut *scratch;
            seen.clear();
            keys.clear();
            uses.clear();
            let board = self.board(s);
            let mut play = Play::new();
            let mut g = Gen {
                out: &mut *out,
                keys: &mut *keys,
                uses: &mut *uses,
                seen: (orders == Orders::Distinct).then_some(&mut *seen),
                run: 0,
                values,
                count,
                colour,
                restricted,
                doubles,
                six_five,
            };
            self.dfs(&mut g, &board, 0, 0, 0, &mut play);
            if !self.rules.higher_die_first && !doubles {
                g.values = [values[1], values[0], 0, 0];
                g.six_five = false;
                g.run = 1 << 30;
                self.dfs(&mut g, &board, 0, 0, 0, &mut play);
            }
            // Nothing playable at all: the roll is lost (the generic layer forfeits it).
            if uses.first().copied().unwrap_or(0) == 0 {
                out.clear();
                return;
            }
            if self.rules.compulsory_capture && out.iter().any(|p| p.captures() > 0) {
                let mut k = 0;
                for j in 0..out.len() {
                    if out[j].captures() > 0 {
                        out[k] = out[j];
                        keys[k] = keys[j];
                        k += 1;
                    }
                }
                out.truncate(k);
                keys.truncate(k);
            }
            if orders == Orders::Distinct {
                seen.clear();
                let mut keep = 0;
                for i in 0..out.len() {
                    if seen.insert(keys[i], 0) {
                        out[keep] = out[i];
                        keep += 1;
                    }
                }
                out.truncate(keep);
            }
        });
    }

    fn sort_pieces(s: &mut FamilyState) {
        for c in 0..4u8 {
            Self::sort_colour(s, c);
        }
    }

    fn format_piece(s: &FamilyState, colour: u8, i: usize) -> String {
        match s.pos[colour as usize][i] {
            START_AREA if s.is_played(colour, i) => "x".into(),
            START_AREA => "n".into(),
            GOAL => "h".into(),
            p => p.to_string(),
        }
    }
}

fn bad(msg: impl Into<String>) -> Error {
    Error::InvalidNotation(msg.into())
}

fn bad_position(msg: impl Into<String>) -> Error {
    Error::InvalidPosition(msg.into())
}

impl RuleSystem for FamilySystem {
    type State = FamilyState;

    fn seats(&self) -> u8 {
        self.rules.seats
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
        let seats = self.seat_count();
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
        if s.tries >= self.rules.entry_tries {
            return Err(bad_position(format!(
                "{} entry tries missed, but a turn has at most {}",
                s.tries, self.rules.entry_tries
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
                    let sq = self.square(c, p) as usize;
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
        if self.finished(s).is_some() && s.dice != [0, 0] {
            return Err(bad_position("the game is over, no roll can be pending"));
        }
        if s.tries > 0 && s.has_piece_in_play(self.playing_colour(s)) {
            return Err(bad_position(
                "entry tries count only while the colour has no piece in play (FAM-6)",
            ));
        }
        Ok(())
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

    fn apply_step(&self, s: &mut FamilyState, step: &Step) {
        let mut b = self.board(s);
        self.apply_on(&mut b, step);
        *s = b.s;
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
        let roll = if s.dice[0] == 0 {
            "-".to_string()
        } else {
            format!("{}-{}", s.dice[0], s.dice[1])
        };
        let mut sorted = *s;
        Self::sort_pieces(&mut sorted);
        let colours: Vec<String> = (0..self.seat_count())
            .map(|c| {
                (0..PIECES)
                    .map(|i| Self::format_piece(&sorted, c, i))
                    .collect::<Vec<_>>()
                    .join(",")
            })
            .collect();
        format!("{}:{}:{} {}", s.turn, s.tries, roll, colours.join("/"))
    }

    fn parse_position(&self, text: &str) -> Result<FamilyState> {
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
        if colours.len() != self.seat_count() as usize {
            return Err(bad(format!(
                "expected {} colours separated by `/`, got {}",
                self.seat_count(),
                colours.len()
            )));
        }
        let mut s = self.initial_state();
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
        Self::sort_pieces(&mut s);
        self.validate_state(&s)?;
        Ok(s)
    }

    fn format_play(&self, s: &FamilyState, play: &Play) -> String {
        if play.is_empty() {
            return "pass".into();
        }
        // Piece indices refer to the position as it is before each step.
        let mut cur = *s;
        let mut steps: Vec<String> = Vec::with_capacity(play.len());
        for st in play.steps() {
            let from = match st.from {
                START_AREA if cur.is_played(st.seat & 3, (st.piece & 3) as usize) => {
                    "x".to_string()
                }
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
            self.apply_step(&mut cur, st);
        }
        steps.join(" ")
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
