//! Presets and rules handles.

use crate::error::{Failure, Outcome, boundary, boundary_value};
use crate::pachisi_result;
use crate::util::{Out, handle, read_opt_str, read_opt_str_n, read_str, read_str_n, write_str};
use engine::Rules;
use std::ffi::c_char;

/// A validated variant: a preset and the value of every option. Opaque.
///
/// Created by `pachisi_rules_from_preset`, `pachisi_rules_from_json` or `pachisi_game_rules`;
/// owned by the caller; released with `pachisi_rules_free`. Immutable once made: every call
/// taking a `const pachisi_rules *` may run on several threads at once on one handle.
pub struct pachisi_rules {
    pub(crate) rules: Rules,
}

/// Reads rules from a preset name and an optional options object.
pub(crate) fn rules_from_parts(name: &str, options: Option<&str>) -> Outcome<Rules> {
    Ok(match options {
        None => Rules::preset(name)?,
        Some(text) => {
            let value = engine::rules::parse_json(text).map_err(|e| {
                let why = match e {
                    engine::Error::InvalidJson(why) => why,
                    other => other.to_string(),
                };
                Failure::new(
                    pachisi_result::InvalidJson,
                    format!("invalid JSON: options: {why}"),
                )
            })?;
            // The engine's overlay accepts a `variant` key that repeats the preset (so a whole
            // rules object can be overlaid); here the preset is the separate `name`, so such a
            // key is a mistake to report, not a no-op.
            if value.get("variant").is_some() {
                return Err(Failure::new(
                    pachisi_result::InvalidRules,
                    "options: `variant` is not an option: the preset is the `name` argument \
                     (a whole rules document goes to pachisi_rules_from_json)",
                ));
            }
            Rules::with_options(name, &value)?
        }
    })
}

/// The number of presets (variants). Presets are numbered `0..pachisi_variant_count()`.
#[unsafe(no_mangle)]
pub extern "C" fn pachisi_variant_count() -> usize {
    boundary_value(0, || engine::variants().len())
}

/// Copies the name of preset number `index` (e.g. "parcheesi") into `buf`.
///
/// - `buf`: caller-owned, `len` bytes, receives the NUL-terminated name on success (may be NULL
///   when `len` is 0, to ask for the size).
/// - `written`: receives the size in bytes including the NUL, on success and on
///   `PACHISI_RESULT_BUFFER_TOO_SMALL`.
///
/// Errors: `INDEX_OUT_OF_RANGE` when `index >= pachisi_variant_count()`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_variant_name(
    index: usize,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> pachisi_result {
    boundary(|| {
        let names = engine::variants();
        let name = names
            .get(index)
            .ok_or_else(|| Failure::index("preset", index, names.len()))?;
        unsafe { write_str(name, buf, len, written) }
    })
}

/// Makes rules from a preset name and optional options.
///
/// - `name`: NUL-terminated preset name, borrowed for the call.
/// - `options_json`: NULL for the preset's defaults, or a NUL-terminated JSON object whose keys
///   override options (e.g. `{"seats": 2}`); borrowed for the call.
/// - `out`: receives a new handle on success (untouched on failure); the caller owns it and
///   releases it with `pachisi_rules_free`.
///
/// Errors: `UNKNOWN_VARIANT`, `INVALID_JSON` (options not JSON), `INVALID_RULES` (unknown
/// option, a `variant` key, wrong type, invalid combination, options not an object),
/// `NULL_POINTER`, `INVALID_UTF8`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_rules_from_preset(
    name: *const c_char,
    options_json: *const c_char,
    out: *mut *mut pachisi_rules,
) -> pachisi_result {
    boundary(|| {
        let name = unsafe { read_str(name, "name") }?;
        let options = unsafe { read_opt_str(options_json, "options_json") }?;
        new_rules(out, || rules_from_parts(name, options))
    })
}

/// `pachisi_rules_from_preset` with pointer+length strings: `name` is `name_len` bytes of
/// UTF-8 and `options_json` is `options_len` bytes (no NUL terminator needed; NULL with length
/// 0 for the defaults). A NULL `name` with `name_len` 0 is the empty name.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_rules_from_preset_n(
    name: *const c_char,
    name_len: usize,
    options_json: *const c_char,
    options_len: usize,
    out: *mut *mut pachisi_rules,
) -> pachisi_result {
    boundary(|| {
        let name = unsafe { read_str_n(name, name_len, "name") }?;
        let options = unsafe { read_opt_str_n(options_json, options_len, "options_json") }?;
        new_rules(out, || rules_from_parts(name, options))
    })
}

/// Writes a new rules handle to `out` (checked before anything is allocated).
fn new_rules(out: *mut *mut pachisi_rules, make: impl FnOnce() -> Outcome<Rules>) -> Outcome {
    let out = unsafe { Out::new(out, "out") }?;
    let rules = make()?;
    out.set(Box::into_raw(Box::new(pachisi_rules { rules })));
    Ok(())
}

/// Makes rules from a JSON document `{"variant": "<preset>", ...options}` (the format
/// `pachisi_rules_to_json` writes; missing options keep the preset's values).
///
/// - `json`: NUL-terminated, borrowed for the call.
/// - `out`: receives a new caller-owned handle on success; release with `pachisi_rules_free`.
///
/// Errors: `INVALID_JSON`, `INVALID_RULES`, `UNKNOWN_VARIANT`, `NULL_POINTER`, `INVALID_UTF8`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_rules_from_json(
    json: *const c_char,
    out: *mut *mut pachisi_rules,
) -> pachisi_result {
    boundary(|| {
        let json = unsafe { read_str(json, "json") }?;
        new_rules(out, || Ok(Rules::from_json(json)?))
    })
}

/// `pachisi_rules_from_json` with a pointer+length string: `json` is `len` bytes of UTF-8.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_rules_from_json_n(
    json: *const c_char,
    len: usize,
    out: *mut *mut pachisi_rules,
) -> pachisi_result {
    boundary(|| {
        let json = unsafe { read_str_n(json, len, "json") }?;
        new_rules(out, || Ok(Rules::from_json(json)?))
    })
}

/// Releases a rules handle. NULL is allowed (nothing happens). Games made from the rules do not
/// depend on the handle and stay valid.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_rules_free(rules: *mut pachisi_rules) {
    boundary_value((), || {
        if !rules.is_null() {
            drop(unsafe { Box::from_raw(rules) });
        }
    })
}

/// Copies the rules as JSON (`{"variant": ..., every option}`) into `buf`.
///
/// - `rules`: borrowed for the call.
/// - `buf`, `len`, `written`: as for every string output: `buf` is caller-owned and receives the
///   NUL-terminated text on success; `*written` receives the size including the NUL on success
///   and on `PACHISI_RESULT_BUFFER_TOO_SMALL`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_rules_to_json(
    rules: *const pachisi_rules,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> pachisi_result {
    boundary(|| {
        let rules = unsafe { handle(rules, "rules") }?;
        unsafe { write_str(&rules.rules.to_json(), buf, len, written) }
    })
}

/// Copies the preset name the rules started from into `buf` (string output as for
/// `pachisi_rules_to_json`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_rules_variant(
    rules: *const pachisi_rules,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> pachisi_result {
    boundary(|| {
        let rules = unsafe { handle(rules, "rules") }?;
        unsafe { write_str(rules.rules.variant(), buf, len, written) }
    })
}
