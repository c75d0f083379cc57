"""Extracts the complete C programs of the docs (the first ```c block of README.md and of
docs/C_API.md, the two quick starts) into build/c/doc/ for `make test-c`, which compiles them
with the tests' warnings, runs them under valgrind and checks their last line: a winning seat
of the game (0..3) or "no winner". The quick starts stay true to the API and to the game."""

import re
import sys
from pathlib import Path

root = Path(__file__).resolve().parents[2]
out = root / "build" / "c" / "doc"
out.mkdir(parents=True, exist_ok=True)
for source, name in (("README.md", "readme_quick.c"), ("docs/C_API.md", "c_api_quick.c")):
    blocks = re.findall(r"```c\n(.*?)```", (root / source).read_text(), re.S)
    if not blocks or "int main(" not in blocks[0]:
        sys.exit(f"{source}: its first C block is no complete program")
    (out / name).write_text(blocks[0])
print(f"wrote {out}/readme_quick.c and {out}/c_api_quick.c")
