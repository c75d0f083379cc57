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
    ];

    /// `tuned`: fitted to beat the default `greedy` in four-seat Parcheesi by the cross-entropy
    /// method of the `tune` example (docs/PLAYERS.md, *Tuned weights*).
    const WEIGHT_SETS: &'static [(&'static str, &'static [(&'static str, f64)])] = &[(
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
    )];

    fn features(&self, s: &ParcheesiState, out: &mut [Row; 4]) {
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
