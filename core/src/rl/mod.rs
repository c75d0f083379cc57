//! Reinforcement-learning encodings: fixed action ids, observation tensors, and environments
//! stepped one decision at a time (singly, or many at once across threads).
//!
//! Every rule system implements [`Encode`], which names its coordinates, its *amount classes*
//! (the values a step can move) and its observation views; [`Encoder`] turns that into
//!
//! * the **`step` encoding**: `Discrete(1 + S·K [+ extra])`. Action 0 ends the play with the steps
//!   taken so far (a pass when none were taken); action `1 + source·K + class` is the step whose
//!   piece stands on `source` (the owner offset times the positions per owner, plus the step's
//!   `from` in its owner's coordinates) and moves by amount class `class`. Backgammon adds four
//!   ids for the cube (double, no double, take, drop). The ids are the same in every position;
//!   a step is legal when it begins or continues a legal whole play, and the same seat acts until
//!   its play is complete;
//! * the **`play` encoding**: `Discrete(K)`, action `i` is the `i`-th distinct legal play of the
//!   generator's list (state-dependent ids; the mask is a prefix), `K` per rule system
//!   ([`Encode::rl_max_plays`]: a proven bound except in Parcheesi and Online Pachisi, where
//!   plays past `K` are dropped; `docs/RL.md`);
//! * the **observation**: a flat `f32` vector from one seat's point of view, made of named views
//!   ([`View`]), written into a caller's `&mut [f32]` ([`Encoder::write_observation`]) so a
//!   learned evaluator can reuse it without allocating.
//!
//! [`env::RlGame`] is one game driven through these ids; [`env::VecEnv`] steps many of them
//! at once with rayon. `docs/RL.md` documents every view and id layout.
//!
//! ```
//! use pachisi::rl::{Encoding, env::new_game};
//! use pachisi::Rules;
//! let mut g = new_game(&Rules::preset("parcheesi").unwrap(), Encoding::Step, 1, true).unwrap();
//! assert_eq!(g.num_actions(), 1 + 77 * 16); // 8 values, home path or round again
//! let mut obs = vec![0.0f32; g.observation_size()];
//! g.observe(g.current_player(), &mut obs);
//! let legal = g.legal_actions();
//! g.apply_action(legal[0]).unwrap();
//! ```

pub mod backgammon;
pub mod env;
mod systems;

use crate::play::{PlayList, Step, StepKind};
use crate::system::{Orders, RuleSystem};
use crate::{Error, Result};
use serde::{Deserialize, Serialize};

/// Which action encoding an environment speaks.
///
/// ```
/// use pachisi::rl::Encoding;
/// assert_eq!("play".parse::<Encoding>().unwrap(), Encoding::Play);
/// assert!("moves".parse::<Encoding>().is_err());
/// assert_eq!(Encoding::OpenSpiel.to_string(), "openspiel");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Encoding {
    /// One step (source square x amount class) per action, plus "end the play"; fixed ids.
    Step,
    /// One whole play per action: an index into the distinct legal plays (state-dependent ids).
    Play,
    /// Backgammon only: OpenSpiel's 1,352 ids, two checker moves per id (see [`backgammon`]).
    #[serde(rename = "openspiel")]
    OpenSpiel,
}

impl Encoding {
    /// The encoding's name, as [`str::parse`] reads it: `step`, `play` or `openspiel`.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Step => "step",
            Encoding::Play => "play",
            Encoding::OpenSpiel => "openspiel",
        }
    }
}

impl std::fmt::Display for Encoding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Encoding {
    type Err = Error;
    fn from_str(s: &str) -> Result<Encoding> {
        match s {
            "step" => Ok(Encoding::Step),
            "play" => Ok(Encoding::Play),
            "openspiel" => Ok(Encoding::OpenSpiel),
            _ => Err(Error::InvalidRules(format!(
                "unknown encoding `{s}`: expected `step`, `play` or `openspiel`"
            ))),
        }
    }
}

/// Which observation an environment writes.
///
/// * [`Observation::Plain`] (the default): the observation of [`Encoder::write_observation`],
///   raw piece counts per position and the views listed in `docs/RL.md`;
/// * [`Observation::Features`]: the input encoding of the learned `td` networks
///   ([`crate::players::InputEncoding::Features`], written by
///   [`crate::players::TdInput::write_taken`]): truncated-unary occupancy, nest and home as
///   shares, the rule system's evaluator features scaled by
///   [`crate::players::measure_feature_scales`] with seed 1 (computed once when the game or
///   environment is made), then the plain observation from its `safe` view on.
///
/// ```
/// use pachisi::rl::Observation;
/// assert_eq!("features".parse::<Observation>().unwrap(), Observation::Features);
/// assert_eq!(Observation::default(), Observation::Plain);
/// assert_eq!(Observation::Features.name(), "features");
/// let err = "raw".parse::<Observation>().unwrap_err().to_string();
/// assert!(err.contains("`plain` or `features`"), "{err}");
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Observation {
    /// The plain observation ([`Encoder::write_observation`]).
    #[default]
    Plain,
    /// The `td` networks' `features` input encoding ([`crate::players::TdInput`]).
    Features,
}

impl Observation {
    /// The observation's name: `plain` or `features`.
    pub fn name(self) -> &'static str {
        match self {
            Observation::Plain => "plain",
            Observation::Features => "features",
        }
    }
}

impl std::fmt::Display for Observation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Observation {
    type Err = Error;
    fn from_str(s: &str) -> Result<Observation> {
        match s {
            "plain" => Ok(Observation::Plain),
            "features" => Ok(Observation::Features),
            _ => Err(Error::InvalidRules(format!(
                "unknown observation `{s}`: expected `plain` or `features`"
            ))),
        }
    }
}

/// A named slice of the observation vector.
///
/// ```
/// let v = pachisi::rl::View { name: "dice", offset: 10, shape: vec![2, 6] };
/// assert_eq!(v.size(), 12);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// The view's name (`occupancy`, `dice`, ...).
    pub name: &'static str,
    /// Where it starts in the flat vector.
    pub offset: usize,
    /// Its shape (row-major).
    pub shape: Vec<usize>,
}

impl View {
    /// Number of floats.
    pub fn size(&self) -> usize {
        self.shape.iter().product()
    }
}

/// What a rule system tells the encoder: its coordinates, amount classes and own views.
///
/// ```
/// use pachisi::rl::Encode;
/// use pachisi::{SystemRules, classic::ClassicRules};
/// let sys = ClassicRules::classic().build().unwrap();
/// assert_eq!(sys.rl_positions(), 86);
/// assert_eq!(sys.rl_classes().len(), 7 * 4); // seven throw values, units of 1..=4
/// ```
///
/// The common views (occupancy, nest, home, safe squares, seat to move, partners, steps taken)
/// are written by [`Encoder`] from these hooks; [`Encode::rl_write_extra`] writes the rest (dice,
/// values left, pending bonuses, counters, the cube).
pub trait Encode: RuleSystem {
    /// Positions of one owner's coordinates (every step's `from` and `to` is below this).
    fn rl_positions(&self) -> u8;
    /// The positions of the nest (bar, waiting in the charkoni) and of home (off).
    fn rl_nest_home(&self) -> (u8, u8);
    /// Pieces per owner.
    fn rl_pieces(&self) -> u8;
    /// The amount classes, `(value, count, branch)`: the value a step spends, how many pieces
    /// move, and which way the piece goes where a square has two ways on ([`Encode::rl_branch`]).
    fn rl_classes(&self) -> Vec<(u8, u8, u8)>;
    /// The source of a step in its owner's coordinates (below [`Encode::rl_positions`]); the
    /// default is its `from`. `s` is the position the step is taken from. Family Pachisi counts
    /// a captured piece waiting beside the start area apart from one never played.
    fn rl_source(&self, s: &Self::State, step: &Step) -> u8 {
        let _ = s;
        step.from
    }
    /// Which way a step goes from a square with two ways on (0 or 1): Parcheesi's branch square
    /// with `go_round_again`, where one die can enter the home path or go round again.
    fn rl_branch(&self, step: &Step) -> u8 {
        let _ = step;
        0
    }
    /// The owners (as offsets from the acting owner, modulo [`RuleSystem::owners`]) whose pieces
    /// a play may move.
    fn rl_offsets(&self) -> Vec<u8>;
    /// The owner from whose colour step sources are counted (the seat on turn; Classic Pachisi:
    /// the colour on turn).
    fn rl_acting_owner(&self, s: &Self::State) -> u8;
    /// Adds `owner`'s pieces per position (its own coordinates) to `out`
    /// (length [`Encode::rl_positions`]).
    fn rl_occupancy(&self, s: &Self::State, owner: u8, out: &mut [f32]);
    /// The system's own views, `(name, shape)`, after the common ones.
    fn rl_extra_views(&self) -> Vec<(&'static str, Vec<usize>)>;
    /// Writes the system's own views for `observer` (`out` is zeroed, their total length).
    fn rl_write_extra(&self, s: &Self::State, taken: &[Step], observer: u8, out: &mut [f32]);
    /// The `play` encoding's size: the most distinct legal plays any position of these rules
    /// has where `docs/RL.md` proves a bound (Classic and Family Pachisi, backgammon); for
    /// Parcheesi and Online Pachisi a size random games stay within, which Parcheesi positions
    /// built to have many plays pass (the plays past it are dropped).
    fn rl_max_plays(&self) -> usize;
    /// The id (counted after the step ids) of a step that moves no piece: backgammon's cube
    /// decisions. `None` for piece moves.
    fn rl_special(&self, step: &Step) -> Option<usize> {
        let _ = step;
        None
    }
    /// How many such special ids there are.
    fn rl_special_count(&self) -> usize {
        0
    }
    /// Whether [`Encode::rl_next_steps`] is cheap enough for the environments to call at every
    /// decision instead of listing the roll's plays in every order once per roll and grouping
    /// them by their next step (backgammon, Parcheesi, Family Pachisi).
    const RL_NEXT_STEPS: bool = false;
    /// The legal next steps of a play under way into `out` (cleared first): `start` is the
    /// position at the start of the play, `cur` the position after the steps `taken` so far.
    /// These are the distinct next steps of the plays of [`crate::system::Orders::All`] from
    /// `start` that begin with `taken`. The default keeps the order first listed there, and the
    /// environments sort the ids; a system that sets [`Encode::RL_NEXT_STEPS`] must list the
    /// steps in strictly ascending order of their step ids ([`Encoder::step_action`]), which the
    /// `step` encoding takes as its mask without sorting: where two of those steps share an id
    /// (Parcheesi: two pieces on one square), it lists only the one first listed there, the step
    /// the environments apply for that id. Returns whether one of those plays ends
    /// with `taken` (so "end" is legal); nothing in `out` and `false` means the play is complete
    /// (or, with nothing taken, the roll has no play). The default lists and groups the plays
    /// ([`next_steps_of_plays`]).
    fn rl_next_steps(
        &self,
        start: &Self::State,
        cur: &Self::State,
        taken: &[Step],
        out: &mut Vec<Step>,
    ) -> bool {
        let _ = cur;
        next_steps_of_plays(self, start, taken, out)
    }
    /// [`Encode::rl_next_steps`] with `memo`, a scratch space the caller keeps for the play
    /// under way (empty at its start, or left from an earlier call of the same play; a system
    /// may keep there what it computes once per roll). The default ignores it.
    fn rl_next_steps_memo(
        &self,
        start: &Self::State,
        cur: &Self::State,
        taken: &[Step],
        memo: &mut Vec<u64>,
        out: &mut Vec<Step>,
    ) -> bool {
        let _ = memo;
        self.rl_next_steps(start, cur, taken, out)
    }
    /// The size of OpenSpiel's encoding of this system, if it has one (backgammon: 1,352).
    fn rl_openspiel_size(&self) -> Option<usize> {
        None
    }
    /// The OpenSpiel action that begins `rest` (the steps of a play from `start` not yet taken,
    /// `taken` of them were), the steps it consumes, and whether the seat decides again even when
    /// nothing is left (see [`backgammon::openspiel_action`]).
    fn rl_openspiel_action(
        &self,
        start: &Self::State,
        taken: usize,
        rest: &[Step],
    ) -> Option<(usize, usize, bool)> {
        let _ = (start, taken, rest);
        None
    }
}

/// [`Encode::rl_next_steps`] by listing the plays of [`Orders::All`] from `start` and keeping
/// the distinct next steps of those that begin with `taken`, in the order first listed; returns
/// whether one of them ends with `taken`. What the environments do per roll for systems that do
/// not list next steps themselves, and the reference the tests compare such lists with.
///
/// ```
/// use pachisi::{Roll, RuleSystem, SystemRules, backgammon::BackgammonRules};
/// use pachisi::rl::{Encode, next_steps_of_plays};
/// let sys = BackgammonRules { cube: false, ..BackgammonRules::standard() }.build().unwrap();
/// let mut s = sys.initial_state();
/// sys.begin_roll(&mut s, Roll::Dice([6, 5]));
/// let (mut slow, mut fast) = (Vec::new(), Vec::new());
/// assert!(!next_steps_of_plays(&sys, &s, &[], &mut slow));
/// sys.rl_next_steps(&s, &s, &[], &mut fast);
/// slow.sort_by_key(|st| (st.from, st.value));
/// fast.sort_by_key(|st| (st.from, st.value));
/// assert_eq!(slow, fast);
/// ```
pub fn next_steps_of_plays<R: RuleSystem>(
    sys: &R,
    start: &R::State,
    taken: &[Step],
    out: &mut Vec<Step>,
) -> bool {
    let mut list = PlayList::new();
    sys.generate_list(start, Orders::All, &mut list);
    out.clear();
    let k = taken.len();
    let mut ends = false;
    for play in list.iter() {
        if play.len() < k || play[..k] != *taken {
            continue;
        }
        match play.get(k) {
            None => ends = true,
            Some(st) if !out.contains(st) => out.push(*st),
            Some(_) => {}
        }
    }
    ends
}

const NO_CLASS: u16 = u16::MAX;

/// The action ids and observation layout of one rule system (built once per environment).
///
/// ```
/// use pachisi::{RuleSystem, SystemRules, backgammon::BackgammonRules, rl::Encoder};
/// let sys = BackgammonRules::standard().build().unwrap();
/// let enc = Encoder::new(&sys);
/// assert_eq!(enc.step_actions(), 1 + 26 * 6);
/// let mut obs = vec![0.0; enc.observation_size()];
/// enc.write_observation(&sys.initial_state(), &[], 0, &mut obs);
/// let occ = enc.view("occupancy").unwrap();
/// assert_eq!(obs[occ.offset + 24], 2.0); // two checkers on our 24-point
/// ```
#[derive(Clone, Debug)]
pub struct Encoder<R: Encode> {
    system: R,
    positions: usize,
    classes: usize,
    /// `class_of[class_key(value, count, branch)]`: the amount class, or [`NO_CLASS`].
    class_of: Vec<u16>,
    class_list: Vec<(u8, u8, u8)>,
    /// `rel_of[offset]`: the index of an owner offset among [`Encode::rl_offsets`], or 255.
    rel_of: [u8; 16],
    offsets: usize,
    views: Vec<View>,
    size: usize,
    /// Per owner, 1.0 on the positions (its coordinates) that are safe squares.
    safe: Vec<Vec<f32>>,
}

impl<R: Encode> Encoder<R> {
    /// The encoder of a system.
    pub fn new(system: &R) -> Encoder<R> {
        let positions = system.rl_positions() as usize;
        let class_list = system.rl_classes();
        let mut class_of = vec![NO_CLASS; 256 * 16];
        for (i, &(value, count, branch)) in class_list.iter().enumerate() {
            class_of[class_key(value, count, branch)] = i as u16;
        }
        let mut rel_of = [u8::MAX; 16];
        let offs = system.rl_offsets();
        for (i, &o) in offs.iter().enumerate() {
            rel_of[o as usize & 15] = i as u8;
        }
        let owners = system.owners() as usize;
        let seats = system.seats() as usize;
        let safe_places = system.safe_places();
        let (nest, home) = system.rl_nest_home();
        let safe = (0..owners as u8)
            .map(|o| {
                (0..positions as u8)
                    .map(|p| {
                        let on_board = p != nest && p != home;
                        f32::from(u8::from(
                            on_board && safe_places.contains(&system.place(o, p)),
                        ))
                    })
                    .collect()
            })
            .collect();
        let mut shapes: Vec<(&'static str, Vec<usize>)> = vec![
            ("occupancy", vec![owners, positions]),
            ("nest", vec![owners]),
            ("home", vec![owners]),
            ("safe", vec![positions]),
            ("to_move", vec![seats]),
            ("partners", vec![seats]),
            ("taken", vec![class_list.len()]),
        ];
        shapes.extend(system.rl_extra_views());
        let (views, offset) = lay_out_views(shapes);
        Encoder {
            system: system.clone(),
            positions,
            classes: class_list.len(),
            class_of,
            class_list,
            rel_of,
            offsets: offs.len(),
            views,
            size: offset,
            safe,
        }
    }

    /// The system.
    pub fn system(&self) -> &R {
        &self.system
    }

    /// `S`: step sources (owner offsets x positions).
    pub fn sources(&self) -> usize {
        self.offsets * self.positions
    }

    /// `K`: amount classes.
    pub fn classes(&self) -> usize {
        self.classes
    }

    /// The amount classes, `(value, count, branch)`, in id order.
    pub fn class_list(&self) -> &[(u8, u8, u8)] {
        &self.class_list
    }

    /// `1 + S·K`: the ids of "end the play" and of every piece step.
    pub fn step_actions(&self) -> usize {
        1 + self.sources() * self.classes
    }

    /// The size of the `step` encoding: [`Encoder::step_actions`] plus the special ids.
    pub fn step_encoding_size(&self) -> usize {
        self.step_actions() + self.system.rl_special_count()
    }

    /// The step id of `step`, taken from position `s` in a play of `acting` (see
    /// [`Encode::rl_acting_owner`]), or `None` when the step is outside the encoding (a bug the
    /// tests look for).
    ///
    /// ```
    /// use pachisi::{Node, Orders, Roll, RuleSystem, SystemRules, backgammon::BackgammonRules};
    /// use pachisi::rl::Encoder;
    /// let sys = BackgammonRules { cube: false, ..BackgammonRules::standard() }.build().unwrap();
    /// let enc = Encoder::new(&sys);
    /// let mut s = sys.initial_state();
    /// sys.begin_roll(&mut s, Roll::Dice([3, 1])); // seat 0 opens with 3-1
    /// let mut plays = Vec::new();
    /// sys.generate(&s, Orders::All, &mut plays);
    /// let first = plays[0].steps()[0];
    /// let id = enc.step_action(&s, 0, &first).unwrap();
    /// assert_eq!(id, 1 + first.from as usize * 6 + first.value as usize - 1);
    /// ```
    #[inline]
    pub fn step_action(&self, s: &R::State, acting: u8, step: &Step) -> Option<usize> {
        if let Some(i) = self.system.rl_special(step) {
            return Some(self.step_actions() + i);
        }
        let owners = self.system.owners();
        let offset = (step.seat + owners - acting % owners) % owners;
        let rel = self.rel_of[offset as usize & 15];
        let class = self.class_of[class_key(step.value, step.count, self.system.rl_branch(step))];
        let from = self.system.rl_source(s, step) as usize;
        if rel == u8::MAX || class == NO_CLASS || from >= self.positions {
            return None;
        }
        let source = rel as usize * self.positions + from;
        Some(1 + source * self.classes + class as usize)
    }

    /// The words of a step id: `end`; `o<offset>:<from>+<value>`, then `x<count>` for a step of
    /// several pieces and `/b<branch>` for a branch, for a piece step (`offset`: the owner's
    /// place after the acting one, `from` the source position); or the special's name
    /// (`double`, `no-double`, `take`, `drop`). An id at or above
    /// [`Encoder::step_encoding_size`] is `invalid <id>`.
    ///
    /// ```
    /// use pachisi::{SystemRules, parcheesi::ParcheesiRules, rl::Encoder};
    /// let enc = Encoder::new(&ParcheesiRules::parcheesi().build().unwrap());
    /// assert_eq!(enc.describe_step_action(0), "end");
    /// assert_eq!(enc.describe_step_action(1 + 3 * 16 + 4), "o0:3+5");
    /// // Parcheesi has no specials: the first id past the steps is no `double`.
    /// let past = enc.step_encoding_size();
    /// assert_eq!(enc.describe_step_action(past), format!("invalid {past}"));
    /// ```
    pub fn describe_step_action(&self, action: usize) -> String {
        if action == 0 {
            return "end".into();
        }
        if action >= self.step_encoding_size() {
            return format!("invalid {action}");
        }
        if action >= self.step_actions() {
            return match action - self.step_actions() {
                0 => "double".into(),
                1 => "no-double".into(),
                2 => "take".into(),
                3 => "drop".into(),
                i => format!("special{i}"),
            };
        }
        let a = action - 1;
        let (source, class) = (a / self.classes, a % self.classes);
        let (rel, from) = (source / self.positions, source % self.positions);
        let (value, count, branch) = self.class_list[class];
        let offset = self.system.rl_offsets()[rel];
        let mut text = format!("o{offset}:{from}+{value}");
        if count > 1 {
            text.push_str(&format!("x{count}"));
        }
        if branch > 0 {
            text.push_str(&format!("/b{branch}"));
        }
        text
    }

    /// The length of the observation vector.
    pub fn observation_size(&self) -> usize {
        self.size
    }

    /// The named views of the observation vector, in order.
    ///
    /// ```
    /// use pachisi::{SystemRules, family::FamilyRules, rl::Encoder};
    /// let enc = Encoder::new(&FamilyRules::family().build().unwrap());
    /// assert_eq!(enc.views()[0].name, "occupancy");
    /// assert_eq!(enc.view("tries").unwrap().size(), 1);
    /// ```
    pub fn views(&self) -> &[View] {
        &self.views
    }

    /// The view called `name`.
    pub fn view(&self, name: &str) -> Option<&View> {
        self.views.iter().find(|v| v.name == name)
    }

    /// Writes the observation of `s` (the position with the steps `taken` so far in the current
    /// play applied) from `observer`'s point of view into `out` (length
    /// [`Encoder::observation_size`]). Owners and seats are listed relative to the observer
    /// (itself first, then the next ones in turn order).
    ///
    /// # Panics
    /// When `out` is shorter than [`Encoder::observation_size`].
    pub fn write_observation(&self, s: &R::State, taken: &[Step], observer: u8, out: &mut [f32]) {
        let out = &mut out[..self.size];
        out.fill(0.0);
        let sys = &self.system;
        let owners = sys.owners();
        let seats = sys.seats();
        let p = self.positions;
        let (nest, home) = sys.rl_nest_home();
        // The observer's own colour (seat `o` owns colour `o` in every system).
        let me = observer % owners;
        let mut at = 0;
        for r in 0..owners {
            let owner = (me + r) % owners;
            let row = &mut out[at + r as usize * p..at + (r as usize + 1) * p];
            sys.rl_occupancy(s, owner, row);
        }
        at += owners as usize * p;
        for r in 0..owners as usize {
            out[at + r] = out[r * p + nest as usize];
            out[at + owners as usize + r] = out[r * p + home as usize];
        }
        at += 2 * owners as usize;
        out[at..at + p].copy_from_slice(&self.safe[me as usize]);
        at += p;
        if sys.node(s) != crate::system::Node::Over {
            let mover = sys.to_move(s);
            out[at + ((mover + seats - observer % seats) % seats) as usize] = 1.0;
        }
        at += seats as usize;
        let team = sys.team(observer);
        for r in 0..seats {
            let seat = (observer + r) % seats;
            if team & (1 << seat) != 0 {
                out[at + r as usize] = 1.0;
            }
        }
        at += seats as usize;
        for step in taken {
            let key = class_key(step.value, step.count, sys.rl_branch(step));
            let class = self.class_of[key];
            if class != NO_CLASS && sys.rl_special(step).is_none() {
                out[at + class as usize] += 1.0;
            }
        }
        at += self.classes;
        sys.rl_write_extra(s, taken, observer, &mut out[at..]);
    }
}

/// Views laid out one after the other from offset 0, and the total length.
pub(crate) fn lay_out_views(shapes: Vec<(&'static str, Vec<usize>)>) -> (Vec<View>, usize) {
    let mut views = Vec::with_capacity(shapes.len());
    let mut offset = 0;
    for (name, shape) in shapes {
        let v = View {
            name,
            offset,
            shape,
        };
        offset += v.size();
        views.push(v);
    }
    (views, offset)
}

/// The index of an amount class's key in [`Encoder`]'s table.
#[inline]
fn class_key(value: u8, count: u8, branch: u8) -> usize {
    value as usize * 16 + (count as usize).min(7) * 2 + (branch as usize & 1)
}

/// Writes a one-hot of `value` into `out` (nothing when out of range).
pub(crate) fn one_hot(out: &mut [f32], value: usize) {
    if let Some(x) = out.get_mut(value) {
        *x = 1.0;
    }
}

/// The kinds of step that move a piece (the others are backgammon's cube decisions).
pub(crate) fn moves_piece(step: &Step) -> bool {
    matches!(
        step.kind,
        StepKind::Move | StepKind::Enter | StepKind::Bonus
    )
}
