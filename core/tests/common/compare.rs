//! The checks every differential test makes of a fast generator's plays against its reference
//! generator's: `reference` maps each resulting position the reference reaches to the notations
//! of the plays reaching it.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Debug;

/// One listed fast play, reaching `position` and written `text`: its position is new among the
/// fast plays and legal by the reference, its notation one the reference gives for that
/// position and not listed before.
pub fn check_listed<B: Ord + Debug>(
    reference: &BTreeMap<B, BTreeSet<String>>,
    seen: &mut BTreeSet<B>,
    texts: &mut BTreeSet<String>,
    position: B,
    text: &str,
) -> Result<(), String> {
    let Some(ok) = reference.get(&position) else {
        return Err(format!(
            "`{text}` (to {position:?}) is not legal by the reference (legal: {:?})",
            reference.values().collect::<Vec<_>>()
        ));
    };
    if !ok.contains(text) {
        return Err(format!(
            "`{text}` reaches a legal position, but the reference reaches it by {ok:?}"
        ));
    }
    if !seen.insert(position) {
        return Err(format!("two plays reach one position (`{text}`)"));
    }
    if !texts.insert(text.to_string()) {
        return Err(format!("`{text}` is listed twice"));
    }
    Ok(())
}

/// After every fast play: each position the reference reaches was listed.
pub fn check_complete<B: Ord>(
    reference: &BTreeMap<B, BTreeSet<String>>,
    seen: &BTreeSet<B>,
) -> Result<(), String> {
    let missing: Vec<&BTreeSet<String>> = reference
        .iter()
        .filter(|(b, _)| !seen.contains(*b))
        .map(|(_, t)| t)
        .collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!("the fast generator misses {missing:?}"))
    }
}

/// Every order of every play (`Orders::All`: what the step-by-step interface and `parse_play`
/// walk), written as `all_texts`, is exactly the set of the reference's notations.
pub fn check_every_order<B: Ord>(
    reference: &BTreeMap<B, BTreeSet<String>>,
    all_texts: &[String],
) -> Result<(), String> {
    let fast: BTreeSet<&String> = all_texts.iter().collect();
    let by_reference: BTreeSet<&String> = reference.values().flatten().collect();
    if fast == by_reference {
        Ok(())
    } else {
        Err(format!(
            "every order: only the fast generator lists {:?}, only the reference {:?}",
            fast.difference(&by_reference).collect::<Vec<_>>(),
            by_reference.difference(&fast).collect::<Vec<_>>()
        ))
    }
}
