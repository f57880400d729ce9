"""Another operator for a paused run: checked as at a start, and the run goes on from where it is.

A run that swaps its mutation at generation ``g`` must be, generation for generation, the run
with the first version up to ``g`` and then the state at ``g`` continued with the second: the
population, the generator and the history carried over, nothing drawn or lost by the swap.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import Config, ConfigError, GeneticAlgorithm, restrict_plugins
from tests.plugin_versions import BROKEN, FIRST, SECOND, write_version

SWAP_AT = 6
LAST = 14


pytestmark = pytest.mark.usefixtures("plug_ins_as_in_a_new_process")
"""Each test starts as a new process would: no plug-in source, module or check kept."""


def first_config(ops: Path) -> Config:
    name = write_version(ops, FIRST)
    return Config(n=12, seed=41, mutation=name, mutation_rate=0.8, stop_when_solved=False)


def stepped_to(algorithm: GeneticAlgorithm, generation: int) -> list[bytes]:
    prints = []
    while algorithm.snapshot.generation < generation:
        prints.append(algorithm.step().population.tobytes())
    return prints


def test_a_swapped_run_is_the_first_version_then_the_state_continued_with_the_second(
    tmp_path: Path,
) -> None:
    ops = tmp_path / "ops.py"
    config = first_config(ops)
    swapped = GeneticAlgorithm(config)
    before = stepped_to(swapped, SWAP_AT)
    state = swapped.state()
    write_version(ops, SECOND)
    swapped.swap_operator("mutation", f"{ops}:mutate")
    assert swapped.config.mutation != config.mutation
    assert swapped.snapshot.generation == SWAP_AT
    after = stepped_to(swapped, LAST)

    # The same state, continued by a run whose config names the second version from the start.
    state.pop("digest")
    state["config"] = config.replace(mutation=swapped.config.mutation).to_dict()
    continued = GeneticAlgorithm.from_state(state)
    assert stepped_to(continued, LAST) == after

    unswapped = GeneticAlgorithm(config)
    assert stepped_to(unswapped, SWAP_AT) == before
    assert stepped_to(unswapped, LAST) != after  # the swap made a difference
    assert len(swapped.history) == LAST + 1  # the history went on, not started again


def test_a_refused_swap_leaves_the_run_as_it_was(tmp_path: Path) -> None:
    ops = tmp_path / "ops.py"
    config = first_config(ops)
    run = GeneticAlgorithm(config)
    stepped_to(run, SWAP_AT)
    write_version(ops, BROKEN)
    with pytest.raises(ConfigError, match=r"mutation: .*check 'shape' failed") as refused:
        run.swap_operator("mutation", f"{ops}:mutate")
    assert refused.value.field == "mutation"
    assert run.config == config
    untouched = GeneticAlgorithm(config)
    stepped_to(untouched, SWAP_AT)
    assert stepped_to(run, LAST) == stepped_to(untouched, LAST)


def test_a_built_in_may_take_a_plug_in_s_place_and_the_other_way(tmp_path: Path) -> None:
    ops = tmp_path / "ops.py"
    run = GeneticAlgorithm(first_config(ops))
    stepped_to(run, 3)
    run.swap_operator("mutation", "swap")
    assert run.config.mutation == "swap"
    stepped_to(run, 5)
    run.swap_operator("mutation", f"{ops}:mutate")
    assert run.config.mutation.startswith(f"{ops}:mutate@")
    assert "plugins" in run.config.to_dict()


@pytest.mark.parametrize(
    ("field", "value", "why"),
    [
        ("fitness", "linear", "start a new run"),
        ("mutation", "swap-twice", "mutation: 'swap-twice' is not allowed"),
        ("n", "8", "a run under way may change its selection"),
        ("selection", "tournament", "the run uses it already"),
    ],
)
def test_what_a_swap_refuses(tmp_path: Path, field: str, value: str, why: str) -> None:
    config = Config(n=10, seed=2)
    run = GeneticAlgorithm(config)
    run.step()
    with pytest.raises(ConfigError, match=why):
        run.swap_operator(field, value)
    assert run.config == config


def test_a_swap_reads_its_file_only_where_plug_ins_are_allowed(tmp_path: Path) -> None:
    allowed, elsewhere = tmp_path / "allowed", tmp_path / "elsewhere"
    allowed.mkdir()
    elsewhere.mkdir()
    run = GeneticAlgorithm(first_config(allowed / "ops.py"))
    run.step()
    before = run.config
    restrict_plugins(str(allowed))  # as `queens serve --allow-plugins allowed`
    outside = write_version(elsewhere / "ops.py", SECOND)
    with pytest.raises(ConfigError, match=r"check 'allowed' failed: only files inside"):
        run.swap_operator("mutation", outside)
    assert run.config == before
    run.swap_operator("mutation", write_version(allowed / "ops.py", SECOND))
    assert run.config.mutation != before.mutation
