//! Rules as data: every variant is a value of [`Rules`], a preset name plus every option.
//!
//! In JSON a rules value is one flat object: `{"variant": "parcheesi", "seats": 4, ...}`.
//! Reading JSON starts from the named preset and overlays the keys given, so
//! `{"variant": "parcheesi", "capture_bonus": 10}` is Parcheesi with a 10-square capture bonus.
//! Unknown keys, wrong types and invalid combinations are errors that name the problem.

use crate::system::SystemRules;
use crate::{Error, Result, backgammon, classic, family, parcheesi};
use serde_json::{Map, Value};

/// Names of all presets.
pub const VARIANTS: &[&str] = &[
    "parcheesi",
    "pachisi-family",
    "pachisi-online",
    "pachisi",
    "backgammon",
];

/// The names of all presets.
///
/// ```
/// assert!(pachisi::variants().contains(&"backgammon"));
/// ```
pub fn variants() -> &'static [&'static str] {
    VARIANTS
}

/// The options of one rule system.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum RulesConfig {
    /// Parcheesi and Online Pachisi (two dice, the 68-square cross-and-circle board, bonuses).
    Parcheesi(parcheesi::ParcheesiRules),
    /// Family Pachisi (two dice, partners, gates, top and bottom faces).
    Family(family::FamilyRules),
    /// Classic Pachisi (cowrie shells, the cross board, units and castles).
    Classic(classic::ClassicRules),
    /// Backgammon.
    Backgammon(backgammon::BackgammonRules),
}

/// A validated variant: the preset it started from and the value of every option.
///
/// ```
/// use pachisi::Rules;
/// let r = Rules::preset("parcheesi").unwrap();
/// let json = r.to_json();
/// assert_eq!(Rules::from_json(&json).unwrap(), r);
/// assert!(Rules::from_json(r#"{"variant":"parcheesi","no_such_option":1}"#).is_err());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Rules {
    variant: &'static str,
    config: RulesConfig,
}

fn preset_config(name: &str) -> Option<(&'static str, RulesConfig)> {
    let variant = *VARIANTS.iter().find(|v| **v == name)?;
    let config = match variant {
        "parcheesi" => RulesConfig::Parcheesi(parcheesi::ParcheesiRules::parcheesi()),
        "pachisi-online" => RulesConfig::Parcheesi(parcheesi::ParcheesiRules::online()),
        "pachisi-family" => RulesConfig::Family(family::FamilyRules::family()),
        "pachisi" => RulesConfig::Classic(classic::ClassicRules::classic()),
        "backgammon" => RulesConfig::Backgammon(backgammon::BackgammonRules::standard()),
        _ => return None,
    };
    Some((variant, config))
}

fn to_object<T: serde::Serialize>(value: &T) -> Map<String, Value> {
    match serde_json::to_value(value) {
        Ok(Value::Object(m)) => m,
        // Every rules struct serializes to an object; anything else is a bug caught by tests.
        _ => Map::new(),
    }
}

fn from_object<T: SystemRules>(variant: &str, map: Map<String, Value>) -> Result<T> {
    let rules: T = serde_json::from_value(Value::Object(map))
        .map_err(|e| Error::InvalidRules(format!("{variant}: {e}")))?;
    rules.build()?;
    Ok(rules)
}

impl Rules {
    /// The preset of that name, with its default options.
    pub fn preset(name: &str) -> Result<Rules> {
        let (variant, config) = preset_config(name).ok_or_else(|| Error::UnknownVariant {
            name: name.to_string(),
            known: VARIANTS.join(", "),
        })?;
        Ok(Rules { variant, config })
    }

    /// A preset with some options changed, e.g. `{"seats": 2}`.
    ///
    /// ```
    /// use pachisi::Rules;
    /// let r = Rules::with_options("parcheesi", &serde_json::json!({"seats": 2})).unwrap();
    /// assert_eq!(r.options()["seats"], 2);
    /// assert!(Rules::with_options("parcheesi", &serde_json::json!({"seats": 9})).is_err());
    /// ```
    pub fn with_options(name: &str, options: &Value) -> Result<Rules> {
        let Value::Object(opts) = options else {
            return Err(Error::InvalidRules("options must be a JSON object".into()));
        };
        Rules::preset(name)?.overlay(opts)
    }

    /// This value with one option changed (validated).
    ///
    /// ```
    /// use pachisi::Rules;
    /// let r = Rules::preset("pachisi-online").unwrap().with("capture", false.into()).unwrap();
    /// assert_eq!(r.options()["capture"], false);
    /// ```
    pub fn with(&self, key: &str, value: Value) -> Result<Rules> {
        let mut m = Map::new();
        m.insert(key.to_string(), value);
        self.overlay(&m)
    }

    fn overlay(&self, opts: &Map<String, Value>) -> Result<Rules> {
        let mut map = self.options();
        for (k, v) in opts {
            if k == "variant" {
                continue;
            }
            if !map.contains_key(k) {
                let known: Vec<&str> = map.keys().map(String::as_str).collect();
                return Err(Error::InvalidRules(format!(
                    "{}: unknown option `{k}` (options: {})",
                    self.variant,
                    known.join(", ")
                )));
            }
            map.insert(k.clone(), v.clone());
        }
        let config = match &self.config {
            RulesConfig::Parcheesi(_) => RulesConfig::Parcheesi(from_object(self.variant, map)?),
            RulesConfig::Family(_) => RulesConfig::Family(from_object(self.variant, map)?),
            RulesConfig::Classic(_) => RulesConfig::Classic(from_object(self.variant, map)?),
            RulesConfig::Backgammon(_) => RulesConfig::Backgammon(from_object(self.variant, map)?),
        };
        Ok(Rules {
            variant: self.variant,
            config,
        })
    }

    /// The preset this value started from.
    pub fn variant(&self) -> &'static str {
        self.variant
    }

    /// The options of the rule system.
    pub fn config(&self) -> &RulesConfig {
        &self.config
    }

    /// Every option and its value (without the `variant` key).
    pub fn options(&self) -> Map<String, Value> {
        match &self.config {
            RulesConfig::Parcheesi(r) => to_object(r),
            RulesConfig::Family(r) => to_object(r),
            RulesConfig::Classic(r) => to_object(r),
            RulesConfig::Backgammon(r) => to_object(r),
        }
    }

    /// The rules as a JSON value: `{"variant": ..., every option}`.
    pub fn to_value(&self) -> Value {
        let mut m = Map::new();
        m.insert("variant".into(), Value::String(self.variant.into()));
        m.extend(self.options());
        Value::Object(m)
    }

    /// The rules as JSON text.
    pub fn to_json(&self) -> String {
        self.to_value().to_string()
    }

    /// Reads rules from a JSON value: `variant` names the preset, other keys override options.
    pub fn from_value(value: &Value) -> Result<Rules> {
        let Value::Object(m) = value else {
            return Err(Error::InvalidJson("rules must be a JSON object".into()));
        };
        let variant = match m.get("variant") {
            Some(Value::String(s)) => s.as_str(),
            Some(_) => return Err(Error::InvalidRules("`variant` must be a string".into())),
            None => {
                return Err(Error::InvalidRules(
                    "missing `variant` (a preset name)".into(),
                ));
            }
        };
        Rules::preset(variant)?.overlay(m)
    }

    /// Reads rules from JSON text.
    pub fn from_json(text: &str) -> Result<Rules> {
        let value: Value =
            serde_json::from_str(text).map_err(|e| Error::InvalidJson(e.to_string()))?;
        Rules::from_value(&value)
    }
}

impl serde::Serialize for Rules {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        self.to_value().serialize(s)
    }
}

impl<'de> serde::Deserialize<'de> for Rules {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        Rules::from_value(&v).map_err(serde::de::Error::custom)
    }
}

impl std::str::FromStr for Rules {
    type Err = Error;
    /// A preset name, or a JSON object.
    fn from_str(s: &str) -> Result<Rules> {
        if s.trim_start().starts_with('{') {
            Rules::from_json(s)
        } else {
            Rules::preset(s.trim())
        }
    }
}
