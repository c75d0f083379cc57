//! The evaluator of Classic Pachisi.

use super::{Evaluate, Feature, OFF_TRACK, ON_ROLL_RISK, Row, moves_first, multiply_misses};
use crate::classic::{
    COLOURS, ClassicState, ClassicSystem, END_SQUARE_AGAIN, HOME, LOOP_LEN, NOT_ENTERED, PIECES,
    SHELLS,
};
use crate::dice::cowrie_distribution;
use crate::players::Decision;
use crate::system::RuleSystem;

const PROGRESS: usize = 0;
const HOME_F: usize = 1;
const UNENTERED: usize = 2;
const RISK: usize = 3;
const SAFE: usize = 4;
const UNITS: usize = 5;
const STRETCH: usize = 6;

/// Positions after the loop: up the own middle column to the charkoni.
const STRETCH_START: u8 = END_SQUARE_AGAIN + 1;

impl ClassicSystem {
    /// The colours a seat plays: its own, or its team's two with two seats (C-B).
    fn colours_of(&self, seat: u8) -> impl Iterator<Item = usize> {
        let two = self.seats() == 2;
        (0..COLOURS).filter(move |&c| {
            if two {
                c % 2 == seat as usize
            } else {
                c == seat as usize
            }
        })
    }

    /// Probability that one throw moves exactly `d` squares, for `d` in 0..=HOME.
    fn move_probabilities(&self) -> [f64; HOME as usize + 1] {
        let mut t = [0.0; HOME as usize + 1];
        let dist = cowrie_distribution(SHELLS, self.rules().shell_probability);
        for (up, p) in dist.iter().enumerate() {
            let v = self.throw_value(up as u8) as usize;
            if v < t.len() {
                t[v] += p;
            }
        }
        t
    }
}

impl Evaluate for ClassicSystem {
    const FEATURES: &'static [Feature] = &[
        Feature {
            name: "progress",
            weight: 1.0,
            doc: "squares travelled by the seat's pieces (its two colours with two seats): 0 not \
                  entered, 85 home",
        },
        Feature {
            name: "home",
            weight: 6.0,
            doc: "pieces home",
        },
        Feature {
            name: "unentered",
            weight: -8.0,
            doc: "pieces not entered (each needs a grace)",
        },
        Feature {
            name: "risk",
            weight: -1.2,
            doc: "squares expected to be lost before the seat's next throw: for each single piece \
                  of its team on a loop square that is no castle, the chance that the throw of an \
                  opposing colour moving before it reaches it exactly, times its progress; for \
                  the colour about to throw, half of that against both opposing colours",
        },
        Feature {
            name: "safe",
            weight: 2.0,
            doc: "pieces on castles",
        },
        Feature {
            name: "units",
            weight: 1.0,
            doc: "pieces sharing a loop square with another piece of their colour (they move \
                  and defend as a unit)",
        },
        Feature {
            name: "stretch",
            weight: 2.0,
            doc: "pieces on the way up the own middle column, out of every opponent's reach",
        },
    ];

    fn features(&self, s: &ClassicState, out: &mut [Row; 4]) {
        let reach = self.move_probabilities();
        let mut square = [[OFF_TRACK; PIECES]; COLOURS];
        // Pieces of each team on each loop square.
        let mut team_count = [[0u8; LOOP_LEN as usize]; 2];
        for c in 0..COLOURS {
            for (i, &p) in s.pieces[c].iter().enumerate() {
                if let Some(sq) = self.loop_square(c as u8, p) {
                    square[c][i] = sq;
                    team_count[c % 2][sq as usize] += 1;
                }
            }
        }
        let mut colour_rows = [[0.0; super::MAX_FEATURES]; COLOURS];
        for (c, row) in colour_rows.iter_mut().enumerate() {
            let own = s.pieces[c];
            for (i, &p) in own.iter().enumerate() {
                row[PROGRESS] += p as f64;
                row[HOME_F] += (p == HOME) as u8 as f64;
                row[UNENTERED] += (p == NOT_ENTERED) as u8 as f64;
                row[STRETCH] += (STRETCH_START..HOME).contains(&p) as u8 as f64;
                let sq = square[c][i];
                if sq == OFF_TRACK {
                    continue;
                }
                if own.iter().filter(|&&q| q == p).count() >= 2 {
                    row[UNITS] += 1.0;
                }
                if self.is_castle(sq) {
                    row[SAFE] += 1.0;
                    continue;
                }
                // CLS-8: a capture needs a unit at least as large, so only lone pieces are
                // exposed to the single pieces that usually move.
                if team_count[c % 2][sq as usize] != 1 {
                    continue;
                }
                let mut p_missed = 1.0;
                let turn = s.turn as usize;
                for a in
                    (0..COLOURS).filter(|&a| a % 2 != c % 2 && moves_first(turn, c, a, COLOURS))
                {
                    multiply_misses(&mut p_missed, sq, &square[a], LOOP_LEN, &reach, |j, d| {
                        s.pieces[a][j] as usize + d <= END_SQUARE_AGAIN as usize
                    });
                }
                row[RISK] += (1.0 - p_missed) * p as f64;
            }
            if c as u8 == s.turn {
                row[RISK] *= ON_ROLL_RISK;
            }
        }
        for seat in 0..self.seats() {
            let row = &mut out[seat as usize];
            row.fill(0.0);
            for c in self.colours_of(seat) {
                for (x, y) in row.iter_mut().zip(&colour_rows[c]) {
                    *x += y;
                }
            }
        }
    }

    fn scale(&self, s: &ClassicState) -> f64 {
        // Two teams of two colours, each running eight pieces round the board.
        let total: f64 = s.pieces.iter().flatten().map(|&p| (HOME - p) as f64).sum();
        2.5 * (total / 2.0).sqrt() + 3.0
    }

    fn decision<'a>(&'a self, s: &'a ClassicState) -> Decision<'a> {
        Decision::Classic(self, s)
    }
}
