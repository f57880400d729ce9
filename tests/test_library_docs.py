"""The manual's Python examples run: every ```python block of docs/library.md and
docs/plugins.md, in order, in one namespace per page, from the repository's folder, with a
run store of the test's own. A block fenced ```python notebook (a server and an IFrame) is
shown, not run."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BLOCK = re.compile(r"^```python\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def python_blocks(page: str) -> list[str]:
    """The runnable blocks of a page (fenced ```python exactly), in order."""
    return BLOCK.findall((ROOT / "docs" / page).read_text())


@pytest.mark.parametrize("page", ["library.md", "plugins.md"])
def test_the_pages_examples_run(
    page: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("QUEENS_STORE", str(tmp_path / "runs.sqlite3"))
    blocks = python_blocks(page)
    assert len(blocks) >= 5
    namespace: dict[str, object] = {"__name__": f"docs_{page.removesuffix('.md')}"}
    for number, block in enumerate(blocks, 1):
        try:
            exec(compile(block, f"docs/{page} block {number}", "exec"), namespace)
        except Exception as error:
            raise AssertionError(f"docs/{page}, block {number}: {error!r}") from error
    assert capsys.readouterr().out  # the examples print what they show


def test_the_notebook_block_is_fenced_apart() -> None:
    text = (ROOT / "docs" / "library.md").read_text()
    assert "```python notebook\n" in text
    assert all("IFrame" not in block for block in python_blocks("library.md"))
