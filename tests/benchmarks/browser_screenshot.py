"""A screenshot of the dashboard in a real browser, through ``queens serve`` (``make screenshots``).

Starts ``queens serve`` on a free loopback port and headless Chromium with its DevTools port,
opens the page, waits until the dashboard has drawn (Chromium's ``--screenshot`` with
``--virtual-time-budget`` only ever captures textual-serve's splash), steps a seeded run a fixed
number of generations by sending the same keys the page's terminal sends, and saves
``screenshots/browser.png``. Then it closes the browser, stops the server and checks that no
dashboard process is left behind.

Not a test: CI has no browser. Without Chromium it prints why and exits 0.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Final

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the project's root: tests.waiting

from tests.waiting import wait_until_async

ROOT: Final = Path(__file__).resolve().parents[2]
OUT: Final = ROOT / "screenshots" / "browser.png"
WINDOW: Final = (1280, 800)
CONFIG_FLAGS: Final = ("--n", "40", "--seed", "3")
"""A seeded run whose board, chart and table all have something to show after a few steps."""
GENERATIONS: Final = 8
LIMIT: Final = 120.0
"""Seconds any one stage may take (the machine may be busy)."""
CHROMIUM_FLAGS: Final = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--remote-debugging-port=0",
)

# Runs in the page before its own scripts: keeps the terminal's websocket and the text it
# received, so this script can tell when the dashboard has drawn and send it keys.
WATCH_THE_TERMINAL: Final = """
(() => {
  const Native = window.WebSocket;
  window.__queens = {text: "", bytes: 0, last: 0, socket: null};
  window.WebSocket = function (url, protocols) {
    const socket = protocols === undefined ? new Native(url) : new Native(url, protocols);
    window.__queens.socket = socket;
    const decoder = new TextDecoder();
    socket.addEventListener("message", (event) => {
      if (typeof event.data === "string") return;
      const watch = window.__queens;
      watch.bytes += event.data.byteLength;
      watch.last = performance.now();
      watch.text = (watch.text + decoder.decode(event.data)).slice(-200000);
    });
    return socket;
  };
  window.WebSocket.prototype = Native.prototype;
})();
"""


def find_chromium() -> str | None:
    """The Chromium (or Chrome) executable, if one is installed."""
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        if found := shutil.which(name):
            return found
    return None


def read_line_matching(stream: Any, pattern: str, what: str) -> re.Match[str]:
    """Read ``stream`` until a line matches ``pattern`` (within :data:`LIMIT`)."""
    deadline = time.monotonic() + LIMIT
    while time.monotonic() < deadline:
        line = stream.readline()
        if not line:
            break
        if match := re.search(pattern, line):
            return match
    raise RuntimeError(f"{what} did not start")


class DevTools:
    """A minimal Chrome DevTools Protocol client over one page session."""

    def __init__(self, websocket: aiohttp.ClientWebSocketResponse) -> None:
        self.websocket = websocket
        self.session_id: str | None = None
        self._next_id = 0

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        """Send one command and return its result (events in between are skipped)."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params}
        if self.session_id is not None:
            message["sessionId"] = self.session_id
        await self.websocket.send_json(message)
        async with asyncio.timeout(LIMIT):
            while True:
                reply = json.loads((await self.websocket.receive()).data)
                if reply.get("id") == self._next_id:
                    if "error" in reply:
                        raise RuntimeError(f"{method}: {reply['error']}")
                    result: dict[str, Any] = reply.get("result", {})
                    return result

    async def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page."""
        result = await self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return result["result"].get("value")

    async def wait_for(self, expression: str, what: str) -> None:
        """Poll until ``expression`` is true in the page."""
        await wait_until_async(lambda: self.evaluate(expression), LIMIT, what, interval=0.2)

    async def wait_until_quiet(self, seconds: float = 1.0) -> None:
        """Poll until the dashboard has sent nothing for ``seconds``."""
        await self.wait_for(
            f"performance.now() - window.__queens.last > {seconds * 1000}", "a quiet terminal"
        )

    async def press(self, key: str) -> None:
        """Send a key as the page's terminal does (``["stdin", key]`` on its websocket)."""
        await self.evaluate(f"window.__queens.socket.send(JSON.stringify(['stdin', {key!r}]))")


async def capture(browser_url: str, page_url: str) -> bytes:
    """Open ``page_url``, wait for the dashboard, step the run, return a PNG."""
    async with aiohttp.ClientSession() as client, client.ws_connect(browser_url) as websocket:
        tools = DevTools(websocket)
        target = await tools.call("Target.createTarget", url="about:blank")
        attached = await tools.call(
            "Target.attachToTarget", targetId=target["targetId"], flatten=True
        )
        tools.session_id = attached["sessionId"]
        await tools.call("Page.enable")
        await tools.call(
            "Emulation.setDeviceMetricsOverride",
            width=WINDOW[0],
            height=WINDOW[1],
            deviceScaleFactor=1,
            mobile=False,
        )
        await tools.call("Page.addScriptToEvaluateOnNewDocument", source=WATCH_THE_TERMINAL)
        await tools.call("Page.navigate", url=page_url)
        # Drawn: the footer's key descriptions have arrived, and the app has gone quiet.
        await tools.wait_for("window.__queens.text.includes('Quit')", "the dashboard to draw")
        await tools.wait_until_quiet()
        for _ in range(GENERATIONS):
            await tools.press("n")
            await asyncio.sleep(0.05)
        await tools.wait_until_quiet(2.0)
        shot = await tools.call("Page.captureScreenshot", format="png")
        received = await tools.evaluate("window.__queens.bytes")
        print(f"the dashboard sent {received} bytes to the browser")
        await websocket.send_json({"id": 0, "method": "Browser.close"})
        return base64.b64decode(shot["data"])


def session_processes(server_pid: int) -> list[int]:
    """Dashboard processes started by the server (their own process groups, so found by
    command line)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().split(b"\0")
            status = (entry / "status").read_text()
        except OSError:
            continue
        ppid = int(re.search(r"PPid:\s+(\d+)", status).group(1))  # type: ignore[union-attr]
        if ppid == server_pid and b"tui" in command:
            found.append(int(entry.name))
    return found


def main() -> int:
    """Take the screenshot; 0 also when there is no browser to take it with."""
    chromium = find_chromium()
    if chromium is None:
        print("browser_screenshot: skipped, no chromium found (apt-get install chromium)")
        return 0
    server = subprocess.Popen(
        [sys.executable, "-m", "tui", "serve", "--port", "0", *CONFIG_FLAGS],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    with tempfile.TemporaryDirectory(prefix="queens-chromium-") as profile:
        browser = subprocess.Popen(
            [
                chromium,
                *CHROMIUM_FLAGS,
                f"--user-data-dir={profile}",
                f"--window-size={WINDOW[0]},{WINDOW[1]}",
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            page_url = read_line_matching(server.stderr, r"(http://\S+)", "queens serve").group(1)
            browser_url = read_line_matching(
                browser.stderr, r"DevTools listening on (ws://\S+)", "chromium"
            ).group(1)
            png = asyncio.run(capture(browser_url, page_url))
            with_sessions = session_processes(server.pid)
        finally:
            browser.terminate()
            browser.wait(30)
            server.send_signal(signal.SIGINT)
            server.wait(30)
    OUT.write_bytes(png)
    print(f"wrote {OUT.relative_to(ROOT)} ({len(png)} bytes, {WINDOW[0]}x{WINDOW[1]})")
    left = [pid for pid in with_sessions if Path(f"/proc/{pid}").exists()]
    print(f"dashboard processes: {len(with_sessions)} while open, {len(left)} after the server")
    return 1 if left else 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    # The served dashboard records its run: into a throwaway store, never the user's, and in
    # the default theme whatever the user saved.
    scratch = tempfile.mkdtemp(prefix="queens-browser-shot-")
    os.environ["QUEENS_STORE"] = os.path.join(scratch, "runs.sqlite3")
    os.environ["QUEENS_GA_CONFIG_DIR"] = scratch
    sys.exit(main())
