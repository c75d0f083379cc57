//! The evaluator of Family Pachisi.

use super::{Evaluate, Feature, OFF_TRACK, ON_ROLL_RISK, REACH, Row, moves_first, multiply_misses};
use crate::board::{TRACK_LEN, entry_square, is_safe, side_of_seat};
use crate::family::{
    FamilyState, FamilySystem, GOAL, GOAL_STRETCH, LAP_END, PIECES, START_AREA, START_SQUARE,
};
use crate::players::Decision;
use crate::system::RuleSystem;

const PROGRESS: usize = 0;
const HOME: usize = 1;
const START: usize = 2;
const RISK: usize = 3;
const SAFE: usize = 4;
const GATES: usize = 5;
const STRETCH: usize = 6;

impl FamilySystem {
    fn partner_of(&self, seat: u8) -> Option<u8> {
        let r = self.rules();
        (r.teams && r.seats == 4).then_some((seat + 2) % 4)
    }
}

impl Evaluate for FamilySystem {
    const FEATURES: &'static [Feature] = &[
        Feature {
            name: "progress",
            weight: 1.0,
            doc: "squares travelled by the colour's pieces: 0 in the start area, 77 in the goal",
        },
        Feature {
            name: "home",
            weight: 6.0,
            doc: "pieces in the goal",
        },
        Feature {
            name: "start",
            weight: -8.0,
            doc: "pieces in the start area (each needs a five to enter)",
        },
        Feature {
            name: "risk",
            weight: -1.2,
            doc: "squares the colour expects to lose before its next turn: for each single piece \
                  an opponent may capture (not on a safe square, or on that opponent's start \
                  square), the chance that the roll of an opponent moving before the colour \
                  reaches it (one die or both, a five entering on its start square) times its \
                  progress; for the colour about to roll, half of that against every opponent",
        },
        Feature {
            name: "safe",
            weight: 2.0,
            doc: "pieces on safe squares of the track",
        },
        Feature {
            name: "gates",
            weight: 3.0,
            doc: "gates: track squares holding two of the colour's pieces (never passed, never \
                  captured)",
        },
        Feature {
            name: "stretch",
            weight: 2.0,
            doc: "pieces in the goal stretch, out of every opponent's reach",
        },
    ];

    fn features(&self, s: &FamilyState, out: &mut [Row; 4]) {
        let seats = self.seats();
        let mut square = [[OFF_TRACK; PIECES]; 4];
        let mut side = [0u8; 4];
        for c in 0..seats as usize {
            side[c] = side_of_seat(c as u8, seats);
            for (i, &p) in s.pos[c].iter().enumerate() {
                if (START_SQUARE..=LAP_END).contains(&p) {
                    square[c][i] =
                        ((entry_square(side[c]) as u16 + p as u16 - 1) % TRACK_LEN as u16) as u8;
                }
            }
        }
        for v in 0..seats as usize {
            let row = &mut out[v];
            row.fill(0.0);
            let own = s.pos[v];
            for (i, &p) in own.iter().enumerate() {
                row[PROGRESS] += p as f64;
                row[HOME] += (p == GOAL) as u8 as f64;
                row[START] += (p == START_AREA) as u8 as f64;
                row[STRETCH] += (GOAL_STRETCH..GOAL).contains(&p) as u8 as f64;
                let sq = square[v][i];
                if sq == OFF_TRACK {
                    continue;
                }
                row[SAFE] += is_safe(sq) as u8 as f64;
                if own.iter().filter(|&&q| q == p).count() >= 2 {
                    if own.iter().position(|&q| q == p) == Some(i) {
                        row[GATES] += 1.0;
                    }
                    continue;
                }
                let mut p_missed = 1.0;
                for a in 0..seats as usize {
                    let n = seats as usize;
                    if !moves_first(s.turn as usize, v, a, n)
                        || self.partner_of(v as u8) == Some(a as u8)
                    {
                        continue;
                    }
                    // FAM-8: a safe square protects, except from the colour whose start it is.
                    let their_start = sq == entry_square(side[a]);
                    if is_safe(sq) && !their_start {
                        continue;
                    }
                    multiply_misses(&mut p_missed, sq, &square[a], TRACK_LEN, &REACH, |j, d| {
                        s.pos[a][j] as usize + d <= LAP_END as usize
                    });
                    if their_start && s.pos[a].contains(&START_AREA) {
                        // A die showing five enters on the start square.
                        p_missed *= 1.0 - 11.0 / 36.0;
                    }
                }
                row[RISK] += (1.0 - p_missed) * (p as f64).max(1.0);
            }
            if v as u8 == self.playing_colour(s) {
                row[RISK] *= ON_ROLL_RISK;
            }
        }
    }

    fn scale(&self, s: &FamilyState) -> f64 {
        let seats = self.seats();
        let total: f64 = (0..seats as usize)
            .flat_map(|c| s.pos[c])
            .map(|p| (GOAL - p) as f64)
            .sum();
        // Partners' scores add up, so a side runs the race of all its colours.
        let sides = if self.partner_of(0).is_some() {
            2
        } else {
            seats
        };
        2.0 * (total / sides as f64).sqrt() + 3.0
    }

    fn decision<'a>(&'a self, s: &'a FamilyState) -> Decision<'a> {
        Decision::Family(self, s)
    }
}
