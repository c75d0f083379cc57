//! Dice and throws: what a roll is, how one is drawn from a seeded generator, and the exact
//! distribution of every throw model (two dice, one die per side for an opening roll, cowries).

use rand::Rng;
use serde::{Deserialize, Serialize};

/// The random generator every game owns: PCG-64 (XSL-RR 128/64), seeded from a `u64`.
///
/// A named, portable algorithm, so a seed replays the same game on every platform and release.
pub type GameRng = rand_pcg::Pcg64;

/// Creates the generator for a seed.
///
/// ```
/// let mut a = pachisi::dice::rng_from_seed(7);
/// let mut b = pachisi::dice::rng_from_seed(7);
/// assert_eq!(pachisi::dice::roll_die(&mut a), pachisi::dice::roll_die(&mut b));
/// ```
pub fn rng_from_seed(seed: u64) -> GameRng {
    use rand::SeedableRng;
    GameRng::seed_from_u64(seed)
}

/// One chance outcome: two dice, or a throw of cowrie shells.
///
/// In JSON a dice roll is `[5, 3]` and a cowrie throw is the number of shells that landed
/// mouth up, e.g. `2`.
///
/// ```
/// use pachisi::Roll;
/// let r: Roll = serde_json::from_str("[5,3]").unwrap();
/// assert_eq!(r, Roll::Dice([5, 3]));
/// assert!(!r.is_doubles());
/// assert_eq!(serde_json::to_string(&Roll::Cowries(0)).unwrap(), "0");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Roll {
    /// Two six-sided dice, in the order they were given.
    Dice([u8; 2]),
    /// Six cowrie shells: how many landed mouth up (0..=6).
    Cowries(u8),
}

impl Roll {
    /// Whether both dice show the same number (never true for cowries).
    pub fn is_doubles(&self) -> bool {
        matches!(self, Roll::Dice([a, b]) if a == b)
    }

    /// The dice as (higher, lower), or `None` for a cowrie throw.
    ///
    /// ```
    /// assert_eq!(pachisi::Roll::Dice([2, 6]).high_low(), Some((6, 2)));
    /// ```
    pub fn high_low(&self) -> Option<(u8, u8)> {
        match *self {
            Roll::Dice([a, b]) => Some((a.max(b), a.min(b))),
            Roll::Cowries(_) => None,
        }
    }

    /// Checks that two dice each show 1..=6.
    pub fn check_dice(&self) -> crate::Result<()> {
        match *self {
            Roll::Dice([a, b]) if (1..=6).contains(&a) && (1..=6).contains(&b) => Ok(()),
            Roll::Dice(d) => Err(crate::Error::InvalidRoll(format!(
                "dice must show 1..=6, got {d:?}"
            ))),
            Roll::Cowries(n) => Err(crate::Error::InvalidRoll(format!(
                "this variant throws two dice, not cowries (got {n} shells up)"
            ))),
        }
    }
}

impl std::str::FromStr for Roll {
    type Err = crate::Error;
    /// Reads what [`Roll`]'s `Display` writes: two dice as `5-3`, a cowrie throw as `2 up`
    /// (any digits: whether the roll can occur is for the game to say, as
    /// [`crate::Game::set_roll`] does).
    ///
    /// ```
    /// use pachisi::Roll;
    /// assert_eq!("5-3".parse::<Roll>().unwrap(), Roll::Dice([5, 3]));
    /// assert_eq!("2 up".parse::<Roll>().unwrap(), Roll::Cowries(2));
    /// assert_eq!(Roll::Dice([6, 6]).to_string().parse::<Roll>().unwrap(), Roll::Dice([6, 6]));
    /// assert!("5+3".parse::<Roll>().is_err());
    /// ```
    fn from_str(text: &str) -> crate::Result<Roll> {
        let number = |t: &str| {
            (!t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
                .then(|| t.parse::<u8>().ok())
                .flatten()
        };
        let t = text.trim();
        let roll = if let Some(n) = t.strip_suffix(" up") {
            number(n).map(Roll::Cowries)
        } else {
            t.split_once('-')
                .and_then(|(a, b)| Some(Roll::Dice([number(a)?, number(b)?])))
        };
        roll.ok_or_else(|| {
            crate::Error::InvalidNotation(format!(
                "a roll is two dice such as `5-3` or a throw such as `2 up`, got `{}`",
                crate::error::excerpt(text, crate::error::EXCERPT_CHARS)
            ))
        })
    }
}

impl std::fmt::Display for Roll {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Roll::Dice([a, b]) => write!(f, "{a}-{b}"),
            Roll::Cowries(n) => write!(f, "{n} up"),
        }
    }
}

/// A chance outcome with its exact probability.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChanceOutcome {
    /// The roll.
    pub roll: Roll,
    /// Its probability; the outcomes of one chance node sum to 1.
    pub probability: f64,
}

/// Draws one die (1..=6) without bias, from 32 random bits (rejection of the top sliver).
pub fn roll_die(rng: &mut GameRng) -> u8 {
    // 4294967292 = 6 * 715827882: the largest multiple of 6 that fits in u32.
    const LIMIT: u32 = 4_294_967_292;
    loop {
        let x = rng.next_u32();
        if x < LIMIT {
            return (x % 6) as u8 + 1;
        }
    }
}

/// Draws two dice.
pub fn roll_two_dice(rng: &mut GameRng) -> Roll {
    Roll::Dice([roll_die(rng), roll_die(rng)])
}

/// Two dice in one order, higher first (as [`two_dice_outcomes`] lists them): the form positions
/// are compared in, where no rule depends on which die is which.
///
/// ```
/// assert_eq!(pachisi::dice::high_first([3, 5]), [5, 3]);
/// assert_eq!(pachisi::dice::high_first([5, 3]), [5, 3]);
/// ```
pub fn high_first(dice: [u8; 2]) -> [u8; 2] {
    [dice[0].max(dice[1]), dice[0].min(dice[1])]
}

/// The 21 distinct two-dice outcomes, higher die first, with probability 1/36 (doubles) or 2/36.
///
/// ```
/// let o = pachisi::dice::two_dice_outcomes();
/// assert_eq!(o.len(), 21);
/// assert!((o.iter().map(|c| c.probability).sum::<f64>() - 1.0).abs() < 1e-12);
/// ```
pub fn two_dice_outcomes() -> Vec<ChanceOutcome> {
    let mut out = Vec::with_capacity(21);
    for hi in (1..=6u8).rev() {
        for lo in (1..=hi).rev() {
            let p = if hi == lo { 1.0 / 36.0 } else { 2.0 / 36.0 };
            out.push(ChanceOutcome {
                roll: Roll::Dice([hi, lo]),
                probability: p,
            });
        }
    }
    out
}

/// Throws `shells` cowries, each landing mouth up with probability `p_up`; returns how many did.
pub fn throw_cowries(rng: &mut GameRng, shells: u8, p_up: f64) -> u8 {
    // Compare 53 random bits with p: exact for every p a user can give as an f64.
    let mut up = 0;
    for _ in 0..shells {
        let u = (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64);
        if u < p_up {
            up += 1;
        }
    }
    up
}

/// The binomial distribution of mouths up for `shells` cowries with per-shell probability `p_up`.
///
/// ```
/// let d = pachisi::dice::cowrie_distribution(6, 0.5);
/// assert_eq!(d.len(), 7);
/// assert!((d[0] - 1.0 / 64.0).abs() < 1e-15);
/// assert!((d[3] - 20.0 / 64.0).abs() < 1e-15);
/// ```
pub fn cowrie_distribution(shells: u8, p_up: f64) -> Vec<f64> {
    let n = shells as u32;
    (0..=n)
        .map(|k| {
            let binom = (0..k).fold(1.0f64, |acc, i| acc * (n - i) as f64 / (i + 1) as f64);
            binom * p_up.powi(k as i32) * (1.0 - p_up).powi((n - k) as i32)
        })
        .collect()
}

/// Serde for the generator as two hex strings (`{"state": "…", "increment": "…"}`): its 128-bit
/// words do not fit JSON numbers that C, Python and `serde_json::Value` read without loss.
pub mod rng_serde {
    use super::GameRng;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize, Deserialize)]
    struct Words {
        state: u128,
        increment: u128,
    }

    #[derive(Serialize, Deserialize)]
    struct HexWords {
        state: String,
        increment: String,
    }

    /// The generator's two words, `(state, increment)`: `rand_pcg` shows them only to serde.
    fn words(rng: &GameRng) -> Result<Words, serde_json::Error> {
        let text = serde_json::to_vec(rng)?;
        serde_json::from_slice(&text)
    }

    /// The generator as the JSON text [`serialize`] makes of it through a `serde_json::Value`
    /// (keys sorted): `{"increment":"…","state":"…"}`.
    pub(crate) fn json_text(rng: &GameRng) -> String {
        match words(rng) {
            Ok(w) => format!(
                "{{\"increment\":\"{:032x}\",\"state\":\"{:032x}\"}}",
                w.increment, w.state
            ),
            Err(_) => "null".into(),
        }
    }

    /// Writes the generator.
    pub fn serialize<S: Serializer>(rng: &GameRng, s: S) -> Result<S::Ok, S::Error> {
        let w = words(rng).map_err(serde::ser::Error::custom)?;
        HexWords {
            state: format!("{:032x}", w.state),
            increment: format!("{:032x}", w.increment),
        }
        .serialize(s)
    }

    /// Reads the generator.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<GameRng, D::Error> {
        let h = HexWords::deserialize(d)?;
        let parse = |x: &str| u128::from_str_radix(x, 16).map_err(serde::de::Error::custom);
        let w = Words {
            state: parse(&h.state)?,
            increment: parse(&h.increment)?,
        };
        if w.increment % 2 == 0 {
            return Err(serde::de::Error::custom("generator increment must be odd"));
        }
        // The words go to the generator's own serde, as a map, without text in between.
        let fields = [("state", w.state), ("increment", w.increment)];
        let map = serde::de::value::MapDeserializer::<_, serde::de::value::Error>::new(
            fields.into_iter(),
        );
        GameRng::deserialize(map).map_err(serde::de::Error::custom)
    }
}
