"""The built wheel in a fresh virtualenv: it imports from that virtualenv (not the source tree)
and plays a game of every preset. Run by `make test-wheel`."""

import pathlib
import random
import sys

import pachisi

here = pathlib.Path(pachisi.__file__).resolve()
venv = pathlib.Path(sys.prefix).resolve()
assert venv in here.parents, f"pachisi imported from {here}, not from {venv}"

for variant in pachisi.variants():
    game = pachisi.Game(variant, seed=3)
    choose = random.Random(3)
    while not game.is_over:
        if game.is_chance_node():
            game.roll()
        else:
            game.play(choose.choice(game.legal_plays()))
    assert game.winner is not None, variant
    assert pachisi.Game.from_json(game.to_json()).position == game.position, variant
    result = pachisi.simulate(variant, games=20, seed=1)
    assert result.games == 20, variant
print(f"wheel ok: pachisi {pachisi.__version__} from {here.parent}, {len(pachisi.variants())} presets played")
