//! Fuzz target `rules_json`: see [`pachisi_fuzz::rules_json`] for the input format and the invariants.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| pachisi_fuzz::rules_json(data));
