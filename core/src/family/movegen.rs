//! Whole-play generation for Family Pachisi (FAM-4..FAM-10, F-B..F-H): a depth-first search over
//! the values of the roll (higher die first where FAM-4 says so), gates moving as one (FAM-5c),
//! then the obligations (most values, compulsory capture) as filters over complete plays; one
//! play per resulting position for [`crate::Orders::Distinct`]. Checked against [`super::reference`]
//! (`core/tests/family_reference.rs`) and the perft counts (`core/tests/perft.rs`).
//!
//! # Fast paths (each keeps the plays and their order)
//! - *Kept key*: the search's board carries the position key ([`FamilyState::key`], each
//!   colour's sorted codes) and a step updates only the parts of the colours it changed: the
//!   mover's and a captured colour's pieces are sorted after every step, so their part is their
//!   codes packed in order, without the sort the key does from scratch.
//! - *Gate mask*: the board keeps a bit set of the track squares holding a gate, so FAM-10 (no
//!   piece passes a gate) is one mask test over the squares passed, not a walk square by square.
//! - *Steps, not plays*: complete plays are listed as their steps back to back (a
//!   [`crate::play::PlayList`], what the simulation reads) rather than as 193-byte [`Play`]s.
//! - *Deduplication as plays are recorded*: a play reaching a position already listed (with as
//!   many values used) is dropped at once, which keeps the first, as a pass over the whole list
//!   would; one position is always reached with the same captures, so the compulsory-capture
//!   filter keeps or drops all plays of a position alike.
//! - *The game's step without a board*: `apply_step` moves the pieces on the state itself
//!   ([`FamilySystem::apply_to_state`]) instead of building the track occupancy for one step.

use super::*;
use crate::play::PlayList;

/// The position plus the occupancy of the 68 track squares, used while generating plays.
#[derive(Copy, Clone)]
pub(super) struct Board {
    pub(super) s: FamilyState,
    /// 0 = empty, else `colour << 2 | count` (count 1 or 2).
    pub(super) track: [u8; TRACK_LEN as usize],
    /// `s.key()` in the generator (0 elsewhere), kept up to date by `apply_on` (see
    /// [`colour_key`]).
    pub(super) key: u128,
    /// Bit `sq` set where a gate stands on track square `sq` (two pieces of one colour), so
    /// that FAM-10's test of the squares a move passes is one mask test, not a walk.
    pub(super) gates: u128,
}

/// `SQUARE_BIT[sq]`: track square `sq`'s bit (a table: a variable shift of a `u128` is several
/// instructions).
static SQUARE_BIT: [u128; TRACK_LEN as usize] = {
    let mut t = [0u128; TRACK_LEN as usize];
    let mut i = 0;
    while i < TRACK_LEN as usize {
        t[i] = 1 << i;
        i += 1;
    }
    t
};

/// The track squares as bits of a `u128`.
const TRACK_MASK: u128 = (1 << TRACK_LEN) - 1;

/// Bits `start..start + len` of the track, wrapping after its last square (`len` at most the
/// track's length, `start` a square).
#[inline(always)]
fn track_run(start: u32, len: u32) -> u128 {
    let m = ((1u128 << len) - 1) << start;
    (m & TRACK_MASK) | (m >> TRACK_LEN)
}

/// Colour `c`'s part of [`FamilyState::key`] (its 32 bits in place), for a colour whose pieces
/// are sorted by (position, played), as `apply_on` leaves the colours it changed: the key sorts
/// the same codes, so packing them in order gives the same bits without the sort.
#[inline(always)]
fn colour_key(s: &FamilyState, c: usize) -> u128 {
    let played = (s.played >> (c * 4)) as u8;
    let p = &s.pos[c];
    let codes = [
        p[0] << 1 | played & 1,
        p[1] << 1 | (played >> 1) & 1,
        p[2] << 1 | (played >> 2) & 1,
        p[3] << 1 | (played >> 3) & 1,
    ];
    (u32::from_be_bytes(codes) as u128) << (96 - 32 * c)
}

/// [`colour_key`]'s bits of colour `c`.
#[inline(always)]
fn colour_mask(c: usize) -> u128 {
    (u32::MAX as u128) << (96 - 32 * c)
}

/// What a landing does.
#[derive(Copy, Clone, PartialEq, Eq)]
pub(super) enum Landing {
    Free,
    Capture,
}

pub(super) struct Gen<'a> {
    pub(super) out: &'a mut PlayList,
    pub(super) keys: &'a mut Vec<u128>,
    pub(super) uses: &'a mut Vec<u8>,
    /// Listing one play per result: (position, value index, values used, frozen pieces)
    /// already explored are pruned (their continuations give the same results).
    pub(super) seen: Option<&'a mut Seen>,
    /// Tag bit of the second, reversed-order search (`higher_die_first` off).
    pub(super) run: u32,
    pub(super) values: [u8; 4],
    pub(super) count: usize,
    pub(super) colour: u8,
    /// FAM-5b: the last two values are only available once every piece has been in play.
    pub(super) restricted: bool,
    pub(super) doubles: bool,
    pub(super) six_five: bool,
}

/// Result keys, values used per play, and the set of positions seen.
pub(super) type Scratch = (Vec<u128>, Vec<u8>, Seen);

/// The positions (with a search tag) already explored or listed.
pub(super) type Seen = crate::dedup::KeySet<(u128, u32)>;

thread_local! {
    /// Reused buffers of the generator (result keys, values used, a sort buffer): no heap
    /// allocation per call once warm.
    static SCRATCH: RefCell<Scratch> = const { RefCell::new((Vec::new(), Vec::new(), Seen::new())) };
    /// The list [`FamilySystem::generate_into`] fills before it copies the plays out as [`Play`]s.
    static LIST: RefCell<PlayList> = const { RefCell::new(PlayList::new()) };
}

impl FamilySystem {
    pub(super) fn board(&self, s: &FamilyState) -> Board {
        let mut track = [0u8; TRACK_LEN as usize];
        let mut gates = 0u128;
        for c in 0..self.seat_count() {
            for &p in &s.pos[c as usize] {
                if (START_SQUARE..=LAP_END).contains(&p) {
                    let sq = self.square(c, p) as usize;
                    let count = (track[sq] & 3) + 1;
                    track[sq] = (c << 2) | count;
                    gates |= ((count == 2) as u128) << sq;
                }
            }
        }
        Board {
            s: *s,
            track,
            key: 0,
            gates,
        }
    }

    /// Sets track square `sq`'s code, and its gate bit.
    #[inline(always)]
    fn set_track(b: &mut Board, sq: usize, code: u8) {
        b.track[sq] = code;
        let bit = SQUARE_BIT[sq];
        b.gates = if code & 3 == 2 {
            b.gates | bit
        } else {
            b.gates & !bit
        };
    }

    pub(super) fn own_count(b: &Board, colour: u8, pos: u8) -> u8 {
        b.s.pos[colour as usize]
            .iter()
            .filter(|&&p| p == pos)
            .count() as u8
    }

    /// FAM-10: no piece passes a gate; checks the positions strictly between `from` and `to`.
    pub(super) fn can_pass(&self, b: &Board, colour: u8, from: u8, to: u8) -> bool {
        let track_end = to.min(LAP_END + 1);
        if from + 1 < track_end {
            let start = self.square(colour, from + 1) as u32;
            if b.gates & track_run(start, (track_end - from - 1) as u32) != 0 {
                return false;
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
    pub(super) fn landing(&self, b: &Board, colour: u8, to: u8, movers: u8) -> Option<Landing> {
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

    /// The step of `count` pieces of `colour` (the first being `piece`) from `from` to `to`
    /// using `value`, if they may land there ([`Self::landing`]), with its capture flag set.
    /// Passing (FAM-10) is the caller's check: entering and the six-five move have their own.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn landing_step(
        &self,
        b: &Board,
        colour: u8,
        piece: usize,
        from: u8,
        to: u8,
        value: u8,
        count: u8,
        kind: StepKind,
    ) -> Option<Step> {
        let land = self.landing(b, colour, to, count)?;
        Some(Step {
            seat: colour,
            piece: piece as u8,
            from,
            to,
            value,
            count,
            captured: (land == Landing::Capture) as u8,
            kind,
        })
    }

    pub(super) fn remove_from_track(&self, b: &mut Board, colour: u8, pos: u8) {
        if (START_SQUARE..=LAP_END).contains(&pos) {
            let sq = self.square(colour, pos) as usize;
            let count = b.track[sq] & 3;
            let code = if count <= 1 {
                0
            } else {
                (colour << 2) | (count - 1)
            };
            Self::set_track(b, sq, code);
        }
    }

    pub(super) fn capture_at(&self, b: &mut Board, colour: u8, to: u8) -> Option<u8> {
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
        Self::set_track(b, sq as usize, 0);
        Some(victim)
    }

    pub(super) fn put(&self, b: &mut Board, colour: u8, piece: usize, to: u8) {
        b.s.pos[colour as usize][piece] = to;
        b.s.played |= 1 << (colour as usize * 4 + piece);
        if (START_SQUARE..=LAP_END).contains(&to) {
            let sq = self.square(colour, to) as usize;
            let count = if b.track[sq] >> 2 == colour {
                b.track[sq] & 3
            } else {
                0
            };
            Self::set_track(b, sq, (colour << 2) | (count + 1));
        }
    }

    /// Applies a step to a board (the steps come from the generator), then keeps the pieces of
    /// each colour sorted, so one position is one state. Returns where the mover's pieces came
    /// from: new index `k` holds the piece that had index `perm[k]`.
    pub(super) fn apply_on(&self, b: &mut Board, step: &Step) -> [u8; PIECES] {
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
            let v = v as usize & 3;
            b.key = b.key & !colour_mask(v) | colour_key(&b.s, v);
        }
        let perm = Self::sort_colour(&mut b.s, colour);
        let c = colour as usize;
        b.key = b.key & !colour_mask(c) | colour_key(&b.s, c);
        perm
    }

    /// [`FamilySystem::apply_on`] for a state alone (the game's `apply_step`): without the
    /// track occupancy, which a single step does not need (the captured colour is the one other
    /// colour on the landing square: FAM-7 allows no capture where two colours could share one).
    pub(super) fn apply_to_state(&self, s: &mut FamilyState, step: &Step) {
        let colour = step.seat & 3;
        let ci = colour as usize;
        let piece = (step.piece & 3) as usize;
        if step.captured > 0 && (START_SQUARE..=LAP_END).contains(&step.to) {
            let sq = self.square(colour, step.to);
            for v in 0..self.seat_count() {
                if v == colour {
                    continue;
                }
                let mut hit = false;
                for i in 0..PIECES {
                    let p = s.pos[v as usize][i];
                    if (START_SQUARE..=LAP_END).contains(&p) && self.square(v, p) == sq {
                        s.pos[v as usize][i] = START_AREA;
                        hit = true;
                    }
                }
                if hit {
                    Self::sort_colour(s, v);
                    break;
                }
            }
        }
        if step.count == 2 {
            let from = step.from;
            if let Some(j) = (0..PIECES).find(|&j| j != piece && s.pos[ci][j] == from) {
                s.pos[ci][j] = step.to;
                s.played |= 1 << (ci * 4 + j);
            }
        }
        s.pos[ci][piece] = step.to;
        s.played |= 1 << (ci * 4 + piece);
        Self::sort_colour(s, colour);
    }

    /// Sorts one colour's pieces by (position, played); returns the permutation applied.
    pub(super) fn sort_colour(s: &mut FamilyState, c: u8) -> [u8; PIECES] {
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
    pub(super) fn representatives(b: &Board, colour: u8, frozen: u8) -> u8 {
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

    pub(super) fn record(&self, g: &mut Gen, b: &Board, play: &Play, used: u8) {
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
        // One play per resulting position, the first recorded, checked here rather than over
        // the whole list at the end. Tagged with `used` (never with bit 31, which the search's
        // own entries carry), so a play listed before a better one cleared the list does not
        // hide a later play reaching its position. The compulsory-capture filter that follows
        // cannot make the final list differ: one position is reached with the same captures.
        if let Some(seen) = g.seen.as_deref_mut()
            && !seen.insert((b.key, used as u32))
        {
            return;
        }
        g.out.push(play.steps());
        g.keys.push(b.key);
        g.uses.push(used);
    }

    /// Depth-first over the values in order (FAM-4: higher first; a value that cannot be played
    /// at all is lost).
    pub(super) fn dfs(
        &self,
        g: &mut Gen,
        b: &Board,
        i: usize,
        used: u8,
        frozen: u8,
        play: &mut Play,
    ) {
        let colour = g.colour;
        if i >= g.count || (g.restricted && i == 2 && !b.s.all_played(colour)) {
            self.record(g, b, play, used);
            return;
        }
        if i > 0
            && let Some(seen) = g.seen.as_deref_mut()
        {
            let tag = 1 << 31 | g.run | (i as u32) << 16 | (used as u32) << 8 | frozen as u32;
            if !seen.insert((b.key, tag)) {
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
                let Some(six) = self.landing_step(
                    &entered,
                    colour,
                    moved,
                    START_SQUARE,
                    to,
                    6,
                    1,
                    StepKind::Move,
                ) else {
                    continue;
                };
                any = true;
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
                let enter = StepKind::Enter;
                if let Some(step) =
                    self.landing_step(b, colour, piece, START_AREA, START_SQUARE, 5, 1, enter)
                {
                    any = true;
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
                let to = from + total;
                let Some(step) =
                    self.landing_step(b, colour, piece, from, to, total, 1, StepKind::Move)
                else {
                    continue;
                };
                any = true;
                let fz = frozen | (step.captured << piece);
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
            let Some(step) = self.landing_step(b, colour, piece, from, to, v, 1, kind) else {
                continue;
            };
            any = true;
            let mut fz = frozen;
            if step.captured != 0 || !both_dice_ok {
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
    pub(super) fn gate_moves(
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
            let Some(step) = self.landing_step(b, colour, a, from, from + v, v, 2, StepKind::Move)
            else {
                continue;
            };
            any = true;
            let fz = if step.captured != 0 {
                frozen | 1 << a | 1 << other
            } else {
                frozen
            };
            self.descend(g, b, &step, i + consumes, used + consumes as u8, fz, play);
        }
        any
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn descend(
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
    pub(super) fn values(&self, s: &FamilyState, colour: u8) -> ([u8; 4], usize, bool) {
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

    /// Lists the plays into `out` (cleared first at a decision node), as
    /// [`FamilySystem::generate_list_into`] lists them.
    pub(super) fn generate_into(&self, s: &FamilyState, orders: Orders, out: &mut Vec<Play>) {
        if self.node(s) != Node::Decision {
            return;
        }
        out.clear();
        LIST.with_borrow_mut(|list| {
            self.generate_list_into(s, orders, list);
            out.extend(list.iter().map(Play::from_steps));
        });
    }

    /// Lists the plays into `out` (cleared first), steps back to back: a recorded play is not
    /// copied whole (a [`Play`] is 193 bytes, its steps here 8 each).
    pub(super) fn generate_list_into(&self, s: &FamilyState, orders: Orders, out: &mut PlayList) {
        out.clear();
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
            let mut board = self.board(s);
            board.key = s.key();
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
            if self.rules.compulsory_capture
                && out.iter().any(|p| p.iter().any(|st| st.captured > 0))
            {
                // `uses` (one entry per listed play) is done with: it now flags the captures.
                for (j, p) in out.iter().enumerate() {
                    uses[j] = p.iter().any(|st| st.captured > 0) as u8;
                }
                let mut k = 0;
                out.retain(|j| {
                    let keep = uses[j] != 0;
                    if keep {
                        keys[k] = keys[j];
                        k += 1;
                    }
                    keep
                });
                keys.truncate(k);
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::rng_from_seed;
    use crate::play::PlayList;

    /// The game's `apply_step` (`apply_to_state`) against `apply_on` over the board, and the
    /// generator's kept key and gates against their definitions, at every step of random games
    /// (2 and 4 seats: partners, captures, gates).
    #[test]
    fn state_apply_and_kept_keys_match_the_board() {
        for seats in [2, 4] {
            let sys = FamilyRules {
                seats,
                teams: seats == 4,
                ..FamilyRules::family()
            }
            .build()
            .unwrap();
            let mut list = PlayList::new();
            let mut steps_checked = 0;
            for seed in 0..30 {
                let mut rng = rng_from_seed(seed);
                let mut s = sys.initial_state();
                for _ in 0..2_000 {
                    match sys.node(&s) {
                        Node::Over => break,
                        Node::Chance => {
                            let roll = sys.sample_roll(&s, &mut rng);
                            sys.begin_roll(&mut s, roll);
                            continue;
                        }
                        Node::Decision => {}
                    }
                    sys.generate_list(&s, Orders::Distinct, &mut list);
                    let steps = match list.len() {
                        0 => vec![],
                        n => list.get(crate::sim::uniform_index(&mut rng, n)).to_vec(),
                    };
                    let mut b = sys.board(&s);
                    b.key = s.key();
                    for st in &steps {
                        sys.apply_on(&mut b, st);
                        sys.apply_to_state(&mut s, st);
                        assert!(b.s == s, "seed {seed}, step {st:?}");
                        assert_eq!(b.key, s.key());
                        assert_eq!(b.gates, sys.board(&s).gates);
                        steps_checked += 1;
                    }
                    sys.end_play(&mut s, &steps);
                }
            }
            assert!(steps_checked > 1_000, "{steps_checked}");
        }
    }
}
