//! The fast Backgammon generator against the reference generator
//! (`pachisi::backgammon::reference`, written from docs/RULES.md BG-1..BG-6): the same set of
//! resulting positions, one play per position, every listed play one of the reference's plays
//! (the same steps in the same order) and its notation one the reference gives for its position,
//! notations distinct between positions and parsing back to their play; `Orders::All` lists
//! exactly the reference's plays in every order.
//!
//! Positions: random games' chance nodes under each option set, every roll (21), plus synthetic
//! hard positions (checkers on the bar facing closed points, bear-offs with gaps and one checker
//! still outside, primes, blot-rich contact, races), both colours to move; the run fails if some
//! hard case (a forfeit, one die of two, a partial double, the lower die first, a blocked entry,
//! an over-size bear-off...) was never met. `REFERENCE_ROLLS=N` raises the position-rolls per
//! option set (the default gives at least 20,000 in all).
//!
//! Cube decisions are not checker plays: a separate test checks them against
//! docs/rules/backgammon.md (who decides, when, and what each choice does).

#[path = "common/walk.rs"]
#[allow(dead_code)]
mod walk;

use pachisi::backgammon::{
    BAR, BackgammonRules, BackgammonSystem, BgState, CUBE_CENTRED, FirstRoll, OFF, Phase, reference,
};
use pachisi::dice::rng_from_seed;
use pachisi::{Node, Orders, Play, RuleSystem, StepKind, SystemRules};
use rand::RngExt;
use std::collections::{BTreeMap, BTreeSet};

type Board = reference::Board;

/// Option sets: the preset, and from it every boolean flipped and every enum value, where the
/// combination is valid (a flip the rules reject alone is paired with what it needs).
fn option_sets() -> Vec<(String, BackgammonRules)> {
    let base = BackgammonRules::standard();
    let mut out = vec![("backgammon".to_string(), base.clone())];
    let mut add = |what: &str, f: &dyn Fn(&mut BackgammonRules)| {
        let mut r = base.clone();
        f(&mut r);
        if r.build().is_ok() && r != base {
            out.push((format!("backgammon {what}"), r));
        }
    };
    add("cube on", &|r| r.cube = true);
    add("cube on, jacoby on", &|r| {
        r.cube = true;
        r.jacoby = true;
    });
    add("cube on, max_cube 2", &|r| {
        r.cube = true;
        r.max_cube = 2;
    });
    add("gammons off (backgammons off)", &|r| {
        r.gammons = false;
        r.backgammons = false;
    });
    add("backgammons off", &|r| r.backgammons = false);
    add("first_roll plain", &|r| r.first_roll = FirstRoll::Plain);
    add("first_roll plain, cube on", &|r| {
        r.first_roll = FirstRoll::Plain;
        r.cube = true;
    });
    out
}

/// What the compared position-rolls covered (so a generator of easy positions shows).
#[derive(Default, Debug)]
struct Coverage {
    rolls: usize,
    by_seat: [usize; 2],
    forfeits: usize,
    higher_die_only: usize,
    lower_die_only: usize,
    partial_doubles: usize,
    lower_die_first: usize,
    enters: usize,
    blocked_entry: usize,
    bear_offs: usize,
    oversize_bear_offs: usize,
    hits: usize,
}

impl Coverage {
    fn count(&mut self, s: &BgState, reference: &[reference::ReferencePlay]) {
        self.rolls += 1;
        self.by_seat[s.turn as usize] += 1;
        let [a, b] = s.dice;
        let Some(first) = reference.first() else {
            self.forfeits += 1;
            return;
        };
        let n = first.play.len();
        if a != b && n == 1 {
            if first.play.steps()[0].value == a.max(b) {
                self.higher_die_only += 1;
            } else {
                self.lower_die_only += 1;
            }
        }
        if a == b && n < 4 {
            self.partial_doubles += 1;
        }
        // BG-2: a position that only the lower die played first reaches.
        if a != b && n == 2 {
            let lower = a.min(b);
            let mut only_lower: BTreeMap<Board, bool> = BTreeMap::new();
            for p in reference {
                *only_lower.entry(p.board).or_insert(true) &= p.play.steps()[0].value == lower;
            }
            if only_lower.values().any(|&v| v) {
                self.lower_die_first += 1;
            }
        }
        let steps = || reference.iter().flat_map(|p| p.play.steps().iter());
        if steps().any(|st| st.kind == StepKind::Enter) {
            self.enters += 1;
        }
        if s.checkers[s.turn as usize][BAR] > 0 && n < if a == b { 4 } else { 2 } {
            self.blocked_entry += 1;
        }
        if steps().any(|st| st.to == 0) {
            self.bear_offs += 1;
        }
        if steps().any(|st| st.to == 0 && st.value > st.from) {
            self.oversize_bear_offs += 1;
        }
        if steps().any(|st| st.captured > 0) {
            self.hits += 1;
        }
    }

    fn add(&mut self, o: &Coverage) {
        self.rolls += o.rolls;
        self.by_seat[0] += o.by_seat[0];
        self.by_seat[1] += o.by_seat[1];
        self.forfeits += o.forfeits;
        self.higher_die_only += o.higher_die_only;
        self.lower_die_only += o.lower_die_only;
        self.partial_doubles += o.partial_doubles;
        self.lower_die_first += o.lower_die_first;
        self.enters += o.enters;
        self.blocked_entry += o.blocked_entry;
        self.bear_offs += o.bear_offs;
        self.oversize_bear_offs += o.oversize_bear_offs;
        self.hits += o.hits;
    }
}

/// The checkers after the steps of `p`, applied by the engine.
fn engine_board(sys: &BackgammonSystem, s: &BgState, p: &Play) -> Board {
    let mut t = *s;
    for st in p.steps() {
        sys.apply_step(&mut t, st);
    }
    t.checkers
}

/// A play as a sortable key (hashing a whole `Play` is slow in a debug build): the number of
/// steps, then each step's fields packed into one word; `None` past four steps.
type PlayKey = [u64; 5];

fn play_key(p: &Play) -> Option<PlayKey> {
    let mut k = [0u64; 5];
    if p.len() > 4 {
        return None;
    }
    k[0] = p.len() as u64;
    for (i, st) in p.steps().iter().enumerate() {
        k[i + 1] = u64::from_be_bytes([
            st.seat,
            st.piece,
            st.from,
            st.to,
            st.value,
            st.count,
            st.captured,
            st.kind as u8,
        ]);
    }
    Some(k)
}

/// Compares the two generators at the decision node `s`; the error names the position.
fn compare(sys: &BackgammonSystem, s: &BgState, coverage: &mut Coverage) -> Result<(), String> {
    let here = || format!("{} dice {:?}", sys.format_position(s), s.dice);
    let mut fast: Vec<Play> = Vec::new();
    sys.generate(s, Orders::Distinct, &mut fast);
    let reference = reference::legal_plays(sys, s);
    coverage.count(s, &reference);
    // The reference's plays by their steps (sorted, for lookups).
    let mut index: Vec<(PlayKey, usize)> = Vec::with_capacity(reference.len());
    for (i, p) in reference.iter().enumerate() {
        let k = play_key(&p.play).ok_or_else(|| format!("{}: a long reference play", here()))?;
        index.push((k, i));
    }
    index.sort_unstable();
    if index.windows(2).any(|w| w[0].0 == w[1].0) {
        return Err(format!("{}: the reference lists a play twice", here()));
    }
    // Each position's notations. The notation orders a play's steps itself
    // (docs/rules/backgammon.md), so the reorderings of one multiset of steps (most of a
    // double's orders, which reach one position) are written once.
    let mut written: BTreeSet<PlayKey> = BTreeSet::new();
    let mut by_board: BTreeMap<Board, BTreeSet<String>> = BTreeMap::new();
    for p in &reference {
        let mut sorted = play_key(&p.play).expect("checked");
        sorted[1..].sort_unstable();
        if written.insert(sorted) {
            let text = sys.format_play(s, &p.play);
            by_board.entry(p.board).or_default().insert(text);
        }
    }
    // A notation names one position only.
    let mut owner: BTreeMap<&String, &Board> = BTreeMap::new();
    for (b, texts) in &by_board {
        for t in texts {
            if let Some(other) = owner.insert(t, b)
                && other != b
            {
                return Err(format!("{}: `{t}` reaches two positions", here()));
            }
        }
    }
    let mut seen: BTreeSet<Board> = BTreeSet::new();
    let mut texts: BTreeSet<String> = BTreeSet::new();
    for p in &fast {
        let text = sys.format_play(s, p);
        // The same steps, field by field (from, to, die, hit, kind), as one reference play.
        let Some(r) = play_key(p)
            .and_then(|k| index.binary_search_by(|e| e.0.cmp(&k)).ok())
            .map(|j| &reference[index[j].1])
            .filter(|r| r.play == *p)
        else {
            return Err(format!(
                "{}: `{text}` {p:?} is not a legal play by the reference (legal: {:?})",
                here(),
                by_board.values().collect::<Vec<_>>()
            ));
        };
        let b = r.board;
        if engine_board(sys, s, p) != b {
            return Err(format!(
                "{}: `{text}` applied by the engine leaves another position",
                here()
            ));
        }
        // Implied by the equal steps, unless the notation depended on the steps' order.
        if !by_board[&b].contains(&text) {
            return Err(format!(
                "{}: `{text}` reaches a legal position, but the reference writes it {:?}",
                here(),
                by_board[&b]
            ));
        }
        if !seen.insert(b) {
            return Err(format!(
                "{}: two plays reach one position (`{text}`)",
                here()
            ));
        }
        if !texts.insert(text.clone()) {
            return Err(format!("{}: `{text}` is listed twice", here()));
        }
        match sys.parse_play(s, &text) {
            Ok(q) if q == *p => {}
            other => return Err(format!("{}: `{text}` parses to {other:?}", here())),
        }
    }
    if seen.len() != by_board.len() {
        let missing: Vec<&BTreeSet<String>> = by_board
            .iter()
            .filter(|(b, _)| !seen.contains(*b))
            .map(|(_, t)| t)
            .collect();
        return Err(format!("{}: the fast generator misses {missing:?}", here()));
    }
    // Every order: what the step-by-step interface walks.
    let mut all: Vec<Play> = Vec::new();
    sys.generate(s, Orders::All, &mut all);
    let mut all_keys: Vec<PlayKey> = all.iter().filter_map(play_key).collect();
    all_keys.sort_unstable();
    let ref_keys: Vec<PlayKey> = index.iter().map(|e| e.0).collect();
    if all_keys.len() != all.len() || all_keys.windows(2).any(|w| w[0] == w[1]) {
        return Err(format!(
            "{}: Orders::All lists a play twice (or a long one)",
            here()
        ));
    }
    if all_keys != ref_keys {
        let extra: Vec<String> = all_keys
            .iter()
            .filter(|k| ref_keys.binary_search(k).is_err())
            .take(3)
            .map(|k| format!("{k:x?}"))
            .collect();
        let missing: Vec<String> = ref_keys
            .iter()
            .filter(|k| all_keys.binary_search(k).is_err())
            .take(3)
            .map(|k| format!("{k:x?}"))
            .collect();
        return Err(format!(
            "{}: Orders::All differs from the reference's orders: extra {extra:?}, missing {missing:?}",
            here()
        ));
    }
    Ok(())
}

/// `want` chance nodes of random games (uniformly random plays, cube decisions included):
/// checker-play nodes with their roll taken back, spread evenly over the games walked.
fn random_chance_nodes(sys: &BackgammonSystem, want: usize, seed: u64) -> Vec<BgState> {
    let mut all = Vec::new();
    // Cube games often end early on a dropped double: walk as many games as positions wanted.
    walk::for_each_decision(sys, want as u64 + 1, 2_000, seed, |s| {
        if s.phase != Phase::Move {
            return;
        }
        let mut c = *s;
        c.dice = [0, 0];
        c.phase = Phase::Roll;
        if sys.validate_state(&c).is_ok() {
            all.push(c);
        }
    });
    let stride = (all.len() / want.max(1)).max(1);
    all.into_iter().step_by(stride).take(want).collect()
}

/// A position under construction, both sides in the mover's numbering: `me[p]` the mover's
/// checkers (25 bar, 0 off), `them[p]` the opponent's on the mover's point `p` (1..=24), with
/// `them[25]` the opponent's bar and `them[0]` its checkers off.
struct Draft {
    me: [u8; 26],
    them: [u8; 26],
}

impl Draft {
    fn new() -> Draft {
        Draft {
            me: [0; 26],
            them: [0; 26],
        }
    }

    fn left(side: &[u8; 26]) -> u8 {
        15 - side.iter().sum::<u8>()
    }

    /// Puts up to `n` of the mover's checkers on `p` (not on the opponent's points).
    fn mine(&mut self, p: usize, n: u8) {
        if (1..=24).contains(&p) && self.them[p] > 0 {
            return;
        }
        let n = n.min(Draft::left(&self.me));
        self.me[p] += n;
    }

    /// Puts up to `n` of the opponent's checkers on the mover's point `p` (25: its bar, 0: off).
    fn theirs(&mut self, p: usize, n: u8) {
        if (1..=24).contains(&p) && self.me[p] > 0 {
            return;
        }
        let n = n.min(Draft::left(&self.them));
        self.them[p] += n;
    }

    /// Spreads the rest of each side over `mine`/`theirs` points at random (blots and stacks),
    /// what cannot be placed goes off.
    fn fill(&mut self, rng: &mut pachisi::dice::GameRng, mine: &[usize], theirs: &[usize]) {
        for _ in 0..60 {
            if Draft::left(&self.me) == 0 || mine.is_empty() {
                break;
            }
            let p = mine[rng.random_range(0..mine.len())];
            let n = rng.random_range(1..=3);
            self.mine(p, n);
        }
        for _ in 0..60 {
            if Draft::left(&self.them) == 0 || theirs.is_empty() {
                break;
            }
            let p = theirs[rng.random_range(0..theirs.len())];
            let n = rng.random_range(1..=3);
            self.theirs(p, n);
        }
        self.me[OFF] += Draft::left(&self.me);
        self.them[OFF] += Draft::left(&self.them);
    }

    /// The chance node with `turn` to roll; the opponent's checkers turned into its numbering.
    fn state(&self, turn: u8) -> BgState {
        let mut s = BgState::start(Phase::Roll);
        let mut them = [0u8; 26];
        them[BAR] = self.them[BAR];
        them[OFF] = self.them[OFF];
        for p in 1..=24 {
            them[25 - p] = self.them[p];
        }
        s.checkers[turn as usize] = self.me;
        s.checkers[1 - turn as usize] = them;
        s.turn = turn;
        s
    }
}

/// Synthetic hard positions, one kind after another, with the mover drawn at random.
fn synthetic_chance_nodes(sys: &BackgammonSystem, n: usize, seed: u64) -> Vec<BgState> {
    let mut rng = rng_from_seed(seed);
    let mut out = Vec::new();
    let mut tries = 0;
    let points: Vec<usize> = (1..=24).collect();
    while out.len() < n && tries < n * 50 {
        tries += 1;
        let mut d = Draft::new();
        let kind = tries % 6;
        match kind {
            // Checkers on the bar (one to four) facing some closed points of the opponent's
            // home board (the mover's 19..24), blots there too.
            0 => {
                d.mine(BAR, rng.random_range(1..=4));
                for p in 19..=24 {
                    match rng.random_range(0..4) {
                        0 | 1 => d.theirs(p, rng.random_range(2..=3)),
                        2 => d.theirs(p, 1),
                        _ => {}
                    }
                }
                d.fill(&mut rng, &points, &points);
            }
            // Bear-offs: everything home (gaps, some off), sometimes one or two checkers still
            // outside; the opponent may hold points or leave blots in the mover's home board.
            1 => {
                let outside = rng.random_range(0..4u8).saturating_sub(1);
                for _ in 0..outside {
                    d.mine(rng.random_range(7..=12), 1);
                }
                d.mine(OFF, rng.random_range(0..=12));
                for p in 1..=6 {
                    match rng.random_range(0..6) {
                        0 => d.theirs(p, 2),
                        1 => d.theirs(p, 1),
                        _ => {}
                    }
                }
                if rng.random_bool(0.2) {
                    d.theirs(BAR, 1);
                }
                let home: Vec<usize> = (1..=6).filter(|_| rng.random_bool(0.6)).collect();
                let home = if home.is_empty() { vec![6] } else { home };
                d.fill(&mut rng, &home, &points);
            }
            // A prime: three to six closed points in a row in front of the mover's checkers.
            2 => {
                let len = rng.random_range(3..=6);
                let low = rng.random_range(1..=24 - len + 1);
                for p in low..low + len {
                    d.theirs(p, 2);
                }
                let behind: Vec<usize> = (low + len..=(low + len + 6).min(24)).collect();
                if !behind.is_empty() {
                    for _ in 0..rng.random_range(1..=4) {
                        d.mine(behind[rng.random_range(0..behind.len())], 1);
                    }
                }
                if rng.random_bool(0.3) {
                    d.mine(BAR, 1);
                }
                d.mine(OFF, rng.random_range(0..=10));
                d.fill(&mut rng, &points, &points);
            }
            // Contact with blots everywhere: many single checkers on both sides.
            3 => {
                for _ in 0..10 {
                    d.mine(rng.random_range(1..=24), 1);
                    d.theirs(rng.random_range(1..=24), 1);
                }
                if rng.random_bool(0.3) {
                    d.mine(BAR, 1);
                }
                if rng.random_bool(0.3) {
                    d.theirs(BAR, 1);
                }
                d.fill(&mut rng, &points, &points);
            }
            // A contact race near the end: few checkers, the last ones meeting.
            4 => {
                d.mine(OFF, rng.random_range(5..=13));
                d.theirs(OFF, rng.random_range(5..=13));
                let mine: Vec<usize> = (1..=rng.random_range(8..=18)).collect();
                let theirs: Vec<usize> = (rng.random_range(6..=16)..=24).collect();
                d.fill(&mut rng, &mine, &theirs);
            }
            // Few checkers left against a board of closed points: doubles cut short.
            _ => {
                d.mine(OFF, rng.random_range(10..=14));
                for p in 1..=24 {
                    if rng.random_bool(0.3) {
                        d.theirs(p, 2);
                    }
                }
                let spread: Vec<usize> = (1..=24).collect();
                d.fill(&mut rng, &spread, &spread);
            }
        }
        let s = d.state(rng.random_range(0..2));
        if sys.validate_state(&s).is_ok() && sys.node(&s) == Node::Chance {
            out.push(s);
        }
    }
    out
}

/// Runs the comparison on random and synthetic positions of every option set; `budget` is the
/// number of position-rolls per option set (half random, half synthetic).
fn run(budget: usize) {
    let mut failures = Vec::new();
    let mut total = Coverage::default();
    for (k, (name, rules)) in option_sets().into_iter().enumerate() {
        let sys = rules.build().unwrap();
        let chance_nodes = budget.div_ceil(21);
        let want_random = chance_nodes - chance_nodes / 2;
        let random = random_chance_nodes(&sys, want_random, 7 + k as u64);
        assert_eq!(
            random.len(),
            want_random,
            "[{name}] too few random positions"
        );
        let synthetic = synthetic_chance_nodes(&sys, chance_nodes / 2 + 1, 11 + k as u64);
        let mut cov = Coverage::default();
        let nodes = random.iter().chain(synthetic.iter());
        walk::compare_each_roll(&sys, &name, nodes, &mut failures, |t, _| {
            compare(&sys, t, &mut cov)
        });
        total.add(&cov);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!("{} position-rolls agree; {total:?}", total.rolls);
    // Every hard case was met.
    for (what, n) in [
        ("forfeits", total.forfeits),
        ("higher die only", total.higher_die_only),
        ("lower die only", total.lower_die_only),
        ("partial doubles", total.partial_doubles),
        ("the lower die first", total.lower_die_first),
        ("seat 0 to move", total.by_seat[0]),
        ("seat 1 to move", total.by_seat[1]),
        ("entering", total.enters),
        ("blocked entry", total.blocked_entry),
        ("bear-offs", total.bear_offs),
        ("over-size bear-offs", total.oversize_bear_offs),
        ("hits", total.hits),
    ] {
        assert!(n > 0, "no position-roll with {what}");
    }
}

/// At least 20,000 position-rolls for the system in `cargo test`.
#[test]
fn fast_generator_agrees_with_the_reference() {
    let sets = option_sets().len();
    let budget = walk::reference_rolls_per_set().max(20_000 / sets + 1);
    run(budget);
}

/// The notations of the plays `generate` lists at `s`.
fn listed(sys: &BackgammonSystem, s: &BgState) -> Vec<String> {
    let mut plays = Vec::new();
    sys.generate(s, Orders::Distinct, &mut plays);
    plays.iter().map(|p| sys.format_play(s, p)).collect()
}

/// Cube decisions, as docs/rules/backgammon.md describes them: at the start of each turn the
/// seat on turn chooses `double` or `roll` when the cube is centred or its own and below the
/// maximum (otherwise it just rolls); after `double` the opponent chooses `take` (the cube
/// doubles, the taker owns it, the doubler rolls) or `drop` (the doubler wins the cube's value).
#[test]
fn cube_decisions_follow_the_rules() {
    let mut checked = 0;
    for (name, rules) in option_sets() {
        let sys = rules.build().unwrap();
        let may_double = |s: &BgState| {
            rules.cube
                && (s.cube_owner == CUBE_CENTRED || s.cube_owner == s.turn)
                && s.cube_value() < rules.max_cube
        };
        let mut choice = rng_from_seed(5);
        for seed in 0..6 {
            let mut dice = rng_from_seed(seed);
            let mut s = sys.initial_state();
            for _ in 0..400 {
                match sys.node(&s) {
                    Node::Over => break,
                    Node::Chance => {
                        let roll = sys.sample_roll(&s, &mut dice);
                        sys.begin_roll(&mut s, roll);
                        continue;
                    }
                    Node::Decision => {}
                }
                let before = s;
                let text = listed(&sys, &s);
                match s.phase {
                    Phase::CubeAction => {
                        assert!(may_double(&s), "[{name}] a cube decision without the cube");
                        assert_eq!(text, ["double", "roll"], "[{name}]");
                        assert_eq!(sys.to_move(&s), s.turn);
                        checked += 1;
                    }
                    Phase::TakeDrop => {
                        assert_eq!(text, ["take", "drop"], "[{name}]");
                        assert_eq!(sys.to_move(&s), 1 - s.turn);
                        checked += 1;
                    }
                    _ => {}
                }
                let mut plays = Vec::new();
                sys.generate(&s, Orders::Distinct, &mut plays);
                // Mostly roll and take, so games go on; sometimes double and drop.
                let rare = choice.random_range(0..4) == 0;
                let word = |w: &str| text.iter().position(|t| t == w);
                let i = match s.phase {
                    Phase::CubeAction => word(if rare { "double" } else { "roll" }),
                    Phase::TakeDrop => word(if rare { "drop" } else { "take" }),
                    _ if plays.is_empty() => None,
                    _ => Some(choice.random_range(0..plays.len())),
                };
                let play = i.map(|i| plays[i]).unwrap_or_default();
                for st in play.steps() {
                    sys.apply_step(&mut s, st);
                }
                sys.end_play(&mut s, play.steps());
                match before.phase {
                    Phase::CubeAction if play.steps()[0].kind == StepKind::Double => {
                        assert_eq!(s.phase, Phase::TakeDrop, "[{name}]");
                    }
                    Phase::CubeAction => assert_eq!(s.phase, Phase::Roll, "[{name}]"),
                    Phase::TakeDrop if play.steps()[0].kind == StepKind::Take => {
                        assert_eq!(s.phase, Phase::Roll, "[{name}]");
                        assert_eq!(s.turn, before.turn, "[{name}] the doubler rolls");
                        assert_eq!(s.cube_value(), 2 * before.cube_value(), "[{name}]");
                        assert_eq!(s.cube_owner, 1 - before.turn, "[{name}]");
                    }
                    Phase::TakeDrop => {
                        let o = sys.outcome(&s).expect("a dropped cube ends the game");
                        assert!(o.is_winner(before.turn), "[{name}]");
                        assert_eq!(o.points, before.cube_value(), "[{name}]");
                    }
                    _ => {
                        // After a checker play the next turn starts with the cube decision
                        // exactly when doubling is possible.
                        if sys.node(&s) != Node::Over {
                            assert_eq!(s.turn, 1 - before.turn, "[{name}]");
                            let want = if may_double(&s) {
                                Phase::CubeAction
                            } else {
                                Phase::Roll
                            };
                            assert_eq!(s.phase, want, "[{name}]");
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} cube decisions");
}
