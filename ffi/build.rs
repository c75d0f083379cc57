//! Gives the shared library a SONAME whose number is the ABI version: `libpachisi.so.<N>` with
//! N = `PACHISI_ABI_VERSION` (read from src/lib.rs, so the two cannot drift apart). A program
//! linked against it records that name and refuses a library of another ABI at load time.
//! (Exports need no version script: rustc already exports only the `#[no_mangle]` functions
//! of a cdylib; `make test-c` checks the export list with nm.)

use std::fs;

fn main() {
    println!("cargo:rerun-if-changed=src/lib.rs");
    let lib = fs::read_to_string("src/lib.rs").expect("ffi/src/lib.rs is readable");
    let abi = lib
        .lines()
        .find_map(|l| {
            l.trim()
                .strip_prefix("pub const PACHISI_ABI_VERSION: u32 = ")
        })
        .and_then(|rest| rest.strip_suffix(';'))
        .and_then(|n| n.parse::<u32>().ok())
        .expect("src/lib.rs defines `pub const PACHISI_ABI_VERSION: u32 = <n>;`");
    let target_os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    // ELF platforms only; macOS (install_name) and Windows have other mechanisms.
    if target_os == "linux" || target_os.ends_with("bsd") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libpachisi.so.{abi}");
    }
}
