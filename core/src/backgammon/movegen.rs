//! Legal plays of a roll, decided on the whole move (BG-1..BG-6).
//!
//! Non-doubles try both dice orders and keep two-dice plays when any exists, else the higher
//! die alone when it can be played, else the lower (BG-1, BG-2, BG-4). Doubles walk up to four
//! steps; for distinct plays the sources are taken in non-increasing order, which reaches every
//! resulting position exactly once (a multiset of sources determines the result), so no
//! deduplication is needed; every order is walked only for the step-by-step interface.

use super::{BAR, BgState};
use crate::dedup::KeySet;
use crate::play::{NO_PIECE, Play, Step, StepKind};
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
}

const HIT_SHIFT: u32 = 100;

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
        }
    }

    /// The points a step may start from, as a bit set: only the bar while it is occupied (BG-6).
    #[inline(always)]
    fn sources(&self) -> u32 {
        if self.own[BAR] > 0 {
            1 << BAR
        } else {
            self.occupied
        }
    }

    /// The step of one checker from `from` with die `d`, if legal now.
    #[inline(always)]
    fn step(&self, from: usize, d: usize) -> Option<Step> {
        if self.own[from] == 0 || (from != BAR && self.own[BAR] > 0) {
            return None;
        }
        let to = if from > d {
            let to = from - d;
            // BG-3: every landing must be open.
            if self.opp[to] >= 2 {
                return None;
            }
            to
        } else {
            // Bearing off: every checker home; a higher die only from the highest point.
            if self.outside > 0 {
                return None;
            }
            if from < d && self.own[from + 1..=6].iter().any(|&c| c > 0) {
                return None;
            }
            0
        };
        Some(Step {
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
        })
    }

    #[inline(always)]
    fn apply(&mut self, st: &Step) {
        let (f, t) = (st.from as usize, st.to as usize);
        self.own[f] -= 1;
        self.own[t] += 1;
        if self.own[f] == 0 {
            self.occupied &= !(1 << f);
        }
        if t > 0 {
            self.occupied |= 1 << t;
        }
        self.key -= 1u128 << (4 * (f as u32 - 1));
        if t > 0 {
            self.key += 1u128 << (4 * (t as u32 - 1));
        }
        if f > 6 && t <= 6 {
            self.outside -= 1;
        }
        if st.captured > 0 {
            self.opp[t] = 0;
            self.key |= 1u128 << (HIT_SHIFT + t as u32 - 1);
        }
    }

    #[inline(always)]
    fn undo(&mut self, st: &Step) {
        let (f, t) = (st.from as usize, st.to as usize);
        self.own[f] += 1;
        self.own[t] -= 1;
        self.occupied |= 1 << f;
        if t > 0 && self.own[t] == 0 {
            self.occupied &= !(1 << t);
        }
        self.key += 1u128 << (4 * (f as u32 - 1));
        if t > 0 {
            self.key -= 1u128 << (4 * (t as u32 - 1));
        }
        if f > 6 && t <= 6 {
            self.outside += 1;
        }
        if st.captured > 0 {
            self.opp[t] = 1;
            self.key &= !(1u128 << (HIT_SHIFT + t as u32 - 1));
        }
    }
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

/// Appends the legal plays of the roll in `s.dice` to `out`.
pub(super) fn generate(s: &BgState, orders: Orders, out: &mut Vec<Play>) {
    let mut b = Board::new(s);
    let [d1, d2] = s.dice;
    if d1 == d2 {
        let start = out.len();
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
        // BG-5: as many of the four moves as possible.
        let mut keep = start;
        for i in start..out.len() {
            if out[i].len() == best {
                out[keep] = out[i];
                keep += 1;
            }
        }
        out.truncate(keep);
        if best == 0 {
            out.truncate(start);
        }
        return;
    }
    let (hi, lo) = (d1.max(d2) as usize, d1.min(d2) as usize);
    let distinct = orders == Orders::Distinct;
    SEEN.with_borrow_mut(|seen| two_values(&mut b, hi, lo, distinct, seen, out));
}

thread_local! {
    /// The positions listed by [`two_values`], kept per thread so a call allocates nothing.
    static SEEN: std::cell::RefCell<KeySet<u128>> = const { std::cell::RefCell::new(KeySet::new()) };
}

/// The plays of two different values (BG-1, BG-2, BG-4) into `out`.
fn two_values(
    b: &mut Board,
    hi: usize,
    lo: usize,
    distinct: bool,
    seen: &mut KeySet<u128>,
    out: &mut Vec<Play>,
) {
    seen.clear();
    let start = out.len();
    let mut single = [false; 2]; // hi alone, lo alone playable
    // first_hi[a] bit b: hi from a then lo from b was legal. The same two steps in the other
    // order lead to the same position, so the lo-first pass skips them.
    let mut first_hi = [0u32; 26];
    for (first, second, idx) in [(hi, lo, 0usize), (lo, hi, 1usize)] {
        for from1 in highest_first(b.sources()) {
            let Some(s1) = b.step(from1, first) else {
                continue;
            };
            single[idx] = true;
            b.apply(&s1);
            for from2 in highest_first(b.sources()) {
                if distinct && idx == 1 && first_hi[from2] & (1 << from1) != 0 {
                    continue;
                }
                if let Some(s2) = b.step(from2, second) {
                    if idx == 0 {
                        first_hi[from1] |= 1 << from2;
                    }
                    if distinct {
                        b.apply(&s2);
                        let fresh = seen.insert(b.key);
                        b.undo(&s2);
                        if !fresh {
                            continue;
                        }
                    }
                    out.push(Play::from_steps(&[s1, s2]));
                }
            }
            b.undo(&s1);
        }
    }
    if out.len() > start {
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
    for from in highest_first(b.sources()) {
        if let Some(st) = b.step(from, die) {
            out.push(Play::from_steps(&[st]));
        }
    }
}

/// Walks the steps of a doubles roll; with `canonical` the sources never increase.
fn doubles(
    b: &mut Board,
    d: usize,
    max_from: usize,
    canonical: bool,
    play: &mut Play,
    best: &mut usize,
    out: &mut Vec<Play>,
) {
    let mut extended = false;
    if play.len() < 4 {
        let allowed = if canonical {
            (1u32 << (max_from + 1)) - 1
        } else {
            u32::MAX
        };
        for from in highest_first(b.sources() & allowed) {
            if let Some(st) = b.step(from, d) {
                extended = true;
                b.apply(&st);
                play.push(st);
                doubles(b, d, from, canonical, play, best, out);
                play.pop();
                b.undo(&st);
            }
        }
    }
    if !extended && play.len() >= *best {
        *best = play.len();
        out.push(*play);
    }
}
