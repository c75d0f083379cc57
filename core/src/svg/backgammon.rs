//! The backgammon board, drawn from the side of the seat to move: its home board bottom right,
//! its points numbered 1..=24 from there (the labels read in its numbering), its bar checkers and
//! borne-off tray at the bottom.
//!
//! The board is 14 units wide (12 points, the bar, the tray) and 11 high; the point labels stand
//! outside the frame, above and below it, and the arrows of the last play run in the band between
//! the two rows of points (where no checker stands while a point holds five or fewer), turning at
//! the end of the board where a checker goes from one row to the other: so no arrow crosses a
//! label, and none crosses the checkers of the points it passes.

use super::{
    Facts, Footer, LegendEntry, arrow, circle, moving_steps, numeral, route, text, with_footer,
};
use crate::backgammon::{BAR, OFF};
use crate::{Game, Place};
use std::fmt::Write;

/// Checkers: seat 0 light, seat 1 dark.
const FILL: [&str; 2] = ["#f7f3e8", "#3a2a1e"];
const NAMES: [&str; 2] = ["light", "dark"];
/// Checkers drawn on one point before the top one shows the count.
const SHOWN: u32 = 5;

pub(super) fn render(game: &Game, facts: &Facts, size: f64) -> String {
    BackgammonPicture::new(game, facts, size).render()
}

pub(super) struct BackgammonPicture<'a> {
    game: &'a Game,
    facts: &'a Facts,
    /// The seat whose side the board is drawn from.
    pub viewer: u8,
    pub unit: f64,
    pad: f64,
    width: f64,
    /// Top of the frame (the labels of the far row stand above it).
    pub top: f64,
}

impl<'a> BackgammonPicture<'a> {
    pub fn new(game: &'a Game, facts: &'a Facts, size: f64) -> Self {
        let pad = size * 0.02;
        let unit = (size - 2.0 * pad) / 14.0;
        BackgammonPicture {
            game,
            facts,
            viewer: game.to_move() % 2,
            unit,
            pad,
            width: size,
            top: pad + 0.5 * unit,
        }
    }

    pub fn bottom(&self) -> f64 {
        self.top + 11.0 * self.unit
    }

    /// A board point (numbered from seat 0's side, as in `Place::Point`) in the viewer's numbering.
    fn view(&self, board_point: u8) -> u8 {
        if self.viewer == 0 {
            board_point
        } else {
            25 - board_point
        }
    }

    /// A point of `seat`'s numbering (a step's `from`/`to`) in the viewer's numbering.
    fn view_of(&self, seat: u8, point: u8) -> u8 {
        let board_point = if seat % 2 == 0 { point } else { 25 - point };
        self.view(board_point)
    }

    /// x of the centre of a point in the viewer's numbering, and whether it is in the far row.
    pub fn point_x(&self, point: u8) -> (f64, bool) {
        let u = self.unit;
        let p = point.clamp(1, 24);
        // Slots 0..6 are the left half, 6..12 the right half after the bar.
        let (slot, far) = match p {
            1..=12 => (12 - p, false),
            _ => (p - 13, true),
        };
        let x = self.pad + slot as f64 * u + if slot >= 6 { u } else { 0.0 } + u / 2.0;
        (x, far)
    }

    pub fn bar_x(&self) -> f64 {
        self.pad + 6.5 * self.unit
    }

    pub fn tray_x(&self) -> f64 {
        self.pad + 13.5 * self.unit
    }

    /// The y of the arrows' lane beside the far or the near row of points.
    pub fn lane(&self, far: bool) -> f64 {
        self.top + if far { 5.0 } else { 6.0 } * self.unit
    }

    /// Where `seat`'s checkers on the bar stand (the viewer's below the middle).
    fn bar_y(&self, seat: u8) -> f64 {
        self.top + if seat % 2 == self.viewer { 7.5 } else { 3.5 } * self.unit
    }

    fn board(&self, out: &mut String) {
        let u = self.unit;
        let (x0, y0, y1) = (self.pad, self.top, self.bottom());
        let _ = write!(
            out,
            "<rect x=\"{x0:.1}\" y=\"{y0:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"#e9d8b4\" stroke=\"#4a3520\" stroke-width=\"3\"/>",
            13.0 * u,
            11.0 * u
        );
        let label = " class=\"point-label\" fill=\"#4a3520\"";
        for point in 1..=24u8 {
            let (x, far) = self.point_x(point);
            let fill = if point % 2 == 0 { "#a0522d" } else { "#d9b38c" };
            let (base, tip, label_y) = if far {
                (y0, y0 + 4.6 * u, y0 - 0.15 * u)
            } else {
                (y1, y1 - 4.6 * u, y1 + 0.42 * u)
            };
            let _ = write!(
                out,
                "<path d=\"M{:.1},{base:.1} L{:.1},{base:.1} L{x:.1},{tip:.1} z\" fill=\"{fill}\" stroke=\"#4a3520\" stroke-width=\"0.6\"/>",
                x - u / 2.0,
                x + u / 2.0
            );
            text(out, (x, label_y), u * 0.34, &point.to_string(), label);
        }
        let _ = write!(
            out,
            "<rect x=\"{:.1}\" y=\"{y0:.1}\" width=\"{u:.1}\" height=\"{:.1}\" fill=\"#6b4a2b\"/>\
             <rect x=\"{:.1}\" y=\"{y0:.1}\" width=\"{u:.1}\" height=\"{:.1}\" fill=\"#cdb48a\" stroke=\"#4a3520\" stroke-width=\"2\"/>",
            self.bar_x() - u / 2.0,
            11.0 * u,
            self.tray_x() - u / 2.0,
            11.0 * u,
        );
        // The names of the bar and the tray stand outside the frame too, clear of the arrows.
        let name = " fill=\"#4a3520\" font-style=\"italic\"";
        text(out, (self.bar_x(), y1 + 0.42 * u), u * 0.3, "bar", name);
        text(out, (self.tray_x(), y1 + 0.42 * u), u * 0.3, "off", name);
    }

    fn checker(&self, out: &mut String, seat: u8, at: (f64, f64), count: Option<u32>) {
        let r = self.unit * 0.45;
        circle(
            out,
            at,
            r,
            FILL[(seat % 2) as usize],
            " stroke=\"#111\" stroke-width=\"1\"",
        );
        if let Some(n) = count {
            numeral(out, at, r * 1.2, n);
        }
    }

    fn pieces(&self, out: &mut String) {
        let u = self.unit;
        // Sum the counts per (seat, place): views may list checkers one by one or as groups.
        let mut groups: Vec<(u8, Place, u32)> = Vec::new();
        for v in self.game.pieces() {
            match groups
                .iter_mut()
                .find(|(s, p, _)| *s == v.seat && *p == v.place)
            {
                Some(g) => g.2 += v.count as u32,
                None => groups.push((v.seat, v.place, v.count as u32)),
            }
        }
        for (seat, place, count) in groups {
            let plural = if count == 1 { "checker" } else { "checkers" };
            let where_ = match place {
                Place::Point { point } => {
                    let own = if seat % 2 == 0 { point } else { 25 - point };
                    format!("on its point {own}")
                }
                Place::Bar => "on the bar".to_string(),
                _ => "borne off".to_string(),
            };
            let _ = write!(
                out,
                "<g class=\"piece\"><title>seat {seat}: {count} {plural} {where_}</title>"
            );
            match place {
                Place::Point { point } => {
                    let (x, far) = self.point_x(self.view(point));
                    let shown = count.min(SHOWN);
                    for i in 0..shown {
                        let d = (i as f64 + 0.5) * u * 0.92;
                        let y = if far { self.top + d } else { self.bottom() - d };
                        let label = (i + 1 == shown && count > SHOWN).then_some(count);
                        self.checker(out, seat, (x, y), label);
                    }
                }
                Place::Bar => {
                    let at = (self.bar_x(), self.bar_y(seat));
                    self.checker(out, seat, at, (count > 1).then_some(count));
                }
                _ => {
                    // Borne off: thin slabs from the near or the far end of the tray.
                    let near = seat % 2 == self.viewer;
                    let h = u * 0.22;
                    for i in 0..count.min(15) {
                        let y = if near {
                            self.bottom() - (i as f64 + 1.0) * h
                        } else {
                            self.top + i as f64 * h
                        };
                        let _ = write!(
                            out,
                            "<rect x=\"{:.1}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{}\" stroke=\"#111\" stroke-width=\"0.5\"/>",
                            self.tray_x() - u * 0.4,
                            u * 0.8,
                            h * 0.9,
                            FILL[(seat % 2) as usize]
                        );
                    }
                    let stack = count.min(15) as f64 * h;
                    let y = if near {
                        self.bottom() - stack - 0.25 * u
                    } else {
                        self.top + stack + 0.45 * u
                    };
                    text(
                        out,
                        (self.tray_x(), y),
                        u * 0.35,
                        &count.to_string(),
                        " fill=\"#222\"",
                    );
                }
            }
            out.push_str("</g>");
        }
    }

    /// The points of the arrow of a step of `seat` from `from` to `to` (its numbering): along
    /// the lane of each point passed.
    pub fn step_path(&self, seat: u8, from: u8, to: u8) -> Vec<(f64, f64)> {
        let mut points = Vec::new();
        let mut far = true;
        if from as usize == BAR {
            points.push((self.bar_x(), self.bar_y(seat)));
        } else {
            let (x, f) = self.point_x(self.view_of(seat, from));
            far = f;
            points.push((x, self.lane(far)));
        }
        for (i, pos) in route(self.game, seat, from, to).into_iter().enumerate() {
            if pos as usize == OFF {
                points.push((self.tray_x(), self.lane(far)));
                break;
            }
            let (x, f) = self.point_x(self.view_of(seat, pos));
            if i == 0 && from as usize == BAR {
                // Up or down the bar to the lane of the entry point.
                points.push((self.bar_x(), self.lane(f)));
            }
            far = f;
            points.push((x, self.lane(far)));
        }
        points
    }

    fn last_play(&self, out: &mut String) {
        for step in moving_steps(self.game) {
            let title = format!("seat {}: {} to {}", step.seat, step.from, step.to);
            let points = self.step_path(step.seat, step.from, step.to);
            arrow(out, &points, "#1565c0", self.unit * 0.09, &title);
        }
    }

    fn legend_entries(&self) -> Vec<LegendEntry> {
        let pips = match self.game {
            Game::Backgammon(g) => [g.state().pip_count(0), g.state().pip_count(1)],
            _ => [0, 0],
        };
        (0..self.facts.seats.min(2))
            .map(|seat| {
                let s = seat as usize;
                let side = if seat == self.viewer { "near" } else { "far" };
                LegendEntry {
                    seat,
                    swatches: vec![(FILL[s], "#111")],
                    text: format!("seat {seat} ({side}): {} pips", pips[s]),
                    title: format!(
                        "seat {seat}: {} checkers, home board on the {side} side; pip count {}",
                        NAMES[s], pips[s]
                    ),
                }
            })
            .collect()
    }

    fn render(&self) -> String {
        let u = self.unit;
        // Under the board and its labels: the legend with the pip counts, then the pending roll
        // and the caption.
        let footer = Footer {
            origin: (self.pad, self.bottom() + 1.25 * u),
            width: 14.0 * u,
            font: u * 0.42,
            roll_gap: 1.05 * u,
            die: u * 0.9,
            after_roll: u * 0.3,
            below_roll: 0.75 * u,
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
