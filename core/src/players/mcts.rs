//! Monte Carlo tree search for dice games: UCT at decision nodes, sampled chance nodes, max^n.
//!
//! Each iteration walks down the tree: at a decision node to a play not tried yet (chosen
//! uniformly) or else to the play with the best upper confidence bound for the seat to move; at
//! a chance node to the outcome furthest below its share of the node's visits (stratified
//! sampling by the exact probabilities). The first new node is valued (by the evaluator, or by a
//! playout) and the value, one win probability per seat, is added to every node on the way
//! (max^n: each seat reads its own component, partners share theirs). With `prior` > 0 every play
//! of a decision node is valued by the evaluator when the node is added and counts that value as
//! `prior` visits, so selection starts from the greedy order (and an opponent's reply is its best
//! by the evaluator, not a random untried one); with `prior=0` untried plays come first. The play
//! chosen is the root's most visited.

use super::eval::terminal_values;
use super::greedy::{self, child};
use super::{Evaluate, Evaluator, Leaf, PlayerSpec};
use crate::dice::{ChanceOutcome, GameRng};
use crate::play::Play;
use crate::sim::MAX_ROLLS;
use crate::system::{Node, Orders};
use std::time::{Duration, Instant};

const NONE: u32 = u32::MAX;

enum Kind {
    /// `priors`: the evaluator's values of each play's position (empty when `prior` is 0).
    Decision {
        mover: u8,
        plays: Vec<Play>,
        priors: Vec<[f64; 4]>,
    },
    Chance {
        outcomes: Vec<ChanceOutcome>,
    },
    Over,
}

struct TreeNode<S> {
    state: S,
    kind: Kind,
    /// Child per play or per outcome, [`NONE`] until first reached.
    children: Vec<u32>,
    visits: u32,
    total: [f64; 4],
}

struct Tree<'e, 'a, 's, R: Evaluate> {
    ev: &'e Evaluator<'a, R>,
    spec: &'s PlayerSpec,
    nodes: Vec<TreeNode<R::State>>,
    buf: Vec<Play>,
    /// Plays simulated: decision edges walked in the tree plus plays made in playouts.
    simulated: u64,
}

/// What one MCTS decision did (see [`search`]).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Counts {
    pub iterations: u64,
    pub simulated: u64,
    pub nodes: u64,
}

impl<R: Evaluate> Tree<'_, '_, '_, R> {
    /// Adds the node of `s` (forfeits resolved: a decision without a play passes the turn).
    fn add(&mut self, mut s: R::State, plays: Option<Vec<Play>>) -> u32 {
        let sys = self.ev.sys;
        let kind = match plays {
            Some(plays) => Kind::Decision {
                mover: sys.to_move(&s),
                plays,
                priors: Vec::new(),
            },
            None => loop {
                match sys.node(&s) {
                    Node::Over => break Kind::Over,
                    Node::Chance => {
                        break Kind::Chance {
                            outcomes: sys.chance_outcomes(&s),
                        };
                    }
                    Node::Decision => {
                        let mut plays = Vec::new();
                        sys.generate(&s, Orders::Distinct, &mut plays);
                        if plays.is_empty() {
                            sys.end_play(&mut s, &[]);
                            continue;
                        }
                        break Kind::Decision {
                            mover: sys.to_move(&s),
                            plays,
                            priors: Vec::new(),
                        };
                    }
                }
            },
        };
        let mut kind = kind;
        if let Kind::Decision { plays, priors, .. } = &mut kind
            && self.spec.prior > 0
        {
            *priors = plays
                .iter()
                .map(|p| self.ev.values(&child(sys, &s, p)))
                .collect();
        }
        let n = match &kind {
            Kind::Decision { plays, .. } => plays.len(),
            Kind::Chance { outcomes } => outcomes.len(),
            Kind::Over => 0,
        };
        self.nodes.push(TreeNode {
            state: s,
            kind,
            children: vec![NONE; n],
            visits: 0,
            total: [0.0; 4],
        });
        (self.nodes.len() - 1) as u32
    }

    fn iterate(&mut self, rng: &mut GameRng, path: &mut Vec<u32>) {
        path.clear();
        path.push(0);
        let mut cur = 0usize;
        let value = loop {
            let node = &self.nodes[cur];
            let (next, fresh) = match &node.kind {
                Kind::Over => break terminal_values(self.ev.sys.outcome(&node.state)),
                Kind::Decision { mover, plays, .. } => {
                    // With priors every play has a value and UCT ranks them all; without,
                    // the plays not tried yet come first, in random order.
                    let untried = match self.spec.prior {
                        0 => node.children.iter().filter(|&&c| c == NONE).count(),
                        _ => 0,
                    };
                    let i = match untried {
                        0 => self.select(cur, *mover as usize),
                        n => {
                            let k = crate::sim::uniform_index(rng, n);
                            (0..plays.len())
                                .filter(|&i| node.children[i] == NONE)
                                .nth(k)
                                .unwrap_or(0)
                        }
                    };
                    let fresh = (node.children[i] == NONE)
                        .then(|| child(self.ev.sys, &node.state, &plays[i]));
                    self.simulated += 1;
                    (i, fresh)
                }
                Kind::Chance { outcomes } => {
                    // Stratified: the outcome furthest below its share of the visits, so that
                    // the visits follow the probabilities closely (less noise than sampling).
                    let n = node.visits as f64 + 1.0;
                    let mut i = 0;
                    let mut most = f64::NEG_INFINITY;
                    for (k, o) in outcomes.iter().enumerate() {
                        let c = node.children[k];
                        let seen = if c == NONE {
                            0.0
                        } else {
                            self.nodes[c as usize].visits as f64
                        };
                        let lack = o.probability * n - seen;
                        if lack > most {
                            most = lack;
                            i = k;
                        }
                    }
                    if node.children[i] == NONE {
                        let mut c = node.state;
                        self.ev.sys.begin_roll(&mut c, outcomes[i].roll);
                        (i, Some(c))
                    } else {
                        (i, None)
                    }
                }
            };
            match fresh {
                Some(state) => {
                    let prior = match &self.nodes[cur].kind {
                        Kind::Decision { priors, .. } => priors.get(next).copied(),
                        _ => None,
                    };
                    let id = self.add(state, None);
                    self.nodes[cur].children[next] = id;
                    path.push(id);
                    if let Some(v) = prior {
                        // The prior counts as visits of the new play, so the search starts
                        // from the greedy order and leaves it only on evidence.
                        let w = self.spec.prior;
                        let n = &mut self.nodes[id as usize];
                        n.visits += w;
                        for (t, x) in n.total.iter_mut().zip(v) {
                            *t += x * w as f64;
                        }
                    }
                    break self.leaf_value(id as usize, rng);
                }
                None => {
                    cur = self.nodes[cur].children[next] as usize;
                    path.push(cur as u32);
                }
            }
        };
        for &id in path.iter() {
            let n = &mut self.nodes[id as usize];
            n.visits += 1;
            for (t, v) in n.total.iter_mut().zip(value) {
                *t += v;
            }
        }
    }

    /// UCT: the child with the best mean for `mover` plus the exploration bonus (a play not
    /// reached yet counts its prior visits at the evaluator's value).
    fn select(&self, id: usize, mover: usize) -> usize {
        let node = &self.nodes[id];
        let log_n = (node.visits.max(1) as f64).ln();
        let c = self.spec.exploration;
        let priors: &[[f64; 4]] = match &node.kind {
            Kind::Decision { priors, .. } => priors,
            _ => &[],
        };
        let mut best = 0;
        let mut best_score = f64::NEG_INFINITY;
        for (i, &ch) in node.children.iter().enumerate() {
            let (total, n) = if ch == NONE {
                let w = self.spec.prior.max(1) as f64;
                (priors.get(i).map_or(0.0, |v| v[mover] * w), w)
            } else {
                let child = &self.nodes[ch as usize];
                (child.total[mover], child.visits.max(1) as f64)
            };
            let score = total / n + c * (log_n / n).sqrt();
            if score > best_score {
                best_score = score;
                best = i;
            }
        }
        best
    }

    /// The value of a new node: the evaluator's, or a playout's.
    fn leaf_value(&mut self, id: usize, rng: &mut GameRng) -> [f64; 4] {
        let sys = self.ev.sys;
        let mut s = self.nodes[id].state;
        if self.spec.leaf == Leaf::Eval || sys.node(&s) == Node::Over {
            return self.ev.values(&s);
        }
        let limit = self.spec.playout_depth;
        let mut decisions = 0u32;
        let mut rolls = 0u32;
        loop {
            match sys.node(&s) {
                Node::Over => return terminal_values(sys.outcome(&s)),
                Node::Chance => {
                    if rolls >= MAX_ROLLS {
                        return self.ev.values(&s);
                    }
                    let roll = sys.sample_roll(&s, rng);
                    sys.begin_roll(&mut s, roll);
                    rolls += 1;
                }
                Node::Decision => {
                    if limit > 0 && decisions >= limit {
                        return self.ev.values(&s);
                    }
                    decisions += 1;
                    self.simulated += 1;
                    self.buf.clear();
                    sys.generate(&s, Orders::Distinct, &mut self.buf);
                    let i = match self.buf.len() {
                        0 => {
                            sys.end_play(&mut s, &[]);
                            continue;
                        }
                        1 => 0,
                        n if self.spec.leaf == Leaf::Random => crate::sim::uniform_index(rng, n),
                        _ => greedy::choose(self.ev, &s, &self.buf, rng),
                    };
                    s = child(sys, &s, &self.buf[i]);
                }
            }
        }
    }
}

/// The index of the root's most visited play after the search (ties: the better mean).
pub(crate) fn choose<R: Evaluate>(
    ev: &Evaluator<'_, R>,
    s: &R::State,
    plays: &[Play],
    spec: &PlayerSpec,
    rng: &mut GameRng,
) -> usize {
    search(ev, s, plays, spec, rng).0
}

/// [`choose`], with what the search did.
pub(crate) fn search<R: Evaluate>(
    ev: &Evaluator<'_, R>,
    s: &R::State,
    plays: &[Play],
    spec: &PlayerSpec,
    rng: &mut GameRng,
) -> (usize, Counts) {
    let mut tree = Tree {
        ev,
        spec,
        nodes: Vec::with_capacity(spec.iterations.min(1 << 16) as usize + 1),
        buf: Vec::new(),
        simulated: 0,
    };
    tree.add(*s, Some(plays.to_vec()));
    let start = Instant::now();
    let budget = spec.time_ms.map(Duration::from_millis);
    let mut path = Vec::new();
    let mut iterations = 0;
    for it in 0..spec.iterations {
        if let Some(b) = budget
            && it % 16 == 0
            && it > 0
            && start.elapsed() >= b
        {
            break;
        }
        tree.iterate(rng, &mut path);
        iterations += 1;
    }
    let counts = Counts {
        iterations,
        simulated: tree.simulated,
        nodes: tree.nodes.len() as u64,
    };
    let mover = ev.sys.to_move(s) as usize;
    let root = &tree.nodes[0];
    let mut best = 0;
    let mut key = (0u32, f64::NEG_INFINITY);
    for (i, &c) in root.children.iter().enumerate() {
        if c == NONE {
            continue;
        }
        let n = &tree.nodes[c as usize];
        let k = (n.visits, n.total[mover] / n.visits.max(1) as f64);
        if k.0 > key.0 || (k.0 == key.0 && k.1 > key.1) {
            key = k;
            best = i;
        }
    }
    (best, counts)
}
