//! A small dense network for learned evaluators: one hidden layer of sigmoid units, one sigmoid
//! output per seat (its win probability), `f32` weights in a compact versioned file format.
//!
//! The input is an encoding of a position seen from the seat to move (the header's `encoding`:
//! the reinforcement-learning observation, or the `features` encoding of
//! `players::TdInput`); output `k` is the win probability of the seat `k` places after
//! it in turn order. The forward pass skips zero inputs (most of an observation is zeros), so a
//! position costs about `nonzero inputs x hidden` multiply-adds.
//!
//! # File format (version 1)
//!
//! | bytes | content |
//! |---|---|
//! | 8 | the magic `PCHSTD1\n` |
//! | 4 | `u32` little-endian: length `m` of the header |
//! | `m` | the header: a UTF-8 JSON object ([`NetworkInfo`]) |
//! | `4·(i·h + h + o·h + o)` | `f32` little-endian: `w1` (input-major, `i` rows of `h`), `b1`, `w2` (output-major, `o` rows of `h`), `b2` |
//!
//! `i`, `h`, `o` are the header's `inputs`, `hidden`, `outputs`. Loading checks the magic, the
//! sizes and that every weight is finite.
//!
//! ```
//! use pachisi::nn::{Network, NetworkInfo};
//! let info = NetworkInfo::new("backgammon", 10, 4, 2);
//! let net = Network::random(info, 7);
//! let bytes = net.to_bytes();
//! let back = Network::from_bytes(&bytes).unwrap();
//! assert_eq!(back, net);
//! let mut hidden = vec![0.0; 4];
//! let mut out = [0.0f32; 2];
//! net.forward(&[1.0; 10], &mut hidden, &mut out);
//! assert!(out.iter().all(|&p| p > 0.0 && p < 1.0));
//! assert!(Network::from_bytes(b"not a network").is_err());
//! ```

use crate::dice::rng_from_seed;
use crate::{Error, Result};
use rand::Rng;
use serde::{Deserialize, Serialize};

/// The magic bytes that open a network file (the last digit is the format version).
pub const MAGIC: &[u8; 8] = b"PCHSTD1\n";

/// The largest layer sizes a file may declare (a guard against corrupt headers).
pub const MAX_INPUTS: usize = 1 << 16;
/// The most hidden units.
pub const MAX_HIDDEN: usize = 1024;
/// The most bytes a file's JSON header may take (a real one takes a few hundred).
pub const MAX_HEADER: usize = 1 << 20;
/// The most outputs (seats).
pub const MAX_OUTPUTS: usize = 4;

/// What a network file says about itself: its shape and where it came from.
///
/// ```
/// let info = pachisi::nn::NetworkInfo::new("parcheesi", 400, 40, 4);
/// assert_eq!(info.games, 0);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NetworkInfo {
    /// The preset it was trained on.
    pub preset: String,
    /// Inputs: the preset's observation size.
    pub inputs: usize,
    /// Hidden units.
    pub hidden: usize,
    /// Outputs: one per seat.
    pub outputs: usize,
    /// Training games played so far.
    #[serde(default)]
    pub games: u64,
    /// The training seed.
    #[serde(default)]
    pub seed: u64,
    /// The training options, as the trainer recorded them (free-form).
    #[serde(default)]
    pub training: serde_json::Value,
    /// The input encoding the network reads (`players::InputEncoding`); files without it read
    /// the plain observation.
    #[serde(default)]
    pub encoding: crate::players::InputEncoding,
    /// The scale of each evaluator feature in the `features` encoding (empty for the plain
    /// observation).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub feature_scales: Vec<f32>,
}

impl NetworkInfo {
    /// A header for an untrained network.
    pub fn new(preset: &str, inputs: usize, hidden: usize, outputs: usize) -> NetworkInfo {
        NetworkInfo {
            preset: preset.to_string(),
            inputs,
            hidden,
            outputs,
            games: 0,
            seed: 0,
            training: serde_json::Value::Null,
            encoding: crate::players::InputEncoding::Observation,
            feature_scales: Vec::new(),
        }
    }
}

/// A dense network: inputs, one hidden sigmoid layer, sigmoid outputs (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// The header.
    pub info: NetworkInfo,
    /// Input-to-hidden weights, input-major: `w1[i * hidden + j]`.
    pub w1: Vec<f32>,
    /// Hidden biases.
    pub b1: Vec<f32>,
    /// Hidden-to-output weights, output-major: `w2[k * hidden + j]`.
    pub w2: Vec<f32>,
    /// Output biases.
    pub b2: Vec<f32>,
}

/// The logistic function.
#[inline]
pub(crate) fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl Network {
    /// A network of `info`'s shape with small random weights (uniform in ±0.1), from `seed`.
    ///
    /// # Panics
    /// When the weight counts of the shape overflow a `usize` (allocating them would abort the
    /// process before that); sizes within [`MAX_INPUTS`], [`MAX_HIDDEN`] and [`MAX_OUTPUTS`],
    /// which [`Network::check`] asks for, take about 256 MiB at most.
    ///
    /// ```
    /// let a = pachisi::nn::Network::random(pachisi::nn::NetworkInfo::new("x", 3, 2, 2), 1);
    /// assert_eq!(a.w1.len(), 6);
    /// ```
    pub fn random(info: NetworkInfo, seed: u64) -> Network {
        let mut rng = rng_from_seed(seed);
        let mut draw = |n: usize| -> Vec<f32> {
            (0..n)
                .map(|_| ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 0.2)
                .collect()
        };
        let (i, h, o) = (info.inputs, info.hidden, info.outputs);
        // Checked in release builds too: a wrapped count would make a network whose weights do
        // not fit its header.
        let count = |a: usize, b: usize| match a.checked_mul(b) {
            Some(n) => n,
            None => panic!("a network of {i}-{h}-{o} has more weights than a usize counts"),
        };
        let w1 = draw(count(i, h));
        let b1 = draw(h);
        let w2 = draw(count(o, h));
        let b2 = vec![0.0; o];
        Network {
            info,
            w1,
            b1,
            w2,
            b2,
        }
    }

    /// Inputs.
    pub fn inputs(&self) -> usize {
        self.info.inputs
    }

    /// Hidden units.
    pub fn hidden(&self) -> usize {
        self.info.hidden
    }

    /// Outputs.
    pub fn outputs(&self) -> usize {
        self.info.outputs
    }

    /// The number of weights (and biases).
    ///
    /// ```
    /// let n = pachisi::nn::Network::random(pachisi::nn::NetworkInfo::new("x", 3, 2, 2), 1);
    /// assert_eq!(n.parameters(), 3 * 2 + 2 + 2 * 2 + 2);
    /// ```
    pub fn parameters(&self) -> usize {
        self.w1.len() + self.b1.len() + self.w2.len() + self.b2.len()
    }

    /// Checks a network built or changed field by field (its fields are public): layer sizes
    /// within [`MAX_INPUTS`], [`MAX_HIDDEN`] and [`MAX_OUTPUTS`] (each at least 1), weight
    /// vectors of the lengths the header's sizes give, every weight finite. What
    /// [`Network::from_bytes`] ensures of a file. [`crate::players::Trainer::resume`] refuses a
    /// network that fails it; a `td` player one whose sizes and vectors do not agree.
    ///
    /// ```
    /// use pachisi::nn::{Network, NetworkInfo};
    /// let mut net = Network::random(NetworkInfo::new("x", 3, 2, 2), 1);
    /// assert!(net.check().is_ok());
    /// net.w1.pop();
    /// assert!(net.check().is_err());
    /// ```
    pub fn check(&self) -> Result<()> {
        let bad = |what: String| Error::InvalidPlayer(format!("inconsistent network: {what}"));
        if let Some(what) = self.shape_error() {
            return Err(bad(what));
        }
        if [&self.w1, &self.b1, &self.w2, &self.b2]
            .iter()
            .any(|v| v.iter().any(|x| !x.is_finite()))
        {
            return Err(bad("a weight is not finite".into()));
        }
        Ok(())
    }

    /// What is wrong with the layer sizes or the weight vectors' lengths (what
    /// [`Network::forward`] needs right), in constant time; `None` when nothing is.
    pub(crate) fn shape_error(&self) -> Option<String> {
        let (i, h, o) = (self.info.inputs, self.info.hidden, self.info.outputs);
        if !(1..=MAX_INPUTS).contains(&i)
            || !(1..=MAX_HIDDEN).contains(&h)
            || !(1..=MAX_OUTPUTS).contains(&o)
        {
            return Some(format!(
                "layer sizes {i}, {h}, {o} out of range (inputs 1..={MAX_INPUTS}, hidden \
                 1..={MAX_HIDDEN}, outputs 1..={MAX_OUTPUTS})"
            ));
        }
        let lengths = [
            ("w1", self.w1.len(), i * h),
            ("b1", self.b1.len(), h),
            ("w2", self.w2.len(), o * h),
            ("b2", self.b2.len(), o),
        ];
        lengths
            .iter()
            .find(|(_, len, want)| len != want)
            .map(|(name, len, want)| {
                format!("`{name}` holds {len} weights, layers {i}-{h}-{o} need {want}")
            })
    }

    /// Runs the network on `x` (length [`Network::inputs`]): writes the hidden activations into
    /// `hidden` (length [`Network::hidden`]) and the outputs into `out` (length
    /// [`Network::outputs`]). Zero inputs cost nothing.
    ///
    /// # Panics
    /// When a slice is shorter than its length above, or the weight vectors do not have the
    /// lengths the header's sizes give (see [`Network::check`]).
    #[inline]
    pub fn forward(&self, x: &[f32], hidden: &mut [f32], out: &mut [f32]) {
        let h = self.info.hidden;
        let hidden = &mut hidden[..h];
        hidden.copy_from_slice(&self.b1);
        for (i, &xi) in x[..self.info.inputs].iter().enumerate() {
            if xi != 0.0 {
                let row = &self.w1[i * h..(i + 1) * h];
                for (a, &w) in hidden.iter_mut().zip(row) {
                    *a += xi * w;
                }
            }
        }
        for a in hidden.iter_mut() {
            *a = sigmoid(*a);
        }
        for (k, o) in out[..self.info.outputs].iter_mut().enumerate() {
            let row = &self.w2[k * h..(k + 1) * h];
            let z: f32 = row.iter().zip(hidden.iter()).map(|(w, a)| w * a).sum();
            *o = sigmoid(z + self.b2[k]);
        }
    }

    /// The network in the file format of the module docs.
    pub fn to_bytes(&self) -> Vec<u8> {
        // A header of plain fields always serialises.
        let header = serde_json::to_vec(&self.info).unwrap_or_default();
        let mut out = Vec::with_capacity(12 + header.len() + 4 * self.parameters());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(header.len() as u32).to_le_bytes());
        out.extend_from_slice(&header);
        for v in [&self.w1, &self.b1, &self.w2, &self.b2] {
            for x in v.iter() {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        out
    }

    /// Reads a network in the file format of the module docs from `source` (a file, for
    /// example), no further than the format allows: the header's layer sizes say how many weight
    /// bytes follow, so a stream without end (`/dev/zero`) or a huge wrong file is the same
    /// clear error as in [`Network::from_bytes`], not an allocation without bound.
    ///
    /// ```
    /// use pachisi::nn::Network;
    /// use pachisi::nn::NetworkInfo;
    /// let net = Network::random(NetworkInfo::new("x", 3, 2, 1), 7);
    /// let bytes = net.to_bytes();
    /// assert_eq!(Network::from_reader(&bytes[..]).unwrap().to_bytes(), bytes);
    /// assert!(Network::from_reader(std::io::repeat(0)).is_err());
    /// let mut long = bytes.clone();
    /// long.push(0);
    /// assert!(Network::from_reader(&long[..]).is_err());
    /// ```
    pub fn from_reader(source: impl std::io::Read) -> Result<Network> {
        use std::io::Read;
        let mut source = source;
        let mut bytes = Vec::new();
        let mut read = |bytes: &mut Vec<u8>, n: usize| -> Result<()> {
            (&mut source)
                .take(n as u64)
                .read_to_end(bytes)
                .map(|_| ())
                .map_err(|e| Error::InvalidPlayer(format!("cannot read the network: {e}")))
        };
        read(&mut bytes, 12)?;
        if bytes.len() < 12 || &bytes[..8] != MAGIC {
            return Network::from_bytes(&bytes);
        }
        let m = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize;
        if m > MAX_HEADER {
            return Err(Error::InvalidPlayer(format!(
                "not a pachisi network file: a header of {m} bytes (at most {MAX_HEADER})"
            )));
        }
        read(&mut bytes, m)?;
        let sizes = serde_json::from_slice::<NetworkInfo>(&bytes[12..])
            .ok()
            .map(|info| (info.inputs, info.hidden, info.outputs))
            .filter(|&(i, h, o)| {
                (1..=MAX_INPUTS).contains(&i)
                    && (1..=MAX_HIDDEN).contains(&h)
                    && (1..=MAX_OUTPUTS).contains(&o)
            });
        if let Some((i, h, o)) = sizes {
            // The weights and one byte more, so that trailing bytes are reported as such.
            read(&mut bytes, 4 * (i * h + h + o * h + o) + 1)?;
        }
        Network::from_bytes(&bytes)
    }

    /// Reads a network from the file format of the module docs; a clear error for anything else.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network> {
        let bad = |what: &str| Error::InvalidPlayer(format!("not a pachisi network file: {what}"));
        if bytes.len() < 12 || &bytes[..8] != MAGIC {
            return Err(bad("wrong magic bytes (expected `PCHSTD1`)"));
        }
        let m = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize;
        let header = bytes
            .get(12..12 + m)
            .ok_or_else(|| bad("the header is cut short"))?;
        let info: NetworkInfo =
            serde_json::from_slice(header).map_err(|e| bad(&format!("bad header: {e}")))?;
        let (i, h, o) = (info.inputs, info.hidden, info.outputs);
        if !(1..=MAX_INPUTS).contains(&i)
            || !(1..=MAX_HIDDEN).contains(&h)
            || !(1..=MAX_OUTPUTS).contains(&o)
        {
            return Err(bad(&format!(
                "layer sizes {i}, {h}, {o} out of range (inputs 1..={MAX_INPUTS}, hidden \
                 1..={MAX_HIDDEN}, outputs 1..={MAX_OUTPUTS})"
            )));
        }
        let n = i * h + h + o * h + o;
        let body = &bytes[12 + m..];
        if body.len() != 4 * n {
            return Err(bad(&format!(
                "{} bytes of weights, expected {} for layers {i}-{h}-{o}",
                body.len(),
                4 * n
            )));
        }
        let mut floats = body
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]));
        let mut take = |k: usize| -> Vec<f32> { floats.by_ref().take(k).collect() };
        let net = Network {
            w1: take(i * h),
            b1: take(h),
            w2: take(o * h),
            b2: take(o),
            info,
        };
        if [&net.w1, &net.b1, &net.w2, &net.b2]
            .iter()
            .any(|v| v.iter().any(|x| !x.is_finite()))
        {
            return Err(bad("a weight is not finite"));
        }
        Ok(net)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forward_matches_a_dense_computation() {
        let net = Network::random(NetworkInfo::new("t", 5, 3, 2), 3);
        let x = [0.0, 2.0, 0.0, 1.0, -1.0];
        let mut h = [0.0; 3];
        let mut y = [0.0; 2];
        net.forward(&x, &mut h, &mut y);
        for (j, &hj) in h.iter().enumerate() {
            let z: f32 = net.b1[j] + (0..5).map(|i| x[i] * net.w1[i * 3 + j]).sum::<f32>();
            assert!((hj - sigmoid(z)).abs() < 1e-6);
        }
        for (k, &yk) in y.iter().enumerate() {
            let z: f32 = net.b2[k] + (0..3).map(|j| h[j] * net.w2[k * 3 + j]).sum::<f32>();
            assert!((yk - sigmoid(z)).abs() < 1e-6);
        }
    }

    #[test]
    fn corrupt_files_are_refused() {
        let net = Network::random(NetworkInfo::new("t", 4, 2, 2), 1);
        let bytes = net.to_bytes();
        assert!(Network::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        let mut nan = bytes.clone();
        let n = nan.len();
        nan[n - 4..].copy_from_slice(&f32::NAN.to_le_bytes());
        assert!(Network::from_bytes(&nan).is_err());
        let mut big = net.clone();
        big.info.outputs = 9;
        assert!(Network::from_bytes(&big.to_bytes()).is_err());
    }
}
