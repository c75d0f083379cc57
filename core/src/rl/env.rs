//! Games driven through action ids ([`RlGame`], [`AnyGame`]) and many of them stepped at once
//! ([`VecEnv`]).
//!
//! A game here keeps no history (unlike [`crate::Game`]): the position at the start of the
//! current play, the steps taken since, the generator, and the list of legal plays of the
//! current roll with the ones still consistent with the steps taken. An action consumes one step
//! (`step` encoding), a whole play (`play`), or two checker moves (`openspiel`, backgammon).
//!
//! Each game writes the plain observation ([`Encoder::write_observation`]) unless made with
//! [`Observation::Features`] ([`new_game_with_observation`], [`RlGame::with_observation`],
//! [`VecEnv::new_with_observation`]): then it writes the `td` networks' `features` input
//! encoding ([`crate::players::TdInput::write_taken`]), its feature scales measured once when the
//! game is made and shared by its copies.
//!
//! Where the rule system lists the legal next steps of a play itself ([`Encode::RL_NEXT_STEPS`]:
//! backgammon, Parcheesi and Family Pachisi), the `step` and `openspiel` encodings keep no plays: each decision
//! asks for the next steps (`openspiel`: and the steps after each of them) instead.

use super::{Encode, Encoder, Encoding, Observation, View};
use crate::dice::{ChanceOutcome, GameRng, Roll, rng_from_seed};
use crate::game::GameOf;
use crate::play::{Play, PlayList, Step};
use crate::players::{Evaluate, InputEncoding, Policy, TdInput, measure_feature_scales};
use crate::registry::Registered;
use crate::rules::Rules;
use crate::system::{Node, Orders, RuleSystem};
use crate::{Error, Result};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// One game seen through an action encoding, whatever its rule system (object safe).
///
/// Made by [`new_game`]. At a decision node [`AnyGame::current_player`] acts with
/// [`AnyGame::apply_action`]; at a chance node (only when made with `auto_chance = false`) the
/// caller rolls ([`AnyGame::apply_roll`], [`AnyGame::roll`]).
pub trait AnyGame: Send + Sync {
    /// The rules.
    fn rules(&self) -> &Rules;
    /// The encoding.
    fn encoding(&self) -> Encoding;
    /// Number of action ids.
    fn num_actions(&self) -> usize;
    /// Which observation [`AnyGame::observe`] writes. The default, for a game that writes only
    /// the plain one, is [`Observation::Plain`].
    fn observation(&self) -> Observation {
        Observation::Plain
    }
    /// Length of the observation vector (of the kind [`AnyGame::observation`]).
    fn observation_size(&self) -> usize;
    /// The observation's named views (of the kind [`AnyGame::observation`]).
    fn views(&self) -> Vec<View>;
    /// Number of seats.
    fn seats(&self) -> u8;
    /// Starts a new game seeded with `seed` (rolls at once when chance is automatic).
    fn reset(&mut self, seed: u64);
    /// What happens next.
    fn node(&self) -> Node;
    /// The seat to act (or to roll).
    fn current_player(&self) -> u8;
    /// The rolls due now with their exact probabilities (empty unless at a chance node).
    fn chance_outcomes(&self) -> Vec<ChanceOutcome>;
    /// Rolls `roll` at a chance node.
    fn apply_roll(&mut self, roll: Roll) -> Result<()>;
    /// Rolls with the game's generator at a chance node.
    fn roll(&mut self) -> Result<Roll>;
    /// The legal action ids, ascending (empty unless at a decision node).
    fn legal_actions(&self) -> Vec<usize>;
    /// Writes the legal-action mask (length [`AnyGame::num_actions`]).
    fn write_mask(&self, out: &mut [bool]);
    /// Applies a legal action; an illegal one is an error and changes nothing.
    fn apply_action(&mut self, action: usize) -> Result<()>;
    /// Writes the observation (of the kind [`AnyGame::observation`]) of the current position,
    /// with the steps taken so far in the play, from `observer`'s point of view into `out`
    /// (length [`AnyGame::observation_size`]).
    ///
    /// # Panics
    /// When `out` is shorter than [`AnyGame::observation_size`].
    fn observe(&self, observer: u8, out: &mut [f32]);
    /// Zero-sum returns per seat once the game is over (zeros before).
    fn returns(&self) -> Vec<f64>;
    /// Decisions (actions) taken since the start.
    fn decisions(&self) -> u32;
    /// Rolls made since the start (forfeited ones included), which the rules' `max_rolls`
    /// option caps as in a [`crate::Game`].
    fn rolls(&self) -> u32;
    /// Whether the game ended because a roll was due after the rules' `max_rolls` rolls: its
    /// [`AnyGame::node`] is [`Node::Over`], with no winner and zero returns (truncated, not
    /// terminated, in reinforcement-learning terms).
    fn truncated(&self) -> bool;
    /// A description of an action id here (a step, a play in move notation, two checker moves);
    /// an id at or above [`AnyGame::num_actions`] is `invalid <id>`.
    fn action_to_string(&self, action: usize) -> String;
    /// The position (with the steps taken) in the variant's notation, and the steps taken.
    fn position(&self) -> String;
    /// The whole game (position, steps taken, generator, counter) as JSON.
    fn to_json(&self) -> String;
    /// Restores a game written by [`AnyGame::to_json`] (validated; unchanged on error). A game
    /// saved where a roll is due loads into a game with automatic chance too, which then rolls
    /// at once with the saved generator.
    fn load_json(&mut self, text: &str) -> Result<()>;
    /// Starts a new game with the generator going on (what an environment does when a game ends).
    fn restart(&mut self);
    /// Whether `action` is legal now (cheaper than [`AnyGame::legal_actions`]).
    fn is_legal(&self, action: usize) -> bool;
    /// The legal action ids, ascending, without copying them (see [`AnyGame::legal_actions`]).
    fn legal_ids(&self) -> &[usize];
    /// The `step` id of a step of the current play (`None` when outside the encoding).
    fn step_action(&self, step: &Step) -> Option<usize>;
    /// A copy.
    fn clone_box(&self) -> Box<dyn AnyGame>;
    /// Lets `policy` make the whole play of the seat to act (no step may have been taken).
    fn play_policy(&mut self, policy: &mut dyn Policy) -> Result<()>;
}

impl Clone for Box<dyn AnyGame> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// A game of one rule system driven through action ids.
#[derive(Clone)]
pub struct RlGame<T: Registered>
where
    T::System: Encode,
{
    enc: Arc<Encoder<T::System>>,
    /// The observation written by [`AnyGame::observe`] when not the plain one (`None`): shared
    /// by the game's copies, so its feature scales are measured once.
    features: Option<Arc<dyn ObservationWriter<<T::System as RuleSystem>::State>>>,
    rules: Rules,
    encoding: Encoding,
    auto_chance: bool,
    start: <T::System as RuleSystem>::State,
    cur: <T::System as RuleSystem>::State,
    taken: Play,
    /// `play`, `openspiel`: every legal play of the roll (`openspiel`: every order; `play`: one
    /// per result). Empty in the `step` encoding, which keeps [`RlGame::list`] instead.
    plays: Vec<Play>,
    /// `step`: every legal play of the roll in every order, back to back as the generator
    /// listed them (no whole [`Play`] copied per listed order).
    list: PlayList,
    /// Indices into `plays` (`step`: into `list`) of those that begin with `taken`.
    alive: Vec<u32>,
    /// `play`, `openspiel`: the action each of `alive` stands for now (parallel to it;
    /// `usize::MAX` when none). `step`: the action of each of `kids`. Computed once per
    /// decision, so masks, legality checks and the search for the chosen play do not encode
    /// every play again.
    acts: Vec<usize>,
    /// `step`: the distinct next steps of the plays alive, in the order first listed (the
    /// children of the steps taken in the plays' prefix tree, found once per decision).
    kids: Vec<Step>,
    /// `step`: [`step_key`] of each of `kids` (one integer compare per play when grouping).
    kid_keys: Vec<u64>,
    /// `step`: which of `kids` each of `alive` goes on with (parallel to `alive`;
    /// [`NO_KID`] for a play that ends with the steps taken).
    labels: Vec<u16>,
    /// `step`: whether a play ends with the steps taken ("end", id 0, is legal).
    ends_here: bool,
    /// `openspiel` where the system lists next steps: the decision's choices (one per pair of
    /// next steps, or the pass), in place of `plays`.
    moves: Vec<OsMove>,
    /// `openspiel` where the system lists next steps: the steps after each first one.
    seconds: Vec<Step>,
    /// The legal action ids, ascending (the distinct ones of `acts` inside the encoding).
    legal: Vec<usize>,
    /// Where the system lists next steps: its scratch space for the play under way
    /// ([`Encode::rl_next_steps_memo`]), emptied when a play starts.
    memo: Vec<u64>,
    /// The owner step sources count from (fixed for the play).
    acting: u8,
    rng: GameRng,
    decisions: u32,
    /// Rolls made (for the rules' `max_rolls`).
    rolls: u32,
}

/// An observation other than the plain one, for the positions of one rule system (object safe,
/// so that [`RlGame`] asks no more of its system than [`Encode`]).
trait ObservationWriter<S>: Send + Sync {
    /// Which observation.
    fn kind(&self) -> Observation;
    /// Its length.
    fn size(&self) -> usize;
    /// Its views.
    fn views(&self) -> &[View];
    /// Writes it for position `s` (the steps `taken` applied) from `observer`'s point of view.
    fn write(&self, s: &S, taken: &[Step], observer: u8, out: &mut [f32]);
}

impl<R: Evaluate> ObservationWriter<R::State> for TdInput<R> {
    fn kind(&self) -> Observation {
        Observation::Features
    }
    fn size(&self) -> usize {
        TdInput::size(self)
    }
    fn views(&self) -> &[View] {
        TdInput::views(self)
    }
    fn write(&self, s: &R::State, taken: &[Step], observer: u8, out: &mut [f32]) {
        self.write_taken(s, taken, observer, out);
    }
}

/// [`RlGame::labels`] of a play that ends with the steps taken.
const NO_KID: u16 = u16::MAX;

/// The most action ids the `openspiel` encoding collects in a bit set instead of sorting them
/// (OpenSpiel's backgammon has 1,352).
const ID_SET_BITS: usize = 2048;

/// One choice of an `openspiel` decision where the system lists next steps: its id, the steps
/// it takes (`n` of them, none for a pass), and whether the seat decides again after them even
/// when nothing is left (the second half of doubles).
#[derive(Copy, Clone, Debug)]
struct OsMove {
    action: usize,
    steps: [Step; 2],
    n: usize,
    again: bool,
}

/// A step's fields packed into one integer: equal keys exactly when the steps are equal.
///
/// Any order of the bytes is correct; this one is the order rustc lays the fields out in
/// today (the kind first), so the packing compiles to a single eight-byte load.
#[inline]
fn step_key(s: &Step) -> u64 {
    u64::from_le_bytes([
        s.kind as u8,
        s.seat,
        s.piece,
        s.from,
        s.to,
        s.value,
        s.count,
        s.captured,
    ])
}

#[derive(Serialize, Deserialize)]
#[serde(bound = "S: Serialize + serde::de::DeserializeOwned")]
struct SavedGame<S> {
    state: S,
    taken: Play,
    #[serde(with = "crate::dice::rng_serde")]
    rng: GameRng,
    decisions: u32,
    /// Absent in games saved before `max_rolls` applied to these games: counted from 0.
    #[serde(default)]
    rolls: u32,
}

impl<T: Registered> RlGame<T>
where
    T::System: Encode,
{
    /// A game of `config` (the options inside `rules`), seeded.
    pub fn new(
        config: &T,
        rules: &Rules,
        encoding: Encoding,
        seed: u64,
        auto_chance: bool,
    ) -> Result<RlGame<T>> {
        let system = config.build()?;
        if encoding == Encoding::OpenSpiel && system.rl_openspiel_size().is_none() {
            return Err(Error::InvalidRules(format!(
                "the `openspiel` encoding is for backgammon only, not `{}`",
                rules.variant()
            )));
        }
        let s = system.initial_state();
        let mut g = RlGame {
            enc: Arc::new(Encoder::new(&system)),
            features: None,
            rules: rules.clone(),
            encoding,
            auto_chance,
            start: s,
            cur: s,
            taken: Play::new(),
            plays: Vec::new(),
            list: PlayList::new(),
            alive: Vec::new(),
            acts: Vec::new(),
            kids: Vec::new(),
            kid_keys: Vec::new(),
            labels: Vec::new(),
            ends_here: false,
            moves: Vec::new(),
            seconds: Vec::new(),
            legal: Vec::new(),
            memo: Vec::new(),
            acting: 0,
            rng: rng_from_seed(seed),
            decisions: 0,
            rolls: 0,
        };
        g.advance();
        Ok(g)
    }

    /// The encoder.
    pub fn encoder(&self) -> &Encoder<T::System> {
        &self.enc
    }

    /// Which observation [`AnyGame::observe`] writes.
    pub fn observation(&self) -> Observation {
        self.features
            .as_ref()
            .map_or(Observation::Plain, |f| f.kind())
    }

    /// The current position (the steps taken so far applied).
    pub fn state(&self) -> &<T::System as RuleSystem>::State {
        &self.cur
    }

    /// The steps of the current play taken so far.
    pub fn taken(&self) -> &[Step] {
        self.taken.steps()
    }

    fn sys(&self) -> &T::System {
        self.enc.system()
    }

    /// Whether this game asks the system for each decision's next steps
    /// ([`Encode::rl_next_steps`]) instead of keeping the roll's plays.
    #[inline]
    fn direct(&self) -> bool {
        <T::System as Encode>::RL_NEXT_STEPS && self.encoding != Encoding::Play
    }

    /// Where [`RlGame::direct`]: lists the current decision's choices from the position and the
    /// steps taken (`step`: `kids` and `ends_here`; `openspiel`: `moves`), and returns whether a
    /// step can follow the steps taken.
    fn next_decision(&mut self) -> bool {
        let enc = Arc::clone(&self.enc);
        let sys = enc.system();
        self.ends_here = sys.rl_next_steps_memo(
            &self.start,
            &self.cur,
            self.taken.steps(),
            &mut self.memo,
            &mut self.kids,
        );
        let goes_on = !self.kids.is_empty();
        if self.encoding == Encoding::OpenSpiel {
            self.openspiel_moves();
        }
        goes_on
    }

    /// `openspiel` where [`RlGame::direct`]: the decision's choices from `kids` (the next steps):
    /// each with each step that can follow it, or alone when none can (the id of a play's first
    /// two steps depends on no later one), or the pass when no step is legal.
    fn openspiel_moves(&mut self) {
        let enc = Arc::clone(&self.enc);
        let sys = enc.system();
        let k = self.taken.len();
        self.moves.clear();
        let push = |moves: &mut Vec<OsMove>, rest: &[Step]| {
            let (action, n, again) =
                sys.rl_openspiel_action(&self.start, k, rest)
                    .unwrap_or((usize::MAX, 0, false));
            let mut steps = [Step::default(); 2];
            steps[..rest.len()].copy_from_slice(rest);
            moves.push(OsMove {
                action,
                steps,
                n,
                again,
            });
        };
        if self.kids.is_empty() {
            // OpenSpiel asks for a pass where pachisi forfeits at once.
            push(&mut self.moves, &[]);
            return;
        }
        for &first in &self.kids {
            let mut after = self.cur;
            sys.apply_step(&mut after, &first);
            let mut taken = self.taken;
            taken.push(first);
            sys.rl_next_steps_memo(
                &self.start,
                &after,
                taken.steps(),
                &mut self.memo,
                &mut self.seconds,
            );
            if self.seconds.is_empty() {
                push(&mut self.moves, &[first]);
            }
            for &second in &self.seconds {
                push(&mut self.moves, &[first, second]);
            }
        }
    }

    /// Rolls (when automatic) and forfeits unplayable rolls until a decision, a chance node
    /// left to the caller, or the end; then lists the plays of the roll.
    fn advance(&mut self) {
        self.taken = Play::new();
        self.kids.clear();
        self.ends_here = false;
        self.moves.clear();
        self.alive.clear();
        self.plays.clear();
        self.list.clear();
        // Each forfeit moves the turn on; the bound guards a faulty system.
        for _ in 0..100_000 {
            let sys = self.enc.system();
            match sys.node(&self.cur) {
                Node::Over => break,
                Node::Chance => {
                    if !self.auto_chance || self.rolls >= sys.max_rolls() {
                        break;
                    }
                    let roll = sys.sample_roll(&self.cur, &mut self.rng);
                    sys.begin_roll(&mut self.cur, roll);
                    self.rolls += 1;
                }
                Node::Decision if self.direct() => {
                    self.start = self.cur;
                    self.memo.clear();
                    let goes_on = self.next_decision();
                    let sys = self.enc.system();
                    // With nothing to play the roll is forfeited at once; a pass that is a legal
                    // play (Parcheesi with `pass_allowed`) is a decision, as in the plays' list.
                    if !goes_on && !self.ends_here && self.encoding == Encoding::Step {
                        sys.end_play(&mut self.cur, &[]);
                        continue;
                    }
                    self.acting = sys.rl_acting_owner(&self.cur);
                    break;
                }
                Node::Decision if self.encoding == Encoding::Step => {
                    sys.generate_list(&self.cur, Orders::All, &mut self.list);
                    if self.list.is_empty() {
                        sys.end_play(&mut self.cur, &[]);
                        continue;
                    }
                    self.alive.extend(0..self.list.len() as u32);
                    self.acting = sys.rl_acting_owner(&self.cur);
                    break;
                }
                Node::Decision => {
                    let orders = match self.encoding {
                        Encoding::Play => Orders::Distinct,
                        _ => Orders::All,
                    };
                    sys.generate(&self.cur, orders, &mut self.plays);
                    if self.plays.is_empty() {
                        if self.encoding == Encoding::OpenSpiel {
                            // OpenSpiel asks for a pass where pachisi forfeits at once.
                            self.plays.push(Play::new());
                        } else {
                            sys.end_play(&mut self.cur, &[]);
                            continue;
                        }
                    }
                    if self.encoding == Encoding::Play {
                        // Plays past the encoding's size have no id (docs/RL.md: the tests
                        // check no generated position has that many).
                        self.plays.truncate(sys.rl_max_plays());
                    }
                    self.alive.extend(0..self.plays.len() as u32);
                    self.acting = sys.rl_acting_owner(&self.cur);
                    break;
                }
            }
        }
        self.start = self.cur;
        self.refresh();
    }

    /// Encodes the plays still alive once for the current decision (`acts`, `legal`).
    fn refresh(&mut self) {
        let mut acts = std::mem::take(&mut self.acts);
        let mut legal = std::mem::take(&mut self.legal);
        acts.clear();
        legal.clear();
        let n = self.num_actions_impl();
        if self.encoding == Encoding::Step {
            if !self.direct() {
                self.group_next_steps();
            }
            if self.ends_here {
                legal.push(0);
            }
            // Each distinct next step encoded once.
            for st in &self.kids {
                let a = self
                    .enc
                    .step_action(&self.cur, self.acting, st)
                    .unwrap_or(usize::MAX);
                acts.push(a);
                if a < n {
                    legal.push(a);
                }
            }
        } else if self.direct() && n <= ID_SET_BITS {
            // The ids, ascending and distinct, through a bit set (cheaper than sorting them).
            let mut set = [0u64; ID_SET_BITS / 64];
            for m in &self.moves {
                acts.push(m.action);
                if m.action < n {
                    set[m.action / 64] |= 1 << (m.action % 64);
                }
            }
            for (w, &word) in set.iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    legal.push(w * 64 + bits.trailing_zeros() as usize);
                    bits &= bits - 1;
                }
            }
        } else if self.direct() {
            for m in &self.moves {
                acts.push(m.action);
                if m.action < n {
                    legal.push(m.action);
                }
            }
        } else {
            for &i in &self.alive {
                let a = self.action_of(i as usize, &self.plays[i as usize]).0;
                acts.push(a);
                if a < n && legal.last() != Some(&a) {
                    legal.push(a);
                }
            }
        }
        if self.direct() && (self.encoding == Encoding::Step || n <= ID_SET_BITS) {
            // `step`: the system lists distinct next steps in ascending id order
            // (`Encode::rl_next_steps`); `openspiel`: the bit set gave them in order.
            debug_assert!(legal.windows(2).all(|w| w[0] < w[1]), "{legal:?}");
        } else {
            legal.sort_unstable();
            legal.dedup();
        }
        self.acts = acts;
        self.legal = legal;
    }

    /// `step`: groups the plays alive by their next step (`kids`, `labels`, `ends_here`), one
    /// pass; the generators list orders depth first, so a play usually goes on like the one
    /// before it and the search among the distinct steps starts with that one's.
    fn group_next_steps(&mut self) {
        let k = self.taken.len();
        self.kids.clear();
        self.kid_keys.clear();
        // One label per play alive, written in place (no capacity check per play).
        self.labels.clear();
        self.labels.resize(self.alive.len(), NO_KID);
        let mut ends_here = false;
        let (mut last, mut last_key) = (NO_KID, 0u64);
        for (&i, slot) in self.alive.iter().zip(self.labels.iter_mut()) {
            *slot = match self.list.get(i as usize).get(k) {
                None => {
                    ends_here = true;
                    NO_KID
                }
                Some(st) => {
                    let key = step_key(st);
                    if last == NO_KID || key != last_key {
                        last = match self.kid_keys.iter().position(|&x| x == key) {
                            Some(j) => j as u16,
                            None => {
                                self.kids.push(*st);
                                self.kid_keys.push(key);
                                (self.kids.len() - 1) as u16
                            }
                        };
                        last_key = key;
                    }
                    last
                }
            };
        }
        self.ends_here = ends_here;
    }

    /// `apply_impl` for the `step` encoding: "end" where a play ends with the steps taken, or
    /// the first next step (in list order) with the id; the plays alive are those going on with
    /// it.
    fn apply_step_id(&mut self, action: usize) -> Result<()> {
        let kid = if action == 0 {
            None
        } else {
            self.acts.iter().position(|&a| a == action)
        };
        let ended = match kid {
            None if action == 0 && self.ends_here => true,
            Some(j) => {
                let enc = Arc::clone(&self.enc);
                let st = self.kids[j];
                enc.system().apply_step(&mut self.cur, &st);
                self.taken.push(st);
                if self.direct() {
                    // The play ends when no step follows the steps taken.
                    !self.next_decision()
                } else {
                    let mut labels = self.labels.iter();
                    self.alive.retain(|_| labels.next() == Some(&(j as u16)));
                    // The play ends when nothing extends the steps taken.
                    let k2 = self.taken.len();
                    !self
                        .alive
                        .iter()
                        .any(|&i| self.list.get(i as usize).len() > k2)
                }
            }
            None => {
                return Err(Self::illegal_action(action, self.legal.is_empty()));
            }
        };
        self.close_decision(ended);
        Ok(())
    }

    /// Counts the decision just made, then ends the play (and moves on to the next decision
    /// node) when `ended`, else lists the choices that go on with the steps taken.
    fn close_decision(&mut self, ended: bool) {
        self.decisions += 1;
        if ended {
            let enc = Arc::clone(&self.enc);
            let taken = self.taken;
            enc.system().end_play(&mut self.cur, taken.steps());
            self.advance();
        } else {
            self.refresh();
        }
    }

    /// The error for an action that is not among the legal ones (`none_due`: no play is due).
    fn illegal_action(action: usize, none_due: bool) -> Error {
        Error::IllegalMove(format!(
            "action {action} is not legal here{}",
            if none_due { " (no play is due)" } else { "" }
        ))
    }

    /// The steps of alive play `i` (an index into `list` or `plays`, by encoding).
    fn play_steps(&self, i: u32) -> &[Step] {
        if self.encoding == Encoding::Step {
            self.list.get(i as usize)
        } else {
            self.plays[i as usize].steps()
        }
    }

    /// The action a play stands for after the steps taken, how many steps it consumes, and
    /// whether the seat decides again even when nothing is left to play.
    #[inline]
    fn action_of(&self, index: usize, play: &Play) -> (usize, usize, bool) {
        let k = self.taken.len();
        let steps = &play.steps()[k..];
        match self.encoding {
            Encoding::Play => (index, steps.len(), false),
            // Not reached: the `step` encoding groups plays by next step (`group_next_steps`).
            Encoding::Step => (usize::MAX, 0, false),
            Encoding::OpenSpiel => self
                .sys()
                .rl_openspiel_action(&self.start, k, steps)
                .unwrap_or((usize::MAX, 0, false)),
        }
    }

    /// `apply_impl` for the `openspiel` encoding where [`RlGame::direct`]: the choice with the
    /// id takes its steps; the play ends after a pass, or when no step can follow and the seat
    /// does not decide again.
    fn apply_openspiel_move(&mut self, action: usize) -> Result<()> {
        let Some(&m) = self.moves.iter().find(|m| m.action == action) else {
            return Err(Self::illegal_action(action, self.legal.is_empty()));
        };
        let enc = Arc::clone(&self.enc);
        let sys = enc.system();
        for st in &m.steps[..m.n] {
            sys.apply_step(&mut self.cur, st);
            self.taken.push(*st);
        }
        let ended = m.n == 0 || !(self.next_decision() || m.again);
        self.close_decision(ended);
        Ok(())
    }

    fn legal_into(&self, out: &mut Vec<usize>) {
        out.clear();
        out.extend_from_slice(&self.legal);
    }

    fn num_actions_impl(&self) -> usize {
        match self.encoding {
            Encoding::Step => self.enc.step_encoding_size(),
            Encoding::Play => self.sys().rl_max_plays(),
            Encoding::OpenSpiel => self.sys().rl_openspiel_size().unwrap_or(0),
        }
    }

    fn apply_impl(&mut self, action: usize) -> Result<()> {
        if self.encoding == Encoding::Step {
            return self.apply_step_id(action);
        }
        if self.direct() {
            return self.apply_openspiel_move(action);
        }
        let found = self.acts.iter().position(|&a| a == action).map(|j| {
            let i = self.alive[j] as usize;
            let (_, n, again) = self.action_of(i, &self.plays[i]);
            (i, n, again)
        });
        let Some((index, consumed, again)) = found else {
            return Err(Self::illegal_action(action, self.alive.is_empty()));
        };
        let k = self.taken.len();
        let chosen = self.plays[index];
        let steps = &chosen.steps()[k..k + consumed];
        let enc = Arc::clone(&self.enc);
        let sys = enc.system();
        for st in steps {
            sys.apply_step(&mut self.cur, st);
            self.taken.push(*st);
        }
        let k2 = self.taken.len();
        let plays = &self.plays;
        self.alive.retain(|&i| {
            let p = &plays[i as usize];
            p.len() >= k2 && p.steps()[k..k2] == chosen.steps()[k..k2]
        });
        // The play ends when nothing extends the steps taken (or "end" was chosen).
        let extends = self
            .alive
            .iter()
            .any(|&i| self.plays[i as usize].len() > k2);
        self.close_decision(consumed == 0 || !(extends || again));
        Ok(())
    }
}

impl<T: Registered> RlGame<T>
where
    T::System: Evaluate,
{
    /// This game writing `observation` from now on (and its copies with it).
    /// [`Observation::Features`] measures the feature scales here, once
    /// ([`measure_feature_scales`] of the system with seed 1: 16 random games);
    /// [`Observation::Plain`] measures nothing.
    ///
    /// ```
    /// use pachisi::rl::{Encoding, Observation, env::{AnyGame, RlGame}};
    /// use pachisi::{Rules, RulesConfig};
    /// let rules = Rules::preset("pachisi-family").unwrap();
    /// let RulesConfig::Family(config) = rules.config() else { unreachable!() };
    /// let g = RlGame::new(config, &rules, Encoding::Step, 7, true).unwrap();
    /// let plain = g.observation_size();
    /// let g = g.with_observation(Observation::Features).unwrap();
    /// assert_eq!(g.observation(), Observation::Features);
    /// assert_eq!(g.views()[0].name, "occupancy_units");
    /// assert_ne!(g.observation_size(), plain);
    /// let mut obs = vec![0.0; g.observation_size()];
    /// g.observe(g.current_player(), &mut obs);
    /// ```
    pub fn with_observation(mut self, observation: Observation) -> Result<RlGame<T>> {
        self.features = match observation {
            Observation::Plain => None,
            Observation::Features => {
                let sys = self.sys();
                let scales = measure_feature_scales(sys, 1);
                let input = TdInput::new(sys, InputEncoding::Features, &scales)?;
                Some(Arc::new(input))
            }
        };
        Ok(self)
    }
}

impl<T: Registered> AnyGame for RlGame<T>
where
    T::System: Encode,
{
    fn rules(&self) -> &Rules {
        &self.rules
    }
    fn encoding(&self) -> Encoding {
        self.encoding
    }
    fn num_actions(&self) -> usize {
        self.num_actions_impl()
    }
    fn observation(&self) -> Observation {
        RlGame::observation(self)
    }
    fn observation_size(&self) -> usize {
        match &self.features {
            Some(f) => f.size(),
            None => self.enc.observation_size(),
        }
    }
    fn views(&self) -> Vec<View> {
        match &self.features {
            Some(f) => f.views().to_vec(),
            None => self.enc.views().to_vec(),
        }
    }
    fn seats(&self) -> u8 {
        self.sys().seats()
    }
    fn reset(&mut self, seed: u64) {
        self.rng = rng_from_seed(seed);
        self.cur = self.sys().initial_state();
        self.decisions = 0;
        self.rolls = 0;
        self.advance();
    }
    fn restart(&mut self) {
        self.cur = self.sys().initial_state();
        self.decisions = 0;
        self.rolls = 0;
        self.advance();
    }
    fn is_legal(&self, action: usize) -> bool {
        self.legal.binary_search(&action).is_ok()
    }
    fn legal_ids(&self) -> &[usize] {
        &self.legal
    }
    fn node(&self) -> Node {
        match self.sys().node(&self.cur) {
            Node::Chance if self.rolls >= self.sys().max_rolls() => Node::Over,
            node => node,
        }
    }
    fn current_player(&self) -> u8 {
        self.sys().to_move(&self.cur)
    }
    fn chance_outcomes(&self) -> Vec<ChanceOutcome> {
        if self.node() == Node::Chance {
            self.sys().chance_outcomes(&self.cur)
        } else {
            Vec::new()
        }
    }
    fn apply_roll(&mut self, roll: Roll) -> Result<()> {
        if self.node() != Node::Chance {
            return Err(Error::WrongPhase("cannot roll: no roll is due".into()));
        }
        self.sys().check_roll(&self.cur, roll)?;
        let enc = Arc::clone(&self.enc);
        enc.system().begin_roll(&mut self.cur, roll);
        self.rolls += 1;
        self.advance();
        Ok(())
    }
    fn roll(&mut self) -> Result<Roll> {
        if self.node() != Node::Chance {
            return Err(Error::WrongPhase("cannot roll: no roll is due".into()));
        }
        let enc = Arc::clone(&self.enc);
        let roll = enc.system().sample_roll(&self.cur, &mut self.rng);
        self.apply_roll(roll)?;
        Ok(roll)
    }
    fn legal_actions(&self) -> Vec<usize> {
        let mut out = Vec::new();
        self.legal_into(&mut out);
        out
    }
    fn write_mask(&self, out: &mut [bool]) {
        out.fill(false);
        for &a in &self.legal {
            if let Some(m) = out.get_mut(a) {
                *m = true;
            }
        }
    }
    fn apply_action(&mut self, action: usize) -> Result<()> {
        // As `Game::play`: an action where no play is due is a phase error, not an illegal move.
        match self.node() {
            Node::Decision => self.apply_impl(action),
            Node::Chance => Err(Error::WrongPhase(format!(
                "cannot apply action {action}: a roll is due"
            ))),
            Node::Over => Err(Error::WrongPhase(format!(
                "cannot apply action {action}: the game is over"
            ))),
        }
    }
    fn observe(&self, observer: u8, out: &mut [f32]) {
        match &self.features {
            Some(f) => f.write(&self.cur, self.taken.steps(), observer, out),
            None => self
                .enc
                .write_observation(&self.cur, self.taken.steps(), observer, out),
        }
    }
    fn returns(&self) -> Vec<f64> {
        let seats = self.sys().seats();
        match self.sys().outcome(&self.cur) {
            Some(o) => o.returns(seats),
            None => vec![0.0; seats as usize],
        }
    }
    fn decisions(&self) -> u32 {
        self.decisions
    }
    fn rolls(&self) -> u32 {
        self.rolls
    }
    fn truncated(&self) -> bool {
        self.sys().node(&self.cur) == Node::Chance && self.rolls >= self.sys().max_rolls()
    }
    fn action_to_string(&self, action: usize) -> String {
        if action >= self.num_actions_impl() {
            return format!("invalid {action}");
        }
        match self.encoding {
            Encoding::Step => self.enc.describe_step_action(action),
            Encoding::Play => match self.alive.iter().find(|&&i| i as usize == action) {
                Some(&i) => self.sys().format_play(&self.start, &self.plays[i as usize]),
                None => format!("play {action}"),
            },
            Encoding::OpenSpiel => super::backgammon::describe_action(action),
        }
    }
    fn position(&self) -> String {
        let mut text = self.sys().format_position(&self.start);
        if !self.taken.is_empty() {
            let steps: Vec<String> = (0..self.taken.len())
                .map(|k| {
                    self.enc
                        .describe_step_action(
                            self.enc
                                .step_action(&self.start, self.acting, &self.taken.steps()[k])
                                .unwrap_or(0),
                        )
                        .to_string()
                })
                .collect();
            text.push_str(&format!(" [taken: {}]", steps.join(" ")));
        }
        text
    }
    fn to_json(&self) -> String {
        let saved = SavedGame {
            state: self.start,
            taken: self.taken,
            rng: self.rng.clone(),
            decisions: self.decisions,
            rolls: self.rolls,
        };
        serde_json::to_string(&saved).unwrap_or_default()
    }
    fn load_json(&mut self, text: &str) -> Result<()> {
        let saved: SavedGame<<T::System as RuleSystem>::State> =
            serde_json::from_str(text).map_err(|e| Error::InvalidJson(e.to_string()))?;
        self.sys().validate_state(&saved.state)?;
        // A game saved where a roll is due (an environment with explicit chance) loads into one
        // with automatic chance too: the roll is then made at once, by the saved generator.
        let at_chance = self.sys().node(&saved.state) == Node::Chance;
        if at_chance && !saved.taken.steps().is_empty() {
            return Err(Error::InvalidJson(
                "steps taken where a roll is due: the position is a chance node".into(),
            ));
        }
        let mut g = self.clone();
        g.cur = saved.state;
        g.rng = saved.rng;
        g.rolls = saved.rolls;
        g.advance();
        if !at_chance && g.start != saved.state {
            return Err(Error::InvalidJson(
                "the position is a decision with no legal play (the engine forfeits it)".into(),
            ));
        }
        if g.direct() {
            for st in saved.taken.steps() {
                if !g.kids.contains(st) {
                    return Err(Error::InvalidJson(format!(
                        "taken step {st:?} is not legal"
                    )));
                }
                let enc = Arc::clone(&g.enc);
                enc.system().apply_step(&mut g.cur, st);
                g.taken.push(*st);
                g.next_decision();
            }
        }
        let replay = if g.direct() {
            &[][..]
        } else {
            saved.taken.steps()
        };
        for st in replay {
            let k = g.taken.len();
            let ok = g.alive.iter().any(|&i| g.play_steps(i).get(k) == Some(st));
            if !ok {
                return Err(Error::InvalidJson(format!(
                    "taken step {st:?} is not legal"
                )));
            }
            let enc = Arc::clone(&g.enc);
            enc.system().apply_step(&mut g.cur, st);
            g.taken.push(*st);
            let alive: Vec<u32> = g
                .alive
                .iter()
                .copied()
                .filter(|&i| g.play_steps(i).get(k) == Some(st))
                .collect();
            g.alive = alive;
        }
        g.decisions = saved.decisions;
        g.refresh();
        *self = g;
        Ok(())
    }
    fn step_action(&self, step: &Step) -> Option<usize> {
        self.enc.step_action(&self.cur, self.acting, step)
    }
    fn clone_box(&self) -> Box<dyn AnyGame> {
        Box::new(self.clone())
    }
    fn play_policy(&mut self, policy: &mut dyn Policy) -> Result<()> {
        if self.node() != Node::Decision {
            return Err(Error::WrongPhase("no play is due".into()));
        }
        if !self.taken.is_empty() {
            return Err(Error::WrongPhase(
                "a policy plays whole plays: steps were already taken".into(),
            ));
        }
        let enc = Arc::clone(&self.enc);
        let sys = enc.system();
        let game = T::into_game(GameOf::from_state(
            sys.clone(),
            self.rules.clone(),
            self.start,
            0,
        )?);
        let i = policy.choose(&game)?;
        let plays = game.legal_plays();
        let play = plays
            .get(i)
            .copied()
            .ok_or_else(|| Error::InvalidPlayer(format!("play index {i} out of range")))?;
        for st in play.steps() {
            sys.apply_step(&mut self.cur, st);
        }
        sys.end_play(&mut self.cur, play.steps());
        self.decisions += 1;
        self.advance();
        Ok(())
    }
}

/// A game of `rules` through `encoding`, seeded; with `auto_chance` the game rolls for the
/// players (decision nodes only), else the caller rolls at chance nodes.
///
/// ```
/// use pachisi::rl::{Encoding, env::new_game};
/// let rules = pachisi::Rules::preset("backgammon").unwrap();
/// let mut g = new_game(&rules, Encoding::Play, 3, false).unwrap();
/// assert_eq!(g.node(), pachisi::Node::Chance);
/// g.roll().unwrap();
/// assert_eq!(g.node(), pachisi::Node::Decision);
/// ```
pub fn new_game(
    rules: &Rules,
    encoding: Encoding,
    seed: u64,
    auto_chance: bool,
) -> Result<Box<dyn AnyGame>> {
    make_game(rules, encoding, Observation::Plain, seed, auto_chance)
}

/// [`new_game`] writing `observation` ([`RlGame::with_observation`]: the `features` one
/// measures its feature scales here, once; copies made with [`AnyGame::clone_box`] share them).
///
/// ```
/// use pachisi::rl::{Encoding, Observation, env::new_game_with_observation};
/// let rules = pachisi::Rules::preset("backgammon").unwrap();
/// let g = new_game_with_observation(&rules, Encoding::Step, Observation::Features, 3, true)
///     .unwrap();
/// assert_eq!(g.observation(), Observation::Features);
/// let names: Vec<_> = g.views().iter().map(|v| v.name).collect();
/// assert_eq!(&names[..4], &["occupancy_units", "nest_share", "home_share", "features"]);
/// let mut obs = vec![0.0; g.observation_size()];
/// g.observe(g.current_player(), &mut obs);
/// ```
pub fn new_game_with_observation(
    rules: &Rules,
    encoding: Encoding,
    observation: Observation,
    seed: u64,
    auto_chance: bool,
) -> Result<Box<dyn AnyGame>> {
    make_game(rules, encoding, observation, seed, auto_chance)
}

macro_rules! make_game_fn {
    ($(($name:ident, $rules:ty, $doc:literal)),* $(,)?) => {
        fn make_game(
            rules: &Rules,
            encoding: Encoding,
            observation: Observation,
            seed: u64,
            auto_chance: bool,
        ) -> Result<Box<dyn AnyGame>> {
            match rules.config() {
                $(crate::rules::RulesConfig::$name(r) => Ok(Box::new(
                    RlGame::<$rules>::new(r, rules, encoding, seed, auto_chance)?
                        .with_observation(observation)?,
                )),)*
            }
        }
    };
}
crate::for_each_system!(make_game_fn);

/// Where [`VecEnv`] writes one call's results: one row per environment.
pub struct Outputs<'a> {
    /// Observations, `num_envs x observation_size`, from the seat to act.
    pub obs: &'a mut [f32],
    /// Rewards per seat, `num_envs x seats` (the returns when a game ended in this call).
    pub rewards: &'a mut [f32],
    /// Whether the game ended in this call (it was reset at once).
    pub terminated: &'a mut [bool],
    /// Whether the game hit the decision limit in this call (it was reset at once).
    pub truncated: &'a mut [bool],
    /// The seat to act.
    pub current_player: &'a mut [i32],
    /// Legal actions, `num_envs x num_actions`.
    pub mask: &'a mut [bool],
    /// The last observation of a game that ended (or was truncated) in this call, from the seat
    /// that acted last; other rows are left as they were.
    pub final_obs: &'a mut [f32],
}

/// Owned buffers sized for one [`VecEnv`]'s [`Outputs`], for Rust callers (Python writes into
/// numpy arrays instead).
///
/// ```
/// use pachisi::rl::{Encoding, env::{OutputBuffers, VecEnv}};
/// let rules = pachisi::Rules::preset("backgammon").unwrap();
/// let mut env = VecEnv::new(&rules, 3, 0, Encoding::Step, None).unwrap();
/// let mut buffers = OutputBuffers::new(&env);
/// let mut out = buffers.outputs();
/// env.reset(None, &mut out).unwrap();
/// assert_eq!(out.obs.len(), 3 * env.observation_size());
/// assert_eq!(out.mask.len(), 3 * env.num_actions());
/// ```
pub struct OutputBuffers {
    obs: Vec<f32>,
    rewards: Vec<f32>,
    terminated: Vec<bool>,
    truncated: Vec<bool>,
    current_player: Vec<i32>,
    mask: Vec<bool>,
    final_obs: Vec<f32>,
}

impl OutputBuffers {
    /// Zeroed buffers with one row per environment of `env`.
    pub fn new(env: &VecEnv) -> Self {
        let n = env.num_envs();
        let (d, a, p) = (
            env.observation_size(),
            env.num_actions(),
            env.seats() as usize,
        );
        OutputBuffers {
            obs: vec![0.0; n * d],
            rewards: vec![0.0; n * p],
            terminated: vec![false; n],
            truncated: vec![false; n],
            current_player: vec![0; n],
            mask: vec![false; n * a],
            final_obs: vec![0.0; n * d],
        }
    }

    /// The buffers as the [`Outputs`] that [`VecEnv::reset`] and [`VecEnv::step`] write.
    pub fn outputs(&mut self) -> Outputs<'_> {
        Outputs {
            obs: &mut self.obs,
            rewards: &mut self.rewards,
            terminated: &mut self.terminated,
            truncated: &mut self.truncated,
            current_player: &mut self.current_player,
            mask: &mut self.mask,
            final_obs: &mut self.final_obs,
        }
    }
}

/// Many games of one rules value stepped together across threads, reset automatically when they
/// end (same-step autoreset: the returned observation is the new game's, the ended game's last
/// one goes to [`Outputs::final_obs`]). Game `i` is seeded `seed + i`; a game that ends goes
/// on with its own generator.
///
/// ```
/// use pachisi::rl::{Encoding, env::{OutputBuffers, VecEnv}};
/// let rules = pachisi::Rules::preset("parcheesi").unwrap();
/// let mut env = VecEnv::new(&rules, 4, 0, Encoding::Step, None).unwrap();
/// let (n, a) = (4, env.num_actions());
/// let mut buffers = OutputBuffers::new(&env);
/// let mut out = buffers.outputs();
/// env.reset(None, &mut out).unwrap();
/// // Act with the first legal id of each game.
/// let actions: Vec<i64> = (0..n).map(|i| out.mask[i * a..(i + 1) * a].iter().position(|&m| m).unwrap() as i64).collect();
/// env.step(&actions, &mut out).unwrap();
/// ```
pub struct VecEnv {
    games: Vec<Box<dyn AnyGame>>,
    /// One generator per game for [`VecEnv::random_actions`].
    policy_rngs: Vec<GameRng>,
    seed: u64,
    max_decisions: u32,
    observation: Observation,
    obs_size: usize,
    num_actions: usize,
    seats: u8,
}

/// The most games a [`VecEnv`] runs: a batch of 65,536 four-seat Parcheesi games with the
/// `features` observation already needs about 0.7 GB for its observations alone; a larger
/// count is an [`Error::InvalidArgument`] rather than memory the machine may not have.
pub const MAX_ENVS: usize = 1 << 16;

impl VecEnv {
    /// `num_envs` games of `rules` (1 to [`MAX_ENVS`]); `max_decisions` (at least 1) truncates
    /// a game after that many actions (none when `None`). They write the plain observation
    /// ([`VecEnv::new_with_observation`] for the other).
    pub fn new(
        rules: &Rules,
        num_envs: usize,
        seed: u64,
        encoding: Encoding,
        max_decisions: Option<u32>,
    ) -> Result<VecEnv> {
        VecEnv::new_with_observation(
            rules,
            num_envs,
            seed,
            encoding,
            Observation::Plain,
            max_decisions,
        )
    }

    /// [`VecEnv::new`] with games writing `observation` into [`Outputs::obs`] and
    /// [`Outputs::final_obs`]. The `features` observation's scales are measured once here and
    /// shared by every game.
    ///
    /// ```
    /// use pachisi::rl::{Encoding, Observation, env::{OutputBuffers, VecEnv}};
    /// let rules = pachisi::Rules::preset("parcheesi").unwrap();
    /// let mut env =
    ///     VecEnv::new_with_observation(&rules, 2, 0, Encoding::Step, Observation::Features, None)
    ///         .unwrap();
    /// assert_eq!(env.observation(), Observation::Features);
    /// assert_eq!(env.views()[0].name, "occupancy_units");
    /// let mut buffers = OutputBuffers::new(&env);
    /// let mut out = buffers.outputs();
    /// env.reset(None, &mut out).unwrap();
    /// assert_eq!(out.obs.len(), 2 * env.observation_size());
    /// ```
    pub fn new_with_observation(
        rules: &Rules,
        num_envs: usize,
        seed: u64,
        encoding: Encoding,
        observation: Observation,
        max_decisions: Option<u32>,
    ) -> Result<VecEnv> {
        if !(1..=MAX_ENVS).contains(&num_envs) {
            return Err(Error::InvalidArgument(format!(
                "num_envs must be from 1 to {MAX_ENVS}, got {num_envs}"
            )));
        }
        if max_decisions == Some(0) {
            // The check follows an action, so 0 would mean 1: say what is meant instead.
            return Err(Error::InvalidArgument(
                "max_decisions must be at least 1 (None for no limit), got 0".into(),
            ));
        }
        let first = new_game_with_observation(rules, encoding, observation, seed, true)?;
        let mut games = crate::error::try_with_capacity(num_envs, "environments")?;
        for i in 0..num_envs {
            let mut g = first.clone_box();
            g.reset(seed.wrapping_add(i as u64));
            games.push(g);
        }
        Ok(VecEnv {
            policy_rngs: (0..num_envs as u64)
                .map(|i| rng_from_seed(crate::sim::game_seed(seed, i)))
                .collect(),
            obs_size: first.observation_size(),
            num_actions: first.num_actions(),
            seats: first.seats(),
            games,
            seed,
            max_decisions: max_decisions.unwrap_or(u32::MAX),
            observation,
        })
    }

    /// Number of games.
    pub fn num_envs(&self) -> usize {
        self.games.len()
    }
    /// Which observation the games write.
    pub fn observation(&self) -> Observation {
        self.observation
    }
    /// Length of one observation.
    pub fn observation_size(&self) -> usize {
        self.obs_size
    }
    /// Number of action ids.
    pub fn num_actions(&self) -> usize {
        self.num_actions
    }
    /// Number of seats.
    pub fn seats(&self) -> u8 {
        self.seats
    }
    /// The observation's views.
    pub fn views(&self) -> Vec<View> {
        self.games[0].views()
    }
    /// Writes a uniformly random legal action of every game into `out` (the random policy of
    /// benchmarks and baselines), each game drawing from its own generator. `out` holds one
    /// action per game ([`VecEnv::num_envs`]): a shorter one gets the first games' actions only.
    ///
    /// ```
    /// use pachisi::rl::{Encoding, env::VecEnv};
    /// let rules = pachisi::Rules::preset("pachisi").unwrap();
    /// let mut env = VecEnv::new(&rules, 3, 0, Encoding::Step, None).unwrap();
    /// let mut actions = vec![0i64; 3];
    /// env.random_actions(&mut actions);
    /// assert!((0..3).all(|i| env.game(i).unwrap().is_legal(actions[i] as usize)));
    /// ```
    pub fn random_actions(&mut self, out: &mut [i64]) {
        self.games
            .par_iter()
            .zip(self.policy_rngs.par_iter_mut())
            .zip(out.par_iter_mut())
            .with_min_len(16)
            .for_each(|((g, rng), a)| {
                let legal = g.legal_ids();
                *a = if legal.is_empty() {
                    -1
                } else {
                    legal[crate::sim::uniform_index(rng, legal.len())] as i64
                };
            });
    }

    /// Game `i`.
    pub fn game(&self, i: usize) -> Option<&dyn AnyGame> {
        self.games.get(i).map(|g| g.as_ref())
    }

    fn check(&self, out: &Outputs<'_>) -> Result<()> {
        let n = self.games.len();
        let ok = out.obs.len() == n * self.obs_size
            && out.final_obs.len() == n * self.obs_size
            && out.rewards.len() == n * self.seats as usize
            && out.terminated.len() == n
            && out.truncated.len() == n
            && out.current_player.len() == n
            && out.mask.len() == n * self.num_actions;
        if ok {
            Ok(())
        } else {
            Err(Error::InvalidArgument(format!(
                "output buffers have the wrong sizes for {n} environments of {} seats, \
                 observations of {} and {} actions (see OutputBuffers)",
                self.seats, self.obs_size, self.num_actions
            )))
        }
    }

    /// Restarts every game (seeds `seed + i`; when `None`, the last seed given, at first the
    /// constructor's) and writes the first observations; rewards, terminated and truncated are
    /// cleared. The generators of [`VecEnv::random_actions`] restart from the same seed, so
    /// after `reset(Some(s))` the environment is in every respect a new `VecEnv` made with
    /// seed `s`. Output buffers of the wrong sizes (not those of [`OutputBuffers::new`]) are an
    /// [`Error::InvalidArgument`], as in [`VecEnv::step`], and nothing changes.
    pub fn reset(&mut self, seed: Option<u64>, out: &mut Outputs<'_>) -> Result<()> {
        self.check(out)?;
        if let Some(s) = seed {
            self.seed = s;
        }
        let seed = self.seed;
        for (i, rng) in self.policy_rngs.iter_mut().enumerate() {
            *rng = rng_from_seed(crate::sim::game_seed(seed, i as u64));
        }
        let (d, a) = (self.obs_size, self.num_actions);
        self.games
            .par_iter_mut()
            .zip(out.obs.par_chunks_mut(d))
            .zip(out.mask.par_chunks_mut(a))
            .zip(out.current_player.par_iter_mut())
            .enumerate()
            .with_min_len(16)
            .for_each(|(i, (((g, obs), mask), cur))| {
                g.reset(seed.wrapping_add(i as u64));
                write_row(g.as_ref(), obs, mask, cur);
            });
        out.rewards.fill(0.0);
        out.terminated.fill(false);
        out.truncated.fill(false);
        Ok(())
    }

    /// Applies one action per game (all checked first: an illegal one is an error naming the
    /// game, and nothing changes), resets the games that end, and writes the results. Output
    /// buffers of the wrong sizes are an [`Error::InvalidArgument`] (nothing changes).
    pub fn step(&mut self, actions: &[i64], out: &mut Outputs<'_>) -> Result<()> {
        self.check(out)?;
        if actions.len() != self.games.len() {
            return Err(Error::IllegalMove(format!(
                "expected {} actions, got {}",
                self.games.len(),
                actions.len()
            )));
        }
        // Legality from the masks of the previous call would trust the caller's buffers; ask
        // the games (a binary search in each game's few legal ids: cheaper on one thread than
        // a parallel pass's start-up).
        let bad = self
            .games
            .iter()
            .zip(actions)
            .enumerate()
            .find(|(_, (g, a))| **a < 0 || !g.is_legal(**a as usize));
        if let Some((i, (_, a))) = bad {
            return Err(Error::IllegalMove(format!(
                "action {a} is not legal in environment {i}"
            )));
        }
        let (d, a_n, p) = (self.obs_size, self.num_actions, self.seats as usize);
        let max = self.max_decisions;
        self.games
            .par_iter_mut()
            .zip(actions.par_iter())
            .zip(out.obs.par_chunks_mut(d))
            .zip(out.final_obs.par_chunks_mut(d))
            .zip(out.mask.par_chunks_mut(a_n))
            .zip(out.rewards.par_chunks_mut(p))
            .zip(out.terminated.par_iter_mut())
            .zip(out.truncated.par_iter_mut())
            .zip(out.current_player.par_iter_mut())
            .with_min_len(16)
            .for_each(
                |((((((((g, &a), obs), fin), mask), rew), term), trunc), cur)| {
                    let actor = g.current_player();
                    // Checked above, so this cannot fail.
                    let _ = g.apply_action(a as usize);
                    rew.fill(0.0);
                    // A game cut by `max_rolls` is over but truncated, as one past
                    // `max_decisions`.
                    *trunc = g.truncated();
                    *term = !*trunc && g.node() == Node::Over;
                    *trunc |= !*term && g.decisions() >= max;
                    if *term || *trunc {
                        g.observe(actor, fin);
                        if *term {
                            for (r, v) in rew.iter_mut().zip(g.returns()) {
                                *r = v as f32;
                            }
                        }
                        // Same-step autoreset, the generator going on.
                        g.restart();
                    }
                    write_row(g.as_ref(), obs, mask, cur);
                },
            );
        Ok(())
    }
}

fn write_row(g: &dyn AnyGame, obs: &mut [f32], mask: &mut [bool], cur: &mut i32) {
    let me = g.current_player();
    *cur = me as i32;
    g.observe(me, obs);
    g.write_mask(mask);
}
