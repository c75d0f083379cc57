//! Whole-play generation for Family Pachisi (FAM-4..FAM-10, F-B..F-H): a depth-first search over
//! the values of the roll (higher die first where FAM-4 says so), gates moving as one (FAM-5c),
//! then the obligations (most values, compulsory capture) as filters over complete plays; one
//! play per resulting position for [`crate::Orders::Distinct`]. Checked against [`super::reference`]
//! (`core/tests/family_reference.rs`) and the perft counts (`core/tests/perft.rs`).
//!
//! # Fast paths (each keeps the plays and their order)
//! - *Kept key*: the search's board carries the position key ([`FamilyState::key`], each
//!   colour's sorted codes) as four 32-bit parts, and a step replaces only the parts of the
//!   colours it changed: the mover's and a captured colour's pieces are sorted after every
//!   step, so their part is their codes packed in order, without the sort the key does from
//!   scratch (and without 128-bit shifts and masks; the parts are joined only to look a key up).
//! - *The last step without a board*: a step that ends the play (the values are used up, or
//!   FAM-5b stops a restricted doubles roll) needs only the key of its result, so the search
//!   computes that key from the board before the step (the mover's four codes with the moved
//!   ones replaced, and a captured colour's with its pieces on the landing square sent back,
//!   each sorted by a five-comparator network) instead of copying the board, applying the step
//!   and re-sorting. Most steps of a roll are last steps (the second value of every non-doubles
//!   roll).
//! - *The last value in its own small function*: at the last value no pair of values, gate
//!   move or six-five entry is possible, so `last_value` tries single steps only and records
//!   each, without the general search's large frame (its set-up was a fifth of a node's cost).
//!   With two values, the nodes after the first are distinct by construction (one step from the
//!   root, from pieces that differ), so they are not looked up in the set of explored nodes.
//! - *A position set inlined into the search*: positions explored or listed are kept in a
//!   stamped open-addressing table local to this module ([`Seen`]), its insertion inlined (a
//!   call per insertion, passing a 20-byte key through memory, cost more than the lookup).
//! - *Tables, not arithmetic*: the track square of every (colour, position) is a table in the
//!   system (the sum takes a division otherwise); the representatives of identical pieces are
//!   found by comparing packed codes, without a loop over earlier representatives.
//! - *Gate mask*: the board keeps a bit set of the track squares holding a gate, so FAM-10 (no
//!   piece passes a gate) is one mask test over the squares passed, not a walk square by square.
//! - *Steps, not plays*: complete plays are listed as their steps back to back (a
//!   [`crate::play::PlayList`], what the simulation reads) rather than as 193-byte [`Play`]s.
//! - *Deduplication as plays are recorded*: a play reaching a position already listed (with as
//!   many values used) is dropped at once, which keeps the first, as a pass over the whole list
//!   would; one position is always reached with the same captures, so the compulsory-capture
//!   filter keeps or drops all plays of a position alike. The list keeps no key or count per
//!   play: every listed play uses as many values (a play using more clears the list), so one
//!   number says how many.
//! - *The game's step without a board*: `apply_step` moves the pieces on the state itself
//!   ([`FamilySystem::apply_to_state`]) instead of building the track occupancy for one step.
//!
//! # The legal next steps of a play under way (the RL `step` encoding)
//! [`FamilySystem::next_steps`] lists them without listing the roll's plays. A play of
//! [`crate::Orders::All`] is legal when it uses the most values any play of the roll uses (and,
//! with F-H, captures when some such play does): that *goal* depends only on the position at the
//! start of the play, so it is found once per roll and kept by the caller between decisions. It
//! is first guessed to be every value of the roll (with a capture, then without), which holds
//! exactly when the search of the first steps then lists one; otherwise it comes from the
//! distinct search. At each decision the same depth-first search runs with a filter: it follows
//! only the steps taken so far, takes each step after them as a candidate, and stops searching
//! below a candidate at its first complete play meeting the goal (listing it), so the steps come
//! in the order of the first legal play of each, as grouping the listed plays gives them. A play
//! whose steps use the goal's values is over without a search.

use super::*;
use crate::play::PlayList;

/// The position plus the occupancy of the 68 track squares, used while generating plays.
#[derive(Copy, Clone)]
pub(super) struct Board {
    pub(super) s: FamilyState,
    /// 0 = empty, else `colour << 2 | count` (count 1 or 2).
    pub(super) track: [u8; TRACK_LEN as usize],
    /// `s.key()` in the generator (0 elsewhere) as its four colours' parts, kept up to date by
    /// `apply_on` (see [`colour_key`]): a part is replaced without 128-bit shifts and masks.
    pub(super) key: [u32; 4],
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

/// Colour `c`'s part of [`FamilyState::key`], for a colour whose pieces are sorted by
/// (position, played), as `apply_on` leaves the colours it changed: the key sorts the same
/// codes, so packing them in order gives the same bits without the sort.
#[inline(always)]
fn colour_key(s: &FamilyState, c: usize) -> u32 {
    let played = (s.played >> (c * 4)) as u8;
    let p = &s.pos[c];
    let codes = [
        p[0] << 1 | played & 1,
        p[1] << 1 | (played >> 1) & 1,
        p[2] << 1 | (played >> 2) & 1,
        p[3] << 1 | (played >> 3) & 1,
    ];
    u32::from_be_bytes(codes)
}

/// [`FamilyState::key`] from its colours' parts (colour 0 highest).
#[inline(always)]
fn wide(k: [u32; 4]) -> u128 {
    (k[0] as u128) << 96 | (k[1] as u128) << 64 | (k[2] as u128) << 32 | k[3] as u128
}

/// What a landing does.
#[derive(Copy, Clone, PartialEq, Eq)]
pub(super) enum Landing {
    Free,
    Capture,
}

pub(super) struct Gen<'a> {
    pub(super) out: &'a mut PlayList,
    /// The values used by every play in `out` (all listed plays use as many: a play using
    /// more clears the list); meaningless while `out` is empty.
    pub(super) best: u8,
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
    /// Listing the legal next steps of a play under way instead of recording plays
    /// ([`FamilySystem::next_steps`]).
    pub(super) filter: Option<Filter<'a>>,
}

/// The search of [`FamilySystem::next_steps`]: only the branches that begin with `taken` are
/// followed; at depth `taken.len()` each step is a candidate, listed in `out` as soon as one
/// complete play going on with it is legal (then `hit` unwinds the search below it).
pub(super) struct Filter<'a> {
    pub(super) taken: &'a [Step],
    pub(super) out: &'a mut Vec<Step>,
    /// The values every legal play uses (the most any play of the roll uses).
    pub(super) best: u8,
    /// F-H: a legal play must capture (some play using `best` values captures).
    pub(super) need_capture: bool,
    /// A legal play is `taken` itself.
    pub(super) ends: bool,
    /// The current candidate was listed: nothing below it is searched further.
    pub(super) hit: bool,
}

impl Gen<'_> {
    /// Whether the search goes on with `step` taken at `depth` (always, unless listing next
    /// steps: see [`Filter`]).
    #[inline(always)]
    fn allow(&mut self, depth: usize, step: &Step) -> bool {
        let Some(f) = self.filter.as_mut() else {
            return true;
        };
        let k = f.taken.len();
        if depth < k {
            return f.taken[depth] == *step;
        }
        if depth == k {
            f.hit = false;
            return !f.out.contains(step);
        }
        !f.hit
    }

    /// Whether the node at `depth` is below a candidate already listed.
    #[inline(always)]
    fn unwinding(&self, depth: usize) -> bool {
        self.filter
            .as_ref()
            .is_some_and(|f| f.hit && depth > f.taken.len())
    }
}

/// The compulsory-capture filter's flags (one per listed play), and the set of positions seen.
pub(super) type Scratch = (Vec<bool>, Seen);

/// The positions (with a search tag) already explored or listed: an open-addressing table of
/// (key, tag, stamp) slots, a slot empty unless it carries the current stamp (so clearing is
/// one increment), with the insertion inlined into the search (a call per insertion, passing a
/// 20-byte key through memory, cost more than the lookup itself).
pub(super) struct Seen {
    slots: Vec<SeenSlot>,
    stamp: u32,
    len: usize,
}

#[derive(Copy, Clone, Default)]
struct SeenSlot {
    key: u128,
    tag: u32,
    stamp: u32,
}

impl Seen {
    /// An empty set that allocates at its first [`Seen::clear`].
    pub(super) const fn new() -> Seen {
        Seen {
            slots: Vec::new(),
            stamp: 0,
            len: 0,
        }
    }

    /// Empties the set (call before each use).
    pub(super) fn clear(&mut self) {
        self.len = 0;
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            // The stamp wrapped: old entries could look current.
            self.slots.iter_mut().for_each(|e| e.stamp = 0);
            self.stamp = 1;
        }
        if self.slots.is_empty() {
            self.slots = vec![SeenSlot::default(); 1024];
        }
    }

    /// Adds `(key, tag)`; false when it was already there.
    #[inline(always)]
    pub(super) fn insert(&mut self, (key, tag): (u128, u32)) -> bool {
        if (self.len + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let h = ((key as u64) ^ ((key >> 64) as u64) ^ (tag as u64) << 32)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut i = (h >> 32) as usize & mask;
        loop {
            let e = &mut self.slots[i];
            if e.stamp != self.stamp {
                *e = SeenSlot {
                    key,
                    tag,
                    stamp: self.stamp,
                };
                self.len += 1;
                return true;
            }
            if e.key == key && e.tag == tag {
                return false;
            }
            i = (i + 1) & mask;
        }
    }

    #[cold]
    fn grow(&mut self) {
        if self.slots.is_empty() {
            // Used before its first clear.
            self.clear();
            return;
        }
        let bigger = vec![SeenSlot::default(); self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, bigger);
        self.len = 0;
        for e in old {
            if e.stamp == self.stamp {
                self.insert((e.key, e.tag));
            }
        }
    }
}

thread_local! {
    /// Reused buffers of the generator: no heap allocation per call once warm.
    static SCRATCH: RefCell<Scratch> = const { RefCell::new((Vec::new(), Seen::new())) };
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
            key: [0; 4],
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
            b.key[v] = colour_key(&b.s, v);
        }
        let perm = Self::sort_colour(&mut b.s, colour);
        let c = colour as usize;
        b.key[c] = colour_key(&b.s, c);
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
        let ci = c as usize & 3;
        let played = (s.played >> (ci * 4)) as u8;
        let p = &s.pos[ci];
        let mut codes = [
            p[0] << 1 | played & 1,
            p[1] << 1 | (played >> 1) & 1,
            p[2] << 1 | (played >> 2) & 1,
            p[3] << 1 | (played >> 3) & 1,
        ];
        let mut order = [0u8, 1, 2, 3];
        if codes[0] <= codes[1] && codes[1] <= codes[2] && codes[2] <= codes[3] {
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
    #[inline(always)]
    pub(super) fn representatives(b: &Board, colour: u8, frozen: u8) -> u8 {
        let pos = &b.s.pos[colour as usize & 3];
        let played = b.s.played >> (colour as usize * 4);
        let frozen = frozen as u16;
        let code = |k: usize| (pos[k] as u16) << 2 | ((played >> k) & 1) << 1 | (frozen >> k) & 1;
        let c = [code(0), code(1), code(2), code(3)];
        // A piece is the first of its code when no earlier piece has it (an earlier equal one
        // left out was itself home, or had an equal one before it).
        let first = [
            true,
            c[1] != c[0],
            c[2] != c[0] && c[2] != c[1],
            c[3] != c[0] && c[3] != c[1] && c[3] != c[2],
        ];
        let mut mask = 0u8;
        for i in 0..PIECES {
            mask |= ((pos[i] != GOAL && first[i]) as u8) << i;
        }
        mask
    }

    /// Whether every piece of `colour` has been in play once `step` (of `colour`) is made: the
    /// step marks its pieces played, and sorting only permutes the flags.
    #[inline(always)]
    fn all_played_after(b: &Board, colour: u8, step: &Step) -> bool {
        let flags = (b.s.played >> (colour as usize * 4)) as u8 | 1 << (step.piece & 3);
        flags & 0xF == 0xF
    }

    /// [`FamilyState::key`] after `step` (a step the search makes from `b`), without applying
    /// it: only the mover's codes and, for a capture, the victim's change, and each is four
    /// codes sorted by a network (what [`FamilySystem::apply_on`] keeps in `b.key`).
    #[inline(always)]
    fn key_after(&self, b: &Board, step: &Step) -> u128 {
        let c = (step.seat & 3) as usize;
        let mut key = b.key;
        if step.captured > 0 {
            // FAM-7: every piece of the one other colour on the landing square goes back to
            // its start area, played (code 1).
            let sq = self.square(c as u8, step.to);
            let v = (b.track[sq as usize] >> 2) as usize & 3;
            let played = (b.s.played >> (v * 4)) as u8;
            let mut codes = [0u8; PIECES];
            for (i, code) in codes.iter_mut().enumerate() {
                let p = b.s.pos[v][i];
                let hit = (START_SQUARE..=LAP_END).contains(&p) && self.square(v as u8, p) == sq;
                *code = if hit { 1 } else { p << 1 | (played >> i) & 1 };
            }
            sort4(&mut codes);
            key[v] = u32::from_be_bytes(codes);
        }
        let played = (b.s.played >> (c * 4)) as u8;
        let pos = &b.s.pos[c];
        let mut codes = [0u8; PIECES];
        for (i, code) in codes.iter_mut().enumerate() {
            *code = pos[i] << 1 | (played >> i) & 1;
        }
        let piece = (step.piece & 3) as usize;
        let moved = step.to << 1 | 1;
        codes[piece] = moved;
        if step.count == 2
            && let Some(j) = (0..PIECES).find(|&j| j != piece && pos[j] == step.from)
        {
            codes[j] = moved;
        }
        sort4(&mut codes);
        key[c] = u32::from_be_bytes(codes);
        wide(key)
    }

    pub(super) fn record(&self, g: &mut Gen, b: &Board, play: &Play, used: u8) {
        self.record_key(g, wide(b.key), play.steps(), &[], used);
    }

    /// Records the play `steps` then `last` (when given) leading to the position of key `key`.
    pub(super) fn record_key(
        &self,
        g: &mut Gen,
        key: u128,
        steps: &[Step],
        last: &[Step],
        used: u8,
    ) {
        if let Some(f) = g.filter.as_mut() {
            let (len, k) = (steps.len() + last.len(), f.taken.len());
            if len < k || used != f.best || (len > k && f.hit) {
                return;
            }
            if f.need_capture && !steps.iter().chain(last).any(|st| st.captured > 0) {
                return;
            }
            if len == k {
                f.ends = true;
            } else {
                f.out.push(if k < steps.len() { steps[k] } else { last[0] });
                f.hit = true;
            }
            return;
        }
        if !g.out.is_empty() {
            if used < g.best {
                return;
            }
            if used > g.best {
                g.out.clear();
            }
        }
        // One play per resulting position, the first recorded, checked here rather than over
        // the whole list at the end. Tagged with `used` (never with bit 31, which the search's
        // own entries carry), so a play listed before a better one cleared the list does not
        // hide a later play reaching its position. The compulsory-capture filter that follows
        // cannot make the final list differ: one position is reached with the same captures.
        if let Some(seen) = g.seen.as_deref_mut()
            && !seen.insert((key, used as u32))
        {
            return;
        }
        match last {
            [st] => g.out.push_then(steps, *st),
            _ => g.out.push(steps),
        }
        g.best = used;
    }

    /// The step of one piece (`piece` of `colour`) by one value `v`, if legal: entering with a
    /// five (F-F), else a move that passes no gate (FAM-10) and may land.
    #[inline(always)]
    fn single_step(&self, b: &Board, colour: u8, piece: usize, v: u8) -> Option<Step> {
        let from = b.s.pos[colour as usize][piece];
        let (to, kind) = if from == START_AREA {
            if v != 5 {
                return None;
            }
            (START_SQUARE, StepKind::Enter)
        } else {
            if !self.can_pass(b, colour, from, from + v) {
                return None;
            }
            (from + v, StepKind::Move)
        };
        self.landing_step(b, colour, piece, from, to, v, 1, kind)
    }

    /// [`FamilySystem::dfs`] at the last value (`i + 1 == g.count`): no pair of values is left,
    /// so only single steps, and each ends the play: its result is recorded by key
    /// ([`FamilySystem::key_after`]) without building the board after it, and without the
    /// general search's frame.
    #[inline(never)]
    fn last_value(&self, g: &mut Gen, b: &Board, i: usize, used: u8, frozen: u8, play: &mut Play) {
        if g.unwinding(play.len()) {
            return;
        }
        if g.count > 2
            && let Some(seen) = g.seen.as_deref_mut()
        {
            let tag = 1 << 31 | g.run | (i as u32) << 16 | (used as u32) << 8 | frozen as u32;
            if !seen.insert((wide(b.key), tag)) {
                return;
            }
        }
        let colour = g.colour;
        let v = g.values[i];
        let reps = Self::representatives(b, colour, frozen);
        // The representatives that may move (not frozen by an earlier step).
        let free = reps & !frozen;
        let mut any = false;
        for piece in 0..PIECES {
            if g.unwinding(play.len()) {
                break;
            }
            if free & (1 << piece) == 0 {
                continue;
            }
            let Some(step) = self.single_step(b, colour, piece, v) else {
                continue;
            };
            any = true;
            if !g.allow(play.len(), &step) {
                continue;
            }
            let key = if g.filter.is_some() {
                0
            } else {
                self.key_after(b, &step)
            };
            self.record_key(g, key, play.steps(), std::slice::from_ref(&step), used + 1);
        }
        if !any {
            // FAM-4: a value that cannot be played at all is lost; the play ends here.
            self.record(g, b, play, used);
        }
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
        if g.unwinding(play.len()) {
            return;
        }
        let colour = g.colour;
        if i >= g.count || (g.restricted && i == 2 && !b.s.all_played(colour)) {
            self.record(g, b, play, used);
            return;
        }
        if i + 1 == g.count {
            self.last_value(g, b, i, used, frozen, play);
            return;
        }
        // With two values (`count` 2), the nodes after one value are distinct by construction
        // (one step of one value from the root, from pieces that differ), so only deeper nodes
        // are looked up.
        if i > 0
            && g.count > 2
            && let Some(seen) = g.seen.as_deref_mut()
        {
            let tag = 1 << 31 | g.run | (i as u32) << 16 | (used as u32) << 8 | frozen as u32;
            if !seen.insert((wide(b.key), tag)) {
                return;
            }
        }
        let v = g.values[i];
        let mut any = false;
        let reps = Self::representatives(b, colour, frozen);
        // The representatives that may move (not frozen by an earlier step).
        let free = reps & !frozen;
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
                if g.allow(play.len(), &enter) {
                    play.push(enter);
                    self.descend(g, &entered, &six, i + 2, used + 2, 0, play);
                    play.pop();
                }
            }
        }

        // Order of listing (the first of plays with one result is the one kept): moves that use
        // more values at once come first (gate moves, sums), then single values.
        // A pair of values (the two dice, or an equal pair of a doubles roll) summed by one
        // piece as one move (F-A, F-D); and a gate moving as one (FAM-5c).
        let pair_available = i + 1 < g.count
            && (!g.doubles && i == 0 || g.doubles && i % 2 == 0 && g.values[i + 1] == v);
        if g.doubles && self.rules.gate_moves_with_doubles && pair_available {
            // Both pieces taking h and l each: the gate moves 7 (FAM-5c), all four values,
            // stopping on the square h ahead on the way (F-D: each value is a landing).
            if i == 0 && g.count == 4 && !g.restricted {
                let seven = g.values[0] + g.values[2];
                any |= self.gate_moves(g, b, i, seven, g.values[0], 4, used, frozen, play);
            }
            any |= self.gate_moves(g, b, i, v, 0, 2, used, frozen, play);
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
                if g.unwinding(play.len()) {
                    break;
                }
                if free & (1 << piece) == 0 {
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
            if g.unwinding(play.len()) {
                break;
            }
            if free & (1 << piece) == 0 {
                continue;
            }
            let Some(step) = self.single_step(b, colour, piece, v) else {
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

    /// The gate moves by `v` (FAM-5c). With `stop` > 0 (the gate's 7, h then l) the gate must
    /// also be able to stop `stop` ahead, as a gate and without capturing: each value is a
    /// landing (F-D), and a piece that captures moves no more (FAM-7). The rest of the way
    /// needs no second look: no gate stands strictly between (that is `can_pass` to the end),
    /// and the gate's own move does not change the squares ahead of its stop.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn gate_moves(
        &self,
        g: &mut Gen,
        b: &Board,
        i: usize,
        v: u8,
        stop: u8,
        consumes: usize,
        used: u8,
        frozen: u8,
        play: &mut Play,
    ) -> bool {
        let colour = g.colour;
        let pos = b.s.pos[colour as usize];
        let mut any = false;
        for a in 0..PIECES {
            if g.unwinding(play.len()) {
                break;
            }
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
            if stop > 0
                && self
                    .landing_step(b, colour, a, from, from + stop, stop, 2, StepKind::Move)
                    .is_none_or(|s| s.captured != 0)
            {
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
        if !g.allow(play.len(), step) {
            return;
        }
        // A step that ends the play (the values are used up, or FAM-5b stops before the bottom
        // faces): only the result's key is needed, not the board after it.
        if next >= g.count
            || (g.restricted && next == 2 && !Self::all_played_after(b, g.colour, step))
        {
            let key = if g.filter.is_some() {
                0
            } else {
                self.key_after(b, step)
            };
            self.record_key(g, key, play.steps(), std::slice::from_ref(step), used);
            return;
        }
        let mut nb = *b;
        let perm = self.apply_on(&mut nb, step);
        let mut fz = 0u8;
        for (k, &from) in perm.iter().enumerate() {
            fz |= ((frozen >> from) & 1) << k;
        }
        play.push(*step);
        if next + 1 == g.count {
            self.last_value(g, &nb, next, used, fz, play);
        } else {
            self.dfs(g, &nb, next, used, fz, play);
        }
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
        self.generate_list_best(s, orders, out);
    }

    /// [`FamilySystem::generate_list_into`], returning the values every listed play uses (0
    /// when nothing is listed).
    fn generate_list_best(&self, s: &FamilyState, orders: Orders, out: &mut PlayList) -> u8 {
        out.clear();
        if self.node(s) != Node::Decision {
            return 0;
        }
        SCRATCH.with(|cell| {
            let mut scratch = cell.borrow_mut();
            let (flags, seen) = &mut *scratch;
            seen.clear();
            let seen = (orders == Orders::Distinct).then_some(&mut *seen);
            let (best, _) = self.search(s, seen, out, None);
            // Nothing playable at all: the roll is lost (the generic layer forfeits it).
            if out.is_empty() || best == 0 {
                out.clear();
                return 0;
            }
            if self.rules.compulsory_capture
                && out.iter().any(|p| p.iter().any(|st| st.captured > 0))
            {
                flags.clear();
                flags.extend(out.iter().map(|p| p.iter().any(|st| st.captured > 0)));
                out.retain(|j| flags[j]);
            }
            best
        })
    }

    /// The search of every play of `s` (a decision node) in every order, or one per result with
    /// `seen`: into `out`, or, with a `filter`, the next steps it asks for. Returns the values
    /// the plays recorded use and whether the filter found a legal play ending with its steps.
    fn search<'a>(
        &self,
        s: &FamilyState,
        seen: Option<&'a mut Seen>,
        out: &'a mut PlayList,
        filter: Option<Filter<'a>>,
    ) -> (u8, bool) {
        let colour = self.playing_colour(s);
        let (values, count, restricted) = self.values(s, colour);
        let doubles = s.dice[0] == s.dice[1];
        let six_five = !doubles
            && self.rules.six_five_enters_and_moves
            && values[0] == 6
            && values[1] == 5
            && !s.has_piece_in_play(colour);
        let mut board = self.board(s);
        if filter.is_none() {
            // The listing of next steps records no position.
            board.key = s.key_parts();
        }
        let mut play = Play::new();
        let mut g = Gen {
            out,
            best: 0,
            seen,
            run: 0,
            values,
            count,
            colour,
            restricted,
            doubles,
            six_five,
            filter,
        };
        self.dfs(&mut g, &board, 0, 0, 0, &mut play);
        if !self.rules.higher_die_first && !doubles {
            g.values = [values[1], values[0], 0, 0];
            g.six_five = false;
            g.run = 1 << 30;
            self.dfs(&mut g, &board, 0, 0, 0, &mut play);
        }
        (g.best, g.filter.is_some_and(|f| f.ends))
    }

    /// The legal next steps of a play from `start` (a decision node) after the steps `taken`,
    /// into `out` (cleared first), in the order of the first legal play of [`Orders::All`] that
    /// goes on with each; returns whether a legal play ends with `taken` (see
    /// [`crate::rl::Encode::rl_next_steps`]). `goal` keeps between the calls of one play what a
    /// legal play achieves: `[GOAL_COMPUTED, the start (3 words), values used, must capture]`.
    ///
    /// The goal is first guessed: every value of the roll used (and, with F-H, a capture); the
    /// guess holds exactly when the search of the first steps then lists one (no play uses more
    /// values). Otherwise it comes from the distinct search ([`Orders::Distinct`]).
    pub(crate) fn next_steps(
        &self,
        start: &FamilyState,
        taken: &[Step],
        goal: &mut Vec<u64>,
        out: &mut Vec<Step>,
    ) -> bool {
        out.clear();
        if self.node(start) != Node::Decision {
            return false;
        }
        let p = &start.pos;
        let word = |a: &[u8; PIECES], b: &[u8; PIECES]| {
            u64::from(u32::from_le_bytes(*a)) << 32 | u64::from(u32::from_le_bytes(*b))
        };
        let [d0, d1] = start.dice;
        let [l0, l1] = start.played.to_le_bytes();
        let key = [
            word(&p[0], &p[1]),
            word(&p[2], &p[3]),
            u64::from_le_bytes([d0, d1, start.turn, start.tries, l0, l1, 0, 0]),
        ];
        if goal.len() != 6 || goal[0] != GOAL_COMPUTED || goal[1..4] != key {
            goal.clear();
            let count = self.values(start, self.playing_colour(start)).1 as u8;
            let guesses: &[bool] = if self.rules.compulsory_capture {
                &[true, false]
            } else {
                &[false]
            };
            for &need_capture in guesses {
                let ends = self.filtered(start, &[], count, need_capture, out);
                if !out.is_empty() {
                    goal.extend([
                        GOAL_COMPUTED,
                        key[0],
                        key[1],
                        key[2],
                        count.into(),
                        need_capture.into(),
                    ]);
                    if taken.is_empty() {
                        return ends;
                    }
                    out.clear();
                    break;
                }
            }
            if goal.is_empty() {
                let (best, need_capture) = LIST.with_borrow_mut(|list| {
                    let best = self.generate_list_best(start, Orders::Distinct, list);
                    let capture = self.rules.compulsory_capture
                        && list.iter().any(|p| p.iter().any(|st| st.captured > 0));
                    (best, capture)
                });
                goal.extend([
                    GOAL_COMPUTED,
                    key[0],
                    key[1],
                    key[2],
                    best.into(),
                    need_capture.into(),
                ]);
            }
        }
        if goal[4] == 0 {
            return false;
        }
        // A legal play's steps use the goal's values at last: then it is over (every step uses
        // a value), and it is the legal play `taken` begins.
        if !taken.is_empty() && self.values_used(start, taken) == goal[4] as u8 {
            return true;
        }
        self.filtered(start, taken, goal[4] as u8, goal[5] != 0, out)
    }

    /// The values of the roll of `start` that the steps `taken` use: one a die's or face's
    /// value, two a sum of two (F-A, F-D), or a gate moving by one value (FAM-5c), or an entry
    /// by a sum of five (F-F), four a gate moving seven.
    fn values_used(&self, start: &FamilyState, taken: &[Step]) -> u8 {
        let [a, b] = start.dice;
        let h = a.max(7 - a);
        let l = 7 - h;
        let one = |v: u8| {
            if a == b && self.rules.bottom_faces {
                v == h || v == l
            } else {
                v == a || v == b
            }
        };
        taken
            .iter()
            .map(|st| match (st.count, st.kind) {
                (2, _) if st.value == 7 && a == b && self.rules.bottom_faces => 4,
                (2, _) => 2,
                (_, StepKind::Enter) if st.value == 5 && !one(5) => 2,
                _ if one(st.value) => 1,
                _ => 2,
            })
            .sum()
    }

    /// The filtered search of [`FamilySystem::next_steps`] for a goal.
    fn filtered(
        &self,
        start: &FamilyState,
        taken: &[Step],
        best: u8,
        need_capture: bool,
        out: &mut Vec<Step>,
    ) -> bool {
        out.clear();
        let mut unused = PlayList::new();
        let filter = Filter {
            taken,
            out,
            best,
            need_capture,
            ends: false,
            hit: false,
        };
        self.search(start, None, &mut unused, Some(filter)).1
    }
}

/// The first word of a goal of [`FamilySystem::next_steps`].
const GOAL_COMPUTED: u64 = 0x9e37_79b9_0000_0002;

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
                    b.key = s.key_parts();
                    for st in &steps {
                        sys.apply_on(&mut b, st);
                        sys.apply_to_state(&mut s, st);
                        assert!(b.s == s, "seed {seed}, step {st:?}");
                        assert_eq!(wide(b.key), s.key());
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
