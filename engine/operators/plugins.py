"""Plug-in operators: a user's numpy function named ``path/to/ops.py:function``, by content.

A plug-in is named where a built-in operator is (``--mutation ops.py:my_mutation``). The file is
read once, and its source is kept under its SHA-256: the config's value becomes
``ops.py:my_mutation@<first 16 hex digits of the digest>`` (:func:`pinned_name`), so that a
config names the exact source it runs, and a config's mapping carries the source itself
(:func:`recorded_sources`, read back by :func:`remember_recorded`). A run replayed or resumed
from its record, or shipped to a sweep's worker, runs the recorded source, whatever the file
holds now.

Each source is compiled into a fresh module of its own, named after its digest (never
``importlib.reload``): two versions of a file are two modules, and a run keeps the one it named.

Where plug-ins may come from is a policy of the process (:func:`restrict_plugins`): under
``queens serve`` a browser user must never make the server run code, so files are refused
there unless they lie inside the directory the server was started with.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Final

PLUGIN_SUFFIX: Final = ".py"
"""A plug-in file's name ends so."""

SHORT_DIGEST: Final = 16
"""Hex digits of the SHA-256 a plug-in's config name carries (64 bits)."""

RESTRICTED_VARIABLE: Final = "QUEENS_PLUGINS_RESTRICTED"
"""Set (to anything) in a process that may load plug-ins only from :data:`ALLOWED_VARIABLE`."""

ALLOWED_VARIABLE: Final = "QUEENS_PLUGIN_DIR"
"""The one directory plug-ins may be loaded from, in a restricted process."""


class PluginError(ValueError):
    """A plug-in that cannot be used: its file, its function and what is wrong.

    Attributes:
        name: The plug-in as the user named it (``ops.py:function``).
        check: What failed (``file``, ``syntax``, ``shape``, ``deterministic``, ...).
        problem: What was found, and what is expected.
    """

    def __init__(self, name: str, check: str, problem: str) -> None:
        self.name, self.check, self.problem = name, check, problem
        super().__init__(f"{name}: check {check!r} failed: {problem}")


@dataclass(frozen=True)
class PluginName:
    """A plug-in's name taken apart: ``path:function``, and the digest once pinned."""

    path: str
    function: str
    digest: str | None

    @property
    def shown(self) -> str:
        """``path:function``, as the user wrote it."""
        return f"{self.path}:{self.function}"

    @property
    def pinned(self) -> str:
        """``path:function@digest`` (the digest's first :data:`SHORT_DIGEST` hex digits)."""
        return f"{self.shown}@{self.digest}" if self.digest else self.shown


@dataclass(frozen=True)
class PluginSource:
    """A plug-in file's text as it was read: where from, its SHA-256 (hex) and the source."""

    path: str
    sha256: str
    source: str


_SOURCES: dict[str, PluginSource] = {}
"""Every source read or received in this process, by the short digest."""

_MODULES: dict[str, ModuleType] = {}
"""Each source compiled once, by the short digest."""

_RESTRICTION: list[str | None] = []
"""The policy set by :func:`restrict_plugins` (empty: read from the environment)."""


def is_plugin_name(value: object) -> bool:
    """Whether an operator value names a plug-in (``file.py:function``) rather than a built-in."""
    return isinstance(value, str) and f"{PLUGIN_SUFFIX}:" in value


def parse_name(value: str) -> PluginName:
    """``path.py:function[@digest]`` taken apart.

    Raises:
        PluginError: If the function is not a Python name or the digest is not hex.
    """
    path, _, rest = value.strip().rpartition(f"{PLUGIN_SUFFIX}:")
    path += PLUGIN_SUFFIX
    function, _, digest = rest.partition("@")
    shown = f"{path}:{function}"
    if not function.isidentifier():
        raise PluginError(shown, "name", f"{function!r} is not a Python function name")
    if digest and not (
        len(digest) == SHORT_DIGEST and all(c in "0123456789abcdef" for c in digest)
    ):
        raise PluginError(shown, "name", f"{digest!r} is not a digest of {SHORT_DIGEST} hex digits")
    return PluginName(path, function, digest or None)


def plugin_label(value: str) -> str:
    """A plug-in's name for a narrow place: the file's own name, the function and, once
    pinned, the first 8 hex digits of its source's digest (``ops.py:my_mutation@3f9c01b2``)."""
    name = parse_name(value)
    version = f"@{name.digest[:8]}" if name.digest else ""
    return f"{Path(name.path).name}:{name.function}{version}"


def restrict_plugins(directory: str | None) -> None:
    """Allow plug-ins in this process only from ``directory`` (``None``: from nowhere).

    Also sets the environment, so that processes started from this one (the dashboard a
    server runs for each browser) inherit the restriction.
    """
    _RESTRICTION[:] = [directory]
    os.environ[RESTRICTED_VARIABLE] = "1"
    if directory is None:
        os.environ.pop(ALLOWED_VARIABLE, None)
    else:
        os.environ[ALLOWED_VARIABLE] = directory


def _restriction() -> tuple[bool, str | None]:
    """Whether plug-in files are restricted here, and to which directory."""
    if _RESTRICTION:
        return True, _RESTRICTION[0]
    if os.environ.get(RESTRICTED_VARIABLE):
        return True, os.environ.get(ALLOWED_VARIABLE) or None
    return False, None


def _check_allowed(name: PluginName) -> Path:
    """The file's resolved path, if this process may load it.

    Raises:
        PluginError: If plug-ins are restricted here and the file is not inside the allowed
            directory (symbolic links resolved first).
    """
    resolved = Path(name.path).expanduser().resolve()
    restricted, directory = _restriction()
    if not restricted:
        return resolved
    if directory is None:
        raise PluginError(
            name.shown, "allowed", "this server loads no plug-in (see --allow-plugins)"
        )
    allowed = Path(directory).expanduser().resolve()
    if not resolved.is_relative_to(allowed):
        raise PluginError(name.shown, "allowed", f"only files inside {allowed} may be loaded here")
    return resolved


def read_source(name: PluginName) -> PluginSource:
    """Read a plug-in file and remember its source under its digest.

    Raises:
        PluginError: If the file may not be loaded here, cannot be read, or is not UTF-8.
    """
    resolved = _check_allowed(name)
    try:
        source = resolved.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise PluginError(name.shown, "file", f"no file {name.path}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise PluginError(name.shown, "file", f"{name.path} cannot be read: {error}") from None
    return remember_source(name.path, source)


def remember_source(path: str, source: str, sha256: str | None = None) -> PluginSource:
    """Keep a source under its digest (checked against ``sha256`` when one is given).

    Raises:
        PluginError: If the source does not have the digest given.
    """
    digest = hashlib.sha256(source.encode("utf-8")).hexdigest()
    if sha256 is not None and sha256 != digest:
        raise PluginError(path, "digest", f"the source's SHA-256 is {digest}, not {sha256}")
    kept = _SOURCES.setdefault(digest[:SHORT_DIGEST], PluginSource(path, digest, source))
    if kept.sha256 != digest:  # 64 bits of two different sources agree: refuse to guess
        raise PluginError(path, "digest", f"two sources share the digest prefix {digest[:16]}")
    return kept


def pinned_name(value: str) -> str:
    """A plug-in's config name with its source's digest: ``path:function@digest``.

    A name already pinned is kept when its source is known here; else the file is read, and
    must still hold that source.

    Raises:
        PluginError: If the name is malformed, or the file cannot be read or has changed.
    """
    name = parse_name(value)
    if name.digest is not None and name.digest in _SOURCES:
        return name.pinned
    read = read_source(name)
    short = read.sha256[:SHORT_DIGEST]
    if name.digest is not None and name.digest != short:
        raise PluginError(
            name.shown, "digest", f"{name.path} now has digest {short}, not {name.digest}"
        )
    return PluginName(name.path, name.function, short).pinned


def source_of(value: str) -> PluginSource:
    """The source a pinned plug-in name runs.

    Raises:
        PluginError: If the name is not pinned or its source is not known in this process.
    """
    name = parse_name(value)
    if name.digest is None or name.digest not in _SOURCES:
        raise PluginError(name.shown, "source", "its source is not known here (not read yet)")
    return _SOURCES[name.digest]


def _module(name: PluginName) -> ModuleType:
    """The module compiled from a pinned name's source: one per digest, made once."""
    assert name.digest is not None
    module = _MODULES.get(name.digest)
    if module is not None:
        return module
    source = source_of(name.pinned)
    try:
        code = compile(source.source, name.path, "exec")
    except SyntaxError as error:
        raise PluginError(name.shown, "syntax", f"line {error.lineno}: {error.msg}") from None
    spec = importlib.util.spec_from_loader(f"queens_plugin_{name.digest}", loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    module.__file__ = name.path
    try:
        exec(code, module.__dict__)  # the user's own file, as `python ops.py` would run it
    except Exception as error:
        raise PluginError(
            name.shown, "load", f"loading raised {type(error).__name__}: {error}"
        ) from None
    _MODULES[name.digest] = module
    return module


def plugin_function(value: str) -> Callable[..., Any]:
    """The function a plug-in name names, from its recorded source.

    Raises:
        PluginError: If the source does not compile or load, or has no such function.
    """
    name = parse_name(value)
    if name.digest is None:
        name = parse_name(pinned_name(value))
    module = _module(name)
    function = getattr(module, name.function, None)
    if not callable(function):
        defined = sorted(
            key for key, item in vars(module).items() if callable(item) and not key.startswith("_")
        )
        hint = f"; it defines {', '.join(defined)}" if defined else ""
        raise PluginError(name.shown, "function", f"{name.path} has no {name.function}{hint}")
    return function  # type: ignore[no-any-return]


def recorded_sources(values: Mapping[str, Any]) -> dict[str, dict[str, str]]:
    """The sources of the plug-ins a config's values name, by short digest: what a record keeps
    (``{digest: {"path", "sha256", "source"}}``); empty when only built-ins are named."""
    recorded: dict[str, dict[str, str]] = {}
    for value in values.values():
        if is_plugin_name(value):
            source = source_of(value)
            recorded[source.sha256[:SHORT_DIGEST]] = {
                "path": source.path,
                "sha256": source.sha256,
                "source": source.source,
            }
    return recorded


def remember_recorded(recorded: object) -> None:
    """Keep the sources a config's mapping carries (see :func:`recorded_sources`).

    Raises:
        PluginError: If the mapping is malformed or a source does not have its digest.
    """
    if not isinstance(recorded, Mapping):
        raise PluginError("plugins", "record", "a mapping of digests to sources is expected")
    for key, entry in recorded.items():
        if not isinstance(entry, Mapping) or not all(
            isinstance(entry.get(part), str) for part in ("path", "sha256", "source")
        ):
            raise PluginError(str(key), "record", "path, sha256 and source (text) are expected")
        # Where plug-ins are restricted, a recorded source is run only if its file's place is
        # allowed: a record is code too.
        _check_allowed(PluginName(entry["path"], "recorded", None))
        kept = remember_source(entry["path"], entry["source"], entry["sha256"])
        if kept.sha256[:SHORT_DIGEST] != key:
            raise PluginError(entry["path"], "record", f"kept under {key}, not its digest")


def file_changes(values: Mapping[str, Any]) -> list[str]:
    """For each plug-in a config names, a note when its file has changed or gone since: the
    recorded source is what runs."""
    notes: list[str] = []
    for value in values.values():
        if not is_plugin_name(value):
            continue
        name, source = parse_name(value), source_of(value)
        try:
            now = Path(name.path).expanduser().read_bytes()
        except OSError:
            notes.append(f"{name.shown}: {name.path} is gone; the recorded source is used")
            continue
        if hashlib.sha256(now).hexdigest() != source.sha256:
            notes.append(f"{name.shown}: {name.path} has changed; the recorded source is used")
    return notes
