"""Extracts the README's C and Python quick starts into build/readme/ so `make test-cross` can
compile and run them: the README stays true to the API."""

import re
import sys
from pathlib import Path

root = Path(__file__).resolve().parents[2]
out = root / "build" / "readme"
out.mkdir(parents=True, exist_ok=True)
text = (root / "README.md").read_text()
for lang, name in (("c", "quick.c"), ("python", "quick.py")):
    blocks = re.findall(rf"```{lang}\n(.*?)```", text, re.S)
    if not blocks:
        sys.exit(f"README.md has no {lang} quick start")
    (out / name).write_text(blocks[0])
print(f"wrote {out}/quick.c and {out}/quick.py")
