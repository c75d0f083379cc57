//! Option introspection: every option of a preset with its type, default and valid range, to
//! build a settings screen without knowing the rules.
//!
//! The information is derived from the rules themselves, once per preset: the type from the
//! preset's JSON value, the range of an integer by validating each candidate value with the
//! other options at the preset's defaults, and the choices of a named option from the names its
//! deserializer accepts (each checked to validate). A range is what validates *at the preset's
//! defaults*: some options constrain each other (a combination can still be rejected).

use crate::rules::{Rules, VARIANTS};
use serde::Serialize;
use serde_json::Value;
use std::sync::OnceLock;

/// The type of an option.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum OptionKind {
    /// `true` or `false`.
    Bool,
    /// A whole number in `min..=max`.
    Integer,
    /// A real number (a probability).
    Number,
    /// One of named choices.
    Choice,
    /// A list of numbers (a table of the rules).
    List,
}

/// One option of a preset (see [`Rules::option_info`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OptionInfo {
    /// The option's key in the rules JSON.
    pub name: String,
    /// Its type.
    pub kind: OptionKind,
    /// The preset's value.
    pub default: Value,
    /// Integers: the smallest value that validates (at the preset's other values).
    pub min: Option<i64>,
    /// Integers: the largest value that validates.
    pub max: Option<i64>,
    /// Integers: whether every value from `min` to `max` validates.
    pub contiguous: bool,
    /// Integers: every value that validates, when there are at most 16 (Classic Pachisi's seats
    /// are 2 or 4, the cube's limit a power of two); empty otherwise.
    pub values: Vec<i64>,
    /// Choices: every name the option's type accepts (some only together with other options).
    pub choices: Vec<String>,
}

fn kind_of(v: &Value) -> OptionKind {
    match v {
        Value::Bool(_) => OptionKind::Bool,
        Value::Number(n) if n.is_i64() || n.is_u64() => OptionKind::Integer,
        Value::Number(_) => OptionKind::Number,
        Value::String(_) => OptionKind::Choice,
        _ => OptionKind::List,
    }
}

/// The names between backquotes after "expected" in a deserializer's message.
fn expected_names(message: &str) -> Vec<String> {
    let Some(at) = message.find("expected") else {
        return Vec::new();
    };
    message[at..]
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

fn info_of(preset: &Rules, name: &str, default: &Value) -> OptionInfo {
    let kind = kind_of(default);
    let valid = |v: Value| preset.with(name, v).is_ok();
    let mut info = OptionInfo {
        name: name.to_string(),
        kind,
        default: default.clone(),
        min: None,
        max: None,
        contiguous: false,
        values: Vec::new(),
        choices: Vec::new(),
    };
    match kind {
        OptionKind::Integer => {
            // Every value up to 256, then powers of two: wide types (the cube's limit) too.
            let mut ok: Vec<i64> = (0..=256i64).filter(|&v| valid(v.into())).collect();
            if ok.last() == Some(&256) {
                let mut p = 512i64;
                while p <= 1 << 40 && valid(p.into()) {
                    ok.push(p);
                    p *= 2;
                }
                // The largest valid value between the last valid power and the next (a bound
                // such as `max_rolls`' 100,000 is no power of two), by bisection.
                let (mut good, mut bad) = (p / 2, p);
                if p <= 1 << 40 {
                    while bad - good > 1 {
                        let mid = good + (bad - good) / 2;
                        if valid(mid.into()) {
                            good = mid;
                        } else {
                            bad = mid;
                        }
                    }
                    if good > p / 2 {
                        ok.push(good);
                    }
                }
            }
            info.min = ok.first().copied();
            info.max = ok.last().copied();
            // Every value up to 256 is probed; past it the probes are sparse (powers of two,
            // then the bisected bound), all valid by construction: a range that is dense up to
            // 256 is taken as dense to its maximum (`max_rolls`' 1..=100000 is).
            let dense: Vec<i64> = ok.iter().copied().filter(|&v| v <= 256).collect();
            info.contiguous = dense.windows(2).all(|w| w[1] == w[0] + 1);
            if ok.len() <= 16 {
                info.values = ok;
            }
        }
        OptionKind::Choice => {
            let probe = "\u{1}no such choice";
            if let Err(e) = preset.with(name, probe.into()) {
                // Every name of the type: one may still need other options changed with it
                // (Parcheesi's `bonus_order: "any"` needs `bonus_obligation: "most-bonuses"`).
                info.choices = expected_names(&e.to_string());
            }
        }
        _ => {}
    }
    info
}

impl Rules {
    /// Every option of this rules value's preset: name, type, the preset's value, the range of
    /// an integer (what validates with the other options at the preset's values) or the names
    /// a named option accepts. Computed once per preset.
    ///
    /// ```
    /// use pachisi::{OptionKind, Rules};
    /// let r = Rules::preset("parcheesi").unwrap();
    /// let seats = r.option_info().iter().find(|o| o.name == "seats").unwrap();
    /// assert_eq!((seats.kind, seats.min, seats.max), (OptionKind::Integer, Some(2), Some(4)));
    /// assert_eq!(seats.default, 4);
    /// assert_eq!(seats.values, [2, 3, 4]);
    /// let order = r.option_info().iter().find(|o| o.name == "bonus_order").unwrap();
    /// assert_eq!(order.choices, ["dice-first", "any"]);
    /// let rolls = r.option_info().iter().find(|o| o.name == "max_rolls").unwrap();
    /// assert_eq!((rolls.min, rolls.max, rolls.contiguous), (Some(1), Some(100_000), true));
    /// ```
    pub fn option_info(&self) -> &'static [OptionInfo] {
        static INFO: [OnceLock<Vec<OptionInfo>>; VARIANTS.len()] =
            [const { OnceLock::new() }; VARIANTS.len()];
        let i = VARIANTS
            .iter()
            .position(|v| *v == self.variant())
            .unwrap_or(0);
        INFO[i].get_or_init(|| match Rules::preset(VARIANTS[i]) {
            Ok(preset) => preset
                .options()
                .iter()
                .map(|(k, v)| info_of(&preset, k, v))
                .collect(),
            Err(_) => Vec::new(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_of_every_preset_is_described_and_its_default_is_in_range() {
        for v in VARIANTS {
            let r = Rules::preset(v).unwrap();
            let info = r.option_info();
            assert_eq!(info.len(), r.options().len(), "{v}");
            for o in info {
                assert_eq!(r.options()[&o.name], o.default, "{v} {}", o.name);
                match o.kind {
                    OptionKind::Integer => {
                        let d = o.default.as_i64().unwrap();
                        let (lo, hi) = (o.min.unwrap(), o.max.unwrap());
                        assert!(lo <= d && d <= hi, "{v} {}", o.name);
                        assert!(o.values.is_empty() || o.values.contains(&d));
                        assert!(r.with(&o.name, (hi + 1).into()).is_err() || hi >= 1 << 40);
                    }
                    OptionKind::Choice => {
                        assert!(o.choices.len() >= 2, "{v} {}: {:?}", o.name, o.choices);
                        assert!(o.choices.contains(&o.default.as_str().unwrap().to_string()));
                        // Each name is read (a failure, if any, is about the combination).
                        for c in &o.choices {
                            if let Err(e) = r.with(&o.name, c.as_str().into()) {
                                assert!(!e.to_string().contains("unknown variant"), "{e}");
                            }
                        }
                    }
                    _ => assert!(o.choices.is_empty() && o.min.is_none()),
                }
            }
        }
    }
}
