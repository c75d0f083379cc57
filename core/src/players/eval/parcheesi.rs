//! The evaluator of Parcheesi and Online Pachisi.

use super::{Evaluate, Feature, OFF_TRACK, ON_ROLL_RISK, REACH, Row, moves_first, multiply_misses};
use crate::board::{TRACK_LEN, entry_square, is_safe, side_of_seat, square_at};
use crate::parcheesi::{
    BRANCH, HOME, HOME_PATH, LAP, LAP_END, NEST, PIECES, ParcheesiState, ParcheesiSystem,
};
use crate::players::Decision;
use crate::system::RuleSystem;

const PROGRESS: usize = 0;
const HOME_F: usize = 1;
const NEST_F: usize = 2;
const RISK: usize = 3;
const SAFE: usize = 4;
const BLOCKADE: usize = 5;
const HOME_PATH_F: usize = 6;
const EXPOSURE: usize = 7;
const THREAT: usize = 8;
const BLOCKING: usize = 9;

/// The chance that a seat with a piece in the nest enters it on a five and moves a piece
/// `k` squares on from its entry square with the other die, for `k` in 1..=6: a five and a `k`
/// (two of 36 rolls), or double five (one roll) for `k = 5`.
fn entry_then(k: usize) -> f64 {
    match k {
        5 => 1.0 / 36.0,
        1..=6 => 2.0 / 36.0,
        _ => 0.0,
    }
}

/// Not on the shared track.
/// Squares travelled by a piece: 0 in the nest, 72 home; a piece that went round the branch
/// square (73..=76) stands behind its entry square again.
fn progress(p: u8) -> f64 {
    match p {
        LAP..=LAP_END => p as f64 - LAP_END as f64,
        _ => p as f64,
    }
}

/// Squares a piece still has to go, a piece in the nest counting as at the entry square.
fn remaining(p: u8) -> f64 {
    match p {
        NEST => HOME as f64,
        _ => HOME as f64 - progress(p),
    }
}

impl Evaluate for ParcheesiSystem {
    const FEATURES: &'static [Feature] = &[
        Feature {
            name: "progress",
            weight: 1.0,
            doc: "squares travelled by the seat's pieces: 0 in the nest, 72 home (a piece that \
                  went round stands behind its entry square again)",
        },
        Feature {
            name: "home",
            weight: 6.0,
            doc: "pieces home",
        },
        Feature {
            name: "nest",
            weight: -8.0,
            doc: "pieces in the nest (each needs a five to enter)",
        },
        Feature {
            name: "risk",
            weight: -1.2,
            doc: "squares the seat expects to lose before its next turn: for each piece an \
                  opponent may capture, the chance that the roll of an opponent moving before the \
                  seat reaches it (one die or both; a five entering on the opponent's entry \
                  square) times its progress; for the seat about to roll, half of that against \
                  every opponent",
        },
        Feature {
            name: "safe",
            weight: 2.0,
            doc: "pieces on safe squares of the track",
        },
        Feature {
            name: "blockade",
            weight: 3.0,
            doc: "blockades: track squares holding two of the seat's pieces (where blockades are on)",
        },
        Feature {
            name: "home_path",
            weight: 2.0,
            doc: "pieces in the home path, out of every opponent's reach",
        },
        Feature {
            name: "exposure",
            weight: 0.0,
            doc: "`risk` with the opponents' actual paths: a shot that would pass a blockade (any \
                  seat's) does not count, and a piece of an opponent with a piece in the nest \
                  may enter on a five and hit one to six squares past its entry square with the \
                  other die",
        },
        Feature {
            name: "threat",
            weight: 0.0,
            doc: "captures the seat expects on its next roll: for each opponent piece it may \
                  capture, the chance that the roll reaches it (one die or both, passing no \
                  blockade; a piece entering from the nest included)",
        },
        Feature {
            name: "blocking",
            weight: 0.0,
            doc: "opponent pieces stopped by the seat's blockades: pieces on the track one to \
                  twelve squares behind one of its blockades (where blockades are on)",
        },
    ];

    /// `tuned`: fitted to beat the default `greedy` in four-seat Parcheesi by the cross-entropy
    /// method of the `tune` example (docs/PLAYERS.md, *Tuned weights*). `paths`: `tuned` with
    /// half of `risk` moved to `exposure` and weights on `threat` and `blocking` (the start of
    /// a tuning run that found nothing better; docs/PLAYERS.md).
    const WEIGHT_SETS: &'static [(&'static str, &'static [(&'static str, f64)])] = &[
        (
            "tuned",
            &[
                ("progress", 0.617),
                ("home", 3.763),
                ("nest", -12.426),
                ("risk", -0.825),
                ("safe", 3.296),
                ("blockade", 1.808),
                ("home_path", 2.273),
            ],
        ),
        (
            "paths",
            &[
                ("progress", 0.617),
                ("home", 3.763),
                ("nest", -12.426),
                ("risk", -0.4),
                ("safe", 3.296),
                ("blockade", 1.808),
                ("home_path", 2.273),
                ("exposure", -0.5),
                ("threat", 3.0),
                ("blocking", 0.5),
            ],
        ),
    ];

    fn features(&self, s: &ParcheesiState, out: &mut [Row; 4]) {
        self.features_used(s, out, u16::MAX);
    }

    fn features_used(&self, s: &ParcheesiState, out: &mut [Row; 4], used: u16) {
        let r = self.rules();
        let seats = self.seats();
        let mut square = [[OFF_TRACK; PIECES]; 4];
        let mut pieces = [[NEST; PIECES]; 4];
        for seat in 0..seats {
            let side = side_of_seat(seat, seats);
            pieces[seat as usize] = s.pieces(seat);
            for (i, &p) in pieces[seat as usize].iter().enumerate() {
                square[seat as usize][i] = match p {
                    1..=BRANCH => square_at(side, (p - 1) as u32),
                    LAP..=LAP_END => square_at(side, (p - 9) as u32),
                    _ => OFF_TRACK,
                };
            }
        }
        // A five enters: a die showing five, or (with enter_with_sum) two dice summing to five.
        let p_enter = if r.enter_with_sum { 15.0 } else { 11.0 } / 36.0;
        for v in 0..seats as usize {
            let row = &mut out[v];
            row.fill(0.0);
            let own = pieces[v];
            for (i, &p) in own.iter().enumerate() {
                row[PROGRESS] += progress(p);
                row[HOME_F] += (p == HOME) as u8 as f64;
                row[NEST_F] += (p == NEST) as u8 as f64;
                row[HOME_PATH_F] += (HOME_PATH..HOME).contains(&p) as u8 as f64;
                let sq = square[v][i];
                if sq == OFF_TRACK {
                    continue;
                }
                let safe = r.safe_squares && is_safe(sq);
                row[SAFE] += safe as u8 as f64;
                let stacked = own.iter().filter(|&&q| q == p).count();
                if stacked >= 2 {
                    // Counted once per blockade, by its first piece.
                    if r.blockades && own.iter().position(|&q| q == p) == Some(i) {
                        row[BLOCKADE] += 1.0;
                    }
                    continue;
                }
                if !r.capture {
                    continue;
                }
                let mut p_missed = 1.0;
                let turn = s.turn() as usize;
                let n = seats as usize;
                for a in (0..n).filter(|&a| moves_first(turn, v, a, n)) {
                    if !safe {
                        multiply_misses(
                            &mut p_missed,
                            sq,
                            &square[a],
                            TRACK_LEN,
                            &REACH,
                            |j, d| {
                                let pa = pieces[a][j];
                                // A piece before its branch square turns into its home path there.
                                let stays = pa > BRANCH || pa as usize + d <= BRANCH as usize;
                                stays || r.go_round_again
                            },
                        );
                    }
                    let side_a = side_of_seat(a as u8, seats);
                    if r.entry_capture && sq == entry_square(side_a) && pieces[a].contains(&NEST) {
                        p_missed *= 1.0 - p_enter;
                    }
                }
                row[RISK] += (1.0 - p_missed) * progress(p).max(1.0);
            }
            if v as u8 == s.turn() {
                row[RISK] *= ON_ROLL_RISK;
            }
        }
        if used & (1 << EXPOSURE | 1 << THREAT | 1 << BLOCKING) != 0 {
            path_features(self, s, &square, &pieces, p_enter, out);
        }
    }

    fn scale(&self, s: &ParcheesiState) -> f64 {
        let seats = self.seats();
        let total: f64 = (0..seats)
            .flat_map(|seat| s.pieces(seat))
            .map(remaining)
            .sum();
        2.0 * (total / seats as f64).sqrt() + 3.0
    }

    fn decision<'a>(&'a self, s: &'a ParcheesiState) -> Decision<'a> {
        Decision::Parcheesi(self, s)
    }
}

/// The features that follow the pieces' actual paths (`exposure`, `threat`, `blocking`):
/// blockades stop shots and pieces, and pieces in the nest may enter and hit at once.
/// `square` and `pieces` are the per-seat tables of [`Evaluate::features`], `p_enter` the chance
/// that a roll enters a piece.
fn path_features(
    sys: &ParcheesiSystem,
    s: &ParcheesiState,
    square: &[[u8; PIECES]; 4],
    pieces: &[[u8; PIECES]; 4],
    p_enter: f64,
    out: &mut [Row; 4],
) {
    let r = sys.rules();
    let seats = sys.seats();
    let n = seats as usize;
    let len = TRACK_LEN as usize;
    // The blockades (square, owner): every blockade stops every piece.
    let mut blockades = [(0u8, 0u8); 8];
    let mut count = 0;
    // Whether each piece stands alone on its square (two of a seat make a blockade, never
    // captured; where blockades are off they still share the square and are not alone).
    let mut alone = [[false; PIECES]; 4];
    for seat in 0..n {
        for i in 0..PIECES {
            let sq = square[seat][i];
            if sq == OFF_TRACK {
                continue;
            }
            let first = square[seat].iter().position(|&q| q == sq) == Some(i);
            let stacked = square[seat].iter().filter(|&&q| q == sq).count() >= 2;
            alone[seat][i] = !stacked;
            if stacked && first && r.blockades && count < blockades.len() {
                blockades[count] = (sq, seat as u8);
                count += 1;
            }
        }
    }
    let blockades = &blockades[..count];
    let ahead = |from: u8, to: u8| (to as usize + len - from as usize) % len;
    // No blockade on the squares strictly between `from` and `d` squares on.
    let clear = |from: u8, d: usize| {
        blockades
            .iter()
            .all(|&(b, _)| !(1..d).contains(&ahead(from, b)))
    };
    // The chance that `a`'s next roll does not capture a lone piece on `sq`.
    let missed_by = |a: usize, sq: u8| -> f64 {
        let mut p_missed = 1.0;
        let safe = r.safe_squares && is_safe(sq);
        let entry = entry_square(side_of_seat(a as u8, seats));
        let in_nest = pieces[a].contains(&NEST);
        if !safe {
            multiply_misses(&mut p_missed, sq, &square[a], TRACK_LEN, &REACH, |j, d| {
                let pa = pieces[a][j];
                // A piece before its branch square turns into its home path there.
                let stays = pa > BRANCH || pa as usize + d <= BRANCH as usize || r.go_round_again;
                stays && clear(square[a][j], d)
            });
            // Entering on a five (the entry square must be open) and moving on with the other
            // die.
            let k = ahead(entry, sq);
            if in_nest
                && (1..=6).contains(&k)
                && blockades.iter().all(|&(b, _)| b != entry)
                && clear(entry, k)
            {
                p_missed *= 1.0 - entry_then(k);
            }
        }
        if r.entry_capture && sq == entry && in_nest {
            p_missed *= 1.0 - p_enter;
        }
        p_missed
    };
    // hit[a][v][i]: the chance that `a`'s next roll captures piece `i` of seat `v`.
    let mut hit = [[[0.0; PIECES]; 4]; 4];
    if r.capture {
        for v in 0..n {
            let team = sys.team(v as u8);
            for i in 0..PIECES {
                if square[v][i] == OFF_TRACK || !alone[v][i] {
                    continue;
                }
                for a in (0..n).filter(|&a| team & (1 << a) == 0) {
                    hit[a][v][i] = 1.0 - missed_by(a, square[v][i]);
                }
            }
        }
    }
    let turn = s.turn() as usize;
    for v in 0..n {
        let team = sys.team(v as u8);
        let (mut exposure, mut threat, mut blocking) = (0.0, 0.0, 0.0);
        for i in 0..PIECES {
            let mut p_missed = 1.0;
            for (a, h) in hit.iter().enumerate().take(n) {
                if moves_first(turn, v, a, n) {
                    p_missed *= 1.0 - h[v][i];
                }
            }
            exposure += (1.0 - p_missed) * progress(pieces[v][i]).max(1.0);
            for h in &hit[v][..n] {
                threat += h[i];
            }
        }
        for &(b, _) in blockades.iter().filter(|&&(_, owner)| owner as usize == v) {
            // The opponents' pieces behind the blockade that would pass it.
            for u in (0..n).filter(|&u| team & (1 << u) == 0) {
                for (j, &from) in square[u].iter().enumerate() {
                    if from == OFF_TRACK {
                        continue;
                    }
                    let d = ahead(from, b);
                    let pu = pieces[u][j];
                    let passes = pu > BRANCH || pu as usize + d <= BRANCH as usize;
                    if (1..=12).contains(&d) && passes {
                        blocking += 1.0;
                    }
                }
            }
        }
        if v == turn {
            exposure *= ON_ROLL_RISK;
        }
        let row = &mut out[v];
        row[EXPOSURE] = exposure;
        row[THREAT] = threat;
        row[BLOCKING] = blocking;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::rng_from_seed;
    use crate::players::Evaluator;
    use crate::system::{Node, Orders, SystemRules};

    /// Skipping the path features where their weights are zero changes no score: the scores
    /// equal the weighted sums of every feature, with and without path weights.
    #[test]
    fn skipped_features_change_no_score() {
        let sys = crate::parcheesi::ParcheesiRules::parcheesi()
            .build()
            .unwrap();
        let plain = Evaluator::new(&sys, &[]);
        let paths = Evaluator::new(
            &sys,
            &[("threat".to_string(), 2.0), ("exposure".to_string(), -0.5)],
        );
        let mut dice = rng_from_seed(4);
        let mut s = sys.initial_state();
        let mut plays = Vec::new();
        let mut checked = 0;
        for step in 0..3000 {
            match sys.node(&s) {
                Node::Over => break,
                Node::Chance => {
                    let roll = sys.sample_roll(&s, &mut dice);
                    sys.begin_roll(&mut s, roll);
                }
                Node::Decision => {
                    plays.clear();
                    sys.generate(&s, Orders::Distinct, &mut plays);
                    let mut rows = [[0.0; crate::players::MAX_FEATURES]; 4];
                    sys.features(&s, &mut rows);
                    let by_hand = |w: &[f64]| -> Vec<f64> {
                        (0..4)
                            .map(|v| rows[v].iter().zip(w).map(|(f, w)| f * w).sum())
                            .collect()
                    };
                    let mut w: Vec<f64> =
                        ParcheesiSystem::FEATURES.iter().map(|f| f.weight).collect();
                    assert_eq!(plain.scores(&s).to_vec(), by_hand(&w));
                    w[THREAT] = 2.0;
                    w[EXPOSURE] = -0.5;
                    assert_eq!(paths.scores(&s).to_vec(), by_hand(&w));
                    checked += 1;
                    if plays.is_empty() {
                        sys.end_play(&mut s, &[]);
                    } else {
                        s = crate::players::greedy::child(&sys, &s, &plays[step % plays.len()]);
                    }
                }
            }
        }
        assert!(checked > 100, "{checked}");
    }
}
