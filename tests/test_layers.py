"""The layers, checked where Python really imports: each layer's modules, all of them, imported
in a fresh interpreter, and what ``sys.modules`` holds afterwards.

Knowledge flows cli -> dashboard -> lab -> engine, and cli -> serve; never back. ``make test``
also runs ``lint-imports`` (the contracts in ``pyproject.toml``), which reads every import
statement; this test catches what only running shows (an import made by a call at import
time, a plugin, a re-export), and that a command imports no more than it needs.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

UI_PACKAGES = ("textual", "rich", "plotext", "textual_plotext", "textual_serve")
"""Third-party packages that draw: only the dashboard, serve and the command line use them."""


def _modules_of(package: str) -> list[str]:
    """Every module of a package, by its files."""
    folder = ROOT.joinpath(*package.split("."))
    names = []
    for path in sorted(folder.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__main__":
            continue
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def _loaded_after(code: str) -> set[str]:
    """Every module name in ``sys.modules`` after running ``code`` in a fresh interpreter."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return set(json.loads(done.stdout.splitlines()[-1]))


def _imports_of(package: str) -> str:
    return "\n".join(f"import {name}" for name in _modules_of(package))


def _found(loaded: set[str], packages: set[str]) -> set[str]:
    """Those of ``packages`` that were loaded, themselves or any module inside them."""
    return {
        package
        for package in packages
        if any(name == package or name.startswith(package + ".") for name in loaded)
    }


@pytest.mark.slow  # a Python process per layer
@pytest.mark.parametrize(
    ("layer", "forbidden"),
    [
        ("engine", {"tui", *UI_PACKAGES}),
        ("tui.lab", {"tui.cli", "tui.dashboard", "tui.serve", *UI_PACKAGES}),
        ("tui.dashboard", {"tui.cli", "tui.serve"}),
        ("tui.serve", {"tui.cli", "tui.dashboard"}),
        # The dashboard's plain parts: tested without an app, so they draw nothing themselves.
        ("tui.dashboard.runs", {"tui.cli", "tui.serve", *UI_PACKAGES}),
        ("tui.dashboard.pictures", {"tui.cli", "tui.serve", *UI_PACKAGES}),
        ("tui.dashboard.files", {"tui.cli", "tui.serve", *UI_PACKAGES}),
    ],
)
def test_a_layer_imports_nothing_above_it(layer: str, forbidden: set[str]) -> None:
    loaded = _loaded_after(_imports_of(layer))
    assert _modules_of(layer), f"no modules found for {layer}"
    found = _found(loaded, forbidden)
    assert not found, f"importing every module of {layer} loads {sorted(found)}"


@pytest.mark.slow  # a Python process
def test_the_layer_probe_sees_an_import_that_breaks_the_rule() -> None:
    # The probe itself must be able to fail: importing the dashboard's app loads Textual.
    assert _found(_loaded_after("import tui.dashboard.app"), {"textual"}) == {"textual"}


def test_a_headless_solve_loads_no_ui_store_or_dashboard() -> None:
    loaded = _loaded_after(
        "import sys; sys.argv = ['queens', 'solve', '--n', '6', '--seed', '1']\n"
        "from tui.cli.command_line import main\n"
        "import contextlib, io\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main()"
    )
    assert "tui.cli.commands.solve" in loaded
    # How a config is spelled as flags, and how a large array is written out, is all a solve
    # takes from the lab: no store, no sweeps.
    unwanted = {"textual", "rich", "sqlite3", "tui.dashboard", "tui.serve", "tui.lab.store"}
    assert not _found(loaded, unwanted)
    from_the_lab = {name for name in loaded if name.startswith("tui.lab.")}
    assert from_the_lab == {"tui.lab.rerun_line", "tui.lab.json_stream"}
    assert not _found(loaded, {"numba", "llvmlite"}), "numba is for memetic runs only"
