//! Turn flow shared by every rule system: a game with its seeded generator, history and undo,
//! explicit chance, whole plays and the step-by-step interface, and JSON of the whole game.

use crate::dice::{ChanceOutcome, GameRng, Roll, rng_from_seed};
use crate::play::{Play, Step, dedup_by_result};
use crate::registry::{Registered, SystemVisitor};
use crate::rules::Rules;
use crate::system::{BoardKind, Node, Orders, Outcome, PieceView, Place, RuleSystem, SystemRules};
use crate::{Error, Result};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Writes the move notation of a play of the roll it was made for (see [`Game::play_formatter`]).
pub type PlayFormatter = std::sync::Arc<dyn Fn(&Play) -> String + Send + Sync>;

/// One thing that happened in a game, in order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "event")]
pub enum Event {
    /// `seat` rolled.
    Roll {
        /// Who rolled.
        seat: u8,
        /// What.
        roll: Roll,
    },
    /// `seat` made a play.
    Play {
        /// Who played.
        seat: u8,
        /// The play.
        play: Play,
    },
    /// `seat` could not use its roll; it was lost.
    Forfeit {
        /// Whose roll was lost.
        seat: u8,
    },
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(bound = "S: Serialize + serde::de::DeserializeOwned")]
struct Snapshot<S> {
    state: S,
    taken: Play,
    #[serde(with = "crate::dice::rng_serde")]
    rng: GameRng,
    log_len: usize,
}

/// A game of one rule system: its position, the steps taken in the current play, the generator
/// and the history. Use [`Game`] to choose the system at run time.
#[derive(Clone, Debug)]
pub struct GameOf<R: RuleSystem> {
    system: R,
    rules: Rules,
    /// Position at the start of the current play (or at a chance node).
    start: R::State,
    /// Steps of the current play taken one by one.
    taken: Play,
    /// `state` with `taken` applied.
    current: R::State,
    rng: GameRng,
    history: Vec<Snapshot<R::State>>,
    log: Vec<Event>,
}

#[derive(Serialize, Deserialize)]
#[serde(bound = "S: Serialize + serde::de::DeserializeOwned")]
struct GameJson<S> {
    rules: Rules,
    state: S,
    taken: Play,
    #[serde(with = "crate::dice::rng_serde")]
    rng: GameRng,
    history: Vec<Snapshot<S>>,
    log: Vec<Event>,
}

impl<R: RuleSystem> GameOf<R> {
    /// A new game from the starting position.
    pub fn new(system: R, rules: Rules, seed: u64) -> GameOf<R> {
        let state = system.initial_state();
        GameOf {
            system,
            rules,
            start: state,
            taken: Play::new(),
            current: state,
            rng: rng_from_seed(seed),
            history: Vec::new(),
            log: Vec::new(),
        }
    }

    /// A game from a given (validated) position.
    pub fn from_state(system: R, rules: Rules, state: R::State, seed: u64) -> Result<GameOf<R>> {
        system.validate_state(&state)?;
        let mut g = GameOf::new(system, rules, seed);
        g.start = state;
        g.current = state;
        g.resolve_unplayable();
        Ok(g)
    }

    /// The rule system.
    pub fn system(&self) -> &R {
        &self.system
    }
    /// The rules this game plays by.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    /// The current position (with the steps of an unfinished play applied).
    pub fn state(&self) -> &R::State {
        &self.current
    }
    /// The steps of the current play taken so far with [`GameOf::step`].
    pub fn taken(&self) -> &[Step] {
        self.taken.steps()
    }
    /// Everything that happened so far.
    pub fn log(&self) -> &[Event] {
        &self.log
    }
    /// What happens next: [`Node::Over`] also when the game is truncated (G-A).
    pub fn node(&self) -> Node {
        match self.system.node(&self.current) {
            Node::Chance if self.past_max_rolls() => Node::Over,
            n => n,
        }
    }
    /// Rolls (chance events) made since the game began, or since its starting position.
    pub fn rolls(&self) -> usize {
        self.log
            .iter()
            .filter(|e| matches!(e, Event::Roll { .. }))
            .count()
    }
    fn past_max_rolls(&self) -> bool {
        self.rolls() >= self.system.max_rolls() as usize
    }
    /// Whether the game ended because a roll was due after the rules' `max_rolls` rolls: it is
    /// over with no winner (decision G-A of `docs/RULES.md`).
    pub fn is_truncated(&self) -> bool {
        self.system.node(&self.current) == Node::Chance && self.past_max_rolls()
    }
    /// Whether the next event is a roll.
    pub fn is_chance_node(&self) -> bool {
        self.node() == Node::Chance
    }
    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.node() == Node::Over
    }
    /// The seat to roll or to play.
    pub fn to_move(&self) -> u8 {
        self.system.to_move(&self.current)
    }
    /// Number of seats.
    pub fn seats(&self) -> u8 {
        self.system.seats()
    }
    /// How the game ended, if it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.system.outcome(&self.current)
    }
    /// The lowest winning seat, if the game is over.
    pub fn winner(&self) -> Option<u8> {
        self.outcome().and_then(|o| o.first_winner())
    }
    /// Per-seat returns (zero-sum), or zeros while the game goes on.
    pub fn returns(&self) -> Vec<f64> {
        match self.outcome() {
            Some(o) => o.returns(self.seats()),
            None => vec![0.0; self.seats() as usize],
        }
    }

    /// The outcomes of the roll due now with their probabilities (empty unless at a chance node).
    pub fn chance_outcomes(&self) -> Vec<ChanceOutcome> {
        if self.is_chance_node() {
            self.system.chance_outcomes(&self.current)
        } else {
            Vec::new()
        }
    }

    fn snapshot(&mut self) {
        self.history.push(Snapshot {
            state: self.start,
            taken: self.taken,
            rng: self.rng.clone(),
            log_len: self.log.len(),
        });
    }

    /// Rolls with the game's generator and returns the roll.
    pub fn roll(&mut self) -> Result<Roll> {
        self.require(Node::Chance, "roll")?;
        // The snapshot keeps the generator as it was, so undo restores it exactly.
        self.snapshot();
        let roll = self.system.sample_roll(&self.current, &mut self.rng);
        self.apply_roll(roll);
        Ok(roll)
    }

    /// Sets the roll (for analysis or replay); validated for this variant and position.
    pub fn set_roll(&mut self, roll: Roll) -> Result<()> {
        self.require(Node::Chance, "roll")?;
        self.system.check_roll(&self.current, roll)?;
        self.snapshot();
        self.apply_roll(roll);
        Ok(())
    }

    fn apply_roll(&mut self, roll: Roll) {
        let seat = self.system.to_move(&self.current);
        self.log.push(Event::Roll { seat, roll });
        self.system.begin_roll(&mut self.current, roll);
        self.start = self.current;
        self.resolve_unplayable();
    }

    /// At a decision node with no legal play the roll is lost at once.
    fn resolve_unplayable(&mut self) {
        let mut buf = Vec::new();
        // Each forfeit moves the turn on, so this ends; the bound guards a faulty system.
        for _ in 0..64 {
            if self.system.node(&self.current) != Node::Decision || !self.taken.is_empty() {
                return;
            }
            buf.clear();
            self.system
                .generate(&self.current, Orders::Distinct, &mut buf);
            if !buf.is_empty() {
                return;
            }
            let seat = self.system.to_move(&self.current);
            self.log.push(Event::Forfeit { seat });
            self.system.end_play(&mut self.current, &[]);
            self.start = self.current;
        }
    }

    fn require(&self, node: Node, what: &str) -> Result<()> {
        let now = self.node();
        if now == node {
            return Ok(());
        }
        Err(Error::WrongPhase(match now {
            Node::Over => format!("cannot {what}: the game is over"),
            Node::Chance => format!("cannot {what}: a roll is due"),
            Node::Decision => format!("cannot {what}: a play is due"),
        }))
    }

    /// Every legal complete play from the start of the current roll that begins with the steps
    /// already taken, one per distinct resulting position. Empty at a chance node or at the end.
    pub fn legal_plays(&self) -> Vec<Play> {
        let mut out = Vec::new();
        if self.system.node(&self.start) != Node::Decision {
            return out;
        }
        if self.taken.is_empty() {
            self.system
                .generate(&self.start, Orders::Distinct, &mut out);
            return out;
        }
        self.system.generate(&self.start, Orders::All, &mut out);
        out.retain(|p| p.starts_with(self.taken.steps()));
        // Compare positions after the turn flow: bookkeeping of an unfinished roll (values left,
        // blockade groups) must not make two plays with one resulting position look different.
        let mut results: Vec<R::State> = out
            .iter()
            .map(|p| {
                let mut s = self.result_of(p);
                self.system.end_play(&mut s, p.steps());
                s
            })
            .collect();
        dedup_by_result(&mut out, &mut results);
        out
    }

    fn result_of(&self, play: &Play) -> R::State {
        let mut s = self.start;
        for step in play.steps() {
            self.system.apply_step(&mut s, step);
        }
        s
    }

    /// The position a legal play leads to, before the turn passes (for analysis).
    pub fn preview(&self, play: &Play) -> Result<R::State> {
        self.check_play(play)?;
        let mut s = self.result_of(play);
        self.system.end_play(&mut s, play.steps());
        Ok(s)
    }

    /// The next steps that begin (or continue) at least one legal play.
    pub fn legal_steps(&self) -> Vec<Step> {
        let mut out: Vec<Step> = Vec::new();
        if self.system.node(&self.start) != Node::Decision {
            return out;
        }
        let mut plays = Vec::new();
        self.system.generate(&self.start, Orders::All, &mut plays);
        let k = self.taken.len();
        for p in &plays {
            if p.len() > k && p.starts_with(self.taken.steps()) {
                let s = p.steps()[k];
                if !out.contains(&s) {
                    out.push(s);
                }
            }
        }
        out
    }

    fn check_play(&self, play: &Play) -> Result<()> {
        self.require(Node::Decision, "play")?;
        let mut plays = Vec::new();
        self.system
            .generate(&self.start, Orders::Distinct, &mut plays);
        if plays.contains(play) {
            return Ok(());
        }
        plays.clear();
        self.system.generate(&self.start, Orders::All, &mut plays);
        if plays.contains(play) {
            return Ok(());
        }
        Err(Error::IllegalMove(format!(
            "`{}` is not a legal play here",
            self.system.format_play(&self.start, play)
        )))
    }

    /// Makes a complete play (all steps of the roll). When steps were already taken, `play` must
    /// begin with them. Illegal plays are an error and leave the game unchanged.
    pub fn play(&mut self, play: &Play) -> Result<()> {
        if !play.starts_with(self.taken.steps()) {
            return Err(Error::IllegalMove(
                "the play does not begin with the steps already taken".into(),
            ));
        }
        self.check_play(play)?;
        self.snapshot();
        let mut s = self.start;
        for step in play.steps() {
            self.system.apply_step(&mut s, step);
        }
        self.finish(s, play);
        Ok(())
    }

    fn finish(&mut self, mut s: R::State, play: &Play) {
        let seat = self.system.to_move(&self.start);
        self.log.push(Event::Play { seat, play: *play });
        self.system.end_play(&mut s, play.steps());
        self.start = s;
        self.current = s;
        self.taken = Play::new();
        self.resolve_unplayable();
    }

    /// Parses move notation into a legal play here.
    pub fn parse_play(&self, text: &str) -> Result<Play> {
        self.require(Node::Decision, "parse a play")?;
        self.system.parse_play(&self.start, text)
    }

    /// Makes the play written in move notation.
    pub fn play_notation(&mut self, text: &str) -> Result<()> {
        let p = self.parse_play(text)?;
        self.play(&p)
    }

    /// The move notation of a play from the current position.
    pub fn format_play(&self, play: &Play) -> String {
        self.system.format_play(&self.start, play)
    }

    /// A function writing the move notation of plays of the current roll (from the position at the
    /// start of the play), for lists of plays that are formatted later or not at all.
    pub fn play_formatter(&self) -> PlayFormatter {
        let (system, start) = (self.system.clone(), self.start);
        std::sync::Arc::new(move |p: &Play| system.format_play(&start, p))
    }

    /// The move notation of every play in the log, with its index in the log, each written from
    /// the position before it (the history keeps those positions).
    pub fn log_notations(&self) -> Vec<(usize, String)> {
        let mut before: std::collections::HashMap<usize, &R::State> = Default::default();
        for snap in &self.history {
            before.entry(snap.log_len).or_insert(&snap.state);
        }
        self.log
            .iter()
            .enumerate()
            .filter_map(|(i, e)| match e {
                Event::Play { play, .. } => before
                    .get(&i)
                    .map(|s| (i, self.system.format_play(s, play))),
                _ => None,
            })
            .collect()
    }

    /// The log as text, one event per line: `roll <seat> <roll>`, `play <seat> <move notation>`
    /// or `forfeit <seat>` (as the `replay` example prints a game, with forfeits too).
    pub fn log_text(&self) -> String {
        let notations: std::collections::HashMap<usize, String> =
            self.log_notations().into_iter().collect();
        let mut out = String::new();
        for (i, e) in self.log.iter().enumerate() {
            let line = match e {
                Event::Roll { seat, roll } => format!("roll {seat} {roll}"),
                Event::Play { seat, .. } => {
                    let text = notations.get(&i).map_or("?", String::as_str);
                    format!("play {seat} {text}")
                }
                Event::Forfeit { seat } => format!("forfeit {seat}"),
            };
            out.push_str(&line);
            out.push('\n');
        }
        out
    }

    /// Takes one step; when the steps taken form a complete play that nothing extends, the play
    /// ends by itself.
    pub fn step(&mut self, step: &Step) -> Result<()> {
        self.require(Node::Decision, "step")?;
        if !self.legal_steps().contains(step) {
            return Err(Error::IllegalMove(format!(
                "{step:?} is not a legal step here"
            )));
        }
        self.snapshot();
        self.taken.push(*step);
        self.system.apply_step(&mut self.current, step);
        let mut plays = Vec::new();
        self.system.generate(&self.start, Orders::All, &mut plays);
        let extends = plays
            .iter()
            .any(|p| p.len() > self.taken.len() && p.starts_with(self.taken.steps()));
        if !extends {
            let play = self.taken;
            self.finish(self.current, &play);
        }
        Ok(())
    }

    /// Ends the current play with the steps taken so far (they must form a complete legal play;
    /// with none taken this is a pass, where the variant allows one).
    pub fn finish_play(&mut self) -> Result<()> {
        let play = self.taken;
        self.check_play(&play)?;
        self.snapshot();
        self.finish(self.current, &play);
        Ok(())
    }

    /// Takes back the last roll, play, step or finish (the generator is restored too).
    pub fn undo(&mut self) -> Result<()> {
        let snap = self
            .history
            .pop()
            .ok_or_else(|| Error::WrongPhase("nothing to undo".into()))?;
        self.start = snap.state;
        self.taken = snap.taken;
        self.rng = snap.rng;
        self.log.truncate(snap.log_len);
        let mut cur = self.start;
        for s in self.taken.steps() {
            self.system.apply_step(&mut cur, s);
        }
        self.current = cur;
        Ok(())
    }

    /// How many actions [`GameOf::undo`] can take back.
    pub fn history_len(&self) -> usize {
        self.history.len()
    }

    /// The current position in the variant's notation.
    pub fn position(&self) -> String {
        self.system.format_position(&self.current)
    }

    /// The board this game is played on.
    pub fn board(&self) -> BoardKind {
        self.system.board()
    }

    /// Every piece and its place in the current position.
    pub fn pieces(&self) -> Vec<PieceView> {
        self.system.pieces(&self.current)
    }

    /// The distinct legal plays by the system's slow reference generator (empty unless at a
    /// decision node with no step taken): for tests and perft data, not for play.
    pub fn reference_plays(&self) -> Vec<Play> {
        if self.node() != Node::Decision || !self.taken.is_empty() {
            return Vec::new();
        }
        self.system.reference_plays(&self.start)
    }

    /// The absolute place of a seat-relative position (a step's `from` or `to`).
    pub fn place(&self, seat: u8, pos: u8) -> Place {
        self.system.place(seat, pos)
    }

    /// The last play made (not a forfeit), with the seat that made it.
    pub fn last_play(&self) -> Option<(u8, Play)> {
        self.log.iter().rev().find_map(|e| match e {
            Event::Play { seat, play } => Some((*seat, *play)),
            _ => None,
        })
    }

    /// The whole game (rules, position, steps taken, generator, history) as a JSON value.
    pub fn to_value(&self) -> Value {
        let j = GameJson {
            rules: self.rules.clone(),
            state: self.start,
            taken: self.taken,
            rng: self.rng.clone(),
            history: self.history.clone(),
            log: self.log.clone(),
        };
        serde_json::to_value(&j).unwrap_or(Value::Null)
    }

    /// Checks a game record by replaying it: from the first recorded position, every action
    /// between two recorded positions (a roll, a set roll, a play or a step, named by the log)
    /// must lead to the next one exactly (position, steps taken, generator, log). The error
    /// names the first entry and field that do not match.
    fn verify_record(system: &R, j: &GameJson<R::State>) -> Result<()> {
        let bad = |what: String| Error::InvalidJson(format!("game record: {what}"));
        let only_forfeits =
            |events: &[Event]| events.iter().all(|e| matches!(e, Event::Forfeit { .. }));
        // The recorded positions in order: each history entry, then the game as it stands.
        let mut points: Vec<(&R::State, &Play, &GameRng, usize, String)> = j
            .history
            .iter()
            .enumerate()
            .map(|(i, h)| {
                (
                    &h.state,
                    &h.taken,
                    &h.rng,
                    h.log_len,
                    format!("history[{i}]"),
                )
            })
            .collect();
        points.push((
            &j.state,
            &j.taken,
            &j.rng,
            j.log.len(),
            "the current game".into(),
        ));
        let (state, taken, rng, log_len, _) = &points[0];
        // A game made from a position may open with forfeits (rolls lost before any action).
        if *log_len > j.log.len() || !only_forfeits(&j.log[..*log_len]) {
            return Err(bad(format!(
                "the first recorded position comes after {log_len} log events, not forfeits"
            )));
        }
        // Steps are actions, so steps taken are always recorded after a history entry.
        if !taken.is_empty() {
            return Err(bad(
                "steps taken without a recorded position before them".into()
            ));
        }
        let mut g = GameOf::new(system.clone(), j.rules.clone(), 0);
        g.start = **state;
        g.current = **state;
        g.rng = (*rng).clone();
        g.log = j.log[..*log_len].to_vec();
        if points.len() == 1 && g.node() == Node::Decision && g.legal_plays().is_empty() {
            // The engine forfeits such a roll at once, so no game stands there.
            return Err(bad("a roll with no legal play is still to be played".into()));
        }
        for w in points.windows(2) {
            let (prev, want) = (&w[0], &w[1]);
            let name = &want.4;
            if want.3 < prev.3 || want.3 > j.log.len() {
                return Err(bad(format!(
                    "{name}: its log length {} is out of order",
                    want.3
                )));
            }
            let events = &j.log[prev.3..want.3];
            let done = match events.first() {
                Some(Event::Roll { roll, .. }) => {
                    // A roll drawn from the generator moves it on; a set roll leaves it.
                    let mut drawn = g.rng.clone();
                    let sampled = g.is_chance_node()
                        && g.system.sample_roll(&g.current, &mut drawn) == *roll
                        && drawn == *want.2;
                    if sampled {
                        g.roll().map(|_| ())
                    } else {
                        g.set_roll(*roll)
                    }
                }
                Some(Event::Play { play, .. }) => g.play(play),
                Some(Event::Forfeit { .. }) => {
                    return Err(bad(format!(
                        "{name}: a forfeit that follows no roll or play"
                    )));
                }
                None => match want.1.steps().last() {
                    Some(step) if want.1.len() == g.taken.len() + 1 => g.step(step),
                    _ => {
                        return Err(bad(format!(
                            "{name}: no logged action leads to it from the entry before"
                        )));
                    }
                },
            };
            done.map_err(|e| bad(format!("{name}: the logged action is not legal: {e}")))?;
            g.history.clear();
            let field = if g.start != *want.0 {
                Some("state")
            } else if g.taken != *want.1 {
                Some("taken")
            } else if g.rng != *want.2 {
                Some("rng")
            } else if g.log[..] != j.log[..want.3] {
                Some("log")
            } else {
                None
            };
            if let Some(field) = field {
                return Err(bad(format!(
                    "{name}: `{field}` does not match a replay of the log"
                )));
            }
        }
        Ok(())
    }

    /// The path of the first field of a game record that does not read (`state`,
    /// `history[3].taken`, `log[12]`...), for the error message.
    fn json_error_path(value: &Value) -> String {
        fn fails<T: serde::de::DeserializeOwned>(v: &Value) -> bool {
            serde_json::from_value::<T>(v.clone()).is_err()
        }
        let Some(obj) = value.as_object() else {
            return "(the record)".into();
        };
        for key in ["rules", "state", "taken", "rng", "history", "log"] {
            if !obj.contains_key(key) {
                return key.into();
            }
        }
        if fails::<R::State>(&obj["state"]) {
            return "state".into();
        }
        if fails::<Play>(&obj["taken"]) {
            return "taken".into();
        }
        match obj["history"].as_array() {
            None => return "history".into(),
            Some(items) => {
                for (i, h) in items.iter().enumerate() {
                    if fails::<Snapshot<R::State>>(h) {
                        for key in ["state", "taken", "rng", "log_len"] {
                            let bad = match (key, h.get(key)) {
                                (_, None) => true,
                                ("state", Some(v)) => fails::<R::State>(v),
                                ("taken", Some(v)) => fails::<Play>(v),
                                ("log_len", Some(v)) => fails::<usize>(v),
                                _ => false,
                            };
                            if bad {
                                return format!("history[{i}].{key}");
                            }
                        }
                        return format!("history[{i}]");
                    }
                }
            }
        }
        match obj["log"].as_array() {
            None => return "log".into(),
            Some(items) => {
                if let Some(i) = items.iter().position(fails::<Event>) {
                    return format!("log[{i}]");
                }
            }
        }
        "rng".into()
    }

    fn from_value_with(system: R, value: Value) -> Result<GameOf<R>> {
        let j: GameJson<R::State> = match serde_json::from_value(value.clone()) {
            Ok(j) => j,
            Err(e) => {
                let path = Self::json_error_path(&value);
                return Err(Error::InvalidJson(format!(
                    "`{path}`: {}",
                    crate::error::excerpt(&e.to_string(), 2 * crate::error::EXCERPT_CHARS)
                )));
            }
        };
        system.validate_state(&j.state)?;
        for h in &j.history {
            system.validate_state(&h.state)?;
        }
        Self::verify_record(&system, &j)?;
        let mut g = GameOf::new(system, j.rules, 0);
        g.start = j.state;
        g.rng = j.rng;
        g.history = j.history;
        g.log = j.log;
        // Replay the steps taken through the legality checks.
        let taken = j.taken;
        g.current = g.start;
        for s in taken.steps() {
            if !g.legal_steps().contains(s) {
                return Err(Error::InvalidJson(format!("taken step {s:?} is not legal")));
            }
            g.taken.push(*s);
            g.system.apply_step(&mut g.current, s);
        }
        Ok(g)
    }

    /// The position at the start of the current play: [`GameOf::state`] before the steps taken
    /// with [`GameOf::step`] (the same position when none were taken). Whole plays, such as
    /// those of [`GameOf::legal_plays`], apply to it.
    pub fn play_start(&self) -> &R::State {
        &self.start
    }
}

/// A game of any variant: the run-time choice of rule system.
///
/// ```
/// use pachisi::{Game, Rules};
/// let mut g = Game::new(&Rules::preset("backgammon").unwrap(), 42);
/// while !g.is_over() {
///     if g.is_chance_node() {
///         g.roll().unwrap();
///     } else {
///         let plays = g.legal_plays();
///         g.play(&plays[0]).unwrap();
///     }
/// }
/// assert!(g.winner().is_some());
/// ```
macro_rules! game_enum {
    ($(($name:ident, $rules:ty, $doc:literal)),* $(,)?) => {
        /// A game of any variant: the run-time choice of rule system (one variant per system of
        /// [`crate::for_each_system`]).
        ///
        /// ```
        /// use pachisi::{Game, Rules};
        /// let mut g = Game::new(&Rules::preset("backgammon").unwrap(), 42);
        /// while !g.is_over() {
        ///     if g.is_chance_node() {
        ///         g.roll().unwrap();
        ///     } else {
        ///         let plays = g.legal_plays();
        ///         g.play(&plays[0]).unwrap();
        ///     }
        /// }
        /// assert!(g.winner().is_some());
        /// ```
        #[derive(Clone, Debug)]
        #[non_exhaustive]
        pub enum Game {
            $(#[doc = $doc] $name(GameOf<<$rules as SystemRules>::System>),)*
        }

        /// `each!(game, g => expr)`: `expr` for whichever system's `GameOf` the game holds.
        macro_rules! each {
            ($self_:expr, $g:ident => $body:expr) => {
                match $self_ {
                    $(Game::$name($g) => $body,)*
                }
            };
        }
    };
}
crate::for_each_system!(game_enum);

fn build<T: SystemRules>(r: &T) -> T::System {
    // Rules values are validated when made, so building cannot fail here.
    match r.build() {
        Ok(s) => s,
        Err(e) => panic!("validated rules failed to build: {e}"),
    }
}

impl Game {
    /// A new game of the given rules, seeded.
    pub fn new(rules: &Rules, seed: u64) -> Game {
        struct New<'a>(&'a Rules, u64);
        impl SystemVisitor for New<'_> {
            type Output = Game;
            fn visit<T: Registered>(self, config: &T) -> Game {
                T::into_game(GameOf::new(build(config), self.0.clone(), self.1))
            }
        }
        rules.config().visit(New(rules, seed))
    }

    /// A new game of a preset with its default options.
    ///
    /// ```
    /// let g = pachisi::Game::from_preset("parcheesi", 1).unwrap();
    /// assert_eq!(g.seats(), 4);
    /// ```
    pub fn from_preset(name: &str, seed: u64) -> Result<Game> {
        Ok(Game::new(&Rules::preset(name)?, seed))
    }

    /// A game of `rules` from a position in the variant's notation.
    pub fn from_position(rules: &Rules, text: &str, seed: u64) -> Result<Game> {
        struct FromPosition<'a>(&'a Rules, &'a str, u64);
        impl SystemVisitor for FromPosition<'_> {
            type Output = Result<Game>;
            fn visit<T: Registered>(self, config: &T) -> Result<Game> {
                let system = build(config);
                let state = system.parse_position(self.1)?;
                let game = GameOf::from_state(system, self.0.clone(), state, self.2)?;
                Ok(T::into_game(game))
            }
        }
        rules.config().visit(FromPosition(rules, text, seed))
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        each!(self, g => g.rules())
    }
    /// The preset name.
    pub fn variant(&self) -> &'static str {
        self.rules().variant()
    }
    /// Number of seats.
    pub fn seats(&self) -> u8 {
        each!(self, g => g.seats())
    }
    /// What happens next.
    pub fn node(&self) -> Node {
        each!(self, g => g.node())
    }
    /// Whether the next event is a roll.
    pub fn is_chance_node(&self) -> bool {
        each!(self, g => g.is_chance_node())
    }
    /// Whether the game has ended (won, or truncated by `max_rolls`).
    pub fn is_over(&self) -> bool {
        each!(self, g => g.is_over())
    }
    /// Whether the game ended because a roll was due after the rules' `max_rolls` rolls, with
    /// no winner (decision G-A of `docs/RULES.md`).
    ///
    /// ```
    /// use pachisi::{Game, Rules};
    /// let rules = Rules::with_options("backgammon", &serde_json::json!({"max_rolls": 3})).unwrap();
    /// let mut g = Game::new(&rules, 1);
    /// while !g.is_over() {
    ///     if g.is_chance_node() {
    ///         g.roll().unwrap();
    ///     } else {
    ///         let plays = g.legal_plays();
    ///         g.play(&plays[0]).unwrap();
    ///     }
    /// }
    /// assert!(g.is_truncated() && g.outcome().is_none() && g.winner().is_none());
    /// assert_eq!(g.rolls(), 3);
    /// assert!(g.roll().is_err());
    /// ```
    pub fn is_truncated(&self) -> bool {
        each!(self, g => g.is_truncated())
    }
    /// Rolls (chance events) made since the game began, or since its starting position.
    pub fn rolls(&self) -> usize {
        each!(self, g => g.rolls())
    }
    /// The seat to roll or play.
    pub fn to_move(&self) -> u8 {
        each!(self, g => g.to_move())
    }
    /// How the game ended.
    pub fn outcome(&self) -> Option<Outcome> {
        each!(self, g => g.outcome())
    }
    /// The lowest winning seat.
    pub fn winner(&self) -> Option<u8> {
        each!(self, g => g.winner())
    }
    /// Zero-sum per-seat returns.
    pub fn returns(&self) -> Vec<f64> {
        each!(self, g => g.returns())
    }
    /// Outcomes of the roll due now.
    pub fn chance_outcomes(&self) -> Vec<ChanceOutcome> {
        each!(self, g => g.chance_outcomes())
    }
    /// Rolls with the game's generator.
    pub fn roll(&mut self) -> Result<Roll> {
        each!(self, g => g.roll())
    }
    /// Sets the roll.
    pub fn set_roll(&mut self, roll: Roll) -> Result<()> {
        each!(self, g => g.set_roll(roll))
    }
    /// Legal complete plays, one per resulting position.
    pub fn legal_plays(&self) -> Vec<Play> {
        each!(self, g => g.legal_plays())
    }
    /// Legal next steps.
    pub fn legal_steps(&self) -> Vec<Step> {
        each!(self, g => g.legal_steps())
    }
    /// Steps of the current play taken so far.
    pub fn taken(&self) -> &[Step] {
        each!(self, g => g.taken())
    }
    /// Makes a play.
    pub fn play(&mut self, play: &Play) -> Result<()> {
        each!(self, g => g.play(play))
    }
    /// Makes the play written in move notation.
    pub fn play_notation(&mut self, text: &str) -> Result<()> {
        each!(self, g => g.play_notation(text))
    }
    /// Parses move notation into a legal play.
    pub fn parse_play(&self, text: &str) -> Result<Play> {
        each!(self, g => g.parse_play(text))
    }
    /// Move notation of a play from the current position.
    pub fn format_play(&self, play: &Play) -> String {
        each!(self, g => g.format_play(play))
    }
    /// Takes one step.
    pub fn step(&mut self, step: &Step) -> Result<()> {
        each!(self, g => g.step(step))
    }
    /// A function writing the move notation of plays of the current roll.
    ///
    /// ```
    /// let mut g = pachisi::Game::from_preset("backgammon", 1).unwrap();
    /// g.roll().unwrap();
    /// let name = g.play_formatter();
    /// let plays = g.legal_plays();
    /// assert_eq!(name(&plays[0]), g.format_play(&plays[0]));
    /// ```
    pub fn play_formatter(&self) -> PlayFormatter {
        each!(self, g => g.play_formatter())
    }
    /// The move notation of every play in the log, with its index in the log.
    ///
    /// ```
    /// let mut g = pachisi::Game::from_preset("parcheesi", 2).unwrap();
    /// while g.log_notations().len() < 3 {
    ///     if g.is_chance_node() { g.roll().unwrap(); } else { g.play(&g.legal_plays()[0]).unwrap(); }
    /// }
    /// let (i, text) = &g.log_notations()[0];
    /// assert!(matches!(g.log()[*i], pachisi::Event::Play { .. }) && !text.is_empty());
    /// ```
    pub fn log_notations(&self) -> Vec<(usize, String)> {
        each!(self, g => g.log_notations())
    }
    /// The log as text, one event per line (`roll 0 5-3`, `play 0 <notation>`, `forfeit 1`).
    ///
    /// ```
    /// let mut g = pachisi::Game::from_preset("backgammon", 4).unwrap();
    /// g.roll().unwrap();
    /// g.play(&g.legal_plays()[0]).unwrap();
    /// let text = g.log_text();
    /// assert!(text.starts_with("roll ") && text.lines().nth(1).unwrap().starts_with("play "));
    /// ```
    pub fn log_text(&self) -> String {
        each!(self, g => g.log_text())
    }
    /// Ends the play with the steps taken (or passes).
    pub fn finish_play(&mut self) -> Result<()> {
        each!(self, g => g.finish_play())
    }
    /// Takes back the last action.
    pub fn undo(&mut self) -> Result<()> {
        each!(self, g => g.undo())
    }
    /// Events so far.
    pub fn log(&self) -> &[Event] {
        each!(self, g => g.log())
    }
    /// The position in the variant's notation.
    pub fn position(&self) -> String {
        each!(self, g => g.position())
    }
    /// The board this game is played on.
    pub fn board(&self) -> BoardKind {
        each!(self, g => g.board())
    }
    /// Every piece and its place.
    pub fn pieces(&self) -> Vec<PieceView> {
        each!(self, g => g.pieces())
    }
    /// The distinct legal plays by the system's slow reference generator (for tests and perft
    /// data; far slower than [`Game::legal_plays`]).
    ///
    /// ```
    /// let mut g = pachisi::Game::from_preset("pachisi-family", 3).unwrap();
    /// g.set_roll(pachisi::Roll::Dice([5, 2])).unwrap();
    /// assert_eq!(g.reference_plays().len(), g.legal_plays().len());
    /// ```
    pub fn reference_plays(&self) -> Vec<Play> {
        each!(self, g => g.reference_plays())
    }
    /// The absolute place of a seat-relative position.
    pub fn place(&self, seat: u8, pos: u8) -> Place {
        each!(self, g => g.place(seat, pos))
    }
    /// The last play made, with its seat.
    pub fn last_play(&self) -> Option<(u8, Play)> {
        each!(self, g => g.last_play())
    }
    /// The number of actions undo can take back.
    pub fn history_len(&self) -> usize {
        each!(self, g => g.history_len())
    }
    /// The whole game as a JSON value.
    pub fn to_value(&self) -> Value {
        each!(self, g => g.to_value())
    }
    /// The whole game as JSON text (round-trips exactly through [`Game::from_json`]).
    pub fn to_json(&self) -> String {
        self.to_value().to_string()
    }
    /// The current state (position, turn, pending roll) as a JSON value.
    pub fn state_value(&self) -> Value {
        each!(self, g => serde_json::to_value(g.state()).unwrap_or(Value::Null))
    }

    /// Reads a whole game written by [`Game::to_json`].
    ///
    /// ```
    /// let mut g = pachisi::Game::from_preset("parcheesi", 3).unwrap();
    /// g.roll().unwrap();
    /// let back = pachisi::Game::from_json(&g.to_json()).unwrap();
    /// assert_eq!(back.to_json(), g.to_json());
    /// ```
    pub fn from_json(text: &str) -> Result<Game> {
        let value: Value =
            serde_json::from_str(text).map_err(|e| Error::InvalidJson(e.to_string()))?;
        let rules_value = value
            .get("rules")
            .ok_or_else(|| Error::InvalidJson("missing `rules`".into()))?;
        let rules = Rules::from_value(rules_value)?;
        struct FromValue(Value);
        impl SystemVisitor for FromValue {
            type Output = Result<Game>;
            fn visit<T: Registered>(self, config: &T) -> Result<Game> {
                Ok(T::into_game(GameOf::from_value_with(
                    build(config),
                    self.0,
                )?))
            }
        }
        rules.config().visit(FromValue(value))
    }
}
