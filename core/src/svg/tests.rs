//! Tests of the pictures. Most read only the SVG text (classes, titles, coordinates), so they say
//! what a reader sees: the legend, the dice and cowries, arrows that follow the squares, the safe
//! squares of the rules, the charkoni's three stages, backgammon's view, pip counts and labels.

use super::cross::CrossPicture;
use crate::board::{TRACK_LEN, is_safe};
use crate::{Game, Node, Roll, Rules};
use serde_json::json;

// ------------------------------------------------------------------------------------------
// A small reader of the SVG text.

/// One tag: its name, its text between `<` and `>`, and where it ends.
#[derive(Debug)]
struct Tag<'a> {
    name: &'a str,
    raw: &'a str,
    close: bool,
    empty: bool,
    end: usize,
}

fn tags(svg: &str) -> Vec<Tag<'_>> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(open) = svg[i..].find('<') {
        let start = i + open;
        let Some(len) = svg[start..].find('>') else {
            break;
        };
        let raw = &svg[start + 1..start + len];
        let close = raw.starts_with('/');
        let empty = raw.ends_with('/');
        let body = raw.trim_start_matches('/').trim_end_matches('/');
        let name = body.split_whitespace().next().unwrap_or("");
        out.push(Tag {
            name,
            raw,
            close,
            empty,
            end: start + len + 1,
        });
        i = start + len + 1;
    }
    out
}

/// The value of attribute `name` in a tag's text.
fn attr<'a>(raw: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let at = raw.find(&key)? + key.len();
    let len = raw[at..].find('"')?;
    Some(&raw[at..at + len])
}

fn num(raw: &str, name: &str) -> f64 {
    attr(raw, name)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no number `{name}` in <{raw}>"))
}

/// Checks that every tag closes in order, text holds no stray `&`, and numbers are finite.
fn well_formed(svg: &str) -> Result<(), String> {
    if !svg.starts_with("<svg") || !svg.ends_with("</svg>") {
        return Err("not one <svg> element".into());
    }
    let mut stack: Vec<&str> = Vec::new();
    for t in tags(svg) {
        for v in ["NaN", "inf"] {
            if t.raw.contains(v) {
                return Err(format!("<{}> holds {v}", t.raw));
            }
        }
        if t.close {
            if stack.pop() != Some(t.name) {
                return Err(format!("</{}> closes nothing open", t.name));
            }
        } else if !t.empty {
            stack.push(t.name);
        }
    }
    for piece in svg.split('&').skip(1) {
        if !["amp;", "lt;", "gt;", "quot;"]
            .iter()
            .any(|e| piece.starts_with(e))
        {
            return Err("a bare `&`".into());
        }
    }
    if stack.is_empty() {
        Ok(())
    } else {
        Err(format!("unclosed {stack:?}"))
    }
}

/// Every element named `name`: its opening tag's text and everything inside it.
fn elements<'a>(svg: &'a str, name: &str) -> Vec<(&'a str, &'a str)> {
    let all = tags(svg);
    let mut out = Vec::new();
    for (i, t) in all.iter().enumerate() {
        if t.name != name || t.close {
            continue;
        }
        if t.empty {
            out.push((t.raw, ""));
            continue;
        }
        let mut depth = 0;
        for u in &all[i + 1..] {
            if u.name == name && !u.empty {
                if u.close {
                    if depth == 0 {
                        let inner_end = u.end - name.len() - 3;
                        out.push((t.raw, &svg[t.end..inner_end]));
                        break;
                    }
                    depth -= 1;
                } else {
                    depth += 1;
                }
            }
        }
    }
    out
}

fn with_class<'a>(svg: &'a str, name: &str, class: &str) -> Vec<(&'a str, &'a str)> {
    elements(svg, name)
        .into_iter()
        .filter(|(raw, _)| attr(raw, "class") == Some(class))
        .collect()
}

/// The text of an element's `<title>`.
fn title(inner: &str) -> &str {
    elements(inner, "title").first().map_or("", |t| t.1)
}

/// Texts as (raw tag, content).
fn texts(svg: &str) -> Vec<(&str, &str)> {
    elements(svg, "text")
}

/// The size of a board cell, read from the first square drawn (cross boards).
fn cell(svg: &str) -> f64 {
    let (raw, _) = elements(svg, "rect")
        .into_iter()
        .find(|(raw, _)| attr(raw, "width") == attr(raw, "height") && attr(raw, "x").is_some())
        .expect("a square");
    num(raw, "width")
}

/// The arrows of the last play: their points and titles (old pictures drew `<line>`s).
fn arrows(svg: &str) -> Vec<(Vec<(f64, f64)>, String)> {
    let mut out = Vec::new();
    for (raw, inner) in elements(svg, "polyline")
        .into_iter()
        .chain(elements(svg, "line"))
    {
        if attr(raw, "marker-end").is_none() {
            continue;
        }
        let points = match attr(raw, "points") {
            Some(list) => list
                .split_whitespace()
                .map(|p| {
                    let (x, y) = p.split_once(',').unwrap();
                    (x.parse().unwrap(), y.parse().unwrap())
                })
                .collect(),
            None => vec![
                (num(raw, "x1"), num(raw, "y1")),
                (num(raw, "x2"), num(raw, "y2")),
            ],
        };
        out.push((points, title(inner).to_string()));
    }
    out
}

/// The centre of the first circle of the group whose title starts with `prefix`.
fn group_centre(svg: &str, prefix: &str) -> (f64, f64) {
    let (_, inner) = elements(svg, "g")
        .into_iter()
        .find(|(_, inner)| title(inner).starts_with(prefix))
        .unwrap_or_else(|| panic!("no piece group `{prefix}`"));
    let (raw, _) = elements(inner, "circle")[0];
    (num(raw, "cx"), num(raw, "cy"))
}

fn dist(a: (f64, f64), b: (f64, f64)) -> f64 {
    ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt()
}

/// A seeded game played by always taking the first play that moves something, `plays` plays.
fn played(variant: &str, options: serde_json::Value, seed: u64, plays: usize) -> Vec<Game> {
    let rules = Rules::with_options(variant, &options).unwrap();
    let mut g = Game::new(&rules, seed);
    let mut out = Vec::new();
    let mut pick = seed;
    for _ in 0..plays * 4 {
        match g.node() {
            Node::Over => break,
            Node::Chance => {
                g.roll().unwrap();
            }
            Node::Decision => {
                let list = g.legal_plays();
                pick = pick
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let moving: Vec<_> = list.iter().filter(|p| !p.is_pass()).collect();
                let play = if moving.is_empty() {
                    list[0]
                } else {
                    *moving[(pick >> 33) as usize % moving.len()]
                };
                g.play(&play).unwrap();
                out.push(g.clone());
                if out.len() == plays {
                    break;
                }
            }
        }
    }
    out
}

// ------------------------------------------------------------------------------------------
// The board geometry the arrows rely on.

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
fn printed_safe_squares_are_row_three_and_the_tips() {
    for s in 0..TRACK_LEN {
        let (_, col, row) = CrossPicture::track_cell(s);
        let printed_safe = (col != 1 && row == 3) || (col == 1 && row == 7);
        assert_eq!(is_safe(s), printed_safe, "square {s}");
    }
}

// ------------------------------------------------------------------------------------------
// Every picture is a well-formed document.

#[test]
fn every_preset_renders_well_formed_pictures_throughout_a_game() {
    for v in crate::variants() {
        let start = Game::from_preset(v, 1).unwrap();
        well_formed(&start.svg(400.0)).unwrap_or_else(|e| panic!("{v}: {e}"));
        for (i, g) in played(v, json!({}), 5, 60).iter().enumerate() {
            well_formed(&g.svg(300.0)).unwrap_or_else(|e| panic!("{v} play {i}: {e}"));
        }
    }
    for (v, options) in [
        ("parcheesi", json!({"seats": 2})),
        ("parcheesi", json!({"seats": 3})),
        ("pachisi", json!({"seats": 2})),
        ("pachisi-family", json!({"seats": 3, "teams": false})),
        ("backgammon", json!({"cube": true})),
    ] {
        for g in played(v, options.clone(), 9, 30) {
            well_formed(&g.svg(300.0)).unwrap_or_else(|e| panic!("{v} {options}: {e}"));
        }
    }
}

#[test]
fn a_width_out_of_range_draws_at_the_default_size() {
    let g = Game::from_preset("backgammon", 1).unwrap();
    for bad in [
        f64::NAN,
        f64::INFINITY,
        -3.0,
        10.0,
        1.0e6 + 1.0,
        1.0e20,
        f64::MAX,
    ] {
        assert!(g.svg(bad).contains("width=\"560\""), "{bad}");
    }
    assert!(g.svg(200.0).contains("width=\"200\""));
    assert!(g.svg(1.0e6).contains("width=\"1000000\""));
    // The largest width: every coordinate finite, in every preset.
    for v in crate::variants() {
        let svg = Game::from_preset(v, 1).unwrap().svg(super::MAX_SIZE);
        assert!(!svg.contains("inf") && !svg.contains("NaN"), "{v}");
    }
}

// ------------------------------------------------------------------------------------------
// Which colour is which seat: the legend.

/// The fill of the pieces of seat `seat` (the first piece group titled "seat N...").
fn piece_fill(svg: &str, seat: u8) -> &str {
    let (_, inner) = with_class(svg, "g", "piece")
        .into_iter()
        .find(|(_, inner)| title(inner).starts_with(&format!("seat {seat}")))
        .unwrap_or_else(|| panic!("no piece of seat {seat}"));
    attr(elements(inner, "circle")[0].0, "fill").unwrap()
}

#[test]
fn the_legend_names_each_seat_with_its_colour_and_team() {
    for v in crate::variants() {
        let g = Game::from_preset(v, 1).unwrap();
        let svg = g.svg(560.0);
        let entries = with_class(&svg, "g", "legend");
        assert_eq!(entries.len(), g.seats() as usize, "{v}");
        let teams = matches!(*v, "pachisi-family" | "pachisi");
        for (seat, (_, inner)) in entries.iter().enumerate() {
            let text = texts(inner)[0].1;
            assert!(text.starts_with(&format!("seat {seat}")), "{v}: {text}");
            assert_eq!(text.contains("team"), teams, "{v}: {text}");
            let swatch = attr(elements(inner, "circle")[0].0, "fill").unwrap();
            assert_eq!(swatch, piece_fill(&svg, seat as u8), "{v} seat {seat}");
        }
    }
    // Partners share a team name.
    let svg = Game::from_preset("pachisi-family", 1).unwrap().svg(560.0);
    let entries = with_class(&svg, "g", "legend");
    let team = |i: usize| {
        texts(entries[i].1)[0]
            .1
            .rsplit(' ')
            .next()
            .unwrap()
            .to_string()
    };
    assert_eq!(team(0), team(2));
    assert_ne!(team(0), team(1));
    // Two players of classic Pachisi play two colours each: two swatches.
    let rules = Rules::with_options("pachisi", &json!({"seats": 2})).unwrap();
    let svg = Game::new(&rules, 1).svg(560.0);
    let entries = with_class(&svg, "g", "legend");
    assert_eq!(entries.len(), 2);
    for (_, inner) in entries {
        assert_eq!(elements(inner, "circle").len(), 2);
    }
}

// ------------------------------------------------------------------------------------------
// The pending roll: dice faces and cowries.

fn dice_drawn(svg: &str) -> Vec<usize> {
    with_class(svg, "g", "die")
        .iter()
        .map(|(_, inner)| {
            elements(inner, "circle")
                .iter()
                .filter(|(raw, _)| attr(raw, "class") == Some("pip"))
                .count()
        })
        .collect()
}

#[test]
fn the_dice_of_the_pending_roll_are_drawn_with_their_pips() {
    let mut g = Game::from_preset("parcheesi", 1).unwrap();
    assert!(dice_drawn(&g.svg(560.0)).is_empty(), "no roll yet");
    g.set_roll(Roll::Dice([5, 3])).unwrap();
    assert_eq!(dice_drawn(&g.svg(560.0)), [5, 3]);
    let mut g = Game::from_preset("pachisi-family", 1).unwrap();
    g.set_roll(Roll::Dice([5, 5])).unwrap();
    assert_eq!(dice_drawn(&g.svg(560.0)), [5, 5]);
    let mut g = Game::from_preset("backgammon", 1).unwrap();
    g.set_roll(Roll::Dice([2, 4])).unwrap();
    assert_eq!(dice_drawn(&g.svg(560.0)), [2, 4]);
}

#[test]
fn a_pending_cowrie_throw_shows_the_shells_mouth_up_and_down() {
    for up in [0u8, 2, 6] {
        let mut g = Game::from_preset("pachisi", 1).unwrap();
        g.set_roll(Roll::Cowries(up)).unwrap();
        if g.node() != Node::Decision {
            continue;
        }
        let svg = g.svg(560.0);
        assert_eq!(
            with_class(&svg, "g", "cowrie up").len(),
            up as usize,
            "{up} up"
        );
        assert_eq!(with_class(&svg, "g", "cowrie down").len(), 6 - up as usize);
    }
}

// ------------------------------------------------------------------------------------------
// Arrows along the path.

#[test]
fn arrows_follow_the_squares_the_piece_passed() {
    let mut long_steps = 0;
    for v in ["parcheesi", "pachisi-online", "pachisi-family", "pachisi"] {
        for g in played(v, json!({}), 3, 80) {
            let svg = g.svg(560.0);
            let c = cell(&svg);
            let moving = super::moving_steps(&g);
            let drawn = arrows(&svg);
            assert_eq!(drawn.len(), moving.len(), "{v}: one arrow per step");
            for ((points, name), step) in drawn.iter().zip(&moving) {
                // Leaving the nest is one jump to the entry square; everything else moves square
                // by square (a diagonal at an inner corner).
                let skip = usize::from(v != "pachisi" && step.from == 0);
                for pair in points.windows(2).skip(skip) {
                    let d = dist(pair[0], pair[1]);
                    assert!(d <= 1.6 * c, "{v} {name}: a jump of {:.1} cells", d / c);
                }
                if step.to.abs_diff(step.from) >= 4 && step.from != 0 {
                    long_steps += 1;
                    assert!(points.len() >= 4, "{v} {name}: {points:?}");
                }
            }
        }
    }
    assert!(long_steps > 20, "the games had long steps to check");
}

// ------------------------------------------------------------------------------------------
// Safe squares of the rules.

#[test]
fn only_squares_safe_under_the_rules_are_marked() {
    let svg_of = |variant: &str, options: serde_json::Value| {
        let rules = Rules::with_options(variant, &options).unwrap();
        Game::new(&rules, 1).svg(560.0)
    };
    // What a reader takes for a safe square: a hollow ring on the board (not on a piece).
    let rings = |svg: &str| {
        let hollow = |list: Vec<(&str, &str)>| {
            list.iter()
                .filter(|(raw, _)| attr(raw, "fill") == Some("none"))
                .count()
        };
        let on_pieces: usize = elements(svg, "g")
            .iter()
            .map(|(_, inner)| hollow(elements(inner, "circle")))
            .sum();
        hollow(elements(svg, "circle")) - on_pieces
    };
    for v in ["parcheesi", "pachisi-online", "pachisi-family"] {
        assert_eq!(rings(&svg_of(v, json!({}))), 12, "{v}");
    }
    for v in ["parcheesi", "pachisi-online"] {
        let svg = svg_of(v, json!({"safe_squares": false}));
        assert_eq!(rings(&svg), 0, "{v} without safe squares");
    }
    for v in ["parcheesi", "pachisi-online", "pachisi-family"] {
        let svg = svg_of(v, json!({}));
        assert_eq!(with_class(&svg, "circle", "safe").len(), 12, "{v}");
    }
    let marks = |variant: &str, options: serde_json::Value, class: &str| {
        let svg = svg_of(variant, options);
        with_class(&svg, "circle", class)
            .into_iter()
            .chain(with_class(&svg, "path", class))
            .map(|(raw, _)| raw.to_string())
            .collect::<Vec<_>>()
    };
    assert!(marks("pachisi", json!({}), "safe").is_empty());
    let castles = marks("pachisi", json!({}), "castle");
    assert_eq!(castles.len(), 12);
    let moved = marks("pachisi", json!({"castle_from_outer_end": 6}), "castle");
    assert_eq!(moved.len(), 12);
    let same = castles.iter().filter(|c| moved.contains(c)).count();
    assert_eq!(same, 4, "only the end squares stay castles");
    assert!(marks("backgammon", json!({}), "safe").is_empty());
}

// ------------------------------------------------------------------------------------------
// Classic Pachisi: the charkoni's three stages, readable counts.

#[test]
fn the_charkoni_tells_waiting_entered_and_home_pieces_apart() {
    let rules = Rules::preset("pachisi").unwrap();
    let g = Game::from_position(&rules, "0:-:85,85,85,0/1,0,0,0/1,0,0,0/1,0,0,0", 1).unwrap();
    let svg = g.svg(560.0);
    let c = cell(&svg);
    let home = group_centre(&svg, "seat 0: 3 pieces home");
    let waiting = group_centre(&svg, "seat 0 piece 3: waiting to enter");
    let entered = group_centre(&svg, "seat 1 piece 0: entered");
    let others_waiting = group_centre(&svg, "seat 1: 3 pieces waiting to enter");
    assert!(dist(home, waiting) > 0.5 * c);
    assert!(dist(entered, others_waiting) > 0.5 * c);
    // The count of the three home pieces is a numeral at least half a cell high.
    let (_, inner) = with_class(&svg, "g", "piece")
        .into_iter()
        .find(|(_, inner)| title(inner).starts_with("seat 0: 3 pieces home"))
        .unwrap();
    let (raw, digit) = texts(inner)[0];
    assert_eq!(digit, "3");
    assert!(num(raw, "font-size") >= 0.5 * c, "{raw}");
    // Every count on the board reads as well.
    for (raw, _) in with_class(&svg, "text", "count") {
        assert!(num(raw, "font-size") >= 0.5 * c, "{raw}");
    }
}

// ------------------------------------------------------------------------------------------
// Backgammon: the side of the seat to move, pip counts, arrows clear of the labels.

#[test]
fn backgammon_is_drawn_from_the_side_of_the_seat_to_move() {
    for (dice, mover) in [([1, 3], 1u8), ([3, 1], 0)] {
        let mut g = Game::from_preset("backgammon", 1).unwrap();
        g.set_roll(Roll::Dice(dice)).unwrap();
        assert_eq!(g.to_move(), mover);
        let svg = g.svg(560.0);
        // Seat 0's two back checkers (its 24-point) and its three on its 8-point.
        let back = group_centre(&svg, "seat 0: 2 checker");
        let eight = group_centre(&svg, "seat 0: 3 checker");
        // Seen from seat 0 its 24-point is in the far row; from seat 1 it is seat 1's 1-point,
        // in the near row, bottom right.
        assert_eq!(back.1 > eight.1, mover == 1, "mover {mover}");
        assert!(back.0 > eight.0);
        // The near row's rightmost label is the viewer's 1-point.
        let labels: Vec<(f64, f64, &str)> = texts(&svg)
            .into_iter()
            .filter(|(raw, _)| attr(raw, "class") == Some("point-label"))
            .map(|(raw, t)| (num(raw, "x"), num(raw, "y"), t))
            .collect();
        assert_eq!(labels.len(), 24);
        let bottom_right = labels
            .iter()
            .max_by(|a, b| (a.0 + a.1).total_cmp(&(b.0 + b.1)))
            .unwrap();
        assert_eq!(bottom_right.2, "1");
    }
}

#[test]
fn backgammon_shows_both_pip_counts() {
    let mut g = Game::from_preset("backgammon", 1).unwrap();
    g.set_roll(Roll::Dice([3, 1])).unwrap();
    g.play_notation("8/5 6/5").unwrap();
    let svg = g.svg(560.0);
    let said: Vec<&str> = texts(&svg).into_iter().map(|(_, t)| t).collect();
    let shows = |seat: &str, pips: &str| {
        said.iter()
            .any(|t| t.starts_with(seat) && t.ends_with(pips))
    };
    assert!(shows("seat 0", "163 pips"), "{said:?}");
    assert!(shows("seat 1", "167 pips"), "{said:?}");
}

/// Whether segment `a`-`b` meets the box `(x0, y0, x1, y1)` (sampled finely).
fn crosses(a: (f64, f64), b: (f64, f64), (x0, y0, x1, y1): (f64, f64, f64, f64)) -> bool {
    (0..=200).any(|i| {
        let t = i as f64 / 200.0;
        let (x, y) = (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
        x >= x0 && x <= x1 && y >= y0 && y <= y1
    })
}

#[test]
fn backgammon_arrows_keep_clear_of_the_point_labels() {
    let mut checked = 0;
    for g in played("backgammon", json!({}), 11, 60) {
        let svg = g.svg(560.0);
        // The point labels: plain numbers 1..=24 (the checkers' counts are bold).
        let boxes: Vec<(f64, f64, f64, f64)> = texts(&svg)
            .into_iter()
            .filter(|(raw, t)| {
                attr(raw, "font-weight").is_none()
                    && t.parse::<u8>().is_ok_and(|n| (1..=24).contains(&n))
                    && attr(raw, "class") != Some("count")
            })
            .map(|(raw, t)| {
                let (x, y, size) = (num(raw, "x"), num(raw, "y"), num(raw, "font-size"));
                let half = 0.3 * size * t.len() as f64;
                (x - half, y - 0.8 * size, x + half, y + 0.2 * size)
            })
            .collect();
        assert!(boxes.len() >= 24, "{} labels", boxes.len());
        for (points, name) in arrows(&svg) {
            for pair in points.windows(2) {
                for b in &boxes {
                    assert!(!crosses(pair[0], pair[1], *b), "{name} crosses a label");
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 100);
}
