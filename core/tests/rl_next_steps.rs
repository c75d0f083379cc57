//! Backgammon's legal next steps (`Encode::rl_next_steps`, listed without generating the roll's
//! plays) against the path the environments take for other systems: every play of the roll in
//! every order (`Orders::All`), grouped by the steps taken. At every prefix of every listed play
//! of every roll, the two give the same set of next steps and agree on whether a play ends
//! there; positions come from random games and from random boards built to reach bearing off,
//! entering from the bar, blocked dice (only one die, or only the larger, can be played) and
//! doubles that cannot all be played. The override lists the steps in ascending order of their
//! step ids (the environments rely on it instead of sorting).
//!
//! Parcheesi (both presets, every option set of `common/parcheesi_options.rs` and two with a
//! bonus of a die's value) the same way, on chance nodes of random games and crowded synthetic
//! ones at each of their rolls: there, where two next steps share a step id (two pieces on one
//! square, a bonus of a die's value), the listing keeps the one the grouped plays list first,
//! which is the one the environments apply, so the two must give exactly the same steps.
//!
//! Family Pachisi (the preset and every option set of `common/family_options.rs`, plus a few
//! combinations of the options that change which plays are legal) the same way, on chance nodes
//! of random games and crowded synthetic ones at each of their 21 rolls.

#[path = "common/family_options.rs"]
mod family_options;
#[path = "common/parcheesi_options.rs"]
mod parcheesi_options;
#[path = "common/walk.rs"]
#[allow(dead_code)]
mod walk;

use pachisi::backgammon::{BAR, BackgammonRules, BgState, CHECKERS, OFF, Phase};
use pachisi::play::PlayList;
use pachisi::rl::{Encode, Encoder, next_steps_of_plays};
use pachisi::{Node, Orders, RuleSystem, Step, StepKind, SystemRules};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;
use std::collections::BTreeMap;

/// What the compared rolls covered (so a change that stops reaching a case fails).
#[derive(Default, Debug)]
struct Seen {
    rolls: usize,
    prefixes: usize,
    no_play: usize,
    /// Two different dice of which only one can be played.
    one_die: usize,
    /// ... the larger although the smaller alone could be played too (BG-4).
    larger_forced: usize,
    /// Doubles played with fewer than four steps (but at least one).
    short_doubles: usize,
    bear_off: usize,
    enter: usize,
}

/// Whether `steps`, taken at `cur` in a play from `start`, have strictly ascending step ids.
fn ascending_ids(
    enc: &Encoder<pachisi::backgammon::BackgammonSystem>,
    start: &BgState,
    cur: &BgState,
    steps: &[Step],
) -> bool {
    let acting = enc.system().rl_acting_owner(start);
    let ids: Vec<usize> = steps
        .iter()
        .map(|st| {
            enc.step_action(cur, acting, st)
                .expect("step outside the encoding")
        })
        .collect();
    ids.windows(2).all(|w| w[0] < w[1])
}

/// Compares the two at every prefix of the plays of `s` (a position at its roll).
fn check(sys: &pachisi::backgammon::BackgammonSystem, s: &BgState, seen: &mut Seen) {
    let enc = Encoder::new(sys);
    let mut list = PlayList::new();
    sys.generate_list(s, Orders::All, &mut list);
    seen.rolls += 1;
    // Prefix -> (distinct next steps in list order, whether a play ends there).
    let tree = prefix_tree(&list);
    for play in list.iter() {
        for st in play {
            seen.bear_off += (st.to as usize == OFF) as usize;
            seen.enter += (st.from as usize == BAR) as usize;
        }
    }
    let [a, b] = s.dice;
    let longest = list.iter().map(|p| p.len()).max().unwrap_or(0);
    if list.is_empty() {
        seen.no_play += 1;
    } else if a != b && longest == 1 {
        seen.one_die += 1;
        let lo = a.min(b);
        let lo_alone = {
            let mut t = *s;
            t.dice = [lo, lo];
            let mut l = PlayList::new();
            sys.generate_list(&t, Orders::All, &mut l);
            !l.is_empty()
        };
        if list.get(0)[0].value != lo && lo_alone {
            seen.larger_forced += 1;
        }
    } else if a == b && longest < 4 {
        seen.short_doubles += 1;
    }
    let mut fast = Vec::new();
    for (prefix, (want, ends)) in &tree {
        let mut cur = *s;
        for st in prefix {
            sys.apply_step(&mut cur, st);
        }
        let got_ends = sys.rl_next_steps(s, &cur, prefix, &mut fast);
        let key = |v: &[Step]| {
            let mut v = v.to_vec();
            v.sort();
            v
        };
        let mut dedup = key(&fast);
        dedup.dedup();
        assert_eq!(dedup.len(), fast.len(), "repeated step: {s:?} {prefix:?}");
        assert!(
            ascending_ids(&enc, s, &cur, &fast),
            "not in id order: {s:?} after {prefix:?}: {fast:?}"
        );
        assert_eq!(key(&fast), key(want), "{s:?} after {prefix:?}");
        assert_eq!(got_ends, *ends, "{s:?} after {prefix:?}");
        seen.prefixes += 1;
    }
}

/// `s` at each of the 21 rolls (both orders of the dice for some).
fn each_roll(sys: &pachisi::backgammon::BackgammonSystem, s: &BgState, seen: &mut Seen) {
    for a in 1..=6u8 {
        for b in 1..=a {
            let mut t = *s;
            t.phase = Phase::Move;
            t.dice = if (a + b) % 2 == 0 { [a, b] } else { [b, a] };
            check(sys, &t, seen);
        }
    }
}

/// A random board of the kind `kind`: 0 anywhere, 1 the mover all home (bearing off), 2 the
/// mover on the bar against a strong home board, 3 a blocked mover (opposing points made in a
/// row ahead of its checkers).
fn random_board(rng: &mut Pcg64, kind: u32) -> BgState {
    let mut s = BgState::start(Phase::Move);
    s.dice = [2, 1];
    s.turn = rng.random_range(0..2u8);
    let (me, them) = (s.turn as usize, 1 - s.turn as usize);
    s.checkers = [[0; 26]; 2];
    // The opponent's points first (in the mover's numbering), then the mover's on the rest.
    let mut theirs = [0u8; 26]; // by the mover's point
    let mut left = CHECKERS;
    match kind {
        2 => {
            // A home board of 3..=6 made points (the mover's 19..=24).
            let made = rng.random_range(3..=6);
            let mut points: Vec<usize> = (19..=24).collect();
            for _ in 0..made {
                let p = points.remove(rng.random_range(0..points.len()));
                theirs[p] = 2;
                left -= 2;
            }
        }
        3 => {
            // A run of 4..=6 made points somewhere.
            let len = rng.random_range(4..=6);
            let start = rng.random_range(2..=(24 - len + 1));
            for n in &mut theirs[start..start + len] {
                *n = 2;
                left -= 2;
            }
        }
        _ => {}
    }
    let mut their_bar = 0;
    let mut their_off = 0;
    while left > 0 {
        match rng.random_range(0..20) {
            0 => their_bar += 1,
            1 | 2 => their_off += 1,
            _ => theirs[rng.random_range(1..=24)] += 1,
        }
        left -= 1;
    }
    if their_off == CHECKERS {
        their_off -= 1;
        theirs[1] += 1;
    }
    let mut mine = [0u8; 26];
    let free: Vec<usize> = (1..=24).filter(|&p| theirs[p] == 0).collect();
    let home: Vec<usize> = free.iter().copied().filter(|&p| p <= 6).collect();
    let mut left = CHECKERS;
    if kind == 2 {
        let n = rng.random_range(1..=3);
        mine[BAR] = n;
        left -= n;
    }
    while left > 0 {
        let r = rng.random_range(0..20);
        if kind == 1 || (kind == 3 && r < 4) {
            match (r, home.is_empty()) {
                (0..=4, _) | (_, true) => mine[OFF] += 1,
                _ => mine[home[rng.random_range(0..home.len())]] += 1,
            }
        } else if r == 0 && kind == 0 {
            mine[BAR] += 1;
        } else if r == 1 {
            mine[OFF] += 1;
        } else {
            mine[free[rng.random_range(0..free.len())]] += 1;
        }
        left -= 1;
    }
    if mine[OFF] == CHECKERS {
        mine[OFF] -= 1;
        mine[free[0]] += 1;
    }
    s.checkers[me] = mine;
    for (p, &n) in theirs.iter().enumerate().take(25).skip(1) {
        s.checkers[them][25 - p] = n;
    }
    s.checkers[them][BAR] = their_bar;
    s.checkers[them][OFF] = their_off;
    s
}

#[test]
fn next_steps_match_the_grouped_plays() {
    let sys = BackgammonRules {
        cube: false,
        ..BackgammonRules::standard()
    }
    .build()
    .unwrap();
    let mut seen = Seen::default();
    // Decision positions of random games.
    let mut rng = Pcg64::seed_from_u64(11);
    let mut positions = 0;
    for seed in 0..20u64 {
        let mut g = pachisi::Game::new(&pachisi::Rules::preset("backgammon").unwrap(), seed);
        while !g.is_over() {
            if g.is_chance_node() {
                g.roll().unwrap();
                continue;
            }
            if let pachisi::Game::Backgammon(x) = &g
                && x.state().phase == Phase::Move
            {
                each_roll(&sys, x.state(), &mut seen);
                positions += 1;
            }
            let n = g.legal_plays_ref().len();
            g.play_index(rng.random_range(0..n)).unwrap();
        }
    }
    // Random boards of each kind.
    for kind in 0..4 {
        let mut made = 0;
        while made < 300 {
            let s = random_board(&mut rng, kind);
            if sys.validate_state(&s).is_err() || sys.node(&s) != Node::Decision {
                continue;
            }
            each_roll(&sys, &s, &mut seen);
            made += 1;
        }
    }
    eprintln!("{positions} game positions; {seen:?}");
    assert!(seen.rolls > 40_000, "{seen:?}");
    assert!(seen.no_play > 1_000, "{seen:?}");
    assert!(seen.one_die > 1_000, "{seen:?}");
    assert!(seen.larger_forced > 100, "{seen:?}");
    assert!(seen.short_doubles > 300, "{seen:?}");
    assert!(seen.bear_off > 10_000 && seen.enter > 10_000, "{seen:?}");
}

/// The cube decisions (one-step plays) and the default (listing and grouping the plays) agree
/// with the override too, through the public function the default calls.
#[test]
fn cube_decisions_and_the_default_agree() {
    let sys = BackgammonRules {
        cube: true,
        ..BackgammonRules::standard()
    }
    .build()
    .unwrap();
    let enc = Encoder::new(&sys);
    let mut s = sys.initial_state();
    let mut rng = Pcg64::seed_from_u64(3);
    let mut dice = pachisi::dice::rng_from_seed(3);
    let (mut fast, mut slow) = (Vec::new(), Vec::new());
    let mut cube = 0;
    for _ in 0..2_000 {
        match sys.node(&s) {
            Node::Over => s = sys.initial_state(),
            Node::Chance => {
                let roll = sys.sample_roll(&s, &mut dice);
                sys.begin_roll(&mut s, roll);
            }
            Node::Decision => {
                let e1 = sys.rl_next_steps(&s, &s, &[], &mut fast);
                let e2 = next_steps_of_plays(&sys, &s, &[], &mut slow);
                assert!(ascending_ids(&enc, &s, &s, &fast), "{s:?}: {fast:?}");
                fast.sort();
                slow.sort();
                assert_eq!((e1, &fast), (e2, &slow), "{s:?}");
                cube += (s.phase != Phase::Move) as usize;
                if fast.is_empty() {
                    sys.end_play(&mut s, &[]);
                    continue;
                }
                // Take random legal steps to the end of the play.
                let start = s;
                let mut taken = Vec::new();
                while !fast.is_empty() {
                    let st = fast[rng.random_range(0..fast.len())];
                    sys.apply_step(&mut s, &st);
                    taken.push(st);
                    let e1 = sys.rl_next_steps(&start, &s, &taken, &mut fast);
                    let e2 = next_steps_of_plays(&sys, &start, &taken, &mut slow);
                    assert!(
                        ascending_ids(&enc, &start, &s, &fast),
                        "{start:?} after {taken:?}"
                    );
                    fast.sort();
                    slow.sort();
                    assert_eq!((e1, &fast), (e2, &slow), "{start:?} after {taken:?}");
                }
                sys.end_play(&mut s, &taken);
            }
        }
    }
    assert!(cube > 50, "{cube}");
}

/// What the compared Parcheesi rolls covered.
#[derive(Default, Debug)]
struct ParSeen {
    rolls: usize,
    prefixes: usize,
    no_play: usize,
    /// Rolls of four values (doubles with their bottom faces).
    four_values: usize,
    /// Rolls whose start has P-D groups (blockades standing at the roll).
    groups: usize,
    /// Prefixes with a bonus step among the next steps.
    bonus_next: usize,
    /// Prefixes with a capturing step among the next steps.
    capture_next: usize,
    /// Prefixes where a play ends and another goes on.
    ends_inside: usize,
    /// Prefixes where a next step was dropped for sharing its id with one listed before it.
    shared_ids: usize,
    /// Rolls whose only legal play is the pass.
    pass_only: usize,
}

/// Compares the direct listing with the grouped `Orders::All` plays at the prefixes of the plays
/// of `s` (a position at its roll): all of them when there are at most `most`, else a spread.
fn check_parcheesi(
    sys: &pachisi::parcheesi::ParcheesiSystem,
    enc: &Encoder<pachisi::parcheesi::ParcheesiSystem>,
    s: &pachisi::parcheesi::ParcheesiState,
    most: usize,
    seen: &mut ParSeen,
) -> Result<(), String> {
    let mut list = PlayList::new();
    sys.generate_list(s, Orders::All, &mut list);
    seen.rolls += 1;
    seen.no_play += list.is_empty() as usize;
    seen.four_values += (s.values_left().len() == 4) as usize;
    seen.groups += sys.format_position(s).contains("group:") as usize;
    seen.pass_only += (list.len() == 1 && list.get(0).is_empty()) as usize;
    let tree = prefix_tree(&list);
    let every = tree.len().div_ceil(most.max(1));
    let acting = sys.rl_acting_owner(s);
    let mut lists = Lists::default();
    for (i, (prefix, (kids, ends))) in tree.iter().enumerate() {
        if i % every != 0 && prefix.len() > 1 {
            continue;
        }
        let here = || {
            format!(
                "{} roll {:?} after {prefix:?}",
                sys.format_position(s),
                s.values_left()
            )
        };
        seen.shared_ids +=
            check_prefix(sys, enc, s, acting, prefix, kids, *ends, &mut lists, here)?;
        seen.prefixes += 1;
        seen.bonus_next += kids.iter().any(|st| st.kind == StepKind::Bonus) as usize;
        seen.capture_next += kids.iter().any(|st| st.captured > 0) as usize;
        seen.ends_inside += (*ends && !kids.is_empty() && !prefix.is_empty()) as usize;
    }
    Ok(())
}

/// Crowded synthetic chance nodes (pieces near one another, around the branch square, in the
/// home path and on the going-round squares, blockade ages where there is a turn limit).
fn crowded_nodes(
    sys: &pachisi::parcheesi::ParcheesiSystem,
    n: usize,
    seed: u64,
) -> Vec<pachisi::parcheesi::ParcheesiState> {
    let seats = sys.seats();
    let limit = sys.rules().blockade_turn_limit;
    walk::drawn_chance_nodes(sys, n, 200, seed, |rng| {
        let centre: u8 = rng.random_range(1..=76);
        let mut text = String::new();
        for seat in 0..seats {
            let ps: Vec<String> = (0..4)
                .map(|_| {
                    match rng.random_range(0..10) {
                        0 => 0,
                        1 => 72,
                        2 => rng.random_range(58..=76),
                        3 => rng.random_range(65..=71),
                        _ => (centre as i16 + rng.random_range(-6i16..=6)).clamp(1, 76) as u8,
                    }
                    .to_string()
                })
                .collect();
            text.push_str(&format!("{seat}:{} ", ps.join(",")));
        }
        let turn = rng.random_range(0..seats);
        text.push_str(&format!("turn:{turn} doubles:0"));
        if limit > 0
            && rng.random_bool(0.5)
            && let Ok(s) = sys.parse_position(&text)
        {
            let p = s.pieces(turn);
            let age: u8 = rng.random_range(1..=limit + 1);
            let ages: Vec<String> = (0..4)
                .map(|i| {
                    let shared =
                        p[i] != 0 && p[i] != 72 && p.iter().filter(|&&q| q == p[i]).count() >= 2;
                    if shared { age } else { 0 }.to_string()
                })
                .collect();
            text.push_str(&format!(" age{turn}:{}", ages.join(",")));
        }
        text
    })
}

/// Parcheesi's direct listing against the grouped plays under every option set of the system
/// (the presets `parcheesi` and `pachisi-online`, two and three seats, every switch), and with
/// bonuses of a die's value (a bonus step and a die step then share ids).
#[test]
fn parcheesi_next_steps_match_the_grouped_plays() {
    use pachisi::parcheesi::ParcheesiRules;
    // The unoptimised build of `make test` checks fewer positions.
    let scale = if cfg!(debug_assertions) { 1 } else { 6 };
    let mut sets = parcheesi_options::option_sets();
    for (name, base) in [
        ("parcheesi", ParcheesiRules::parcheesi()),
        ("pachisi-online", ParcheesiRules::online()),
    ] {
        let mut r = base.clone();
        (r.capture_bonus, r.home_bonus) = (6, 4);
        r.validate().unwrap();
        sets.push((format!("{name} bonuses 6 and 4"), r));
    }
    let mut seen = ParSeen::default();
    let mut failures = Vec::new();
    for (name, rules) in &sets {
        let sys = rules.build().unwrap();
        let enc = Encoder::new(&sys);
        let mut nodes = Vec::new();
        walk::for_each_decision(&sys, 2 * scale as u64, 400, 5, |s| {
            if nodes.len() < 6 * scale {
                let text = sys.format_position(s);
                let chance: Vec<&str> = text
                    .split_whitespace()
                    .filter(|t| {
                        !["roll:", "left:", "bonus:", "played:", "group:"]
                            .iter()
                            .any(|f| t.starts_with(f))
                    })
                    .collect();
                if let Ok(c) = sys.parse_position(&chance.join(" "))
                    && sys.node(&c) == Node::Chance
                {
                    nodes.push(c);
                }
            }
        });
        nodes.extend(crowded_nodes(&sys, 6 * scale, 17));
        walk::compare_each_roll(&sys, name, nodes.iter(), &mut failures, |t, _| {
            check_parcheesi(&sys, &enc, t, 150 * scale, &mut seen)
        });
    }
    eprintln!("{} option sets; {seen:?}", sets.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let s = &seen;
    assert!(
        s.rolls > 5_000 * scale && s.prefixes > 20_000 * scale,
        "{s:?}"
    );
    assert!(s.no_play > 100 && s.four_values > 200, "{s:?}");
    assert!(
        s.groups > 100 && s.bonus_next > 1_000 && s.capture_next > 1_000,
        "{s:?}"
    );
    assert!(
        s.ends_inside > 100 && s.shared_ids > 100 && s.pass_only > 10,
        "{s:?}"
    );
}

/// What the compared Family Pachisi rolls covered.
#[derive(Default, Debug)]
struct FamSeen {
    rolls: usize,
    prefixes: usize,
    no_play: usize,
    /// Rolls whose plays do not use every value of the roll (the goal is not the guess).
    short: usize,
    /// Prefixes with a gate move (two pieces as one) among the next steps.
    gate_next: usize,
    /// ... with a sum of two values moved by one piece.
    sum_next: usize,
    /// ... with a capturing step.
    capture_next: usize,
    /// ... with a step of the partner's colour.
    partner_next: usize,
    /// Prefixes where a legal play ends (none goes on there: every legal play uses as many
    /// values).
    ends: usize,
    /// Prefixes where a next step was dropped for sharing its id with one listed before it
    /// (none seen: the generator tries one piece of each kind).
    shared_ids: usize,
}

/// Compares Family Pachisi's direct listing with the grouped `Orders::All` plays at every prefix
/// of the plays of `s` (a position at its roll), without and with a memo kept over the roll.
fn check_family(
    sys: &pachisi::family::FamilySystem,
    enc: &Encoder<pachisi::family::FamilySystem>,
    s: &pachisi::family::FamilyState,
    seen: &mut FamSeen,
) -> Result<(), String> {
    let mut list = PlayList::new();
    sys.generate_list(s, Orders::All, &mut list);
    seen.rolls += 1;
    seen.no_play += list.is_empty() as usize;
    let tree = prefix_tree(&list);
    if let Some(play) = list.iter().next() {
        let pips: u32 = play
            .iter()
            .map(|st| st.value as u32 * st.count as u32)
            .sum();
        let [a, b] = s.dice;
        let full = if a == b {
            if sys.rules().bottom_faces {
                14
            } else {
                2 * a as u32
            }
        } else {
            (a + b) as u32
        };
        // A roll whose plays move fewer pips than all its values give (entering counts 5).
        seen.short += (pips < full) as usize;
    }
    let acting = sys.rl_acting_owner(s);
    let mut lists = Lists::default();
    for (prefix, (kids, ends)) in &tree {
        let here = || format!("{} after {prefix:?}", sys.format_position(s));
        seen.shared_ids +=
            check_prefix(sys, enc, s, acting, prefix, kids, *ends, &mut lists, here)?;
        seen.prefixes += 1;
        seen.gate_next += kids.iter().any(|st| st.count == 2) as usize;
        seen.sum_next += kids.iter().any(|st| st.count == 1 && st.value > 6) as usize;
        seen.capture_next += kids.iter().any(|st| st.captured > 0) as usize;
        seen.partner_next += kids.iter().any(|st| st.seat != s.turn) as usize;
        seen.ends += *ends as usize;
    }
    Ok(())
}

/// Family Pachisi's direct listing against the grouped plays under the preset and every option
/// set (two, three and four seats, teams on and off, every option that changes which plays are
/// legal, and combinations of them).
#[test]
fn family_next_steps_match_the_grouped_plays() {
    use pachisi::family::FamilyRules;
    let scale = if cfg!(debug_assertions) { 1 } else { 10 };
    let mut sets = family_options::option_sets();
    let base = FamilyRules::family();
    for (what, r) in [
        (
            "either order, one piece one die, compulsory capture",
            FamilyRules {
                higher_die_first: false,
                one_piece_both_dice: false,
                compulsory_capture: true,
                ..base.clone()
            },
        ),
        (
            "three seats, either order, sum of five, no bottom faces",
            FamilyRules {
                seats: 3,
                teams: false,
                higher_die_first: false,
                sum_of_five_enters: true,
                bottom_faces: false,
                doubles_restricted_until_all_played: false,
                ..base.clone()
            },
        ),
        (
            "compulsory capture, no sum, no gate moves, unrestricted doubles",
            FamilyRules {
                compulsory_capture: true,
                sum_as_one_move: false,
                gate_moves_with_doubles: false,
                doubles_restricted_until_all_played: false,
                ..base.clone()
            },
        ),
    ] {
        r.build().unwrap();
        sets.push((format!("pachisi-family {what}"), r));
    }
    let mut seen = FamSeen::default();
    let mut failures = Vec::new();
    for (k, (name, rules)) in sets.iter().enumerate() {
        let sys = rules.build().unwrap();
        let enc = Encoder::new(&sys);
        let mut nodes = Vec::new();
        walk::for_each_decision(&sys, scale as u64, 2_000, 5 + k as u64, |s| {
            let mut c = *s;
            c.dice = [0, 0];
            if nodes.len() < 8 * scale
                && sys.validate_state(&c).is_ok()
                && sys.node(&c) == Node::Chance
                && (s.pos[0][0] + s.pos[1][1]) % 5 == 0
            {
                nodes.push(c);
            }
        });
        nodes.extend(family_options::synthetic_chance_nodes(
            &sys,
            8 * scale,
            17 + k as u64,
        ));
        walk::compare_each_roll(&sys, name, nodes.iter(), &mut failures, |t, _| {
            check_family(&sys, &enc, t, &mut seen)
        });
    }
    eprintln!("{} option sets; {seen:?}", sets.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let s = &seen;
    assert!(
        s.rolls > 7_000 * scale && s.prefixes > 80_000 * scale,
        "{s:?}"
    );
    assert!(s.no_play > 50 * scale && s.short > 50 * scale, "{s:?}");
    assert!(
        s.gate_next > 50 * scale && s.sum_next > 500 * scale && s.capture_next > 500 * scale,
        "{s:?}"
    );
    assert!(
        s.partner_next > 50 * scale && s.ends > 5_000 * scale,
        "{s:?}"
    );
}

/// The plays of `list` as a prefix tree: for each prefix of a play (the empty one included), the
/// distinct steps that follow it in the order first listed, and whether a play ends there.
fn prefix_tree(list: &PlayList) -> BTreeMap<Vec<Step>, (Vec<Step>, bool)> {
    let mut tree: BTreeMap<Vec<Step>, (Vec<Step>, bool)> = BTreeMap::new();
    tree.insert(Vec::new(), (Vec::new(), false));
    for play in list.iter() {
        for k in 0..=play.len() {
            let node = tree.entry(play[..k].to_vec()).or_default();
            match play.get(k) {
                None => node.1 = true,
                Some(st) if !node.0.contains(st) => node.0.push(*st),
                Some(_) => {}
            }
        }
    }
    tree
}

/// The lists [`check_prefix`] fills, kept over the prefixes of one roll (the memo must be).
#[derive(Default)]
struct Lists {
    fast: Vec<Step>,
    fast2: Vec<Step>,
    memo: Vec<u64>,
}

/// Checks a system's direct listing at one `prefix` of the plays of `s`, whose grouped plays
/// continue with `kids` (in the order first listed) and end there when `ends`: the listing must
/// be the first step of each step id among `kids`, in id order, with the same end flag, without
/// and with the memo of the roll. Returns how many of `kids` were dropped for a shared id.
#[allow(clippy::too_many_arguments)]
fn check_prefix<R: RuleSystem + Encode>(
    sys: &R,
    enc: &Encoder<R>,
    s: &R::State,
    acting: u8,
    prefix: &[Step],
    kids: &[Step],
    ends: bool,
    lists: &mut Lists,
    here: impl Fn() -> String,
) -> Result<usize, String> {
    let mut cur = *s;
    for st in prefix {
        sys.apply_step(&mut cur, st);
    }
    let id = |st: &Step| {
        enc.step_action(&cur, acting, st)
            .ok_or_else(|| format!("step outside the encoding: {st:?}"))
    };
    // The grouped plays' next steps, the first of each id, in id order.
    let mut shared = 0;
    let mut want: Vec<(usize, Step)> = Vec::new();
    for st in kids {
        let a = id(st)?;
        if want.iter().any(|w| w.0 == a) {
            shared += 1;
        } else {
            want.push((a, *st));
        }
    }
    want.sort_by_key(|w| w.0);
    let want: Vec<Step> = want.into_iter().map(|w| w.1).collect();
    let Lists { fast, fast2, memo } = lists;
    let got_ends = sys.rl_next_steps(s, &cur, prefix, fast);
    // The same through a memo kept across the prefixes of the roll.
    let got_ends2 = sys.rl_next_steps_memo(s, &cur, prefix, memo, fast2);
    if (got_ends, &*fast) != (ends, &want) {
        return Err(format!(
            "{}: listed {fast:?} (ends {got_ends}), want {want:?} (ends {ends})",
            here()
        ));
    }
    if (got_ends2, &*fast2) != (got_ends, &*fast) {
        return Err(format!("{}: with a memo {fast2:?}", here()));
    }
    Ok(shared)
}
