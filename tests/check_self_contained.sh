#!/usr/bin/env bash
# The repository must be self-contained: no tracked file may refer to a path outside it.
# Fails (exit 1) and prints file:line:text for every tracked file that contains one of the
# forbidden strings below. The rules text lives in docs/RULES.md; link to that instead.
#
# Usage: tests/check_self_contained.sh   (from anywhere inside the repository)
set -euo pipefail

root=$(git -C "$(dirname "${BASH_SOURCE[0]}")" rev-parse --show-toplevel)
cd "$root"

self=tests/check_self_contained.sh
# Fixed strings (not regexes) that point outside the repository.
patterns=(
    '../shared'
    'shared/RULES.md'
    'shared/seeds'
    '/work/'
)

grep_args=()
for p in "${patterns[@]}"; do
    grep_args+=(-e "$p")
done

hits=$(
    git ls-files -z \
        | while IFS= read -r -d '' f; do
            # Skip the script itself and tracked files deleted from the work tree.
            [[ "$f" == "$self" || ! -f "$f" ]] && continue
            printf '%s\0' "$f"
        done \
        | xargs -0 -r grep -n -I -F "${grep_args[@]}" -- 2>/dev/null || true
)

if [[ -n "$hits" ]]; then
    echo "References to paths outside the repository (use docs/RULES.md instead):"
    echo "$hits"
    count=$(printf '%s\n' "$hits" | wc -l)
    echo "self-contained: 0 passed, 1 failed ($count offending lines)"
    exit 1
fi

echo "self-contained: 1 passed, 0 failed"
