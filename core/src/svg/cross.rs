//! The cross boards: the Parcheesi loop (`BoardKind::Loop`) and the classic cross
//! (`BoardKind::Cross`).
//!
//! Geometry: a 19 x 19 grid of cells; each arm is 3 columns x 8 rows around a 3 x 3 centre. Arm 0
//! points down, the others follow counter-clockwise on screen (right, up, left). In an arm,
//! column 0 is on the left when looking from the centre outwards, row 0 is next to the centre and
//! row 7 at the edge.
//!
//! Loop board track squares (`Place::Track`, 0..68 from side 0's entry square, in the direction of
//! play): square `s` lies on arm `((s + 13) % 68) / 17` at index `i = (s + 13) % 17`: indices 0..8
//! go outwards along column 0, 8 is the tip of the middle column, 9..17 come back along column 2.
//! So side `k` enters at arm `k`, column 2, row 3, goes round the board counter-clockwise, and
//! turns into its home path (arm `k`'s middle column) at the tip; the printed board's safe squares
//! are row 3 of both outer columns and the tip of each arm.
//!
//! The classic charkoni (the centre) is split into four triangles, one per colour; in its colour's
//! triangle a piece waiting to enter stands on the left, an entered one on the right, and the
//! pieces home in the middle, near the centre point.

use super::{
    Facts, Footer, LegendEntry, arrow, circle, escape, moving_steps, numeral, route, with_footer,
};
use crate::board::{TRACK_LEN, is_entry};
use crate::{CharkoniStage, Game, NO_PIECE, PieceView, Place};
use std::fmt::Write;

/// Colours of the four board sides: yellow, blue, red, green.
pub(super) const SIDE_COLOURS: [&str; 4] = ["#e8b400", "#1f6fd1", "#d62828", "#2a9d3a"];
const SIDE_TINTS: [&str; 4] = ["#fbeeb8", "#cfe0f7", "#f6cccc", "#cfeccf"];
const SIDE_NAMES: [&str; 4] = ["yellow", "blue", "red", "green"];

pub(super) fn render(game: &Game, facts: &Facts, size: f64, classic: bool) -> String {
    CrossPicture::new(game, facts, size, classic).render()
}

/// Where a group of pieces is drawn: its centre, the room around it for several pieces, and the
/// radius of a piece standing alone.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(super) struct Spot {
    pub at: (f64, f64),
    room: f64,
    radius: f64,
}

pub(super) struct CrossPicture<'a> {
    game: &'a Game,
    facts: &'a Facts,
    classic: bool,
    pub cell: f64,
    pad: f64,
    width: f64,
}

impl<'a> CrossPicture<'a> {
    pub fn new(game: &'a Game, facts: &'a Facts, size: f64, classic: bool) -> Self {
        let pad = size * 0.02;
        CrossPicture {
            game,
            facts,
            classic,
            cell: (size - 2.0 * pad) / 19.0,
            pad,
            width: size,
        }
    }

    fn centre(&self) -> (f64, f64) {
        let c = self.pad + 9.5 * self.cell;
        (c, c)
    }

    /// Rotates a centre-relative vector (in cells) to arm `arm` (counter-clockwise on screen).
    fn rotate(arm: u8, mut dx: f64, mut dy: f64) -> (f64, f64) {
        for _ in 0..(arm % 4) {
            (dx, dy) = (dy, -dx);
        }
        (dx, dy)
    }

    /// The point `dx` cells across and `dy` cells out from the centre along arm `arm`.
    fn at(&self, arm: u8, dx: f64, dy: f64) -> (f64, f64) {
        let (rx, ry) = Self::rotate(arm, dx, dy);
        let (cx, cy) = self.centre();
        (cx + rx * self.cell, cy + ry * self.cell)
    }

    /// Centre of the cell at (arm, column, row).
    fn cell_centre(&self, arm: u8, column: u8, row: u8) -> (f64, f64) {
        self.at(arm, column as f64 - 1.0, row as f64 + 2.0)
    }

    /// (arm, column, row) of a track square of the loop board.
    pub fn track_cell(square: u8) -> (u8, u8, u8) {
        let j = (square as u16 + 13) % TRACK_LEN as u16;
        let arm = (j / 17) as u8;
        let i = (j % 17) as u8;
        match i {
            0..=7 => (arm, 0, i),
            8 => (arm, 1, 7),
            _ => (arm, 2, 16 - i),
        }
    }

    fn side_colour(side: u8) -> &'static str {
        SIDE_COLOURS[(side % 4) as usize]
    }

    fn side_tint(side: u8) -> &'static str {
        SIDE_TINTS[(side % 4) as usize]
    }

    fn nest_centre(&self, side: u8) -> (f64, f64) {
        self.at(side, 5.5, 5.5)
    }

    /// Where pieces of `owner` on `place` are drawn (the charkoni has a triangle per colour).
    pub fn spot(&self, place: Place, owner: u8) -> Spot {
        let c = self.cell;
        let square = |at| Spot {
            at,
            room: c * 0.48,
            radius: c * 0.34,
        };
        match place {
            Place::Track { square: s } => {
                let (a, col, row) = Self::track_cell(s);
                square(self.cell_centre(a, col, row))
            }
            Place::HomePath { side, index } => {
                square(self.cell_centre(side, 1, 6u8.saturating_sub(index.min(6))))
            }
            Place::Cross { arm, column, row } => {
                square(self.cell_centre(arm, column.min(2), row.min(7)))
            }
            Place::Home { side } => Spot {
                at: self.at(side, 0.0, 0.9),
                room: c * 0.55,
                radius: c * 0.34,
            },
            Place::Nest { side } => Spot {
                at: self.nest_centre(side),
                room: c * 1.4,
                radius: c * 0.34,
            },
            Place::Charkoni { stage } => {
                let arm = self.facts.side_of(owner) % 4;
                let (dx, dy, r) = match stage {
                    CharkoniStage::Waiting => (-0.45, 1.12, 0.27),
                    CharkoniStage::Entered => (0.45, 1.12, 0.27),
                    CharkoniStage::Home => (0.0, 0.5, 0.33),
                };
                Spot {
                    at: self.at(arm, dx, dy),
                    room: c * r,
                    radius: c * r,
                }
            }
            Place::Point { .. } | Place::Bar | Place::Off => square(self.centre()),
        }
    }

    fn square(&self, out: &mut String, (x, y): (f64, f64), fill: &str) {
        let c = self.cell;
        let _ = write!(
            out,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{c:.1}\" height=\"{c:.1}\" fill=\"{fill}\" stroke=\"#555\" stroke-width=\"0.8\"/>",
            x - c / 2.0,
            y - c / 2.0
        );
    }

    fn safe_mark(&self, out: &mut String, (x, y): (f64, f64)) {
        let _ = write!(
            out,
            "<circle class=\"safe\" cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{:.1}\" fill=\"none\" stroke=\"#777\" stroke-width=\"1.2\"><title>safe square</title></circle>",
            self.cell * 0.38
        );
    }

    fn castle_mark(&self, out: &mut String, (x, y): (f64, f64)) {
        let h = self.cell * 0.42;
        let _ = write!(
            out,
            "<path class=\"castle\" d=\"M{:.1},{:.1} L{:.1},{:.1} M{:.1},{:.1} L{:.1},{:.1}\" stroke=\"#8a5a2b\" stroke-width=\"1.6\"><title>castle</title></path>",
            x - h,
            y - h,
            x + h,
            y + h,
            x + h,
            y - h,
            x - h,
            y + h
        );
    }

    fn board(&self, out: &mut String) {
        let c = self.cell;
        let (cx, cy) = self.centre();
        if !self.classic {
            // Nests in the corners.
            for side in 0..4u8 {
                let (x, y) = self.nest_centre(side);
                let r = 3.2 * c;
                let _ = write!(
                    out,
                    "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" rx=\"{:.1}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"2\"/>",
                    x - r,
                    y - r,
                    2.0 * r,
                    2.0 * r,
                    c * 0.6,
                    Self::side_tint(side),
                    Self::side_colour(side)
                );
            }
            for square in 0..TRACK_LEN {
                let (a, col, row) = Self::track_cell(square);
                let fill = if is_entry(square) {
                    Self::side_tint(square / 17)
                } else {
                    "#ffffff"
                };
                self.square(out, self.cell_centre(a, col, row), fill);
            }
            for side in 0..4u8 {
                for row in 0..7u8 {
                    self.square(out, self.cell_centre(side, 1, row), Self::side_tint(side));
                }
            }
        } else {
            for arm in 0..4u8 {
                for col in 0..3u8 {
                    for row in 0..8u8 {
                        let fill = if col == 1 {
                            Self::side_tint(arm)
                        } else {
                            "#fffdf5"
                        };
                        self.square(out, self.cell_centre(arm, col, row), fill);
                    }
                }
            }
        }
        // Only the squares that are safe under this game's rules.
        for &place in &self.facts.safe {
            let p = self.spot(place, 0).at;
            if self.classic {
                self.castle_mark(out, p);
            } else {
                self.safe_mark(out, p);
            }
        }
        // The centre (home / charkoni): four triangles in the sides' colours.
        let h = 1.5 * c;
        for side in 0..4u8 {
            let (ax, ay) = self.at(side, -1.5, 1.5);
            let (bx, by) = self.at(side, 1.5, 1.5);
            let _ = write!(
                out,
                "<path d=\"M{cx:.1},{cy:.1} L{ax:.1},{ay:.1} L{bx:.1},{by:.1} z\" fill=\"{}\" stroke=\"#555\" stroke-width=\"0.8\"/>",
                Self::side_tint(side)
            );
        }
        let label = if self.classic { "charkoni" } else { "home" };
        let _ = write!(
            out,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"none\" stroke=\"#333\" stroke-width=\"1.5\"><title>{label}</title></rect>",
            cx - h,
            cy - h,
            2.0 * h,
            2.0 * h,
        );
    }

    /// What a piece group's title says after its owner.
    fn describe(v: &PieceView) -> String {
        let piece = if v.piece == NO_PIECE || v.count > 1 {
            String::new()
        } else {
            format!(" piece {}", v.piece)
        };
        let many = if v.count > 1 {
            format!(": {} pieces", v.count)
        } else {
            ":".to_string()
        };
        let where_ = match v.place {
            Place::Charkoni {
                stage: CharkoniStage::Waiting,
            } => " waiting to enter",
            Place::Charkoni {
                stage: CharkoniStage::Entered,
            } => " entered, on the charkoni",
            Place::Charkoni {
                stage: CharkoniStage::Home,
            }
            | Place::Home { .. } => " home",
            Place::Nest { .. } => " in the nest",
            _ => " on the board",
        };
        format!("{piece}{many}{where_}")
    }

    fn pieces(&self, out: &mut String) {
        // Group the views by where they are drawn, keeping the engine's order.
        let mut groups: Vec<(Spot, Vec<PieceView>)> = Vec::new();
        for v in self.game.pieces() {
            let spot = self.spot(v.place, v.seat);
            match groups.iter_mut().find(|(s, _)| s.at == spot.at) {
                Some((_, list)) => list.push(v),
                None => groups.push((spot, vec![v])),
            }
        }
        for (spot, list) in groups {
            let n = list.len();
            let r = if n == 1 {
                spot.radius
            } else {
                (spot.room / (n as f64).sqrt().ceil()).min(spot.radius) * 0.85
            };
            for (v, p) in list.iter().zip(spread(n, spot.at, 2.1 * r)) {
                self.piece(out, v, p, r);
            }
        }
    }

    fn piece(&self, out: &mut String, v: &PieceView, p: (f64, f64), r: f64) {
        let side = self.facts.side_of(v.seat);
        let colour = Self::side_colour(side);
        let _ = write!(
            out,
            "<g class=\"piece\"><title>{}{}</title>",
            escape(&self.facts.owner_name(v.seat)),
            escape(&Self::describe(v))
        );
        match v.place {
            // Not in play yet: a pale piece with a dashed rim of its colour.
            Place::Charkoni {
                stage: CharkoniStage::Waiting,
            } => {
                let extra =
                    format!(" stroke=\"{colour}\" stroke-width=\"2\" stroke-dasharray=\"3,2\"");
                circle(out, p, r, Self::side_tint(side), &extra);
            }
            _ => circle(out, p, r, colour, " stroke=\"#111\" stroke-width=\"1.2\""),
        }
        // Home: a white ring inside the piece.
        if matches!(
            v.place,
            Place::Home { .. }
                | Place::Charkoni {
                    stage: CharkoniStage::Home
                }
        ) {
            circle(
                out,
                p,
                r * 0.62,
                "none",
                " stroke=\"#fff\" stroke-width=\"1.5\"",
            );
        }
        if v.count > 1 {
            numeral(out, p, (r * 1.3).max(self.cell * 0.55), v.count as u32);
        }
        out.push_str("</g>");
    }

    /// Arrows along the squares each piece of the last play passed.
    fn last_play(&self, out: &mut String) {
        for step in moving_steps(self.game) {
            let owner = step.seat;
            let mut points = vec![self.spot(self.game.place(owner, step.from), owner).at];
            for pos in route(self.game, owner, step.from, step.to) {
                points.push(self.spot(self.game.place(owner, pos), owner).at);
            }
            let title = format!(
                "{}: {} to {}",
                self.facts.owner_name(owner),
                step.from,
                step.to
            );
            arrow(out, &points, "#111", self.cell * 0.09, &title);
        }
    }

    fn legend_entries(&self) -> Vec<LegendEntry> {
        (0..self.facts.seats)
            .map(|seat| {
                let sides: Vec<u8> = self
                    .facts
                    .owners_of(seat)
                    .iter()
                    .map(|&o| self.facts.side_of(o))
                    .collect();
                let names: Vec<&str> = sides
                    .iter()
                    .map(|&s| SIDE_NAMES[(s % 4) as usize])
                    .collect();
                let mut title = format!("seat {seat}: {}", names.join(" and "));
                let mut text = format!("seat {seat}");
                if let Some(team) = self.facts.team_text(seat) {
                    title.push_str(&format!("; {team}"));
                }
                if let Some(name) = self.facts.team_name(seat) {
                    text.push_str(&format!(" · {name}"));
                }
                LegendEntry {
                    seat,
                    swatches: sides
                        .iter()
                        .map(|&s| (Self::side_colour(s), "#111"))
                        .collect(),
                    text,
                    title,
                }
            })
            .collect()
    }

    fn render(&self) -> String {
        let c = self.cell;
        // Under the board: the legend, then the pending roll and the caption.
        let footer = Footer {
            origin: (self.pad, self.pad + 20.0 * c),
            width: 19.0 * c,
            font: c * 0.62,
            roll_gap: 1.45 * c,
            die: c * 1.25,
            after_roll: c * 0.4,
            below_roll: c,
            pad: self.pad,
            page_width: self.width,
        };
        with_footer(self.game, &self.legend_entries(), &footer, |out| {
            self.board(out);
            self.pieces(out);
            self.last_play(out);
        })
    }
}

/// Centres for `n` pieces around `(cx, cy)`: one in the middle, more in a small grid.
fn spread(n: usize, (cx, cy): (f64, f64), gap: f64) -> Vec<(f64, f64)> {
    match n {
        0 => vec![],
        1 => vec![(cx, cy)],
        2 => vec![(cx - gap / 2.0, cy), (cx + gap / 2.0, cy)],
        _ => {
            let cols = (n as f64).sqrt().ceil() as usize;
            let rows = n.div_ceil(cols);
            (0..n)
                .map(|i| {
                    let (r, c) = (i / cols, i % cols);
                    (
                        cx + (c as f64 - (cols as f64 - 1.0) / 2.0) * gap,
                        cy + (r as f64 - (rows as f64 - 1.0) / 2.0) * gap,
                    )
                })
                .collect()
        }
    }
}
