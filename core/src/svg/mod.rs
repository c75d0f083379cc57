//! SVG pictures of a game: the board of its kind, every piece, stacks with counts, safe squares
//! and castles marked, and the last play drawn as arrows.
//!
//! Geometry of the cross boards (Loop and Cross): a 19 x 19 grid of cells; each arm is 3 columns
//! x 8 rows around a 3 x 3 centre. Arm 0 points down, the others follow counter-clockwise
//! (right, up, left). In an arm, column 0 is on the left when looking from the centre outwards,
//! row 0 is next to the centre and row 7 at the edge.
//!
//! Loop board track squares (`Place::Track`, 0..68 from side 0's entry square, in the direction of
//! play): square `s` lies on arm `((s + 13) % 68) / 17` at index `i = (s + 13) % 17`: indices 0..8
//! go outwards along column 0, 8 is the tip of the middle column, 9..17 come back along column 2.
//! So side `k` enters at arm `k`, column 2, row 3, goes round the board counter-clockwise, and turns
//! into its home path (arm `k`'s middle column) at the tip; the safe squares (board::is_safe) are
//! row 3 of both outer columns and the tip of each arm, as on the printed board.

use crate::board::{TRACK_LEN, is_entry, is_safe, side_of_seat};
use crate::{BoardKind, Event, Game, Node, Place, Roll, StepKind};
use std::fmt::Write;

/// The width in pixels of a picture when none is given (Python's `Game.svg()`, `_repr_svg_`).
pub const DEFAULT_SIZE: f64 = 560.0;

/// The smallest width drawn; a smaller, negative or non-finite width gives [`DEFAULT_SIZE`].
pub const MIN_SIZE: f64 = 50.0;

impl Game {
    /// The board as a standalone SVG document `size` pixels wide: every piece, stacks with
    /// their counts, the safe squares and castles, and the last play drawn as arrows.
    ///
    /// A `size` below [`MIN_SIZE`](crate::svg::MIN_SIZE), or not finite, draws at
    /// [`DEFAULT_SIZE`](crate::svg::DEFAULT_SIZE). Needs the `svg` feature (on by default).
    ///
    /// ```
    /// let mut game = pachisi::Game::from_preset("parcheesi", 7).unwrap();
    /// game.roll().unwrap();
    /// let svg = game.svg(400.0);
    /// assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
    /// assert!(svg.contains("width=\"400\""));
    /// ```
    pub fn svg(&self, size: f64) -> String {
        let size = if size.is_finite() && size >= MIN_SIZE {
            size
        } else {
            DEFAULT_SIZE
        };
        render(self, size)
    }
}

/// Seat colours of the Pachisi family (by board side): yellow, blue, red, green.
const SIDE_COLOURS: [&str; 4] = ["#e8b400", "#1f6fd1", "#d62828", "#2a9d3a"];
const SIDE_TINTS: [&str; 4] = ["#fbeeb8", "#cfe0f7", "#f6cccc", "#cfeccf"];
/// Backgammon checkers: seat 0 light, seat 1 dark.
const BG_FILL: [&str; 2] = ["#f7f3e8", "#3a2a1e"];
const BG_TEXT: [&str; 2] = ["#222", "#f7f3e8"];

/// Castle squares of the classic cross in each arm as (column, row) for a castle `n` squares
/// from the outer end of each outer column (CLS-9; the preset's `castle_from_outer_end` is 4),
/// plus the outer end square of the middle column.
fn castles(n: u8) -> [(u8, u8); 3] {
    let row = 8u8.saturating_sub(n.clamp(1, 8));
    [(0, row), (1, 7), (2, row)]
}

/// Renders the game as an SVG document `size` pixels wide.
fn render(game: &Game, size: f64) -> String {
    match game.board() {
        BoardKind::Loop => CrossPicture::new(game, size, false).render(),
        BoardKind::Cross => CrossPicture::new(game, size, true).render(),
        BoardKind::Backgammon => BackgammonPicture::new(game, size).render(),
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A line under the picture: whose turn, the pending roll, the result.
fn caption(game: &Game) -> String {
    let status = match game.node() {
        Node::Over => match game.outcome() {
            Some(o) => {
                let winners: Vec<String> = (0..game.seats())
                    .filter(|&s| o.is_winner(s))
                    .map(|s| s.to_string())
                    .collect();
                format!("game over: seat {} won", winners.join(" + "))
            }
            None => "game over".into(),
        },
        Node::Chance => format!("seat {} to roll", game.to_move()),
        Node::Decision => {
            let roll = game.log().iter().rev().find_map(|e| match e {
                Event::Roll { roll, .. } => Some(*roll),
                _ => None,
            });
            match roll {
                Some(Roll::Dice([a, b])) => format!("seat {} to play {a}-{b}", game.to_move()),
                Some(Roll::Cowries(n)) => {
                    format!("seat {} to play a throw of {n} up", game.to_move())
                }
                None => format!("seat {} to play", game.to_move()),
            }
        }
    };
    format!("{} — {status}", game.variant())
}

fn arrow_defs(out: &mut String) {
    out.push_str(
        "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"8\" refY=\"5\" \
         markerWidth=\"5\" markerHeight=\"5\" orient=\"auto-start-reverse\">\
         <path d=\"M0,0 L10,5 L0,10 z\" fill=\"#111\"/></marker></defs>",
    );
}

/// Draws `n` groups around a centre: one in the middle, more in a small grid.
fn spread(n: usize, cx: f64, cy: f64, gap: f64) -> Vec<(f64, f64)> {
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

struct CrossPicture<'a> {
    game: &'a Game,
    classic: bool,
    castles: [(u8, u8); 3],
    cell: f64,
    pad: f64,
    width: f64,
}

impl<'a> CrossPicture<'a> {
    fn new(game: &'a Game, size: f64, classic: bool) -> Self {
        let pad = size * 0.02;
        let n = game
            .rules()
            .options()
            .get("castle_from_outer_end")
            .and_then(|v| v.as_u64())
            .map_or(4, |n| n.min(8) as u8);
        CrossPicture {
            game,
            classic,
            castles: castles(n),
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
    fn track_cell(square: u8) -> (u8, u8, u8) {
        let j = (square as u16 + 13) % TRACK_LEN as u16;
        let arm = (j / 17) as u8;
        let i = (j % 17) as u8;
        match i {
            0..=7 => (arm, 0, i),
            8 => (arm, 1, 7),
            _ => (arm, 2, 16 - i),
        }
    }

    fn side_colour(&self, side: u8) -> &'static str {
        SIDE_COLOURS[(side % 4) as usize]
    }

    /// The colour of a seat's pieces: the colour of the board side it sits at (where its nest
    /// is; the classic cross has no nests, so seat `k` plays from arm `k`).
    fn seat_colour(&self, seat: u8) -> &'static str {
        let side = match self.game.place(seat, 0) {
            Place::Nest { side } => side,
            _ if self.classic => seat,
            _ => side_of_seat(seat, self.game.seats()),
        };
        self.side_colour(side)
    }

    fn nest_centre(&self, side: u8) -> (f64, f64) {
        self.at(side, 5.5, 5.5)
    }

    /// Where a place is drawn, and the room around it for several groups.
    fn place_point(&self, place: Place) -> ((f64, f64), f64) {
        let c = self.cell;
        match place {
            Place::Track { square } => {
                let (a, col, row) = Self::track_cell(square);
                (self.cell_centre(a, col, row), c * 0.48)
            }
            Place::HomePath { side, index } => (
                self.cell_centre(side, 1, 6u8.saturating_sub(index.min(6))),
                c * 0.48,
            ),
            Place::Home { side } => (self.at(side, 0.0, 0.9), c * 0.55),
            Place::Nest { side } => (self.nest_centre(side), c * 1.4),
            Place::Cross { arm, column, row } => {
                (self.cell_centre(arm, column.min(2), row.min(7)), c * 0.48)
            }
            Place::Charkoni { .. } => (self.centre(), c * 0.7),
            Place::Point { .. } | Place::Bar | Place::Off => (self.centre(), c),
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
            "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{:.1}\" fill=\"none\" stroke=\"#777\" stroke-width=\"1.2\"/>",
            self.cell * 0.38
        );
    }

    fn castle_mark(&self, out: &mut String, (x, y): (f64, f64)) {
        let h = self.cell * 0.42;
        let _ = write!(
            out,
            "<path d=\"M{:.1},{:.1} L{:.1},{:.1} M{:.1},{:.1} L{:.1},{:.1}\" stroke=\"#8a5a2b\" stroke-width=\"1.6\"/>",
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
                    SIDE_TINTS[side as usize],
                    self.side_colour(side)
                );
            }
            for square in 0..TRACK_LEN {
                let (a, col, row) = Self::track_cell(square);
                let p = self.cell_centre(a, col, row);
                let fill = if is_entry(square) {
                    SIDE_TINTS[(square / 17) as usize]
                } else {
                    "#ffffff"
                };
                self.square(out, p, fill);
                if is_safe(square) {
                    self.safe_mark(out, p);
                }
            }
            for side in 0..4u8 {
                for row in 0..7u8 {
                    self.square(
                        out,
                        self.cell_centre(side, 1, row),
                        SIDE_TINTS[side as usize],
                    );
                }
            }
        } else {
            for arm in 0..4u8 {
                for col in 0..3u8 {
                    for row in 0..8u8 {
                        let p = self.cell_centre(arm, col, row);
                        let fill = if col == 1 {
                            SIDE_TINTS[arm as usize]
                        } else {
                            "#fffdf5"
                        };
                        self.square(out, p, fill);
                        if self.castles.contains(&(col, row)) {
                            self.castle_mark(out, p);
                        }
                    }
                }
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
                SIDE_TINTS[side as usize]
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

    fn pieces(&self, out: &mut String) {
        let views = self.game.pieces();
        // Group the views by place, keeping the engine's order.
        let mut places: Vec<(Place, Vec<crate::PieceView>)> = Vec::new();
        for v in views {
            match places.iter_mut().find(|(p, _)| *p == v.place) {
                Some((_, list)) => list.push(v),
                None => places.push((v.place, vec![v])),
            }
        }
        // The charkoni holds every seat's pieces: each seat's in the triangle towards its arm.
        let mut groups: Vec<((f64, f64), f64, Vec<crate::PieceView>)> = Vec::new();
        for (place, list) in places {
            if matches!(place, Place::Charkoni { .. }) {
                for seat in 0..self.game.seats() {
                    let mine: Vec<_> = list.iter().copied().filter(|v| v.seat == seat).collect();
                    if !mine.is_empty() {
                        groups.push((self.at(seat % 4, 0.0, 0.9), self.cell * 0.55, mine));
                    }
                }
            } else {
                let (p, room) = self.place_point(place);
                groups.push((p, room, list));
            }
        }
        for ((x, y), room, list) in groups {
            let n = list.len();
            let r = if n == 1 {
                self.cell * 0.34
            } else {
                (room / (n as f64).sqrt().ceil()).min(self.cell * 0.34) * 0.85
            };
            let gap = 2.1 * r;
            for (v, (px, py)) in list.iter().zip(spread(n, x, y, gap)) {
                let colour = self.seat_colour(v.seat);
                let piece = if v.piece == crate::NO_PIECE {
                    String::new()
                } else {
                    format!(" piece {}", v.piece)
                };
                let _ = write!(
                    out,
                    "<g><title>seat {}{piece} ({} here)</title><circle cx=\"{px:.1}\" cy=\"{py:.1}\" r=\"{r:.1}\" fill=\"{colour}\" stroke=\"#111\" stroke-width=\"1.2\"/>",
                    v.seat, v.count
                );
                if v.count > 1 {
                    let _ = write!(
                        out,
                        "<text x=\"{px:.1}\" y=\"{:.1}\" font-size=\"{:.1}\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"#fff\" stroke=\"#000\" stroke-width=\"0.4\">{}</text>",
                        py + r * 0.4,
                        r * 1.1,
                        v.count
                    );
                }
                out.push_str("</g>");
            }
        }
    }

    fn last_play(&self, out: &mut String) {
        last_play_arrows(out, self.game, "#111", 2.0, 0.75, |place, _| {
            self.place_point(place).0
        });
    }

    fn render(&self) -> String {
        let w = self.width;
        let h = w + self.cell * 1.2;
        document(
            w,
            h,
            h - self.cell * 0.4,
            self.cell * 0.6,
            self.game,
            |out| {
                self.board(out);
                self.pieces(out);
                self.last_play(out);
            },
        )
    }
}

struct BackgammonPicture<'a> {
    game: &'a Game,
    unit: f64,
    pad: f64,
    width: f64,
    height: f64,
}

impl<'a> BackgammonPicture<'a> {
    fn new(game: &'a Game, size: f64) -> Self {
        // 12 points + bar + tray = 14 units wide, 11 units high.
        let pad = size * 0.02;
        let unit = (size - 2.0 * pad) / 14.0;
        BackgammonPicture {
            game,
            unit,
            pad,
            width: size,
            height: 11.0 * unit + 2.0 * pad,
        }
    }

    /// x of the centre of a point, and whether it is on the top half.
    fn point_x(&self, point: u8) -> (f64, bool) {
        let u = self.unit;
        let p = point.clamp(1, 24);
        let (slot, top) = match p {
            1..=6 => (12 - p, false),  // right half, bottom, point 1 rightmost
            7..=12 => (12 - p, false), // left half, bottom
            13..=18 => (p - 13, true), // left half, top
            _ => (p - 13, true),       // right half, top
        };
        // slots 0..6 left half, 6..12 right half after the bar
        let x = self.pad + slot as f64 * u + if slot >= 6 { u } else { 0.0 } + u / 2.0;
        (x, top)
    }

    fn bar_x(&self) -> f64 {
        self.pad + 6.5 * self.unit
    }

    fn tray_x(&self) -> f64 {
        self.pad + 13.5 * self.unit
    }

    fn place_point(&self, place: Place, seat: u8) -> (f64, f64) {
        let u = self.unit;
        let top = self.pad;
        let bottom = self.pad + 11.0 * u;
        match place {
            Place::Point { point } => {
                let (x, is_top) = self.point_x(point);
                (
                    x,
                    if is_top {
                        top + 2.5 * u
                    } else {
                        bottom - 2.5 * u
                    },
                )
            }
            Place::Bar => (
                self.bar_x(),
                if seat == 0 {
                    bottom - 3.5 * u
                } else {
                    top + 3.5 * u
                },
            ),
            Place::Off => (
                self.tray_x(),
                if seat == 0 {
                    bottom - 2.0 * u
                } else {
                    top + 2.0 * u
                },
            ),
            _ => (self.bar_x(), top + 5.5 * u),
        }
    }

    fn board(&self, out: &mut String) {
        let u = self.unit;
        let (x0, y0) = (self.pad, self.pad);
        let _ = write!(
            out,
            "<rect x=\"{x0:.1}\" y=\"{y0:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"#e9d8b4\" stroke=\"#4a3520\" stroke-width=\"3\"/>",
            13.0 * u,
            11.0 * u
        );
        for point in 1..=24u8 {
            let (x, is_top) = self.point_x(point);
            let fill = if point % 2 == 0 { "#a0522d" } else { "#d9b38c" };
            let (base, tip, label_y) = if is_top {
                (y0, y0 + 4.6 * u, y0 - 0.15 * u + 0.0)
            } else {
                (y0 + 11.0 * u, y0 + 6.4 * u, y0 + 11.0 * u)
            };
            let _ = write!(
                out,
                "<path d=\"M{:.1},{base:.1} L{:.1},{base:.1} L{x:.1},{tip:.1} z\" fill=\"{fill}\" stroke=\"#4a3520\" stroke-width=\"0.6\"/>",
                x - u / 2.0,
                x + u / 2.0
            );
            let ly = if is_top {
                label_y + 0.1 * u + u * 0.0
            } else {
                label_y
            };
            let _ = write!(
                out,
                "<text x=\"{x:.1}\" y=\"{:.1}\" font-size=\"{:.1}\" text-anchor=\"middle\" fill=\"#4a3520\" opacity=\"0.8\">{point}</text>",
                if is_top { ly + 5.1 * u } else { ly - 4.75 * u },
                u * 0.3
            );
        }
        let _ = write!(
            out,
            "<rect x=\"{:.1}\" y=\"{y0:.1}\" width=\"{u:.1}\" height=\"{:.1}\" fill=\"#6b4a2b\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"{:.1}\" text-anchor=\"middle\" fill=\"#f3ead7\">bar</text>\
             <rect x=\"{:.1}\" y=\"{y0:.1}\" width=\"{u:.1}\" height=\"{:.1}\" fill=\"#cdb48a\" stroke=\"#4a3520\" stroke-width=\"2\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"{:.1}\" text-anchor=\"middle\" fill=\"#4a3520\">off</text>",
            self.bar_x() - u / 2.0,
            11.0 * u,
            self.bar_x(),
            y0 + 5.6 * u,
            u * 0.32,
            self.tray_x() - u / 2.0,
            11.0 * u,
            self.tray_x(),
            y0 + 5.6 * u,
            u * 0.32,
        );
    }

    fn checker(&self, out: &mut String, seat: u8, x: f64, y: f64, label: Option<u32>) {
        let s = (seat % 2) as usize;
        let r = self.unit * 0.45;
        let _ = write!(
            out,
            "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{r:.1}\" fill=\"{}\" stroke=\"#111\" stroke-width=\"1\"/>",
            BG_FILL[s]
        );
        if let Some(n) = label {
            let _ = write!(
                out,
                "<text x=\"{x:.1}\" y=\"{:.1}\" font-size=\"{:.1}\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"{}\">{n}</text>",
                y + r * 0.38,
                r,
                BG_TEXT[s]
            );
        }
    }

    fn pieces(&self, out: &mut String) {
        let u = self.unit;
        let top = self.pad;
        let bottom = self.pad + 11.0 * u;
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
            let _ = write!(out, "<g><title>seat {seat}: {count} checker(s)</title>");
            match place {
                Place::Point { point } => {
                    let (x, is_top) = self.point_x(point);
                    let shown = count.min(5);
                    for i in 0..shown {
                        let y = if is_top {
                            top + (i as f64 + 0.5) * u * 0.92
                        } else {
                            bottom - (i as f64 + 0.5) * u * 0.92
                        };
                        let label = (i + 1 == shown && count > 5).then_some(count);
                        self.checker(out, seat, x, y, label);
                    }
                }
                Place::Bar => {
                    let (x, y) = self.place_point(place, seat);
                    self.checker(out, seat, x, y, (count > 1).then_some(count));
                }
                Place::Off => {
                    let x = self.tray_x();
                    let s = (seat % 2) as usize;
                    let h = u * 0.22;
                    for i in 0..count.min(15) {
                        let y = if seat == 0 {
                            bottom - (i as f64 + 1.0) * h
                        } else {
                            top + i as f64 * h
                        };
                        let _ = write!(
                            out,
                            "<rect x=\"{:.1}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{}\" stroke=\"#111\" stroke-width=\"0.5\"/>",
                            x - u * 0.4,
                            u * 0.8,
                            h * 0.9,
                            BG_FILL[s]
                        );
                    }
                    let ty = if seat == 0 {
                        bottom - (count.min(15) as f64 + 1.0) * h - 0.1 * u
                    } else {
                        top + (count.min(15) as f64 + 1.5) * h + 0.2 * u
                    };
                    let _ = write!(
                        out,
                        "<text x=\"{x:.1}\" y=\"{ty:.1}\" font-size=\"{:.1}\" text-anchor=\"middle\" fill=\"#222\">{count}</text>",
                        u * 0.35
                    );
                }
                _ => {}
            }
            out.push_str("</g>");
        }
    }

    fn last_play(&self, out: &mut String) {
        last_play_arrows(out, self.game, "#1565c0", 2.2, 0.85, |place, seat| {
            self.place_point(place, seat)
        });
    }

    fn render(&self) -> String {
        let w = self.width;
        let h = self.height + self.unit * 0.9;
        document(
            w,
            h,
            h - self.unit * 0.25,
            self.unit * 0.42,
            self.game,
            |out| {
                self.board(out);
                self.pieces(out);
                self.last_play(out);
            },
        )
    }
}

/// Dashed arrows from where to where each piece-moving step of the game's last play went
/// (cube decisions move nothing); `point` gives a place's centre for the moving seat.
fn last_play_arrows(
    out: &mut String,
    game: &Game,
    stroke: &str,
    width: f64,
    opacity: f64,
    point: impl Fn(Place, u8) -> (f64, f64),
) {
    let Some((_, play)) = game.last_play() else {
        return;
    };
    for step in play.steps() {
        if matches!(
            step.kind,
            StepKind::Double | StepKind::NoDouble | StepKind::Take | StepKind::Drop
        ) {
            continue;
        }
        let a = point(game.place(step.seat, step.from), step.seat);
        let b = point(game.place(step.seat, step.to), step.seat);
        if a == b {
            continue;
        }
        let _ = write!(
            out,
            "<line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"{stroke}\" stroke-width=\"{width}\" stroke-dasharray=\"5,3\" marker-end=\"url(#arrow)\" opacity=\"{opacity}\"/>",
            a.0, a.1, b.0, b.1
        );
    }
}

/// The SVG document around a board picture: the background, the arrow marker, what `draw`
/// writes, and the caption (variant and whose turn) at `caption_y`.
fn document(
    w: f64,
    h: f64,
    caption_y: f64,
    font_size: f64,
    game: &Game,
    draw: impl FnOnce(&mut String),
) -> String {
    let mut out = String::with_capacity(32 * 1024);
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{h:.0}\" viewBox=\"0 0 {w:.1} {h:.1}\" font-family=\"sans-serif\">"
    );
    arrow_defs(&mut out);
    let _ = write!(
        out,
        "<rect width=\"{w:.1}\" height=\"{h:.1}\" fill=\"#f3ead7\"/>"
    );
    draw(&mut out);
    let _ = write!(
        out,
        "<text x=\"{:.1}\" y=\"{caption_y:.1}\" font-size=\"{font_size:.1}\" text-anchor=\"middle\" fill=\"#222\">{}</text></svg>",
        w / 2.0,
        escape(&caption(game))
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn track_cells_are_distinct_and_on_the_arms() {
        let mut seen = std::collections::HashSet::new();
        for s in 0..TRACK_LEN {
            let (arm, col, row) = CrossPicture::track_cell(s);
            assert!(arm < 4 && col < 3 && row < 8);
            // The middle column holds only the tip (the home path is the rest).
            assert!(col != 1 || row == 7);
            assert!(seen.insert((arm, col, row)), "square {s} overlaps");
        }
        assert_eq!(seen.len(), 68);
    }

    #[test]
    fn safe_squares_are_row_three_and_the_tips() {
        for s in 0..TRACK_LEN {
            let (_, col, row) = CrossPicture::track_cell(s);
            let printed_safe = (col != 1 && row == 3) || (col == 1 && row == 7);
            assert_eq!(is_safe(s), printed_safe, "square {s}");
        }
    }

    #[test]
    fn every_preset_renders_a_well_formed_svg() {
        for v in crate::variants() {
            let g = Game::from_preset(v, 1).unwrap();
            let svg = render(&g, 400.0);
            assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"), "{v}");
            assert_eq!(svg.matches("<g>").count(), svg.matches("</g>").count());
        }
    }
}
