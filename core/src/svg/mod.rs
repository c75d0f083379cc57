//! SVG pictures of a game ([`Game::svg`]): the board of its kind with every piece, stacks with
//! their counts, the squares that are safe under the game's rules, the last play drawn along the
//! path each piece travelled, and under the board a legend (which colour is which seat, the
//! teams), the pending roll (dice faces, cowries mouth up and down) and a caption.
//!
//! What the picture shows about the rules comes from the rule system ([`RuleSystem::owners`],
//! [`RuleSystem::side_of_owner`], [`RuleSystem::seat_of_owner`], [`RuleSystem::team`],
//! [`RuleSystem::safe_places`], [`RuleSystem::route`]); this module only lays it out.
//!
//! Every element a reader (or a test) may look for carries a class: `piece`, `safe`, `castle`,
//! `arrow`, `legend`, `die` (with `pip`s), `cowrie up` / `cowrie down`, `point-label`, `pips`,
//! `caption`. Titles (`<title>`) name what a piece group is, for tooltips.
//!
//! The cross boards (the Parcheesi loop and the classic cross) are drawn by `cross.rs`, the
//! backgammon board by `backgammon.rs`.

mod backgammon;
mod cross;
#[cfg(test)]
mod tests;

use crate::{BoardKind, Game, Node, Place, Roll, RuleSystem, Step, StepKind};
use std::fmt::Write;

/// The width in pixels of a picture when none is given (Python's `Game.svg()`, `_repr_svg_`).
pub const DEFAULT_SIZE: f64 = 560.0;

/// The smallest width drawn; a smaller, negative or non-finite width gives [`DEFAULT_SIZE`].
pub const MIN_SIZE: f64 = 50.0;

/// The largest width drawn (a million pixels); a larger one gives [`DEFAULT_SIZE`] too. Near
/// `f64::MAX` the picture's coordinates overflowed to `inf` (no valid SVG), and long before that
/// they were printed with hundreds of digits.
pub const MAX_SIZE: f64 = 1.0e6;

impl Game {
    /// The board as a standalone SVG document `size` pixels wide.
    ///
    /// It shows every piece (stacks with their counts; in classic Pachisi the pieces waiting to
    /// enter, entered and home apart), the safe squares or castles of the game's rules, the last
    /// play as arrows along the squares each piece passed, a legend of the seats' colours (and
    /// teams), the pending roll as dice faces or cowries, and a caption (variant, whose turn,
    /// the result). Backgammon is drawn from the side of the seat to move, with both pip counts.
    ///
    /// A `size` below [`MIN_SIZE`], above [`MAX_SIZE`], or not finite, draws at
    /// [`DEFAULT_SIZE`]. Needs the `svg` feature (on by default).
    ///
    /// ```
    /// use pachisi::{Game, Roll};
    /// let mut game = Game::from_preset("parcheesi", 7).unwrap();
    /// game.set_roll(Roll::Dice([5, 3])).unwrap();
    /// let svg = game.svg(400.0);
    /// assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
    /// assert!(svg.contains("width=\"400\""));
    /// assert_eq!(svg.matches("class=\"die\"").count(), 2); // the pending roll
    /// let classic = Game::from_preset("pachisi", 1).unwrap();
    /// assert!(classic.svg(f64::NAN).contains("width=\"560\"")); // the default size
    /// ```
    pub fn svg(&self, size: f64) -> String {
        let size = if (MIN_SIZE..=MAX_SIZE).contains(&size) {
            size
        } else {
            DEFAULT_SIZE
        };
        let facts = Facts::of(self);
        match self.board() {
            BoardKind::Loop => cross::render(self, &facts, size, false),
            BoardKind::Cross => cross::render(self, &facts, size, true),
            BoardKind::Backgammon => backgammon::render(self, &facts, size),
        }
    }
}

/// Calls `$body` with `$sys` bound to the game's rule system.
macro_rules! with_system {
    ($game:expr, $sys:ident => $body:expr) => {
        match $game {
            Game::Parcheesi(g) => {
                let $sys = g.system();
                $body
            }
            Game::Family(g) => {
                let $sys = g.system();
                $body
            }
            Game::Classic(g) => {
                let $sys = g.system();
                $body
            }
            Game::Backgammon(g) => {
                let $sys = g.system();
                $body
            }
        }
    };
}

/// What a picture needs to know from the rule system, asked once per picture.
pub(super) struct Facts {
    /// Number of seats.
    pub seats: u8,
    /// Per owner (a `PieceView::seat`, a `Step::seat`): the board side whose colour it wears.
    pub side: Vec<u8>,
    /// Per owner: the seat that plays its pieces.
    pub seat_of: Vec<u8>,
    /// Per seat: the seats that win with it (bitmask).
    pub team: Vec<u16>,
    /// The squares that are safe under the rules.
    pub safe: Vec<Place>,
}

fn facts_of<R: RuleSystem>(sys: &R) -> Facts {
    let owners = sys.owners();
    Facts {
        seats: sys.seats(),
        side: (0..owners).map(|o| sys.side_of_owner(o)).collect(),
        seat_of: (0..owners).map(|o| sys.seat_of_owner(o)).collect(),
        team: (0..sys.seats()).map(|s| sys.team(s)).collect(),
        safe: sys.safe_places(),
    }
}

impl Facts {
    fn of(game: &Game) -> Facts {
        with_system!(game, sys => facts_of(sys))
    }

    /// The board side of an owner (its own number if the system did not list it).
    pub fn side_of(&self, owner: u8) -> u8 {
        self.side.get(owner as usize).copied().unwrap_or(owner)
    }

    /// The seat that plays an owner's pieces.
    pub fn seat_of(&self, owner: u8) -> u8 {
        self.seat_of.get(owner as usize).copied().unwrap_or(owner)
    }

    /// The owners a seat plays (its colours).
    pub fn owners_of(&self, seat: u8) -> Vec<u8> {
        (0..self.seat_of.len() as u8)
            .filter(|&o| self.seat_of(o) == seat)
            .collect()
    }

    /// "team A", "team B"... by the team's lowest seat, for a seat with partners.
    pub fn team_name(&self, seat: u8) -> Option<String> {
        let mine = *self.team.get(seat as usize)?;
        if mine.count_ones() < 2 {
            return None;
        }
        let mut firsts: Vec<u32> = self.team.iter().map(|t| t.trailing_zeros()).collect();
        firsts.sort_unstable();
        firsts.dedup();
        let index = firsts.iter().position(|&f| f == mine.trailing_zeros())?;
        Some(format!("team {}", (b'A' + index as u8) as char))
    }

    /// "team A with seat 2" for a seat with partners.
    pub fn team_text(&self, seat: u8) -> Option<String> {
        let name = self.team_name(seat)?;
        let mine = self.team[seat as usize];
        let others: Vec<String> = (0..self.seats)
            .filter(|&s| s != seat && mine & (1 << s) != 0)
            .map(|s| format!("seat {s}"))
            .collect();
        Some(format!("{name} with {}", others.join(" and ")))
    }

    /// How a piece group names its owner: "seat 2", or "seat 0 (colour 2)" when the seat plays
    /// several colours.
    pub fn owner_name(&self, owner: u8) -> String {
        let seat = self.seat_of(owner);
        if seat == owner {
            format!("seat {seat}")
        } else {
            format!("seat {seat} (colour {owner})")
        }
    }
}

/// The positions a step of `owner` passes through, ending with `to` (from the rule system).
pub(super) fn route(game: &Game, owner: u8, from: u8, to: u8) -> Vec<u8> {
    with_system!(game, sys => sys.route(owner, from, to))
}

/// The steps of the last play that move a piece (cube decisions move nothing).
pub(super) fn moving_steps(game: &Game) -> Vec<Step> {
    let Some((_, play)) = game.last_play() else {
        return Vec::new();
    };
    play.steps()
        .iter()
        .filter(|s| {
            !matches!(
                s.kind,
                StepKind::Double | StepKind::NoDouble | StepKind::Take | StepKind::Drop
            ) && s.from != s.to
        })
        .copied()
        .collect()
}

/// The roll being played, at a decision node.
pub(super) fn pending_roll(game: &Game) -> Option<Roll> {
    game.pending_roll()
}

pub(super) fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The caption: variant, whose turn and what to do, or the result.
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
        Node::Decision => match pending_roll(game) {
            Some(Roll::Dice([a, b])) => format!("seat {} to play {a}-{b}", game.to_move()),
            Some(Roll::Cowries(up)) => {
                let worth = match game {
                    Game::Classic(g) => {
                        let sys = g.system();
                        let grace = if sys.is_grace(up) { ", a grace" } else { "" };
                        format!(": {} squares{grace}", sys.throw_value(up))
                    }
                    _ => String::new(),
                };
                format!("seat {} to play {up} up{worth}", game.to_move())
            }
            None => format!("seat {} to play", game.to_move()),
        },
    };
    format!("{} — {status}", game.variant())
}

/// A filled circle.
pub(super) fn circle(out: &mut String, (x, y): (f64, f64), r: f64, fill: &str, extra: &str) {
    let _ = write!(
        out,
        "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{r:.1}\" fill=\"{fill}\"{extra}/>"
    );
}

/// Centred text; `extra` adds attributes.
pub(super) fn text(out: &mut String, (x, y): (f64, f64), size: f64, body: &str, extra: &str) {
    let _ = write!(
        out,
        "<text x=\"{x:.1}\" y=\"{y:.1}\" font-size=\"{size:.1}\" text-anchor=\"middle\"{extra}>{}</text>",
        escape(body)
    );
}

/// A count on a piece: big, bold, white with a dark outline so it reads on every colour.
pub(super) fn numeral(out: &mut String, (x, y): (f64, f64), size: f64, n: u32) {
    let _ = write!(
        out,
        "<text class=\"count\" x=\"{x:.1}\" y=\"{:.1}\" font-size=\"{size:.1}\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"#fff\" stroke=\"#000\" stroke-width=\"{:.2}\" paint-order=\"stroke\">{n}</text>",
        y + size * 0.36,
        size * 0.14
    );
}

/// An arrow along `points` (consecutive repeats dropped); nothing for fewer than two points.
pub(super) fn arrow(
    out: &mut String,
    points: &[(f64, f64)],
    stroke: &str,
    width: f64,
    title: &str,
) {
    let mut pts: Vec<(f64, f64)> = Vec::with_capacity(points.len());
    for &p in points {
        if pts
            .last()
            .is_none_or(|q: &(f64, f64)| (q.0 - p.0).abs() + (q.1 - p.1).abs() > 0.05)
        {
            pts.push(p);
        }
    }
    if pts.len() < 2 {
        return;
    }
    let list: Vec<String> = pts.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
    let _ = write!(
        out,
        "<polyline class=\"arrow\" points=\"{}\" fill=\"none\" stroke=\"{stroke}\" stroke-width=\"{width:.1}\" stroke-linejoin=\"round\" stroke-linecap=\"round\" stroke-dasharray=\"{:.1},{:.1}\" marker-end=\"url(#arrow)\" opacity=\"0.8\"><title>{}</title></polyline>",
        list.join(" "),
        width * 2.5,
        width * 1.5,
        escape(title)
    );
}

/// One seat's entry in the legend: its colours (fill, outline) and its text.
pub(super) struct LegendEntry {
    pub seat: u8,
    pub swatches: Vec<(&'static str, &'static str)>,
    pub text: String,
    pub title: String,
}

/// The legend: the entries one after another from `x` on the baseline `y`, wrapping to a new
/// row when `width` is used up; the seat to move in bold. Returns the baseline of the last row.
pub(super) fn legend(
    out: &mut String,
    entries: &[LegendEntry],
    (x, y): (f64, f64),
    width: f64,
    font: f64,
    to_move: Option<u8>,
) -> f64 {
    let r = font * 0.45;
    let (mut cx, mut cy) = (x, y);
    for e in entries {
        let swatches = e.swatches.len() as f64 * (2.0 * r + font * 0.15);
        // Sans-serif digits and lower case average a little over half the font size.
        let text_width = 0.52 * font * e.text.chars().count() as f64;
        let needed = swatches + font * 0.2 + text_width;
        if cx > x && cx + needed > x + width {
            cx = x;
            cy += font * 1.6;
        }
        let _ = write!(
            out,
            "<g class=\"legend\"><title>{}</title>",
            escape(&e.title)
        );
        let mut sx = cx + r;
        for (fill, stroke) in &e.swatches {
            let extra = format!(" stroke=\"{stroke}\" stroke-width=\"1.2\"");
            circle(out, (sx, cy - font * 0.32), r, fill, &extra);
            sx += 2.0 * r + font * 0.15;
        }
        let weight = if to_move == Some(e.seat) {
            " font-weight=\"bold\""
        } else {
            ""
        };
        let _ = write!(
            out,
            "<text x=\"{:.1}\" y=\"{cy:.1}\" font-size=\"{font:.1}\" fill=\"#222\"{weight}>{}</text></g>",
            sx - r + font * 0.05,
            escape(&e.text)
        );
        cx += needed + font * 1.2;
    }
    cy
}

/// Draws the pending roll with its left edge at `x`, centred on `y`, `d` high: two dice faces
/// or six cowries. Returns the width used (0 when nothing is pending).
pub(super) fn roll_picture(
    out: &mut String,
    roll: Option<Roll>,
    (x, y): (f64, f64),
    d: f64,
) -> f64 {
    match roll {
        Some(Roll::Dice(dice)) => {
            for (i, &v) in dice.iter().enumerate() {
                die(out, (x + i as f64 * d * 1.25 + d / 2.0, y), d, v);
            }
            d * 2.25
        }
        Some(Roll::Cowries(up)) => {
            let shells = crate::classic::SHELLS;
            let step = d * 0.72;
            for i in 0..shells {
                cowrie(out, (x + step * (i as f64 + 0.5), y), d, i < up);
            }
            step * shells as f64
        }
        None => 0.0,
    }
}

/// A die face showing `v` pips (a value outside 1..=6 shows as a number).
fn die(out: &mut String, (x, y): (f64, f64), d: f64, v: u8) {
    let h = d / 2.0;
    let _ = write!(
        out,
        "<g class=\"die\"><title>die {v}</title><rect x=\"{:.1}\" y=\"{:.1}\" width=\"{d:.1}\" height=\"{d:.1}\" rx=\"{:.1}\" fill=\"#fffef8\" stroke=\"#222\" stroke-width=\"1.2\"/>",
        x - h,
        y - h,
        d * 0.18
    );
    // Pip positions on a face, in quarters of the face from its centre.
    const TL: (f64, f64) = (-1.0, -1.0);
    const TR: (f64, f64) = (1.0, -1.0);
    const ML: (f64, f64) = (-1.0, 0.0);
    const MR: (f64, f64) = (1.0, 0.0);
    const BL: (f64, f64) = (-1.0, 1.0);
    const BR: (f64, f64) = (1.0, 1.0);
    const C: (f64, f64) = (0.0, 0.0);
    let pips: &[(f64, f64)] = match v {
        1 => &[C],
        2 => &[TR, BL],
        3 => &[TR, C, BL],
        4 => &[TL, TR, BL, BR],
        5 => &[TL, TR, C, BL, BR],
        6 => &[TL, TR, ML, MR, BL, BR],
        _ => &[],
    };
    for (px, py) in pips {
        let _ = write!(
            out,
            "<circle class=\"pip\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"{:.1}\" fill=\"#222\"/>",
            x + px * d * 0.26,
            y + py * d * 0.26,
            d * 0.09
        );
    }
    if pips.is_empty() {
        text(out, (x, y + d * 0.18), d * 0.5, &v.to_string(), "");
    }
    out.push_str("</g>");
}

/// A cowrie shell `d` high, mouth up (the toothed slit shows) or down (the humped back).
fn cowrie(out: &mut String, (x, y): (f64, f64), d: f64, up: bool) {
    let (rx, ry) = (d * 0.3, d * 0.46);
    if up {
        let _ = write!(
            out,
            "<g class=\"cowrie up\"><title>cowrie mouth up</title><ellipse cx=\"{x:.1}\" cy=\"{y:.1}\" rx=\"{rx:.1}\" ry=\"{ry:.1}\" fill=\"#f6efdc\" stroke=\"#6b5233\" stroke-width=\"1.2\"/><path d=\"M{x:.1},{:.1} L{x:.1},{:.1}\" stroke=\"#3b2a18\" stroke-width=\"{:.1}\" stroke-linecap=\"round\"/>",
            y - ry * 0.72,
            y + ry * 0.72,
            d * 0.07
        );
        // The teeth either side of the slit.
        for k in -2..=2 {
            let ty = y + k as f64 * ry * 0.26;
            let _ = write!(
                out,
                "<path d=\"M{:.1},{ty:.1} L{:.1},{ty:.1}\" stroke=\"#6b5233\" stroke-width=\"0.8\"/>",
                x - rx * 0.4,
                x + rx * 0.4
            );
        }
    } else {
        let _ = write!(
            out,
            "<g class=\"cowrie down\"><title>cowrie mouth down</title><ellipse cx=\"{x:.1}\" cy=\"{y:.1}\" rx=\"{rx:.1}\" ry=\"{ry:.1}\" fill=\"#d9b77e\" stroke=\"#6b5233\" stroke-width=\"1.2\"/><ellipse cx=\"{:.1}\" cy=\"{:.1}\" rx=\"{:.1}\" ry=\"{:.1}\" fill=\"#f3e2bd\" opacity=\"0.8\"/>",
            x - rx * 0.25,
            y - ry * 0.3,
            rx * 0.35,
            ry * 0.35
        );
    }
    out.push_str("</g>");
}

/// Where the footer under a board goes and at what scale: the legend from `origin` within
/// `width`, the pending roll `roll_gap` below the legend's last baseline, `die` high and
/// followed by `after_roll` before the caption, and the document ending `below_roll + pad` under
/// the roll. The two board pictures differ only in these numbers.
pub(super) struct Footer {
    pub origin: (f64, f64),
    pub width: f64,
    pub font: f64,
    pub roll_gap: f64,
    pub die: f64,
    pub after_roll: f64,
    pub below_roll: f64,
    pub pad: f64,
    pub page_width: f64,
}

/// The whole picture: what `draw` writes (the board), then the legend of `entries`, the pending
/// roll and the caption laid out by `footer`.
pub(super) fn with_footer(
    game: &Game,
    entries: &[LegendEntry],
    footer: &Footer,
    draw: impl FnOnce(&mut String),
) -> String {
    let mut below = String::new();
    let legend_y = legend(
        &mut below,
        entries,
        footer.origin,
        footer.width,
        footer.font,
        (!game.is_over()).then(|| game.to_move()),
    );
    let roll_y = legend_y + footer.roll_gap;
    let roll = pending_roll(game);
    let mut caption_x = footer.pad;
    if roll.is_some() {
        caption_x +=
            roll_picture(&mut below, roll, (footer.pad, roll_y), footer.die) + footer.after_roll;
    }
    document(
        (footer.page_width, roll_y + footer.below_roll + footer.pad),
        (caption_x, roll_y + footer.font * 0.36),
        footer.font,
        game,
        |out| {
            draw(out);
            out.push_str(&below);
        },
    )
}

/// The SVG document: the background, the arrow marker, what `draw` writes, and the caption
/// (left-aligned at `caption_at`).
pub(super) fn document(
    (w, h): (f64, f64),
    caption_at: (f64, f64),
    font: f64,
    game: &Game,
    draw: impl FnOnce(&mut String),
) -> String {
    let mut out = String::with_capacity(48 * 1024);
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{h:.0}\" viewBox=\"0 0 {w:.1} {h:.1}\" font-family=\"sans-serif\">\
         <defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"8\" refY=\"5\" markerWidth=\"5\" markerHeight=\"5\" orient=\"auto-start-reverse\">\
         <path d=\"M0,0 L10,5 L0,10 z\" fill=\"#111\"/></marker></defs>\
         <rect width=\"{w:.1}\" height=\"{h:.1}\" fill=\"#f3ead7\"/>"
    );
    draw(&mut out);
    let _ = write!(
        out,
        "<text class=\"caption\" x=\"{:.1}\" y=\"{:.1}\" font-size=\"{font:.1}\" fill=\"#222\">{}</text></svg>",
        caption_at.0,
        caption_at.1,
        escape(&caption(game))
    );
    out
}
