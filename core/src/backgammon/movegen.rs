//! Legal plays of a roll, decided on the whole move (BG-1..BG-6).
//!
//! Non-doubles try both dice orders and keep two-dice plays when any exists, else the higher
//! die alone when it can be played, else the lower (BG-1, BG-2, BG-4). Doubles walk up to four
//! steps; for distinct plays the sources are taken in non-increasing order, which reaches every
//! resulting position exactly once (a multiset of sources determines the result), so no
//! deduplication is needed; every order is walked only for the step-by-step interface.
//!
//! # Fast paths (each keeps the plays and their order)
//! - *The board as bit sets*: a generation reads the position once into four 26-bit sets (the
//!   mover's occupied points, its points holding exactly one checker, the open points, the
//!   opposing blots), built eight points at a time with byte-parallel tests on `u64` words
//!   instead of a test per point. [`movable`] then gives every point a die may move from with a
//!   few bit operations (the bar alone while it is occupied, open landings, the bearing-off
//!   cases), in the same highest-point-first order as checking each point would. The open
//!   points do not change during a generation (a hit empties an open point).
//! - *Non-doubles without applying steps*: a play is two steps, and the second step's sources
//!   follow from the first by bit operations (the source point stays occupied unless it held
//!   one checker; the landing becomes occupied; everything home is "no occupied point above 6"),
//!   so nothing is applied or undone. The pass with the lower die first skips the pairs of
//!   steps the first pass made in the other order (same steps, same position).
//! - *Deduplication only where it can matter*: two plays of two steps leave the same position
//!   exactly when they change the mover's checkers by the same amounts per point and hit the
//!   same blots. For plays whose steps neither chain (the second starting where the first
//!   landed, or landing where the first started) nor bear off, that happens only for the same
//!   two steps in the other order, which the second pass already skips (see [`pair_key`] for
//!   the proof). So only chained and bearing-off plays are looked up, by an exact 46-bit key of
//!   the change (points left, points reached, blots hit) in a fixed table of 1,024 slots cleared
//!   by a stamp ([`PairSet`]), instead of a 128-bit key of the whole board for every play.
//! - *Doubles as a loop over four levels*: the walk keeps one source set per level on a small
//!   stack (no recursion, no [`Play`] built per node), updates the occupied set from the point
//!   counts, and makes the last of four steps without applying it. Only the longest plays found
//!   so far are listed (a longer one drops those listed before it).
//! - *Steps, not plays*: plays are listed as their steps back to back (a
//!   [`crate::play::PlayList`], what the simulation reads), not as 193-byte [`Play`]s.
//!
//! Checked against [`super::reference`] (`core/tests/backgammon_reference.rs`), the perft counts
//! (`core/tests/perft.rs`) and, in the tests below, the bit sets and [`movable`] against the
//! rule point by point, and [`pair_key`] against the positions the plays leave.

use super::{BAR, BgState};
use crate::play::{NO_PIECE, Play, PlayList, Step, StepKind};
use crate::system::Orders;
use std::cell::RefCell;

/// Points 7..=25 (the bar included): a mover with no checker there has every checker home.
const OUTSIDE: u32 = ((1 << 26) - 1) & !((1 << 7) - 1);
/// Points 1..=24.
const BOARD: u32 = ((1 << 25) - 1) & !1;
/// Points 1..=25 (the board and the bar).
const ON_BOARD: u32 = ((1 << 26) - 1) & !1;

const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
const ONES: u64 = 0x0101_0101_0101_0101;

/// The high bit of each byte of `x` that is zero (exact: no carry crosses a byte).
#[inline(always)]
fn zero_bytes(x: u64) -> u64 {
    !(((x & LOW7) + LOW7) | x | LOW7)
}

/// The high bits of a word's bytes (as [`zero_bytes`] leaves them) as 8 bits, byte `i` to bit
/// `i`: the multiplier moves bit `8i + 7` to bit `56 + i`, and no two of its products overlap.
#[inline(always)]
fn pack(high: u64) -> u32 {
    ((high >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
}

/// A side's 26 counts as words of 8 bytes (the last word holds counts 24 and 25).
#[inline(always)]
fn words(a: &[u8; 26]) -> [u64; 4] {
    let w = |i: usize| {
        u64::from_le_bytes([
            a[i],
            a[i + 1],
            a[i + 2],
            a[i + 3],
            a[i + 4],
            a[i + 5],
            a[i + 6],
            a[i + 7],
        ])
    };
    [w(0), w(8), w(16), a[24] as u64 | (a[25] as u64) << 8]
}

/// Bit `i` set where byte `i` of the words passes `test` (a byte test as [`zero_bytes`] gives).
#[inline(always)]
fn byte_set(w: [u64; 4], test: impl Fn(u64) -> u64) -> u32 {
    pack(test(w[0])) | pack(test(w[1])) << 8 | pack(test(w[2])) << 16 | pack(test(w[3])) << 24
}

/// The mover's view of the board as bit sets, bit `p` for the mover's point `p` (module docs).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Masks {
    /// Points 1..=25 (the bar) holding a checker of the mover.
    occ: u32,
    /// Points 1..=25 holding exactly one checker of the mover.
    single: u32,
    /// Points 1..=24 holding at most one opposing checker (where the mover may land).
    open: u32,
    /// Points 1..=24 holding exactly one opposing checker (a landing there hits it).
    blot: u32,
}

impl Masks {
    #[inline(always)]
    fn new(s: &BgState) -> Masks {
        let seat = s.turn as usize & 1;
        let own = words(&s.checkers[seat]);
        let theirs = words(&s.checkers[1 - seat]);
        let high = 0x8080_8080_8080_8080u64;
        let occ = byte_set(own, |x| !zero_bytes(x) & high) & ON_BOARD;
        let single = byte_set(own, |x| zero_bytes(x ^ ONES)) & ON_BOARD;
        // The opponent numbers the mover's point `p` as `25 - p`: reversing 32 bits and
        // dropping 6 maps its bit `q` to the mover's bit `25 - q`.
        let flip = |m: u32| (m.reverse_bits() >> 6) & BOARD;
        let open = flip(byte_set(theirs, |x| zero_bytes(x & !ONES)));
        let blot = flip(byte_set(theirs, |x| zero_bytes(x ^ ONES)));
        Masks {
            occ,
            single,
            open,
            blot,
        }
    }

    /// The occupied points and the blots after one step from `from` to `to`: its source
    /// empties if it held one checker; its landing is occupied (off is not a point); a blot
    /// hit there is gone. (`single` and `open` are not needed after it.)
    #[inline(always)]
    fn after(&self, from: u32, to: u32) -> (u32, u32) {
        let occ = (self.occ & !(self.single & (1 << from))) | ((1 << to) & ON_BOARD);
        (occ, self.blot & !(1 << to))
    }
}

/// The points a step with die `d` may start from, as a bit set (`occupied`: the mover's points
/// 1..=25, the bar bit 25): only the bar while it is occupied (BG-6); a landing must be open
/// (BG-3); bearing off needs every checker home, and a die above the point only from the
/// highest one.
#[inline(always)]
fn movable(occupied: u32, open: u32, d: u32) -> u32 {
    if occupied & (1 << BAR) != 0 {
        return ((open >> (BAR as u32 - d)) & 1) << BAR;
    }
    // Moves that stay on the board: from a point above `d` to an open point.
    let mut m = occupied & (open << d) & !((2u32 << d) - 1);
    if occupied & OUTSIDE == 0 && occupied != 0 {
        // Bearing off: from point `d` exactly, or from the highest point when it is lower.
        m |= occupied & (1 << d);
        let high = 31 - occupied.leading_zeros();
        if high < d {
            m |= 1 << high;
        }
    }
    m
}

/// The highest point of a non-empty bit set.
#[inline(always)]
fn highest(set: u32) -> u32 {
    31 - set.leading_zeros()
}

/// The step of one checker from `from` with die `d` to `to` (`from - d`, or 0 off).
#[inline(always)]
fn step(seat: u8, from: u32, to: u32, d: u32, captured: u32) -> Step {
    Step {
        seat,
        piece: NO_PIECE,
        from: from as u8,
        to: to as u8,
        value: d as u8,
        count: 1,
        captured: captured as u8,
        kind: if from == BAR as u32 {
            StepKind::Enter
        } else {
            StepKind::Move
        },
    }
}

/// An exact key of the position two steps of one checker each leave (`f1` to `t1`, then `f2` to
/// `t2`, hitting where `c1`, `c2` are 1), for plays whose steps chain or bear off.
///
/// The position after the play is the mover's counts changed by `+1` at each landing and `-1`
/// at each source, with the blots hit on the bar: two plays leave the same position exactly
/// when these changes and the hit points are equal. The change is written canonically as the
/// points left and the points reached with the common ones cancelled: a chain (`t1 == f2`, or
/// `t2 == f1`: the second step lands where the first left) leaves one of each, else two of each
/// (sorted). Five bits per point (none = 31), then the hit points as a set.
///
/// Why plays with neither a chain nor a landing off need no lookup: two such plays with equal
/// changes leave the same two points and reach the same two. If their dice are assigned to
/// the sources alike, they are the same steps (the same play, or the other order of it). If
/// the dice are swapped, `f1 - a` must equal `f2 - a` (the other pairings give `a == b`), so
/// `f1 == f2`: again the same two steps in the other order. The second pass skips exactly the
/// pairs the first made in the other order, and a changed count of one kind (chain, landing
/// off) never equals one of the other, so these plays never meet a listed position.
#[inline(always)]
fn pair_key(f1: u32, t1: u32, c1: u32, f2: u32, t2: u32, c2: u32) -> u64 {
    const NONE: u32 = 31;
    let (left, reached) = if t1 == f2 {
        ((f1, NONE), (t2, NONE))
    } else if t2 == f1 {
        ((f2, NONE), (t1, NONE))
    } else {
        ((f1.max(f2), f1.min(f2)), (t1.max(t2), t1.min(t2)))
    };
    let hits = (c1 << t1) | (c2 << t2);
    (left.0 | left.1 << 5 | reached.0 << 10 | reached.1 << 15) as u64 | (hits as u64) << 20
}

/// The keys of [`pair_key`] listed in a generation: 1,024 slots of `key | stamp << 46`, a slot
/// empty unless it carries the current stamp, so clearing is one increment. A roll lists fewer
/// than 512 two-step plays (each pass at most 15 sources times 16), so the table stays under
/// half full and never grows.
struct PairSet {
    slots: [u64; PairSet::SLOTS],
    stamp: u64,
}

impl PairSet {
    const SLOTS: usize = 1024;
    const STAMP_SHIFT: u32 = 46;

    const fn new() -> PairSet {
        PairSet {
            slots: [0; PairSet::SLOTS],
            stamp: 0,
        }
    }

    fn clear(&mut self) {
        self.stamp += 1;
        if self.stamp >> (64 - Self::STAMP_SHIFT) != 0 {
            // The stamp wrapped: old entries could look current.
            self.slots = [0; PairSet::SLOTS];
            self.stamp = 1;
        }
    }

    /// Adds `key` (below 2^46); false when it was already there.
    #[inline(always)]
    fn insert(&mut self, key: u64) -> bool {
        let entry = key | self.stamp << Self::STAMP_SHIFT;
        let mut i = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 54) as usize;
        loop {
            let e = self.slots[i];
            if e == entry {
                return false;
            }
            if e >> Self::STAMP_SHIFT != self.stamp {
                self.slots[i] = entry;
                return true;
            }
            i = (i + 1) & (Self::SLOTS - 1);
        }
    }
}

thread_local! {
    /// The chained and bearing-off positions listed by [`two_values`].
    static PAIRS: RefCell<PairSet> = const { RefCell::new(PairSet::new()) };
    /// The list [`generate`] fills before it copies the plays out as [`Play`]s.
    static LIST: RefCell<PlayList> = const { RefCell::new(PlayList::new()) };
}

/// Appends the legal plays of the roll in `s.dice` to `out` (as [`generate_list`] lists them).
pub(super) fn generate(s: &BgState, orders: Orders, out: &mut Vec<Play>) {
    LIST.with_borrow_mut(|list| {
        generate_list(s, orders, list);
        out.reserve(list.len());
        out.extend(list.iter().map(Play::from_steps));
    });
}

/// Lists the legal plays of the roll in `s.dice` into `out` (cleared first), steps back to back.
pub(super) fn generate_list(s: &BgState, orders: Orders, out: &mut PlayList) {
    out.clear();
    let m = Masks::new(s);
    let [d1, d2] = s.dice;
    let distinct = orders == Orders::Distinct;
    if d1 == d2 {
        doubles(s, &m, d1 as u32, distinct, out);
        return;
    }
    let (hi, lo) = (d1.max(d2) as u32, d1.min(d2) as u32);
    if distinct {
        PAIRS.with_borrow_mut(|seen| two_values(s.turn, &m, hi, lo, Some(seen), out));
    } else {
        two_values(s.turn, &m, hi, lo, None, out);
    }
}

/// Whether the roll in `s.dice` has a legal play: whether some die has a legal step now.
///
/// Equivalent to [`generate_list`] listing at least one play. A legal step of one die is itself
/// a play of one die, so the most dice that can be played (BG-1, BG-5) is at least one, and the
/// plays kept (the longest; for non-doubles the higher die when only one can be played, BG-4)
/// are not empty; conversely every listed play begins with a legal step of one of the dice
/// (the generator never lists the empty play). [`movable`] is exactly the set of legal
/// sources of a step (the bar first, BG-6; open landings, BG-3; bearing off), as the tests
/// check. `core/tests/has_play.rs` compares the two on random positions and every roll.
pub(super) fn any_step(s: &BgState) -> bool {
    let m = Masks::new(s);
    let [d1, d2] = s.dice;
    movable(m.occ, m.open, d1 as u32) != 0 || movable(m.occ, m.open, d2 as u32) != 0
}

/// The legal next steps of a play under way: `s` is the position with the steps `taken` so far
/// in this roll applied (`s.dice` the roll), and `out` (cleared first) gets every step that
/// begins or continues some legal play of the roll after `taken` (BG-1..BG-6), without listing
/// the plays: exactly the distinct `taken.len()`-th steps of the plays [`generate_list`] lists
/// with [`Orders::All`] from the roll's start that begin with `taken`. They are listed lowest
/// point first, and at one point the lower die first: in the order of their `step` ids
/// (`docs/RL.md`). Empty when the play is complete (or, with nothing taken, when the roll has
/// no legal play).
///
/// Why this is exact: every legal play uses as many dice as any play of the roll can (BG-1,
/// BG-5), so a step is legal exactly when some play of that length begins with the steps
/// taken and it.
/// - Two different values, nothing taken: when some play uses both dice, the legal first steps
///   are the steps of one die after which the other die has a step ([`Masks::after`], nothing
///   applied); else the higher die's steps when it has any, else the lower's (BG-4).
/// - Two different values, one step taken: every step of the other die is legal. If any exists
///   the roll has a play of both dice, and the taken step (legal) began one; if the roll has no
///   play of both dice, the other die has no step after it, and the play is complete.
/// - Doubles, `k` steps taken: the most further steps the position allows (at most `4 - k`) is
///   what the roll's longest plays leave, since the taken steps began one of them and no play is
///   longer; a step is legal when it leaves a walk of one less. The walk below each step tries
///   its sources in non-increasing order (as the generator's `Orders::Distinct` does: a multiset
///   of sources reaches every position one order of it does), and stops at the first walk long
///   enough.
///
/// `core/tests/rl_next_steps.rs` compares this, and the order, with grouping the plays of
/// [`Orders::All`] on random positions of every kind.
pub(super) fn next_steps(s: &BgState, taken: &[Step], out: &mut Vec<Step>) {
    out.clear();
    let m = Masks::new(s);
    let seat = s.turn;
    let [d1, d2] = s.dice;
    let k = taken.len();
    // The steps of die `lo` from the points in `lo_set` and of `hi` from `hi_set`, lowest point
    // first and at one point `lo` first: ascending step ids.
    let push = |lo_set: u32, lo: u32, hi_set: u32, hi: u32, out: &mut Vec<Step>| {
        let mut all = lo_set | hi_set;
        while all != 0 {
            let from = all.trailing_zeros();
            all &= all - 1;
            for (set, d) in [(lo_set, lo), (hi_set, hi)] {
                if (set >> from) & 1 != 0 {
                    let to = from.saturating_sub(d);
                    out.push(step(seat, from, to, d, (m.blot >> to) & 1));
                }
            }
        }
    };
    if d1 != d2 {
        let (hi, lo) = (d1.max(d2) as u32, d1.min(d2) as u32);
        match k {
            0 => {
                let (first_hi, first_lo) = (movable(m.occ, m.open, hi), movable(m.occ, m.open, lo));
                // The steps of `first` after which `second` has a step.
                let go_on = |firsts: u32, first: u32, second: u32| {
                    let mut set = firsts;
                    let mut keep = 0;
                    while set != 0 {
                        let f = highest(set);
                        set &= !(1 << f);
                        let (occ, _) = m.after(f, f.saturating_sub(first));
                        if movable(occ, m.open, second) != 0 {
                            keep |= 1 << f;
                        }
                    }
                    keep
                };
                let (two_hi, two_lo) = (go_on(first_hi, hi, lo), go_on(first_lo, lo, hi));
                if two_hi | two_lo != 0 {
                    push(two_lo, lo, two_hi, hi, out);
                } else if first_hi != 0 {
                    push(0, lo, first_hi, hi, out);
                } else {
                    push(first_lo, lo, 0, hi, out);
                }
            }
            1 => {
                let other = if taken[0].value as u32 == hi { lo } else { hi };
                push(movable(m.occ, m.open, other), other, 0, other, out);
            }
            _ => {}
        }
        return;
    }
    let d = d1 as u32;
    let Some(room) = 4usize.checked_sub(k).filter(|&r| r > 0) else {
        return;
    };
    let mut count = s.checkers[seat as usize & 1];
    let firsts = movable(m.occ, m.open, d);
    // Bit `f`: the first steps whose walk reaches `best` steps in all.
    let (mut keep, mut best) = (0u32, 0usize);
    let mut set = firsts;
    while set != 0 {
        let f = highest(set);
        set &= !(1 << f);
        let t = f.saturating_sub(d);
        let occ = apply_count(&mut count, m.occ, f, t);
        // A step only needs to reach the best found so far; `longest` stops at `room - 1`.
        let n = 1 + longest(&mut count, occ, m.open, d, ON_BOARD, room - 1);
        undo_count(&mut count, f, t);
        if n > best {
            best = n;
            keep = 0;
        }
        if n == best {
            keep |= 1 << f;
        }
    }
    push(keep, d, 0, d, out);
}

/// Moves one checker from `f` to `t` in `count` and returns the occupied set after it.
#[inline(always)]
fn apply_count(count: &mut [u8; 26], occ: u32, f: u32, t: u32) -> u32 {
    count[f as usize] -= 1;
    count[t as usize] += 1;
    let occ = if count[f as usize] == 0 {
        occ & !(1 << f)
    } else {
        occ
    };
    occ | ((1 << t) & ON_BOARD)
}

/// Undoes [`apply_count`] (the occupied set is the caller's copy from before it).
#[inline(always)]
fn undo_count(count: &mut [u8; 26], f: u32, t: u32) {
    count[f as usize] += 1;
    count[t as usize] -= 1;
}

/// The most steps of die `d` (at most `need`) that can be made in a row from the position of
/// `count` and `occ`, sources taken in non-increasing order from the points in `below`; stops
/// at the first walk of `need` steps.
fn longest(count: &mut [u8; 26], occ: u32, open: u32, d: u32, below: u32, need: usize) -> usize {
    if need == 0 {
        return 0;
    }
    let mut set = movable(occ, open, d) & below;
    if set == 0 {
        return 0;
    }
    if need == 1 {
        return 1;
    }
    let mut best = 1;
    while set != 0 {
        let f = highest(set);
        set &= !(1 << f);
        let t = f.saturating_sub(d);
        let after = apply_count(count, occ, f, t);
        let n = 1 + longest(count, after, open, d, (2u32 << f) - 1, need - 1);
        undo_count(count, f, t);
        if n > best {
            best = n;
            if best == need {
                break;
            }
        }
    }
    best
}

/// The plays of two different values (BG-1, BG-2, BG-4) into `out` (empty); `seen` (one play
/// per position) or every order.
fn two_values(
    seat: u8,
    m: &Masks,
    hi: u32,
    lo: u32,
    mut seen: Option<&mut PairSet>,
    out: &mut PlayList,
) {
    if let Some(seen) = seen.as_deref_mut() {
        seen.clear();
    }
    let distinct = seen.is_some();
    let mut single = [false; 2]; // hi alone, lo alone playable
    // first_hi[a] bit b: hi from a then lo from b was legal. The same two steps in the other
    // order lead to the same position, so the lo-first pass skips them.
    let mut first_hi = [0u32; 26];
    for (first, second, idx) in [(hi, lo, 0usize), (lo, hi, 1usize)] {
        // Only the legal steps, highest point first (`movable`).
        let mut firsts = movable(m.occ, m.open, first);
        single[idx] = firsts != 0;
        while firsts != 0 {
            let f1 = highest(firsts);
            firsts &= !(1 << f1);
            let t1 = f1.saturating_sub(first);
            let c1 = (m.blot >> t1) & 1;
            let s1 = step(seat, f1, t1, first, c1);
            let (occ, blot) = m.after(f1, t1);
            let mut seconds = movable(occ, m.open, second);
            if idx == 0 {
                first_hi[f1 as usize] = seconds;
            }
            while seconds != 0 {
                let f2 = highest(seconds);
                seconds &= !(1 << f2);
                if distinct && idx == 1 && first_hi[f2 as usize] & (1 << f1) != 0 {
                    continue;
                }
                let t2 = f2.saturating_sub(second);
                let c2 = (blot >> t2) & 1;
                if let Some(seen) = seen.as_deref_mut()
                    && (t1 == f2 || t2 == f1 || t1 == 0 || t2 == 0)
                    && !seen.insert(pair_key(f1, t1, c1, f2, t2, c2))
                {
                    continue;
                }
                out.push_then(&[s1], step(seat, f2, t2, second, c2));
            }
        }
    }
    if !out.is_empty() {
        return;
    }
    // BG-1: only one die can be played: the higher when it can, else the lower.
    let die = if single[0] {
        hi
    } else if single[1] {
        lo
    } else {
        return;
    };
    let mut set = movable(m.occ, m.open, die);
    while set != 0 {
        let from = highest(set);
        set &= !(1 << from);
        let to = from.saturating_sub(die);
        out.push(&[step(seat, from, to, die, (m.blot >> to) & 1)]);
    }
}

/// The plays of a doubles roll of `d` into `out` (empty): a walk of up to four steps, with
/// `canonical` the sources never increasing (one play per position), else every order. Lists
/// only the longest plays found so far (BG-5): a longer one drops those listed before it, which
/// leaves the longest in the order of the walk; no move at all is no play.
fn doubles(s: &BgState, m: &Masks, d: u32, canonical: bool, out: &mut PlayList) {
    let seat = s.turn;
    let mut count = s.checkers[seat as usize & 1];
    let mut occ = m.occ;
    let mut blot = m.blot;
    let open = m.open;
    // The sources left to try at each level, and the step made at each.
    let mut left = [0u32; 4];
    let mut steps = [Step::default(); 4];
    let mut best = 0usize;
    let below = |from: u32| {
        if canonical {
            (2u32 << from) - 1
        } else {
            u32::MAX
        }
    };
    left[0] = movable(occ, open, d);
    let mut depth = 0usize;
    loop {
        let set = left[depth];
        if set == 0 {
            // Every step from this level tried: back to the level above.
            if depth == 0 {
                break;
            }
            depth -= 1;
            let st = steps[depth];
            let (f, t) = (st.from as usize, st.to as usize);
            count[f] += 1;
            occ |= 1 << f;
            count[t] -= 1;
            if t > 0 && count[t] == 0 {
                occ &= !(1 << t);
            }
            blot |= (st.captured as u32) << t;
            continue;
        }
        let from = highest(set);
        left[depth] = set & !(1 << from);
        let to = from.saturating_sub(d);
        let c = (blot >> to) & 1;
        steps[depth] = step(seat, from, to, d, c);
        // Apply the step.
        let (f, t) = (from as usize, to as usize);
        count[f] -= 1;
        if count[f] == 0 {
            occ &= !(1 << f);
        }
        count[t] += 1;
        occ |= (1 << t) & ON_BOARD;
        blot &= !(c << t);
        let next = movable(occ, open, d) & below(from);
        if depth == 2 {
            // The fourth step ends the play: listed without applying it.
            if next != 0 {
                if best < 4 {
                    best = 4;
                    out.clear();
                }
                let mut last = next;
                while last != 0 {
                    let f4 = highest(last);
                    last &= !(1 << f4);
                    let t4 = f4.saturating_sub(d);
                    let s4 = step(seat, f4, t4, d, (blot >> t4) & 1);
                    out.push(&[steps[0], steps[1], steps[2], s4]);
                }
            } else if best <= 3 {
                if best < 3 {
                    best = 3;
                    out.clear();
                }
                out.push(&steps[..3]);
            }
        } else if next != 0 {
            depth += 1;
            left[depth] = next;
            continue;
        } else if depth + 1 >= best {
            if depth + 1 > best {
                best = depth + 1;
                out.clear();
            }
            out.push(&steps[..depth + 1]);
        }
        // Undo the step just made (the walk stays at this level).
        count[f] += 1;
        occ |= 1 << f;
        count[t] -= 1;
        if t > 0 && count[t] == 0 {
            occ &= !(1 << t);
        }
        blot |= c << t;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::rng_from_seed;
    use crate::system::{Node, RuleSystem, SystemRules};

    /// Positions of decision nodes of random games (both seats, every phase of a game).
    fn positions(want: usize) -> Vec<BgState> {
        let system = super::super::BackgammonRules::standard().build().unwrap();
        let mut list = PlayList::new();
        let mut out = Vec::new();
        for seed in 0.. {
            let mut rng = rng_from_seed(seed);
            let mut s = system.initial_state();
            while system.node(&s) != Node::Over {
                if out.len() >= want {
                    return out;
                }
                if system.node(&s) == Node::Chance {
                    let roll = system.sample_roll(&s, &mut rng);
                    system.begin_roll(&mut s, roll);
                    continue;
                }
                out.push(s);
                system.generate_list(&s, Orders::Distinct, &mut list);
                let steps = match list.len() {
                    0 => vec![],
                    n => list.get(crate::sim::uniform_index(&mut rng, n)).to_vec(),
                };
                for st in &steps {
                    system.apply_step(&mut s, st);
                }
                system.end_play(&mut s, &steps);
            }
        }
        out
    }

    /// The rule point by point: whether a checker of the mover may move from `from` with die
    /// `d` (the bar first; an open landing; bearing off with everything home, a higher die only
    /// from the highest point).
    fn legal(s: &BgState, from: usize, d: usize) -> bool {
        let own = &s.checkers[s.turn as usize];
        let theirs = &s.checkers[1 - s.turn as usize];
        if own[from] == 0 || (from != BAR && own[BAR] > 0) {
            return false;
        }
        if from > d {
            return theirs[25 - (from - d)] < 2;
        }
        own[7..=BAR].iter().all(|&c| c == 0)
            && (from == d || own[from + 1..=6].iter().all(|&c| c == 0))
    }

    /// `Masks` and `movable` against their definitions point by point, before and after every
    /// step of the plays listed at decisions of random games, and `Masks::after` (the second
    /// step's view without applying the first) against the masks of the position after it.
    #[test]
    fn masks_and_movable_match_the_rule() {
        let system = super::super::BackgammonRules::standard().build().unwrap();
        let check = |s: &BgState| {
            let m = Masks::new(s);
            let own = &s.checkers[s.turn as usize];
            let theirs = &s.checkers[1 - s.turn as usize];
            let set = |f: &dyn Fn(usize) -> bool, points: std::ops::RangeInclusive<usize>| {
                points.fold(0u32, |m, p| m | (f(p) as u32) << p)
            };
            assert_eq!(m.occ, set(&|p| own[p] > 0, 1..=BAR));
            assert_eq!(m.single, set(&|p| own[p] == 1, 1..=BAR));
            assert_eq!(m.open, set(&|p| theirs[25 - p] < 2, 1..=24));
            assert_eq!(m.blot, set(&|p| theirs[25 - p] == 1, 1..=24));
            for d in 1..=6 {
                assert_eq!(
                    movable(m.occ, m.open, d as u32),
                    set(&|p| legal(s, p, d), 1..=BAR)
                );
            }
            m
        };
        let mut list = PlayList::new();
        let mut steps = 0;
        for s in positions(4_000) {
            check(&s);
            system.generate_list(&s, Orders::All, &mut list);
            for play in list.iter() {
                let mut t = s;
                for st in play {
                    let m = Masks::new(&t);
                    let mut u = t;
                    system.apply_step(&mut u, st);
                    let after = check(&u);
                    assert_eq!(
                        m.after(st.from as u32, st.to as u32),
                        (after.occ, after.blot)
                    );
                    t = u;
                    steps += 1;
                }
            }
        }
        assert!(steps > 10_000, "{steps}");
    }

    /// `pair_key` is exact: over the two-step plays of every order at random positions, two
    /// plays have one key exactly when they leave one position.
    #[test]
    fn pair_key_is_exact() {
        let system = super::super::BackgammonRules::standard().build().unwrap();
        let mut list = PlayList::new();
        let (mut pairs, mut equal) = (0, 0);
        for s in positions(3_000) {
            if s.dice[0] == s.dice[1] {
                continue;
            }
            system.generate_list(&s, Orders::All, &mut list);
            let plays: Vec<(u64, [[u8; 26]; 2])> = list
                .iter()
                .filter(|p| p.len() == 2)
                .map(|p| {
                    let mut t = s;
                    p.iter().for_each(|st| system.apply_step(&mut t, st));
                    let [a, b] =
                        [p[0], p[1]].map(|st| (st.from as u32, st.to as u32, st.captured as u32));
                    (pair_key(a.0, a.1, a.2, b.0, b.1, b.2), t.checkers)
                })
                .collect();
            for (i, x) in plays.iter().enumerate() {
                for y in &plays[..i] {
                    assert_eq!(x.0 == y.0, x.1 == y.1, "{s:?}");
                    pairs += 1;
                    equal += (x.1 == y.1) as usize;
                }
            }
        }
        assert!(pairs > 100_000 && equal > 1_000, "{pairs} {equal}");
    }
}
