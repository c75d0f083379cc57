//! PubEval: Gerald Tesauro's public linear backgammon evaluator, the usual outside benchmark of
//! backgammon programs.
//!
//! Tesauro published it in 1993 (Usenet, rec.games.backgammon) "as a public service to the
//! backgammon programming community", for benchmark comparisons; the BSD games' backgammon
//! carries it as public domain. Its two weight vectors below (race and contact, 122 numbers each)
//! are that publication's data. The input encoding is implemented here from its description:
//!
//! - The position after the move, from the mover's side: for each of its points 24 down to 1
//!   (point `p` = the mover's own numbering, its checkers travel from 24 to 1), five inputs
//!   `x[5 (24 - p) + k]`: `k = 0` is 1 for a lone opposing checker (an opposing blot), `k = 1`
//!   is 1 for one own checker, `k = 2` is 1 for two or more own checkers, `k = 3` is 1 for
//!   exactly three, `k = 4` is `(n - 3) / 2` for `n >= 4` own checkers. Opposing points with two
//!   or more checkers are not encoded.
//! - `x[120]`: opposing checkers on the bar, halved; `x[121]`: own checkers borne off, / 15.
//!   (The mover's own checkers on the bar are not an input.)
//! - The score is the dot product with the *race* weights if the position **before** the move
//!   was a race (no contact: every own checker past every opposing one), else with the
//!   *contact* weights. A move that bears off the last checker scores above every other.
//!
//! The player `pubeval` chooses the legal play with the highest score (one ply; ties broken by
//! the player's generator). It plays cubeless: the cube actions it may meet score alike except
//! a drop, which loses at once.

use super::Evaluate;
use super::greedy::{best_index, child};
use crate::backgammon::{BAR, BgState, OFF, Phase};
use crate::dice::GameRng;
use crate::play::Play;

/// The number of inputs (and weights of each set).
pub(crate) const INPUTS: usize = 122;

/// The race weights (Tesauro's `wr`).
#[rustfmt::skip]
pub(crate) const RACE: [f64; INPUTS] = [
    0.00000, -0.17160, 0.27010, 0.29906, -0.08471, 0.00000, -1.40375, -1.05121,
    0.07217, -0.01351, 0.00000, -1.29506, -2.16183, 0.13246, -1.03508, 0.00000,
    -2.29847, -2.34631, 0.17253, 0.08302, 0.00000, -1.27266, -2.87401, -0.07456,
    -0.34240, 0.00000, -1.34640, -2.46556, -0.13022, -0.01591, 0.00000, 0.27448,
    0.60015, 0.48302, 0.25236, 0.00000, 0.39521, 0.68178, 0.05281, 0.09266,
    0.00000, 0.24855, -0.06844, -0.37646, 0.05685, 0.00000, 0.17405, 0.00430,
    0.74427, 0.00576, 0.00000, 0.12392, 0.31202, -0.91035, -0.16270, 0.00000,
    0.01418, -0.10839, -0.02781, -0.88035, 0.00000, 1.07274, 2.00366, 1.16242,
    0.22520, 0.00000, 0.85631, 1.06349, 1.49549, 0.18966, 0.00000, 0.37183,
    -0.50352, -0.14818, 0.12039, 0.00000, 0.13681, 0.13978, 1.11245, -0.12707,
    0.00000, -0.22082, 0.20178, -0.06285, -0.52728, 0.00000, -0.13597, -0.19412,
    -0.09308, -1.26062, 0.00000, 3.05454, 5.16874, 1.50680, 5.35000, 0.00000,
    2.19605, 3.85390, 0.88296, 2.30052, 0.00000, 0.92321, 1.08744, -0.11696,
    -0.78560, 0.00000, -0.09795, -0.83050, -1.09167, -4.94251, 0.00000, -1.00316,
    -3.66465, -2.56906, -9.67677, 0.00000, -2.77982, -7.26713, -3.40177, -12.32252,
    0.00000, 3.42040,
];

/// The contact weights (Tesauro's `wc`).
#[rustfmt::skip]
pub(crate) const CONTACT: [f64; INPUTS] = [
    0.25696, -0.66937, -1.66135, -2.02487, -2.53398, -0.16092, -1.11725, -1.06654,
    -0.92830, -1.99558, -1.10388, -0.80802, 0.09856, -0.62086, -1.27999, -0.59220,
    -0.73667, 0.89032, -0.38933, -1.59847, -1.50197, -0.60966, 1.56166, -0.47389,
    -1.80390, -0.83425, -0.97741, -1.41371, 0.24500, 0.10970, -1.36476, -1.05572,
    1.15420, 0.11069, -0.38319, -0.74816, -0.59244, 0.81116, -0.39511, 0.11424,
    -0.73169, -0.56074, 1.09792, 0.15977, 0.13786, -1.18435, -0.43363, 1.06169,
    -0.21329, 0.04798, -0.94373, -0.22982, 1.22737, -0.13099, -0.06295, -0.75882,
    -0.13658, 1.78389, 0.30416, 0.36797, -0.69851, 0.13003, 1.23070, 0.40868,
    -0.21081, -0.64073, 0.31061, 1.59554, 0.65718, 0.25429, -0.80789, 0.08240,
    1.78964, 0.54304, 0.41174, -1.06161, 0.07851, 2.01451, 0.49786, 0.91936,
    -0.90750, 0.05941, 1.83120, 0.58722, 1.28777, -0.83711, -0.33248, 2.64983,
    0.52698, 0.82132, -0.58897, -1.18223, 3.35809, 0.62017, 0.57353, -0.07276,
    -0.36214, 4.37655, 0.45481, 0.21746, 0.10504, -0.61977, 3.54001, 0.04612,
    -0.18108, 0.63211, -0.87046, 2.47673, -0.48016, -1.27157, 0.86505, -1.11342,
    1.24612, -0.82385, -2.77082, 1.23606, -1.59529, 0.10438, -1.30206, -4.11520,
    5.62596, -2.75800,
];

/// The score of a move that bears off the last checker: above every board's dot product.
pub(crate) const WON: f64 = 1e9;

/// Whether the sides are past each other (a race): every checker of one side has passed every
/// checker of the other. `own` and `opp` are in their own numberings (the bar counts 25).
pub(crate) fn is_race(own: &[u8; 26], opp: &[u8; 26]) -> bool {
    let rear = |side: &[u8; 26]| (1..=BAR).rev().find(|&i| side[i] > 0).unwrap_or(0);
    // Own point p is the opponent's point 25 - p: contact while own rear + opposing rear > 25.
    rear(own) + rear(opp) <= 25
}

/// The 122 inputs of the position `own` (the side that has just moved) against `opp`.
pub(crate) fn inputs(own: &[u8; 26], opp: &[u8; 26]) -> [f64; INPUTS] {
    let mut x = [0.0; INPUTS];
    for p in 1..=24usize {
        let base = 5 * (24 - p);
        let n = own[p];
        if n == 0 {
            // The opponent's checkers on own point p stand on its point 25 - p.
            if opp[25 - p] == 1 {
                x[base] = 1.0;
            }
            continue;
        }
        if n == 1 {
            x[base + 1] = 1.0;
        } else {
            x[base + 2] = 1.0;
        }
        if n == 3 {
            x[base + 3] = 1.0;
        }
        if n >= 4 {
            x[base + 4] = (n as f64 - 3.0) / 2.0;
        }
    }
    x[120] = opp[BAR] as f64 / 2.0;
    x[121] = own[OFF] as f64 / 15.0;
    x
}

/// PubEval's score of the position `own` against `opp` after own move, with the race weights
/// if `race` (decided before the move) and the contact weights otherwise.
pub(crate) fn score(race: bool, own: &[u8; 26], opp: &[u8; 26]) -> f64 {
    if own[OFF] == 15 {
        return WON;
    }
    let w = if race { &RACE } else { &CONTACT };
    inputs(own, opp).iter().zip(w).map(|(x, w)| x * w).sum()
}

/// The score of `after`, the position after the mover of `before` played, for that mover.
pub(crate) fn score_after(before: &BgState, after: &BgState) -> f64 {
    let me = before.turn as usize;
    match after.phase {
        // A drop: the side on turn (the doubler) won the cube's value.
        Phase::Dropped => {
            if after.turn as usize == me {
                WON
            } else {
                -WON
            }
        }
        _ => {
            let race = is_race(&before.checkers[me], &before.checkers[1 - me]);
            score(race, &after.checkers[me], &after.checkers[1 - me])
        }
    }
}

/// The index of the play PubEval scores highest at `s` ([`Evaluate::pubeval`]; a system without
/// PubEval scores every play alike); ties broken uniformly with `rng`.
pub(crate) fn choose<R: Evaluate>(
    sys: &R,
    s: &R::State,
    plays: &[Play],
    rng: &mut GameRng,
) -> usize {
    best_index(plays, rng, |play| {
        sys.pubeval(s, &child(sys, s, play)).unwrap_or(0.0)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Roll;
    use crate::backgammon::{BackgammonRules, BackgammonSystem};
    use crate::dice::rng_from_seed;
    use crate::system::{Orders, RuleSystem, SystemRules};

    fn system() -> BackgammonSystem {
        BackgammonRules::standard().build().unwrap()
    }

    /// A position with seat 0 to play `dice`: `own` and `opp` as (point, checkers) lists in each
    /// side's numbering, the rest of each side's 15 checkers borne off.
    fn position(own: &[(usize, u8)], opp: &[(usize, u8)], dice: [u8; 2]) -> BgState {
        let mut s = BgState::start(Phase::Roll);
        for (side, list) in [own, opp].into_iter().enumerate() {
            s.checkers[side] = [0; 26];
            for &(p, n) in list {
                s.checkers[side][p] = n;
            }
            let on_board: u8 = s.checkers[side].iter().sum();
            s.checkers[side][OFF] = 15 - on_board;
        }
        s.turn = 0;
        system().begin_roll(&mut s, Roll::Dice(dice));
        s
    }

    fn plays(s: &BgState) -> Vec<Play> {
        let mut out = Vec::new();
        system().generate(s, Orders::Distinct, &mut out);
        out
    }

    #[test]
    fn the_encoding_follows_the_description() {
        let mut own = [0u8; 26];
        let mut opp = [0u8; 26];
        own[24] = 1; // one own checker on the 24 point: block 0, input 1
        own[6] = 5; // five on the 6 point: block 18, inputs 2 and 4 (= (5 - 3) / 2)
        own[8] = 3; // three on the 8 point: block 16, inputs 2 and 3
        opp[20] = 1; // an opposing blot on its 20 point = own 5 point: block 19, input 0
        opp[12] = 2; // an opposing point (its 12 = own 13): not an input
        own[BAR] = 1; // own checkers on the bar: not an input
        own[OFF] = 4;
        opp[BAR] = 3;
        let x = inputs(&own, &opp);
        let mut expected = [0.0; INPUTS];
        expected[1] = 1.0;
        expected[5 * 18 + 2] = 1.0;
        expected[5 * 18 + 4] = 1.0;
        expected[5 * 16 + 2] = 1.0;
        expected[5 * 16 + 3] = 1.0;
        expected[5 * 19] = 1.0;
        expected[120] = 1.5;
        expected[121] = 4.0 / 15.0;
        assert_eq!(x, expected);
    }

    #[test]
    fn race_and_contact_are_told_apart() {
        let mut own = [0u8; 26];
        let mut opp = [0u8; 26];
        own[6] = 15;
        opp[6] = 15; // its 6 point is own 19: own rear 6 + its rear 6 = 12, a race
        assert!(is_race(&own, &opp));
        opp[20] = 1; // its 20 point is own 5, behind own checkers on the 6 point
        assert!(!is_race(&own, &opp));
    }

    /// The position after `play` from `s`, seat 0's checkers.
    fn own_after(s: &BgState, play: &Play) -> [u8; 26] {
        child(&system(), s, play).checkers[0]
    }

    /// A race, two own checkers on the 6 point, 13 off, 5-1 to play: the end positions are
    /// {5, 1} (6/1 6/5) and {6}, one more off (6/5 5/off or 6/1 1/off). By hand from the race
    /// weights (block of own point p: 5 (24 - p); wr[96] = 2.19605, wr[116] = -2.77982,
    /// wr[91] = 3.05454, wr[121] = 3.42040):
    ///   {5, 1}: 2.19605 - 2.77982 + 3.42040 * 13/15 = 2.380577
    ///   {6}:    3.05454 + 3.42040 * 14/15          = 6.246913
    /// so PubEval bears a checker off.
    #[test]
    fn race_choice_agrees_with_scores_computed_by_hand() {
        let s = position(&[(6, 2)], &[(6, 15)], [5, 1]);
        assert!(is_race(&s.checkers[0], &s.checkers[1]));
        let ps = plays(&s);
        let mut seen = Vec::new();
        for p in &ps {
            let own = own_after(&s, p);
            let v = score_after(&s, &child(&system(), &s, p));
            if own[5] == 1 && own[1] == 1 {
                assert!((v - 2.380577).abs() < 1e-5, "{v}");
                seen.push(false);
            } else {
                assert_eq!((own[6], own[OFF]), (1, 14));
                assert!((v - 6.246913).abs() < 1e-5, "{v}");
                seen.push(true);
            }
        }
        assert!(seen.contains(&true) && seen.contains(&false));
        for seed in 0..8 {
            let i = choose(&system(), &s, &ps, &mut rng_from_seed(seed));
            assert_eq!(own_after(&s, &ps[i])[OFF], 14);
        }
    }

    /// The opening 3-1 (contact weights): PubEval makes the 5 point (8/5 6/5). By hand, the
    /// blocks that change from the starting position: the 8 point 3 -> 2 checkers (wc[82] +
    /// wc[83] -> wc[82]), the 6 point 5 -> 4 (wc[92] + wc[94] * 1 -> wc[92] + wc[94] * 0.5), the
    /// 5 point 0 -> 2 (+ wc[97]): a change of -0.58722 - 0.286765 + 4.37655 = +3.502565.
    #[test]
    fn contact_choice_agrees_with_a_score_computed_by_hand() {
        let mut s = BgState::start(Phase::Roll);
        s.turn = 0;
        system().begin_roll(&mut s, Roll::Dice([3, 1]));
        let start = score(false, &s.checkers[0], &s.checkers[1]);
        let ps = plays(&s);
        let i = choose(&system(), &s, &ps, &mut rng_from_seed(3));
        let own = own_after(&s, &ps[i]);
        assert_eq!((own[8], own[6], own[5]), (2, 4, 2));
        let v = score_after(&s, &child(&system(), &s, &ps[i]));
        assert!((v - start - 3.502565).abs() < 1e-5, "{}", v - start);
    }

    #[test]
    fn bearing_off_the_last_checker_wins_and_a_drop_loses() {
        let s = position(&[(2, 1)], &[(6, 15)], [3, 1]);
        let ps = plays(&s);
        let i = choose(&system(), &s, &ps, &mut rng_from_seed(0));
        assert_eq!(own_after(&s, &ps[i])[OFF], 15);
        let mut dropped = s;
        dropped.phase = Phase::Dropped;
        dropped.turn = 1;
        assert_eq!(score_after(&s, &dropped), -WON);
    }
}
