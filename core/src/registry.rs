//! The one list of rule systems, and the one place that dispatches on it.
//!
//! [`for_each_system!`](crate::for_each_system) names every system once: its variant name in
//! [`crate::RulesConfig`] and [`crate::Game`], and its options type. Those two enums, their
//! dispatch, and the [`Registered`] glue are generated from the list, so adding a system is its
//! folder under `core/src/` plus one line here (and its presets in `rules.rs`). Code that works on
//! any system is written once as a generic function and reached through a [`SystemVisitor`]
//! ([`crate::RulesConfig::visit`]) or through [`crate::Game`]'s methods.
//!
//! ```
//! use pachisi::{Rules, SystemRules, SystemVisitor, Registered};
//! /// How many seats a rules value plays with, by building its system.
//! struct Seats;
//! impl SystemVisitor for Seats {
//!     type Output = u8;
//!     fn visit<T: Registered>(self, rules: &T) -> u8 {
//!         use pachisi::RuleSystem;
//!         rules.build().map(|s| s.seats()).unwrap_or(0)
//!     }
//! }
//! assert_eq!(Rules::preset("backgammon").unwrap().config().visit(Seats), 2);
//! ```

use crate::game::{Game, GameOf};
use crate::rules::RulesConfig;
use crate::system::SystemRules;

/// Calls `$m!` with the list of rule systems: `(Variant, options type, doc)` per system.
#[macro_export]
#[doc(hidden)]
macro_rules! for_each_system {
    ($m:ident) => {
        $m! {
            (Parcheesi, $crate::parcheesi::ParcheesiRules,
             "Parcheesi and Online Pachisi (two dice, the 68-square loop board, bonuses)."),
            (Family, $crate::family::FamilyRules,
             "Family Pachisi (two dice, partners, gates, top and bottom faces)."),
            (Classic, $crate::classic::ClassicRules,
             "Classic Pachisi (cowrie shells, the cross board, units and castles)."),
            (Backgammon, $crate::backgammon::BackgammonRules, "Backgammon."),
        }
    };
}

/// A system's options type known to the registry: it converts into the run-time enums.
pub trait Registered: SystemRules {
    /// These options as a [`RulesConfig`].
    fn into_config(self) -> RulesConfig;
    /// A game of this system as a [`Game`].
    fn into_game(game: GameOf<Self::System>) -> Game;
}

/// Something done with whichever rule system a [`RulesConfig`] holds: written once, generic over
/// the system's options type.
pub trait SystemVisitor {
    /// What the visit returns.
    type Output;
    /// Does the work for one system.
    fn visit<T: Registered>(self, rules: &T) -> Self::Output;
}

macro_rules! registered {
    ($(($name:ident, $rules:ty, $doc:literal)),* $(,)?) => {$(
        impl Registered for $rules {
            fn into_config(self) -> RulesConfig {
                RulesConfig::$name(self)
            }
            fn into_game(game: GameOf<Self::System>) -> Game {
                Game::$name(game)
            }
        }
    )*};
}
for_each_system!(registered);
