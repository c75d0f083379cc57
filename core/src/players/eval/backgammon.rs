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

/// The pip count of one side (its own numbering; the bar counts 25).
fn pips(side: &[u8; 26]) -> u32 {
    (1..=BAR).map(|i| i as u32 * side[i] as u32).sum()
}

/// The highest point (own numbering, 25 = the bar) holding one of the side's checkers.
fn rearmost(side: &[u8; 26]) -> usize {
    (1..=BAR).rev().find(|&i| side[i] > 0).unwrap_or(0)
}

/// Rolls (in 36ths) with which the attacker hits the blot at the victim's point `p`: a die or
/// the dice in turn (doubles up to four times), every landing on the way open.
fn shots(victim: &[u8; 26], attacker: &[u8; 26], p: usize) -> u32 {
    // The blot is the attacker's point 25 - p; the attacker's point x is the victim's 25 - x.
    let target = 25 - p as i32;
    let open = |x: i32| (1..=24).contains(&x) && victim[(25 - x) as usize] < 2;
    let mut n = 0;
    for a in 1..=6i32 {
        for b in a..=6i32 {
            let hits = (target + 1..=25).any(|q| {
                if attacker[q as usize] == 0 {
                    return false;
                }
                let d = q - target;
                if a != b {
                    d == a || d == b || (d == a + b && (open(q - a) || open(q - b)))
                } else {
                    (1..=4).any(|k| d == k * a && (1..k).all(|j| open(q - j * a)))
                }
            });
            if hits {
                n += if a == b { 1 } else { 2 };
            }
        }
    }
    n
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
    ];

    fn features(&self, s: &BgState, out: &mut [Row; 4]) {
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
}
