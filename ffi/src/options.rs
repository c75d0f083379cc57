//! Option introspection for settings screens: every option of a preset.

use crate::error::{Failure, boundary};
use crate::pachisi_result;
use crate::rules::pachisi_rules;
use crate::util::{Out, handle};
use engine::rules::VARIANTS;
use engine::{OptionInfo, OptionKind};
use std::ffi::{CString, c_char};
use std::sync::OnceLock;

/// The type of an option (the `kind` field of `pachisi_option_info`).
#[repr(u8)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum pachisi_option_kind {
    /// `true` or `false`.
    Bool = 0,
    /// A whole number in `min..=max`.
    Integer = 1,
    /// A real number (a probability).
    Number = 2,
    /// One of the names of `choices_json`.
    Choice = 3,
    /// A list of numbers.
    List = 4,
}

/// One option of a preset. The strings are static: valid for the life of the process, never
/// freed by the caller.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct pachisi_option_info {
    /// The option's key in the rules JSON (NUL-terminated).
    pub name: *const c_char,
    /// A `pachisi_option_kind` value.
    pub kind: u8,
    /// Integers: whether every value from `min` to `max` is valid.
    pub contiguous: bool,
    /// Always 0 (alignment bytes, named so that they are written).
    pub reserved: [u8; 6],
    /// Integers: the smallest valid value (with the other options at the preset's values).
    pub min: i64,
    /// Integers: the largest valid value.
    pub max: i64,
    /// The preset's value as JSON text (`true`, `4`, `"dice-first"`, `[6,10,25]`).
    pub default_json: *const c_char,
    /// Choices: a JSON array of the names accepted (`["dice-first","any"]`); integers: a JSON
    /// array of every valid value when there are at most 16, else `[]`; `[]` otherwise.
    pub choices_json: *const c_char,
}

// The strings live in a table built once per preset and never freed.
unsafe impl Send for pachisi_option_info {}
unsafe impl Sync for pachisi_option_info {}

fn cstring(s: String) -> CString {
    // Option names and JSON texts hold no NUL; a stray one would be replaced, not panic.
    CString::new(s.replace('\0', "?")).unwrap_or_default()
}

struct Table {
    _strings: Vec<CString>,
    infos: Vec<pachisi_option_info>,
}

fn table(variant: &str, infos: &[OptionInfo]) -> &'static Table {
    static TABLES: [OnceLock<Table>; VARIANTS.len()] = [const { OnceLock::new() }; VARIANTS.len()];
    let i = VARIANTS.iter().position(|v| *v == variant).unwrap_or(0);
    TABLES[i].get_or_init(|| {
        let mut strings = Vec::new();
        let mut out = Vec::new();
        for o in infos {
            let name = cstring(o.name.clone());
            let default = cstring(o.default.to_string());
            let choices = cstring(if o.kind == OptionKind::Choice {
                serde_json::to_string(&o.choices).unwrap_or_default()
            } else {
                serde_json::to_string(&o.values).unwrap_or_default()
            });
            out.push(pachisi_option_info {
                name: name.as_ptr(),
                kind: match o.kind {
                    OptionKind::Bool => pachisi_option_kind::Bool,
                    OptionKind::Integer => pachisi_option_kind::Integer,
                    OptionKind::Number => pachisi_option_kind::Number,
                    OptionKind::Choice => pachisi_option_kind::Choice,
                    OptionKind::List => pachisi_option_kind::List,
                } as u8,
                contiguous: o.contiguous,
                reserved: [0; 6],
                min: o.min.unwrap_or(0),
                max: o.max.unwrap_or(0),
                default_json: default.as_ptr(),
                choices_json: choices.as_ptr(),
            });
            // A CString's buffer does not move when the CString does.
            strings.extend([name, default, choices]);
        }
        Table {
            _strings: strings,
            infos: out,
        }
    })
}

/// Writes the number of options of the rules' preset to `*out`; they are numbered
/// `0..count` for `pachisi_rules_option_info`.
///
/// Errors: `NULL_POINTER`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_rules_option_count(
    rules: *const pachisi_rules,
    out: *mut usize,
) -> pachisi_result {
    boundary(|| {
        let r = unsafe { handle(rules, "rules") }?;
        let out = unsafe { Out::new(out, "out") }?;
        out.set(r.rules.option_info().len());
        Ok(())
    })
}

/// Writes option number `index` of the rules' preset to `*out`: its name, type, the preset's
/// value, and the valid range (integers, probed with the other options at the preset's values:
/// some options constrain each other, so a combination may still be rejected) or the names a
/// choice accepts. The strings are static (never freed by the caller).
///
/// Errors: `INDEX_OUT_OF_RANGE`, `NULL_POINTER`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_rules_option_info(
    rules: *const pachisi_rules,
    index: usize,
    out: *mut pachisi_option_info,
) -> pachisi_result {
    boundary(|| {
        let r = unsafe { handle(rules, "rules") }?;
        let out = unsafe { Out::new(out, "out") }?;
        let t = table(r.rules.variant(), r.rules.option_info());
        let info = t
            .infos
            .get(index)
            .ok_or_else(|| Failure::index("option", index, t.infos.len()))?;
        out.set(*info);
        Ok(())
    })
}
