//! The contract every rule system implements, and the small types it speaks in.
//!
//! A rule system (Parcheesi and Online Pachisi, Family Pachisi, Classic Pachisi, Backgammon) is a
//! type implementing [`RuleSystem`]: a pure function of its state. Everything that is the same
//! for all of them — history and undo, the seeded generator, the step-by-step interface, JSON of
//! a whole game, random simulation — is written once, in [`crate::GameOf`] and [`crate::sim`].

use crate::Result;
use crate::dice::{ChanceOutcome, GameRng, Roll};
use crate::play::{Play, PlayList, Step};
use serde::{Serialize, de::DeserializeOwned};
use std::fmt::Debug;
use std::hash::Hash;

/// What kind of node a state is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Node {
    /// The next event is a roll (dice or cowries).
    Chance,
    /// The seat to move chooses a play (after a roll, or a cube decision in backgammon).
    Decision,
    /// The game is over.
    Over,
}

/// Which complete plays a generator lists.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Orders {
    /// One play per distinct resulting position (what users and random policies choose from).
    Distinct,
    /// Every legal order of steps (what the step-by-step interface walks).
    All,
}

/// How a finished game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
pub struct Outcome {
    /// Bit `i` set when seat `i` is among the winners (a whole team wins together).
    pub winners: u16,
    /// Points won (1 in the Pachisi family; 1, 2 or 3 times the cube in backgammon).
    pub points: u32,
}

impl Outcome {
    /// Whether `seat` won.
    ///
    /// ```
    /// let o = pachisi::Outcome { winners: 0b0101, points: 1 };
    /// assert!(o.is_winner(2) && !o.is_winner(1));
    /// ```
    pub fn is_winner(&self, seat: u8) -> bool {
        seat < 16 && self.winners & (1 << seat) != 0
    }

    /// The lowest winning seat.
    pub fn first_winner(&self) -> Option<u8> {
        (self.winners != 0).then(|| self.winners.trailing_zeros() as u8)
    }

    /// Zero-sum returns per seat: each winner gets `points`, the losers share the negative.
    ///
    /// ```
    /// let o = pachisi::Outcome { winners: 0b0001, points: 1 };
    /// let r = o.returns(4);
    /// assert_eq!(r[0], 1.0);
    /// assert!((r.iter().sum::<f64>()).abs() < 1e-12);
    /// ```
    pub fn returns(&self, seats: u8) -> Vec<f64> {
        let n_win = (0..seats).filter(|&s| self.is_winner(s)).count() as f64;
        let n_lose = seats as f64 - n_win;
        let p = self.points as f64;
        (0..seats)
            .map(|s| {
                if self.is_winner(s) {
                    p
                } else if n_lose > 0.0 {
                    -p * n_win / n_lose
                } else {
                    0.0
                }
            })
            .collect()
    }
}

/// The kind of board a system is played on (what a picture of it draws).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BoardKind {
    /// The Parcheesi board: a loop of 68 squares, four nests, four home paths, the home in the
    /// centre (Parcheesi, Family and Online Pachisi). Named for its geometry: the loop.
    Loop,
    /// The classic cross: four arms of 3 columns x 8 squares around the charkoni.
    Cross,
    /// The backgammon board: 24 points, the bar, two trays.
    Backgammon,
}

/// A place on a board, in absolute board coordinates (not relative to a seat).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case", tag = "zone")]
pub enum Place {
    /// Loop board: the seat's nest (start area); captured pieces return here.
    Nest {
        /// The board side (0..4) of the nest.
        side: u8,
    },
    /// Loop board: a square of the shared loop, 0..68 from side 0's entry square.
    Track {
        /// The absolute square.
        square: u8,
    },
    /// Loop board: square `index` (0 = first) of a side's home path.
    HomePath {
        /// The board side.
        side: u8,
        /// 0-based index along the path towards home.
        index: u8,
    },
    /// Loop board: the home (goal) of a side.
    Home {
        /// The board side.
        side: u8,
    },
    /// Cross board: a square of an arm; column 0..3 (1 is the middle), row 0..8 from the centre.
    Cross {
        /// The arm (0..4).
        arm: u8,
        /// The column (0, 1 = middle, 2).
        column: u8,
        /// The row, 0 next to the charkoni, 7 at the outer edge.
        row: u8,
    },
    /// Cross board: the charkoni, where pieces start and end; `stage` tells a piece waiting to
    /// enter from one entered and ready to move out and from one that is home.
    Charkoni {
        /// Which of the three.
        stage: CharkoniStage,
    },
    /// Backgammon: a point 1..=24 numbered from seat 0's side (seat 0 bears off below point 1).
    Point {
        /// The point.
        point: u8,
    },
    /// Backgammon: the bar.
    Bar,
    /// Backgammon: borne off.
    Off,
}

/// Which pieces in the charkoni (the centre of the cross board) a [`Place::Charkoni`] means.
///
/// ```
/// use pachisi::{CharkoniStage, Place};
/// let home = Place::Charkoni { stage: CharkoniStage::Home };
/// assert_eq!(serde_json::to_string(&home).unwrap(), r#"{"zone":"charkoni","stage":"home"}"#);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CharkoniStage {
    /// Not entered yet, or captured and sent back: needs a grace to enter (CLS-5, CLS-8).
    Waiting,
    /// Entered and standing on the charkoni, ready to move out.
    Entered,
    /// Home: back in the charkoni after the whole path (CLS-4).
    Home,
}

/// Some pieces of one seat on one place.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
pub struct PieceView {
    /// The owner.
    pub seat: u8,
    /// The piece's index in its seat, or [`crate::NO_PIECE`] for a group without identity.
    pub piece: u8,
    /// Where.
    pub place: Place,
    /// How many pieces (1 for a single identified piece).
    pub count: u8,
}

/// A rule system: the rules of one family of variants, as a pure function of its state.
///
/// Implementors keep `State` small and `Copy` (at most 64 bytes for the Pachisi family) and do
/// not allocate per step. The generic layer guarantees: `begin_roll` only at a chance node with a
/// roll `check_roll` accepted; `generate`, `apply_step` and `end_play` only at a decision node
/// with the steps of a play `generate` listed.
pub trait RuleSystem: Clone + Debug + Send + Sync + 'static {
    /// The whole position: pieces, whose turn, the pending roll, counters the turn flow needs.
    type State: Copy + Debug + PartialEq + Eq + Hash + Send + Sync + Serialize + DeserializeOwned;

    /// Number of seats in play.
    fn seats(&self) -> u8;
    /// The rules' `max_rolls` option: a game still going after this many chance events (rolls
    /// or throws) ends there, truncated, with no winner (decision G-A of `docs/RULES.md`).
    fn max_rolls(&self) -> u32;
    /// The starting position.
    fn initial_state(&self) -> Self::State;
    /// Checks a position that came from outside (JSON, notation): counts, overlaps, ranges.
    fn validate_state(&self, s: &Self::State) -> Result<()>;
    /// `s` as [`crate::GameOf::same_position`] and [`crate::GameOf::position_hash`] compare it:
    /// a roll of two dice in one order (higher first), since no rule depends on which die is
    /// which, so that a roll of 3-5 and one of 5-3 stand at the same position. The default is
    /// `s` itself.
    fn canonical_state(&self, s: &Self::State) -> Self::State {
        *s
    }
    /// What happens next.
    fn node(&self, s: &Self::State) -> Node;
    /// The seat that rolls or chooses next (at a decision node, the seat whose play it is).
    fn to_move(&self, s: &Self::State) -> u8;
    /// The outcomes of the roll due now, with exact probabilities (empty unless at a chance node).
    fn chance_outcomes(&self, s: &Self::State) -> Vec<ChanceOutcome>;
    /// Draws the roll due now from the game's generator.
    fn sample_roll(&self, s: &Self::State, rng: &mut GameRng) -> Roll;
    /// Checks a roll given from outside.
    fn check_roll(&self, s: &Self::State, roll: Roll) -> Result<()>;
    /// Records the roll; may resolve it at once (a third-doubles penalty, a missed try), leaving a
    /// chance node or a finished game instead of a decision.
    fn begin_roll(&self, s: &mut Self::State, roll: Roll);
    /// Whether [`RuleSystem::begin_roll`] took `before` to `after` by a penalty (the roll
    /// punished before any move, as third doubles in a row in Parcheesi), also one that could
    /// send no piece back: the game logs it as a penalty event. None by default.
    fn roll_punished(&self, before: &Self::State, after: &Self::State) -> bool {
        let _ = (before, after);
        false
    }
    /// Appends every legal complete play at a decision node to `out` (which the caller cleared).
    /// An empty list means the roll cannot be played at all (the generic layer then forfeits it).
    fn generate(&self, s: &Self::State, orders: Orders, out: &mut Vec<Play>);
    /// Whether the decision node `s` has at least one legal play, when the system can tell
    /// without generating the plays (`None`: generate to know, the default).
    ///
    /// The generic layer asks after every roll and play whether the roll must be forfeited
    /// (PAR-3): with an answer here, the plays are generated only when first needed
    /// (`legal_plays`, `play`, ...), so a roll costs no generation. An implementation must
    /// answer exactly `Some(!plays.is_empty())` for the plays [`RuleSystem::generate`] lists,
    /// and says in a comment why its cheap test is equivalent under every option.
    ///
    /// ```
    /// use pachisi::backgammon::BackgammonRules;
    /// use pachisi::system::{RuleSystem, SystemRules};
    /// use pachisi::Roll;
    /// let sys = BackgammonRules::standard().build().unwrap();
    /// let mut s = sys.initial_state();
    /// sys.begin_roll(&mut s, Roll::Dice([6, 5]));
    /// // Backgammon answers from its move bitmasks, without listing the plays.
    /// assert_eq!(sys.has_play(&s), Some(true));
    /// ```
    fn has_play(&self, s: &Self::State) -> Option<bool> {
        let _ = s;
        None
    }
    /// Whether [`RuleSystem::generate_list`] is the system's own rather than a copy of
    /// [`RuleSystem::generate`]'s plays: [`crate::sim`] then lists plays with it.
    const LISTS_STEPS: bool = false;

    /// [`RuleSystem::generate`] into a [`PlayList`] (cleared first): the same plays in the same
    /// order, stored back to back.
    ///
    /// The default copies the plays `generate` lists; a system whose generator can write steps
    /// directly overrides it and sets [`RuleSystem::LISTS_STEPS`] (Parcheesi, Online and Family
    /// Pachisi, backgammon: their generators record many plays per roll, and copying a whole
    /// [`Play`] for each cost ~10% of a simulation).
    fn generate_list(&self, s: &Self::State, orders: Orders, out: &mut PlayList) {
        thread_local! {
            static PLAYS: std::cell::RefCell<Vec<Play>> = const { std::cell::RefCell::new(Vec::new()) };
        }
        out.clear();
        PLAYS.with(|cell| {
            let mut plays = cell.borrow_mut();
            plays.clear();
            self.generate(s, orders, &mut plays);
            for p in plays.iter() {
                out.push(p.steps());
            }
        });
    }
    /// Applies one step of a listed play.
    fn apply_step(&self, s: &mut Self::State, step: &Step);
    /// Ends the play given by its steps (already applied): extra rolls, next seat, game over.
    fn end_play(&self, s: &mut Self::State, steps: &[Step]);
    /// How the game ended, once it has.
    fn outcome(&self, s: &Self::State) -> Option<Outcome>;
    /// The position in the variant's text notation.
    fn format_position(&self, s: &Self::State) -> String;
    /// Parses the variant's position notation (validated).
    fn parse_position(&self, text: &str) -> Result<Self::State>;
    /// The play in the variant's move notation; `s` is the position before the play.
    fn format_play(&self, s: &Self::State, play: &Play) -> String;
    /// The board this system is played on.
    fn board(&self) -> BoardKind;
    /// Every piece (or group of pieces) and its place, for pictures and user interfaces.
    fn pieces(&self, s: &Self::State) -> Vec<PieceView>;
    /// The absolute place of a seat-relative position (the `from`/`to` of a step).
    fn place(&self, seat: u8, pos: u8) -> Place;
    /// The largest seat-relative position the system names (its positions run from 0 to it);
    /// [`RuleSystem::place`] of a larger one is meaningless.
    fn max_position(&self) -> u8 {
        u8::MAX
    }
    /// The owner of the pieces a capturing step takes, from the position `s` before the step
    /// (`None` if nothing of another seat stands on its landing). The default searches
    /// [`RuleSystem::pieces`]; a system may answer without building that list (a game records
    /// the victim of every capture, so this is on the path of every play).
    ///
    /// ```
    /// use pachisi::backgammon::BackgammonRules;
    /// use pachisi::system::{RuleSystem, SystemRules};
    /// use pachisi::{NO_PIECE, Step, StepKind};
    /// let sys = BackgammonRules::standard().build().unwrap();
    /// let mut s = sys.initial_state();
    /// // Seat 0 moves 13 -> 7; seat 1 numbers that point 25 - 7 = 18.
    /// let step = Step { seat: 0, piece: NO_PIECE, from: 13, to: 7, value: 6, count: 1,
    ///     captured: 1, kind: StepKind::Move };
    /// assert_eq!(sys.captured_owner(&s, &step), None);
    /// s.checkers[1][18] = 1;
    /// assert_eq!(sys.captured_owner(&s, &step), Some(1));
    /// ```
    fn captured_owner(&self, s: &Self::State, step: &Step) -> Option<u8> {
        let place = self.place(step.seat, step.to);
        self.pieces(s)
            .iter()
            .find(|v| v.place == place && v.seat != step.seat)
            .map(|v| v.seat)
    }
    /// The distinct legal plays at a decision node by the system's slow reference generator
    /// (`reference.rs` in its folder, written from the rules text): what the differential tests
    /// and the perft data compare [`RuleSystem::generate`] with. One play per resulting position.
    fn reference_plays(&self, s: &Self::State) -> Vec<Play>;

    /// How many owners of pieces there are: the values [`PieceView::seat`] and
    /// [`Step::seat`] take, `0..owners()`. The default is one per seat; Classic Pachisi has its
    /// four colours whatever the number of players.
    ///
    /// ```
    /// use pachisi::{RuleSystem, SystemRules, classic::ClassicRules};
    /// let two_players = ClassicRules { seats: 2, ..ClassicRules::classic() }.build().unwrap();
    /// assert_eq!((two_players.seats(), two_players.owners()), (2, 4));
    /// ```
    fn owners(&self) -> u8 {
        self.seats()
    }

    /// The board side whose colour the pieces of `owner` wear and from which they start (0..4 on
    /// the cross boards; backgammon: the seat). The default is the owner itself.
    ///
    /// ```
    /// use pachisi::{RuleSystem, SystemRules, parcheesi::ParcheesiRules};
    /// let two = ParcheesiRules { seats: 2, ..ParcheesiRules::parcheesi() }.build().unwrap();
    /// assert_eq!(two.side_of_owner(1), 2); // two players sit opposite
    /// ```
    fn side_of_owner(&self, owner: u8) -> u8 {
        owner
    }

    /// The seat that plays the pieces of `owner`. The default is the owner itself; in Classic
    /// Pachisi for two each player plays two colours.
    ///
    /// ```
    /// use pachisi::{RuleSystem, SystemRules, classic::ClassicRules};
    /// let two_players = ClassicRules { seats: 2, ..ClassicRules::classic() }.build().unwrap();
    /// assert_eq!(two_players.seat_of_owner(2), 0); // colours 0 and 2 are one player's
    /// ```
    fn seat_of_owner(&self, owner: u8) -> u8 {
        owner
    }

    /// The seats that win together with `seat` (itself included), one bit per seat as in
    /// [`Outcome::winners`]. The default is the seat alone.
    ///
    /// ```
    /// use pachisi::{RuleSystem, SystemRules, family::FamilyRules};
    /// let family = FamilyRules::family().build().unwrap();
    /// assert_eq!(family.team(1), 0b1010); // partners sit opposite
    /// let alone = FamilyRules { teams: false, ..FamilyRules::family() }.build().unwrap();
    /// assert_eq!(alone.team(1), 0b0010);
    /// ```
    fn team(&self, seat: u8) -> u16 {
        1u16.checked_shl(seat as u32).unwrap_or(0)
    }

    /// The squares on which a piece cannot be captured under these rules (safe squares,
    /// castles), in board coordinates. The default is none.
    ///
    /// ```
    /// use pachisi::{Place, RuleSystem, SystemRules, parcheesi::ParcheesiRules};
    /// let sys = ParcheesiRules::parcheesi().build().unwrap();
    /// assert_eq!(sys.safe_places().len(), 12);
    /// assert!(sys.safe_places().contains(&Place::Track { square: 7 }));
    /// let open = ParcheesiRules { safe_squares: false, ..ParcheesiRules::parcheesi() };
    /// assert!(open.build().unwrap().safe_places().is_empty());
    /// ```
    fn safe_places(&self) -> Vec<Place> {
        Vec::new()
    }

    /// The positions a piece of `owner` passes through on a step from `from` to `to`, in order
    /// and in `owner`'s coordinates, ending with `to` (the path a picture draws).
    ///
    /// The default counts one by one from `from` towards `to` (up or down), which is the path of
    /// every system whose positions are numbered along the path.
    ///
    /// ```
    /// use pachisi::{RuleSystem, SystemRules, backgammon::BackgammonRules};
    /// use pachisi::parcheesi::ParcheesiRules;
    /// let bg = BackgammonRules::standard().build().unwrap();
    /// assert_eq!(bg.route(0, 8, 5), [7, 6, 5]);
    /// let par = ParcheesiRules::parcheesi().build().unwrap();
    /// assert_eq!(par.route(0, 62, 66), [63, 64, 65, 66]); // into the home path
    /// ```
    fn route(&self, owner: u8, from: u8, to: u8) -> Vec<u8> {
        let _ = owner;
        if from <= to {
            (from.saturating_add(1)..=to).collect()
        } else {
            (to..from).rev().collect()
        }
    }

    /// Parses move notation into one of the legal plays at `s`.
    ///
    /// The default accepts exactly the text [`RuleSystem::format_play`] writes for some legal
    /// play (whitespace-insensitive); variants with richer notations override it.
    fn parse_play(&self, s: &Self::State, text: &str) -> Result<Play> {
        play_written_as(self, s, text)
    }
}

/// The legal play at `s` whose [`RuleSystem::format_play`] text is `text` (whitespace aside),
/// or [`crate::Error::IllegalMove`]: the default [`RuleSystem::parse_play`], and the lookup of a
/// system that first checks the text's form itself.
pub fn play_written_as<R: RuleSystem>(sys: &R, s: &R::State, text: &str) -> Result<Play> {
    let want: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut plays = Vec::new();
    sys.generate(s, Orders::All, &mut plays);
    plays
        .iter()
        .find(|p| sys.format_play(s, p) == want)
        .copied()
        .ok_or_else(|| crate::Error::IllegalMove(format!("`{want}` is not a legal play here")))
}

/// A rules struct of one system: serde options with presets, validated into a [`RuleSystem`].
pub trait SystemRules:
    Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static
{
    /// The rule system these options build.
    type System: RuleSystem;
    /// Validates the options (each combination that makes no sense is an error) and builds.
    fn build(&self) -> Result<Self::System>;

    /// Adjusts options the user did not give to what the ones given imply, before validation
    /// (`given`: the options overlaid on the preset). For example two seats of Family Pachisi
    /// mean no teams unless `teams` is given. The default implies nothing.
    fn imply(&mut self, given: &serde_json::Map<String, serde_json::Value>) {
        let _ = given;
    }
}
