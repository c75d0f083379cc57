//! Expectimax over decision plies: chance nodes weighted by their exact outcome probabilities.
//!
//! With two sides (two seats, or two teams) the search is expectiminimax on the mover's side's
//! win probability, with alpha-beta at decision nodes and Star1 and Star2 pruning at chance nodes
//! (values are probabilities, bounded by 0 and 1; see `Search::chance`). With more sides it is
//! max^n (each side maximises its own value, no pruning) or, with `mode=paranoid`,
//! expectiminimax of the mover's side against a coalition of all the others.
//!
//! `depth` counts decisions, not chance nodes. A roll that leads to no decision (a forfeit, a
//! missed try, a penalty) ends the line: its position is valued by the evaluator, so that a
//! chain of rolls cannot grow the tree without bound.

use super::greedy::{TIE, child};
use super::{Evaluate, Evaluator, PlayerSpec, SearchMode};
use crate::dice::GameRng;
use crate::play::Play;
use crate::system::{Node, Orders};

struct Search<'e, 'a, R: Evaluate> {
    ev: &'e Evaluator<'a, R>,
    /// `mode=greedy`: the evaluator (default weights) that predicts the other sides' plays.
    model: Option<&'e Evaluator<'a, R>>,
    /// The root mover's side, as a mask of seats.
    root_team: u16,
    /// Reused play lists, one per decision ply.
    lists: Vec<Vec<Play>>,
    /// Star2 probing at chance nodes (off only to compare in tests).
    star2: bool,
    /// Positions visited by the search, for tests and measurements of pruning.
    visits: u64,
}

/// What a Star2 probe found: the probed play's value and whether the root side moves there.
struct Probe {
    value: f64,
    maximise: bool,
}

impl<R: Evaluate> Search<'_, '_, R> {
    fn plays_at(&mut self, depth: usize, s: &R::State) -> Vec<Play> {
        let mut list = std::mem::take(&mut self.lists[depth]);
        list.clear();
        self.ev.sys.generate(s, Orders::Distinct, &mut list);
        list
    }

    fn give_back(&mut self, depth: usize, list: Vec<Play>) {
        self.lists[depth] = list;
    }

    /// The root side's value (win probability) at `s`: exact where `alpha < value < beta`, an
    /// upper bound at most `alpha` or a lower bound at least `beta` otherwise.
    fn paranoid(
        &mut self,
        s: &R::State,
        depth: usize,
        mut alpha: f64,
        mut beta: f64,
        after_roll: bool,
    ) -> f64 {
        self.visits += 1;
        let sys = self.ev.sys;
        let seat_value = |v: [f64; 4], team: u16| v[team.trailing_zeros() as usize & 3];
        match sys.node(s) {
            Node::Over => seat_value(self.ev.values(s), self.root_team),
            _ if depth == 0 => seat_value(self.ev.values(s), self.root_team),
            Node::Chance => {
                if after_roll {
                    return seat_value(self.ev.values(s), self.root_team);
                }
                self.chance(s, depth, alpha, beta)
            }
            Node::Decision => {
                let mut plays = self.plays_at(depth, s);
                if plays.is_empty() {
                    // A forfeit: the roll is lost and the turn passes (a roll with no decision).
                    self.give_back(depth, plays);
                    let mut c = *s;
                    sys.end_play(&mut c, &[]);
                    return self.paranoid(&c, depth, alpha, beta, true);
                }
                if let Some(c) = self.ev.winning_child(s, &plays) {
                    // The mover takes an immediate win (see `Evaluator::winning_child`).
                    self.give_back(depth, plays);
                    return seat_value(self.ev.values(&c), self.root_team);
                }
                let maximise = self.root_team & (1 << sys.to_move(s)) != 0;
                if depth >= 2 && plays.len() > 1 {
                    self.order(s, &mut plays, maximise);
                }
                let mut best = if maximise {
                    f64::NEG_INFINITY
                } else {
                    f64::INFINITY
                };
                for play in plays.iter() {
                    let v = self.paranoid(&child(sys, s, play), depth - 1, alpha, beta, false);
                    if maximise {
                        best = best.max(v);
                        alpha = alpha.max(v);
                    } else {
                        best = best.min(v);
                        beta = beta.min(v);
                    }
                    if alpha >= beta {
                        break;
                    }
                }
                self.give_back(depth, plays);
                best
            }
        }
    }

    /// The root side's value at the chance node `s` (bounds as for [`Search::paranoid`]).
    ///
    /// Star1: the children's values lie in [0, 1], so after some outcomes the expectation is
    /// bounded; the search stops once the bound falls outside the window. Star2 first probes
    /// each outcome's decision with its best-ordered play only: where the root side moves, that
    /// play's value is a lower bound of the decision's value, where the coalition moves an upper
    /// bound. The probes alone may already put the expectation outside the window, and they
    /// narrow the window of every later outcome's full search. A probe costs about as much as a
    /// search where the decisions below are valued directly, so it runs only where they search
    /// on (`depth` >= 2: searches of depth 3 and more).
    fn chance(&mut self, s: &R::State, depth: usize, alpha: f64, beta: f64) -> f64 {
        let sys = self.ev.sys;
        let outcomes = sys.chance_outcomes(s);
        // Per outcome, bounds of its value: (0, 1) unless a Star2 probe found tighter ones. Kept
        // only where probes ran, so shallow searches allocate nothing here.
        let mut probed: Option<Vec<(f64, f64)>> = None;
        if self.star2 && depth >= 2 {
            let bounds = probed.insert(vec![(0.0, 1.0); outcomes.len()]);
            // Expected lower and upper bounds over all outcomes, refined probe by probe.
            let (mut low_sum, mut high_sum) = (0.0, 1.0);
            for (i, o) in outcomes.iter().enumerate() {
                let p = o.probability;
                let mut c = *s;
                sys.begin_roll(&mut c, o.roll);
                let Some(v) = self.probe(
                    &c,
                    depth,
                    (alpha - (high_sum - p)) / p,
                    (beta - low_sum) / p,
                ) else {
                    continue;
                };
                if v.maximise {
                    bounds[i].0 = v.value.max(0.0);
                    low_sum += p * bounds[i].0;
                } else {
                    bounds[i].1 = v.value.min(1.0);
                    high_sum -= p * (1.0 - bounds[i].1);
                }
                if low_sum >= beta {
                    return low_sum;
                }
                if high_sum <= alpha {
                    return high_sum;
                }
            }
        }
        let bound = |i: usize| probed.as_ref().map_or((0.0, 1.0), |b| b[i]);
        // The bounds' weighted sums over the outcomes not searched yet.
        let (mut low_rest, mut high_rest) = (0.0, 0.0);
        for (i, o) in outcomes.iter().enumerate() {
            low_rest += o.probability * bound(i).0;
            high_rest += o.probability * bound(i).1;
        }
        let mut sum = 0.0;
        for (i, o) in outcomes.iter().enumerate() {
            let p = o.probability;
            let (lower, upper) = bound(i);
            low_rest -= p * lower;
            high_rest -= p * upper;
            let (low_rest, high_rest) = (low_rest.max(0.0), high_rest.max(0.0));
            let mut c = *s;
            sys.begin_roll(&mut c, o.roll);
            let a = ((alpha - sum - high_rest) / p).max(lower);
            let b = ((beta - sum - low_rest) / p).min(upper);
            let v = self.paranoid(&c, depth, a, b, true);
            sum += p * v;
            if sum + high_rest <= alpha {
                return sum + high_rest;
            }
            if sum + low_rest >= beta {
                return sum + low_rest;
            }
        }
        sum
    }

    /// Star2's probe of the decision after a roll: the value of its best-ordered play, searched
    /// within the window `(a, b)` on the side that gives a bound (a lower bound where the root side
    /// moves, whose value is then in `[0, b)` or at least `b`; an upper bound where the coalition
    /// moves). `None` where the roll leads to no decision with plays.
    fn probe(&mut self, c: &R::State, depth: usize, a: f64, b: f64) -> Option<Probe> {
        let sys = self.ev.sys;
        if sys.node(c) != Node::Decision {
            return None;
        }
        let mut plays = self.plays_at(depth, c);
        if plays.is_empty() {
            self.give_back(depth, plays);
            return None;
        }
        let maximise = self.root_team & (1 << sys.to_move(c)) != 0;
        // An empty window on the useful side: no bound from a probe could cut (rounding only).
        if (maximise && b <= 0.0) || (!maximise && a >= 1.0) {
            self.give_back(depth, plays);
            return None;
        }
        if let Some(won) = self.ev.winning_child(c, &plays) {
            // The mover takes an immediate win (`Evaluator::winning_child`): an exact value.
            self.give_back(depth, plays);
            let seat = self.root_team.trailing_zeros() as usize & 3;
            let value = self.ev.values(&won)[seat];
            return Some(Probe { value, maximise });
        }
        let first = self.best_ordered(c, &plays, maximise);
        self.give_back(depth, std::mem::take(&mut plays));
        let child = child(sys, c, &first);
        // Only one side of the window matters; the other is left open so the value is exact or
        // a bound in the useful direction.
        let value = if maximise {
            self.paranoid(&child, depth - 1, 0.0, b.min(1.0 + TIE), false)
        } else {
            self.paranoid(&child, depth - 1, a.max(-TIE), 1.0, false)
        };
        Some(Probe { value, maximise })
    }

    /// The play the evaluator puts first among `plays` for the side that moves.
    fn best_ordered(&self, s: &R::State, plays: &[Play], maximise: bool) -> Play {
        let seat = self.root_team.trailing_zeros() as usize & 3;
        let value = |p: &Play| self.ev.values(&child(self.ev.sys, s, p))[seat];
        let mut best = plays[0];
        let mut best_v = value(&best);
        for p in &plays[1..] {
            let v = value(p);
            if (maximise && v > best_v) || (!maximise && v < best_v) {
                best = *p;
                best_v = v;
            }
        }
        best
    }

    /// Best-first order for alpha-beta: by the evaluator's value of each play's result.
    fn order(&self, s: &R::State, plays: &mut [Play], maximise: bool) {
        let seat = self.root_team.trailing_zeros() as usize & 3;
        let mut keyed: Vec<(f64, Play)> = plays
            .iter()
            .map(|p| (self.ev.values(&child(self.ev.sys, s, p))[seat], *p))
            .collect();
        // A stable sort keeps the generator's order among equals (deterministic).
        if maximise {
            keyed.sort_by(|a, b| b.0.total_cmp(&a.0));
        } else {
            keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
        }
        for (slot, (_, p)) in plays.iter_mut().zip(keyed) {
            *slot = p;
        }
    }

    /// Every seat's value at `s` when each side maximises its own (max^n).
    fn maxn(&mut self, s: &R::State, depth: usize, after_roll: bool) -> [f64; 4] {
        let sys = self.ev.sys;
        match sys.node(s) {
            Node::Over => self.ev.values(s),
            _ if depth == 0 => self.ev.values(s),
            Node::Chance => {
                if after_roll {
                    return self.ev.values(s);
                }
                let mut sum = [0.0; 4];
                for o in sys.chance_outcomes(s) {
                    let mut c = *s;
                    sys.begin_roll(&mut c, o.roll);
                    let v = self.maxn(&c, depth, true);
                    for (x, y) in sum.iter_mut().zip(v) {
                        *x += o.probability * y;
                    }
                }
                sum
            }
            Node::Decision => {
                let plays = self.plays_at(depth, s);
                if plays.is_empty() {
                    self.give_back(depth, plays);
                    let mut c = *s;
                    sys.end_play(&mut c, &[]);
                    return self.maxn(&c, depth, true);
                }
                if let Some(c) = self.ev.winning_child(s, &plays) {
                    // The mover takes an immediate win (see `Evaluator::winning_child`).
                    self.give_back(depth, plays);
                    return self.ev.values(&c);
                }
                let mover = sys.to_move(s) as usize;
                if let Some(model) = self.model.filter(|_| self.root_team & (1 << mover) == 0) {
                    // The other side plays as the default greedy player would: follow its play
                    // only (the first of its best, where greedy would break the tie at random).
                    let best_play = plays[super::greedy::first_best_index(&plays, |play| {
                        model.values(&child(sys, s, play))[mover]
                    })];
                    self.give_back(depth, plays);
                    return self.maxn(&child(sys, s, &best_play), depth - 1, false);
                }
                let mut best = [f64::NEG_INFINITY; 4];
                for play in plays.iter() {
                    let v = self.maxn(&child(sys, s, play), depth - 1, false);
                    if v[mover] > best[mover] {
                        best = v;
                    }
                }
                self.give_back(depth, plays);
                best
            }
        }
    }
}

/// The index of the play expectimax finds best at the decision node `s` (`plays` are its
/// distinct legal plays); ties go to the first of a shuffled order, so `rng` breaks them.
pub(crate) fn choose<R: Evaluate>(
    ev: &Evaluator<'_, R>,
    s: &R::State,
    plays: &[Play],
    spec: &PlayerSpec,
    rng: &mut GameRng,
) -> usize {
    let sys = ev.sys;
    let mover = sys.to_move(s);
    let depth = spec.depth.max(1) as usize;
    let paranoid = match spec.mode {
        SearchMode::Paranoid => true,
        SearchMode::MaxN | SearchMode::Greedy => false,
        SearchMode::Auto => ev.sides() <= 2,
    };
    let model = (spec.mode == SearchMode::Greedy).then(|| Evaluator::new(sys, &[]));
    let mut search = Search {
        ev,
        model: model.as_ref(),
        root_team: sys.team(mover),
        lists: vec![Vec::new(); depth + 1],
        star2: true,
        visits: 0,
    };
    // A random order first, then best-first: equal plays are tried in the random order.
    let mut order: Vec<usize> = (0..plays.len()).collect();
    for i in (1..order.len()).rev() {
        let j = crate::sim::uniform_index(rng, i + 1);
        order.swap(i, j);
    }
    if ev.points_scale().is_some()
        && let Some(&i) = order
            .iter()
            .find(|&&i| ev.won_by(&child(sys, s, &plays[i]), mover))
    {
        // An immediate win (`Evaluator::winning_child`); the first in the random order, as
        // every win of one roll scores alike.
        return i;
    }
    if depth >= 2 {
        let seat = mover as usize;
        let mut keyed: Vec<(f64, usize)> = order
            .iter()
            .map(|&i| (ev.values(&child(sys, s, &plays[i]))[seat], i))
            .collect();
        keyed.sort_by(|a, b| b.0.total_cmp(&a.0));
        order = keyed.into_iter().map(|(_, i)| i).collect();
    }
    let top = spec.top as usize;
    if depth >= 2 && top > 0 && order.len() > top {
        // `top`: value every play one decision shallower, then search the best `top` at full
        // depth. A stable sort keeps the order of equals, so the random tie-break still holds.
        let mut keyed: Vec<(f64, usize)> = order
            .iter()
            .map(|&i| {
                let c = child(sys, s, &plays[i]);
                let v = if paranoid {
                    search.paranoid(&c, depth - 2, -TIE, 1.0 + TIE, false)
                } else {
                    search.maxn(&c, depth - 2, false)[mover as usize]
                };
                (v, i)
            })
            .collect();
        keyed.sort_by(|a, b| b.0.total_cmp(&a.0));
        order = keyed.into_iter().take(top).map(|(_, i)| i).collect();
    }
    let mut best_i = order[0];
    let mut best = f64::NEG_INFINITY;
    for &i in &order {
        let c = child(sys, s, &plays[i]);
        let v = if paranoid {
            // Only a play better than the best so far matters: search with alpha = best.
            search.paranoid(&c, depth - 1, best.max(0.0) - TIE, 1.0 + TIE, false)
        } else {
            search.maxn(&c, depth - 1, false)[mover as usize]
        };
        if v > best + TIE {
            best = v;
            best_i = i;
        }
    }
    best_i
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{GameRng, rng_from_seed};
    use crate::system::{RuleSystem, SystemRules};

    /// Walks a random game of `sys` for `steps` nodes (dice from `dice`, plays drawn with
    /// `choice`), calling `visit` with the node's index, state and distinct plays at each
    /// decision that has a play.
    fn random_walk<R: RuleSystem>(
        sys: &R,
        dice: &mut GameRng,
        choice: &mut GameRng,
        steps: usize,
        mut visit: impl FnMut(usize, &R::State, &[Play]),
    ) {
        let mut s = sys.initial_state();
        for step in 0..steps {
            match sys.node(&s) {
                Node::Over => break,
                Node::Chance => {
                    let roll = sys.sample_roll(&s, dice);
                    sys.begin_roll(&mut s, roll);
                }
                Node::Decision => {
                    let mut plays = Vec::new();
                    sys.generate(&s, Orders::Distinct, &mut plays);
                    if plays.is_empty() {
                        sys.end_play(&mut s, &[]);
                        continue;
                    }
                    visit(step, &s, &plays);
                    let i = crate::sim::uniform_index(choice, plays.len());
                    s = child(sys, &s, &plays[i]);
                }
            }
        }
    }

    /// Star1 and alpha-beta return the exact value inside the window and a bound on the right
    /// side outside it; with a full window they agree with max^n (two sides: the same values).
    fn check<R: Evaluate>(sys: &R, games: u64) {
        let ev = Evaluator::new(sys, &[]);
        let mut rng = rng_from_seed(1);
        let mut checked = 0;
        for seed in 0..games {
            let mut dice = rng_from_seed(seed);
            random_walk(sys, &mut dice, &mut rng, 400, |step, s, plays| {
                if step % 9 != 0 {
                    return;
                }
                let mover = sys.to_move(s);
                let mut search = Search {
                    ev: &ev,
                    model: None,
                    root_team: sys.team(mover),
                    lists: vec![Vec::new(); 3],
                    star2: true,
                    visits: 0,
                };
                for play in plays.iter().take(4) {
                    let c = child(sys, s, play);
                    let exact = search.maxn(&c, 1, false)[mover as usize];
                    let full = search.paranoid(&c, 1, -1.0, 2.0, false);
                    assert!((exact - full).abs() < 1e-9, "{exact} {full}");
                    let (a, b) = (exact - 0.05, exact + 0.05);
                    let inside = search.paranoid(&c, 1, a, b, false);
                    assert!((inside - exact).abs() < 1e-9);
                    let low = search.paranoid(&c, 1, exact + 0.01, exact + 0.2, false);
                    assert!(low <= exact + 0.01 + 1e-12, "{low} {exact}");
                    let high = search.paranoid(&c, 1, exact - 0.2, exact - 0.01, false);
                    assert!(high >= exact - 0.01 - 1e-12, "{high} {exact}");
                    checked += 1;
                }
            });
        }
        assert!(checked > 20);
    }

    #[test]
    fn star1_agrees_with_plain_expectiminimax() {
        check(
            &crate::backgammon::BackgammonRules::standard()
                .build()
                .unwrap(),
            3,
        );
        let mut two = crate::parcheesi::ParcheesiRules::parcheesi();
        two.seats = 2;
        check(&two.build().unwrap(), 3);
        let mut classic = crate::classic::ClassicRules::classic();
        classic.seats = 2;
        check(&classic.build().unwrap(), 2);
    }

    /// Star2's probes change no value: at depth 3 (where they run) the pruned search with and
    /// without them returns the exact value inside a window and a bound on the right side
    /// outside it, and the probes visit fewer positions in all.
    #[test]
    fn star2_agrees_with_star1_and_visits_fewer_positions() {
        let sys = crate::backgammon::BackgammonRules::standard()
            .build()
            .unwrap();
        let ev = Evaluator::new(&sys, &[]);
        let mut rng = rng_from_seed(5);
        let (mut with, mut without, mut checked) = (0, 0, 0);
        let mut dice = rng_from_seed(9);
        random_walk(&sys, &mut dice, &mut rng, 120, |step, s, plays| {
            if step % 15 != 3 {
                return;
            }
            let mover = sys.to_move(s);
            let c = child(&sys, s, &plays[0]);
            let mut values = Vec::new();
            for star2 in [false, true] {
                let mut search = Search {
                    ev: &ev,
                    model: None,
                    root_team: sys.team(mover),
                    lists: vec![Vec::new(); 4],
                    star2,
                    visits: 0,
                };
                let exact = search.paranoid(&c, 2, -TIE, 1.0 + TIE, false);
                let (a, b) = (exact - 0.02, exact + 0.02);
                let inside = search.paranoid(&c, 2, a, b, false);
                let low = search.paranoid(&c, 2, exact + 0.01, 1.0, false);
                let high = search.paranoid(&c, 2, 0.0, exact - 0.01, false);
                assert!((inside - exact).abs() < 1e-9, "{inside} {exact}");
                assert!(low <= exact + 0.01 + 1e-12, "{low} {exact}");
                assert!(high >= exact - 0.01 - 1e-12, "{high} {exact}");
                values.push(exact);
                if star2 {
                    with += search.visits;
                } else {
                    without += search.visits;
                }
            }
            assert!((values[0] - values[1]).abs() < 1e-9, "{values:?}");
            checked += 1;
        });
        assert!(checked >= 4, "{checked}");
        eprintln!("positions visited: Star2 {with}, Star1 alone {without}");
        assert!(
            with < without,
            "Star2 visited {with} positions, Star1 alone {without}"
        );
    }

    /// `mode=greedy`: at another side's decision the search follows the play the default
    /// evaluator values best for that side and values it with the player's own weights; at the
    /// root side's decisions it is max^n.
    #[test]
    fn greedy_mode_follows_the_default_greedy_play_of_the_other_sides() {
        let sys = crate::parcheesi::ParcheesiRules::parcheesi()
            .build()
            .unwrap();
        let own = Evaluator::new(
            &sys,
            &[("risk".to_string(), -6.0), ("safe".to_string(), 9.0)],
        );
        let model = Evaluator::new(&sys, &[]);
        let mut rng = rng_from_seed(3);
        let (mut differ, mut checked) = (0, 0);
        for seed in 0..4 {
            let mut dice = rng_from_seed(seed);
            random_walk(&sys, &mut dice, &mut rng, 300, |_, s, plays| {
                if plays.len() < 2 {
                    return;
                }
                let mover = sys.to_move(s) as usize;
                // The root side: the seat after the mover, so `s` is another side's decision.
                let root = (mover + 1) % 4;
                let mut search = Search {
                    ev: &own,
                    model: Some(&model),
                    root_team: sys.team(root as u8),
                    lists: vec![Vec::new(); 3],
                    star2: true,
                    visits: 0,
                };
                let modelled = search.maxn(s, 1, false);
                let value = |ev: &Evaluator<'_, _>, p: &Play| ev.values(&child(&sys, s, p))[mover];
                let greedy_play =
                    plays[super::super::greedy::first_best_index(plays, |p| value(&model, p))];
                assert_eq!(modelled, own.values(&child(&sys, s, &greedy_play)));
                // Plain max^n lets the mover maximise by the player's own weights instead.
                search.model = None;
                let maxn = search.maxn(s, 1, false);
                let own_best = plays
                    .iter()
                    .map(|p| value(&own, p))
                    .fold(f64::MIN, f64::max);
                assert!((maxn[mover] - own_best).abs() < 1e-12);
                differ += (maxn != modelled) as usize;
                // At the root side's own decision the model is not used.
                search.model = Some(&model);
                search.root_team = sys.team(mover as u8);
                assert_eq!(search.maxn(s, 1, false)[mover], own_best);
                checked += 1;
            });
        }
        assert!(checked > 50, "{checked}");
        assert!(differ > 0, "the own weights never disagreed with the model");
    }

    /// `top=k` searches the `k` plays a search one decision shallower values best: with `k` at
    /// least the number of plays it chooses as the full search does; with `k = 1` it chooses
    /// what that shallower search chooses (same seed, so the same tie-break).
    #[test]
    fn top_restricts_the_root_to_the_best_plays_of_a_shallower_search() {
        let sys = crate::parcheesi::ParcheesiRules::parcheesi()
            .build()
            .unwrap();
        let ev = Evaluator::new(&sys, &[]);
        let spec = |text: &str| text.parse::<PlayerSpec>().unwrap();
        let mut walk_rng = rng_from_seed(5);
        let mut checked = 0;
        for seed in 0..3 {
            let mut dice = rng_from_seed(seed);
            random_walk(&sys, &mut dice, &mut walk_rng, 200, |step, s, plays| {
                if step % 7 != 0 || plays.len() < 3 {
                    return;
                }
                let pick = |text: &str| choose(&ev, s, plays, &spec(text), &mut rng_from_seed(9));
                for mode in ["greedy", "paranoid"] {
                    let full = pick(&format!("expectimax:depth=3,mode={mode}"));
                    let wide = pick(&format!("expectimax:depth=3,mode={mode},top=1000"));
                    assert_eq!(full, wide);
                    let shallow = pick(&format!("expectimax:depth=2,mode={mode}"));
                    let one = pick(&format!("expectimax:depth=3,mode={mode},top=1"));
                    assert_eq!(shallow, one);
                }
                checked += 1;
            });
        }
        assert!(checked > 5, "{checked}");
    }
}
