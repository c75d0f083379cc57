//! The evaluator of backgammon.

use super::{Evaluate, Feature, Row};
use crate::backgammon::{BAR, BackgammonSystem, BgState, OFF, Phase};
use crate::players::Decision;

const PROGRESS: usize = 0;
const OFF_F: usize = 1;
const RISK: usize = 2;
const HOME_POINTS: usize = 3;
const ANCHOR: usize = 4;
const PRIME: usize = 5;
const BAR_F: usize = 6;
const ESCAPE: usize = 7;
const CONTAIN: usize = 8;
const HIT: usize = 9;
const DANCE: usize = 10;
/// The features a learned evaluator reads but the hand-set weights do not (weight 0): bits for
/// [`Evaluate::features_used`], so that `greedy` does not pay for them.
const LEARNED_ONLY: u16 = 1 << ESCAPE | 1 << CONTAIN | 1 << HIT | 1 << DANCE;

/// The pip count of one side (its own numbering; the bar counts 25).
fn pips(side: &[u8; 26]) -> u32 {
    (1..=BAR).map(|i| i as u32 * side[i] as u32).sum()
}

/// The highest point (own numbering, 25 = the bar) holding one of the side's checkers.
fn rearmost(side: &[u8; 26]) -> usize {
    (1..=BAR).rev().find(|&i| side[i] > 0).unwrap_or(0)
}

/// Whether a checker of the side can land on its point `x` (a point past its 1 point, a
/// bear-off, counts as open here): not a point `blocker` (the other side) has made.
fn open_for(blocker: &[u8; 26], x: i32) -> bool {
    !(1..=24).contains(&x) || blocker[(25 - x) as usize] < 2
}

/// Whether a checker at distance `d` ahead can be reached with the roll `a`-`b`: a die, the two
/// dice in turn (either order, the first landing open), or a double up to four times (every
/// landing open); `open(k)` says whether the landing `k` pips ahead is open.
fn reaches(a: i32, b: i32, d: i32, open: impl Fn(i32) -> bool) -> bool {
    if a != b {
        d == a || d == b || (d == a + b && (open(a) || open(b)))
    } else {
        (1..=4).any(|k| d == k * a && (1..k).all(|j| open(j * a)))
    }
}

/// The rolls (in 36ths) for which `holds(a, b)` is true, over the 21 distinct rolls `a <= b`.
fn count_rolls(mut holds: impl FnMut(i32, i32) -> bool) -> u32 {
    let mut n = 0;
    for a in 1..=6i32 {
        for b in a..=6i32 {
            if holds(a, b) {
                n += if a == b { 1 } else { 2 };
            }
        }
    }
    n
}

/// Whether the attacker hits the victim's blot at the attacker's point `target` with the roll
/// `a`-`b`: from one of its checkers behind it (the bar included), every landing on the way
/// open (on the board and not made by the victim).
fn hits(victim: &[u8; 26], attacker: &[u8; 26], target: i32, a: i32, b: i32) -> bool {
    // The attacker's point x is the victim's 25 - x.
    let open = |x: i32| (1..=24).contains(&x) && victim[(25 - x) as usize] < 2;
    (target + 1..=25)
        .any(|q| attacker[q as usize] > 0 && reaches(a, b, q - target, |k| open(q - k)))
}

/// Rolls (in 36ths) a checker of the side at its point `p` (25: the bar) can play in full on
/// its own, every landing open (the two dice in either order; a double four times): how freely
/// it moves through the points `blocker` holds ahead of it. Landings past the side's 1 point
/// count as open. A checker behind a six-point prime scores 0, one with nothing ahead 36.
/// The reference of [`EscapeMasks`], which counts every point at once.
#[cfg(test)]
fn escapes(blocker: &[u8; 26], p: usize) -> u32 {
    let p = p as i32;
    let open = |k: i32| open_for(blocker, p - k);
    count_rolls(|a, b| {
        let total = if a == b { 4 * a } else { a + b };
        open(total) && reaches(a, b, total, open)
    })
}

/// `escapes` for every point at once: for each of the 21 distinct rolls (in `count_rolls`'s
/// order), the set of the side's points from which a checker plays the roll in full on its own
/// (bit `p + 24` for the point `p`), so a point's count is 21 bit tests instead of a walk over
/// the landings of every roll.
struct EscapeMasks([u64; 21]);

impl EscapeMasks {
    /// The masks for the side whose checkers face the points `blocker` has made.
    fn new(blocker: &[u8; 26]) -> EscapeMasks {
        // Bit `x + 24` for each open landing `x` (-24 to 24, the side's numbering): every point
        // past the 1 point, and the points 1 to 24 `blocker` has not made.
        let mut open: u64 = (1 << 25) - 1;
        for x in 1..=24 {
            if blocker[25 - x] < 2 {
                open |= 1 << (x + 24);
            }
        }
        // Bit `p + 24` of `ahead(k)`: the landing `k` pips ahead of the point `p` is open.
        let ahead = |k: i32| open << k;
        let mut masks = [0u64; 21];
        let mut i = 0;
        for a in 1..=6i32 {
            for b in a..=6i32 {
                masks[i] = if a == b {
                    ahead(a) & ahead(2 * a) & ahead(3 * a) & ahead(4 * a)
                } else {
                    // Either die first, then the other to the sum.
                    ahead(a + b) & (ahead(a) | ahead(b))
                };
                i += 1;
            }
        }
        EscapeMasks(masks)
    }

    /// The rolls (in 36ths) a checker at the point `p` (25: the bar) plays in full on its own.
    fn count(&self, p: usize) -> u32 {
        // The masks are in `count_rolls`'s order of the rolls.
        let mut masks = self.0.iter();
        count_rolls(|_, _| masks.next().is_some_and(|m| m >> (p + 24) & 1 == 1))
    }
}

/// Rolls (in 36ths) with which the attacker hits at least one of the victim's blots (points
/// 1 to 24, the victim's numbering).
fn hit_rolls(victim: &[u8; 26], attacker: &[u8; 26]) -> u32 {
    // The blots as the attacker's points (one per point at most).
    let mut at = [0i32; 24];
    let mut count = 0;
    for p in (1..=24).filter(|&p| victim[p] == 1) {
        at[count] = 25 - p as i32;
        count += 1;
    }
    if count == 0 {
        return 0;
    }
    let blots = &at[..count];
    count_rolls(|a, b| blots.iter().any(|&t| hits(victim, attacker, t, a, b)))
}

/// Rolls (in 36ths) with which the attacker hits the blot at the victim's point `p`: a die or
/// the dice in turn (doubles up to four times), every landing on the way open.
fn shots(victim: &[u8; 26], attacker: &[u8; 26], p: usize) -> u32 {
    count_rolls(|a, b| hits(victim, attacker, 25 - p as i32, a, b))
}

impl Evaluate for BackgammonSystem {
    const FEATURES: &'static [Feature] = &[
        Feature {
            name: "progress",
            weight: 1.0,
            doc: "minus the pip count",
        },
        Feature {
            name: "off",
            weight: 0.5,
            doc: "checkers borne off",
        },
        Feature {
            name: "risk",
            weight: -1.0,
            doc: "pips expected to be lost to a hit: for each blot, the share of the opponent's \
                  rolls that hit it (direct and combined shots, landings open) times the pips it \
                  would lose; none for the side on roll, which moves first",
        },
        Feature {
            name: "home_points",
            weight: 2.0,
            doc: "points made (two or more checkers) in the home board, while the sides are in \
                  contact",
        },
        Feature {
            name: "anchor",
            weight: 1.5,
            doc: "points made in the opponent's home board, while in contact",
        },
        Feature {
            name: "prime",
            weight: 1.5,
            doc: "the longest run of made points, while in contact",
        },
        Feature {
            name: "bar",
            weight: -2.0,
            doc: "checkers on the bar (beyond their pips)",
        },
        Feature {
            name: "escape",
            weight: 0.0,
            doc: "share of the rolls the side's rearmost checker can play in full on its own, \
                  every landing open (a double four times): 0 behind a six-point prime, 1 with \
                  nothing ahead; while in contact; read by the learned evaluator",
        },
        Feature {
            name: "contain",
            weight: 0.0,
            doc: "one minus the least `escape` share of an opponent's checker on any of the \
                  opponent's points 15 to 24 (the side's home board and the four points \
                  before it), while in contact; read by the learned evaluator",
        },
        Feature {
            name: "hit",
            weight: 0.0,
            doc: "share of the opponent's rolls that hit at least one of the side's blots, \
                  while in contact; none for the side on roll; read by the learned evaluator",
        },
        Feature {
            name: "dance",
            weight: 0.0,
            doc: "with checkers on the bar: the share of the rolls that enter none, (points \
                  closed in the opponent's home board / 6) squared; read by the learned \
                  evaluator",
        },
    ];

    fn features(&self, s: &BgState, out: &mut [Row; 4]) {
        self.features_used(s, out, u16::MAX);
    }

    fn features_used(&self, s: &BgState, out: &mut [Row; 4], used: u16) {
        let learned = used & LEARNED_ONLY != 0;
        // The sides are in contact while a checker of one still has to pass one of the other.
        let contact = rearmost(&s.checkers[0]) + rearmost(&s.checkers[1]) > 25;
        for (v, row) in out.iter_mut().enumerate().take(2) {
            let own = &s.checkers[v];
            let opp = &s.checkers[1 - v];
            row.fill(0.0);
            row[PROGRESS] = -(pips(own) as f64);
            row[OFF_F] = own[OFF] as f64;
            if !contact {
                continue;
            }
            row[BAR_F] = own[BAR] as f64;
            let made = |i: usize| own[i] >= 2;
            row[HOME_POINTS] = (1..=6).filter(|&i| made(i)).count() as f64;
            row[ANCHOR] = (19..=24).filter(|&i| made(i)).count() as f64;
            let mut run = 0;
            let mut best = 0;
            for i in 1..=24 {
                run = if made(i) { run + 1 } else { 0 };
                best = best.max(run);
            }
            row[PRIME] = best as f64;
            // The side on roll moves before it can be hit: only the other side's blots count.
            let on_roll = v as u8 == s.turn && s.phase != Phase::Over;
            for p in 1..=24 {
                if own[p] == 1 && !on_roll {
                    let lost = (BAR - p) as f64;
                    row[RISK] += shots(own, opp, p) as f64 / 36.0 * lost;
                }
            }
            if !learned {
                continue;
            }
            row[ESCAPE] = EscapeMasks::new(opp).count(rearmost(own)) as f64 / 36.0;
            let theirs = EscapeMasks::new(own);
            let least = (15..=24).map(|p| theirs.count(p)).min().unwrap_or(36);
            row[CONTAIN] = 1.0 - least as f64 / 36.0;
            if !on_roll {
                row[HIT] = hit_rolls(own, opp) as f64 / 36.0;
            }
            if own[BAR] > 0 {
                let closed = (19..=24).filter(|&x| !open_for(opp, x)).count() as f64;
                row[DANCE] = (closed / 6.0) * (closed / 6.0);
            }
        }
    }

    fn scale(&self, s: &BgState) -> f64 {
        let mean = (pips(&s.checkers[0]) + pips(&s.checkers[1])) as f64 / 2.0;
        mean.sqrt() + 2.0
    }

    fn decision<'a>(&'a self, s: &'a BgState) -> Decision<'a> {
        Decision::Backgammon(self, s)
    }

    const HAS_PUBEVAL: bool = true;

    fn pubeval(&self, before: &BgState, after: &BgState) -> Option<f64> {
        Some(crate::players::pubeval::score_after(before, after))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `EscapeMasks` counts what `escapes` counts, for every point of both sides in positions
    /// of random cubeless games.
    #[test]
    fn escape_masks_count_as_escapes_for_every_point() {
        use crate::backgammon::BackgammonRules;
        use crate::dice::rng_from_seed;
        use crate::system::Node;
        use crate::{RuleSystem, SystemRules};
        let sys = BackgammonRules::standard().build().unwrap();
        let mut rng = rng_from_seed(7);
        let mut s = sys.initial_state();
        let mut plays = Vec::new();
        let mut positions = 0;
        while positions < 300 {
            match sys.node(&s) {
                Node::Over => s = sys.initial_state(),
                Node::Chance => {
                    let roll = sys.sample_roll(&s, &mut rng);
                    sys.begin_roll(&mut s, roll);
                }
                Node::Decision => {
                    crate::players::td_input::play_at_random(&sys, &mut s, &mut rng, &mut plays);
                    for blocker in &s.checkers {
                        let masks = EscapeMasks::new(blocker);
                        for p in 1..=BAR {
                            assert_eq!(masks.count(p), escapes(blocker, p), "{blocker:?} {p}");
                        }
                    }
                    positions += 1;
                }
            }
        }
    }

    #[test]
    fn shots_count_direct_and_combined_rolls() {
        let mut victim = [0u8; 26];
        let mut attacker = [0u8; 26];
        // The victim's blot on its 20 point is the attacker's 5 point; the attacker's checker
        // on its 11 point is 6 away: 16 of 36 rolls hit directly or by a sum, plus 2-2 (2+2+2).
        victim[20] = 1;
        attacker[11] = 1;
        assert_eq!(shots(&victim, &attacker, 20), 17);
        // Blocking the attacker's 9 and 8 points (the victim's 16 and 17) leaves 5-1, 1-5,
        // 4-2 and 2-4 one open landing each, and 3-3 and 2-2 none.
        victim[16] = 2;
        victim[17] = 2;
        assert_eq!(shots(&victim, &attacker, 20), 11 + 4);
    }

    #[test]
    fn escapes_count_the_rolls_a_checker_plays_in_full() {
        let mut blocker = [0u8; 26];
        // Nothing ahead: every roll.
        assert_eq!(escapes(&blocker, 24), 36);
        // The blocker's 7 point is our 18, six pips ahead of our 24: the sums of 6 (1-5, 5-1,
        // 2-4, 4-2; 3-3 is 12 in all) land on it, and 6-x is played as x-6. 3-3 (21, 18),
        // 6-6 (18) and 2-2 (22, 20, 18) land on it too.
        blocker[7] = 2;
        assert_eq!(escapes(&blocker, 24), 36 - 4 - 3);
        // A six-point prime right ahead (our 23 to 18): no roll is played in full.
        blocker[2..=7].fill(2);
        assert_eq!(escapes(&blocker, 24), 0);
    }

    #[test]
    fn hit_rolls_count_each_roll_once() {
        let mut victim = [0u8; 26];
        let mut attacker = [0u8; 26];
        victim[20] = 1;
        attacker[11] = 1;
        assert_eq!(hit_rolls(&victim, &attacker), 17);
        // A second blot one pip nearer (5 away): the rolls that reach 5 or 6 pips, each once.
        // Non-doubles with a 5 or a 6 (18) or summing to 5 or 6 without one (1-4, 2-3, 2-4:
        // 6), and 2-2, 3-3, 5-5 and 6-6: 28, fewer than 17 plus the 5-pip blot's 15 shots.
        victim[19] = 1;
        assert_eq!(shots(&victim, &attacker, 19), 15);
        assert_eq!(hit_rolls(&victim, &attacker), 28);
        assert_eq!(hit_rolls(&[0u8; 26], &attacker), 0);
    }

    #[test]
    fn greedy_skips_the_learned_features_but_they_are_computed_on_request() {
        use crate::backgammon::BackgammonRules;
        use crate::{RuleSystem, SystemRules};
        let sys = BackgammonRules::standard().build().unwrap();
        let s = sys.initial_state();
        let mut all = [[0.0; crate::players::MAX_FEATURES]; 4];
        sys.features(&s, &mut all);
        // The opening position: the back checkers on the 24 point face the opponent's points
        // on our 19, 17 and 12: the sums of 5 and 7 (10 rolls) and 3-3, 4-4, 5-5 and 6-6 land
        // on one of them.
        assert_eq!(all[0][ESCAPE], 22.0 / 36.0);
        assert!(all[0][CONTAIN] > 0.0 && all[0][CONTAIN] < 1.0);
        let mut some = [[0.0; crate::players::MAX_FEATURES]; 4];
        sys.features_used(&s, &mut some, !LEARNED_ONLY);
        assert_eq!(some[0][ESCAPE], 0.0);
        assert_eq!(some[0][PROGRESS], all[0][PROGRESS]);
    }
}
