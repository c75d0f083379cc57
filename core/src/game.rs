//! Turn flow shared by every rule system: a game with its seeded generator, history, undo and
//! redo, explicit chance, whole plays and the step-by-step interface, and JSON of the whole game.
//!
//! ## Cost model
//!
//! - **One generation per decision.** The legal plays of a decision node are generated at most
//!   once, and kept in the game until it changes (any roll, play, step, finish, undo, redo or
//!   load drops them). [`GameOf::legal_plays`], [`GameOf::legal_steps`], [`GameOf::play`]
//!   (validated by looking the play up) and [`GameOf::play_index`] (no validation needed) all
//!   read that list. The forfeit check that follows every roll and play asks the rule system
//!   first ([`RuleSystem::has_play`]: backgammon answers from its move bitmasks), so there a roll
//!   generates nothing and the plays are made on first use; other systems generate them for the
//!   check. The list is behind a [`OnceLock`], so concurrent readers of one game (the C ABI
//!   allows them) make it once.
//! - **Lists handed out without copies.** [`GameOf::legal_plays_shared`] gives a reference-counted
//!   handle to that list ([`SharedPlays`]), and [`GameOf::plays_are_current`] tells whether a
//!   game still stands at the node of a handle, so a binding can play an element of a list it
//!   handed out by index, with no lookup.
//! - **A small game.** The rule system (with its lookup tables) and the rules are shared by every
//!   copy of a game (reference-counted, never copied); the history is a persistent list of
//!   compact records (the position before the action, the generator, how many steps were taken,
//!   and the events of the action), shared between copies: [`Clone`] copies a few hundred bytes
//!   whatever the length of the game, and the first action after a copy adds one record without
//!   copying the others.

use crate::dice::{ChanceOutcome, GameRng, Roll, rng_from_seed};
use crate::play::{Play, Step, StepKind, dedup_by_result};
use crate::registry::{Registered, SystemVisitor};
use crate::rules::Rules;
use crate::system::{BoardKind, Node, Orders, Outcome, PieceView, Place, RuleSystem, SystemRules};
use crate::{Error, Result};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, OnceLock};

/// Writes the move notation of a play of the roll it was made for (see [`Game::play_formatter`]).
pub type PlayFormatter = std::sync::Arc<dyn Fn(&Play) -> String + Send + Sync>;

/// One thing that happened in a game, in order.
///
/// The game's *log* ([`Game::log`], saved in its JSON) holds the actions and forfeits: `Roll`,
/// `Play` and `Forfeit`. The *events* of an action ([`Game::events`], [`Game::history`]) add
/// what the action caused: `Step` (a step taken alone), `Capture`, `Bonus`, `Penalty`,
/// `ExtraRoll` and `GameOver`.
///
/// ```
/// use pachisi::{Event, Game, Roll};
/// let mut g = Game::from_preset("parcheesi", 1).unwrap();
/// g.set_roll(Roll::Dice([5, 5])).unwrap();
/// assert!(matches!(g.events()[0], Event::Roll { seat: 0, .. }));
/// let play = g.legal_plays()[0];
/// g.play(&play).unwrap();
/// // Doubles: the seat rolls again.
/// assert!(g.events().contains(&Event::ExtraRoll { seat: 0 }));
/// ```
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
    /// `seat` took one step of its play with [`Game::step`] (the play goes on).
    Step {
        /// Who is playing.
        seat: u8,
        /// The step.
        step: Step,
    },
    /// A step captured (sent back) opposing pieces.
    Capture {
        /// The seat playing.
        seat: u8,
        /// The owner of the capturing piece (a partner's when a finished seat plays for it).
        owner: u8,
        /// The owner of the captured pieces, when the position shows it.
        victim: Option<u8>,
        /// How many pieces were captured.
        count: u8,
        /// Where, in board coordinates.
        place: Place,
    },
    /// A bonus move was played (Parcheesi's 20 for a capture and 10 for home, Online's 10).
    Bonus {
        /// The seat playing.
        seat: u8,
        /// The owner of the piece moved.
        owner: u8,
        /// The squares moved.
        value: u8,
    },
    /// The roll was punished before any move (third doubles in a row sends a piece back and
    /// passes the turn).
    Penalty {
        /// The seat punished.
        seat: u8,
    },
    /// `seat` rolls again after its play (doubles, a grace throw).
    ExtraRoll {
        /// Who rolls again.
        seat: u8,
    },
    /// The game ended.
    GameOver {
        /// How.
        outcome: Outcome,
    },
}

impl Event {
    /// Whether the event belongs to the game's log (an action or a forfeit: `Roll`, `Play`,
    /// `Forfeit`), rather than only to the events of an action.
    ///
    /// ```
    /// assert!(pachisi::Event::Forfeit { seat: 0 }.is_logged());
    /// assert!(!pachisi::Event::ExtraRoll { seat: 0 }.is_logged());
    /// ```
    pub fn is_logged(&self) -> bool {
        matches!(
            self,
            Event::Roll { .. } | Event::Play { .. } | Event::Forfeit { .. }
        )
    }
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

/// The rule system and rules of a game: built once, shared by every copy.
#[derive(Debug)]
struct Shared<R> {
    system: R,
    rules: Rules,
    /// The rules' JSON text in the record, written on first use.
    rules_text: OnceLock<String>,
}

/// One action of the history: what undo needs (the position at the start of the play before it,
/// the generator, how many steps of the play were taken, the log length) and what happened.
/// The steps taken before are not stored: they begin the action's play, or the steps taken
/// after it (see [`Record::taken_before`]).
#[derive(Debug)]
struct Record<S> {
    parent: Option<Arc<Record<S>>>,
    depth: u32,
    state: S,
    rng: GameRng,
    taken_len: u8,
    log_len: u32,
    /// Rolls made before the action.
    rolls: u32,
    events: Events,
    /// The entry's parts of the JSON record, written on first use: a record never changes and
    /// copies of a game share it, so a record is written once however often it is saved. Boxed:
    /// most records are never saved, and every action allocates and copies its record.
    text: OnceLock<Box<RecordText>>,
}

/// The events of one action, in order. Most actions cause one (a roll, a play), which is kept
/// in place, so that recording such an action allocates only its record; more (a capture, a
/// forfeit, an extra roll, the end of the game: 7-18% of actions in random games of the
/// presets) move to the heap. One place, not two: every action allocates and copies its record,
/// and an event is 196 bytes (docs/PERFORMANCE.md, Python).
type Events = smallvec::SmallVec<[Event; 1]>;

/// A history entry's parts of the game's JSON text (see [`GameOf::to_json`]).
#[derive(Debug)]
struct RecordText {
    /// Its snapshot up to its `taken` field, which depends on the entry after it:
    /// `{"log_len":…,"rng":…,"state":…,` (keys sorted as `serde_json::Value` writes them).
    snapshot: String,
    /// Its logged events as JSON, comma-separated (empty when it logged none).
    log: String,
}

/// `value` as JSON text, exactly as `serde_json::to_value(value)?.to_string()` writes it (keys
/// sorted), which is how the record's text was always written.
fn value_text<T: Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_value(value)
        .unwrap_or(Value::Null)
        .to_string()
}

/// The logged ones of `events` as JSON, comma-separated (empty when none is logged).
fn logged_text(events: &[Event]) -> String {
    let parts: Vec<String> = events
        .iter()
        .filter(|e| e.is_logged())
        .map(value_text)
        .collect();
    parts.join(",")
}

impl<S: Serialize> Record<S> {
    /// The entry's parts of the JSON text, written on first use.
    fn text(&self) -> &RecordText {
        self.text.get_or_init(|| {
            // The snapshot without `taken`, its last key, as `serde_json::Value` writes it.
            let snapshot = format!(
                "{{\"log_len\":{},\"rng\":{},\"state\":{},",
                self.log_len,
                crate::dice::rng_serde::json_text(&self.rng),
                value_text(&self.state)
            );
            Box::new(RecordText {
                snapshot,
                log: logged_text(&self.events),
            })
        })
    }
}

impl<S> Record<S> {
    /// The play this action made, if it made one.
    fn play(&self) -> Option<&Play> {
        self.events.iter().find_map(|e| match e {
            Event::Play { play, .. } => Some(play),
            _ => None,
        })
    }

    /// The steps taken before the action, given those taken after it.
    fn taken_before(&self, after: &Play) -> Play {
        let source = self.play().unwrap_or(after);
        let n = (self.taken_len as usize).min(source.len());
        Play::from_steps(&source.steps()[..n])
    }
}

impl<S> Drop for Record<S> {
    fn drop(&mut self) {
        // Drop a long chain iteratively: recursion would overflow the stack. A record no one
        // else holds gives up its parent and is freed where it is (not moved out first).
        let mut next = self.parent.take();
        while let Some(mut rec) = next {
            match Arc::get_mut(&mut rec) {
                Some(only) => next = only.parent.take(),
                None => break,
            }
        }
    }
}

/// A state undo left behind, for redo.
#[derive(Debug)]
struct Redo<S> {
    next: Option<Arc<Redo<S>>>,
    start: S,
    taken: Play,
    rng: GameRng,
    head: Option<Arc<Record<S>>>,
    log_count: u32,
    roll_count: u32,
}

impl<S> Drop for Redo<S> {
    fn drop(&mut self) {
        let mut next = self.next.take();
        while let Some(mut r) = next {
            match Arc::get_mut(&mut r) {
                Some(only) => next = only.next.take(),
                None => break,
            }
        }
    }
}

/// The lists of the current decision node, each made at most once.
#[derive(Debug, Default)]
struct Cache {
    /// [`GameOf::legal_plays`].
    plays: OnceLock<Vec<Play>>,
    /// Every order of every play from the start of the play.
    all: OnceLock<Vec<Play>>,
    /// [`GameOf::legal_steps`].
    steps: OnceLock<Vec<Step>>,
}

/// The legal plays of one decision node, shared with the games that keep them: a
/// reference-counted handle ([`GameOf::legal_plays_shared`]), so a binding can hand the list out
/// without copying it and later ask whether a game still stands at that node
/// ([`GameOf::plays_are_current`]).
///
/// ```
/// let mut g = pachisi::Game::from_preset("backgammon", 1).unwrap();
/// g.roll().unwrap();
/// let plays = g.legal_plays_shared();
/// assert_eq!(&plays[..], g.legal_plays_ref());
/// assert!(g.plays_are_current(&plays));
/// g.play_index(0).unwrap();
/// // The handle keeps its list; the game has moved on.
/// assert!(!g.plays_are_current(&plays));
/// assert!(!plays.is_empty());
/// ```
#[derive(Clone, Debug)]
pub struct SharedPlays(Arc<Cache>);

impl std::ops::Deref for SharedPlays {
    type Target = [Play];
    fn deref(&self) -> &[Play] {
        // Made before the handle was (`legal_plays_shared`).
        self.0.plays.get().map_or(&[], Vec::as_slice)
    }
}

/// What an action records before it changes anything.
struct Before<S> {
    state: S,
    rng: GameRng,
    taken_len: u8,
    log_len: u32,
    rolls: u32,
}

/// One action of a game's history and everything it caused (see [`Game::history`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HistoryEntry {
    /// The seat that acted (rolled, played or took a step).
    pub seat: u8,
    /// The events, in order; the first is the action (`Roll`, `Play` or `Step`).
    pub events: Vec<Event>,
}

/// What a renderer draws, as plain data (see [`Game::board_data`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoardData {
    /// The board.
    pub board: BoardKind,
    /// What happens next.
    pub node: Node,
    /// The seat to roll or to play.
    pub to_move: u8,
    /// The roll being played, at a decision node after a roll.
    pub roll: Option<Roll>,
    /// Every piece (or group of pieces) and its place in board coordinates.
    pub pieces: Vec<PieceView>,
    /// The safe squares and castles of these rules.
    pub safe: Vec<Place>,
}

/// FNV-1a, 64 bits: a fixed hash function, so [`GameOf::position_hash`] does not change between
/// runs (std's default hasher is randomly keyed per process).
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= *b as u64;
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

/// A game of one rule system: its position, the steps taken in the current play, the generator
/// and the history. Use [`Game`] to choose the system at run time.
#[derive(Clone, Debug)]
pub struct GameOf<R: RuleSystem> {
    shared: Arc<Shared<R>>,
    /// Position at the start of the current play (or at a chance node).
    start: R::State,
    /// Steps of the current play taken one by one.
    taken: Play,
    /// `start` with `taken` applied.
    current: R::State,
    rng: GameRng,
    /// The last action (the history, newest first).
    head: Option<Arc<Record<R::State>>>,
    /// Log events so far.
    log_count: u32,
    /// Rolls so far (for the `max_rolls` cap, G-A).
    roll_count: u32,
    /// Forfeits before the first action (a game from a position may open with them).
    opening: Vec<Event>,
    /// States undo left, the next to redo first.
    redo: Option<Arc<Redo<R::State>>>,
    /// The lists of the current node (shared by copies: they never change once made).
    cache: OnceLock<Arc<Cache>>,
}

/// Two games are equal when everything their records ([`GameOf::to_json`]) hold is equal: the
/// rules, the position at the start of the play, the steps taken, the generator, and the whole
/// history (for every action: the position and generator before it, the steps taken before it,
/// and the events it logged: its roll, play or forfeits), with the rolls counted, and the
/// forfeits a game from a position opened with. Equal games write the same record, and a game
/// read back from its record equals it. What a record does not keep is not compared: the events
/// an action caused that are not logged (a step taken alone, which a record cannot tell from a
/// play when it ends the play; captures, bonuses, extra rolls and the end of the game, which
/// follow from the actions) and what [`GameOf::redo`] could make again.
///
/// Cheap for copies: a game's copies share its history, and the comparison stops at the first
/// history entry both games share, so comparing a game with a copy of it made before a few
/// actions compares those few entries, whatever the length of the game.
///
/// ```
/// let mut g = pachisi::Game::from_preset("parcheesi", 3).unwrap();
/// let copy = g.clone();
/// g.roll().unwrap();
/// assert!(g != copy);
/// g.undo().unwrap();
/// assert!(g == copy);
/// // A game with another generator (another seed) is another game.
/// assert!(g != pachisi::Game::from_preset("parcheesi", 4).unwrap());
/// ```
impl<R: RuleSystem> PartialEq for GameOf<R> {
    fn eq(&self, other: &GameOf<R>) -> bool {
        (Arc::ptr_eq(&self.shared, &other.shared) || self.rules() == other.rules())
            && self.start == other.start
            && self.taken == other.taken
            && self.current == other.current
            && self.rng == other.rng
            && self.log_count == other.log_count
            && self.roll_count == other.roll_count
            // What a game from a position opened with: the record keeps the logged events
            // (forfeits), not the end of a game that was already over.
            && logged(&self.opening).eq(logged(&other.opening))
            && same_history(self.head.as_deref(), other.head.as_deref())
    }
}

/// The logged ones of `events` (what a record keeps of them).
fn logged(events: &[Event]) -> impl Iterator<Item = &Event> {
    events.iter().filter(|e| e.is_logged())
}

/// Whether two histories (newest entry first) hold the same entries: compared entry by entry
/// until an entry both share (the rest is then the same).
fn same_history<S: PartialEq>(mut a: Option<&Record<S>>, mut b: Option<&Record<S>>) -> bool {
    loop {
        match (a, b) {
            (None, None) => return true,
            (Some(x), Some(y)) => {
                if std::ptr::eq(x, y) {
                    return true;
                }
                // Every field but the text written from them.
                if x.depth != y.depth
                    || x.state != y.state
                    || x.rng != y.rng
                    || x.taken_len != y.taken_len
                    || x.log_len != y.log_len
                    || x.rolls != y.rolls
                    || !logged(&x.events).eq(logged(&y.events))
                {
                    return false;
                }
                a = x.parent.as_deref();
                b = y.parent.as_deref();
            }
            _ => return false,
        }
    }
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

/// A record as [`Game::from_json`] first reads it: [`GameJson`] with its rules left as their
/// text (a slice of the record, read once before) and its log read by [`FastEvent`]. It accepts
/// a record only when [`GameJson`] accepts it with the same values; a record it rejects with
/// [`UNUSUAL`] may still read as a [`GameJson`].
#[derive(Deserialize)]
#[serde(bound = "S: Serialize + serde::de::DeserializeOwned")]
struct FastJson<'a, S> {
    #[serde(borrow)]
    rules: &'a serde_json::value::RawValue,
    state: S,
    taken: Play,
    #[serde(with = "crate::dice::rng_serde")]
    rng: GameRng,
    history: Vec<Snapshot<S>>,
    log: Vec<FastEvent>,
}

/// The error [`FastEvent`] gives for an event in a layout it leaves to [`Event`]'s own reading.
const UNUSUAL: &str = "\u{0}an event in a layout left to the general reading";

/// A logged event read straight from a JSON object whose first key is its tag (`event`: `roll`,
/// `play` or `forfeit`) followed by exactly its fields, as records are written. [`Event`]'s
/// derived reading (internally tagged) first copies each event into a buffer, where the tag may
/// be anywhere; this one reads the same events to the same values without the buffer. Any other
/// layout (the tag elsewhere, another event, a missing, repeated or unknown key, not an object)
/// fails with [`UNUSUAL`], to be read again by [`Event`]'s own reading; the only other errors
/// are those of a field's value (or of the JSON text), which [`Event`] rejects too.
struct FastEvent(Event);

impl<'de> Deserialize<'de> for FastEvent {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        use serde::de::{Error as _, MapAccess, SeqAccess, Visitor};
        use std::fmt;

        /// A key or tag of an event, matched without copying it.
        #[derive(PartialEq, Eq, Clone, Copy)]
        enum Word {
            Event,
            Seat,
            Roll,
            Play,
            Forfeit,
            Other,
        }
        impl<'de> Deserialize<'de> for Word {
            fn deserialize<D: serde::Deserializer<'de>>(
                d: D,
            ) -> std::result::Result<Self, D::Error> {
                struct W;
                impl Visitor<'_> for W {
                    type Value = Word;
                    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                        f.write_str("a string")
                    }
                    fn visit_str<E: serde::de::Error>(
                        self,
                        v: &str,
                    ) -> std::result::Result<Word, E> {
                        Ok(match v {
                            "event" => Word::Event,
                            "seat" => Word::Seat,
                            "roll" => Word::Roll,
                            "play" => Word::Play,
                            "forfeit" => Word::Forfeit,
                            _ => Word::Other,
                        })
                    }
                }
                d.deserialize_str(W)
            }
        }

        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = FastEvent;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a logged event")
            }
            fn visit_map<A: MapAccess<'de>>(
                self,
                mut map: A,
            ) -> std::result::Result<FastEvent, A::Error> {
                let unusual = || A::Error::custom(UNUSUAL);
                // Keys and the tag: anything unexpected (even an error) is left to `Event`.
                if map.next_key::<Word>().map_err(|_| unusual())? != Some(Word::Event) {
                    return Err(unusual());
                }
                let tag = map.next_value::<Word>().map_err(|_| unusual())?;
                let (mut seat, mut roll, mut play) = (None, None, None);
                while let Some(key) = map.next_key::<Word>().map_err(|_| unusual())? {
                    match (tag, key) {
                        (Word::Roll | Word::Play | Word::Forfeit, Word::Seat) if seat.is_none() => {
                            seat = Some(map.next_value::<u8>()?)
                        }
                        (Word::Roll, Word::Roll) if roll.is_none() => {
                            roll = Some(map.next_value::<Roll>()?)
                        }
                        (Word::Play, Word::Play) if play.is_none() => {
                            play = Some(map.next_value::<Play>()?)
                        }
                        _ => return Err(unusual()),
                    }
                }
                let event = match (tag, seat, roll, play) {
                    (Word::Roll, Some(seat), Some(roll), None) => Event::Roll { seat, roll },
                    (Word::Play, Some(seat), None, Some(play)) => Event::Play { seat, play },
                    (Word::Forfeit, Some(seat), None, None) => Event::Forfeit { seat },
                    _ => return Err(unusual()),
                };
                Ok(FastEvent(event))
            }
            // Every other kind of JSON value is left to `Event` (which reads an array, say).
            fn visit_seq<A: SeqAccess<'de>>(
                self,
                _: A,
            ) -> std::result::Result<FastEvent, A::Error> {
                Err(A::Error::custom(UNUSUAL))
            }
            fn visit_str<E: serde::de::Error>(self, _: &str) -> std::result::Result<FastEvent, E> {
                Err(E::custom(UNUSUAL))
            }
            fn visit_bool<E: serde::de::Error>(self, _: bool) -> std::result::Result<FastEvent, E> {
                Err(E::custom(UNUSUAL))
            }
            fn visit_i64<E: serde::de::Error>(self, _: i64) -> std::result::Result<FastEvent, E> {
                Err(E::custom(UNUSUAL))
            }
            fn visit_u64<E: serde::de::Error>(self, _: u64) -> std::result::Result<FastEvent, E> {
                Err(E::custom(UNUSUAL))
            }
            fn visit_f64<E: serde::de::Error>(self, _: f64) -> std::result::Result<FastEvent, E> {
                Err(E::custom(UNUSUAL))
            }
            fn visit_unit<E: serde::de::Error>(self) -> std::result::Result<FastEvent, E> {
                Err(E::custom(UNUSUAL))
            }
        }
        d.deserialize_any(V)
    }
}

/// How [`GameOf::from_fast_json`] ended: `Ok` with what the general reading would have given
/// (the game, or its error), or the reading it leaves the record to.
type FastRead = std::result::Result<Result<Game>, LeftTo>;

/// The reading [`GameOf::from_fast_json`] leaves a record to.
enum LeftTo {
    /// The record does not read into its types: only the reading through a JSON value (which
    /// names the field) is left.
    Value,
    /// Not known: the general reading decides.
    General,
}

impl<R: RuleSystem> GameOf<R> {
    /// A new game from the starting position.
    ///
    /// `rules` must be the rules `system` was built from ([`SystemRules::build`] of
    /// `rules.config()`'s options): the game plays by `system` but reports `rules`, writes them
    /// in its record ([`GameOf::to_json`]) and is read back by them. That is not checked (the
    /// systems have no equality); with other rules the record reads back as another game or
    /// not at all. [`Game::new`] and [`Game::from_position`] build the system from the rules.
    pub fn new(system: R, rules: Rules, seed: u64) -> GameOf<R> {
        let state = system.initial_state();
        GameOf {
            shared: Arc::new(Shared {
                system,
                rules,
                rules_text: OnceLock::new(),
            }),
            start: state,
            taken: Play::new(),
            current: state,
            rng: rng_from_seed(seed),
            head: None,
            log_count: 0,
            roll_count: 0,
            opening: Vec::new(),
            redo: None,
            cache: OnceLock::new(),
        }
    }

    /// A game from a given (validated) position; `rules` as for [`GameOf::new`].
    pub fn from_state(system: R, rules: Rules, state: R::State, seed: u64) -> Result<GameOf<R>> {
        system.validate_state(&state)?;
        let mut g = GameOf::new(system, rules, seed);
        g.start = state;
        g.current = state;
        let mut events = Events::new();
        g.after_change(&mut events);
        g.log_count = events.iter().filter(|e| e.is_logged()).count() as u32;
        g.opening = events.to_vec();
        Ok(g)
    }

    /// The rule system.
    pub fn system(&self) -> &R {
        &self.shared.system
    }
    /// The rules this game plays by.
    pub fn rules(&self) -> &Rules {
        &self.shared.rules
    }
    /// The current position (with the steps of an unfinished play applied).
    pub fn state(&self) -> &R::State {
        &self.current
    }
    /// The steps of the current play taken so far with [`GameOf::step`].
    pub fn taken(&self) -> &[Step] {
        self.taken.steps()
    }

    /// The records of the history, newest first.
    fn records(&self) -> impl Iterator<Item = &Record<R::State>> {
        std::iter::successors(self.head.as_deref(), |r| r.parent.as_deref())
    }

    /// The history, newest first, each entry with the steps taken before its action (found from
    /// the steps taken after it, [`Record::taken_before`]).
    fn records_with_taken(&self) -> impl Iterator<Item = (&Record<R::State>, Play)> {
        let mut after = self.taken;
        self.records().map(move |r| {
            let taken = r.taken_before(&after);
            after = taken;
            (r, taken)
        })
    }

    /// The log: every roll, play and forfeit so far, in order.
    pub fn log(&self) -> Vec<Event> {
        let mut recs: Vec<&Record<R::State>> = self.records().collect();
        recs.reverse();
        let mut out = Vec::with_capacity(self.log_count as usize);
        out.extend(self.opening.iter().filter(|e| e.is_logged()));
        for r in recs {
            out.extend(r.events.iter().filter(|e| e.is_logged()));
        }
        out
    }

    /// The number of events in the log.
    pub fn log_len(&self) -> usize {
        self.log_count as usize
    }

    /// The events of the last action (empty before the first; a game made from a position
    /// reports the forfeits it opened with).
    pub fn events(&self) -> &[Event] {
        match &self.head {
            Some(r) => &r.events,
            None => &self.opening,
        }
    }

    /// Every action so far, oldest first, with the events it caused.
    pub fn history(&self) -> Vec<HistoryEntry> {
        let mut out: Vec<HistoryEntry> = self
            .records()
            .map(|r| HistoryEntry {
                seat: match r.events.first() {
                    Some(Event::Roll { seat, .. } | Event::Play { seat, .. })
                    | Some(Event::Step { seat, .. }) => *seat,
                    _ => self.system().to_move(&r.state),
                },
                events: r.events.to_vec(),
            })
            .collect();
        out.reverse();
        out
    }

    /// What happens next: [`Node::Over`] also when the game is truncated (G-A).
    pub fn node(&self) -> Node {
        match self.system().node(&self.current) {
            Node::Chance if self.past_max_rolls() => Node::Over,
            n => n,
        }
    }
    /// Rolls (chance events) made since the game began, or since its starting position.
    pub fn rolls(&self) -> usize {
        self.roll_count as usize
    }
    fn past_max_rolls(&self) -> bool {
        self.roll_count >= self.system().max_rolls()
    }
    /// Whether the game ended because a roll was due after the rules' `max_rolls` rolls: it is
    /// over with no winner (decision G-A of `docs/RULES.md`).
    pub fn is_truncated(&self) -> bool {
        self.system().node(&self.current) == Node::Chance && self.past_max_rolls()
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
        self.system().to_move(&self.current)
    }
    /// Number of seats.
    pub fn seats(&self) -> u8 {
        self.system().seats()
    }
    /// How the game ended, if it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.system().outcome(&self.current)
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
            self.system().chance_outcomes(&self.current)
        } else {
            Vec::new()
        }
    }

    fn before(&self) -> Before<R::State> {
        Before {
            state: self.start,
            rng: self.rng.clone(),
            taken_len: self.taken.len() as u8,
            log_len: self.log_count,
            rolls: self.roll_count,
        }
    }

    /// Records an action (its state before and its events); a new action clears redo.
    fn commit(&mut self, before: Before<R::State>, events: Events) {
        let (mut logged, mut rolled) = (0u32, 0u32);
        for e in &events {
            logged += u32::from(e.is_logged());
            rolled += u32::from(matches!(e, Event::Roll { .. }));
        }
        let depth = self.head.as_ref().map_or(0, |r| r.depth) + 1;
        self.head = Some(Arc::new(Record {
            parent: self.head.take(),
            depth,
            state: before.state,
            rng: before.rng,
            taken_len: before.taken_len,
            log_len: before.log_len,
            rolls: before.rolls,
            events,
            text: OnceLock::new(),
        }));
        self.log_count += logged;
        self.roll_count = before.rolls + rolled;
        self.redo = None;
    }

    /// Rolls with the game's generator and returns the roll.
    pub fn roll(&mut self) -> Result<Roll> {
        self.require(Node::Chance, "roll")?;
        // The record keeps the generator as it was, so undo restores it exactly.
        let before = self.before();
        let roll = self.shared.system.sample_roll(&self.current, &mut self.rng);
        self.apply_roll(roll, before);
        Ok(roll)
    }

    /// Sets the roll (for analysis or replay); validated for this variant and position.
    pub fn set_roll(&mut self, roll: Roll) -> Result<()> {
        self.require(Node::Chance, "roll")?;
        self.system().check_roll(&self.current, roll)?;
        let before = self.before();
        self.apply_roll(roll, before);
        Ok(())
    }

    fn apply_roll(&mut self, roll: Roll, before: Before<R::State>) {
        let seat = self.system().to_move(&self.current);
        let mut events = Events::from_buf([Event::Roll { seat, roll }]);
        let mut s = self.current;
        self.system().begin_roll(&mut s, roll);
        if self.system().roll_punished(&self.current, &s) {
            events.push(Event::Penalty { seat });
        }
        self.start = s;
        self.current = s;
        self.after_change(&mut events);
        self.commit(before, events);
    }

    /// The legal plays of a hypothetical roll at this chance node, without changing the game
    /// (one per distinct resulting position; empty when the roll could not be played or is
    /// resolved at once, as a third-doubles penalty is).
    ///
    /// ```
    /// use pachisi::{Game, Roll};
    /// let g = Game::from_preset("backgammon", 1).unwrap();
    /// let plays = g.plays_for_roll(Roll::Dice([6, 5])).unwrap();
    /// let mut h = g.clone();
    /// h.set_roll(Roll::Dice([6, 5])).unwrap();
    /// assert_eq!(plays, h.legal_plays());
    /// assert!(g.is_chance_node());
    /// ```
    pub fn plays_for_roll(&self, roll: Roll) -> Result<Vec<Play>> {
        self.require(Node::Chance, "list the plays of a roll")?;
        self.system().check_roll(&self.current, roll)?;
        let mut s = self.current;
        self.system().begin_roll(&mut s, roll);
        let mut out = Vec::new();
        if self.system().node(&s) == Node::Decision {
            self.system().generate(&s, Orders::Distinct, &mut out);
        }
        Ok(out)
    }

    /// Drops the lists of the node, forfeits rolls that cannot be played and reports the end of
    /// the game: what follows every change of position.
    fn after_change(&mut self, events: &mut Events) {
        // Each forfeit moves the turn on, so this ends; the bound guards a faulty system.
        for _ in 0..64 {
            self.cache = OnceLock::new();
            if self.system().node(&self.current) != Node::Decision || !self.taken.is_empty() {
                break;
            }
            // A system that can tell cheaply whether the roll is playable leaves the plays to be
            // generated when first needed; the others generate them here (and keep them).
            let playable = match self.system().has_play(&self.current) {
                Some(playable) => playable,
                None => !self.legal_plays_ref().is_empty(),
            };
            if playable {
                break;
            }
            let seat = self.system().to_move(&self.current);
            events.push(Event::Forfeit { seat });
            let mut s = self.current;
            self.system().end_play(&mut s, &[]);
            self.start = s;
            self.current = s;
        }
        if let Some(outcome) = self.outcome() {
            events.push(Event::GameOver { outcome });
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

    fn cache(&self) -> &Cache {
        self.cache.get_or_init(Default::default)
    }

    /// Every order of every legal play from the start of the play (made once per node).
    fn all_plays(&self) -> &[Play] {
        self.cache().all.get_or_init(|| {
            let mut out = Vec::new();
            if self.system().node(&self.start) == Node::Decision {
                self.system().generate(&self.start, Orders::All, &mut out);
            }
            out
        })
    }

    /// [`GameOf::legal_plays`] without a copy: the list the game keeps for this node.
    ///
    /// ```
    /// let mut g = pachisi::Game::from_preset("backgammon", 1).unwrap();
    /// g.roll().unwrap();
    /// assert_eq!(g.legal_plays_ref(), &g.legal_plays()[..]);
    /// ```
    pub fn legal_plays_ref(&self) -> &[Play] {
        self.cache().plays.get_or_init(|| self.generate_plays())
    }

    /// The list [`GameOf::legal_plays_ref`] reads, as a shared handle (no copy of the plays).
    ///
    /// ```
    /// let mut g = pachisi::Game::from_preset("parcheesi", 1).unwrap();
    /// g.roll().unwrap();
    /// assert_eq!(&g.legal_plays_shared()[..], &g.legal_plays()[..]);
    /// ```
    pub fn legal_plays_shared(&self) -> SharedPlays {
        self.legal_plays_ref();
        SharedPlays(self.cache.get_or_init(Default::default).clone())
    }

    /// Whether `plays` is the list of this game's current node: then its element `i` is legal
    /// play number `i` here ([`GameOf::play_index`]). A copy of a game made at that node shares
    /// the list; any change of the game gives it a new one.
    ///
    /// ```
    /// let mut g = pachisi::Game::from_preset("backgammon", 1).unwrap();
    /// g.roll().unwrap();
    /// let plays = g.legal_plays_shared();
    /// assert!(g.clone().plays_are_current(&plays));
    /// g.undo().unwrap();
    /// assert!(!g.plays_are_current(&plays));
    /// ```
    pub fn plays_are_current(&self, plays: &SharedPlays) -> bool {
        self.cache.get().is_some_and(|c| Arc::ptr_eq(c, &plays.0))
    }

    fn generate_plays(&self) -> Vec<Play> {
        let mut out = Vec::new();
        if self.system().node(&self.start) != Node::Decision {
            return out;
        }
        if self.taken.is_empty() {
            self.system()
                .generate(&self.start, Orders::Distinct, &mut out);
            return out;
        }
        out.extend(
            self.all_plays()
                .iter()
                .filter(|p| p.starts_with(self.taken.steps())),
        );
        // Compare positions after the turn flow: bookkeeping of an unfinished roll (values left,
        // blockade groups) must not make two plays with one resulting position look different.
        let mut results: Vec<R::State> = out
            .iter()
            .map(|p| {
                let mut s = self.result_of(p);
                self.system().end_play(&mut s, p.steps());
                s
            })
            .collect();
        dedup_by_result(&mut out, &mut results);
        out
    }

    /// Every legal complete play from the start of the current roll that begins with the steps
    /// already taken, one per distinct resulting position. Empty at a chance node or at the end.
    pub fn legal_plays(&self) -> Vec<Play> {
        self.legal_plays_ref().to_vec()
    }

    fn result_of(&self, play: &Play) -> R::State {
        let mut s = self.start;
        for step in play.steps() {
            self.system().apply_step(&mut s, step);
        }
        s
    }

    /// The position a legal play leads to, before the turn passes (for analysis).
    pub fn preview(&self, play: &Play) -> Result<R::State> {
        self.check_play(play)?;
        let mut s = self.result_of(play);
        self.system().end_play(&mut s, play.steps());
        Ok(s)
    }

    /// [`GameOf::legal_steps`] without a copy.
    pub fn legal_steps_ref(&self) -> &[Step] {
        self.cache().steps.get_or_init(|| {
            let mut out: Vec<Step> = Vec::new();
            for s in self.next_steps() {
                // Of two steps that differ in the piece's index alone (two pieces on one square,
                // which a position read back in the middle of a play may list apart), the
                // second is listed only when it reaches another state (P-D group marks).
                let repeats = |o: &Step| {
                    *o == s
                        || (Step {
                            piece: s.piece,
                            ..*o
                        } == s
                            && self.after_step(o) == self.after_step(&s))
                };
                if out.iter().any(repeats) {
                    continue;
                }
                out.push(s);
            }
            out
        })
    }

    /// The next step of every legal play that begins with the steps taken (with repeats).
    fn next_steps(&self) -> impl Iterator<Item = Step> + '_ {
        let k = self.taken.len();
        self.all_plays()
            .iter()
            .filter(move |p| p.len() > k && p.starts_with(self.taken.steps()))
            .map(move |p| p.steps()[k])
    }

    /// The state after `step` from the current one.
    fn after_step(&self, step: &Step) -> R::State {
        let mut t = self.current;
        self.system().apply_step(&mut t, step);
        t
    }

    /// The next steps that begin (or continue) at least one legal play; of two steps that differ
    /// in the piece's index alone and reach one position (two pieces on one square), one
    /// ([`GameOf::step`] takes the other too).
    pub fn legal_steps(&self) -> Vec<Step> {
        self.legal_steps_ref().to_vec()
    }

    fn check_play(&self, play: &Play) -> Result<()> {
        self.require(Node::Decision, "play")?;
        // The distinct plays first (what callers pick from), then every order.
        if self.taken.is_empty() && self.legal_plays_ref().contains(play) {
            return Ok(());
        }
        if self.all_plays().contains(play) {
            return Ok(());
        }
        // Not through the system's notation: writing a play applies its steps, and a system
        // applies only steps its generator made (arbitrary ones may not even be on the board).
        Err(Error::IllegalMove(format!(
            "`{}` (seat:from-to per step) is not a legal play here",
            raw_steps(play)
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
        self.commit_play(play);
        Ok(())
    }

    /// Makes legal play number `index` of [`GameOf::legal_plays`]: no generation and no lookup,
    /// the list is the one the game keeps for this node.
    ///
    /// ```
    /// let mut g = pachisi::Game::from_preset("backgammon", 1).unwrap();
    /// g.roll().unwrap();
    /// let third = g.legal_plays()[2];
    /// g.play_index(2).unwrap();
    /// assert_eq!(g.last_play().unwrap().1, third);
    /// assert!(g.play_index(9999).is_err());
    /// ```
    pub fn play_index(&mut self, index: usize) -> Result<()> {
        self.require(Node::Decision, "play")?;
        let plays = self.legal_plays_ref();
        let Some(play) = plays.get(index).copied() else {
            return Err(Error::IllegalMove(format!(
                "play index {index} is out of range ({} legal plays)",
                plays.len()
            )));
        };
        self.commit_play(&play);
        Ok(())
    }

    /// Makes a play known to be legal that begins with the steps taken.
    fn commit_play(&mut self, play: &Play) {
        let before = self.before();
        let seat = self.system().to_move(&self.start);
        let mut events = Events::from_buf([Event::Play { seat, play: *play }]);
        let mut s = self.current;
        for step in &play.steps()[self.taken.len()..] {
            self.step_events(&s, step, seat, &mut events);
            self.system().apply_step(&mut s, step);
        }
        self.finish(s, play, seat, &mut events);
        self.after_change(&mut events);
        self.commit(before, events);
    }

    /// The captures and bonus of one step from `s`.
    fn step_events(&self, s: &R::State, step: &Step, seat: u8, events: &mut Events) {
        if step.captured > 0 {
            let place = self.system().place(step.seat, step.to);
            let victim = self.system().captured_owner(s, step);
            events.push(Event::Capture {
                seat,
                owner: step.seat,
                victim,
                count: step.captured,
                place,
            });
        }
        if step.kind == StepKind::Bonus {
            events.push(Event::Bonus {
                seat,
                owner: step.seat,
                value: step.value,
            });
        }
    }

    /// Ends the play: the turn flow of the system, and an extra roll when the seat rolls again.
    fn finish(&mut self, mut s: R::State, play: &Play, seat: u8, events: &mut Events) {
        self.system().end_play(&mut s, play.steps());
        self.start = s;
        self.current = s;
        self.taken = Play::new();
        if self.system().node(&s) == Node::Chance && self.system().to_move(&s) == seat {
            events.push(Event::ExtraRoll { seat });
        }
    }

    /// Parses move notation into a legal play here.
    pub fn parse_play(&self, text: &str) -> Result<Play> {
        self.require(Node::Decision, "parse a play")?;
        self.system().parse_play(&self.start, text)
    }

    /// Makes the play written in move notation.
    pub fn play_notation(&mut self, text: &str) -> Result<()> {
        let p = self.parse_play(text)?;
        self.play(&p)
    }

    /// The move notation of a play from the current position.
    pub fn format_play(&self, play: &Play) -> String {
        self.system().format_play(&self.start, play)
    }

    /// A function writing the move notation of plays of the current roll (from the position at the
    /// start of the play), for lists of plays that are formatted later or not at all.
    pub fn play_formatter(&self) -> PlayFormatter {
        let (shared, start) = (self.shared.clone(), self.start);
        std::sync::Arc::new(move |p: &Play| shared.system.format_play(&start, p))
    }

    /// The move notation of every play in the log, with its index in the log, each written from
    /// the position before it (the history keeps those positions).
    pub fn log_notations(&self) -> Vec<(usize, String)> {
        let mut out: Vec<(usize, String)> = Vec::new();
        for r in self.records() {
            let mut i = r.log_len as usize;
            for e in r.events.iter() {
                if let Event::Play { play, .. } = e {
                    out.push((i, self.system().format_play(&r.state, play)));
                }
                if e.is_logged() {
                    i += 1;
                }
            }
        }
        out.reverse();
        out
    }

    /// The log as text, one event per line: `roll <seat> <roll>`, `play <seat> <move notation>`
    /// or `forfeit <seat>` (as the `replay` example prints a game, with forfeits too).
    pub fn log_text(&self) -> String {
        let notations: std::collections::HashMap<usize, String> =
            self.log_notations().into_iter().collect();
        let mut out = String::new();
        for (i, e) in self.log().iter().enumerate() {
            let line = match e {
                Event::Roll { seat, roll } => format!("roll {seat} {roll}"),
                Event::Play { seat, .. } => {
                    let text = notations.get(&i).map_or("?", String::as_str);
                    format!("play {seat} {text}")
                }
                Event::Forfeit { seat } => format!("forfeit {seat}"),
                _ => continue,
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
        // (Also a step that `legal_steps` leaves out as its twin's.)
        if !self.next_steps().any(|s| s == *step) {
            return Err(Error::IllegalMove(format!(
                "{step:?} is not a legal step here"
            )));
        }
        let before = self.before();
        let seat = self.system().to_move(&self.start);
        let mut events = Events::from_buf([Event::Step { seat, step: *step }]);
        self.step_events(&self.current, step, seat, &mut events);
        let mut taken = self.taken;
        taken.push(*step);
        let extends = self
            .all_plays()
            .iter()
            .any(|p| p.len() > taken.len() && p.starts_with(taken.steps()));
        self.taken = taken;
        let mut s = self.current;
        self.system().apply_step(&mut s, step);
        self.current = s;
        if !extends {
            events.push(Event::Play { seat, play: taken });
            self.finish(s, &taken, seat, &mut events);
        }
        self.after_change(&mut events);
        self.commit(before, events);
        Ok(())
    }

    /// Ends the current play with the steps taken so far (they must form a complete legal play;
    /// with none taken this is a pass, where the variant allows one).
    pub fn finish_play(&mut self) -> Result<()> {
        let play = self.taken;
        self.check_play(&play)?;
        let before = self.before();
        let seat = self.system().to_move(&self.start);
        let mut events = Events::from_buf([Event::Play { seat, play }]);
        self.finish(self.current, &play, seat, &mut events);
        self.after_change(&mut events);
        self.commit(before, events);
        Ok(())
    }

    fn recompute_current(&mut self) {
        let mut cur = self.start;
        for s in self.taken.steps() {
            self.system().apply_step(&mut cur, s);
        }
        self.current = cur;
        self.cache = OnceLock::new();
    }

    /// Takes back the last roll, play, step or finish (the generator is restored too); redo
    /// makes it again.
    pub fn undo(&mut self) -> Result<()> {
        let rec = self
            .head
            .clone()
            .ok_or_else(|| Error::WrongPhase("nothing to undo".into()))?;
        let taken = rec.taken_before(&self.taken);
        self.redo = Some(Arc::new(Redo {
            next: self.redo.take(),
            start: self.start,
            taken: self.taken,
            rng: self.rng.clone(),
            head: self.head.take(),
            log_count: self.log_count,
            roll_count: self.roll_count,
        }));
        self.start = rec.state;
        self.taken = taken;
        self.rng = rec.rng.clone();
        self.log_count = rec.log_len;
        self.roll_count = rec.rolls;
        self.head = rec.parent.clone();
        self.recompute_current();
        Ok(())
    }

    /// Makes again the last action undo took back (the same roll, play or step, with the same
    /// generator). Any new action clears what there was to redo.
    ///
    /// ```
    /// let mut g = pachisi::Game::from_preset("backgammon", 3).unwrap();
    /// g.roll().unwrap();
    /// let after = g.to_json();
    /// g.undo().unwrap();
    /// assert_eq!(g.redo_len(), 1);
    /// g.redo().unwrap();
    /// assert_eq!(g.to_json(), after);
    /// assert!(g.redo().is_err());
    /// ```
    pub fn redo(&mut self) -> Result<()> {
        let r = self
            .redo
            .take()
            .ok_or_else(|| Error::WrongPhase("nothing to redo".into()))?;
        self.start = r.start;
        self.taken = r.taken;
        self.rng = r.rng.clone();
        self.head = r.head.clone();
        self.log_count = r.log_count;
        self.roll_count = r.roll_count;
        self.redo = r.next.clone();
        self.recompute_current();
        Ok(())
    }

    /// How many actions [`GameOf::redo`] can make again.
    pub fn redo_len(&self) -> usize {
        std::iter::successors(self.redo.as_deref(), |r| r.next.as_deref()).count()
    }

    /// How many actions [`GameOf::undo`] can take back.
    pub fn history_len(&self) -> usize {
        self.head.as_ref().map_or(0, |r| r.depth as usize)
    }

    /// A hash of the position (the position at the start of the play and the steps taken), for
    /// transposition tables. Two games with equal positions ([`GameOf::same_position`]) have
    /// equal hashes. Stable within one version of the library on one platform (it hashes the
    /// state's fields with FNV-1a); not a format to store across versions.
    pub fn position_hash(&self) -> u64 {
        let mut h = Fnv(0xcbf2_9ce4_8422_2325);
        self.system().canonical_state(&self.start).hash(&mut h);
        self.taken.steps().hash(&mut h);
        h.finish()
    }

    /// Whether two games stand at the same position under the same rules (history, generator
    /// and log aside, and the order of two dice: see [`RuleSystem::canonical_state`]): the
    /// equality [`GameOf::position_hash`] goes with.
    pub fn same_position(&self, other: &GameOf<R>) -> bool {
        let sys = self.system();
        sys.canonical_state(&self.start) == sys.canonical_state(&other.start)
            && self.taken == other.taken
            && (Arc::ptr_eq(&self.shared, &other.shared) || self.rules() == other.rules())
    }

    /// The roll being played at a decision node (`None` at a chance node, at the end, and at a
    /// backgammon cube decision before the roll).
    pub fn pending_roll(&self) -> Option<Roll> {
        if self.node() != Node::Decision {
            return None;
        }
        for r in self.records() {
            for e in r.events.iter().rev() {
                match e {
                    Event::Roll { roll, .. } => return Some(*roll),
                    // A play or forfeit after the last roll: that roll is spent.
                    Event::Play { .. } | Event::Forfeit { .. } => return None,
                    _ => {}
                }
            }
        }
        None
    }

    /// The current position in the variant's notation.
    pub fn position(&self) -> String {
        self.system().format_position(&self.current)
    }

    /// The position at the start of the current play in the variant's notation: what
    /// [`GameOf::position`] shows when no step is taken, and with [`GameOf::taken`] what
    /// restores a game part-way through a play (a position with steps applied is not one the
    /// roll's plays start from).
    pub fn start_position(&self) -> String {
        self.system().format_position(&self.start)
    }

    /// The board this game is played on.
    pub fn board(&self) -> BoardKind {
        self.system().board()
    }

    /// Every piece and its place in the current position.
    pub fn pieces(&self) -> Vec<PieceView> {
        self.system().pieces(&self.current)
    }

    /// The squares where a piece cannot be captured (safe squares, castles), in board
    /// coordinates.
    pub fn safe_places(&self) -> Vec<Place> {
        self.system().safe_places()
    }

    /// The distinct legal plays by the system's slow reference generator (empty unless at a
    /// decision node with no step taken): for tests and perft data, not for play.
    pub fn reference_plays(&self) -> Vec<Play> {
        if self.node() != Node::Decision || !self.taken.is_empty() {
            return Vec::new();
        }
        self.system().reference_plays(&self.start)
    }

    /// The absolute place of a seat-relative position (a step's `from` or `to`).
    pub fn place(&self, seat: u8, pos: u8) -> Place {
        self.system().place(seat, pos)
    }

    /// [`GameOf::place`] for positions from outside: an [`Error::InvalidArgument`] for a seat
    /// that owns no pieces here or a position the system does not name. The seat is a step's
    /// (or a piece's) owner, [`Step::seat`]: `0..owners()`, the seats but in Classic Pachisi for
    /// two, whose players play two colours each (owners 0 to 3).
    pub fn checked_place(&self, seat: u8, pos: u8) -> Result<Place> {
        let (owners, max) = (self.system().owners(), self.system().max_position());
        if seat >= owners {
            return Err(Error::InvalidArgument(format!(
                "`seat` must be an owner of pieces 0..{owners}, got {seat}"
            )));
        }
        if pos > max {
            return Err(Error::InvalidArgument(format!(
                "`pos` must be a position 0..={max} of this game, got {pos}"
            )));
        }
        Ok(self.place(seat, pos))
    }

    /// The last play made (not a forfeit), with the seat that made it.
    pub fn last_play(&self) -> Option<(u8, Play)> {
        self.records().find_map(|r| {
            r.events.iter().rev().find_map(|e| match e {
                Event::Play { seat, play } => Some((*seat, *play)),
                _ => None,
            })
        })
    }

    /// The move notation of the play the last action made (written from the position before
    /// it), if it made one.
    pub fn last_action_notation(&self) -> Option<String> {
        let r = self.head.as_ref()?;
        r.play().map(|p| self.system().format_play(&r.state, p))
    }

    /// The history as the JSON format stores it: one snapshot per action, oldest first.
    fn snapshots(&self) -> Vec<Snapshot<R::State>> {
        let mut out: Vec<Snapshot<R::State>> = self
            .records_with_taken()
            .map(|(r, taken)| Snapshot {
                state: r.state,
                taken,
                rng: r.rng.clone(),
                log_len: r.log_len as usize,
            })
            .collect();
        out.reverse();
        out
    }

    /// The whole game (rules, position, steps taken, generator, history) as a JSON value.
    pub fn to_value(&self) -> Value {
        let j = GameJson {
            rules: self.rules().clone(),
            state: self.start,
            taken: self.taken,
            rng: self.rng.clone(),
            history: self.snapshots(),
            log: self.log(),
        };
        serde_json::to_value(&j).unwrap_or(Value::Null)
    }

    /// The whole game as JSON text: exactly the text of [`GameOf::to_value`], written from the
    /// parts each history entry keeps once written (most of a record is its history, and a
    /// game's history is shared by its copies and by the game after further actions).
    ///
    /// ```
    /// use pachisi::parcheesi::ParcheesiRules;
    /// use pachisi::{GameOf, Rules, SystemRules};
    /// let system = ParcheesiRules::parcheesi().build().unwrap();
    /// let mut g = GameOf::new(system, Rules::preset("parcheesi").unwrap(), 3);
    /// g.roll().unwrap();
    /// assert_eq!(g.to_json(), g.to_value().to_string());
    /// ```
    pub fn to_json(&self) -> String {
        let entries: Vec<(&Record<R::State>, Play)> = self.records_with_taken().collect();
        let texts: Vec<&RecordText> = entries.iter().map(|(r, _)| r.text()).collect();
        let size: usize = texts
            .iter()
            .map(|t| t.snapshot.len() + t.log.len() + 16)
            .sum();
        let mut out = String::with_capacity(size + 2048);
        let play_text = |play: &Play| {
            if play.is_empty() {
                "[]".to_string()
            } else {
                value_text(play)
            }
        };
        out.push_str("{\"history\":[");
        for (i, ((_, taken), text)) in entries.iter().zip(&texts).rev().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str(&text.snapshot);
            out.push_str("\"taken\":");
            out.push_str(&play_text(taken));
            out.push('}');
        }
        out.push_str("],\"log\":[");
        let mut first = true;
        let opening = logged_text(&self.opening);
        for part in
            std::iter::once(opening.as_str()).chain(texts.iter().rev().map(|t| t.log.as_str()))
        {
            if part.is_empty() {
                continue;
            }
            if !first {
                out.push(',');
            }
            first = false;
            out.push_str(part);
        }
        out.push_str("],\"rng\":");
        out.push_str(&crate::dice::rng_serde::json_text(&self.rng));
        out.push_str(",\"rules\":");
        out.push_str(
            self.shared
                .rules_text
                .get_or_init(|| value_text(&self.shared.rules)),
        );
        out.push_str(",\"state\":");
        out.push_str(&value_text(&self.start));
        out.push_str(",\"taken\":");
        out.push_str(&play_text(&self.taken));
        out.push('}');
        out
    }

    /// Reads a game record by replaying it: from the first recorded position, every action
    /// between two recorded positions (a roll, a set roll, a play or a step, named by the log)
    /// must lead to the next one exactly (position, steps taken, generator, log). The error
    /// names the first entry and field that do not match. The replayed game is the game read
    /// (its history rebuilt by the replay, the events of each action included).
    fn replay_record(system: R, j: GameJson<R::State>) -> Result<GameOf<R>> {
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
        let mut g = GameOf::new(system, j.rules.clone(), 0);
        g.start = **state;
        g.current = **state;
        g.rng = (*rng).clone();
        g.opening = j.log[..*log_len].to_vec();
        g.log_count = *log_len as u32;
        if points.len() == 1 && g.node() == Node::Decision && g.legal_plays_ref().is_empty() {
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
                        && g.system().sample_roll(&g.current, &mut drawn) == *roll
                        && drawn == *want.2;
                    if sampled {
                        g.roll().map(|_| ())
                    } else {
                        g.set_roll(*roll)
                    }
                }
                Some(Event::Play { play, .. }) => g.play(play),
                Some(_) => {
                    return Err(bad(format!(
                        "{name}: a log event that follows no roll or play"
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
            let logged: Vec<Event> = g
                .events()
                .iter()
                .filter(|e| e.is_logged())
                .copied()
                .collect();
            let field = if g.start != *want.0 {
                Some("state")
            } else if g.taken != *want.1 {
                Some("taken")
            } else if g.rng != *want.2 {
                Some("rng")
            } else if g.log_count as usize != want.3 || logged[..] != *events {
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
        Ok(g)
    }

    /// The path of the first field of a game record that does not read (`state`,
    /// `history[3].taken`, `log[12]`...), for the error message.
    fn json_error_path(value: &Value) -> String {
        fn fails<T: serde::de::DeserializeOwned>(v: &Value) -> bool {
            T::deserialize(v).is_err()
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
        let j: GameJson<R::State> = match GameJson::deserialize(&value) {
            Ok(j) => j,
            Err(e) => {
                let path = Self::json_error_path(&value);
                return Err(Error::InvalidJson(format!(
                    "`{path}`: {}",
                    crate::error::excerpt(&e.to_string(), 2 * crate::error::EXCERPT_CHARS)
                )));
            }
        };
        Self::from_record(system, j)
    }

    /// [`FastJson`] read from `text`, whose top-level `rules` are `rules` (their text, `raw`,
    /// a slice of `text` read before): the record as [`Game::from_json`] reads it, or whether
    /// it reads into its types at all, or neither (see [`FastRead`]).
    fn from_fast_json<T: Registered<System = R>>(
        system: R,
        text: &str,
        rules: Rules,
        raw: &str,
    ) -> FastRead {
        let is_raw = |r: &serde_json::value::RawValue| std::ptr::eq(r.get(), raw);
        match serde_json::from_str::<FastJson<R::State>>(text) {
            Ok(j) if is_raw(j.rules) => {
                let j = GameJson {
                    rules,
                    state: j.state,
                    taken: j.taken,
                    rng: j.rng,
                    history: j.history,
                    log: j.log.into_iter().map(|e| e.0).collect(),
                };
                Ok(Self::from_record(system, j).map(T::into_game))
            }
            Ok(_) => Err(LeftTo::General),
            Err(e) if e.to_string().starts_with(UNUSUAL) => Err(LeftTo::General),
            Err(_) => {
                // The record does not read as a `GameJson` of this system; when these are its
                // top-level rules (or it has none that read), the general reading goes straight
                // to the value.
                #[derive(Deserialize)]
                struct RulesOnly<'a> {
                    #[serde(borrow)]
                    rules: &'a serde_json::value::RawValue,
                }
                match serde_json::from_str::<RulesOnly>(text) {
                    Ok(r) if !is_raw(r.rules) => Err(LeftTo::General),
                    _ => Err(LeftTo::Value),
                }
            }
        }
    }

    /// A record read as JSON: its positions validated, then replayed ([`GameOf::replay_record`]).
    fn from_record(system: R, j: GameJson<R::State>) -> Result<GameOf<R>> {
        system.validate_state(&j.state)?;
        for h in &j.history {
            system.validate_state(&h.state)?;
        }
        Self::replay_record(system, j)
    }

    /// The position at the start of the current play: [`GameOf::state`] before the steps taken
    /// with [`GameOf::step`] (the same position when none were taken). Whole plays, such as
    /// those of [`GameOf::legal_plays`], apply to it.
    pub fn play_start(&self) -> &R::State {
        &self.start
    }
}

/// The steps of a play that may be illegal, without the system's notation: `seat:from-to` each
/// (`pass` for none).
fn raw_steps(play: &Play) -> String {
    if play.is_pass() {
        return "pass".into();
    }
    let steps: Vec<String> = play
        .steps()
        .iter()
        .map(|s| format!("{}:{}-{}", s.seat, s.from, s.to))
        .collect();
    steps.join(" ")
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
        ///
        /// Games compare equal when their records would be the same (see the [`PartialEq`] of
        /// [`GameOf`]): games of different systems never are.
        ///
        /// ```
        /// let g = pachisi::Game::from_preset("backgammon", 42).unwrap();
        /// let back = pachisi::Game::from_json(&g.to_json()).unwrap();
        /// assert!(back == g);
        /// ```
        #[derive(Clone, Debug, PartialEq)]
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

/// `Rules::from_json(text)`, from a small table of the rules texts last read (records of the
/// same rules write the same text).
fn cached_rules(text: &str) -> Result<Rules> {
    thread_local! {
        static READ: std::cell::RefCell<Vec<(String, Rules)>> =
            const { std::cell::RefCell::new(Vec::new()) };
    }
    const KEEP: usize = 16;
    if let Some(rules) = READ.with(|t| {
        let t = t.borrow();
        t.iter().find(|(k, _)| k == text).map(|(_, r)| r.clone())
    }) {
        return Ok(rules);
    }
    let rules = Rules::from_json(text)?;
    READ.with(|t| {
        let mut t = t.borrow_mut();
        if t.len() >= KEEP {
            t.remove(0);
        }
        t.push((text.to_string(), rules.clone()));
    });
    Ok(rules)
}

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
    /// Legal next steps, one of two pieces on one square (see [`GameOf::legal_steps`]).
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
    /// The log: every roll, play and forfeit so far, in order.
    pub fn log(&self) -> Vec<Event> {
        each!(self, g => g.log())
    }
    /// The number of events in the log.
    pub fn log_len(&self) -> usize {
        each!(self, g => g.log_len())
    }
    /// The events of the last action: the action itself (`Roll`, `Play` or `Step`), then what
    /// it caused (captures, bonuses, a penalty, an extra roll, forfeits, the end of the game).
    ///
    /// ```
    /// use pachisi::{Event, Game};
    /// let mut g = Game::from_preset("backgammon", 2).unwrap();
    /// let roll = g.roll().unwrap();
    /// assert_eq!(g.events()[0], Event::Roll { seat: g.to_move(), roll });
    /// ```
    pub fn events(&self) -> &[Event] {
        each!(self, g => g.events())
    }
    /// Every action so far, oldest first, with its events.
    ///
    /// ```
    /// let mut g = pachisi::Game::from_preset("parcheesi", 2).unwrap();
    /// g.roll().unwrap();
    /// let h = g.history();
    /// assert_eq!(h.len(), g.history_len());
    /// assert!(matches!(h[0].events[0], pachisi::Event::Roll { .. }));
    /// ```
    pub fn history(&self) -> Vec<HistoryEntry> {
        each!(self, g => g.history())
    }
    /// Makes again the last action undo took back.
    ///
    /// ```
    /// let mut g = pachisi::Game::from_preset("parcheesi", 5).unwrap();
    /// g.roll().unwrap();
    /// let position = g.position();
    /// g.undo().unwrap();
    /// g.redo().unwrap();
    /// assert_eq!(g.position(), position);
    /// ```
    pub fn redo(&mut self) -> Result<()> {
        each!(self, g => g.redo())
    }
    /// How many actions redo can make again (0 after any new action).
    pub fn redo_len(&self) -> usize {
        each!(self, g => g.redo_len())
    }
    /// A hash of the position for search (see [`GameOf::position_hash`]).
    ///
    /// ```
    /// use pachisi::{Game, Roll};
    /// let mut a = Game::from_preset("backgammon", 1).unwrap();
    /// let mut b = Game::from_preset("backgammon", 2).unwrap();
    /// a.set_roll(Roll::Dice([3, 1])).unwrap();
    /// b.set_roll(Roll::Dice([3, 1])).unwrap();
    /// assert!(a.same_position(&b));
    /// assert_eq!(a.position_hash(), b.position_hash());
    /// ```
    pub fn position_hash(&self) -> u64 {
        each!(self, g => g.position_hash())
    }
    /// Whether two games stand at the same position under the same rules.
    pub fn same_position(&self, other: &Game) -> bool {
        fn same<R: RuleSystem>(g: &GameOf<R>, other: &Game) -> bool {
            let o: Option<&GameOf<R>> = each!(other, o => (o as &dyn std::any::Any).downcast_ref());
            o.is_some_and(|o| g.same_position(o))
        }
        each!(self, g => same(g, other))
    }
    /// The legal plays of a hypothetical roll at this chance node, without changing the game.
    pub fn plays_for_roll(&self, roll: Roll) -> Result<Vec<Play>> {
        each!(self, g => g.plays_for_roll(roll))
    }
    /// The roll being played (at a decision node after a roll).
    pub fn pending_roll(&self) -> Option<Roll> {
        each!(self, g => g.pending_roll())
    }
    /// The squares where pieces cannot be captured (safe squares, castles).
    pub fn safe_places(&self) -> Vec<Place> {
        each!(self, g => g.safe_places())
    }
    /// Everything a renderer draws, as plain data: every piece with its place in board
    /// coordinates (the places the SVG picture draws), the safe squares and castles, the roll
    /// being played and whose turn it is.
    ///
    /// ```
    /// let g = pachisi::Game::from_preset("parcheesi", 1).unwrap();
    /// let b = g.board_data();
    /// assert_eq!(b.pieces.iter().map(|p| p.count as usize).sum::<usize>(), 16);
    /// assert_eq!(b.safe.len(), 12);
    /// assert_eq!((b.to_move, b.roll), (0, None));
    /// ```
    pub fn board_data(&self) -> BoardData {
        BoardData {
            board: self.board(),
            node: self.node(),
            to_move: self.to_move(),
            roll: self.pending_roll(),
            pieces: self.pieces(),
            safe: self.safe_places(),
        }
    }
    /// The move notation of the play the last action made, if it made one.
    ///
    /// ```
    /// let mut g = pachisi::Game::from_preset("backgammon", 1).unwrap();
    /// g.roll().unwrap();
    /// let text = g.format_play(&g.legal_plays()[0]);
    /// g.play_index(0).unwrap();
    /// assert_eq!(g.last_action_notation(), Some(text));
    /// ```
    pub fn last_action_notation(&self) -> Option<String> {
        each!(self, g => g.last_action_notation())
    }
    /// A copy of the game without the lists it keeps for the current node, so that they are
    /// made afresh (for tests comparing the kept lists with a new generation).
    ///
    /// ```
    /// let mut g = pachisi::Game::from_preset("parcheesi", 1).unwrap();
    /// g.roll().unwrap();
    /// assert_eq!(g.fresh_copy().legal_plays(), g.legal_plays());
    /// ```
    pub fn fresh_copy(&self) -> Game {
        let mut g = self.clone();
        each!(&mut g, g => g.cache = OnceLock::new());
        g
    }
    /// The seat that plays the pieces of `owner` (the owner itself but in Classic Pachisi for
    /// two, where each player plays two colours).
    ///
    /// ```
    /// let g = pachisi::Game::new(&pachisi::Rules::with_options("pachisi", &serde_json::json!({"seats": 2})).unwrap(), 1);
    /// assert_eq!(g.seat_of_owner(2), 0);
    /// ```
    pub fn seat_of_owner(&self, owner: u8) -> u8 {
        each!(self, g => g.system().seat_of_owner(owner))
    }
    /// The board side whose colour the pieces of `owner` wear.
    ///
    /// ```
    /// let g = pachisi::Game::new(&pachisi::Rules::with_options("parcheesi", &serde_json::json!({"seats": 2})).unwrap(), 1);
    /// assert_eq!(g.side_of_owner(1), 2);
    /// ```
    pub fn side_of_owner(&self, owner: u8) -> u8 {
        each!(self, g => g.system().side_of_owner(owner))
    }
    /// Makes legal play number `index` of [`Game::legal_plays`] (no generation, no lookup).
    pub fn play_index(&mut self, index: usize) -> Result<()> {
        each!(self, g => g.play_index(index))
    }
    /// The legal plays the game keeps for this node, without a copy.
    pub fn legal_plays_ref(&self) -> &[Play] {
        each!(self, g => g.legal_plays_ref())
    }
    /// [`Game::legal_plays_ref`] as a shared handle (see [`SharedPlays`]).
    ///
    /// ```
    /// let mut g = pachisi::Game::from_preset("backgammon", 2).unwrap();
    /// g.roll().unwrap();
    /// assert_eq!(g.legal_plays_shared().len(), g.legal_plays().len());
    /// ```
    pub fn legal_plays_shared(&self) -> SharedPlays {
        each!(self, g => g.legal_plays_shared())
    }
    /// Whether `plays` is the list of this game's current node (see [`GameOf::plays_are_current`]).
    ///
    /// ```
    /// let mut g = pachisi::Game::from_preset("backgammon", 2).unwrap();
    /// g.roll().unwrap();
    /// let plays = g.legal_plays_shared();
    /// assert!(g.plays_are_current(&plays));
    /// ```
    pub fn plays_are_current(&self, plays: &SharedPlays) -> bool {
        each!(self, g => g.plays_are_current(plays))
    }
    /// The legal next steps, without a copy.
    pub fn legal_steps_ref(&self) -> &[Step] {
        each!(self, g => g.legal_steps_ref())
    }
    /// The position in the variant's notation.
    pub fn position(&self) -> String {
        each!(self, g => g.position())
    }
    /// The position at the start of the current play (the same as [`Game::position`] until a
    /// step is taken).
    ///
    /// ```
    /// use pachisi::{Game, Roll};
    /// let mut g = Game::from_preset("backgammon", 1).unwrap();
    /// g.set_roll(Roll::Dice([3, 1])).unwrap();
    /// let before = g.position();
    /// let first = g.legal_steps()[0];
    /// g.step(&first).unwrap();
    /// assert_eq!(g.start_position(), before);
    /// assert_ne!(g.position(), before);
    /// let mut h = Game::from_position(g.rules(), &g.start_position(), 1).unwrap();
    /// h.step(&first).unwrap();
    /// assert_eq!(h.legal_plays(), g.legal_plays());
    /// ```
    pub fn start_position(&self) -> String {
        each!(self, g => g.start_position())
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
    /// The absolute place of a seat-relative position given from outside: an
    /// [`Error::InvalidArgument`] for a seat that owns no pieces (a [`Step::seat`]: the seats,
    /// and in Classic Pachisi for two the four colours) or a position the game does not name
    /// (positions run from 0 to 140 in Parcheesi, 77 in Family Pachisi, 85 in Classic Pachisi
    /// and 25 in backgammon).
    ///
    /// ```
    /// use pachisi::{Game, Place};
    /// let g = Game::from_preset("backgammon", 1).unwrap();
    /// assert_eq!(g.checked_place(0, 25).unwrap(), Place::Bar);
    /// assert!(g.checked_place(0, 26).is_err());
    /// assert!(g.checked_place(2, 1).is_err());
    /// ```
    pub fn checked_place(&self, seat: u8, pos: u8) -> Result<Place> {
        each!(self, g => g.checked_place(seat, pos))
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
    /// The whole game as JSON text (round-trips exactly through [`Game::from_json`]): the text
    /// of [`Game::to_value`], keys sorted.
    pub fn to_json(&self) -> String {
        each!(self, g => g.to_json())
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
        // First, in one pass, the reading of records as they are written: the rules found
        // where a record writes them (the last `"rules":` of the text), read once, then the
        // record read straight into its types with its log's events read without a buffer
        // (`FastJson`). It is kept only when the rules it read are the ones found (the same
        // slice of the text), so it reads exactly what the general reading below reads.
        if let Some(at) = text.rfind("\"rules\":") {
            let mut de = serde_json::Deserializer::from_str(&text[at + "\"rules\":".len()..]);
            if let Ok(raw) = <&serde_json::value::RawValue>::deserialize(&mut de)
                && let Ok(rules) = cached_rules(raw.get())
            {
                struct Fast<'a>(&'a str, &'a str, Rules);
                impl SystemVisitor for Fast<'_> {
                    type Output = FastRead;
                    fn visit<T: Registered>(self, config: &T) -> FastRead {
                        GameOf::from_fast_json::<T>(build(config), self.0, self.2, self.1)
                    }
                }
                let config = rules.config().clone();
                match config.visit(Fast(text, raw.get(), rules)) {
                    Ok(read) => return read,
                    Err(LeftTo::Value) => return Game::from_json_value(text),
                    Err(LeftTo::General) => {}
                }
            }
        }
        Game::from_json_general(text)
    }

    /// [`Game::from_json`] without its first reading: what it reads, and how.
    fn from_json_general(text: &str) -> Result<Game> {
        // Most records read straight into their types, without a JSON value tree in between
        // (several times faster); any that does not (a field of the wrong type, a duplicate key)
        // is read again through a value, which accepts exactly what it always did and names the
        // field that fails.
        #[derive(Deserialize)]
        struct RulesOnly {
            rules: Value,
        }
        struct FromText<'a>(&'a str);
        impl SystemVisitor for FromText<'_> {
            type Output = Option<Result<Game>>;
            fn visit<T: Registered>(self, config: &T) -> Option<Result<Game>> {
                let j = serde_json::from_str(self.0).ok()?;
                Some(GameOf::from_record(build(config), j).map(T::into_game))
            }
        }
        if let Ok(RulesOnly { rules }) = serde_json::from_str::<RulesOnly>(text)
            && let Ok(rules) = Rules::from_value(&rules)
            && let Some(read) = rules.config().visit(FromText(text))
        {
            return read;
        }
        Game::from_json_value(text)
    }

    /// [`Game::from_json`] through a JSON value: the reading of a record that does not read
    /// straight into its types, which names the field that fails.
    fn from_json_value(text: &str) -> Result<Game> {
        let value: Value =
            serde_json::from_str(text).map_err(|e| Error::InvalidJson(e.to_string()))?;
        Game::from_owned_value(value)
    }

    /// Reads a whole game from the JSON value [`Game::to_value`] writes (what
    /// [`Game::from_json`] reads from text; the game's serde `Deserialize` reads this).
    ///
    /// ```
    /// let mut g = pachisi::Game::from_preset("backgammon", 3).unwrap();
    /// g.roll().unwrap();
    /// let back = pachisi::Game::from_value(&g.to_value()).unwrap();
    /// assert!(back == g);
    /// assert!(pachisi::Game::from_value(&serde_json::json!({"rules": 1})).is_err());
    /// ```
    pub fn from_value(value: &Value) -> Result<Game> {
        Game::from_owned_value(value.clone())
    }

    /// [`Game::from_value`] of a value it may keep.
    fn from_owned_value(value: Value) -> Result<Game> {
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

impl Serialize for Game {
    /// The record of [`Game::to_value`].
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        self.to_value().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Game {
    /// A record as [`Game::from_value`] reads it.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        Game::from_owned_value(Value::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod equality_tests {
    use super::*;

    /// A Parcheesi game some way in (rolls, plays and a step taken), its history long enough to
    /// change any entry of.
    fn sample() -> GameOf<<crate::parcheesi::ParcheesiRules as SystemRules>::System> {
        let Game::Parcheesi(mut g) = Game::from_preset("parcheesi", 5).unwrap() else {
            unreachable!("the parcheesi preset is a Parcheesi game")
        };
        for k in 0..40 {
            match g.node() {
                Node::Over => break,
                Node::Chance => {
                    g.roll().unwrap();
                }
                Node::Decision => {
                    let plays = g.legal_plays();
                    g.play(&plays[k % plays.len()]).unwrap();
                }
            }
        }
        while g.node() != Node::Decision || g.legal_steps().is_empty() {
            match g.node() {
                Node::Chance => {
                    g.roll().unwrap();
                }
                _ => {
                    let plays = g.legal_plays();
                    g.play(&plays[0]).unwrap();
                }
            }
        }
        let step = g.legal_steps()[0];
        g.step(&step).unwrap();
        assert!(g.history_len() > 3 && !g.taken().is_empty());
        g
    }

    /// A copy of the history entry `back` entries from the newest, changed by `change`, with
    /// the same parent (and so the same older entries) and copies of the newer entries.
    fn with_entry_changed<S: Copy>(
        head: &Arc<Record<S>>,
        back: usize,
        change: &dyn Fn(&mut Record<S>),
    ) -> Arc<Record<S>> {
        let copy = |r: &Record<S>, parent: Option<Arc<Record<S>>>| Record {
            parent,
            depth: r.depth,
            state: r.state,
            rng: r.rng.clone(),
            taken_len: r.taken_len,
            log_len: r.log_len,
            rolls: r.rolls,
            events: r.events.clone(),
            text: OnceLock::new(),
        };
        if back == 0 {
            let mut r = copy(head, head.parent.clone());
            change(&mut r);
            return Arc::new(r);
        }
        let parent = with_entry_changed(head.parent.as_ref().unwrap(), back - 1, change);
        Arc::new(copy(head, Some(parent)))
    }

    #[test]
    fn a_change_of_any_field_makes_games_unequal() {
        let g = sample();
        assert!(g == g.clone());
        type G = GameOf<<crate::parcheesi::ParcheesiRules as SystemRules>::System>;
        type Change = (&'static str, fn(&mut G));
        let changes: Vec<Change> = vec![
            ("start", |g| g.start = g.system().initial_state()),
            ("taken", |g| g.taken = Play::new()),
            ("current", |g| g.current = g.start),
            ("rng", |g| {
                crate::dice::roll_die(&mut g.rng);
            }),
            ("log_count", |g| g.log_count += 1),
            ("roll_count", |g| g.roll_count += 1),
            ("opening", |g| g.opening.push(Event::Forfeit { seat: 1 })),
            ("head", |g| g.head = g.head.as_ref().unwrap().parent.clone()),
            ("rules", |g| {
                let rules = g.rules().with("seats", 2.into()).unwrap();
                let Game::Parcheesi(two) = Game::new(&rules, 5) else {
                    unreachable!("two-seat Parcheesi is a Parcheesi game")
                };
                g.shared = two.shared;
            }),
        ];
        for (what, change) in changes {
            let mut h = g.clone();
            change(&mut h);
            // Both ways: the comparison walks both games.
            assert!(g != h, "{what} changed, yet the games are equal");
            assert!(h != g, "{what} changed, yet the games are equal");
        }
        // Two states, so that an entry's state can be changed to one of them it is not.
        let (a, b) = (g.system().initial_state(), g.current);
        assert!(a != b && g.start != a);
        let other_state = move |s: &mut _| *s = if *s == a { b } else { a };
        type EntryChange<'a, S> = (&'static str, Box<dyn Fn(&mut Record<S>) + 'a>);
        let entry_changes: Vec<EntryChange<_>> = vec![
            ("depth", Box::new(|r| r.depth += 1)),
            ("state", Box::new(move |r| other_state(&mut r.state))),
            (
                "rng",
                Box::new(|r| {
                    crate::dice::roll_die(&mut r.rng);
                }),
            ),
            ("taken_len", Box::new(|r| r.taken_len += 1)),
            ("log_len", Box::new(|r| r.log_len += 1)),
            ("rolls", Box::new(|r| r.rolls += 1)),
            (
                "events",
                Box::new(|r| r.events.push(Event::Forfeit { seat: 0 })),
            ),
        ];
        for back in [0, 1, g.history_len() - 1] {
            for (what, change) in &entry_changes {
                let mut h = g.clone();
                h.head = Some(with_entry_changed(
                    h.head.as_ref().unwrap(),
                    back,
                    &**change,
                ));
                assert!(g != h, "{what} of entry {back} changed, yet equal");
                assert!(h != g, "{what} of entry {back} changed, yet equal");
            }
            // Copied unchanged, the entries are equal without being shared.
            let mut h = g.clone();
            h.head = Some(with_entry_changed(h.head.as_ref().unwrap(), back, &|_| {}));
            assert!(g == h, "entry {back} copied unchanged");
            assert_eq!(g.to_json(), h.to_json());
        }
        // Events a record does not keep are not compared.
        let mut h = g.clone();
        h.head = Some(with_entry_changed(h.head.as_ref().unwrap(), 1, &|r| {
            r.events.push(Event::ExtraRoll { seat: 0 })
        }));
        assert!(g == h);
        assert_eq!(g.to_json(), h.to_json());
        // Redo is not part of a game's record, nor of its equality.
        let mut h = g.clone();
        h.undo().unwrap();
        h.redo().unwrap();
        assert!(g == h);
        h.undo().unwrap();
        assert!(g != h);
    }
}

#[cfg(test)]
mod json_reading_tests {
    use super::*;

    /// splitmix64: a number below `n`.
    fn below(seed: &mut u64, n: usize) -> usize {
        *seed = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = *seed;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z % n as u64) as usize
    }

    /// Takes up to `actions` actions (rolls and plays chosen by `seed`), stopping at the end.
    fn play_randomly(g: &mut Game, seed: &mut u64, actions: usize) {
        for _ in 0..actions {
            match g.node() {
                Node::Over => break,
                Node::Chance => {
                    g.roll().unwrap();
                }
                Node::Decision => {
                    let plays = g.legal_plays();
                    g.play(&plays[below(seed, plays.len())]).unwrap();
                }
            }
        }
    }

    /// Games of every preset some way in (one with a step taken, one from a position).
    fn games() -> Vec<Game> {
        let mut out = Vec::new();
        for (i, name) in crate::variants().iter().enumerate() {
            let mut g = Game::from_preset(name, i as u64 + 3).unwrap();
            let mut seed = i as u64;
            play_randomly(&mut g, &mut seed, 30);
            out.push(g.clone());
            while g.node() == Node::Chance {
                g.roll().unwrap();
            }
            if g.node() == Node::Decision
                && let Some(step) = g.legal_steps().first().copied()
            {
                g.step(&step).unwrap();
                out.push(g.clone());
            }
            let pos = Game::from_position(g.rules(), &g.position(), 5).unwrap();
            out.push(pos);
        }
        out
    }

    /// An object's entries, as [`write`] orders them.
    type Entries<'a> = Vec<(&'a String, &'a Value)>;

    /// JSON text of `v`, each object's keys in the order `order` puts them in.
    fn write(v: &Value, order: &dyn Fn(&mut Entries)) -> String {
        match v {
            Value::Array(a) => {
                let items: Vec<String> = a.iter().map(|x| write(x, order)).collect();
                format!("[{}]", items.join(","))
            }
            Value::Object(m) => {
                let mut entries: Vec<(&String, &Value)> = m.iter().collect();
                order(&mut entries);
                let items: Vec<String> = entries
                    .iter()
                    .map(|(k, x)| format!("{}:{}", Value::from(k.as_str()), write(x, order)))
                    .collect();
                format!("{{{}}}", items.join(","))
            }
            _ => v.to_string(),
        }
    }

    /// The number of nodes of `v` (itself, and every entry's nodes).
    fn count(v: &Value) -> usize {
        1 + match v {
            Value::Array(a) => a.iter().map(count).sum(),
            Value::Object(m) => m.values().map(count).sum(),
            _ => 0,
        }
    }

    /// A node of `v` chosen by `seed` (pre-order), changed: replaced by another value, an entry
    /// removed, repeated or swapped.
    fn tamper(v: &mut Value, seed: &mut u64) {
        let k = below(seed, count(v));
        let how = below(seed, 10);
        tamper_at(v, k, how, seed);
    }

    /// Node `k` of `v` (pre-order) changed in the way `how` (0 to 9) names, any value it puts in
    /// or entry it picks chosen by `seed`: replaced by a number, null, a string, `true` or a
    /// fraction; an entry of an array removed, repeated or swapped with the next; a key of an
    /// object removed; a number off by one (kinds that do not apply to the node change a number
    /// off by one, or nothing).
    fn tamper_at(v: &mut Value, mut k: usize, how: usize, seed: &mut u64) {
        fn nth<'a>(v: &'a mut Value, k: &mut usize) -> Option<&'a mut Value> {
            if *k == 0 {
                return Some(v);
            }
            *k -= 1;
            match v {
                Value::Array(a) => a.iter_mut().find_map(|x| nth(x, k)),
                Value::Object(m) => m.values_mut().find_map(|x| nth(x, k)),
                _ => None,
            }
        }
        let node = nth(v, &mut k).unwrap();
        let small = below(seed, 300) as i64 - 20;
        match (how, &mut *node) {
            (0, _) => *node = Value::from(small),
            (1, _) => *node = Value::Null,
            (2, _) => *node = Value::from(["x", "roll", "play", "forfeit", "5-3"][below(seed, 5)]),
            (3, _) => *node = Value::Bool(true),
            (4, _) => *node = Value::from(small as f64 / 3.0),
            (5, Value::Array(a)) if !a.is_empty() => {
                let i = below(seed, a.len());
                a.remove(i);
            }
            (6, Value::Array(a)) if !a.is_empty() => {
                let i = below(seed, a.len());
                let x = a[i].clone();
                a.insert(i, x);
            }
            (7, Value::Array(a)) if a.len() > 1 => {
                let i = below(seed, a.len());
                let n = a.len();
                a.swap(i, (i + 1) % n);
            }
            (8, Value::Object(m)) if !m.is_empty() => {
                let key = m.keys().nth(below(seed, m.len())).unwrap().clone();
                m.remove(&key);
            }
            (_, Value::Number(n)) => {
                *node = Value::from(n.as_i64().unwrap_or(0) + below(seed, 3) as i64 - 1)
            }
            _ => {}
        }
    }

    /// `from_json` and its general reading give the same game, or the same error.
    fn same_reading(text: &str) {
        match (Game::from_json(text), Game::from_json_general(text)) {
            (Ok(a), Ok(b)) => {
                assert!(a == b, "different games from {text}");
                assert_eq!(a.to_json(), b.to_json());
            }
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "from {text}"),
            (a, b) => panic!(
                "from_json: {:?}, the general reading: {:?}, from {text}",
                a.map(|g| g.to_json()),
                b.map(|g| g.to_json())
            ),
        }
    }

    #[test]
    fn the_first_reading_reads_what_the_general_one_reads() {
        let mut seed = 11u64;
        let mut read = 0;
        for g in games() {
            let text = g.to_json();
            let value = g.to_value();
            same_reading(&text);
            assert!(Game::from_json(&text).unwrap() == g);
            // Other layouts: events' tags last, or keys in reverse order; rules first.
            let tag_last = |e: &mut Vec<(&String, &Value)>| {
                e.sort_by_key(|(k, _)| k.as_str() == "event");
            };
            let reversed = |e: &mut Vec<(&String, &Value)>| e.reverse();
            same_reading(&write(&value, &tag_last));
            same_reading(&write(&value, &reversed));
            // A nested `"rules":` after the real ones, rules with a space, an unknown key.
            let inner = format!(
                "{},\"zz\":{{\"rules\":\"parcheesi\"}}}}",
                &text[..text.len() - 1]
            );
            same_reading(&inner);
            same_reading(&text.replacen("\"rules\":", "\"rules\" :", 1));
            same_reading(&text.replacen("\"event\":\"roll\",", "\"event\":\"roll\",\"x\":1,", 1));
            same_reading(&text.replacen(
                "{\"event\":\"roll\",",
                "{\"x\":[],\"event\":\"roll\",",
                1,
            ));
            // Events as arrays, non-logged events, the tag as an index.
            let log = value["log"].as_array().unwrap();
            for (i, e) in log.iter().enumerate().take(6) {
                let mut v = value.clone();
                let seat = e["seat"].clone();
                let arr = match e["event"].as_str().unwrap() {
                    "roll" => Value::from(vec![Value::from("roll"), seat, e["roll"].clone()]),
                    "play" => Value::from(vec![Value::from("play"), seat, e["play"].clone()]),
                    _ => Value::from(vec![Value::from("forfeit"), seat]),
                };
                v["log"][i] = arr;
                same_reading(&v.to_string());
                let mut v = value.clone();
                v["log"][i] = serde_json::json!({"event": "extra-roll", "seat": 0});
                same_reading(&v.to_string());
                let mut v = value.clone();
                v["log"][i]["event"] = Value::from(i % 3);
                same_reading(&v.to_string());
            }
            // Tampered records, as the fuzz target `game_tamper` makes them.
            for _ in 0..40 {
                let mut v = value.clone();
                for _ in 0..1 + below(&mut seed, 3) {
                    tamper(&mut v, &mut seed);
                }
                let text = v.to_string();
                same_reading(&text);
                read += usize::from(Game::from_json(&text).is_ok());
            }
            // Cut short, and bytes changed.
            for _ in 0..10 {
                let cut = below(&mut seed, text.len());
                same_reading(&text[..cut]);
                let mut bytes = text.clone().into_bytes();
                let i = below(&mut seed, bytes.len());
                bytes[i] = b"0123456789{}[],:\" natrue"[below(&mut seed, 24)];
                if let Ok(t) = String::from_utf8(bytes) {
                    same_reading(&t);
                }
            }
        }
        // Some tampered records still load (an edit that changes nothing a record keeps).
        assert!(read > 0);
    }

    /// Every node of a short record of each preset changed in every way [`tamper_at`] knows
    /// (one change at a time), and layouts that mislead the search for the rules (the rules
    /// twice, under an escaped key, behind a key that ends in `rules`, pretty-printed, nested too
    /// deep), all read by `from_json` as its general reading reads them.
    #[test]
    fn every_single_edit_reads_as_the_general_reading_reads() {
        let (mut edits, mut read, mut misleading) = (0, 0, 0);
        for (i, name) in crate::variants().iter().enumerate() {
            let mut g = Game::from_preset(name, 40 + i as u64).unwrap();
            let mut seed = i as u64;
            play_randomly(&mut g, &mut seed, 8);
            let value = g.to_value();
            let text = g.to_json();
            for k in 0..count(&value) {
                for how in 0..10 {
                    let mut v = value.clone();
                    tamper_at(&mut v, k, how, &mut seed);
                    let t = v.to_string();
                    same_reading(&t);
                    edits += 1;
                    read += usize::from(Game::from_json(&t).is_ok());
                }
            }
            let rules = g.rules().to_json();
            let other = Rules::preset(crate::variants()[(i + 1) % crate::variants().len()])
                .unwrap()
                .to_json();
            let body = &text[1..text.len() - 1];
            let deep = format!("{}0{}", "[".repeat(127), "]".repeat(127));
            for t in [
                // The rules twice, either first.
                format!("{{\"rules\":{other},{body}}}"),
                format!("{{{body},\"rules\":{other}}}"),
                format!("{{{body},\"rules\":{rules}}}"),
                // The last `"rules":` is another key's, or a nested object's.
                format!("{{{body},\"a\\\"rules\":{other}}}"),
                format!("{{{body},\"a\\\"rules\":{rules}}}"),
                format!("{{{body},\"zz\":[{{\"rules\":{rules}}}]}}"),
                // The rules' key escaped, spaced, or the record pretty-printed.
                text.replacen("\"rules\":", "\"r\\u0075les\":", 1),
                text.replacen("\"rules\":", "\"rules\": ", 1),
                serde_json::to_string_pretty(&value).unwrap(),
                // Deep nesting: in an unknown key, and in the rules.
                format!("{{{body},\"zz\":{deep}}}"),
                text.replacen("\"rules\":{", &format!("\"rules\":{{\"zz\":{deep},"), 1),
                // A repeated key in an event, a repeated event tag.
                text.replacen(",\"seat\":", ",\"seat\":1,\"seat\":", 1),
                text.replacen("{\"event\":", "{\"event\":\"play\",\"event\":", 1),
                // Not a record.
                format!("{text} x"),
                format!("[{text}]"),
                rules.clone(),
                "{\"rules\":".to_string(),
                String::new(),
            ] {
                same_reading(&t);
            }
            // Rules of the same system with other options, behind a key that ends in `rules`
            // after the record's own: only the record's own rules may be read.
            let same_system = crate::variants()
                .iter()
                .map(|v| Rules::preset(v).unwrap())
                .flat_map(|r| [r.with("seats", 2.into()).ok(), Some(r)])
                .flatten()
                .filter(|r| {
                    std::mem::discriminant(r.config()) == std::mem::discriminant(g.rules().config())
                        && r != g.rules()
                });
            for r in same_system {
                same_reading(&format!("{{{body},\"a\\\"rules\":{}}}", r.to_json()));
                misleading += 1;
            }
        }
        // Enough edits read, and some of them load (an edit that changes nothing a record keeps).
        assert!(edits > 1000 && read > 0, "{edits} edits, {read} read");
        assert!(
            misleading > 0,
            "no rules of the same system to mislead with"
        );
    }
}
