# %% [markdown]
# # A tour of `pachisi` from Python
#
# Run it as a script (`python examples/python/tour.py [OUT_DIR]`) or cell by cell in an editor
# that understands `# %%` cells (VS Code, PyCharm, Jupytext). Pictures go to `OUT_DIR`
# (default `out/tour`).

# %%
import random
import sys
from pathlib import Path

import pachisi

out_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("out/tour")
out_dir.mkdir(parents=True, exist_ok=True)
print("variants:", pachisi.variants())


def is_real(variant: str) -> bool:
    # While a rule system is being written its preset is a placeholder whose game is already over.
    return not pachisi.Game(variant, seed=0).is_over


# %% [markdown]
# ## Rules are data: a preset plus options

# %%
rules = pachisi.Rules("parcheesi")
print(rules, rules.options)
print("as JSON:", rules.to_json())
try:
    pachisi.Rules("parcheesi", no_such_option=True)
except pachisi.InvalidRulesError as e:
    print("rejected:", e)

# %% [markdown]
# ## A game: roll, list the legal plays, play one
#
# The turn alternates between a chance node (`roll()`) and a decision node (`play()` one of
# `legal_plays()`). A roll that cannot be played is forfeited by `roll()` itself: `legal_plays()`
# is then `[]` and the next roll is due.

# %%
variant = next((v for v in ["backgammon", "parcheesi"] + pachisi.variants() if is_real(v)), None)
if variant is None:
    print("no rule system has landed yet: the rest of the tour waits for them")
else:
    game = pachisi.Game(variant, seed=7)
    print(repr(game))
    print("outcomes of the first roll:", game.chance_outcomes()[:3], "...")
    dice = game.roll()
    print(f"seat {game.to_move} rolled {dice}")
    plays = game.legal_plays()
    print(f"{len(plays)} legal plays:", [str(p) for p in plays[:8]])
    if plays:
        first = plays[0]
        print("steps of", first, "->", first.steps)
        game.play(first)
        print("after it:", game.position)
        game.undo()
        game.play(str(first))  # a play can also be given by its notation
    (out_dir / f"{variant}.svg").write_text(game.svg(), encoding="utf-8")
    print("board written to", out_dir / f"{variant}.svg")

# %% [markdown]
# ## Step by step, and a whole random game

# %%
rng = random.Random(1)
for v in pachisi.variants():
    if not is_real(v):
        print(f"{v}: placeholder, skipped")
        continue
    g = pachisi.play_random_game(v, seed=1, rng=rng)
    rolls = sum(1 for e in g.log if e["event"] == "roll")
    print(f"{v}: seat {g.winner} won after {rolls} rolls; final position {g.position!r}")
    (out_dir / f"{v}-end.svg").write_text(g.svg(), encoding="utf-8")
    # Replay the first play of a fresh game one step at a time.
    h = pachisi.Game(v, seed=2)
    while h.is_chance_node():
        h.roll()
    if h.is_decision_node():
        steps = h.legal_steps()
        print(f"  {len(steps)} possible first steps, e.g. {steps[0]}")
        h.step(steps[0])
        print("  taken so far:", h.taken)

# %% [markdown]
# ## Saving and restoring a game

# %%
if variant is not None:
    text = game.to_json()
    again = pachisi.Game.from_json(text)
    assert again.to_json() == text
    print("JSON round trip:", len(text), "bytes")

# %% [markdown]
# ## Simulation in Rust: many games, numpy arrays and a summary

# %%
for v in pachisi.variants():
    if not is_real(v):
        continue
    res = pachisi.simulate(v, games=2000, seed=1)
    print(res)
    print("longest game:", int(res.rolls.max()), "rolls")
    print()

# %% [markdown]
# ## Comparing rule switches

# %%
if is_real("pachisi-online"):
    with_capture = pachisi.simulate("pachisi-online", games=2000, seed=3)
    without = pachisi.simulate("pachisi-online", games=2000, seed=3, capture=False)
    print(
        "Online Pachisi mean rolls: with capture "
        f"{with_capture.summary()['mean_rolls']:.1f}, without {without.summary()['mean_rolls']:.1f}"
    )
