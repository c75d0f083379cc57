#!/usr/bin/env bash
# Rewrites the static library so that it defines no global symbol other than the C API's
# `pachisi_*` functions.
#
#   mk/localize-static.sh IN.a OUT.a      (IN and OUT may be the same file)
#
# A Rust staticlib carries the Rust standard library and compiler-builtins, whose global
# symbols (`rust_eh_personality`, `__muldc3`, `_RNv...`) could clash with the other Rust or
# compiler-rt code a game engine links. So: a partial link (`ld -r`) of the objects the
# `pachisi_*` functions need into one object, in which `objcopy --keep-global-symbol` makes
# every other definition local (references between them were resolved by the partial link;
# undefined references to libc stay global). The `.llvmbc` / `.llvmcmd` sections (bitcode
# that C linkers do not use, and that makes binutils' LTO plugin refuse the object) are
# dropped. Running it on its own output gives the same result.
set -euo pipefail
in=$1
out=$2

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The API's functions, as -u options (readelf: no LTO plugin involved).
mapfile -t api < <(readelf -sW "$in" 2>/dev/null |
    awk '$5 == "GLOBAL" && $7 != "UND" && $8 ~ /^pachisi_/ { print $8 }' | sort -u)
if [ "${#api[@]}" -eq 0 ]; then
    echo "localize-static.sh: $in defines no pachisi_ function" >&2
    exit 1
fi
undefined=()
for sym in "${api[@]}"; do undefined+=(-u "$sym"); done

# binutils' LTO plugin cannot read rustc's bitcode sections and says so on every object;
# the warning is noise here, any other message is kept.
ld -r "${undefined[@]}" -o "$tmp/pachisi.o" "$in" 2> >(grep -v '^bfd plugin:' >&2)
objcopy --wildcard --keep-global-symbol='pachisi_*' \
    --remove-section=.llvmbc --remove-section=.llvmcmd "$tmp/pachisi.o" "$tmp/pachisi-local.o"
rm -f "$tmp/out.a"
ar rcs "$tmp/out.a" "$tmp/pachisi-local.o"
mv -f "$tmp/out.a" "$out"
