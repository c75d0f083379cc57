//! The option sets of the Parcheesi rule system the tests run under (the generators against the
//! reference, the direct listing of next steps against the grouped plays).

use pachisi::parcheesi::ParcheesiRules;

/// Option sets: both presets, and from each every boolean flipped and every enum value, where
/// the combination is valid.
pub fn option_sets() -> Vec<(String, ParcheesiRules)> {
    let mut out = Vec::new();
    for (name, base) in [
        ("parcheesi", ParcheesiRules::parcheesi()),
        ("pachisi-online", ParcheesiRules::online()),
    ] {
        out.push((name.to_string(), base.clone()));
        let mut add = |what: &str, f: &dyn Fn(&mut ParcheesiRules)| {
            let mut r = base.clone();
            f(&mut r);
            if r.validate().is_ok() && r != base {
                out.push((format!("{name} {what}"), r));
            }
        };
        add("enter_with_sum flipped", &|r| r.enter_with_sum ^= true);
        add("doubles_bottom_faces flipped", &|r| {
            r.doubles_bottom_faces ^= true
        });
        add("doubles_extra_roll off", &|r| {
            r.doubles_extra_roll = false;
            r.third_doubles_penalty = false;
        });
        add("capture flipped", &|r| r.capture ^= true);
        add("bonuses_chain flipped", &|r| r.bonuses_chain ^= true);
        add("most-bonuses", &|r| {
            r.bonus_obligation = pachisi::parcheesi::BonusObligation::MostBonuses
        });
        add("bonus order any", &|r| {
            r.bonus_order = pachisi::parcheesi::BonusOrder::Any;
            r.bonus_obligation = pachisi::parcheesi::BonusObligation::MostBonuses;
        });
        add("blockades off", &|r| {
            r.blockades = false;
            r.blockade_no_joint_move = false;
            r.blockade_turn_limit = 0;
        });
        add("blockade_no_joint_move flipped", &|r| {
            r.blockade_no_joint_move ^= true
        });
        add("blockade turn limit 2", &|r| r.blockade_turn_limit = 2);
        add("three per square, limit 1", &|r| {
            r.max_pieces_per_square = 3;
            r.blockade_turn_limit = 1;
        });
        add("safe_squares flipped", &|r| r.safe_squares ^= true);
        add("entry_capture flipped", &|r| r.entry_capture ^= true);
        add("go_round_again flipped", &|r| r.go_round_again ^= true);
        add("pass_allowed flipped", &|r| r.pass_allowed ^= true);
        add("bonuses 10 and 10", &|r| {
            r.capture_bonus = 10;
            r.home_bonus = 10;
        });
        add("two seats", &|r| r.seats = 2);
        add("three seats", &|r| r.seats = 3);
    }
    out
}
