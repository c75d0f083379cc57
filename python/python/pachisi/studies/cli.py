"""The command line: ``python -m pachisi study run|status|validate SPEC`` (also ``pachisi`` when
the package is installed with its console script)."""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import List, Optional, Sequence

from . import SpecError, StoreBusyError, StoreMismatchError, describe, load_spec, status, study


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="pachisi", description="pachisi command line")
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("study", help="variant studies (docs/STUDIES.md)")
    ssub = s.add_subparsers(dest="action", required=True)
    run = ssub.add_parser("run", help="run or resume a study")
    run.add_argument("spec", help="the study spec (TOML)")
    run.add_argument("--backend", choices=["local", "ray"], help="overrides backend.name")
    run.add_argument("--address", help="Ray cluster address (backend ray; default: a local Ray)")
    run.add_argument("--num-cpus", type=int, help="CPUs of the local Ray (backend ray)")
    run.add_argument("--threads", type=int, help="threads of the local backend (default: all)")
    run.add_argument("--chunk", type=int, help="games per work unit (default: automatic)")
    run.add_argument("--out", help="output directory (overrides outputs.dir)")
    run.add_argument("--store", help="the SQLite store (default: outputs.dir/outputs.store)")
    run.add_argument("--fresh", action="store_true",
                     help="delete the store's results and start again")
    run.add_argument("--fresh-if-changed", action="store_true",
                     help="start again only when the store holds another spec's results "
                     "(default: refuse to mix them)")
    run.add_argument("--no-progress", action="store_true", help="no progress bar")
    run.add_argument("--no-plots", action="store_true", help="no PNG files")
    run.add_argument("--quiet", action="store_true", help="do not print the table")
    st = ssub.add_parser("status", help="games stored per cell (runs nothing)")
    st.add_argument("spec")
    st.add_argument("--store")
    val = ssub.add_parser("validate", help="check a spec and list its cells")
    val.add_argument("spec")
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The command line; its exit status (0 on success)."""
    try:
        return _main(argv)
    except BrokenPipeError:
        # Output piped into a reader that stopped early (`... | head`): not an error of the
        # study. Point stdout at /dev/null so that the interpreter's final flush is quiet.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141  # 128 + SIGPIPE, what a shell reports for a program ended by a closed pipe


def _main(argv: Optional[Sequence[str]] = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.action == "validate":
            spec = load_spec(args.spec)
            print(describe(spec))
            for c in spec.cells:
                print(f"  {c.index:>4}  {c.label} [{c.lineup}: {', '.join(c.players)}] "
                      f"{c.games:,} games")
            return 0
        if args.action == "status":
            rows = status(args.spec, args.store)
            done = sum(r["done"] for r in rows)
            total = sum(r["games"] for r in rows)
            for r in rows:
                print(f"  {r['cell']:>4}  {r['done']:>10,}/{r['games']:<10,} {r['label']} "
                      f"[{r['lineup']}]")
            print(f"{done:,} of {total:,} games stored")
            return 0
        started = time.perf_counter()
        spec = load_spec(args.spec)
        print(describe(spec), file=sys.stderr)
        try:
            result = study(
                spec,
                backend=args.backend,
                out=args.out,
                store=args.store,
                fresh=True if args.fresh else ("if-changed" if args.fresh_if_changed else False),
                threads=args.threads,
                chunk=args.chunk,
                address=args.address,
                num_cpus=args.num_cpus,
                progress=not args.no_progress,
                plots=not args.no_plots,
            )
        except KeyboardInterrupt:
            print("\ninterrupted: every finished unit is in the store; run the same command "
                  "again to resume", file=sys.stderr)
            return 130
        if not args.quiet:
            print(result.table)
        written: List[str] = [str(p) for k, p in result.paths.items()]
        resumed = (f", {result.games_resumed:,} resumed from the store"
                   if result.games_resumed else "")
        print(f"\n{result.games_played:,} games played{resumed} in "
              f"{time.perf_counter() - started:.1f} s; wrote {', '.join(written)}")
        return 0
    except (SpecError, StoreMismatchError, StoreBusyError, ImportError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
