//! Player specs: `name[:key=value,...]` or a JSON object, parsed and validated.

use crate::{Error, Result};
use serde_json::Value;
use std::fmt;
use std::str::FromStr;

/// Which player.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PlayerKind {
    /// Uniform over the distinct legal plays.
    Random,
    /// One ply: the play whose resulting position the evaluator likes best.
    Greedy,
    /// Expectimax over decision plies, chance nodes weighted by their exact probabilities.
    Expectimax,
    /// Monte Carlo tree search with sampled chance nodes and max^n backups.
    Mcts,
    /// Tesauro's public linear backgammon evaluator at one ply (backgammon only).
    PubEval,
    /// A learned evaluator (a network trained by TD(λ)): one ply, or expectimax over the network
    /// with `depth` >= 2.
    Td,
}

impl PlayerKind {
    /// The spec name.
    pub fn name(self) -> &'static str {
        match self {
            PlayerKind::Random => "random",
            PlayerKind::Greedy => "greedy",
            PlayerKind::Expectimax => "expectimax",
            PlayerKind::Mcts => "mcts",
            PlayerKind::PubEval => "pubeval",
            PlayerKind::Td => "td",
        }
    }
}

/// How expectimax treats the other seats.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SearchMode {
    /// `paranoid` with two sides (two seats, or two teams), `maxn` with more.
    Auto,
    /// Every other side plays against the mover's side: one value, expectiminimax with Star1
    /// pruning at chance nodes (exact with two sides).
    Paranoid,
    /// Each side maximises its own value (max^n); no pruning.
    MaxN,
    /// The other sides are modelled as the default `greedy` player: at their decisions the
    /// search follows the one play the evaluator with default weights values best for them (no
    /// branching there), and the mover's own weights value the leaves (max^n otherwise).
    Greedy,
}

/// How MCTS values a new node.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Leaf {
    /// The evaluator's win probabilities of the node's position.
    Eval,
    /// A playout with the uniform random player (then the evaluator, if `playout_depth` stops it).
    Random,
    /// A playout with the greedy player (then the evaluator, if `playout_depth` stops it).
    Greedy,
}

/// A parsed, validated player spec (see the [module docs](crate::players)).
///
/// ```
/// use pachisi::players::{PlayerKind, PlayerSpec};
/// let s: PlayerSpec = "mcts:iterations=500,leaf=random".parse().unwrap();
/// assert_eq!(s.kind, PlayerKind::Mcts);
/// assert_eq!(s.iterations, 500);
/// assert_eq!(s.to_string(), "mcts:iterations=500,leaf=random");
/// let j: PlayerSpec = r#"{"player": "greedy", "weights": {"risk": -2}}"#.parse().unwrap();
/// assert_eq!(j.to_string(), "greedy:risk=-2");
/// assert!("expectimax:depth=0".parse::<PlayerSpec>().is_err());
/// assert!("greedy:iterations=5".parse::<PlayerSpec>().is_err());
/// let t: PlayerSpec = "expectimax:mode=greedy,weights=tuned".parse().unwrap();
/// assert_eq!(t.weight_set.as_deref(), Some("tuned"));
/// assert_eq!(t.to_string(), "expectimax:depth=2,mode=greedy,weights=tuned");
/// let deep: PlayerSpec = "expectimax:depth=3,top=3,mode=greedy".parse().unwrap();
/// assert_eq!(deep.to_string(), "expectimax:depth=3,mode=greedy,top=3");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerSpec {
    /// The player.
    pub kind: PlayerKind,
    /// Expectimax: decision plies searched (1 = greedy), 1..=4.
    pub depth: u32,
    /// Expectimax: how the other seats play.
    pub mode: SearchMode,
    /// Expectimax with `depth` >= 2: search only the `top` root plays that a search one
    /// decision shallower values best (0: every play). A deep search at a fraction of its cost.
    pub top: u32,
    /// MCTS: iterations per decision, 1..=10,000,000.
    pub iterations: u32,
    /// MCTS: stop after this many milliseconds even if iterations remain (then the choice
    /// depends on the machine's speed).
    pub time_ms: Option<u64>,
    /// MCTS: the exploration constant of UCT (values are win probabilities in 0..=1).
    pub exploration: f64,
    /// MCTS: how a new node is valued.
    pub leaf: Leaf,
    /// MCTS: decisions a playout makes before the evaluator values its position (0: to the end).
    pub playout_depth: u32,
    /// MCTS: virtual visits at the evaluator's value that a new play starts with (0: none).
    pub prior: u32,
    /// A named weight set of the evaluator ([`crate::players::Evaluate::WEIGHT_SETS`], e.g.
    /// `tuned`) that replaces the defaults before [`PlayerSpec::weights`] apply (greedy,
    /// expectimax, mcts: `weights=<name>`).
    pub weight_set: Option<String>,
    /// Evaluator weights changed from their defaults, by feature name.
    pub weights: Vec<(String, f64)>,
    /// `td`: the network, by the key it is registered under ([`crate::players::register_network`];
    /// the C and Python bindings register a file under its path). `None`: the network shipped
    /// for the game's preset.
    pub network: Option<String>,
}

impl PlayerSpec {
    /// The spec of a player with every parameter at its default.
    pub fn new(kind: PlayerKind) -> PlayerSpec {
        PlayerSpec {
            kind,
            // `td` is one ply unless asked to search.
            depth: if kind == PlayerKind::Td { 1 } else { 2 },
            mode: SearchMode::Auto,
            top: 0,
            iterations: 1000,
            time_ms: None,
            exploration: 0.7,
            leaf: Leaf::Eval,
            playout_depth: 0,
            prior: 8,
            weight_set: None,
            weights: Vec::new(),
            network: None,
        }
    }

    /// Parses a JSON object `{"player": name, param: value, ..., "weights": {...}}`.
    pub fn from_json_value(value: &Value) -> Result<PlayerSpec> {
        let Value::Object(map) = value else {
            return Err(Error::InvalidPlayer(
                "a player spec in JSON is an object such as {\"player\": \"greedy\"}".into(),
            ));
        };
        let name = map.get("player").and_then(Value::as_str).ok_or_else(|| {
            Error::InvalidPlayer("missing `player` (a name, e.g. \"mcts\")".into())
        })?;
        let mut spec = PlayerSpec::new(kind_of(name)?);
        for (k, v) in map {
            match k.as_str() {
                "player" => {}
                // A network's key (td) or a named weight set (a string).
                "weights" if spec.kind == PlayerKind::Td || v.is_string() => {
                    spec.set(k, &json_text(v))?
                }
                "weights" => {
                    let Value::Object(w) = v else {
                        return Err(Error::InvalidPlayer(
                            "`weights` is an object of feature names and numbers".into(),
                        ));
                    };
                    for (name, x) in w {
                        spec.set(name, &json_text(x))?;
                    }
                }
                _ => spec.set(k, &json_text(v))?,
            }
        }
        Ok(spec)
    }

    /// Sets one parameter from its text; errors name the parameter and what it takes.
    fn set(&mut self, key: &str, value: &str) -> Result<()> {
        let kind = self.kind;
        let only = |kinds: &[PlayerKind]| -> Result<()> {
            if kinds.contains(&kind) {
                Ok(())
            } else {
                Err(Error::InvalidPlayer(format!(
                    "`{key}` is not a parameter of `{}`",
                    kind.name()
                )))
            }
        };
        let bad =
            |what: &str| Error::InvalidPlayer(format!("`{key}` must be {what}, got `{value}`"));
        match key {
            "weights" if kind == PlayerKind::Td => {
                if value.is_empty() {
                    return Err(bad("a registered network's key or a weights file's path"));
                }
                self.network = Some(value.to_string());
            }
            "weights" => {
                only(&[PlayerKind::Greedy, PlayerKind::Expectimax, PlayerKind::Mcts])?;
                let sets = super::all_weight_set_names();
                if !sets.contains(&value) {
                    return Err(bad(&format!(
                        "a named weight set ({})",
                        sets.iter()
                            .map(|n| format!("`{n}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )));
                }
                self.weight_set = Some(value.to_string());
            }
            "depth" => {
                only(&[PlayerKind::Expectimax, PlayerKind::Td])?;
                self.depth = value
                    .parse()
                    .ok()
                    .filter(|d| (1..=4).contains(d))
                    .ok_or_else(|| bad("an integer from 1 to 4"))?;
            }
            "mode" => {
                only(&[PlayerKind::Expectimax, PlayerKind::Td])?;
                self.mode = match value {
                    "auto" => SearchMode::Auto,
                    "paranoid" => SearchMode::Paranoid,
                    "maxn" => SearchMode::MaxN,
                    "greedy" => SearchMode::Greedy,
                    _ => return Err(bad("`auto`, `paranoid`, `maxn` or `greedy`")),
                };
            }
            "top" => {
                only(&[PlayerKind::Expectimax, PlayerKind::Td])?;
                self.top = value
                    .parse()
                    .ok()
                    .filter(|&k: &u32| k <= 1000)
                    .ok_or_else(|| bad("an integer from 0 (every play) to 1000"))?;
            }
            "iterations" => {
                only(&[PlayerKind::Mcts])?;
                self.iterations = value
                    .parse()
                    .ok()
                    .filter(|n| (1..=10_000_000).contains(n))
                    .ok_or_else(|| bad("an integer from 1 to 10000000"))?;
            }
            "time_ms" => {
                only(&[PlayerKind::Mcts])?;
                self.time_ms = Some(
                    value
                        .parse()
                        .ok()
                        .filter(|&t: &u64| t >= 1)
                        .ok_or_else(|| bad("a positive integer"))?,
                );
            }
            "c" => {
                only(&[PlayerKind::Mcts])?;
                self.exploration = value
                    .parse()
                    .ok()
                    .filter(|c: &f64| c.is_finite() && *c >= 0.0)
                    .ok_or_else(|| bad("a number >= 0"))?;
            }
            "leaf" => {
                only(&[PlayerKind::Mcts])?;
                self.leaf = match value {
                    "eval" => Leaf::Eval,
                    "random" => Leaf::Random,
                    "greedy" => Leaf::Greedy,
                    _ => return Err(bad("`eval`, `random` or `greedy`")),
                };
            }
            "playout_depth" => {
                only(&[PlayerKind::Mcts])?;
                self.playout_depth = value
                    .parse()
                    .map_err(|_| bad("an integer >= 0 (0: to the end)"))?;
            }
            "prior" => {
                only(&[PlayerKind::Mcts])?;
                self.prior = value
                    .parse()
                    .ok()
                    .filter(|&p: &u32| p <= 1_000_000)
                    .ok_or_else(|| bad("an integer from 0 to 1000000"))?;
            }
            _ => {
                if !super::all_feature_names().contains(&key) {
                    return Err(Error::InvalidPlayer(format!(
                        "`{}` has no parameter or evaluator feature `{key}` (features: {})",
                        kind.name(),
                        super::all_feature_names().join(", ")
                    )));
                }
                only(&[PlayerKind::Greedy, PlayerKind::Expectimax, PlayerKind::Mcts])?;
                let w: f64 = value
                    .parse()
                    .ok()
                    .filter(|w: &f64| w.is_finite())
                    .ok_or_else(|| bad("a finite number"))?;
                self.weights.retain(|(k, _)| k != key);
                self.weights.push((key.to_string(), w));
            }
        }
        Ok(())
    }
}

impl PlayerSpec {
    /// Whether this player can play the system `R`: `pubeval` plays backgammon only.
    pub(crate) fn check_system<R: super::Evaluate>(&self, sys: &R) -> Result<()> {
        if self.kind == PlayerKind::PubEval && !R::HAS_PUBEVAL {
            return Err(Error::InvalidPlayer(
                "`pubeval` is a backgammon evaluator: it plays backgammon only".into(),
            ));
        }
        // A network named by the caller must fit the game: silently playing as `greedy` would
        // pass off greedy's results as the network's. (The shipped default falls back; see
        // `td::default_network`.)
        if self.kind == PlayerKind::Td {
            if let Some(key) = &self.network {
                if let Some(net) = super::registered_network(key) {
                    // (Its shape only: a pass over the weights each decision would cost.)
                    if let Some(what) = net.shape_error() {
                        return Err(Error::InvalidPlayer(format!(
                            "network `{}` is inconsistent: {what}",
                            crate::error::excerpt(key, crate::error::EXCERPT_CHARS)
                        )));
                    }
                    if !super::td::network_fits(sys, &net) {
                        return Err(Error::InvalidPlayer(format!(
                            "network `{}` ({} inputs, {} outputs, trained for `{}`) does not fit                              this game ({} seats): train one for these rules",
                            crate::error::excerpt(key, crate::error::EXCERPT_CHARS),
                            net.inputs(),
                            net.outputs(),
                            net.info.preset,
                            sys.seats()
                        )));
                    }
                }
            }
        }
        Ok(())
    }
}

fn kind_of(name: &str) -> Result<PlayerKind> {
    match name.trim() {
        "random" => Ok(PlayerKind::Random),
        "greedy" => Ok(PlayerKind::Greedy),
        "expectimax" => Ok(PlayerKind::Expectimax),
        "mcts" => Ok(PlayerKind::Mcts),
        "pubeval" => Ok(PlayerKind::PubEval),
        "td" => Ok(PlayerKind::Td),
        other => Err(Error::InvalidPlayer(format!(
            "unknown player `{other}` (players: random, greedy, expectimax, mcts, pubeval, td)"
        ))),
    }
}

fn json_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

impl FromStr for PlayerSpec {
    type Err = Error;

    /// Parses `name[:key=value,...]`, or a JSON object when the text starts with `{`.
    fn from_str(text: &str) -> Result<PlayerSpec> {
        let text = text.trim();
        if text.starts_with('{') {
            let value: Value = serde_json::from_str(text)
                .map_err(|e| Error::InvalidPlayer(format!("spec is not valid JSON: {e}")))?;
            return PlayerSpec::from_json_value(&value);
        }
        let (name, params) = match text.split_once(':') {
            Some((n, p)) => (n, Some(p)),
            None => (text, None),
        };
        let mut spec = PlayerSpec::new(kind_of(name)?);
        for param in params.into_iter().flat_map(|p| p.split(',')) {
            let param = param.trim();
            if param.is_empty() {
                continue;
            }
            let (k, v) = param
                .split_once('=')
                .ok_or_else(|| Error::InvalidPlayer(format!("`{param}` is not `key=value`")))?;
            spec.set(k.trim(), v.trim())?;
        }
        Ok(spec)
    }
}

impl fmt::Display for PlayerSpec {
    /// The canonical spec: the name, then the parameters that differ from their defaults.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = PlayerSpec::new(self.kind);
        let mut params: Vec<String> = Vec::new();
        match self.kind {
            PlayerKind::Random | PlayerKind::Greedy | PlayerKind::PubEval => {}
            PlayerKind::Expectimax | PlayerKind::Td => {
                if self.kind == PlayerKind::Expectimax || self.depth != d.depth {
                    params.push(format!("depth={}", self.depth));
                }
                if self.mode != d.mode {
                    let m = match self.mode {
                        SearchMode::Auto => "auto",
                        SearchMode::Paranoid => "paranoid",
                        SearchMode::MaxN => "maxn",
                        SearchMode::Greedy => "greedy",
                    };
                    params.push(format!("mode={m}"));
                }
                if self.top != d.top {
                    params.push(format!("top={}", self.top));
                }
            }
            PlayerKind::Mcts => {
                params.push(format!("iterations={}", self.iterations));
                if let Some(t) = self.time_ms {
                    params.push(format!("time_ms={t}"));
                }
                if self.exploration != d.exploration {
                    params.push(format!("c={}", self.exploration));
                }
                if self.leaf != d.leaf {
                    let l = match self.leaf {
                        Leaf::Eval => "eval",
                        Leaf::Random => "random",
                        Leaf::Greedy => "greedy",
                    };
                    params.push(format!("leaf={l}"));
                }
                if self.playout_depth != d.playout_depth {
                    params.push(format!("playout_depth={}", self.playout_depth));
                }
                if self.prior != d.prior {
                    params.push(format!("prior={}", self.prior));
                }
            }
        }
        if let Some(set) = &self.weight_set {
            params.push(format!("weights={set}"));
        }
        for (k, w) in &self.weights {
            params.push(format!("{k}={w}"));
        }
        if let Some(n) = &self.network {
            params.push(format!("weights={n}"));
        }
        if params.is_empty() {
            write!(f, "{}", self.kind.name())
        } else {
            write!(f, "{}:{}", self.kind.name(), params.join(","))
        }
    }
}
