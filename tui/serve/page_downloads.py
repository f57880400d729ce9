"""Downloads in the served page: every file a dashboard delivers reaches the browser's
downloads.

textual-serve's page starts each delivery with ``window.open(url, "_blank")``. A browser lets a
page open a window only during a user gesture, and opening one uses the gesture up: when one
key press delivers two files (``e``: the history and the screen), the first window opens and
downloads, and the second is blocked as a pop-up, silently. This script, put into the page
before textual-serve's own, turns ``window.open`` of the server's ``/download/`` URLs into a
click on a hidden ``<a download>`` link, which needs no window and uses up no gesture; any
other URL (``App.open_url``) still opens a window as before.

The ``download`` attribute also saves a file the server sends inline (an SVG) instead of
showing it in a tab.
"""

from __future__ import annotations

from typing import Final

DOWNLOAD_SCRIPT: Final = """<script>
(() => {
  const openWindow = window.open.bind(window);
  window.open = (url, target, features) => {
    let address = null;
    try {
      address = new URL(String(url), window.location.href);
    } catch (error) {
      return openWindow(url, target, features);
    }
    if (address.origin !== window.location.origin || !address.pathname.startsWith("/download/")) {
      return openWindow(url, target, features);
    }
    const link = document.createElement("a");
    link.href = address.href;
    link.download = "";
    link.style.display = "none";
    document.body.appendChild(link);
    link.click();
    link.remove();
    return null;
  };
})();
</script>"""
"""Runs before textual-serve's script, so that script's ``window.open`` is this one."""


def with_download_script(page: str) -> str:
    """The page with :data:`DOWNLOAD_SCRIPT` first in its ``<head>``.

    Raises:
        ValueError: When the page has no ``<head>`` (textual-serve's template changed).
    """
    head = page.find("<head>")
    if head < 0:
        raise ValueError("the dashboard page has no <head> to put the download script in")
    at = head + len("<head>")
    return page[:at] + "\n" + DOWNLOAD_SCRIPT + page[at:]
