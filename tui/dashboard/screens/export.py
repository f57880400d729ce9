"""The export screen: where to save the run's files, asked before anything is written.

It lists the files (name and what each holds), offers a folder (the last one used, else the
user's downloads folder) and shows the full paths that will be written as the folder is edited.
Enter writes them all (see :func:`~tui.dashboard.files.export_files.write_files`) and closes with
their paths; a folder that cannot be used is refused on the screen, which stays open; escape
closes it and writes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from tui.dashboard.files.export_files import (
    FOLDER_FIELD,
    ExportError,
    ExportFile,
    LateFile,
    check_folder,
    write_files,
)


class ExportScreen(ModalScreen[list[Path] | None]):
    """Ask for a folder, write ``files`` there; dismissed with the paths, or ``None``."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", "Cancel", id="cancel-export"),
    ]

    DEFAULT_CSS = """
    ExportScreen {
        align: center middle;
    }
    ExportScreen > Vertical {
        width: 90%;
        max-width: 100;
        height: auto;
        border: round $accent;
        border-title-color: $text;
        background: $surface;
        padding: 0 1;
    }
    ExportScreen #export-files, ExportScreen #export-targets {
        color: $text-muted;
    }
    ExportScreen #export-error {
        color: $error;
    }
    """

    def __init__(
        self,
        files: Sequence[ExportFile],
        folder: Path,
        *,
        title: str = "Export",
        late: Sequence[LateFile] = (),
    ) -> None:
        """Offer to write ``files`` into ``folder`` (editable).

        Args:
            files: What will be written.
            folder: The folder the field starts with.
            title: The screen's title (what the user asked for).
            late: Files still being made, written to the same folder once ready (listed here;
                the caller writes them).
        """
        super().__init__()
        self.files = tuple(files)
        self.named = [(file.name, file.description) for file in self.files] + [
            (file.name, file.description) for file in late
        ]
        """Every file's name and what it holds, as listed: those written now, then the late."""
        self.start_folder = folder
        self.heading = title

    def compose(self) -> ComposeResult:
        """The files, the folder field, the paths it gives, an error line and the keys."""
        with Vertical() as box:
            box.border_title = self.heading
            listing = "\n".join(f"  {name}  ({what})" for name, what in self.named)
            yield Static(f"Writes:\n{listing}", id="export-files", markup=False)
            yield Static(f"{FOLDER_FIELD}:")
            yield Input(str(self.start_folder), id="export-folder")
            yield Static(self._targets(str(self.start_folder)), id="export-targets", markup=False)
            yield Static("", id="export-error", markup=False)
            yield Static("enter saves, esc cancels")

    def _targets(self, text: str) -> str:
        """The full paths the folder ``text`` gives (or why it cannot be used)."""
        try:
            folder = check_folder(text)
        except ExportError:
            return ""
        lines = []
        for name, _what in self.named:
            target = folder / name
            replaces = "  (replaces the file there)" if target.exists() else ""
            lines.append(f"→ {target}{replaces}")
        return "\n".join(lines)

    @on(Input.Changed, "#export-folder")
    def _folder_changed(self, event: Input.Changed) -> None:
        self.query_one("#export-targets", Static).update(self._targets(event.value))
        self.query_one("#export-error", Static).update("")

    @on(Input.Submitted, "#export-folder")
    def _submitted(self, event: Input.Submitted) -> None:
        try:
            # The folder as it is now, with what was typed ahead of the enter.
            written = write_files(check_folder(event.input.value), self.files)
        except ExportError as error:
            self.query_one("#export-error", Static).update(str(error))
            return
        self.dismiss(written)
