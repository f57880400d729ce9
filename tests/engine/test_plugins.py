"""Plug-in operators: named like built-ins, checked before use, recorded by content.

The worked examples of ``docs/examples/plugin_ops.py`` are the good plug-ins; the bad ones
are written here, one file per fault, and each must be refused with the file, the function
and the check in one line.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import engine.operators.plugins as plugins
from engine import Config, ConfigError, GeneticAlgorithm, file_changes

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples" / "plugin_ops.py"


pytestmark = pytest.mark.usefixtures("plug_ins_as_in_a_new_process")
"""Each test starts as a new process would: no plug-in source, module or check kept."""


def fingerprint(config: Config, generations: int) -> list[bytes]:
    algorithm = GeneticAlgorithm(config)
    prints = [algorithm.snapshot.population.tobytes()]
    for _ in range(generations):
        if not algorithm.has_next():
            break
        prints.append(algorithm.step().population.tobytes())
    return prints


def example(function: str) -> str:
    return f"{EXAMPLES}:{function}"


def test_a_plug_in_copy_of_swap_runs_the_built_in_swap_bit_for_bit() -> None:
    fields = {"n": 16, "seed": 7, "mutation_rate": 0.7, "stop_when_solved": False}
    built_in = Config(mutation="swap", **fields)
    plugged = Config(mutation=example("swap_two_queens"), **fields)
    assert fingerprint(plugged, 30) == fingerprint(built_in, 30)


@pytest.mark.parametrize(
    ("field", "function"),
    [
        ("selection", "tournament_of_three"),
        ("crossover", "head_and_rest"),
        ("mutation", "swap_two_queens"),
        ("survivor", "best_of_both"),
        ("fitness", "squared_pairs"),
    ],
)
def test_every_kind_of_plug_in_runs_and_runs_again_the_same(field: str, function: str) -> None:
    config = Config(n=12, seed=3, generations=25, crossover_rate=0.5, **{field: example(function)})
    assert fingerprint(config, 25) == fingerprint(config, 25)
    assert getattr(config, field).startswith(f"{EXAMPLES}:{function}@")


def test_a_plug_in_fitness_knows_its_best_value_from_a_solution() -> None:
    config = Config(n=10, seed=1, fitness=example("squared_pairs"))
    assert GeneticAlgorithm(config).snapshot.max_fitness == 1.0


BAD = {
    "shape": "def f(children, rng, rate):\n    return children[:-1].copy()\n",
    "dtype": "def f(children, rng, rate):\n    return children.astype(float)\n",
    "permutation": (
        "def f(children, rng, rate):\n    out = children.copy()\n    out[:, 0] = out[:, 1]\n"
        "    return out\n"
    ),
    "range": "def f(children, rng, rate):\n    return children + 1\n",
    "unchanged": (
        "def f(children, rng, rate):\n    children[:, [0, 1]] = children[:, [1, 0]]\n"
        "    return children.copy()\n"
    ),
    "deterministic": (
        "import numpy as np\n\ndef f(children, rng, rate):\n    out = children.copy()\n"
        "    out[:, [0, 1]] = out[:, [1, 0]] if np.random.random() < 0.5 else out[:, [0, 1]]\n"
        "    return out\n"
    ),
    "raises": "def f(children, rng, rate):\n    raise ValueError('not today')\n",
    "syntax": "def f(children, rng, rate)\n    return children\n",
    "function": "def g(children, rng, rate):\n    return children.copy()\n",
    "returns": "def f(children, rng, rate):\n    return children.tolist()\n",
    "load": "import no_such_module_here\n",
}


@pytest.mark.parametrize("check", sorted(BAD))
def test_a_bad_mutation_is_refused_naming_the_file_the_function_and_the_check(
    tmp_path: Path, check: str
) -> None:
    path = tmp_path / "ops.py"
    path.write_text(BAD[check])
    with pytest.raises(ConfigError) as raised:
        Config(n=8, mutation=f"{path}:f")
    message = str(raised.value)
    assert "\n" not in message
    assert f"{path}:f" in message
    assert f"check {check!r} failed" in message


def test_an_operator_drawing_from_the_global_generator_is_told_so(tmp_path: Path) -> None:
    path = tmp_path / "ops.py"
    path.write_text(BAD["deterministic"])
    with pytest.raises(ConfigError, match="global generator"):
        Config(n=8, mutation=f"{path}:f")


def test_an_operator_with_a_generator_of_its_own_is_not_deterministic(tmp_path: Path) -> None:
    path = tmp_path / "ops.py"
    path.write_text(
        "import numpy as np\n\ndef f(children, rng, rate):\n"
        "    return np.random.default_rng().permuted(children, axis=1)\n"
    )
    with pytest.raises(ConfigError, match="two calls from one generator state"):
        Config(n=8, mutation=f"{path}:f")


BAD_OTHERS = {
    "selection": (
        "def f(fitness, count, rng, size):\n    return np.full(count, fitness.size)\n",
        "range",
    ),
    "crossover": ("def f(first, second, rng):\n    return first.copy()\n", "returns"),
    "survivor": ("def f(parents, children, elitism):\n    return np.arange(3)\n", "shape"),
    "fitness": (
        "def f(genomes, conflicts, n):\n    return np.full(conflicts.shape, np.nan)\n",
        "finite",
    ),
}


@pytest.mark.parametrize("field", sorted(BAD_OTHERS))
def test_bad_operators_of_the_other_kinds_are_refused(tmp_path: Path, field: str) -> None:
    source, check = BAD_OTHERS[field]
    path = tmp_path / "ops.py"
    path.write_text("import numpy as np\n\n" + source)
    with pytest.raises(ConfigError, match=f"check {check!r} failed") as raised:
        Config(n=8, population=20, **{field: f"{path}:f"})
    assert raised.value.field == field


def test_a_missing_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="check 'file' failed: no file"):
        Config(mutation=f"{tmp_path / 'gone.py'}:f")


def test_a_config_of_built_ins_records_no_plug_ins() -> None:
    assert "plugins" not in Config(n=8, seed=1).to_dict()


def test_the_record_carries_the_source_and_runs_it_after_the_file_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "ops.py"
    path.write_text(EXAMPLES.read_text())
    config = Config(n=12, seed=4, mutation=f"{path}:swap_two_queens", stop_when_solved=False)
    recorded = config.to_dict()
    (entry,) = recorded["plugins"].values()
    assert entry["source"] == EXAMPLES.read_text()
    assert len(entry["sha256"]) == 64
    before = fingerprint(config, 20)
    path.write_text(BAD["raises"].replace("def f", "def swap_two_queens"))
    # In a new process the record alone runs the run it records.
    monkeypatch.setattr(plugins, "_SOURCES", {})
    monkeypatch.setattr(plugins, "_MODULES", {})
    replayed = Config.from_mapping(recorded)
    assert fingerprint(replayed, 20) == before
    assert file_changes(replayed.to_dict()) == [
        f"{path}:swap_two_queens: {path} has changed; the recorded source is used"
    ]
    path.unlink()
    assert "is gone" in file_changes(replayed.to_dict())[0]


def test_a_new_version_of_a_file_is_a_new_module_and_the_old_config_keeps_the_old(
    tmp_path: Path,
) -> None:
    path = tmp_path / "ops.py"
    path.write_text("def f(children, rng, rate):\n    return children.copy()\n")
    old = Config(n=8, seed=2, mutation=f"{path}:f", stop_when_solved=False)
    before = fingerprint(old, 5)
    path.write_text(EXAMPLES.read_text().replace("def swap_two_queens", "def f"))
    new = Config(n=8, seed=2, mutation=f"{path}:f", stop_when_solved=False)
    assert old.mutation != new.mutation
    assert fingerprint(old, 5) == before
    assert fingerprint(new, 5) != before
    assert set(plugins._MODULES) == {old.mutation[-16:], new.mutation[-16:]}


def test_a_record_whose_source_does_not_match_its_digest_is_refused() -> None:
    config = Config(n=8, mutation=example("swap_two_queens"))
    recorded = config.to_dict()
    (entry,) = recorded["plugins"].values()
    entry["source"] += "\n# edited\n"
    with pytest.raises(ConfigError, match="plugins"):
        Config.from_mapping(recorded)


def test_the_checks_leave_the_global_generators_as_they_were() -> None:
    np.random.seed(5)
    expected = np.random.random()
    np.random.seed(5)
    Config(n=8, mutation=example("swap_two_queens"))
    assert np.random.random() == expected


def test_restricted_processes_load_only_from_the_allowed_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    allowed, elsewhere = tmp_path / "allowed", tmp_path / "elsewhere"
    allowed.mkdir()
    elsewhere.mkdir()
    source = EXAMPLES.read_text()
    (allowed / "ops.py").write_text(source)
    (elsewhere / "ops.py").write_text(source)
    (allowed / "link.py").symlink_to(elsewhere / "ops.py")
    monkeypatch.setattr(plugins, "_RESTRICTION", [])
    monkeypatch.setenv(plugins.RESTRICTED_VARIABLE, "1")
    monkeypatch.delenv(plugins.ALLOWED_VARIABLE, raising=False)
    with pytest.raises(ConfigError, match="check 'allowed' failed"):
        Config(mutation=f"{allowed / 'ops.py'}:swap_two_queens")
    monkeypatch.setenv(plugins.ALLOWED_VARIABLE, str(allowed))
    Config(mutation=f"{allowed / 'ops.py'}:swap_two_queens")
    for outside in (
        elsewhere / "ops.py",
        allowed / "link.py",
        allowed / ".." / "elsewhere" / "ops.py",
    ):
        with pytest.raises(ConfigError, match="only files inside"):
            Config(mutation=f"{outside}:swap_two_queens")
