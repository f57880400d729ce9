"""The dashboard's own stop rule: a run that no longer improves ends.

No Textual here. A run left going in the dashboard (at ``unlimited`` speed, say) that has
stalled would otherwise step, chart and record the same population for as long as the
terminal stays open. So a dashboard run that has no stagnation limit of its own gets
:data:`DEFAULT_STAGNATION`: the engine's stagnation rule, in the form's ``stagnation`` field
where the user sees its value and can change it, or empty it to run without it (``queens tui
--stagnation K`` sets it, ``--stagnation none`` turns it off). Being an engine stop rule, it
is part of the config: the rerun line repeats it and a recorded run says ``stagnation`` when
it fired.
"""

from __future__ import annotations

from typing import Final

from engine import Config

DEFAULT_STAGNATION: Final = 10_000
"""Generations without a better best fitness after which a dashboard run stops. The default
GA improves within a few hundred generations until it solves (N = 16,384 took 7,254 in all);
a run stalled for 10,000 has stopped learning."""


def with_stop_rule(config: Config) -> Config:
    """``config`` with :data:`DEFAULT_STAGNATION` when it has no stagnation limit."""
    if config.stagnation is not None:
        return config
    return config.replace(stagnation=DEFAULT_STAGNATION)
