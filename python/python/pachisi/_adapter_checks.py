"""Argument checks shared by the optional adapters (no extra needed)."""

from __future__ import annotations

from typing import Any, List, Optional

import numpy as np

from ._native import InvalidArgumentError


def check_max_decisions(value: Any) -> int:
    """``max_decisions`` as VecEnv takes it: an int from 1 to 2**32 - 1 (the limit is checked
    after an action, so 0 would act as 1)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"`max_decisions` must be an int, got {type(value).__name__}")
    if not 1 <= value < 2**32:
        raise InvalidArgumentError(
            f"invalid argument: `max_decisions` must be an int from 1 to 2**32 - 1, got {value}"
        )
    return int(value)


def check_render_mode(render_mode: Optional[str], modes: List[str]) -> None:
    """``render_mode`` is ``None`` or one of the environment's ``modes``."""
    if render_mode is not None and render_mode not in modes:
        raise InvalidArgumentError(
            f"invalid argument: render_mode must be None or one of {modes}, got {render_mode!r}"
        )
