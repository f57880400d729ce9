"""Export in a real browser: under ``queens serve``, ``e`` downloads its files into Chromium.

Starts ``queens serve`` on 127.0.0.1 and a free port, and headless Chromium with its DevTools
port (loopback only), drives the page over the DevTools protocol: downloads go to a temporary
folder, the terminal gets focus, and ``e`` is a real key press (a user gesture, as the
browser's pop-up and download rules see it). Both the run's CSV history and the SVG of the
screen must land there, and nothing in the server's folder. Everything started is stopped.

Skipped when no Chromium is installed (``apt-get install chromium``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shutil
import signal
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import aiohttp
import pytest

from tests.waiting import wait_until_async
from tui.dashboard.actions.record_keys import figures_available

LIMIT: Final = 90.0
"""Seconds any one stage may take (the machine may be busy)."""

DOWNLOAD_LIMIT: Final = 60.0
"""Seconds the downloads may take once the key is pressed (they take well under one)."""

CHROMIUM_FLAGS: Final = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--remote-debugging-address=127.0.0.1",
    "--remote-debugging-port=0",
)

# Runs in the page before its own scripts: keeps what the terminal received (escape sequences
# removed by the test), so the test can tell when the dashboard has drawn and what it says.
WATCH_THE_TERMINAL: Final = """
(() => {
  const Native = window.WebSocket;
  window.__queens = {text: "", last: 0};
  window.WebSocket = function (url, protocols) {
    const socket = protocols === undefined ? new Native(url) : new Native(url, protocols);
    const decoder = new TextDecoder();
    socket.addEventListener("message", (event) => {
      if (typeof event.data === "string") return;
      window.__queens.last = performance.now();
      window.__queens.text = (window.__queens.text + decoder.decode(event.data)).slice(-400000);
    });
    return socket;
  };
  window.WebSocket.prototype = Native.prototype;
})();
"""

ESCAPE_SEQUENCE: Final = re.compile(r"\x1b(\[[0-9;?<>=]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|.)")


def find_chromium() -> str | None:
    """The Chromium (or Chrome) executable, if one is installed."""
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        if found := shutil.which(name):
            return found
    return None


CHROMIUM = find_chromium()

BROWSER_REQUIRED: Final = os.environ.get("QUEENS_REQUIRE_BROWSER") == "1"
"""Set by CI, which installs Chromium (``.ci/install-browser``): a missing browser fails the
tests there instead of skipping them."""

if CHROMIUM is None and BROWSER_REQUIRED:
    raise RuntimeError(
        "QUEENS_REQUIRE_BROWSER=1 but no Chromium is installed (.ci/install-browser)"
    )

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium installed (apt-get install chromium) to download into"
)


class DevTools:
    """A minimal Chrome DevTools Protocol client: commands, and the events kept in order."""

    def __init__(self, websocket: aiohttp.ClientWebSocketResponse) -> None:
        self.websocket = websocket
        self.session_id: str | None = None
        self.events: list[dict[str, Any]] = []
        self._replies: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._next_id = 0
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for message in self.websocket:
            if message.type != aiohttp.WSMsgType.TEXT:
                continue
            data = json.loads(message.data)
            reply = self._replies.pop(data.get("id", -1), None)
            if reply is not None and not reply.done():
                reply.set_result(data)
            elif "method" in data:
                self.events.append(data)

    async def call(self, method: str, *, page: bool = True, **params: Any) -> dict[str, Any]:
        """Send one command (to the page's session unless ``page=False``); its result."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params}
        if page and self.session_id is not None:
            message["sessionId"] = self.session_id
        reply = self._replies[self._next_id] = asyncio.get_running_loop().create_future()
        await self.websocket.send_json(message)
        async with asyncio.timeout(LIMIT):
            data = await reply
        if "error" in data:
            raise AssertionError(f"{method}: {data['error']}")
        result: dict[str, Any] = data.get("result", {})
        return result

    async def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page."""
        result = await self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return result["result"].get("value")

    async def wait_for(self, expression: str, what: str) -> None:
        """Poll until ``expression`` is true in the page (else fail with what the page shows)."""

        async def page_shows() -> str:
            shown = await self.evaluate(
                "window.__queens ? window.__queens.text : document.body.innerText"
            )
            return f"the page shows {shown!r:.2000}"

        await wait_until_async(
            lambda: self.evaluate(expression), LIMIT, what, interval=0.2, detail=page_shows
        )

    async def screen_text(self, since: int = 0) -> str:
        """What the terminal received (from character ``since`` on), without escape sequences."""
        received = str(await self.evaluate(f"window.__queens.text.slice({since})"))
        return ESCAPE_SEQUENCE.sub("", received)

    async def received(self) -> int:
        """How many characters the terminal has received (a mark for :meth:`screen_text`)."""
        return int(await self.evaluate("window.__queens.text.length"))

    async def wait_for_text(self, text: str, since: int, what: str) -> None:
        """Poll until the terminal has shown ``text`` (escape sequences aside) after ``since``."""

        async def shown() -> bool:
            return text in await self.screen_text(since)

        async def page_state() -> str:
            got = await self.screen_text(since)
            focus = await self.evaluate(
                "[document.hasFocus(), document.activeElement && document.activeElement.className]"
            )
            return (
                f"focus {focus}; the page sent the server {self.sent_frames()[-8:]}; "
                f"the page got {got!r:.2000}"
            )

        await wait_until_async(shown, LIMIT, what, interval=0.2, detail=page_state)

    def sent_frames(self) -> list[str]:
        """What the page sent on its websockets (the keys go as ``["stdin", ...]``)."""
        return [
            str(event["params"]["response"]["payloadData"])[:80]
            for event in self.events
            if event["method"] == "Network.webSocketFrameSent"
        ]

    async def press(self, key: str, *, ctrl: bool = False) -> None:
        """A real key press (a letter, or ``Enter``), as the browser gets it from a keyboard."""
        if key == "Enter":
            code, virtual, text = "Enter", 13, "\r"
        else:
            code, virtual, text = f"Key{key.upper()}", ord(key.upper()), key
        typed = {} if ctrl else {"text": text}
        common = {"key": key, "code": code, "windowsVirtualKeyCode": virtual}
        common["modifiers"] = 2 if ctrl else 0
        await self.call("Input.dispatchKeyEvent", type="keyDown", **common, **typed)
        await self.call("Input.dispatchKeyEvent", type="keyUp", **common)

    async def close(self) -> None:
        self._reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._reader


async def read_line_matching(stream: asyncio.StreamReader, pattern: str, what: str) -> str:
    """Read ``stream`` until a line matches ``pattern``; the first group."""
    async with asyncio.timeout(LIMIT):
        while line := (await stream.readline()).decode("utf-8", "replace"):
            if match := re.search(pattern, line):
                return match.group(1)
    raise AssertionError(f"{what} ended before saying where it listens")


async def drain(stream: asyncio.StreamReader) -> None:
    """Read a process's output to its end, so it never blocks on a full pipe."""
    while await stream.read(65536):
        pass


async def end_group(process: asyncio.subprocess.Process, first: signal.Signals) -> None:
    """Send ``first`` to the process, then SIGKILL its whole group once it exits or stalls."""
    with contextlib.suppress(ProcessLookupError):
        process.send_signal(first)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(process.wait(), 30)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    await process.wait()


@asynccontextmanager
async def started(
    argv: list[str], *, cwd: Path, env: dict[str, str], stop: signal.Signals, pattern: str
) -> AsyncIterator[str]:
    """Run ``argv`` in a process group of its own; yields what ``pattern`` found on stderr."""
    process = await asyncio.create_subprocess_exec(
        *argv,
        cwd=cwd,
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
        start_new_session=True,
    )
    assert process.stderr is not None
    draining: asyncio.Task[None] | None = None
    try:
        found = await read_line_matching(process.stderr, pattern, argv[0])
        draining = asyncio.create_task(drain(process.stderr))
        yield found
    finally:
        await end_group(process, stop)
        if draining is not None:
            draining.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await draining


@dataclass
class ServedPage:
    """A dashboard open in Chromium through ``queens serve``, its terminal focused."""

    tools: DevTools
    downloads: Path
    """Where the browser saves downloads."""
    server_folder: Path
    """The server's current directory."""

    async def landed(self, count: int) -> list[Path]:
        """The downloaded files, once ``count`` downloads have completed (bounded wait)."""
        try:
            async with asyncio.timeout(DOWNLOAD_LIMIT):
                while self.completed() < count:
                    await asyncio.sleep(0.1)
        except TimeoutError:
            names = sorted(path.name for path in self.downloads.iterdir())
            seen = [
                event["params"].get("state", event["params"].get("suggestedFilename"))
                for event in self.tools.events
                if event["method"].startswith("Browser.download")
            ]
            raise AssertionError(
                f"{self.completed()} of {count} downloads completed within {DOWNLOAD_LIMIT} s; "
                f"the downloads folder holds {names}; the browser said {seen[-20:]}"
            ) from None
        return sorted(self.downloads.iterdir())

    def completed(self) -> int:
        return sum(
            event["method"] == "Browser.downloadProgress"
            and event["params"]["state"] == "completed"
            for event in self.tools.events
        )


@asynccontextmanager
async def served_page(tmp_path: Path) -> AsyncIterator[ServedPage]:
    """Serve a seeded dashboard, open it in headless Chromium, give its terminal the focus;
    afterwards close the browser and stop the server (every process they started)."""
    assert CHROMIUM is not None
    server_folder = tmp_path / "queens-server-folder"
    downloads = tmp_path / "downloads"
    profile = tmp_path / "chromium-profile"
    for folder in (server_folder, downloads, profile):
        folder.mkdir()
    env = dict(os.environ, QUEENS_STORE=str(tmp_path / "runs.sqlite3"), PYTHONUNBUFFERED="1")
    serve = [sys.executable, "-m", "tui", "serve", "--host", "127.0.0.1", "--port", "0"]
    async with (
        started(
            [*serve, "--n", "8", "--seed", "1"],
            cwd=server_folder,
            env=env,
            stop=signal.SIGINT,
            pattern=r"(http://127\.0\.0\.1:\d+/)",
        ) as page_url,
        started(
            [CHROMIUM, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "about:blank"],
            cwd=tmp_path,
            env=env,
            stop=signal.SIGTERM,
            pattern=r"DevTools listening on (ws://127\.0\.0\.1:\d+/\S+)",
        ) as browser_url,
        aiohttp.ClientSession() as client,
        client.ws_connect(browser_url, max_msg_size=0) as websocket,
    ):
        tools = DevTools(websocket)
        try:
            await tools.call(
                "Browser.setDownloadBehavior",
                page=False,
                behavior="allow",
                downloadPath=str(downloads),
                eventsEnabled=True,
            )
            target = await tools.call("Target.createTarget", page=False, url="about:blank")
            attached = await tools.call(
                "Target.attachToTarget", page=False, targetId=target["targetId"], flatten=True
            )
            tools.session_id = attached["sessionId"]
            await tools.call("Page.enable")
            # The page acts focused whatever the headless window's focus: a blur would reach
            # the dashboard as one, and keys go to the page's focused element either way.
            await tools.call("Emulation.setFocusEmulationEnabled", enabled=True)
            await tools.call("Network.enable")  # its websocket frames, said if a key is lost
            await tools.call("Page.addScriptToEvaluateOnNewDocument", source=WATCH_THE_TERMINAL)
            await tools.call("Page.navigate", url=page_url)
            await tools.wait_for("window.__queens.text.includes('Quit')", "the dashboard")
            await tools.wait_for(
                "performance.now() - window.__queens.last > 1000", "a quiet terminal"
            )
            await tools.evaluate("document.querySelector('.xterm-helper-textarea').focus()")
            await tools.wait_for(
                "document.activeElement && "
                "document.activeElement.classList.contains('xterm-helper-textarea')",
                "focus on the terminal",
            )
            yield ServedPage(tools, downloads, server_folder)
            await websocket.send_json({"id": 0, "method": "Browser.close"})
        finally:
            await tools.close()


async def test_e_under_serve_downloads_the_history_the_screen_and_the_figure(
    tmp_path: Path,
) -> None:
    drawn = figures_available()  # the server runs in this venv: matplotlib there too, or not
    async with served_page(tmp_path) as page:
        mark = await page.tools.received()
        await page.tools.press("e")
        # The toast first: a failure then tells a key not handled from a download not made.
        await page.tools.wait_for_text("The browser downloads", mark, "the toast")
        landed = await page.landed(3 if drawn else 2)  # the figure follows, once drawn
        said = await page.tools.screen_text(mark)
    # The opening run has not stepped, so it is not recorded: its files are named by its seed.
    names = [path.name for path in landed]
    shapes = r"queens-seed-\d+-gen-0(\.csv|\.svg|-figure\.svg)"
    assert all(re.fullmatch(shapes, name) for name in names), names
    (history,) = [path for path in landed if path.suffix == ".csv"]
    lines = history.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("generation,") and len(lines) >= 2
    pictures = [path for path in landed if path.suffix == ".svg"]
    assert len(pictures) == len(landed) - 1
    for picture in pictures:
        svg = picture.read_text(encoding="utf-8")
        assert svg.lstrip().startswith(("<svg", "<?xml")) and svg.rstrip().endswith("</svg>")
    assert any(name.endswith("-figure.svg") for name in names) == drawn
    assert page.server_folder.name not in said  # no server path in the toast
    assert list(page.server_folder.iterdir()) == []  # nor a file written on the server


async def test_the_palettes_screenshot_under_serve_is_downloaded(tmp_path: Path) -> None:
    async with served_page(tmp_path) as page:
        await page.tools.press("p", ctrl=True)
        await page.tools.wait_for("window.__queens.text.includes('Search')", "the palette")
        mark = await page.tools.received()
        for letter in "screenshot":
            await page.tools.press(letter)
        await page.tools.wait_for_text("Save screenshot", mark, "the command found")
        await page.tools.press("Enter")
        landed = await page.landed(1)
    assert len(landed) == 1 and re.fullmatch(r"queens-screen-[\d-]+\.svg", landed[0].name)
    svg = landed[0].read_text(encoding="utf-8")
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert list(page.server_folder.iterdir()) == []
