//! Rules as data: every variant is a value of [`Rules`], a preset name plus every option.
//!
//! In JSON a rules value is one flat object: `{"variant": "parcheesi", "seats": 4, ...}`.
//! Reading JSON starts from the named preset and overlays the keys given, so
//! `{"variant": "parcheesi", "capture_bonus": 10}` is Parcheesi with a 10-square capture bonus.
//! Unknown keys, wrong types and invalid combinations are errors that name the problem.

use crate::error::{EXCERPT_CHARS, excerpt};
use crate::registry::{Registered, SystemVisitor};
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

/// Parses JSON text written by hand (rules, options) into a value: invalid JSON, or an object
/// that gives one key twice (which plain JSON readers settle silently by keeping the last, so
/// that `{"seats": 2, "seats": 4}` would mean 4 seats), is [`Error::InvalidJson`].
///
/// ```
/// use pachisi::rules::parse_json;
/// assert_eq!(parse_json(r#"{"seats": 2}"#).unwrap()["seats"], 2);
/// let e = parse_json(r#"{"a": {"seats": 2, "seats": 4}}"#).unwrap_err();
/// assert!(e.to_string().contains("`seats` twice"), "{e}");
/// ```
pub fn parse_json(text: &str) -> Result<Value> {
    use serde::de::{DeserializeSeed, Deserializer, Error as _, MapAccess, SeqAccess, Visitor};
    use std::fmt;
    /// A value read with every object's keys checked.
    struct Unique;
    impl<'de> DeserializeSeed<'de> for Unique {
        type Value = Value;
        fn deserialize<D: Deserializer<'de>>(self, d: D) -> std::result::Result<Value, D::Error> {
            d.deserialize_any(self)
        }
    }
    impl<'de> Visitor<'de> for Unique {
        type Value = Value;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a JSON value")
        }
        fn visit_bool<E>(self, v: bool) -> std::result::Result<Value, E> {
            Ok(Value::Bool(v))
        }
        fn visit_i64<E>(self, v: i64) -> std::result::Result<Value, E> {
            Ok(Value::from(v))
        }
        fn visit_u64<E>(self, v: u64) -> std::result::Result<Value, E> {
            Ok(Value::from(v))
        }
        fn visit_f64<E>(self, v: f64) -> std::result::Result<Value, E> {
            // (JSON text has no infinite or NaN number.)
            Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
        }
        fn visit_str<E>(self, v: &str) -> std::result::Result<Value, E> {
            Ok(Value::String(v.to_owned()))
        }
        fn visit_string<E>(self, v: String) -> std::result::Result<Value, E> {
            Ok(Value::String(v))
        }
        fn visit_unit<E>(self) -> std::result::Result<Value, E> {
            Ok(Value::Null)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> std::result::Result<Value, A::Error> {
            let mut out = Vec::new();
            while let Some(v) = a.next_element_seed(Unique)? {
                out.push(v);
            }
            Ok(Value::Array(out))
        }
        fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> std::result::Result<Value, A::Error> {
            let mut out = Map::new();
            while let Some(k) = a.next_key::<String>()? {
                if out.contains_key(&k) {
                    return Err(A::Error::custom(format!(
                        "an object gives the key `{}` twice",
                        excerpt(&k, EXCERPT_CHARS)
                    )));
                }
                let v = a.next_value_seed(Unique)?;
                out.insert(k, v);
            }
            Ok(Value::Object(out))
        }
    }
    let mut de = serde_json::Deserializer::from_str(text);
    Unique
        .deserialize(&mut de)
        .and_then(|v| de.end().map(|()| v))
        .map_err(|e| Error::InvalidJson(e.to_string()))
}

/// The names of all presets.
///
/// ```
/// assert!(pachisi::variants().contains(&"backgammon"));
/// ```
pub fn variants() -> &'static [&'static str] {
    VARIANTS
}

macro_rules! rules_config {
    ($(($name:ident, $rules:ty, $doc:literal)),* $(,)?) => {
        /// The options of one rule system (one variant per system of [`crate::for_each_system`]).
        #[derive(Clone, Debug, PartialEq)]
        #[non_exhaustive]
        pub enum RulesConfig {
            $(#[doc = $doc] $name($rules),)*
        }

        impl RulesConfig {
            /// Runs `visitor` on the options of whichever system this is: the one dispatch point.
            ///
            /// ```
            /// use pachisi::{Registered, Rules, SystemVisitor};
            /// struct Name;
            /// impl SystemVisitor for Name {
            ///     type Output = &'static str;
            ///     fn visit<T: Registered>(self, _: &T) -> &'static str {
            ///         std::any::type_name::<T>()
            ///     }
            /// }
            /// let r = Rules::preset("pachisi").unwrap();
            /// assert!(r.config().visit(Name).ends_with("ClassicRules"));
            /// ```
            pub fn visit<V: SystemVisitor>(&self, visitor: V) -> V::Output {
                match self {
                    $(RulesConfig::$name(r) => visitor.visit(r),)*
                }
            }
        }
    };
}
crate::for_each_system!(rules_config);

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

/// `value` with every string longer than [`EXCERPT_CHARS`] cut and every array cut to its first
/// items: what an error message may quote of it.
fn shortened(value: &Value) -> Value {
    match value {
        Value::String(s) => Value::String(excerpt(s, EXCERPT_CHARS)),
        Value::Array(a) => Value::Array(a.iter().take(8).map(shortened).collect()),
        Value::Object(m) => Value::Object(
            m.iter()
                .take(8)
                .map(|(k, v)| (excerpt(k, EXCERPT_CHARS), shortened(v)))
                .collect(),
        ),
        v => v.clone(),
    }
}

fn from_object<T: SystemRules>(
    variant: &str,
    base: &Map<String, Value>,
    map: Map<String, Value>,
    given: &Map<String, Value>,
) -> Result<T> {
    let mut rules: T = match serde_json::from_value(Value::Object(map)) {
        Ok(r) => r,
        Err(e) => {
            // Name the option: the first given key that alone makes the valid options fail,
            // and quote at most an excerpt of its value.
            for (k, v) in given {
                let mut one = base.clone();
                if k == "variant" || !one.contains_key(k) {
                    continue;
                }
                one.insert(k.clone(), shortened(v));
                if let Err(e) = serde_json::from_value::<T>(Value::Object(one)) {
                    let msg = e.to_string();
                    let named = format!("option `{k}`");
                    return Err(Error::InvalidRules(if msg.contains(&named) {
                        format!("{variant}: {msg}")
                    } else {
                        format!("{variant}: {named}: {msg}")
                    }));
                }
            }
            return Err(Error::InvalidRules(format!(
                "{variant}: {}",
                excerpt(&e.to_string(), 4 * EXCERPT_CHARS)
            )));
        }
    };
    rules.imply(given);
    // Every rules error names its variant, whichever check found it (one rules struct serves
    // several presets, so the checks themselves do not know the preset's name).
    rules.build().map_err(|e| match e {
        Error::InvalidRules(msg) => Error::InvalidRules(format!("{variant}: {msg}")),
        other => other,
    })?;
    Ok(rules)
}

impl Rules {
    /// The preset of that name, with its default options.
    pub fn preset(name: &str) -> Result<Rules> {
        let (variant, config) = preset_config(name).ok_or_else(|| Error::UnknownVariant {
            name: excerpt(name, EXCERPT_CHARS),
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

    /// This value with the options of `opts` changed (validated): the one overlay every binding
    /// uses. A `variant` key may only repeat this value's preset (so a whole rules object can be
    /// overlaid); to change the preset, start from another one.
    ///
    /// ```
    /// use pachisi::Rules;
    /// let r = Rules::preset("parcheesi").unwrap();
    /// let opts = serde_json::json!({"capture_bonus": 10});
    /// assert_eq!(r.overlay(opts.as_object().unwrap()).unwrap().options()["capture_bonus"], 10);
    /// let other = serde_json::json!({"variant": "backgammon"});
    /// assert!(r.overlay(other.as_object().unwrap()).is_err());
    /// ```
    pub fn overlay(&self, opts: &Map<String, Value>) -> Result<Rules> {
        let base = self.options();
        let mut map = base.clone();
        for (k, v) in opts {
            if k == "variant" {
                if v.as_str() == Some(self.variant) {
                    continue;
                }
                return Err(Error::InvalidRules(format!(
                    "`variant` is not an option of `{}`: start from the other preset instead",
                    self.variant
                )));
            }
            if !map.contains_key(k) {
                let known: Vec<&str> = map.keys().map(String::as_str).collect();
                return Err(Error::InvalidRules(format!(
                    "{}: unknown option `{}` (options: {})",
                    self.variant,
                    excerpt(k, EXCERPT_CHARS),
                    known.join(", ")
                )));
            }
            map.insert(k.clone(), v.clone());
        }
        struct Rebuild<'a>(
            &'static str,
            &'a Map<String, Value>,
            Map<String, Value>,
            &'a Map<String, Value>,
        );
        impl SystemVisitor for Rebuild<'_> {
            type Output = Result<RulesConfig>;
            fn visit<T: Registered>(self, _: &T) -> Result<RulesConfig> {
                Ok(from_object::<T>(self.0, self.1, self.2, self.3)?.into_config())
            }
        }
        let config = self.config.visit(Rebuild(self.variant, &base, map, opts))?;
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
        struct Options;
        impl SystemVisitor for Options {
            type Output = Map<String, Value>;
            fn visit<T: Registered>(self, rules: &T) -> Map<String, Value> {
                to_object(rules)
            }
        }
        self.config.visit(Options)
    }

    /// The options whose values differ from the preset's (what a short description or a
    /// pasteable `Rules(...)` needs).
    ///
    /// ```
    /// use pachisi::Rules;
    /// let r = Rules::preset("parcheesi").unwrap().with("seats", 2.into()).unwrap();
    /// assert_eq!(r.changed_options().keys().collect::<Vec<_>>(), ["seats"]);
    /// ```
    pub fn changed_options(&self) -> Map<String, Value> {
        let preset = Rules::preset(self.variant)
            .map(|p| p.options())
            .unwrap_or_default();
        self.options()
            .into_iter()
            .filter(|(k, v)| preset.get(k) != Some(v))
            .collect()
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

    /// Reads rules from JSON text (an object repeating a key is refused, see [`parse_json`]).
    ///
    /// ```
    /// use pachisi::Rules;
    /// let r = Rules::from_json(r#"{"variant": "parcheesi", "seats": 2}"#).unwrap();
    /// assert_eq!(r.variant(), "parcheesi");
    /// assert!(Rules::from_json(r#"{"variant": "parcheesi", "seats": 2, "seats": 4}"#).is_err());
    /// ```
    pub fn from_json(text: &str) -> Result<Rules> {
        Rules::from_value(&parse_json(text)?)
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

impl std::fmt::Display for Rules {
    /// The rules as JSON text ([`Rules::to_json`]), which [`str::parse`] reads back.
    ///
    /// ```
    /// use pachisi::Rules;
    /// let r = Rules::preset("parcheesi").unwrap().with("seats", 2.into()).unwrap();
    /// assert_eq!(r.to_string().parse::<Rules>().unwrap(), r);
    /// ```
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_json())
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
