"""``python -m pachisi ...``: the command line (:mod:`pachisi.studies.cli`)."""

from .studies.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
