//! Legal plays of a roll, decided on the whole move (BG-1..BG-6).
//!
//! Non-doubles try both dice orders and keep two-dice plays when any exists, else the higher
//! die alone when it can be played, else the lower (BG-1, BG-2, BG-4). Doubles walk up to four
//! steps; for distinct plays the sources are taken in non-increasing order, which reaches every
//! resulting position exactly once (a multiset of sources determines the result), so no
//! deduplication is needed; every order is walked only for the step-by-step interface.
//!
//! # Fast paths (each keeps the plays and their order)
//! - *Legal sources as a bit set*: [`Board::movable`] gives every point a die may move from
//!   with a few bit operations (occupied points whose landing is open, the bar alone while it
//!   is occupied, the bearing-off cases), so the search visits only legal steps, in the same
//!   highest-point-first order as checking each point would. The set of open points does not
//!   change during a generation (a hit empties an open point).
//! - *The position key without applying the step*: the last step's key is the board's key
//!   with one checker moved (table lookups, no variable 128-bit shifts); doubles, which need no
//!   key, do not maintain it.
//! - *Steps, not plays*: plays are listed as their steps back to back (a
//!   [`crate::play::PlayList`], what the simulation reads), and for doubles only the longest
//!   found so far are kept, instead of copying every complete 193-byte [`Play`] and filtering.
//!
//! Checked against [`super::reference`] (`core/tests/backgammon_reference.rs`), the perft counts
//! (`core/tests/perft.rs`) and, in the tests below, `movable` against the rule point by point.

use super::{BAR, BgState};
use crate::dedup::KeySet;
use crate::play::{NO_PIECE, Play, PlayList, Step, StepKind};
use crate::system::Orders;

/// The mover's view of the board during generation.
struct Board {
    seat: u8,
    /// The mover's checkers in its numbering (0 off, 25 bar).
    own: [u8; 26],
    /// Opposing checkers on the mover's point `p` (index 1..=24; 0 and 25 unused).
    opp: [u8; 26],
    /// The mover's checkers outside its home board (points 7..=24 and the bar).
    outside: u8,
    /// Resulting position key: 4 bits per point 1..=25, then one bit per hit point.
    key: u128,
    /// Bit `p` set while the mover has a checker on point `p` (1..=25).
    occupied: u32,
    /// Bit `p` set where the mover may land (point `p` in 1..=24 holds at most one opposing
    /// checker). Constant during a generation: a hit only empties an open point.
    open: u32,
}

const HIT_SHIFT: u32 = 100;

/// `UNIT[p]`: one checker on point `p` (1..=25) in [`Board::key`] (a table: a variable shift
/// of a `u128` is several instructions).
static UNIT: [u128; 26] = {
    let mut t = [0u128; 26];
    let mut p = 1;
    while p < 26 {
        t[p] = 1u128 << (4 * (p - 1));
        p += 1;
    }
    t
};

/// `HIT[p]`: the key's bit for a hit on point `p` (1..=24).
static HIT: [u128; 26] = {
    let mut t = [0u128; 26];
    let mut p = 1;
    while p < 26 {
        t[p] = 1u128 << (HIT_SHIFT as usize + p - 1);
        p += 1;
    }
    t
};

impl Board {
    fn new(s: &BgState) -> Board {
        let seat = s.turn as usize;
        let own = s.checkers[seat];
        let theirs = &s.checkers[1 - seat];
        let mut opp = [0u8; 26];
        for (p, slot) in opp.iter_mut().enumerate().take(25).skip(1) {
            *slot = theirs[25 - p];
        }
        let outside = own[7..=BAR].iter().sum();
        let mut key = 0u128;
        let mut occupied = 0u32;
        let mut open = 0u32;
        for (p, &c) in opp.iter().enumerate().take(25).skip(1) {
            if c < 2 {
                open |= 1 << p;
            }
        }
        for (p, &c) in own.iter().enumerate().skip(1) {
            key |= (c as u128) << (4 * (p as u32 - 1));
            if c > 0 {
                occupied |= 1 << p;
            }
        }
        Board {
            seat: s.turn,
            own,
            opp,
            outside,
            key,
            occupied,
            open,
        }
    }

    /// The points a step with die `d` may start from now, as a bit set (what [`Board::step`]
    /// accepts): only the bar while it is occupied (BG-6); a landing must be open (BG-3); bearing
    /// off needs every checker home, and a die above the point only from the highest one.
    #[inline(always)]
    fn movable(&self, d: usize) -> u32 {
        movable(self.occupied, self.open, self.outside == 0, d)
    }

    /// The step of one checker from `from` with die `d`, known legal (a point of
    /// [`Board::movable`]).
    #[inline(always)]
    fn legal_step(&self, from: usize, d: usize) -> Step {
        let to = from.saturating_sub(d);
        Step {
            seat: self.seat,
            piece: NO_PIECE,
            from: from as u8,
            to: to as u8,
            value: d as u8,
            count: 1,
            captured: (to > 0 && self.opp[to] == 1) as u8,
            kind: if from == BAR {
                StepKind::Enter
            } else {
                StepKind::Move
            },
        }
    }

    /// [`Board::key`] after `st` (a step of [`Board::legal_step`]), without applying it.
    #[inline(always)]
    fn key_after(&self, st: &Step) -> u128 {
        let (f, t) = (st.from as usize, st.to as usize);
        let key = self.key - UNIT[f] + UNIT[t];
        if st.captured > 0 { key | HIT[t] } else { key }
    }

    /// The points a step may start from, as a bit set: only the bar while it is occupied (BG-6).
    /// (With [`Board::step`], the rule spelt out point by point that [`Board::movable`] packs
    /// into bit operations; the tests check one against the other.)
    #[cfg(test)]
    fn sources(&self) -> u32 {
        if self.own[BAR] > 0 {
            1 << BAR
        } else {
            self.occupied
        }
    }

    /// The step of one checker from `from` with die `d`, if legal now.
    #[cfg(test)]
    fn step(&self, from: usize, d: usize) -> Option<Step> {
        if self.own[from] == 0 || (from != BAR && self.own[BAR] > 0) {
            return None;
        }
        if from > d {
            // BG-3: every landing must be open.
            if self.opp[from - d] >= 2 {
                return None;
            }
        } else {
            // Bearing off: every checker home; a higher die only from the highest point.
            if self.outside > 0 {
                return None;
            }
            if from < d && self.own[from + 1..=6].iter().any(|&c| c > 0) {
                return None;
            }
        }
        // Legal: the same step the search makes.
        Some(self.legal_step(from, d))
    }

    /// Applies a step; with `KEY` false the key is left stale (doubles list plays without it).
    #[inline(always)]
    fn apply<const KEY: bool>(&mut self, st: &Step) {
        let (f, t) = (st.from as usize, st.to as usize);
        self.own[f] -= 1;
        self.own[t] += 1;
        if self.own[f] == 0 {
            self.occupied &= !(1 << f);
        }
        if t > 0 {
            self.occupied |= 1 << t;
        }
        if KEY {
            // (UNIT[0] is 0: bearing off adds nothing.)
            self.key = self.key - UNIT[f] + UNIT[t];
        }
        if f > 6 && t <= 6 {
            self.outside -= 1;
        }
        if st.captured > 0 {
            self.opp[t] = 0;
            if KEY {
                self.key |= HIT[t];
            }
        }
    }

    /// Undoes [`Board::apply`] (the same `KEY`).
    #[inline(always)]
    fn undo<const KEY: bool>(&mut self, st: &Step) {
        let (f, t) = (st.from as usize, st.to as usize);
        self.own[f] += 1;
        self.own[t] -= 1;
        self.occupied |= 1 << f;
        if t > 0 && self.own[t] == 0 {
            self.occupied &= !(1 << t);
        }
        if KEY {
            self.key = self.key + UNIT[f] - UNIT[t];
        }
        if f > 6 && t <= 6 {
            self.outside += 1;
        }
        if st.captured > 0 {
            self.opp[t] = 1;
            if KEY {
                self.key &= !HIT[t];
            }
        }
    }
}

/// [`Board::movable`] from the board's bit sets (`occupied` includes the bar, bit 25).
#[inline(always)]
fn movable(occupied: u32, open: u32, all_home: bool, d: usize) -> u32 {
    if occupied & (1 << BAR) != 0 {
        return ((open >> (BAR - d)) & 1) << BAR;
    }
    // Moves that stay on the board: from a point above `d` to an open point.
    let mut m = occupied & (open << d) & !((2u32 << d) - 1);
    if all_home && occupied != 0 {
        // Bearing off: from point `d` exactly, or from the highest point when it is lower.
        m |= occupied & (1 << d);
        let high = 31 - occupied.leading_zeros();
        if (high as usize) < d {
            m |= 1 << high;
        }
    }
    m
}

/// The points of a bit set, highest first.
#[inline(always)]
fn highest_first(mut set: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let p = 31 - set.leading_zeros();
        set &= !(1 << p);
        Some(p as usize)
    })
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
    let mut b = Board::new(s);
    let [d1, d2] = s.dice;
    if d1 == d2 {
        let mut play = Play::new();
        let mut best = 0usize;
        doubles(
            &mut b,
            d1 as usize,
            BAR,
            orders == Orders::Distinct,
            &mut play,
            &mut best,
            out,
        );
        // BG-5: as many of the four moves as possible (`doubles` kept only the longest plays);
        // no move at all is no play.
        if best == 0 {
            out.clear();
        }
        return;
    }
    let (hi, lo) = (d1.max(d2) as usize, d1.min(d2) as usize);
    let distinct = orders == Orders::Distinct;
    SEEN.with_borrow_mut(|seen| two_values(&mut b, hi, lo, distinct, seen, out));
}

/// Whether the roll in `s.dice` has a legal play: whether some die has a legal step now.
///
/// Equivalent to [`generate_list`] listing at least one play. A legal step of one die is itself
/// a play of one die, so the most dice that can be played (BG-1, BG-5) is at least one, and the
/// plays kept (the longest; for non-doubles the higher die when only one can be played, BG-4)
/// are not empty; conversely every listed play begins with a legal step of one of the dice
/// (the generator never lists the empty play). [`Board::movable`] is exactly the set of legal
/// sources of a step (the bar first, BG-6; open landings, BG-3; bearing off), as the tests
/// check. `core/tests/has_play.rs` compares the two on random positions and every roll.
pub(super) fn any_step(s: &BgState) -> bool {
    // Only the bit sets `movable` reads (not the whole `Board`, whose key costs more).
    let seat = s.turn as usize;
    let (own, theirs) = (&s.checkers[seat], &s.checkers[1 - seat]);
    let (mut occupied, mut open) = (0u32, 0u32);
    for p in 1..=24 {
        occupied |= ((own[p] > 0) as u32) << p;
        open |= ((theirs[25 - p] < 2) as u32) << p;
    }
    occupied |= ((own[BAR] > 0) as u32) << BAR;
    let all_home = own[7..=BAR].iter().all(|&c| c == 0);
    let [d1, d2] = s.dice;
    movable(occupied, open, all_home, d1 as usize) != 0
        || (d2 != d1 && movable(occupied, open, all_home, d2 as usize) != 0)
}

thread_local! {
    /// The positions listed by [`two_values`], kept per thread so a call allocates nothing.
    static SEEN: std::cell::RefCell<KeySet<u128>> = const { std::cell::RefCell::new(KeySet::new()) };
    /// The list [`generate`] fills before it copies the plays out as [`Play`]s.
    static LIST: std::cell::RefCell<PlayList> = const { std::cell::RefCell::new(PlayList::new()) };
}

/// The plays of two different values (BG-1, BG-2, BG-4) into `out` (empty).
fn two_values(
    b: &mut Board,
    hi: usize,
    lo: usize,
    distinct: bool,
    seen: &mut KeySet<u128>,
    out: &mut PlayList,
) {
    seen.clear();
    let mut single = [false; 2]; // hi alone, lo alone playable
    // first_hi[a] bit b: hi from a then lo from b was legal. The same two steps in the other
    // order lead to the same position, so the lo-first pass skips them.
    let mut first_hi = [0u32; 26];
    for (first, second, idx) in [(hi, lo, 0usize), (lo, hi, 1usize)] {
        // Only the legal steps, highest point first (`movable`): the order `step` checked
        // every source in, without the failed checks.
        let firsts = b.movable(first);
        single[idx] = firsts != 0;
        for from1 in highest_first(firsts) {
            let s1 = b.legal_step(from1, first);
            b.apply::<true>(&s1);
            let seconds = b.movable(second);
            if idx == 0 {
                first_hi[from1] = seconds;
            }
            for from2 in highest_first(seconds) {
                if distinct && idx == 1 && first_hi[from2] & (1 << from1) != 0 {
                    continue;
                }
                let s2 = b.legal_step(from2, second);
                if distinct && !seen.insert(b.key_after(&s2)) {
                    continue;
                }
                out.push(&[s1, s2]);
            }
            b.undo::<true>(&s1);
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
    for from in highest_first(b.movable(die)) {
        out.push(&[b.legal_step(from, die)]);
    }
}

/// Walks the steps of a doubles roll; with `canonical` the sources never increase. Lists only
/// the longest plays found so far (BG-5): a longer one drops those listed before it, which leaves
/// the longest in the order of the walk.
fn doubles(
    b: &mut Board,
    d: usize,
    max_from: usize,
    canonical: bool,
    play: &mut Play,
    best: &mut usize,
    out: &mut PlayList,
) {
    let mut extended = false;
    if play.len() < 4 {
        let allowed = if canonical {
            (1u32 << (max_from + 1)) - 1
        } else {
            u32::MAX
        };
        for from in highest_first(b.movable(d) & allowed) {
            let st = b.legal_step(from, d);
            extended = true;
            b.apply::<false>(&st);
            play.push(st);
            doubles(b, d, from, canonical, play, best, out);
            play.pop();
            b.undo::<false>(&st);
        }
    }
    if !extended && play.len() >= *best {
        if play.len() > *best {
            *best = play.len();
            out.clear();
        }
        out.push(play.steps());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::rng_from_seed;
    use crate::system::{Node, RuleSystem, SystemRules};

    /// `movable` and `legal_step` against `step`, the rule checked point by point, at every
    /// decision of random games, after each first step too (every die value).
    #[test]
    fn movable_matches_step() {
        let system = super::super::BackgammonRules::standard().build().unwrap();
        let check = |b: &Board| {
            for d in 1..=6 {
                let mut expected = 0u32;
                for from in highest_first(b.sources()) {
                    if let Some(st) = b.step(from, d) {
                        expected |= 1 << from;
                        assert!(st == b.legal_step(from, d));
                    }
                }
                assert_eq!(b.movable(d), expected, "die {d}");
            }
        };
        let mut list = PlayList::new();
        let mut checked = 0;
        for seed in 0..40 {
            let mut rng = rng_from_seed(seed);
            let mut s = system.initial_state();
            while system.node(&s) != Node::Over && checked < 20_000 {
                if system.node(&s) == Node::Chance {
                    let roll = system.sample_roll(&s, &mut rng);
                    system.begin_roll(&mut s, roll);
                    continue;
                }
                let mut b = Board::new(&s);
                let own = &s.checkers[s.turn as usize];
                let expected: u128 = (1..=BAR).map(|p| (own[p] as u128) << (4 * (p - 1))).sum();
                assert_eq!(b.key, expected);
                check(&b);
                system.generate_list(&s, Orders::Distinct, &mut list);
                for play in list.iter() {
                    let key = b.key;
                    for st in play {
                        assert_eq!(b.key_after(st), {
                            b.apply::<true>(st);
                            b.key
                        });
                        check(&b);
                    }
                    for st in play.iter().rev() {
                        b.undo::<true>(st);
                    }
                    assert_eq!(b.key, key);
                }
                checked += 1;
                let n = list.len();
                let steps = match n {
                    0 => vec![],
                    n => list.get(crate::sim::uniform_index(&mut rng, n)).to_vec(),
                };
                for st in &steps {
                    system.apply_step(&mut s, st);
                }
                system.end_play(&mut s, &steps);
            }
        }
        assert!(checked > 1_000);
    }
}
