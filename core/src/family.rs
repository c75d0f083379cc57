//! PLACEHOLDER: replaced by the real rule system. Compiles so the rest of the workspace can.
#![allow(missing_docs, unused_variables)]

use crate::dice::{ChanceOutcome, GameRng, Roll};
use crate::play::{Play, Step};
use crate::system::{BoardKind, Node, Orders, Outcome, PieceView, Place, RuleSystem, SystemRules};
use crate::{Error, Result};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FamilyRules {
    pub seats: u8,
}

impl FamilyRules {
    pub fn family() -> Self {
        Self { seats: 4 }
    }
}

impl SystemRules for FamilyRules {
    type System = FamilySystem;
    fn build(&self) -> Result<FamilySystem> {
        Ok(FamilySystem)
    }
}

#[derive(Clone, Debug)]
pub struct FamilySystem;

impl RuleSystem for FamilySystem {
    type State = u8;
    fn seats(&self) -> u8 {
        2
    }
    fn initial_state(&self) -> u8 {
        0
    }
    fn validate_state(&self, s: &u8) -> Result<()> {
        Ok(())
    }
    fn node(&self, s: &u8) -> Node {
        Node::Over
    }
    fn to_move(&self, s: &u8) -> u8 {
        0
    }
    fn chance_outcomes(&self, s: &u8) -> Vec<ChanceOutcome> {
        Vec::new()
    }
    fn sample_roll(&self, s: &u8, rng: &mut GameRng) -> Roll {
        Roll::Cowries(0)
    }
    fn check_roll(&self, s: &u8, roll: Roll) -> Result<()> {
        Err(Error::InvalidRoll("placeholder".into()))
    }
    fn begin_roll(&self, s: &mut u8, roll: Roll) {}
    fn generate(&self, s: &u8, orders: Orders, out: &mut Vec<Play>) {}
    fn apply_step(&self, s: &mut u8, step: &Step) {}
    fn end_play(&self, s: &mut u8, play: &Play) {}
    fn outcome(&self, s: &u8) -> Option<Outcome> {
        None
    }
    fn format_position(&self, s: &u8) -> String {
        String::new()
    }
    fn parse_position(&self, text: &str) -> Result<u8> {
        Err(Error::InvalidNotation("placeholder".into()))
    }
    fn format_play(&self, s: &u8, play: &Play) -> String {
        String::new()
    }
    fn board(&self) -> BoardKind {
        BoardKind::Race
    }
    fn pieces(&self, s: &u8) -> Vec<PieceView> {
        Vec::new()
    }
    fn place(&self, seat: u8, pos: u8) -> Place {
        Place::Bar
    }
}
